"""Text of a tree-sitter node of a JavaScript or TypeScript parse, as the API readers need it."""

from __future__ import annotations

import tree_sitter


def node_text(node: tree_sitter.Node | None) -> str:
    """The node's source text; a string literal's value without its quotes; "" for none."""
    if node is None or node.text is None:
        return ""
    if node.type == "string":
        return "".join(node_text(c) for c in node.children if c.type == "string_fragment")
    return node.text.decode("utf-8", errors="replace")
