"""Configuration the release no longer reads: the checkout's config files are uses too.

- ``config_file`` (``.babelrc``, ``setup.cfg``): every file of that name in the checkout.
  A file many tools share (``setup.cfg``, ``tox.ini``, ``pyproject.toml``,
  ``package.json``) is the package's only where a section or key names the package
  (``[tool:fancy]``, ``[tool.fancy]``, ``"fancy": {``); the hit is that line.
- ``config_key`` with ``of`` a file name (the `foo` key in `pyproject.toml`): the key's
  lines in files of that name, in a section that names the package when the file is
  shared.
"""

from __future__ import annotations

import re
from typing import Any

from depbot.core.errors import ToolError
from depbot.symbols.facts import SymbolHit, SymbolResult

SHARED_CONFIG = frozenset(
    "setup.cfg tox.ini pyproject.toml package.json .editorconfig pytest.ini".split()
)
_SECTION = re.compile(r"^\s*\[([^\]]+)\]\s*$")


def _names_package(text: str, names: tuple[str, ...]) -> bool:
    return any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text, re.I) for n in names if n)


def _section_of(lines: list[str], line: int) -> str:
    """The ``[section]`` header above 1-based ``line`` (INI/TOML), or ''."""
    for text in reversed(lines[: line - 1]):
        m = _SECTION.match(text)
        if m:
            return m.group(1)
    return ""


def _files_named(code: Any, name: str) -> list[str]:
    try:
        return [f for f in code.files((name, f"**/{name}")) if f.rsplit("/", 1)[-1] == name]
    except ToolError:
        return []


def config_file_uses(code: Any, symbol: str, names: tuple[str, ...]) -> SymbolResult:
    """The checkout's files named ``symbol`` that configure the package."""
    name = symbol.strip().rsplit("/", 1)[-1]
    hits: list[SymbolHit] = []
    excluded: dict[str, int] = {}
    for path in _files_named(code, name):
        try:
            lines = code.read_lines(path)
        except ToolError:
            continue
        if name.lower() in SHARED_CONFIG:
            at = next(
                (
                    i
                    for i, text in enumerate(lines, 1)
                    if (_SECTION.match(text) or re.match(r'^\s*"[^"]+"\s*:', text))
                    and _names_package(text, names)
                ),
                0,
            )
            if not at:
                excluded["shared config file without a section for the package"] = (
                    excluded.get("shared config file without a section for the package", 0) + 1
                )
                continue
            why = f"{name} configures the package here ({lines[at - 1].strip()[:60]})"
        else:
            at = next((i for i, text in enumerate(lines, 1) if re.search(r"\w", text)), 1)
            why = f"the checkout has a {name} file, which the release no longer reads"
        text = lines[at - 1] if lines else ""
        hits.append(SymbolHit(path, at, 1, text.strip()[:200], "code", "strong", why))
    note = (
        f"{len(hits)} {name} file(s) configure the package"
        if hits
        else f"no {name} file configures the package"
    )
    return SymbolResult(symbol, "config_file", hits, len(hits), False, excluded, note)


def key_in_shared_file(lines: list[str], line: int, file: str, names: tuple[str, ...]) -> bool:
    """A key on ``line`` of ``file`` belongs to the package: any line of a file that is
    its own, a line under a section naming it in a shared one."""
    if file.lower() not in SHARED_CONFIG:
        return True
    return _names_package(_section_of(lines, line), names)


__all__ = ["SHARED_CONFIG", "config_file_uses", "key_in_shared_file"]
