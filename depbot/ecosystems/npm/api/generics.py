"""The type parameters a release's declarations give its generic types. Pure (reads a file).

``export type Match<P extends ParamData = ParamData>`` lets code write a bare ``Match``;
a release that drops the default (``Match<P extends ParamData>``) or adds a parameter
without one makes every bare use a compile error ("Generic type 'Match<P>' requires 1 type
argument(s)"), though the name is still exported. Parsed with tree-sitter; no code runs.
"""

from __future__ import annotations

from pathlib import Path

import tree_sitter

from depbot.ecosystems.npm.api.exports import parse
from depbot.ecosystems.npm.api.nodes import node_text

__all__ = ["type_parameters"]

_GENERIC = ("interface_declaration", "type_alias_declaration", "class_declaration",
            "abstract_class_declaration")  # fmt: skip
_WRAPPERS = ("export_statement", "ambient_declaration")


def type_parameters(declaration: Path) -> dict[str, tuple[int, int]]:
    """Each top-level generic type of the declaration file: name → (how many type
    parameters, how many of them have no default)."""
    program = parse(declaration)
    if program is None:
        return {}
    out: dict[str, tuple[int, int]] = {}
    for node in program.named_children:
        for decl in _declarations(node):
            name = decl.child_by_field_name("name")
            params = decl.child_by_field_name("type_parameters")
            if name is None or params is None:
                continue
            listed = [p for p in params.named_children if p.type == "type_parameter"]
            required = sum(all(c.type != "default_type" for c in p.named_children) for p in listed)
            out.setdefault(node_text(name), (len(listed), required))
    return out


def _declarations(node: tree_sitter.Node, depth: int = 0) -> list[tree_sitter.Node]:
    if node.type in _GENERIC:
        return [node]
    if node.type in _WRAPPERS and depth < 2:
        return [d for c in node.named_children for d in _declarations(c, depth + 1)]
    return []
