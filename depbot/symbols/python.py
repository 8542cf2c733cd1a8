"""Facts about one Python file for symbol search: names, attributes, calls and what they are bound to. Pure.

One ``ast`` walk records, for every attribute access, name load, keyword argument and
from-import, where it is (1-based line and character column of the name), the dotted
chain it belongs to (``pd.DataFrame.append``), the shape of the call when it is called,
and whether it is awaited. Assignments record what a local name was bound to, so that a
search can tell ``frames = []`` (a list) from ``app = Flask(...)`` (the package's object).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from depbot.core import pyast


@dataclass(frozen=True)
class CallShape:
    positional: int
    keywords: tuple[str, ...]
    star: bool  # *args or **kwargs present: the shape is not fully known
    arg_kinds: tuple[str, ...]  # per positional argument: number | string | function | name | other
    literals: tuple[str, ...]  # string literal values among the arguments
    # per positional argument: the keys of an object literal ("..." for a spread or a computed
    # key), None for any other argument; () when not read (Python)
    objects: tuple[tuple[str, ...] | None, ...] = ()
    # per positional argument: (key, value) for each key an object literal gives a string
    # literal (JavaScript); None for any other argument
    object_strings: tuple[tuple[tuple[str, str], ...] | None, ...] = ()
    # Python: what each positional argument is (an assignment origin: "chain:Form.()",
    # "literal:str", ...), and each keyword argument's; () when not read (JavaScript)
    arg_origins: tuple[str, ...] = ()
    keyword_origins: tuple[tuple[str, str], ...] = ()
    last_arg: str = ""  # JavaScript: the last argument's text (60 characters at most)


@dataclass(frozen=True)
class Use:
    line: int
    col: int  # 1-based character column of the name itself
    kind: str  # attr | name | import | keyword
    leaf: str
    chain: tuple[str, ...]  # ("pd", "DataFrame", "append"); "()" marks a call result in the chain
    call: CallShape | None = None  # set when this use is called directly
    awaited: bool = False
    module: str = ""  # import: the module imported from
    func_chain: tuple[str, ...] = ()  # keyword: the called function's chain

    @property
    def root(self) -> str:
        return self.chain[0] if self.chain else ""


@dataclass
class PyFacts:
    uses: dict[str, list[Use]] = field(default_factory=dict)  # leaf -> uses
    imports: dict[str, str] = field(
        default_factory=dict
    )  # local name -> "module" or "module.member"
    assigned: dict[str, list[str]] = field(default_factory=dict)  # local name -> origins
    params: set[str] = field(default_factory=set)
    # parameter -> (function, position among the arguments a call passes) of each function
    # of the file that takes it (a method's self/cls not counted)
    param_of: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    defined: set[str] = field(default_factory=set)  # def/class names
    ok: bool = True  # the file parsed

    def at(self, leaf: str, line: int) -> list[Use]:
        return [u for u in self.uses.get(leaf, []) if u.line == line]


def _chain(node: ast.AST) -> tuple[str, ...]:
    parts: list[str] = []
    while True:
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Name):
            parts.append(node.id)
            break
        elif isinstance(node, ast.Call):
            parts.append("()")
            node = node.func
        elif isinstance(node, ast.Subscript):
            parts.append("[]")
            node = node.value
        else:
            parts.append("?")
            break
    return tuple(reversed(parts))


def _kind(arg: ast.AST) -> str:
    if isinstance(arg, ast.Constant):
        if isinstance(arg.value, str):
            return "string"
        if isinstance(arg.value, (int, float)) and not isinstance(arg.value, bool):
            return "number"
        return "other"
    if isinstance(arg, (ast.Lambda,)):
        return "function"
    if isinstance(arg, (ast.Name, ast.Attribute)):
        return "name"
    return "other"


def _shape(call: ast.Call) -> CallShape:
    star = any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    )
    positional = [a for a in call.args if not isinstance(a, ast.Starred)]
    literals = tuple(
        a.value
        for a in [*call.args, *(k.value for k in call.keywords)]
        if isinstance(a, ast.Constant) and isinstance(a.value, str)
    )
    return CallShape(
        positional=len(positional),
        keywords=tuple(k.arg for k in call.keywords if k.arg),
        star=star,
        arg_kinds=tuple(_kind(a) for a in positional),
        literals=literals,
        arg_origins=tuple(_origin(a) for a in positional),
        keyword_origins=tuple((k.arg, _origin(k.value)) for k in call.keywords if k.arg),
    )


def _origin(value: ast.AST) -> str:
    if isinstance(value, (ast.List, ast.ListComp)):
        return "literal:list"
    if isinstance(value, (ast.Dict, ast.DictComp)):
        return "literal:dict"
    if isinstance(value, (ast.Set, ast.SetComp)):
        return "literal:set"
    if isinstance(value, ast.Tuple):
        return "literal:tuple"
    if isinstance(value, ast.Constant):
        return f"literal:{type(value.value).__name__}"
    if isinstance(value, (ast.JoinedStr,)):
        return "literal:str"
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in (
        "list", "dict", "set", "tuple", "str", "bytes", "bytearray", "frozenset", "deque",
        "defaultdict", "OrderedDict", "Counter",
    ):  # fmt: skip
        return f"literal:{value.func.id}"
    if isinstance(value, (ast.Call, ast.Attribute, ast.Name, ast.Subscript)):
        return "chain:" + ".".join(_chain(value))
    if isinstance(value, ast.Await):
        return _origin(value.value)
    return "other"


class _Walker(ast.NodeVisitor):
    def __init__(self, lines: list[str], facts: PyFacts) -> None:
        self.lines = lines
        self.facts = facts
        self.parents: dict[int, ast.AST] = {}

    def col(self, lineno: int, byte_col: int) -> int:
        if 1 <= lineno <= len(self.lines):
            raw = self.lines[lineno - 1].encode("utf-8")
            return len(raw[:byte_col].decode("utf-8", errors="ignore")) + 1
        return byte_col + 1

    def add(self, use: Use) -> None:
        self.facts.uses.setdefault(use.leaf, []).append(use)

    def call_of(self, node: ast.AST) -> tuple[CallShape | None, bool]:
        parent = self.parents.get(id(node))
        if isinstance(parent, ast.Call) and parent.func is node:
            grand = self.parents.get(id(parent))
            return _shape(parent), isinstance(grand, ast.Await)
        return None, False

    def generic_visit(self, node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            self.parents[id(child)] = node
        super().generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        end_line = getattr(node, "end_lineno", node.lineno) or node.lineno
        end_col = getattr(node, "end_col_offset", None)
        if end_col is not None:
            col = self.col(end_line, end_col - len(node.attr.encode("utf-8")))
            call, awaited = self.call_of(node)
            self.add(Use(end_line, col, "attr", node.attr, _chain(node), call, awaited))
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            call, awaited = self.call_of(node)
            self.add(
                Use(
                    node.lineno,
                    self.col(node.lineno, node.col_offset),
                    "name",
                    node.id,
                    (node.id,),
                    call,
                    awaited,
                )
            )
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = _chain(node.func)
        for kw in node.keywords:
            if kw.arg and hasattr(kw, "lineno"):
                col = self.col(kw.lineno, kw.col_offset)
                self.add(
                    Use(
                        kw.lineno,
                        col,
                        "keyword",
                        kw.arg,
                        func,
                        _shape(node),
                        False,
                        func_chain=func,
                    )
                )
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = ("." * node.level) + (node.module or "")
        for alias in node.names:
            line = getattr(alias, "lineno", node.lineno)
            col = self.col(line, getattr(alias, "col_offset", node.col_offset))
            self.add(Use(line, col, "import", alias.name, (alias.name,), module=module))
            if alias.name != "*":
                self.facts.imports[alias.asname or alias.name] = f"{module}.{alias.name}"
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            line = getattr(alias, "lineno", node.lineno)
            col = self.col(line, getattr(alias, "col_offset", node.col_offset))
            self.add(
                Use(
                    line,
                    col,
                    "import",
                    alias.name.rsplit(".", 1)[-1],
                    tuple(alias.name.split(".")),
                    module=alias.name,
                )
            )
            if alias.asname:
                self.facts.imports[alias.asname] = alias.name
            else:
                top = alias.name.split(".", 1)[0]
                self.facts.imports.setdefault(top, top)
        self.generic_visit(node)

    def _assign(self, target: ast.AST, value: ast.AST) -> None:
        if isinstance(target, ast.Name):
            self.facts.assigned.setdefault(target.id, []).append(_origin(value))
        elif (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id in ("self", "cls")
        ):
            self.facts.assigned.setdefault(f"self.{target.attr}", []).append(_origin(value))

    def visit_Assign(self, node: ast.Assign) -> None:
        for t in node.targets:
            self._assign(t, node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._assign(node.target, node.value)
        self.generic_visit(node)

    def visit_With(self, node: ast.With) -> None:
        for item in node.items:
            if item.optional_vars is not None:
                self._assign(item.optional_vars, item.context_expr)
        self.generic_visit(node)

    visit_AsyncWith = visit_With

    def visit_For(self, node: ast.For) -> None:
        if isinstance(node.target, ast.Name):
            self.facts.assigned.setdefault(node.target.id, []).append("other")
        self.generic_visit(node)

    visit_AsyncFor = visit_For

    def _function(self, node: ast.AST) -> None:
        name = node.name  # type: ignore[attr-defined]
        self.facts.defined.add(name)
        args = node.args  # type: ignore[attr-defined]
        for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if a is not None:
                self.facts.params.add(a.arg)
        positional = [*args.posonlyargs, *args.args]
        if isinstance(self.parents.get(id(node)), ast.ClassDef) and positional:
            positional = positional[1:]  # self / cls: the call does not pass it
        for i, a in enumerate(positional):
            self.facts.param_of.setdefault(a.arg, []).append((name, i))
        for a in args.kwonlyargs:
            self.facts.param_of.setdefault(a.arg, []).append((name, -1))
        self.generic_visit(node)

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def visit_Lambda(self, node: ast.Lambda) -> None:
        for a in node.args.args:
            self.facts.params.add(a.arg)
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.facts.defined.add(node.name)
        for base in node.bases:  # `class Post(db.Model)`: its objects are the package's kind
            if isinstance(base, (ast.Name, ast.Attribute)):
                self.facts.assigned.setdefault(node.name, []).append(
                    "class:" + ".".join(_chain(base))
                )
        self.generic_visit(node)


def analyze(source: str) -> PyFacts:
    """Facts of one Python source text; ``ok`` is False when it does not parse."""
    facts = PyFacts()
    try:
        tree = pyast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        facts.ok = False
        return facts
    walker = _Walker(source.splitlines(), facts)
    try:
        walker.visit(tree)
    except RecursionError:
        facts.ok = False
    for name, origins in facts.assigned.items():  # `from pkg import Counter`: not collections'
        facts.assigned[name] = [
            f"chain:{o[8:]}" if o.startswith("literal:") and o[8:] in facts.imports else o
            for o in origins
        ]
    return facts
