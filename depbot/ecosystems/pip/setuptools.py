"""setuptools' declarative setup.cfg and a setup.py read statically, never executed.

setup.cfg: ``[options] install_requires`` (direct) and ``[options.extras_require]`` (one
group per key; dev/test/docs-like names are ``dev``), read with ``configparser``.
setup.py: the ``setup(...)`` (or ``setuptools.setup(...)``) call's ``install_requires`` and
``extras_require`` when they are literal strings in a list / tuple (or a dict of them), or a
module-level name bound to such a literal (``REQUIRES = [...]; setup(install_requires=REQUIRES)``),
or a ``+`` of those. Anything computed (a file read, a comprehension) is one warning. The
file is parsed with ``ast`` only. A file that does not parse is one warning naming it.
"""

from __future__ import annotations

import ast
import configparser
from collections.abc import Iterable
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement

from depbot.core import pyast
from depbot.core.redact import excerpt
from depbot.ecosystems.reading import broken, label_of, read_confined
from depbot.records.declared import Declared, first_line, is_dev_name

_MAX_DEPTH = 8  # names bound to names bound to lists: deeper is computed, not declared


def _declare(
    items: Iterable[str], manifest: str, kind: str, lines: list[str], warnings: list[str]
) -> list[Declared]:
    out = []
    for item in items:
        text = item.split(" #", 1)[0].strip()
        if not text or text.startswith("#"):
            continue
        try:
            req = Requirement(text)
        except InvalidRequirement as exc:
            warnings.append(
                f"{manifest}: skipped '{excerpt(text, 60)}' "
                f"(not a requirement: {excerpt(first_line(str(exc)), 80)})"
            )
            continue
        if req.url:
            warnings.append(f"{manifest}: skipped {req.name} (direct reference to a URL)")
            continue
        spec = str(req.specifier)
        pins = [s.version for s in req.specifier if s.operator in ("==", "===")]
        pinned = pins[0] if len(pins) == 1 and not pins[0].endswith(".*") else None
        line = next((i + 1 for i, raw in enumerate(lines) if text in raw), 0)
        out.append(Declared("pip", req.name, spec, pinned, None, manifest, kind, line))
    return out


# --- setup.cfg -----------------------------------------------------------------------------


def parse_setup_cfg_text(text: str, manifest: str) -> tuple[list[Declared], list[str]]:
    """``[options] install_requires`` and ``[options.extras_require]`` of a setup.cfg."""
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text, source=manifest)
    except configparser.Error as exc:
        return [], [broken(manifest, "setup.cfg", exc)]
    except RecursionError:  # pragma: no cover - configparser is iterative
        return [], [f"{manifest}: not a setup.cfg; not read"]
    lines = text.splitlines()
    warnings: list[str] = []
    out: list[Declared] = []
    if parser.has_option("options", "install_requires"):
        raw = parser.get("options", "install_requires")
        if raw.strip().startswith("file:"):
            warnings.append(f"{manifest}: install_requires = file: ... is not read")
        else:
            out += _declare(raw.splitlines(), manifest, "direct", lines, warnings)
    if parser.has_section("options.extras_require"):
        for group, raw in parser.items("options.extras_require", raw=True):
            kind = "dev" if is_dev_name(group) else "direct"
            out += _declare(raw.splitlines(), manifest, kind, lines, warnings)
    return out, warnings


# --- setup.py -----------------------------------------------------------------------------


def _is_setup(func: ast.expr) -> bool:
    if isinstance(func, ast.Name):
        return func.id == "setup"
    return isinstance(func, ast.Attribute) and func.attr == "setup"


def _bindings(tree: ast.Module) -> dict[str, ast.expr]:
    """Module-level ``NAME = value`` (the last one wins, as at run time)."""
    out: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out[target.id] = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            out[node.target.id] = node.value
    return out


def _strings(node: ast.expr, names: dict[str, ast.expr], depth: int = 0) -> list[str] | None:
    """The literal strings of a list / tuple (through names and ``+``), or None if computed."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(node, ast.Name) and node.id in names:
        return _strings(names[node.id], names, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left = _strings(node.left, names, depth)
        right = _strings(node.right, names, depth)
        return None if left is None or right is None else left + right
    if isinstance(node, (ast.List, ast.Tuple)):
        out = []
        for elt in node.elts:
            if not (isinstance(elt, ast.Constant) and isinstance(elt.value, str)):
                return None
            out.append(elt.value)
        return out
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.splitlines()  # setuptools accepts one string of lines
    return None


def _extras(node: ast.expr, names: dict[str, ast.expr]) -> dict[str, list[str]] | None:
    if isinstance(node, ast.Name) and node.id in names:
        node = names[node.id]
    if not isinstance(node, ast.Dict):
        return None
    out = {}
    for key, value in zip(node.keys, node.values, strict=True):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return None
        items = _strings(value, names)
        if items is None:
            return None
        out[key.value] = items
    return out


def parse_setup_py_text(text: str, manifest: str) -> tuple[list[Declared], list[str]]:
    """``install_requires`` / ``extras_require`` of the ``setup()`` call, read with ``ast``."""
    try:
        tree = pyast.parse(text, filename=manifest)
    except SyntaxError as exc:
        return [], [f"{manifest}: not valid Python (line {exc.lineno or 0}); not read"]
    except (ValueError, RecursionError, MemoryError) as exc:
        return [], [broken(manifest, "Python", type(exc).__name__)]
    names = _bindings(tree)
    lines = text.splitlines()
    warnings: list[str] = []
    out: list[Declared] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and _is_setup(node.func)):
            continue
        for kw in node.keywords:
            if kw.arg == "install_requires":
                items = _strings(kw.value, names)
                if items is None:
                    warnings.append(f"{manifest}: install_requires is computed; not read")
                else:
                    out += _declare(items, manifest, "direct", lines, warnings)
            elif kw.arg == "extras_require":
                extras = _extras(kw.value, names)
                if extras is None:
                    warnings.append(f"{manifest}: extras_require is computed; not read")
                    continue
                for group, items in extras.items():
                    kind = "dev" if is_dev_name(group) else "direct"
                    out += _declare(items, manifest, kind, lines, warnings)
    return out, warnings


def read_setuptools(
    path: Path, root: Path, secret_files: Iterable[str]
) -> tuple[list[Declared], list[str]]:
    """A setup.cfg or setup.py, read under the checkout's rule."""
    text, why = read_confined(root, path, secret_files)
    if text is None:
        return [], [why or f"{path.name}: not read"]
    label = label_of(root, path)
    if path.name == "setup.py":
        return parse_setup_py_text(text, label)
    return parse_setup_cfg_text(text, label)
