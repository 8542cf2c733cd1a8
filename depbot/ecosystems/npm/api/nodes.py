"""Text and walks of a tree-sitter parse of JavaScript or TypeScript, as the API readers need."""

from __future__ import annotations

import tree_sitter


def node_text(node: tree_sitter.Node | None) -> str:
    """The node's source text; a string literal's value without its quotes; "" for none."""
    if node is None or node.text is None:
        return ""
    if node.type == "string":
        return "".join(node_text(c) for c in node.children if c.type == "string_fragment")
    return node.text.decode("utf-8", errors="replace")


def descendants(node: tree_sitter.Node):
    """Every named node under ``node``, depth first."""
    for child in node.named_children:
        yield child
        yield from descendants(child)
