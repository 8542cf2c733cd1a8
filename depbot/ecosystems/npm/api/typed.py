"""The members of a value that a declaration file types by a class or an interface.

``export declare const faker: Faker`` with ``class Faker { readonly company: Company; locale:
string }``, and ``class Company { companyName(): string }`` in a file it imports: the value's
members are ``faker.company`` and ``faker.locale`` and, a level down,
``faker.company.companyName``. A client that calls ``faker.company.companyName()`` uses that
name, and a release whose ``Company`` lost ``companyName`` removes it. Without them, the
value's own fate stood for every member it has: a diff that never looked at them.

A type is read where it is declared: in the file, or in the file a named import brings it
from (``import { F as Faker } from './chunk.js'``, a few files deep). A type that is not
found, or whose base is not found, is not modelled: its members are not listed, and the
value's fate stands for them as before. Parsed with tree-sitter; no code runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import tree_sitter

from depbot.ecosystems.npm.api.nodes import node_text
from depbot.ecosystems.npm.api.returned import (
    MEMBER_NODES,
    declared_types,
    export_aliases,
    named_imports,
    own_members,
    type_bases,
    unwrap,
)

Parse = Callable[[Path], "tree_sitter.Node | None"]
Resolve = Callable[[Path, str], "Path | None"]
LEVELS = 2  # `faker.company`, then `faker.company.companyName`
MAX_HOPS = 3  # imports followed to find where a type is declared
MAX_FILES = 200  # files of one release read for its typed values (one reader per release)
MAX_NAMES = 4_000

# where a type is declared: the file, its parse, and the declaration
Found = tuple[Path, tree_sitter.Node, tree_sitter.Node]
# a type's members: name → (the file it is declared in, its parse, the member's type name)
Members = dict[str, tuple[Path, tree_sitter.Node, str]]


class TypedValues:
    """The members of an entry file's exported values typed by a class or interface."""

    def __init__(self, parse: Parse, resolve: Resolve) -> None:
        self._parse = parse
        self._resolve = resolve
        self._programs: dict[Path, tree_sitter.Node | None] = {}
        self._types: dict[Path, dict[str, list[tree_sitter.Node]]] = {}
        self._members: dict[tuple[Path, str], Members | None] = {}

    def members(self, file: Path, program: tree_sitter.Node, exported: set[str]) -> set[str]:
        """``value.member`` (and one level down) of each exported ``value: Type``."""
        aliases = export_aliases(program)
        typed = typed_constants(program)
        out: set[str] = set()
        for name in sorted(exported):
            if "(" in name or "." in name:
                continue
            type_name = typed.get(aliases.get(name, name))
            if type_name:
                out |= self._names(name, file, program, type_name, LEVELS, frozenset())
            if len(out) > MAX_NAMES:
                break
        return out

    def _names(
        self,
        prefix: str,
        file: Path,
        program: tree_sitter.Node,
        type_name: str,
        levels: int,
        seen: frozenset[str],
    ) -> set[str]:
        found = self._type_members(file, program, type_name)
        if found is None:
            return set()
        out = {f"{prefix}.{m}" for m in found}
        if levels <= 1:
            return out
        for member, (where, parsed, member_type) in sorted(found.items()):
            if member_type and member_type not in seen:
                deeper = seen | {type_name}
                out |= self._names(
                    f"{prefix}.{member}", where, parsed, member_type, levels - 1, deeper
                )
        return out

    def _type_members(self, file: Path, program: tree_sitter.Node, name: str) -> Members | None:
        """Member → (the file it is declared in, its parse, the member's type name), bases'
        members included; None when the type or one of its bases is not found (read once per
        type: a value re-exported under many names asks again for each)."""
        if (file, name) not in self._members:
            self._members[(file, name)] = self._collect(file, program, name, set())
        return self._members[(file, name)]

    def _collect(
        self, file: Path, program: tree_sitter.Node, name: str, seen: set[str]
    ) -> Members | None:
        if name in seen:
            return {}
        seen.add(name)
        found = self._lookup(file, program, name, 0)
        if not found:
            return None
        out: Members = {}
        for where, parsed, node in found:
            types = member_types(node)
            for member in sorted(own_members(node)):
                out.setdefault(member, (where, parsed, types.get(member, "")))
            for base in type_bases(node):
                inner = self._collect(where, parsed, base, seen)
                if inner is None:
                    return None
                for member, value in inner.items():
                    out.setdefault(member, value)
        return out

    def _lookup(self, file: Path, program: tree_sitter.Node, name: str, hops: int) -> list[Found]:
        if hops:  # the name another file imports: what this file exports under it
            name = export_aliases(program).get(name, name)  # `export { Faker as F }`
        if file not in self._types:
            self._types[file] = declared_types(program)
        types = self._types[file]
        if name in types:
            return [(file, program, node) for node in types[name]]
        imported = named_imports(program).get(name)
        if imported is None or hops >= MAX_HOPS:
            return []
        target = self._resolve(file, imported[0])
        other = self._program(target) if target is not None else None
        if target is None or other is None:
            return []
        return self._lookup(target, other, imported[1], hops + 1)

    def _program(self, file: Path) -> tree_sitter.Node | None:
        if file not in self._programs:
            if len(self._programs) >= MAX_FILES:
                return None
            self._programs[file] = self._parse(file)
        return self._programs[file]


def _type_name(annotation: tree_sitter.Node | None) -> str:
    """``Faker`` of ``: Faker`` or ``: Faker<T>``; "" for any other type."""
    kind = annotation.named_children[0] if annotation and annotation.named_children else None
    if kind is not None and kind.type == "generic_type":
        kind = kind.child_by_field_name("name")
    return node_text(kind) if kind is not None and kind.type == "type_identifier" else ""


def typed_constants(program: tree_sitter.Node) -> dict[str, str]:
    """``{local name: type name}`` of the constants a file declares with a named type."""
    declarations = [unwrap(statement) for statement in program.named_children]
    return _named_types(
        d
        for node in declarations
        if node.type in ("lexical_declaration", "variable_declaration")
        for d in node.named_children
        if d.type == "variable_declarator"
    )


def member_types(node: tree_sitter.Node) -> dict[str, str]:
    """``{property: its type name}`` of a class, interface or object type (properties typed
    by a named type only; a method's result is not followed)."""
    body = node.child_by_field_name("body") or node.child_by_field_name("value")
    methods = ("method_signature", "method_definition")
    return _named_types(
        m
        for m in (body.named_children if body is not None else [])
        if m.type in MEMBER_NODES and m.type not in methods
    )


def _named_types(nodes: Iterable[tree_sitter.Node]) -> dict[str, str]:
    """``{name: type name}`` of the declarators or members that carry a named type."""
    out: dict[str, str] = {}
    for node in nodes:
        name = node_text(node.child_by_field_name("name"))
        type_name = _type_name(node.child_by_field_name("type"))
        if name and type_name:
            out.setdefault(name, type_name)
    return out
