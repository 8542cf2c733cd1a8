"""Which exported names of a declaration file can be written as types. Pure (reads files).

In TypeScript one name may be a value, a type, or both: a class or an enum is both, an
interface or a type alias is a type, a ``const``, a ``function`` or a namespace of values is
a value only. ``import { Client } from 'mqtt'`` then ``let c: Client`` compiles only while
``Client`` has a type meaning: mqtt 5 re-declares it ``export declare const Client: typeof
MqttClient`` (TS2749, "refers to a value, but is being used as a type"), and knex 0.95's
``export default knex`` (a function and a namespace) is no longer the interface that
``import Knex from 'knex'`` gave with ``export = Knex``. Parsed with tree-sitter; no code runs.

A name is read from its declarations in the file (merged: any one with a type meaning
gives it one), through ``export { a as b }``, ``export default x`` / ``export = x``, and an
``import``/``export … from './x'`` of a relative file, one file deep. A name whose
declarations are not found is left out: not known, never "not a type".
"""

from __future__ import annotations

from pathlib import Path

import tree_sitter

from depbot.ecosystems.npm.api.exports import parse, resolve_relative
from depbot.ecosystems.npm.api.nodes import node_text

__all__ = ["type_meanings"]

_TYPES = ("class_declaration", "abstract_class_declaration", "interface_declaration",
          "type_alias_declaration", "enum_declaration")  # fmt: skip
_VALUES = ("function_signature", "function_declaration", "lexical_declaration",
           "variable_declaration", "internal_module", "module")  # fmt: skip
MAX_DEPTH = 1  # files followed from the declaration file: one it imports or re-exports from


def type_meanings(declaration: Path, root: Path, depth: int = 0) -> dict[str, bool]:
    """Exported name → whether it has a type meaning (``default`` for ``export default x``
    and ``export = x``), for the names whose declarations the file (or one it names) shows."""
    program = parse(declaration)
    if program is None:
        return {}
    local = _local_meanings(program)
    imported = _imports(program) if depth < MAX_DEPTH else {}
    out: dict[str, bool] = {}
    for node in program.named_children:
        if node.type != "export_statement":
            continue
        source = node.child_by_field_name("source")
        for child in node.named_children:
            if child.type == "export_clause":
                pairs = _clause(child)
                if source is not None:  # `export { A as B } from './x'`
                    far = _far(declaration, root, node_text(source).strip("'\""), depth)
                    out.update({out_name: far[name] for name, out_name in pairs if name in far})
                    continue
                for name, out_name in pairs:
                    got = _meaning(name, local, imported, declaration, root, depth)
                    if got is not None:
                        out[out_name] = got
            elif child.type == "identifier":  # `export default x` / `export = x`
                got = _meaning(node_text(child), local, imported, declaration, root, depth)
                if got is not None:
                    out["default"] = got
            else:
                for name, meaning in _declared(child):
                    out[name] = out.get(name, False) or meaning
    return out


def _declared(node: tree_sitter.Node) -> list[tuple[str, bool]]:
    """(name, has a type meaning) of a declaration (inside ``declare`` too)."""
    if node.type == "ambient_declaration":
        return [d for c in node.named_children for d in _declared(c)]
    if node.type not in _TYPES + _VALUES:
        return []
    if node.type in ("lexical_declaration", "variable_declaration"):
        names = [node_text(d.child_by_field_name("name")) for d in node.named_children
                 if d.type == "variable_declarator" and d.child_by_field_name("name")]  # fmt: skip
        return [(n, False) for n in names]
    name = node.child_by_field_name("name")
    return [(node_text(name), node.type in _TYPES)] if name is not None else []


def _local_meanings(program: tree_sitter.Node) -> dict[str, bool]:
    out: dict[str, bool] = {}
    for node in program.named_children:
        inner = node.named_children if node.type == "export_statement" else [node]
        for child in inner:
            for name, meaning in _declared(child):
                out[name] = out.get(name, False) or meaning
    return out


def _imports(program: tree_sitter.Node) -> dict[str, tuple[str, str]]:
    """Local name → (relative module, the name it has there) of each relative import."""
    out: dict[str, tuple[str, str]] = {}
    for node in program.named_children:
        source = node.child_by_field_name("source") if node.type == "import_statement" else None
        spec = node_text(source).strip("'\"") if source is not None else ""
        if not spec.startswith("."):
            continue
        for clause in (c for c in node.named_children if c.type == "import_clause"):
            for part in clause.named_children:
                if part.type == "identifier":
                    out[node_text(part)] = (spec, "default")
                elif part.type == "named_imports":
                    for name, local in _clause(part):
                        out[local] = (spec, name)
    return out


def _clause(clause: tree_sitter.Node) -> list[tuple[str, str]]:
    """(name, as) of each specifier of ``{ a, b as c }``."""
    out = []
    for spec in clause.named_children:
        name, alias = spec.child_by_field_name("name"), spec.child_by_field_name("alias")
        if name is not None:
            out.append((node_text(name), node_text(alias or name)))
    return out


def _meaning(
    name: str, local: dict[str, bool], imported: dict, declaration: Path, root: Path, depth: int
) -> bool | None:
    if name in local:
        return local[name]
    if name in imported:
        spec, there = imported[name]
        return _far(declaration, root, spec, depth).get(there)
    return None


def _far(declaration: Path, root: Path, spec: str, depth: int) -> dict[str, bool]:
    """The meanings of the names the relative file ``spec`` exports (one file deep: its own
    imports and re-exports are not followed)."""
    if depth >= MAX_DEPTH:
        return {}
    target = resolve_relative(declaration, spec, root)
    if target is None or target == declaration:
        return {}
    return type_meanings(target, root, depth + 1)
