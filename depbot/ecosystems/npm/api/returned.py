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

Across files (``load``): a type imported from a relative file or from the package's own
entry points (``import { Response } from './types'``, ``from 'pkg/_internal'``) is read
there; an object type alias (``type Response = { data: D; revalidate(): … }``) is a type
with members; a constant typed by a callable interface or a function type (``declare const
useThing: Hook`` with ``interface Hook { (key): Response }``) is a function returning that;
a function exported under another name (``export default useThing``, ``export { useThing
as default }``), or imported from another file and exported again, is read under that name.
"""

from __future__ import annotations

from collections.abc import Callable

import tree_sitter

from depbot.ecosystems.npm.api.nodes import node_text

MAX_MEMBERS = 2_000
MEMBER_NODES = ("method_signature", "property_signature", "public_field_definition",
                 "method_definition", "abstract_method_signature")  # fmt: skip
_TYPES = ("interface_declaration", "class_declaration", "abstract_class_declaration")


def unwrap(node: tree_sitter.Node) -> tree_sitter.Node:
    """The declaration inside ``export …`` / ``declare …``."""
    while node.type in ("export_statement", "ambient_declaration"):
        inner = node.child_by_field_name("declaration")
        if inner is None:
            inner = next((c for c in node.named_children if c.type != "comment"), None)
        if inner is None or inner is node:
            break
        node = inner
    return node


def own_members(node: tree_sitter.Node) -> set[str]:
    body = node.child_by_field_name("body") or node.child_by_field_name("value")
    found: set[str] = set()
    for member in body.named_children if body is not None else []:
        if member.type not in MEMBER_NODES:
            continue
        words = {c.type for c in member.children} | {node_text(c) for c in member.children[:3]}
        if "static" in words or "private" in words or "#" in node_text(member)[:1]:
            continue
        name = node_text(member.child_by_field_name("name"))
        if name and name != "constructor":
            found.add(name)
    return found


def type_bases(node: tree_sitter.Node) -> list[str]:
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
    if annotation is not None and annotation.type != "type_annotation":
        kind = annotation  # a function type's return type is the type itself
    if kind is not None and kind.type == "generic_type":
        if node_text(kind.child_by_field_name("name")) == "Promise":
            args = [c for c in kind.named_children if c.type == "type_arguments"]
            inner = args[0].named_children if args else []
            kind = inner[0] if len(inner) == 1 else None
        else:
            kind = kind.child_by_field_name("name")
    return node_text(kind) if kind is not None and kind.type == "type_identifier" else ""


# what another file of the release gives: its parse (for its types) and its names
Load = Callable[[str], "tuple[tree_sitter.Node, Callable[[], set[str]]] | None"]


def declared_types(program: tree_sitter.Node) -> dict[str, list[tree_sitter.Node]]:
    """The interfaces, classes and object type aliases a file declares, by name."""
    types: dict[str, list[tree_sitter.Node]] = {}  # an interface may be declared twice (merged)
    for statement in program.named_children:
        node = unwrap(statement)
        name = node_text(node.child_by_field_name("name"))
        if not name:
            continue
        if node.type in _TYPES or (
            node.type == "type_alias_declaration"
            and getattr(node.child_by_field_name("value"), "type", "") == "object_type"
        ):
            types.setdefault(name, []).append(node)
    return types


def named_imports(program: tree_sitter.Node) -> dict[str, tuple[str, str]]:
    """``{local: (specifier, imported name)}`` of a file's named imports."""
    out: dict[str, tuple[str, str]] = {}
    for statement in program.named_children:
        source = statement.child_by_field_name("source")
        if statement.type != "import_statement" or source is None:
            continue
        spec = node_text(source).strip("'\"")
        for clause in statement.named_children:
            for named in clause.named_children if clause.type == "import_clause" else []:
                for item in named.named_children if named.type == "named_imports" else []:
                    parts = [node_text(c) for c in item.named_children if c.type == "identifier"]
                    if parts:
                        out[parts[-1]] = (spec, parts[0])
    return out


def export_aliases(program: tree_sitter.Node) -> dict[str, str]:
    """``{exported name: local name}``: ``export default f``, ``export { f as default }``."""
    out: dict[str, str] = {}
    for statement in program.named_children:
        if statement.type != "export_statement" or statement.child_by_field_name("source"):
            continue
        if any(c.type == "default" for c in statement.children):
            named = [c for c in statement.named_children if c.type == "identifier"]
            if named:
                out["default"] = node_text(named[0])
            continue
        for clause in statement.named_children:
            for spec in clause.named_children if clause.type == "export_clause" else []:
                name = node_text(spec.child_by_field_name("name"))
                alias = node_text(spec.child_by_field_name("alias")) or name
                if name and alias != name:
                    out[alias] = name
    return out


def _functions(
    program: tree_sitter.Node, types: dict[str, list[tree_sitter.Node]]
) -> dict[str, str]:
    """``{local name: returned type name}`` of the functions a file declares, and of its
    constants typed by a function type or a callable interface (its first call signature)."""
    functions: dict[str, str] = {}
    for statement in program.named_children:
        node = unwrap(statement)
        name = node_text(node.child_by_field_name("name"))
        if node.type in ("function_signature", "function_declaration") and name:
            functions.setdefault(name, _return_type(node))
        elif node.type in ("lexical_declaration", "variable_declaration"):
            for declarator in node.named_children:
                local = node_text(declarator.child_by_field_name("name"))
                annotation = declarator.child_by_field_name("type")
                kind = (
                    annotation.named_children[0]
                    if annotation and annotation.named_children
                    else None
                )
                if not local or kind is None:
                    continue
                if kind.type == "function_type":
                    functions.setdefault(local, _return_type(kind))
                elif kind.type == "type_identifier":
                    called = _call_signature(types.get(node_text(kind), []))
                    if called is not None:
                        functions.setdefault(local, _return_type(called))
    return functions


def _call_signature(nodes: list[tree_sitter.Node]) -> tree_sitter.Node | None:
    for node in nodes:
        body = node.child_by_field_name("body")
        for member in body.named_children if body is not None else []:
            if member.type == "call_signature":
                return member
    return None


def returned_members(
    program: tree_sitter.Node, exported: set[str], load: Load | None = None
) -> set[str]:
    """``f()`` and ``f().member`` for each function of ``exported`` whose declared return type
    is an interface, class or object type of this file or one it imports from (``load``;
    members of its bases too)."""
    types = declared_types(program)
    own = set(types)  # declared here: only these can be classes this file exports
    imports = named_imports(program)
    loaded: dict[str, tuple[tree_sitter.Node, Callable[[], set[str]]] | None] = {}
    named: dict[str, set[str]] = {}

    def other(spec: str) -> tuple[tree_sitter.Node, Callable[[], set[str]]] | None:
        if load is None:
            return None
        if spec not in loaded:
            loaded[spec] = load(spec)
        return loaded[spec]

    def names_of(spec: str) -> set[str]:  # each other file's names are read once
        if spec not in named:
            got = other(spec)
            named[spec] = got[1]() if got is not None else set()
        return named[spec]

    beside: dict[str, list[tree_sitter.Node]] = {}  # the types declared beside imported ones
    for local, (spec, imported) in imports.items():
        if local not in types:
            got = other(spec)
            theirs = declared_types(got[0]) if got is not None else {}
            if theirs.get(imported):
                types[local] = theirs[imported]
                for name, nodes in theirs.items():  # what they return, from their file
                    beside.setdefault(name, nodes)
    for name, nodes in beside.items():
        types.setdefault(name, nodes)
    functions = _functions(program, types)
    aliases = export_aliases(program)
    out: set[str] = set()
    for name in sorted(own):  # `new Pool()` of an exported class: its instance's members
        made = _made_by_new(name, types, exported, program)
        if made:
            members = _members(name, types, set())
            if members is not None:
                out.add(f"new {made}()")
                out |= {f"new {made}().{m}" for m in sorted(members)[:MAX_MEMBERS]}
    for name in sorted(exported):
        if "(" in name or "." in name:
            continue
        local = aliases.get(name, name)
        type_name = functions.get(local)
        if type_name in types:
            members = _members(type_name, types, set())
            if members is not None:
                out.add(f"{name}()")
                out |= {f"{name}().{m}" for m in sorted(members)[:MAX_MEMBERS]}
        elif local in imports and local not in functions:  # made in the file it comes from
            made = f"{imports[local][1]}()"
            out |= {f"{name}(){n[len(made):]}" for n in names_of(imports[local][0])
                    if n == made or n.startswith(made + ".")}  # fmt: skip
    return out


def _made_by_new(
    name: str,
    types: dict[str, list[tree_sitter.Node]],
    exported: set[str],
    program: tree_sitter.Node,
) -> str:
    """The exported name ``new`` makes an instance of class ``name`` under: its own, or
    ``default`` for ``export default class``; "" for an interface or a class not exported."""
    if not any(n.type in ("class_declaration", "abstract_class_declaration") for n in types[name]):
        return ""  # an interface or an object type is not made with `new`
    if name in exported:
        return name
    for statement in program.named_children:
        if statement.type == "export_statement" and any(
            c.type == "default" for c in statement.children
        ):
            inner = unwrap(statement)
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
        found |= own_members(node)
        for base in type_bases(node):
            inner = _members(base, types, seen)
            if inner is None:
                return None
            found |= inner
    return found
