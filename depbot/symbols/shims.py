"""Compatibility shims are not uses: code that already copes with both versions.

A line that uses the old API is set aside when it sits

- in the fallback of a ``try`` whose handler catches ``ImportError``,
  ``ModuleNotFoundError``, ``AttributeError`` or ``TypeError`` and whose other branch
  does without the name (``try: from pkg import new / except ImportError: from pkg
  import old``), or in the ``try`` body of such a block whose handler has the
  alternative;
- in the fallback of an assignment that keeps the new name when it is there
  (``mime.getType = mime.getType || mime.lookup``, ``x.a ??= x.b``): read only when the
  release lacks the new name;
- behind a version or feature check (``if version < ...``, ``sys.version_info``,
  ``pkg.__version__``, ``hasattr(mod, "new")``; in JavaScript ``typeof x.y ===
  'function'`` or ``'y' in x``), with the other branch doing without the name.

The other branch must exist, and must not use the name itself: a lone ``try`` with a
``pass`` fallback guards nothing. Pure: text in, a reason out.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache

from depbot.core import pyast

_GUARD_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "AttributeError", "TypeError"})
_VERSION_TEST = re.compile(
    r"version|__version__|VERSION|hasattr\s*\(|getattr\s*\(|find_spec\s*\(|callable\s*\("
)


def _names(node: ast.expr | None) -> set[str]:
    if node is None:
        return set()
    parts = node.elts if isinstance(node, ast.Tuple) else [node]
    out = set()
    for p in parts:
        if isinstance(p, ast.Name):
            out.add(p.id)
        elif isinstance(p, ast.Attribute):
            out.add(p.attr)
    return out


def _span(body: list[ast.stmt]) -> tuple[int, int]:
    if not body:
        return 0, -1
    return body[0].lineno, max(getattr(s, "end_lineno", s.lineno) or s.lineno for s in body)


def _uses(lines: list[str], body: list[ast.stmt], leaf: str) -> bool:
    start, end = _span(body)
    text = "\n".join(lines[start - 1 : end])
    return re.search(rf"(?<![\w$]){re.escape(leaf)}(?![\w$])", text) is not None


def _does_something(body: list[ast.stmt]) -> bool:
    return any(not isinstance(s, (ast.Pass, ast.Raise)) for s in body) and not all(
        isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) for s in body
    )


def _inside(body: list[ast.stmt], line: int) -> bool:
    start, end = _span(body)
    return start <= line <= end


@lru_cache(maxsize=32)
def _tree(source: str) -> ast.Module | None:
    try:
        return pyast.parse(source)
    except (SyntaxError, ValueError):
        return None


def python_shim(source: str, line: int, leaf: str) -> str:
    """Why a use of ``leaf`` on ``line`` is a compatibility shim, or ''."""
    tree = _tree(source)
    if tree is None:
        return ""
    lines = source.splitlines()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try):
            guarded = [h for h in node.handlers if _names(h.type) & _GUARD_ERRORS]
            for h in guarded:
                caught = "/".join(sorted(_names(h.type) & _GUARD_ERRORS))
                if _inside(h.body, line) and _does_something(node.body):
                    if not _uses(lines, node.body, leaf):
                        return f"compatibility fallback (except {caught}); the try branch uses the new API"
                if _inside(node.body, line) and _does_something(h.body):
                    if not _uses(lines, h.body, leaf):
                        return f"compatibility shim (try with an except {caught} fallback that does without it)"
        elif isinstance(node, ast.If) and _VERSION_TEST.search(ast.unparse(node.test)):
            for here, other in ((node.body, node.orelse), (node.orelse, node.body)):
                if _inside(here, line) and _does_something(other) and not _uses(lines, other, leaf):
                    return "behind a version check whose other branch uses the new API"
    return ""


_JS_FEATURE = re.compile(
    r"typeof\s+[\w$.]+\s*[!=]==?\s*['\"](function|undefined|object)['\"]|['\"][\w$]+['\"]\s+in\s+[\w$.]+"
    r"|\bversion\b|semver\.",
)


def _block_end(lines: list[str], start: int, col: int = 0) -> tuple[int, int]:
    """(line, column) where the first ``{`` block from ``start``:``col`` closes (rough:
    braces, 0-based)."""
    depth = 0
    opened = False
    for i in range(start, len(lines)):
        for j in range(col if i == start else 0, len(lines[i])):
            ch = lines[i][j]
            if ch == "{":
                depth, opened = depth + 1, True
            elif ch == "}" and opened:
                depth -= 1
                if depth == 0:
                    return i, j
    return len(lines) - 1, 0


# `a.b = a.b || fallback` / `a.b = a.b ?? fallback` / `a.b ||= fallback` / `a.b ??= fallback`
_JS_KEEP = re.compile(
    r"^\s*(?:(?:var|let|const)\s+)?(?P<kept>[\w$.]+)\s*"
    r"(?:=\s*(?P=kept)\s*(?:\|\||\?\?)|\|\|=|\?\?=)(?P<rest>[^;]*)"
)


def js_shim(source: str, line: int, leaf: str) -> str:
    """The JavaScript forms: a fallback assignment, a ternary on one line, or an
    ``if (typeof …) {} else {}``."""
    lines = source.splitlines()
    if not 1 <= line <= len(lines):
        return ""
    text = lines[line - 1]
    kept = _JS_KEEP.match(text)
    word = re.compile(rf"(?<![\w$]){re.escape(leaf)}(?![\w$])")
    if kept and word.search(kept["rest"]) and not word.search(kept["kept"]):
        return f"the fallback of {kept['kept']} (read only when the release lacks it)"
    m = _JS_FEATURE.search(text)
    if m and "?" in text[m.end() :] and ":" in text[m.end() :]:
        return "behind a feature check (ternary) whose other branch uses the new API"
    for i in range(line - 2, max(-1, line - 40), -1):
        head = lines[i]
        if not re.search(r"\bif\s*\(", head) or not _JS_FEATURE.search(head):
            continue
        end, col = _block_end(lines, i)
        rest = lines[end][col + 1 :]
        if re.match(r"\s*else\b", rest):
            else_start, else_col = end, col + 1
        elif end + 1 < len(lines) and re.match(r"\s*else\b", lines[end + 1]):
            else_start, else_col = end + 1, 0
        else:
            continue
        else_end, _ = _block_end(lines, else_start, else_col)
        then_part = "\n".join(lines[i + 1 : end])
        else_part = "\n".join(lines[else_start + 1 : else_end])
        if i < line - 1 <= end and else_part.strip() and not word.search(else_part):
            return "behind a feature check whose else branch uses the new API"
        if else_start <= line - 1 <= else_end and then_part.strip() and not word.search(then_part):
            return "behind a feature check whose other branch uses the new API"
    return ""


def shim_reason(path: str, source: str, line: int, leaf: str) -> str:
    """Why the use of ``leaf`` on ``line`` of ``path`` is a compatibility shim, or ''."""
    if path.endswith((".py", ".pyi")):
        return python_shim(source, line, leaf)
    if path.endswith((".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".mts", ".cts")):
        return js_shim(source, line, leaf)
    return ""


__all__ = ["js_shim", "python_shim", "shim_reason"]
