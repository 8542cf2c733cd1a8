"""The names a module-level ``__getattr__`` serves, read from its comparisons (``ast``).

``def __getattr__(name)`` serves a name when its body compares the parameter with a string
(``name == "X"``, ``name in ("X", "Y")``), tests it against a table of names (``name in
table`` with ``table`` a dict, set, list or tuple literal in the function or the module),
or looks it up (``table[name]``, ``table.get(name)``). Strings that are only messages or
values are not names it serves.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path

from depbot.core import pyast
from depbot.ecosystems.pip.api.deprecations import MAX_FILE_BYTES, module_name

_LITERALS = (ast.Dict, ast.Set, ast.List, ast.Tuple)


def _strings(node: ast.AST | None) -> set[str]:
    """The string keys / items of a literal table."""
    if isinstance(node, ast.Dict):
        items: list[ast.expr | None] = list(node.keys)
    elif isinstance(node, (ast.Set, ast.List, ast.Tuple)):
        items = list(node.elts)
    elif isinstance(node, ast.Constant):
        items = [node]
    else:
        return set()
    return {
        item.value
        for item in items
        if isinstance(item, ast.Constant)
        and isinstance(item.value, str)
        and item.value.isidentifier()
    }


def _tables(body: list[ast.stmt]) -> dict[str, ast.expr]:
    """``NAME = {…}`` / ``NAME: dict = {…}`` literal tables bound in ``body`` (one level)."""
    found: dict[str, ast.expr] = {}
    for statement in body:
        if isinstance(statement, ast.Assign) and isinstance(statement.value, _LITERALS):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = statement.value
        elif (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(statement.value, _LITERALS)
        ):
            found[statement.target.id] = statement.value
    return found


def _is(node: ast.AST, param: str) -> bool:
    return isinstance(node, ast.Name) and node.id == param


def served_names(function: ast.FunctionDef | ast.AsyncFunctionDef, module: ast.Module) -> set[str]:
    """The names ``function`` (a module's ``__getattr__``) compares its parameter with."""
    if not function.args.args:
        return set()
    param = function.args.args[0].arg
    tables = {**_tables(module.body), **_tables(function.body)}

    def table(node: ast.AST) -> set[str]:
        if isinstance(node, ast.Name) and node.id in tables:
            return _strings(tables[node.id])
        return _strings(node)

    names: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for left, op, right in zip(operands, node.ops, operands[1:], strict=False):
                if isinstance(op, ast.Eq) and (_is(left, param) or _is(right, param)):
                    names |= _strings(right if _is(left, param) else left)
                elif isinstance(op, ast.In) and _is(left, param):
                    names |= table(right)
        elif isinstance(node, ast.Subscript) and _is(node.slice, param):
            names |= table(node.value)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and node.args
            and _is(node.args[0], param)
        ):
            names |= table(node.func.value)
    return names - removal_stubs(function, module)


def _only_raises(body: list[ast.stmt]) -> bool:
    """A branch that ends in ``raise`` and returns nothing: a removal stub, not a lazy name."""
    returns = any(isinstance(n, ast.Return) for st in body for n in ast.walk(st))
    return bool(body) and isinstance(body[-1], ast.Raise) and not returns


def removal_stubs(function: ast.FunctionDef | ast.AsyncFunctionDef, module: ast.Module) -> set[str]:
    """Names ``__getattr__`` only raises for (``if name == "gone": raise ImportError(...)``):
    a release that answers an old name with an error has removed it."""
    if not function.args.args:
        return set()
    param = function.args.args[0].arg
    tables = {**_tables(module.body), **_tables(function.body)}
    stubs: set[str] = set()
    for node in ast.walk(function):
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)):
            continue
        test = node.test
        if len(test.ops) != 1 or not _only_raises(node.body):
            continue
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if isinstance(op, ast.Eq) and (_is(left, param) or _is(right, param)):
            stubs |= _strings(right if _is(left, param) else left)
        elif isinstance(op, ast.In) and _is(left, param):
            stubs |= (
                _strings(tables[right.id])
                if isinstance(right, ast.Name) and (right.id in tables)
                else _strings(right)
            )
    return stubs


def served_targets(
    function: ast.FunctionDef | ast.AsyncFunctionDef, module: ast.Module
) -> dict[str, str]:
    """``name → ".sub.Object"`` of a ``__getattr__`` that looks names up in a table whose
    values are import paths (``{"Old": ".query.Query"}``): where each name is served from."""
    if not function.args.args:
        return {}
    param = function.args.args[0].arg
    tables = {**_tables(module.body), **_tables(function.body)}
    found: dict[str, str] = {}
    for node in ast.walk(function):
        if not (isinstance(node, ast.Compare) and _is(node.left, param)):
            continue
        right = node.comparators[0] if node.comparators else None
        table = tables.get(right.id) if isinstance(right, ast.Name) else right
        if not isinstance(table, ast.Dict):
            continue
        for key, value in zip(table.keys, table.values, strict=False):
            if (
                isinstance(key, ast.Constant)
                and isinstance(key.value, str)
                and isinstance(value, ast.Constant)
                and isinstance(value.value, str)
                and "." in value.value
                and all(p.isidentifier() for p in value.value.lstrip(".").split("."))
            ):
                found[key.value] = value.value
    return found


def _getattrs(root: Path, files: list[Path]) -> Iterator[tuple[str, ast.FunctionDef, ast.Module]]:
    for file in files:
        if file.suffix != ".py" or file.stat().st_size > MAX_FILE_BYTES:
            continue
        text = file.read_text(encoding="utf-8", errors="replace")
        if "def __getattr__" not in text:
            continue
        try:
            tree = pyast.parse(text)
        except (SyntaxError, ValueError):
            continue  # scan_files notes it
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
                yield module_name(root, file), node, tree


def lazy_stubs(root: Path, files: list[Path]) -> dict[str, set[str]]:
    """Dotted module → the names its ``__getattr__`` only raises for (``removal_stubs``)."""
    return _per_module(root, files, removal_stubs)


def lazy_targets(root: Path, files: list[Path]) -> dict[str, dict[str, str]]:
    """Dotted module → {served name: the absolute dotted path it is served from}."""
    found: dict[str, dict[str, str]] = {}
    for module, function, tree in _getattrs(root, files):
        package = module if function_is_package(root, module) else module.rpartition(".")[0]
        for name, target in served_targets(function, tree).items():
            dots = len(target) - len(target.lstrip("."))
            base = package.split(".")
            base = base[: len(base) - (dots - 1)] if dots > 1 else base
            absolute = ".".join([*base, target.lstrip(".")]) if dots else target
            found.setdefault(module, {})[name] = absolute
    return found


def function_is_package(root: Path, module: str) -> bool:
    """Whether ``module`` is a package (its ``__init__``): relative paths start inside it."""
    return (root.joinpath(*module.split(".")) / "__init__.py").is_file()


def lazy_served(root: Path, files: list[Path]) -> dict[str, set[str]]:
    """Dotted module → the names its module-level ``__getattr__`` serves."""
    return _per_module(root, files, served_names)


def _per_module(
    root: Path,
    files: list[Path],
    read: Callable[[ast.FunctionDef | ast.AsyncFunctionDef, ast.Module], set[str]],
) -> dict[str, set[str]]:
    """Dotted module → what ``read`` finds in its ``__getattr__``."""
    found: dict[str, set[str]] = {}
    for module, function, tree in _getattrs(root, files):
        names = read(function, tree)
        if names:
            found.setdefault(module, set()).update(names)
    return found
