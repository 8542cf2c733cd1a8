"""Import statements of Python and JavaScript/TypeScript source, and what they bind. Pure.

- ``python_imports(text)``: every absolute import (``ast``; a regex scan when the file does
  not parse), with position, module, imported member, the local name bound, and where it
  sits (inside ``try``/``except``/``if``/a function: ``conditional``).
- ``js_imports(text)``: ``require``, ``import … from``, ``import()``, ``export … from``,
  TypeScript ``import x = require()`` and ``import type``; specifier, package, subpath,
  bound names and style (read from the tree-sitter tree: ``jsparse``, ``jsimports``).
- ``package_of(specifier)``: npm package and subpath of a bare specifier.
- ``is_esm(path, package_type)``: whether Node treats a file as an ES module.
- ``import_names_for(dist)``: pip distribution → import names (see ``pipnames``).

Names maps (both languages): ``{local name: imported name}``, where the imported name is a
member (``"load"``), ``"default"`` (a default import), or ``"*"`` (the module object
itself: ``import yaml``, ``import * as ns``, ``const x = require('p')``). The key ``"*"``
means "every exported name, bound directly" (``from x import *``, ``export * from``).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from depbot.core import pyast
from depbot.ecosystems.pip.importnames import guess_import_names, import_names_for, normalize_dist
from depbot.search import jsparse
from depbot.search.jsimports import JsImport, imports_from_tree, package_of
from depbot.search.jsregex import js_imports_regex
from depbot.search.lexical import CODE, scan

__all__ = [
    "PyImport",
    "JsImport",
    "python_imports",
    "js_imports",
    "package_of",
    "is_esm",
    "import_names_for",
    "guess_import_names",
    "normalize_dist",
    "module_matches",
]


# -- Python --------------------------------------------------------------------------------


@dataclass(frozen=True)
class PyImport:
    """One imported module (or member) of a Python import statement.

    ``import x.y as z`` → module ``x.y``, name None, local ``z``;
    ``import x.y`` → module ``x.y``, name None, local ``x`` (Python binds the top package;
    ``x.y.attr`` reaches the module); ``from x import a as b`` → module ``x``, name ``a``,
    local ``b``; ``from x import *`` → name ``*``, local ``*``;
    ``m = importlib.import_module("x")`` / ``__import__("x")`` → style ``dynamic-import``,
    local ``m`` (None when not assigned to a plain name).
    ``line``/``col`` are 1-based (character column) of the statement; ``end_line`` its last
    line. ``in_try`` (the ``try:`` body), ``in_except`` (a handler, the classic fallback
    import), ``in_if`` (including ``if TYPE_CHECKING:``) and ``in_function`` describe where
    it sits.
    """

    line: int
    col: int
    module: str
    name: str | None
    local: str | None
    style: str  # "import" | "from" | "dynamic-import"
    end_line: int = 0
    in_try: bool = False
    in_except: bool = False
    in_if: bool = False
    in_function: bool = False

    @property
    def conditional(self) -> bool:
        """Not an unconditional module-level import."""
        return self.in_try or self.in_except or self.in_if or self.in_function


@dataclass(frozen=True)
class _Where:
    in_try: bool = False
    in_except: bool = False
    in_if: bool = False
    in_function: bool = False


def _char_col(lines: list[str], lineno: int, byte_col: int) -> int:
    """ast's UTF-8 byte offset → 1-based character column."""
    if 1 <= lineno <= len(lines):
        line = lines[lineno - 1]
        if not line.isascii():
            return len(line.encode("utf-8")[:byte_col].decode("utf-8", errors="replace")) + 1
    return byte_col + 1


_TRY_TYPES = (ast.Try, getattr(ast, "TryStar", ast.Try))


def _dynamic_module(call: ast.AST) -> str | None:
    """The module named by a literal ``__import__("x")`` / ``import_module("x")`` call."""
    if not isinstance(call, ast.Call) or not call.args:
        return None
    arg = call.args[0]
    if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
        return None
    f = call.func
    if isinstance(f, ast.Name) and f.id in ("__import__", "import_module"):
        return arg.value
    if isinstance(f, ast.Attribute) and f.attr == "import_module":
        return arg.value
    return None


class _PyImportCollector:
    """One walk of a module tree: the imports found, each with where it sits."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.out: list[PyImport] = []

    def add(self, node: ast.AST, where: _Where, **kw: object) -> None:
        """Record one import of ``node`` (``kw``: module, name, local and style)."""
        line = node.lineno  # type: ignore[attr-defined]
        self.out.append(
            PyImport(
                line=line,
                col=_char_col(self.lines, line, node.col_offset),  # type: ignore[attr-defined]
                end_line=getattr(node, "end_lineno", None) or line,
                in_try=where.in_try,
                in_except=where.in_except,
                in_if=where.in_if,
                in_function=where.in_function,
                **kw,  # type: ignore[arg-type]
            )
        )

    def record(self, node: ast.AST, where: _Where) -> bool:
        """Record ``node`` if it is an import statement or a dynamic import (assigned or
        called bare); whether it was one (its children are then not visited)."""
        if isinstance(node, ast.Import):
            for a in node.names:
                local = a.asname or a.name.split(".")[0]
                self.add(node, where, module=a.name, name=None, local=local, style="import")
            return True
        if isinstance(node, ast.ImportFrom):
            if node.level or not node.module:
                return True
            for a in node.names:
                self.add(
                    node,
                    where,
                    module=node.module,
                    name=a.name,
                    local=a.asname or a.name,
                    style="from",
                )
            return True
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            mod = _dynamic_module(node.value)
            if mod and not mod.startswith("."):
                tgt = node.targets[0]
                local = tgt.id if isinstance(tgt, ast.Name) else None
                self.add(node, where, module=mod, name=None, local=local, style="dynamic-import")
                return True
        if isinstance(node, ast.Expr):
            mod = _dynamic_module(node.value)
            if mod and not mod.startswith("."):
                self.add(node, where, module=mod, name=None, local=None, style="dynamic-import")
                return True
        return False

    def visit(self, node: ast.AST, where: _Where) -> None:
        """Record the imports under ``node``; a function, ``try`` or ``if`` marks where its
        body sits. (One frame per tree level, as the RecursionError fallback expects.)"""
        if self.record(node, where):
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            where = _Where(where.in_try, where.in_except, where.in_if, True)
        if isinstance(node, _TRY_TYPES):
            inner = _Where(True, where.in_except, where.in_if, where.in_function)
            handler = _Where(where.in_try, True, where.in_if, where.in_function)
            for child in node.body:  # type: ignore[attr-defined]
                self.visit(child, inner)
            for h in node.handlers:  # type: ignore[attr-defined]
                for child in h.body:
                    self.visit(child, handler)
            for child in [*node.orelse, *node.finalbody]:  # type: ignore[attr-defined]
                self.visit(child, where)
            return
        if isinstance(node, ast.If):
            cond = _Where(where.in_try, where.in_except, True, where.in_function)
            for child in [*node.body, *node.orelse]:
                self.visit(child, cond)
            return
        for child in ast.iter_child_nodes(node):
            self.visit(child, where)


def python_imports(text: str) -> list[PyImport]:
    """Absolute imports of a Python source text, in source order (relative ones skipped)."""
    try:
        tree = pyast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _python_imports_regex(text)
    collector = _PyImportCollector(text.split("\n"))
    try:
        collector.visit(tree, _Where())
    except RecursionError:  # absurdly deep nesting: fall back to the line scan
        return _python_imports_regex(text)
    collector.out.sort(key=lambda i: (i.line, i.col))
    return collector.out


_PY_IMPORT_RE = re.compile(r"^([ \t]*)import[ \t]+(.+)$", re.M)
_PY_FROM_RE = re.compile(r"^([ \t]*)from[ \t]+([\w.]+)[ \t]+import[ \t]+(.+)$", re.M)
_PY_NAME = re.compile(r"^([\w.*]+)(?:\s+as\s+(\w+))?$")


def _python_imports_regex(text: str) -> list[PyImport]:
    """Line-based fallback for files ``ast`` cannot parse (Python 2, syntax errors)."""
    lex = scan(text, "python")
    lines = text.split("\n")
    out: list[PyImport] = []

    def where(line: int, indent: int) -> tuple[bool, bool, bool, bool]:
        """(in_try, in_except, in_if, in_function) from the enclosing block headers."""
        flags = [False, False, False, False]
        for prev in reversed(lines[: line - 1]):
            stripped = prev.lstrip()
            if not stripped or stripped.startswith("#"):
                continue
            ind = len(prev) - len(stripped)
            if ind >= indent:
                continue
            indent = ind
            word = re.match(r"(\w+)", stripped)
            head = word.group(1) if word else ""
            if head in ("try", "finally"):
                flags[0] = True
            elif head == "except":
                flags[1] = True
            elif head in ("if", "elif", "else"):
                flags[2] = True
            elif head in ("def", "async", "lambda"):
                flags[3] = True
            if indent == 0:
                break
        return flags[0], flags[1], flags[2], flags[3]

    def names_of(m: re.Match, group: int) -> tuple[str, int]:
        raw = m.group(group)
        end = m.end()
        if raw.lstrip().startswith("(") and ")" not in raw:
            close = text.find(")", end)
            if close != -1:
                raw = raw + text[end:close]
                end = close
        raw = re.sub(r"#[^\n]*", "", raw)
        raw = raw.replace("\\\n", " ")
        return raw.strip().strip("()").replace("\n", " "), text.count("\n", 0, end) + 1

    for m in _PY_IMPORT_RE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        col = len(m.group(1)) + 1
        if lex.kind_at(line, col) != CODE:
            continue
        raw, end_line = names_of(m, 2)
        for part in raw.split(","):
            nm = _PY_NAME.match(part.strip().rstrip(";").strip())
            if nm and not nm.group(1).startswith("."):
                mod = nm.group(1)
                local = nm.group(2) or mod.split(".")[0]
                flags = where(line, col - 1)
                out.append(PyImport(line, col, mod, None, local, "import", end_line, *flags))
    for m in _PY_FROM_RE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        col = len(m.group(1)) + 1
        mod = m.group(2)
        if lex.kind_at(line, col) != CODE or mod.startswith("."):
            continue
        raw, end_line = names_of(m, 3)
        for part in raw.split(","):
            nm = _PY_NAME.match(part.strip().rstrip(";").strip())
            if nm:
                name = nm.group(1)
                flags = where(line, col - 1)
                local = nm.group(2) or name
                out.append(PyImport(line, col, mod, name, local, "from", end_line, *flags))
    out.sort(key=lambda i: (i.line, i.col))
    return out


def module_matches(imp: PyImport, import_name: str) -> tuple[str, dict[str, str]] | None:
    """Whether ``imp`` imports (from) the dotted ``import_name``; returns the subpath below
    it and the names it binds (``{local: imported}``), or None.

    ``import yaml.constructor`` matches ``yaml`` with subpath ``constructor``;
    ``from google import protobuf as pb`` matches ``google.protobuf`` (binding ``pb`` to
    the module, ``{"pb": "*"}``).
    """
    mod = imp.module
    if mod == import_name or mod.startswith(import_name + "."):
        sub = mod[len(import_name) + 1 :]
        if imp.style == "from":
            names = {"*": "*"} if imp.name == "*" else {imp.local or "": imp.name or ""}
        elif imp.local is None:
            names = {}
        else:  # `import a.b` binds `a` (the top package object); `import a.b as c` binds c
            names = {imp.local: "*"}
        return sub, names
    if imp.style == "from" and imp.name and imp.name != "*":
        full = f"{mod}.{imp.name}"
        if full == import_name:
            return "", {imp.local or imp.name: "*"}
    return None


# -- JavaScript / TypeScript ---------------------------------------------------------------


def js_imports(text: str, *, path: str | None = None, dialect: str | None = None) -> list[JsImport]:
    """Every import of a JS/TS text that is real syntax (not in a comment, string, template
    or JSX text), in source order. Read from the tree-sitter tree (``jsparse``; the grammar
    is ``dialect``, else the one of ``path``, else guessed); texts that are not parsed (over
    ``jsparse.MAX_PARSE_BYTES``, ``.vue``/``.svelte``) get the regex reader (``jsregex``)."""
    if "import" not in text and "require" not in text and "export" not in text:
        return []
    tree = jsparse.parse(text, dialect, path=path)
    return imports_from_tree(tree) if tree is not None else js_imports_regex(text)


def is_esm(path: str, package_type: str | None) -> bool | None:
    """Whether Node loads ``path`` as an ES module: ``.mjs``/``.mts`` yes, ``.cjs``/``.cts``
    no, ``.js``/``.jsx``/``.ts``/``.tsx`` when the nearest package.json says
    ``"type": "module"`` (``package_type``), None for anything else."""
    suffix = PurePosixPath(path.replace("\\", "/")).suffix.lower()
    if suffix in (".mjs", ".mts"):
        return True
    if suffix in (".cjs", ".cts"):
        return False
    if suffix in (".js", ".jsx", ".ts", ".tsx"):
        return package_type == "module"
    return None
