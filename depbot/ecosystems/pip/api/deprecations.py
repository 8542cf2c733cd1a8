"""Deprecated names of a Python release, from its source (``ast``; nothing is run).

A name is deprecated when its body calls ``warnings.warn(..., DeprecationWarning |
FutureWarning | PendingDeprecationWarning)`` or it carries ``@deprecated`` (typing_extensions,
warnings). A module-level ``__getattr__`` that names a string key serves that name lazily.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from depbot.core import pyast
from depbot.records.api import Deprecation

CATEGORIES = frozenset({"DeprecationWarning", "FutureWarning", "PendingDeprecationWarning"})
# the removal version in a message's text (prose, not code): "will be removed in 3.0"
_REMOVAL = re.compile(
    r"(?:removed|dropped|deleted|go away)\s+(?:in|by|with|from)\s+(?:[A-Za-z][\w.-]*\s+)?"
    r"(?:version\s+)?v?(\d+(?:\.\d+)*)\b",
    re.IGNORECASE,
)
MAX_FILE_BYTES = 2_000_000


def removal_version(message: str) -> str:
    found = _REMOVAL.search(message)
    return found.group(1) if found else ""


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):
        return _name(node.func)
    return ""


def _text(node: ast.AST | None) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            _text(part) if isinstance(part, ast.Constant) else "{}" for part in node.values
        )
    if isinstance(node, ast.BinOp):
        return _text(node.left) + _text(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return _text(node.func.value)  # "...".format(...)
    return ""


def _warn_category(call: ast.Call) -> str:
    if _name(call.func) != "warn":
        return ""
    category = call.args[1] if len(call.args) > 1 else None
    for keyword in call.keywords:
        if keyword.arg == "category":
            category = keyword.value
    name = _name(category) if category is not None else ""
    return name if name in CATEGORIES else ""


def _own_nodes(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """The nodes of a body, not descending into nested defs and classes."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                stack.append(child)


def _warning_in(body: list[ast.stmt]) -> tuple[str, str] | None:
    for node in _own_nodes(body):
        if isinstance(node, ast.Call):
            category = _warn_category(node)
            if category:
                return category, _text(node.args[0] if node.args else None)
    return None


def _decorated(
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
) -> tuple[str, str] | None:
    for decorator in node.decorator_list:
        if _name(decorator) == "deprecated":
            args = decorator.args if isinstance(decorator, ast.Call) else []
            return "@deprecated", _text(args[0] if args else None)
    return None


def _getattr_keys(function: ast.FunctionDef) -> set[str]:
    return {
        node.value
        for node in ast.walk(function)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.isidentifier()
    }


def scan_module(tree: ast.Module, module: str, where: str) -> tuple[list[Deprecation], set[str]]:
    """Deprecated names of one module, and the keys its module-level ``__getattr__`` serves."""
    found: list[Deprecation] = []
    lazy: set[str] = set()
    stack: list[tuple[str, list[ast.stmt]]] = [(module, tree.body)]
    while stack:
        prefix, body = stack.pop()
        for node in body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            path = f"{prefix}.{node.name}"
            if (
                prefix == module
                and node.name == "__getattr__"
                and not isinstance(node, ast.ClassDef)
            ):
                lazy |= _getattr_keys(node)
                continue
            hit = _decorated(node) or (
                None if isinstance(node, ast.ClassDef) else _warning_in(node.body)
            )
            if hit:
                category, message = hit
                found.append(Deprecation(path, category, message, removal_version(message), where))
            if isinstance(node, ast.ClassDef):
                stack.append((path, node.body))
    return found, lazy


def module_name(root: Path, file: Path) -> str:
    parts = list(file.relative_to(root).with_suffix("").parts)
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def scan_files(
    root: Path, files: list[Path], notes: list[str]
) -> tuple[list[Deprecation], dict[str, set[str]]]:
    """Deprecations of every file, and each module's lazily served names (by dotted module)."""
    found: list[Deprecation] = []
    lazy: dict[str, set[str]] = {}
    for file in files:
        where = file.relative_to(root).as_posix()
        if file.stat().st_size > MAX_FILE_BYTES:
            notes.append(
                f"{root.name}/{where}: larger than {MAX_FILE_BYTES} bytes, not scanned for deprecations"
            )
            continue
        try:
            tree = pyast.parse(file.read_text(encoding="utf-8", errors="replace"), filename=where)
        except (SyntaxError, ValueError) as error:
            notes.append(
                f"{root.name}/{where}: does not parse ({type(error).__name__}), not scanned"
            )
            continue
        module = module_name(root, file)
        names, keys = scan_module(tree, module, where)
        found.extend(names)
        if keys:
            lazy.setdefault(module, set()).update(keys)
    return found, lazy
