"""The members of the objects a package's functions return, read from its type declarations.

``declare function createClient(): Client`` with ``interface Client { get(); head() }`` in the
same file: what ``createClient()`` makes has ``get`` and ``head``. Each is named
``createClient().head`` among the file's names (TAPIR's returned objects): a client that calls
``client.head()`` on what ``createClient()`` made uses ``pkg:createClient().head``, and a release
whose ``Client`` lost ``head`` removes that name. ``Promise<Client>`` is read as ``Client`` (what
``await`` gives). An exported class is made with ``new``: ``new Pool().query`` (``new
default()`` for ``export default class``). A return type that is not an interface or class of the same file, or one
that extends a type the file does not declare, is not modelled: its members are not listed,
and ``createClient()`` itself is not (the diff then says nothing of them, as before).
"""

from __future__ import annotations

import tree_sitter

from depbot.ecosystems.npm.api.nodes import node_text

MAX_MEMBERS = 2_000
_MEMBER_NODES = ("method_signature", "property_signature", "public_field_definition",
                 "method_definition", "abstract_method_signature")  # fmt: skip
_TYPES = ("interface_declaration", "class_declaration", "abstract_class_declaration")


def _unwrap(node: tree_sitter.Node) -> tree_sitter.Node:
    """The declaration inside ``export …`` / ``declare …``."""
    while node.type in ("export_statement", "ambient_declaration"):
        inner = node.child_by_field_name("declaration")
        if inner is None:
            inner = next((c for c in node.named_children if c.type != "comment"), None)
        if inner is None or inner is node:
            break
        node = inner
    return node


def _own_members(node: tree_sitter.Node) -> set[str]:
    body = node.child_by_field_name("body")
    found: set[str] = set()
    for member in body.named_children if body is not None else []:
        if member.type not in _MEMBER_NODES:
            continue
        words = {c.type for c in member.children} | {node_text(c) for c in member.children[:3]}
        if "static" in words or "private" in words or "#" in node_text(member)[:1]:
            continue
        name = node_text(member.child_by_field_name("name"))
        if name and name != "constructor":
            found.add(name)
    return found


def _bases(node: tree_sitter.Node) -> list[str]:
    names = []
    for child in node.named_children:
        if child.type in ("extends_type_clause", "class_heritage", "extends_clause"):
            for part in child.named_children:
                target = part.child_by_field_name("value") or part
                names.append(node_text(target).split("<")[0].strip())
    return [n for n in names if n]


def _return_type(node: tree_sitter.Node) -> str:
    annotation = node.child_by_field_name("return_type")
    kind = annotation.named_children[0] if annotation and annotation.named_children else None
    if kind is not None and kind.type == "generic_type":
        if node_text(kind.child_by_field_name("name")) == "Promise":
            args = [c for c in kind.named_children if c.type == "type_arguments"]
            inner = args[0].named_children if args else []
            kind = inner[0] if len(inner) == 1 else None
        else:
            kind = kind.child_by_field_name("name")
    return node_text(kind) if kind is not None and kind.type == "type_identifier" else ""


def returned_members(program: tree_sitter.Node, exported: set[str]) -> set[str]:
    """``f()`` and ``f().member`` for each function of ``exported`` whose declared return type
    is an interface or class of this file (members of its bases of this file too)."""
    types: dict[str, list[tree_sitter.Node]] = {}  # an interface may be declared twice (merged)
    functions: dict[str, str] = {}
    for statement in program.named_children:
        node = _unwrap(statement)
        name = node_text(node.child_by_field_name("name"))
        if node.type in _TYPES and name:
            types.setdefault(name, []).append(node)
        elif node.type in ("function_signature", "function_declaration") and name:
            functions.setdefault(name, _return_type(node))
    out: set[str] = set()
    for name in sorted(types):  # `new Pool()` of an exported class: its instance's members
        made = _made_by_new(name, types, exported, program)
        if made:
            members = _members(name, types, set())
            if members is not None:
                out.add(f"new {made}()")
                out |= {f"new {made}().{m}" for m in sorted(members)[:MAX_MEMBERS]}
    for function, type_name in sorted(functions.items()):
        if function not in exported or type_name not in types:
            continue
        members = _members(type_name, types, set())
        if members is None:
            continue
        out.add(f"{function}()")
        out |= {f"{function}().{m}" for m in sorted(members)[:MAX_MEMBERS]}
    return out


def _made_by_new(
    name: str,
    types: dict[str, list[tree_sitter.Node]],
    exported: set[str],
    program: tree_sitter.Node,
) -> str:
    """The exported name ``new`` makes an instance of class ``name`` under: its own, or
    ``default`` for ``export default class``; "" for an interface or a class not exported."""
    if not any(n.type != "interface_declaration" for n in types[name]):
        return ""
    if name in exported:
        return name
    for statement in program.named_children:
        if statement.type == "export_statement" and any(
            c.type == "default" for c in statement.children
        ):
            inner = _unwrap(statement)
            if inner.type in _TYPES and node_text(inner.child_by_field_name("name")) == name:
                return "default"
    return ""


def _members(
    name: str, types: dict[str, list[tree_sitter.Node]], seen: set[str]
) -> set[str] | None:
    """The members of the type ``name`` with its bases'; None when a base is not in the file."""
    if name in seen:
        return set()
    seen.add(name)
    nodes = types.get(name)
    if not nodes:
        return None
    found: set[str] = set()
    for node in nodes:
        found |= _own_members(node)
        for base in _bases(node):
            inner = _members(base, types, seen)
            if inner is None:
                return None
            found |= inner
    return found
