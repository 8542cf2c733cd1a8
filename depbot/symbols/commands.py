"""A command line the release no longer runs (``command``): ``python -m pkg.serving``, ``npx
tool init``, ``tool migrate``. Code does not import a command; it runs it, from a script, a CI
step, a Makefile, a Dockerfile, a ``package.json`` script or a string in code. Every such line
of the checkout is a use; a comment that mentions it is not.
"""

from __future__ import annotations

import re
from typing import Any

from depbot.core.errors import ToolError
from depbot.symbols.facts import SymbolHit, SymbolResult

_MAX_HITS = 20
# what runs a command's own words: ``python3 -m``, ``npx``, ``pnpm dlx``, ``yarn``
_LAUNCHER = re.compile(
    r"^(?:(?:python[\d.]*|py)\s+-m|npx|pnpm\s+(?:dlx|exec)|yarn(?:\s+dlx)?|bunx)\s+", re.I
)
_WORD = re.compile(r"^[\w@][\w@./:-]*$")


def command_words(symbol: str) -> tuple[bool, list[str]]:
    """(whether it runs as a Python module, its words after the launcher) of a command."""
    text = " ".join(symbol.split())
    m = _LAUNCHER.match(text)
    module = bool(m and "-m" in m.group(0))
    words = [w for w in text[m.end() if m else 0 :].split(" ") if w]
    words = [w for w in words if not w.startswith("-")][:3]  # flags vary per call
    if not words or not all(_WORD.match(w) for w in words):
        raise ToolError(f"{symbol!r} is not a command line (e.g. 'python -m pkg.cli', 'tool init')")
    return module, words


def command_pattern(symbol: str) -> str:
    """A ripgrep regex for a line that runs the command (its flags may stand between words)."""
    module, words = command_words(symbol)
    flags = r"(?:\s+-{1,2}[\w-]+(?:[= ][^\s-]\S*)?)*"
    body = (flags + r"\s+").join(re.escape(w) for w in words)
    if module:
        return rf"-m\s+{body}(?:[^\w.]|$)"
    return rf"(?:^|[^\w./@-]){body}(?:[^\w.-]|$)"


def command_uses(code: Any, symbol: str) -> SymbolResult:
    """The checkout's lines that run the command ``symbol``."""
    found = code.search_code(command_pattern(symbol), regex=True, max_hits=_MAX_HITS * 2)
    hits: list[SymbolHit] = []
    excluded: dict[str, int] = {}
    for h in found.hits:
        if h.context == "comment":
            excluded["a comment"] = excluded.get("a comment", 0) + 1
            continue
        why = f"runs `{' '.join(symbol.split())}`"
        hits.append(SymbolHit(h.path, h.line, h.col, h.text, "code", "strong", why))
    return SymbolResult(
        symbol, "command", hits[:_MAX_HITS], len(hits), len(hits) > _MAX_HITS, excluded,
        "" if hits else "no line of the checkout runs it (scripts, CI, Makefiles, code)",
    )  # fmt: skip
