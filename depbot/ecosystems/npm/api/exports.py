"""The names a JavaScript or TypeScript entry file exports, parsed with tree-sitter.

ESM (``export function/class/const/interface/type``, ``export { a, b as c }``, ``export *
from './x'`` followed within the package, ``export * from 'other'`` through a ``foreign``
reader of other packages' exports, ``export default``), TypeScript ``export =``
(a default, plus the members of the namespace it names), ``declare module 'name' { … }`` (whose
declarations are exported without ``export`` unless it has ``export =`` / ``export { … }``), and
CommonJS (``module.exports = {…}``, ``exports.x =``, ``Object.defineProperty(exports, 'x')``,
``module.exports = fn``, ``module.exports = new Maker()`` with the maker's methods: see
``instances``). No code is run and no regular expression reads code.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import tree_sitter
import tree_sitter_javascript
import tree_sitter_typescript

from depbot.ecosystems.npm.api.instances import Instances
from depbot.ecosystems.npm.api.nodes import descendants, node_text
from depbot.ecosystems.npm.api.returned import returned_members
from depbot.ecosystems.npm.api.typed import TypedValues
from depbot.ecosystems.npm.api.types import DECLARATION_SUFFIXES
from depbot.ecosystems.npm.api.umd import UNSEEN, umd_exports

MAX_DEPTH = 6  # `export * from` chains followed at most this deep
MAX_FILE_BYTES = 3_000_000
MAX_NAMES = 50_000
# among the names of a CommonJS entry: `module.exports = new X()` whose maker no file of the
# release shows, so the instance's members are not known (the entry is opaque, not empty);
# UMD bundles (umd.py) say the same of a module object they do not read to the end
# a bare `export * from 'pkg'` / `'pkg/sub'`: the names that module exports (None: unread)
Foreign = Callable[[str], "set[str] | None"]
_NAMED_DECLARATIONS = ("name",)
_EXTENSIONS = (
    "",
    ".d.ts",
    ".d.mts",
    ".d.cts",
    ".ts",
    ".js",
    ".mjs",
    ".cjs",
    "/index.d.ts",
    "/index.js",
)


@lru_cache(maxsize=4)
def _parser(kind: str) -> tree_sitter.Parser:
    language = (
        tree_sitter_typescript.language_typescript()
        if kind == "ts"
        else tree_sitter_javascript.language()
    )
    return tree_sitter.Parser(tree_sitter.Language(language))


def parse(file: Path) -> tree_sitter.Node | None:
    if not file.is_file() or file.stat().st_size > MAX_FILE_BYTES:
        return None
    kind = "ts" if file.name.endswith((".ts", ".mts", ".cts")) else "js"
    return _parser(kind).parse(file.read_bytes()).root_node


def _declared_names(node: tree_sitter.Node) -> list[str]:
    """Names a declaration binds: `function f`, `class C`, `const a = 1, b = 2`, `interface I`."""
    if node.type == "ambient_declaration":
        return [n for child in node.named_children for n in _declared_names(child)]
    if node.type in ("lexical_declaration", "variable_declaration"):
        return [
            n
            for d in node.named_children
            if d.type == "variable_declarator"
            for n in _bound(d.child_by_field_name("name"))
        ]
    name = node.child_by_field_name("name")
    return [node_text(name)] if name is not None else []


def _bound(pattern: tree_sitter.Node | None) -> list[str]:
    """The names a binding binds: `a`, or each of `{ a, b: c, ...d }` / `[e, f = 1]`."""
    if pattern is None:
        return []
    if pattern.type in ("identifier", "shorthand_property_identifier_pattern"):
        return [node_text(pattern)]
    if pattern.type == "pair_pattern":
        return _bound(pattern.child_by_field_name("value"))
    if pattern.type in ("assignment_pattern", "object_assignment_pattern"):
        return _bound(pattern.child_by_field_name("left") or pattern.named_children[0])
    if pattern.type in ("object_pattern", "array_pattern", "rest_pattern"):
        return [n for child in pattern.named_children for n in _bound(child)]
    return [node_text(pattern)]


def _namespace_path(containers: list[tree_sitter.Node], path: str) -> list[str]:
    """Members of the namespace ``path`` names (``Electron.CrossProcessExports``: a namespace
    declared in another's body), looked up in the first of ``containers`` that declares it."""
    first, _, rest = path.partition(".")
    for container in containers:
        found = _namespace_members(container, first, bodies=bool(rest))
        if found and rest:
            inner = [b for b in found if isinstance(b, tree_sitter.Node)]
            return _namespace_path(inner, rest) if inner else []
        if found:
            return found
    return []


def _namespace_members(program: tree_sitter.Node, name: str, bodies: bool = False) -> list:
    """Members of `namespace name { … }` / `declare namespace name { … }` in one file (its
    bodies instead, with ``bodies``)."""
    members: list = []
    for node in program.named_children:
        if node.type == "expression_statement" and node.named_children:
            node = node.named_children[0]  # `namespace a {}` in a body parses as an expression
        target = (
            node.named_children[-1]
            if node.type == "ambient_declaration" and node.named_children
            else node
        )
        if (
            target.type not in ("internal_module", "module")
            or node_text(target.child_by_field_name("name")) != name
        ):
            continue
        body = target.child_by_field_name("body")
        if bodies:
            members += [body] if body is not None else []
        else:
            members += _body_members(body, nested=True)
    return members


def _typed_members(declaration: tree_sitter.Node, name: str) -> list[str]:
    """Members of `declare const name: { configure(…): void; POSITION: {…} }`: the object
    type's properties and methods (its call signatures are the value itself)."""
    if declaration.type == "ambient_declaration":
        return [m for c in declaration.named_children for m in _typed_members(c, name)]
    if declaration.type not in ("lexical_declaration", "variable_declaration"):
        return []
    for d in declaration.named_children:
        if d.type != "variable_declarator" or node_text(d.child_by_field_name("name")) != name:
            continue
        annotation = d.child_by_field_name("type")
        shape = annotation.named_children[0] if annotation and annotation.named_children else None
        if shape is None or shape.type != "object_type":
            return []
        return [
            node_text(m.child_by_field_name("name"))
            for m in shape.named_children
            if m.type in ("property_signature", "method_signature")
            and m.child_by_field_name("name") is not None
            and not _NEVER.search(node_text(m))
        ]
    return []


def value_members(program: tree_sitter.Node, name: str) -> list[str]:
    """The members a declaration file gives the value ``name``: the properties of its object
    type (`declare const toast: { … }`) and a namespace merged with it (`declare namespace
    toast { var success: … }`), as ``name.member``."""
    members: list[str] = []
    for node in program.named_children:
        inner = node.child_by_field_name("declaration") if node.type == "export_statement" else node
        if inner is not None:
            members += _typed_members(inner, name)
    members += [m for m in _namespace_members(program, name) if isinstance(m, str)]
    return [f"{name}.{m}" for m in dict.fromkeys(members) if m]


def _body_members(body: tree_sitter.Node | None, *, nested: bool) -> list[str]:
    """The names a namespace body declares or lists (`export { A, B as C }`); with ``nested``,
    a namespace in it brings its own members too, one level down (`optimize.SplitChunks`)."""
    members: list[str] = []
    for statement in body.named_children if body is not None else []:
        if _NEVER.search(node_text(statement)):
            continue  # `var gone: () => never`: a stub that only throws is a removal
        inner = (
            statement.child_by_field_name("declaration")
            if statement.type == "export_statement"
            else statement
        )
        if inner is None:  # `export { A, B as C }`
            members += [
                node_text(spec.child_by_field_name("alias") or spec.child_by_field_name("name"))
                for clause in statement.named_children
                if clause.type == "export_clause"
                for spec in clause.named_children
            ]
            continue
        if inner.type == "expression_statement" and inner.named_children:
            inner = inner.named_children[0]  # `namespace a {}` parses as an expression
        names = _declared_names(inner)
        members += names
        if nested and inner.type in ("internal_module", "module") and names:
            deeper = _body_members(inner.child_by_field_name("body"), nested=False)
            members += [f"{names[0]}.{m}" for m in deeper]
    return members


# a member typed to return `never` (`var hpkp: () => never;`, `function f(): never;`)
_NEVER = re.compile(r"(\(\s*\)\s*=>\s*never|\)\s*:\s*never)\s*;?\s*$")


def resolve_relative(base: Path, spec: str, root: Path) -> Path | None:
    if not spec.startswith("."):
        return None
    stem = (base.parent / spec).resolve()
    candidates = [Path(str(stem) + ext) for ext in _EXTENSIONS]
    if stem.suffix in (".js", ".mjs", ".cjs"):  # `./x.js` in a declaration means `./x.d.ts`
        candidates.insert(0, stem.with_suffix(".d.ts"))
    for candidate in candidates:
        if candidate.is_file() and candidate.is_relative_to(root.resolve()):
            return candidate
    return None


def _export_statement(node: tree_sitter.Node, program: tree_sitter.Node, ctx: _Context) -> set[str]:
    tokens = {c.type for c in node.children}
    declaration = node.child_by_field_name("declaration")
    if "default" in tokens:  # `export default X` with `declare namespace X { … }` beside it:
        named = [c for c in node.named_children if c.type == "identifier"]  # X's members too
        return {"default", *(_namespace_members(program, node_text(named[0])) if named else [])}
    if "=" in tokens:  # export = X (or X.Y: a namespace inside another)
        named = [c for c in node.named_children if c.type in ("identifier", "member_expression")]
        containers = [program] + ([ctx.outer] if ctx.outer is not None else [])
        return {"default", *(_namespace_path(containers, node_text(named[0])) if named else [])}
    if declaration is not None:
        declared = _declared_names(declaration)
        typed = ctx.file.name.endswith(DECLARATION_SUFFIXES)
        return {*declared, *(m for n in declared if typed for m in value_members(program, n))}
    names: set[str] = set()
    source = node.child_by_field_name("source")
    specs: list[tuple[str, str]] = []
    for child in node.named_children:
        if child.type == "export_clause":
            for spec in child.named_children:
                alias = spec.child_by_field_name("alias") or spec.child_by_field_name("name")
                names.add(node_text(alias))
                specs.append((node_text(spec.child_by_field_name("name")), node_text(alias)))
        elif child.type == "namespace_export":
            names.update(
                node_text(c) for c in child.named_children if c.type in ("identifier", "string")
            )
    names |= _members_passed(specs, program, source, ctx)
    if "*" in tokens and source is not None:
        spec = node_text(source)
        if not spec.startswith(".") and ctx.foreign is not None:  # another package's names
            return names | {n for n in ctx.foreign(spec) or () if n != "default"}
        target = resolve_relative(ctx.file, spec, ctx.root)
        if target is not None:
            deeper = file_exports(target, ctx.root, ctx.depth + 1, ctx.seen, ctx.foreign)
            names |= {n for n in deeper if n != "default"}
    return names


def _members_passed(
    specs: list[tuple[str, str]],
    program: tree_sitter.Node,
    source: tree_sitter.Node | None,
    ctx: _Context,
) -> set[str]:
    """The members an `export { toast }` (or `export { toast as t } from './core'`) of a
    declaration file passes on with each name, as ``alias.member``; ``specs``: (name, alias)."""
    if not specs or not ctx.file.name.endswith(DECLARATION_SUFFIXES):
        return set()
    if source is None:
        found = [m for name, _ in specs for m in value_members(program, name)]
    else:
        target = resolve_relative(ctx.file, node_text(source), ctx.root)
        seen = {ctx.file}  # its own walk: the names it re-exports were read for no members
        deeper = (
            file_exports(target, ctx.root, ctx.depth + 1, seen, ctx.foreign) if target else set()
        )
        found = [n for n in deeper if "." in n and "()." not in n]
        # what `new X()` makes, re-exported with X: `new X().m` as `new alias().m`
        found += [n for n in deeper if n.startswith("new ") and "()" in n]
    out = set()
    for name, alias in specs:
        out |= {alias + m[len(name) :] for m in found if m.startswith(name + ".")}
        made = f"new {name}()"
        out |= {f"new {alias}()" + m[len(made) :] for m in found
                if m == made or m.startswith(made + ".")}  # fmt: skip
    return out


def loaded_spec(node: tree_sitter.Node) -> str | None:
    """`module.exports = require('./lib/sequelize')`: the relative specifier of the file of the
    release whose names are the module's (None: not such a statement)."""
    expression = node.named_children[0] if node.named_children else None
    if expression is None or expression.type != "assignment_expression":
        return None
    left, right = expression.child_by_field_name("left"), expression.child_by_field_name("right")
    if node_text(left) != "module.exports" or right is None or right.type != "call_expression":
        return None
    args = right.child_by_field_name("arguments")
    items = args.named_children if args is not None else []
    if node_text(right.child_by_field_name("function")) != "require" or len(items) != 1:
        return None
    spec = node_text(items[0])
    return spec if items[0].type == "string" and spec.startswith(".") else None


def _commonjs(node: tree_sitter.Node, names: _Names) -> set[str]:
    expression = node.named_children[0] if node.named_children else None
    if expression is None:
        return set()
    if expression.type == "call_expression":
        return _defined_by_call(expression)
    return _assigned(expression, names)


# what `module.exports = …` may be set to with its members read elsewhere: a function or a
# class (its statics, what is set on it), an instance made here (``Instances``)
_SHAPED = frozenset({
    "function_expression", "function", "arrow_function", "class", "generator_function",
    "new_expression",
})  # fmt: skip
_DECLARED = frozenset({
    "function_declaration", "class_declaration", "generator_function_declaration",
})  # fmt: skip


def declarations(program: tree_sitter.Node) -> dict[str, tree_sitter.Node]:
    """``{name: its value}`` of the module's top-level bindings: a ``const``/``let``/``var``
    declarator's initial value, or the function or class declaration itself."""
    out: dict[str, tree_sitter.Node] = {}
    for node in top_statements(program):
        if node.type in _DECLARED and (name := node.child_by_field_name("name")) is not None:
            out.setdefault(node_text(name), node)
        for d in node.named_children if node.type.endswith("declaration") else ():
            name, value = d.child_by_field_name("name"), d.child_by_field_name("value")
            if d.type == "variable_declarator" and name is not None and value is not None:
                out.setdefault(node_text(name), value)
    return out


def _prototype_made(value: tree_sitter.Node | None) -> bool:
    """Whether a binding's value is ``Object.create(proto)``: an object the module then
    builds member by member (``req.param = …``), its members what is set on it."""
    callee = (
        value.child_by_field_name("function")
        if value is not None and value.type == "call_expression"
        else None
    )
    return callee is not None and node_text(callee) == "Object.create"


def _exported_value(right: tree_sitter.Node, names: _Names) -> set[str]:
    """The names ``module.exports = right`` gives besides what is set on it later: an object
    literal's keys, bound directly or through a top-level name; nothing more for a function,
    a class, an instance, an object the module builds member by member (``req.param = …``),
    a ``require`` and a function's wrapper; ``UNSEEN`` for what another call, a member or a
    condition yields (``module.exports = make(config)``): its members are not known, which
    is not "none"."""
    if right.type == "identifier":
        name = node_text(right)
        bound = names.declared.get(name)
        if bound is None or bound.type in _DECLARED:  # a global, a wrapper's parameter, a
            return {"default"}  # function or a class: its members are what is set on it
        if name in names.set_on and _prototype_made(bound):
            return {"default"}
        right = bound
    if right.type == "object":
        return {"default", *_object_keys(right)}
    if right.type in _SHAPED or _read_as_before(right, names):
        return {"default"}
    return {"default", UNSEEN}


def _read_as_before(value: tree_sitter.Node, names: _Names) -> bool:
    """A call whose result keeps its reading as a module object: ``require('./constructor')``
    (the members the module sets on it), and a wrapper of a function of the module's
    (``deprecate.function(bodyParser, …)``), which hands back a function."""
    if value.type != "call_expression":
        return False
    if node_text(value.child_by_field_name("function")) == "require":
        return True
    args = value.child_by_field_name("arguments")
    first = args.named_children[0] if args is not None and args.named_children else None
    if first is None:
        return False
    if first.type == "identifier":
        first = names.declared.get(node_text(first)) or first
    return first.type in (*_SHAPED - {"new_expression"}, *_DECLARED)


class _Names:
    """A module's top-level bindings, the name ``module.exports`` is set to and the members
    its statements set on each name, read once per file."""

    def __init__(self, program: tree_sitter.Node) -> None:
        self.declared = declarations(program)
        self.exported, self.set_on = _set_members(program)

    def members_of_exported(self) -> set[str]:
        """`module.exports = uuid` with `uuid.v4 = v4` beside it: the members of that object."""
        return self.set_on.get(self.exported, set())


def _assigned(expression: tree_sitter.Node, names: _Names) -> set[str]:
    if expression.type != "assignment_expression":
        return set()
    left, right = expression.child_by_field_name("left"), expression.child_by_field_name("right")
    target = node_text(left)
    if target == "exports" and right is not None and right.type == "assignment_expression":
        return _assigned(right, names)  # `exports = module.exports = fn`: the inner counts
    if target == "module.exports":
        if right is not None and right.type == "object":
            return {"default", *_object_keys(right)}
        if (
            right is not None
            and right.type == "call_expression"
            and (node_text(right.child_by_field_name("function")) == "Object.assign")
        ):  # `Object.assign({ ConnectionPool, Request }, base.exports)`: the literals' keys,
            args = right.child_by_field_name("arguments")  # and what another object adds
            items = args.named_children if args is not None else []
            keys = {k for item in items if item.type == "object" for k in _object_keys(item)}
            unseen = {UNSEEN} if any(item.type != "object" for item in items) else set()
            return {"default", *keys, *unseen}
        return {"default"} if right is None else _exported_value(right, names)
    for prefix in ("module.exports.", "exports."):
        if target.startswith(prefix) and "." not in target[len(prefix) :]:
            chained = right is not None and right.type == "assignment_expression"
            # `exports.x = exports.extract = require('./lib/extract.js')`: both names
            return {target[len(prefix) :], *(_assigned(right, names) if chained else ())}
    return set()


_EXPORTS = ("exports", "module.exports")


def _defined_by_call(call: tree_sitter.Node) -> set[str]:
    """Names a call defines on the exports: `Object.defineProperty(exports, "x", …)`, and an
    object literal passed along with the exports (`Object.assign(module.exports, {a, b})`,
    `Object.defineProperties(exports, {…})`, a helper's `define(exports, {A: () => …})`); with
    `exports.ns = {}` as the target, the keys are members of `ns` (`ns`, `ns.A`)."""
    args = call.child_by_field_name("arguments")
    items = args.named_children if args is not None else []
    if len(items) < 2:
        return set()
    target, prefix = node_text(items[0]), ""
    if items[0].type == "assignment_expression":  # `exports.optimize = {}`
        left = node_text(items[0].child_by_field_name("left"))
        right = items[0].child_by_field_name("right")
        ns = next((left[len(e) + 1 :] for e in _EXPORTS if left.startswith(e + ".")), "")
        if not re.fullmatch(r"[A-Za-z_$][\w$]*", ns) or right is None or right.type != "object":
            return set()
        target, prefix = "exports", ns + "."
    if target not in _EXPORTS:
        return set()
    if node_text(call.child_by_field_name("function")) == "Object.defineProperty":
        return {node_text(items[1])} if items[1].type == "string" else set()
    keys = [k for item in items[1:] if item.type == "object" for k in _object_keys(item)]
    return {f"{prefix}{k}" for k in keys if k} | ({prefix[:-1]} if prefix else set())


def _object_keys(node: tree_sitter.Node) -> list[str]:
    keys = []
    for child in node.named_children:
        if child.type == "shorthand_property_identifier":
            keys.append(node_text(child))
        elif child.type in ("pair", "method_definition"):
            key = child.child_by_field_name("key") or child.child_by_field_name("name")
            keys.append(node_text(key))
    return keys


class _Context:
    def __init__(
        self, file: Path, root: Path, depth: int, seen: set[Path], foreign: Foreign | None = None
    ) -> None:
        self.file, self.root, self.depth, self.seen = file, root, depth, seen
        self.foreign = foreign
        # a `declare module 'x' { export = N }` block's file: where else `N` may be declared
        self.outer: tree_sitter.Node | None = None


def ambient_modules(file: Path) -> dict[str, set[str]]:
    """`declare module 'name' { … }` blocks of a declaration file: module name → its names."""
    program = parse(file)
    found: dict[str, set[str]] = {}
    for node in program.named_children if program is not None else []:
        module = (
            node.named_children[-1]
            if node.type == "ambient_declaration" and node.named_children
            else None
        )
        if module is None or module.type != "module":
            continue
        name, body = module.child_by_field_name("name"), module.child_by_field_name("body")
        if name is None or name.type != "string" or body is None:
            continue
        ctx = _Context(file, file.parent, MAX_DEPTH, {file})
        ctx.outer = program
        names = found.setdefault(node_text(name), set())
        for statement in body.named_children:
            if statement.type == "export_statement":
                names |= _export_statement(statement, body, ctx)
        if _exports_implicitly(body):
            names |= _implicit_names(body)
    return found


_DECLARATIONS = frozenset({
    "function_signature", "function_declaration", "class_declaration",
    "abstract_class_declaration", "lexical_declaration", "variable_declaration",
    "interface_declaration", "type_alias_declaration", "enum_declaration",
    "internal_module", "module", "ambient_declaration",
})  # fmt: skip


def _exports_implicitly(body: tree_sitter.Node) -> bool:
    """A `declare module 'x' { … }` block exports every declaration in it unless it has an
    export assignment (`export =`) or an export list (`export { … }`)."""
    for statement in body.named_children:
        if statement.type != "export_statement":
            continue
        tokens = {c.type for c in statement.children}
        if "=" in tokens or any(c.type == "export_clause" for c in statement.named_children):
            return False
    return True


def _implicit_names(body: tree_sitter.Node) -> set[str]:
    names: set[str] = set()
    for statement in body.named_children:
        inner = statement
        if statement.type == "expression_statement" and statement.named_children:
            inner = statement.named_children[0]  # `namespace a {}` parses as an expression
        if inner.type in _DECLARATIONS:
            names.update(_declared_names(inner))
    return names


def file_exports(
    file: Path,
    root: Path,
    depth: int = 0,
    seen: set[Path] | None = None,
    foreign: Foreign | None = None,
) -> set[str]:
    """The names one entry file exports (ESM, TypeScript declarations, or CommonJS);
    ``foreign`` reads what a bare ``export * from 'pkg'`` brings in."""
    seen = set() if seen is None else seen
    if depth > MAX_DEPTH or file in seen:
        return set()
    seen.add(file)
    program = parse(file)
    if program is None:
        return set()
    ctx = _Context(file, root, depth, seen, foreign)
    names: set[str] = set()
    loaded = unread_load = False  # an entry that loads one of two builds (by environment)
    bindings = _Names(program)
    for node in top_statements(program):
        if node.type == "export_statement":
            names |= _export_statement(node, program, ctx)
        elif node.type == "expression_statement":
            spec = loaded_spec(node)  # `module.exports = require('./lib')`: that file's
            target = (
                resolve_relative(ctx.file, spec, ctx.root) if spec else None
            )  # names, default or not
            if target is not None:
                names |= file_exports(target, ctx.root, ctx.depth + 1, ctx.seen, ctx.foreign)
                loaded = True
            elif spec:  # a file not shipped: a module object all the same
                unread_load = True
            else:
                names |= _commonjs(node, bindings)
            names |= _copied(node, program, ctx)
        if len(names) > MAX_NAMES:
            break
    if unread_load and not loaded:
        names.add("default")
    names |= bindings.members_of_exported()
    names |= umd_exports(program) or set()  # `module.exports = factory()` inside a wrapper
    made = Instances(parse, lambda base, spec: resolve_relative(base, spec, root)).members(
        file, program
    )
    names |= {UNSEEN} if made is None else made
    names |= returned_members(program, names, _loader(ctx))  # `createClient().head`
    names |= _typed_values(root).members(file, program, names)  # `faker.company.companyName`
    return names - {"", "__esModule"}


@lru_cache(maxsize=4)
def _typed_values(root: Path) -> TypedValues:
    """One reader of typed values per unpacked release: the files and types it reads are read
    once, however many entry files re-export the same value."""
    return TypedValues(parse, lambda base, spec: resolve_relative(base, spec, root))


def top_statements(program: tree_sitter.Node):
    """The file's top-level statements, and those of a top-level ``if`` and its ``else``
    (``if (!process.env.CLIENT_ONLY) { module.exports.createServer = … }``), and of a
    wrapper that runs at once (``(function () { … module.exports.Connection = Connection;
    }).call(this);``, as CoffeeScript and older libraries write a whole module)."""
    for node in program.named_children:
        yield node
        body = _wrapped_body(node)
        if body is not None:
            yield from top_statements(body)
        if node.type != "if_statement":
            continue
        for part in (
            node.child_by_field_name("consequence"),
            node.child_by_field_name("alternative"),
        ):
            if part is not None and part.type == "else_clause":
                part = next((c for c in part.named_children if c.type == "statement_block"), None)
            if part is not None and part.type == "statement_block":
                yield from part.named_children


def _wrapped_body(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The body of ``(function () { … }).call(this)`` or ``(function () { … })()`` standing
    as a statement; None for anything else (a wrapper that takes parameters is a UMD
    factory's, read by ``umd_exports``)."""
    call = (
        node.named_children[0]
        if node.type == "expression_statement" and node.named_children
        else None
    )
    if call is None or call.type != "call_expression":
        return None
    fn = call.child_by_field_name("function")
    if fn is not None and fn.type == "member_expression":
        if node_text(fn.child_by_field_name("property")) != "call":
            return None
        fn = fn.child_by_field_name("object")
    while fn is not None and fn.type == "parenthesized_expression":
        fn = fn.named_children[0] if fn.named_children else None
    if fn is None or fn.type not in ("function_expression", "function", "arrow_function"):
        return None
    params = fn.child_by_field_name("parameters")
    body = fn.child_by_field_name("body")
    if (params is not None and params.named_children) or body is None:
        return None
    return body if body.type == "statement_block" else None


def _copied(node: tree_sitter.Node, program: tree_sitter.Node, ctx: _Context) -> set[str]:
    """``Object.keys(lib).forEach(function (k) { module.exports[k] = lib[k]; })`` with
    ``var lib = require('./lib')``: every name of that file becomes one of these exports."""
    call = node.named_children[0] if node.named_children else None
    callee = call.child_by_field_name("function") if call is not None else None
    if callee is None or callee.type != "member_expression":
        return set()
    keys = callee.child_by_field_name("object")
    if node_text(callee.child_by_field_name("property")) != "forEach" or keys is None:
        return set()
    if (
        keys.type != "call_expression"
        or node_text(keys.child_by_field_name("function")) != "Object.keys"
    ):
        return set()
    source = node_text(keys.child_by_field_name("arguments")).strip("() ")
    if not re.fullmatch(r"[A-Za-z_$][\w$]*", source) or not _copies(call, source):
        return set()
    spec = _required_by(program, source)
    target = resolve_relative(ctx.file, spec, ctx.root) if spec.startswith(".") else None
    if target is None:
        return set()
    return file_exports(target, ctx.root, ctx.depth + 1, ctx.seen, ctx.foreign) - {"default"}


def _copies(call: tree_sitter.Node, source: str) -> bool:
    """Whether the call's arguments do ``module.exports[k] = source[k]`` (or ``exports[k]``)."""
    for node in descendants(call.child_by_field_name("arguments") or call):
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if node.type != "assignment_expression" or left is None or right is None:
            continue
        if left.type != "subscript_expression" or right.type != "subscript_expression":
            continue
        key = left.child_by_field_name("index")
        if (
            node_text(left.child_by_field_name("object")) in _EXPORTS
            and node_text(right.child_by_field_name("object")) == source
            and key is not None
            and key.type == "identifier"
            and node_text(key) == node_text(right.child_by_field_name("index"))
        ):
            return True
    return False


def _required_by(program: tree_sitter.Node, name: str) -> str:
    """The relative specifier a top-level ``var name = require('./x')`` loads ('' if none)."""
    for node in top_statements(program):
        if node.type not in ("variable_declaration", "lexical_declaration"):
            continue
        for declarator in node.named_children:
            value = declarator.child_by_field_name("value")
            if node_text(declarator.child_by_field_name("name")) != name or value is None:
                continue
            args = value.child_by_field_name("arguments")
            first = args.named_children[0] if args is not None and args.named_children else None
            if node_text(value.child_by_field_name("function")) == "require" and first is not None:
                return node_text(first) if first.type == "string" else ""
    return ""


def _loader(
    ctx: _Context,
) -> Callable[[str], tuple[tree_sitter.Node, Callable[[], set[str]]] | None]:
    """Another file of the release, as ``returned_members`` reads it: its parse and its names
    (read on demand, one level deeper), for a relative or a self-referencing specifier."""

    def load(spec: str) -> tuple[tree_sitter.Node, Callable[[], set[str]]] | None:
        if ctx.depth >= MAX_DEPTH:
            return None
        relative = spec.startswith(".")
        target = (
            resolve_relative(ctx.file, spec, ctx.root)
            if relative
            else _self_resolve(ctx.root, spec)
        )
        program = parse(target) if target is not None else None
        if target is None or program is None:
            return None
        return program, lambda: file_exports(target, ctx.root, ctx.depth + 1, set(), ctx.foreign)

    return load


@lru_cache(maxsize=64)
def _own_manifest(root: Path) -> dict:
    """A release's ``package.json`` ({} when unreadable); read once per unpacked release."""
    try:
        manifest = json.loads((root / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return manifest if isinstance(manifest, dict) else {}


def _self_resolve(root: Path, spec: str) -> Path | None:
    """The declaration file of one of the package's own entry points (``pkg/_internal``), as
    its ``exports`` map (a ``types`` condition first) or its folders give it."""
    manifest = _own_manifest(root)
    name = manifest.get("name")
    if not isinstance(name, str) or not (spec == name or spec.startswith(name + "/")):
        return None
    sub = "." + spec[len(name) :]
    exports = manifest.get("exports")
    entry = exports.get(sub) if isinstance(exports, dict) else None
    targets: list[str] = []

    def walk(value: object, typed: bool) -> None:
        if isinstance(value, str):
            if typed or value.endswith(DECLARATION_SUFFIXES):
                targets.append(value)
        elif isinstance(value, dict):
            for key in sorted(value, key=lambda k: k != "types"):
                walk(value[key], typed or key == "types")

    walk(entry, False)
    for rel in [*targets, f"{sub}/index.d.ts", f"{sub}.d.ts"]:
        found = resolve_relative(
            root / "package.json", rel if rel.startswith(".") else "./" + rel, root
        )
        if found is not None:
            return found
    return None


def _set_members(program: tree_sitter.Node) -> tuple[str, dict[str, set[str]]]:
    """The name `module.exports` is set to (`module.exports = uuid`, "" when none) and, for
    each top-level name, the members the module's statements set on it (`uuid.v4 = v4`)."""
    assigned: dict[str, set[str]] = {}
    exported = ""
    for node in program.named_children:
        expression = node.named_children[0] if node.type == "expression_statement" else None
        if expression is None or expression.type != "assignment_expression":
            continue
        left, right = (
            expression.child_by_field_name("left"),
            expression.child_by_field_name("right"),
        )
        while (
            node_text(left) == "exports"
            and right is not None
            and right.type == ("assignment_expression")
        ):  # `exports = module.exports = fn`
            left, right = right.child_by_field_name("left"), right.child_by_field_name("right")
        if node_text(left) == "module.exports" and right is not None and right.type == "identifier":
            exported = node_text(right)
            continue
        # `X.prototype.Op = X.Op = Op`: each target of a chain of assignments
        while left is not None:
            if left.type == "member_expression":
                owner = left.child_by_field_name("object")
                if owner is not None and owner.type == "identifier":
                    member = node_text(left.child_by_field_name("property"))
                    assigned.setdefault(node_text(owner), set()).add(member)
            if right is None or right.type != "assignment_expression":
                break
            left, right = right.child_by_field_name("left"), right.child_by_field_name("right")
    return exported, assigned
