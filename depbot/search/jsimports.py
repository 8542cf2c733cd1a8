"""The imports of a parsed JS/TS text (``jsparse.JsTree``), read from its syntax tree. Pure.

``import … from``, ``import 'm'``, TypeScript ``import type`` and ``import x = require('m')``,
``export … from``, ``require('m')`` (a plain ``require`` call with a literal first argument,
bound by ``const x =``, ``const {a, b: c} =``, ``x =``, member ``require('m').y``) and dynamic
``import('m')`` (bound the same ways, or by the parameter of ``.then(({a}) => …)``). Only
real syntax counts: the keyword of a comment, a string, a template or JSX text is no import.
``imports.js_imports`` is the public face (it falls back to ``jsregex`` for texts that are
not parsed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import tree_sitter

from depbot.search.jsparse import JsTree

__all__ = ["JsImport", "package_of", "imports_from_tree"]


@dataclass(frozen=True)
class JsImport:
    """One import of a JS/TS module specifier.

    ``package``/``subpath`` come from ``package_of`` ("" package for relative or builtin
    ``node:`` specifiers). ``names``: ``{local: imported}`` with ``"default"``, ``"*"`` or a
    member name (for ``export … from`` the key is the exported name). ``style``:
    ``"require"`` | ``"import"`` | ``"dynamic-import"`` | ``"export-from"``. ``type_only``:
    ``import type`` / ``export type`` (erased at compile time). ``line``/``col``: 1-based,
    of the ``import``/``require``/``export`` keyword.
    """

    line: int
    col: int
    specifier: str
    package: str
    subpath: str
    names: dict[str, str] = field(default_factory=dict, hash=False)
    style: str = "import"
    type_only: bool = False
    end_line: int = 0


def package_of(specifier: str) -> tuple[str, str] | None:
    """``("@scope/pkg", "sub/path")`` / ``("pkg", "")`` for a bare npm specifier; None for
    relative (``./``, ``../``), absolute, URL (``https:``, ``node:``, ``data:``) specifiers."""
    spec = specifier.strip()
    if not spec or spec.startswith((".", "/", "#")) or re.match(r"^[A-Za-z][\w+.-]*:", spec):
        return None
    parts = spec.split("/")
    if spec.startswith("@"):
        if len(parts) < 2 or not parts[1] or len(parts[0]) < 2:
            return None
        return "/".join(parts[:2]), "/".join(parts[2:])
    return parts[0], "/".join(parts[1:])


_QUERY = """
(import_statement) @import
(export_statement source: (_)) @export
(call_expression function: (identifier) @fn arguments: (arguments . [(string) (template_string)]))
  @require (#eq? @fn "require")
(call_expression function: (import) arguments: (arguments . [(string) (template_string)]))
  @dynamic
"""
_WRAPPERS = frozenset({"parenthesized_expression", "await_expression", "non_null_expression"})


def _literal(tree: JsTree, node: tree_sitter.Node | None) -> str | None:
    """The value of a string (or a template without ``${}``), else None."""
    if node is None or node.type not in ("string", "template_string"):
        return None
    if any(c.type == "template_substitution" for c in node.named_children):
        return None
    return tree.node_text(node)[1:-1]


def _name(tree: JsTree, node: tree_sitter.Node | None) -> str:
    lit = _literal(tree, node)
    return lit if lit is not None else tree.node_text(node)


def _type_only(node: tree_sitter.Node) -> bool:
    return any(c.type == "type" and not c.is_named for c in node.children)


def _specifiers(tree: JsTree, node: tree_sitter.Node) -> dict[str, str]:
    """``{a, b as c, type D}`` of an import or export clause → ``{local: imported}``."""
    out: dict[str, str] = {}
    for spec in node.named_children:
        if spec.type not in ("import_specifier", "export_specifier"):
            continue
        name = _name(tree, spec.child_by_field_name("name"))
        alias = spec.child_by_field_name("alias")
        out[_name(tree, alias) if alias is not None else name] = name
    return out


def _import_names(tree: JsTree, stmt: tree_sitter.Node) -> dict[str, str]:
    names: dict[str, str] = {}
    for clause in stmt.named_children:
        if clause.type != "import_clause":
            continue
        for part in clause.named_children:
            if part.type == "identifier":
                names[tree.node_text(part)] = "default"
            elif part.type == "namespace_import":
                ids = [c for c in part.named_children if c.type == "identifier"]
                if ids:
                    names[tree.node_text(ids[0])] = "*"
            elif part.type == "named_imports":
                names.update(_specifiers(tree, part))
    return names


def _export_names(tree: JsTree, stmt: tree_sitter.Node) -> dict[str, str]:
    for part in stmt.named_children:
        if part.type == "namespace_export":
            ids = [c for c in part.named_children if c.type in ("identifier", "string")]
            return {_name(tree, ids[0]): "*"} if ids else {"*": "*"}
        if part.type == "export_clause":
            return _specifiers(tree, part)
    return {"*": "*"}


def _pattern(tree: JsTree, pattern: tree_sitter.Node) -> dict[str, str]:
    """``{a, b: c, d = 1, e: f = 2, ...r}`` → ``{local: member}`` (rest: ``"*"``)."""
    out: dict[str, str] = {}
    for part in pattern.named_children:
        t = part.type
        if t == "shorthand_property_identifier_pattern":
            out[tree.node_text(part)] = tree.node_text(part)
        elif t == "object_assignment_pattern":
            left = part.child_by_field_name("left")
            if left is not None and left.type == "shorthand_property_identifier_pattern":
                out[tree.node_text(left)] = tree.node_text(left)
        elif t == "pair_pattern":
            key, value = part.child_by_field_name("key"), part.child_by_field_name("value")
            if value is not None and value.type == "assignment_pattern":
                value = value.child_by_field_name("left")
            if key is not None and value is not None and value.type == "identifier":
                if key.type in ("property_identifier", "string", "identifier"):
                    out[tree.node_text(value)] = _name(tree, key)
        elif t == "rest_pattern":
            ids = [c for c in part.named_children if c.type == "identifier"]
            if ids:
                out[tree.node_text(ids[0])] = "*"
    return out


def _bound(tree: JsTree, call: tree_sitter.Node, style: str) -> dict[str, str]:
    """What ``const x = require('m')`` (and its forms) binds to the module; a member
    ``require('m').a.b`` is bound as ``"a.b"``."""
    node, member = call, None
    parent = node.parent
    if style == "require":  # `require('m').y` binds a member (not `import('m').then`)
        while parent is not None and parent.type in _WRAPPERS - {"await_expression"}:
            node, parent = parent, parent.parent
        chain: list[str] = []
        while parent is not None and parent.type == "member_expression":
            prop = parent.child_by_field_name("property")
            if parent.child_by_field_name("object") != node or prop is None:
                break
            chain.append(tree.node_text(prop))
            node, parent = parent, parent.parent
        member = ".".join(chain) or None
    while parent is not None and parent.type in _WRAPPERS:
        node, parent = parent, parent.parent
    if style == "dynamic-import":
        then = _then_parameter(tree, node)
        if then is not None:  # `import('m').then(({a, b}) => …)`: the callback's parameter
            return _target_names(tree, then, None)
    target = None
    if parent is not None and parent.type == "variable_declarator":
        if parent.child_by_field_name("value") == node:
            target = parent.child_by_field_name("name")
    elif parent is not None and parent.type == "assignment_expression":
        if parent.child_by_field_name("right") == node:
            target = parent.child_by_field_name("left")
    return {} if target is None else _target_names(tree, target, member)


def _target_names(tree: JsTree, target: tree_sitter.Node, member: str | None) -> dict[str, str]:
    """What a binding target (``x``, ``{a, b: c}``) takes from the module (or its ``member``)."""
    if target.type == "identifier":
        name = tree.node_text(target)
        return {} if name == "exports" else {name: member or "*"}
    if target.type == "object_pattern":
        prefix = f"{member}." if member else ""
        return {
            k: (v if v == "*" and not prefix else prefix + v)
            for k, v in _pattern(tree, target).items()
        }
    return {}


def _then_parameter(tree: JsTree, call: tree_sitter.Node) -> tree_sitter.Node | None:
    """The first parameter of the callback of ``import('m').then(callback)``, if any."""
    member = call.parent
    if member is None or member.type != "member_expression":
        return None
    prop = member.child_by_field_name("property")
    if prop is None or tree.node_text(prop) != "then" or member.parent is None:
        return None
    outer = member.parent
    args = outer.child_by_field_name("arguments") if outer.type == "call_expression" else None
    first = args.named_children[0] if args is not None and args.named_children else None
    if first is None or first.type not in ("arrow_function", "function_expression", "function"):
        return None
    single = first.child_by_field_name("parameter")  # `m => …`
    if single is not None:
        return single
    params = first.child_by_field_name("parameters")
    named = params.named_children if params is not None else []
    if not named:
        return None
    p = named[0]
    if p.type in ("required_parameter", "optional_parameter"):  # TypeScript
        p = p.child_by_field_name("pattern") or p
    if p.type == "assignment_pattern":
        p = p.child_by_field_name("left") or p
    return p


def imports_from_tree(tree: JsTree) -> list[JsImport]:
    """Every import of a parsed text, in source order (see the module doc)."""
    caps = tree.captures(_QUERY)
    out: list[JsImport] = []
    seen: set[int] = set()

    def add(at: int, end: int, spec: str | None, names, style: str, type_only=False) -> None:
        spec = (spec or "").strip()
        if not spec or at in seen or "\n" in spec:
            return
        seen.add(at)
        line, col = tree.position(at)
        pkg = package_of(spec)
        out.append(
            JsImport(
                line=line,
                col=col,
                specifier=spec,
                package=pkg[0] if pkg else "",
                subpath=pkg[1] if pkg else "",
                names=names,
                style=style,
                type_only=type_only,
                end_line=tree.position(end)[0],
            )
        )

    for stmt in caps.get("import", ()):
        req = [c for c in stmt.named_children if c.type == "import_require_clause"]
        if req:  # TypeScript `import x = require('m')`
            kw = [c for c in req[0].children if c.type == "require"]
            src = req[0].child_by_field_name("source")
            ids = [c for c in req[0].named_children if c.type == "identifier"]
            names = {tree.node_text(ids[0]): "*"} if ids else {}
            at = kw[0].start_byte if kw else req[0].start_byte
            add(at, req[0].end_byte, _literal(tree, src), names, "require")
            continue
        src = stmt.child_by_field_name("source")
        if src is None:
            continue
        names = _import_names(tree, stmt)
        add(stmt.start_byte, src.end_byte, _literal(tree, src), names, "import", _type_only(stmt))
    for stmt in caps.get("export", ()):
        src = stmt.child_by_field_name("source")
        spec = _literal(tree, src)
        end = src.end_byte if src is not None else stmt.end_byte
        add(stmt.start_byte, end, spec, _export_names(tree, stmt), "export-from", _type_only(stmt))
    for style, key in (("require", "require"), ("dynamic-import", "dynamic")):
        for call in caps.get(key, ()):
            callee = call.child_by_field_name("function")
            if style == "require" and (callee is None or tree.node_text(callee) != "require"):
                continue  # the query's `#eq?` is not held once other patterns match too
            args = call.child_by_field_name("arguments")
            first = args.named_children[0] if args is not None and args.named_children else None
            end = (
                call.end_byte if style == "require" else first.end_byte if first else call.end_byte
            )
            add(call.start_byte, end, _literal(tree, first), _bound(tree, call, style), style)
    out.sort(key=lambda i: (i.line, i.col))
    return out
