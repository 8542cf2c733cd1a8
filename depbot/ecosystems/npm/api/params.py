"""The options object a function of an npm release takes, read from its declarations.

``declare function jwt(options: jwt.Options)`` with ``interface Options { secret: S;
algorithms: string[]; audience?: string }``: the function's parameters, each with the
interface that types it, and each interface's properties, required or optional (``?``).
An option that becomes required, the way a new major's constructor starts throwing without
it, is then a change a call can be checked against; so is an option typed by a union of
string literals (``chunksSortMode?: 'auto' | 'manual' | Fn``) that no longer lists a value a
call passes. A class's constructor counts as a function of the class's name. Parsed with
tree-sitter; no code runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import tree_sitter

from depbot.ecosystems.npm.api.exports import parse

_BLOCKS = ("statement_block", "interface_body", "object_type")


@dataclass(frozen=True)
class Param:
    name: str
    interface: str  # the interface that types it, its last name (`jwt.Options` → Options); ''
    optional: bool


@dataclass
class Signatures:
    """A declaration file's functions (``default``: the one ``export =`` names) and its
    interfaces: property → required."""

    functions: dict[str, list[list[Param]]] = field(default_factory=dict)  # name → overloads
    interfaces: dict[str, dict[str, bool]] = field(default_factory=dict)
    # interface → property → the string literals its type allows, when it allows no other
    # string (a union of literals, functions, numbers …; not `string`, not a named type)
    literals: dict[str, dict[str, frozenset[str]]] = field(default_factory=dict)
    extends: dict[str, list[str]] = field(default_factory=dict)
    default: str = ""
    open: set[str] = field(default_factory=set)  # interfaces with an index signature
    # `Interface.method` → its overloads; an exported const typed by one of them
    # (`export const get: IDefaultEnv['get']`) → `Interface.method`
    methods: dict[str, list[list[Param]]] = field(default_factory=dict)
    lookups: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)  # `type A = IEnv<X, Y>`: A → IEnv

    def closed(self, interface: str, depth: int = 0) -> bool:
        """Whether ``interface`` lists every property it takes: declared here, with no index
        signature, and so are all the interfaces it extends."""
        if interface not in self.interfaces or interface in self.open or depth > 4:
            return False
        return all(self.closed(base, depth + 1) for base in self.extends.get(interface, []))

    def properties(self, interface: str, depth: int = 0) -> dict[str, bool] | None:
        """The properties of ``interface`` with those of the interfaces it extends here."""
        if interface not in self.interfaces or depth > 4:
            return None
        props: dict[str, bool] = {}
        for base in self.extends.get(interface, []):
            props.update(self.properties(base, depth + 1) or {})
        props.update(self.interfaces[interface])
        return props

    def literal_values(self, interface: str, depth: int = 0) -> dict[str, frozenset[str]]:
        """``literals`` of ``interface`` with those of the interfaces it extends here."""
        if interface not in self.interfaces or depth > 4:
            return {}
        out: dict[str, frozenset[str]] = {}
        for base in self.extends.get(interface, []):
            out.update(self.literal_values(base, depth + 1))
        props = self.interfaces[interface]
        out = {k: v for k, v in out.items() if k not in props}
        out.update(self.literals.get(interface, {}))
        return out

    def overloads(self, name: str) -> list[list[Param]]:
        """The signatures of ``name`` (``default``: the one ``export =`` names), a const
        typed by an interface's method taking that method's."""
        name = self.default if name == "default" else name
        if name in self.functions:
            return self.functions[name]
        return self.methods.get(self._method(name), [])

    def _method(self, name: str) -> str:
        """``Interface.method`` of a const typed by it, through type aliases ("" if none)."""
        owner, _, member = self.lookups.get(name, "").partition(".")
        for _ in range(4):
            owner = self.aliases.get(owner, owner)
        return f"{owner}.{member}" if member else ""

    def callables(self) -> set[str]:
        """The names with signatures: functions, and consts typed by a method's."""
        return set(self.functions) | {n for n in self.lookups if self._method(n) in self.methods}

    def function(self, name: str) -> list[Param] | None:
        """The parameters of ``name`` when it has one signature (overloads: None)."""
        overloads = self.overloads(name)
        return overloads[0] if len(overloads) == 1 else None


def _text(node: tree_sitter.Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def _type_name(annotation: tree_sitter.Node | None) -> str:
    inner = annotation.named_children[0] if annotation and annotation.named_children else None
    if inner is None:
        return ""
    if inner.type == "type_identifier":
        return _text(inner)
    if inner.type == "nested_type_identifier":
        return _text(inner.named_children[-1])
    return ""


def _params(node: tree_sitter.Node) -> list[Param]:
    formal = node.child_by_field_name("parameters")
    out = []
    for p in formal.named_children if formal is not None else []:
        if p.type not in ("required_parameter", "optional_parameter"):
            continue
        name = _text(p.child_by_field_name("pattern"))
        kind = _type_name(p.child_by_field_name("type"))
        out.append(Param(name, kind, p.type == "optional_parameter"))
    return out


def _interface(node: tree_sitter.Node, sigs: Signatures) -> None:
    name = _text(node.child_by_field_name("name"))
    props = sigs.interfaces.setdefault(name, {})  # declarations of one name merge
    for child in node.named_children:
        if child.type == "extends_type_clause":
            bases = [_type_name_of(t) for t in child.named_children]
            sigs.extends.setdefault(name, []).extend(b for b in bases if b)
    body = node.child_by_field_name("body")
    for member in body.named_children if body is not None else []:
        if member.type == "index_signature":  # `[key: string]: unknown`: takes any key
            sigs.open.add(name)
        if member.type == "method_signature":
            method = _text(member.child_by_field_name("name")).strip("'\"")
            sigs.methods.setdefault(f"{name}.{method}", []).append(_params(member))
        if member.type == "property_signature":
            key = _text(member.child_by_field_name("name")).strip("'\"")
            props[key] = not any(c.type == "?" for c in member.children)
            allowed = _string_literals(member.child_by_field_name("type"))
            if allowed:
                sigs.literals.setdefault(name, {})[key] = allowed


_NOT_A_STRING = ("function_type", "number", "true", "false", "null", "undefined", "array_type")


def _string_literals(annotation: tree_sitter.Node | None) -> frozenset[str]:
    """The string literals of a union type that allows no other string, or an empty set."""
    node = annotation.named_children[0] if annotation and annotation.named_children else None
    found: set[str] = set()
    stack = [node] if node is not None else []
    while stack:
        n = stack.pop()
        if n.type == "comment":
            continue
        if n.type in ("union_type", "parenthesized_type"):
            stack.extend(n.named_children)
        elif n.type == "literal_type":
            inner = n.named_children[0] if n.named_children else None
            if inner is not None and inner.type == "string":
                found.add(_text(inner)[1:-1])
            elif inner is None or inner.type not in _NOT_A_STRING:
                return frozenset()
        elif n.type == "predefined_type" and _text(n) in ("number", "boolean", "null", "undefined"):
            continue
        elif n.type not in _NOT_A_STRING:
            return frozenset()  # `string`, a named type, a template literal: any string may do
    return frozenset(found)


def _type_name_of(node: tree_sitter.Node) -> str:
    if node.type == "type_identifier":
        return _text(node)
    if node.type == "nested_type_identifier":
        return _text(node.named_children[-1])
    return ""


def _lookup(declarator: tree_sitter.Node, sigs: Signatures) -> None:
    """``const get: IDefaultEnv['get']``: the const takes the interface method's signatures."""
    if declarator.type != "variable_declarator":
        return
    annotation = declarator.child_by_field_name("type")
    inner = annotation.named_children[0] if annotation and annotation.named_children else None
    if inner is None or inner.type != "lookup_type" or len(inner.named_children) != 2:
        return
    owner, key = inner.named_children
    member = _text(key).strip("'\"")
    if owner.type == "type_identifier" and key.type == "literal_type" and member:
        sigs.lookups[_text(declarator.child_by_field_name("name"))] = f"{_text(owner)}.{member}"


def _walk(node: tree_sitter.Node, sigs: Signatures, depth: int = 0) -> None:
    if depth <= 6:
        for child in node.named_children:
            _visit(child, sigs, depth)


def _visit(node: tree_sitter.Node, sigs: Signatures, depth: int) -> None:
    kind = node.type
    if kind in ("function_signature", "function_declaration"):
        name = _text(node.child_by_field_name("name"))
        sigs.functions.setdefault(name, []).append(_params(node))
    elif kind == "interface_declaration":
        _interface(node, sigs)
    elif kind == "type_alias_declaration":
        value = node.child_by_field_name("value")
        if value is not None and value.type == "generic_type":
            value = value.named_children[0] if value.named_children else None
        if value is not None and value.type == "type_identifier":
            sigs.aliases[_text(node.child_by_field_name("name"))] = _text(value)
    elif kind in ("lexical_declaration", "variable_declaration"):
        for declarator in node.named_children:
            _lookup(declarator, sigs)
    elif kind in ("class_declaration", "abstract_class_declaration", "class"):
        name = _text(node.child_by_field_name("name"))
        body = node.child_by_field_name("body")
        for member in body.named_children if body is not None else []:
            if member.type in ("method_signature", "method_definition") and (
                _text(member.child_by_field_name("name")) == "constructor"
            ):
                sigs.functions.setdefault(name, []).append(_params(member))
    elif kind == "export_statement":
        tokens = {c.type for c in node.children}
        named = [c for c in node.named_children if c.type == "identifier"]
        declaration = node.child_by_field_name("declaration")
        if ("=" in tokens or "default" in tokens) and named:
            sigs.default = _text(named[0])  # `export = jwt`, `export default jwt`
        if declaration is not None:
            if "default" in tokens:
                sigs.default = _text(declaration.child_by_field_name("name"))
            _visit(declaration, sigs, depth)
    elif kind in ("ambient_declaration", "expression_statement", "internal_module", "module"):
        _walk(node, sigs, depth + 1)
    elif kind in _BLOCKS:
        _walk(node, sigs, depth + 1)


MAX_DECLARATION_FILES = 24  # files read for one entry's signatures, re-exports followed


def signatures(file: Path) -> Signatures:
    """The functions and interfaces of one declaration file, and of the files it re-exports
    functions from (``export { graphql } from './graphql'``, ``export * from './x'``)."""
    sigs = Signatures()
    read: dict[Path, Signatures] = {}
    todo: list[tuple[Path, frozenset[str] | None]] = [(file, None)]
    while todo:
        path, wanted = todo.pop(0)
        if path not in read:  # each file parsed once; each re-export of it takes its names
            if len(read) >= MAX_DECLARATION_FILES:
                continue
            program = parse(path)
            read[path] = one = Signatures()
            if program is None:
                continue
            _walk(program, one)
            for spec, names in _reexports(program):
                target = _declaration_of(path.parent, spec)
                if target is not None:
                    todo.append((target, names))
        _take(sigs, read[path], wanted, top=path == file)
    return sigs


def _take(into: Signatures, one: Signatures, wanted: frozenset[str] | None, top: bool) -> None:
    """Merge a file's signatures: the functions it is re-exported for (all for ``*``) and
    every interface (an options type may be declared anywhere)."""
    for name, overloads in one.functions.items():
        if (wanted is None or name in wanted) and name not in into.functions:
            into.functions[name] = overloads
    for name, method in one.lookups.items():
        if wanted is None or name in wanted:
            into.lookups.setdefault(name, method)
    for table in ("interfaces", "literals", "extends", "methods", "aliases"):
        mine: dict = getattr(into, table)
        for key, value in getattr(one, table).items():
            mine.setdefault(key, value)
    into.open |= one.open
    if top:
        into.default = one.default


def _reexports(program: tree_sitter.Node) -> list[tuple[str, frozenset[str] | None]]:
    """(relative specifier, the names taken or None for ``*``) of a file's re-exports."""
    out = []
    for node in program.named_children:
        source = node.child_by_field_name("source") if node.type == "export_statement" else None
        spec = _text(source).strip("'\"") if source is not None else ""
        if not spec.startswith("."):
            continue
        clause = next((c for c in node.named_children if c.type == "export_clause"), None)
        if clause is None:
            out.append((spec, None))
            continue
        names = [c.child_by_field_name("name") for c in clause.named_children]
        out.append((spec, frozenset(_text(n) for n in names if n is not None)))
    return out


def _declaration_of(folder: Path, spec: str) -> Path | None:
    base = (folder / spec).resolve()
    stem = str(base).removesuffix(".js")
    for candidate in (f"{stem}.d.ts", f"{stem}.d.mts", f"{stem}/index.d.ts", f"{stem}.ts"):
        if Path(candidate).is_file():
            return Path(candidate)
    return None


def positional_limit(old: Signatures, new: Signatures, function: str) -> tuple[int, int] | None:
    """(the most positional arguments the old release's signatures of ``function`` took, the
    most the new one's take) when the new one takes fewer: a call passing more breaks. None
    when either is unknown or a signature takes a rest parameter."""
    before, after = old.overloads(function), new.overloads(function)
    if not before or not after:
        return None
    if any(p.name.startswith("...") for o in [*before, *after] for p in o):
        return None  # `...args`: any number
    most_old, most_new = max(len(o) for o in before), max(len(o) for o in after)
    return (most_old, most_new) if most_new < most_old else None


def options_now_required(old: Signatures, new: Signatures, function: str) -> list[tuple[int, str]]:
    """(position, option) for each property of an options parameter of ``function`` that
    the new release requires and the old one did not (absent or optional there)."""
    before, after = old.function(function), new.function(function)
    if before is None or after is None:
        return []
    found = []
    for position, (p_old, p_new) in enumerate(zip(before, after, strict=False)):
        old_props = old.properties(p_old.interface) if p_old.interface else None
        new_props = new.properties(p_new.interface) if p_new.interface else None
        if old_props is None or new_props is None or p_new.optional:
            continue
        for option, required in sorted(new_props.items()):
            if required and not old_props.get(option, False):
                found.append((position, option))
    return found


def option_values_narrowed(
    old: Signatures, new: Signatures, function: str
) -> list[tuple[int, str, frozenset[str]]]:
    """(position, option, the values it now allows) for each option of ``function`` the new
    release types by string literals alone, where the old release allowed more: other
    literals, any string, or nothing is known of it (no declarations of its own)."""
    after = new.function(function)
    if after is None:
        return []
    before = old.function(function)
    found = []
    for position, p_new in enumerate(after):
        if not p_new.interface:
            continue
        p_old = before[position] if before is not None and position < len(before) else None
        old_props = old.properties(p_old.interface) if p_old and p_old.interface else None
        old_values = old.literal_values(p_old.interface) if p_old and p_old.interface else {}
        for option, allowed in sorted(new.literal_values(p_new.interface).items()):
            was = old_values.get(option)
            if was is not None and was <= allowed:
                continue  # it allowed no more before
            if was is None and old_props is not None and option not in old_props:
                continue  # a new option: no call of the old release passed it
            found.append((position, option, allowed))
    return found


def options_removed(old: Signatures, new: Signatures, function: str) -> list[tuple[int, str]]:
    """(position, option) for each option of ``function``'s options object that the old
    release declared and the new one's (closed: no index signature, every base declared
    here) no longer lists: a call that still passes it sets what is no longer read."""
    before, after = old.function(function), new.function(function)
    if before is None or after is None:
        return []
    found = []
    for position, (p_old, p_new) in enumerate(zip(before, after, strict=False)):
        if not (p_old.interface and p_new.interface and new.closed(p_new.interface)):
            continue
        old_props = old.properties(p_old.interface) or {}
        new_props = new.properties(p_new.interface) or {}
        found += [(position, o) for o in sorted(set(old_props) - set(new_props))]
    return found
