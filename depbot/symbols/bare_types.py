"""The uses of a generic type written with fewer type arguments than its new release
requires (``bare_type``): ``function matchPath(…): Match {`` where ``Match`` lost the default
of its type parameter; with ``arg`` ``any``, every use of a name that is no longer a type. A use in a type position (after ``:``, ``|``, ``&``, ``<``, ``as``,
``extends``, ``implements``, ``satisfies``, or a type alias's ``=``) with fewer than ``arg``
type arguments is a compile error. Pure (reads the importing files).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from depbot.core.errors import ToolError
from depbot.search.sites import ImportReport
from depbot.symbols.facts import SymbolHit, SymbolResult
from depbot.symbols.used import line_of

__all__ = ["bare_type_uses"]

_TYPE_BEFORE = re.compile(
    r"(?:[:|&<]|\b(?:as|extends|implements|satisfies|keyof)|\btype\s+[\w$]+(?:<[^=]*>)?\s*=)\s*$"
)
_MAX_HITS = 20


def bare_type_uses(
    rep: ImportReport, package: str, local: str, arg: str, text_of: Callable[[str], str]
) -> SymbolResult:
    """Hits at each type-position use of ``local`` (a generic type imported from
    ``package``) that gives fewer than ``arg`` type arguments."""
    if not re.fullmatch(r"[A-Za-z_$][\w$]*", local) or not (arg.isdigit() or arg == "any"):
        raise ToolError("bare_type needs symbol: a type's local name, arg: how many type "
                        "arguments (or any: every use as a type)")  # fmt: skip
    needed = None if arg == "any" else int(arg)
    hits: list[SymbolHit] = []
    for site in rep.sites:
        if local not in site.names:
            continue
        text = text_of(site.path)
        lines = text.split("\n")
        skip = set(range(site.line, max(site.line, getattr(site, "end_line", 0) or site.line) + 1))
        for m in re.finditer(rf"(?<![\w$.]){re.escape(local)}(?![\w$])", text):
            line = text.count("\n", 0, m.start()) + 1
            if line in skip or not _TYPE_BEFORE.search(text[max(0, m.start() - 60) : m.start()]):
                continue
            why = _why(local, package, needed, _type_arguments(text, m.end()))
            if why:
                hits.append(SymbolHit(site.path, line, m.start() - text.rfind("\n", 0, m.start()),
                                      line_of(lines, line), "code", "strong", why))  # fmt: skip
    note = (f"{len(hits)} use(s) of {local} as a type" if needed is None
            else f"{len(hits)} use(s) of {local} with fewer than {needed} type argument(s)")  # fmt: skip
    return SymbolResult(local, "bare_type", hits[:_MAX_HITS], len(hits), len(hits) > _MAX_HITS,
                        {}, note)  # fmt: skip


def _why(local: str, package: str, needed: int | None, given: int) -> str:
    """Why a type-position use breaks ("" when it does not): any use of a value-only name
    (``needed`` None), or one with fewer type arguments than ``needed``."""
    if needed is None:
        return f"uses {local} as a type; in {package}'s new release it is a value only"
    if given >= needed:
        return ""
    said = "without type arguments" if not given else f"with {given} type argument(s)"
    return f"uses the type {local} {said}; {package}'s new release requires {needed}"


def _type_arguments(text: str, end: int) -> int:
    """How many type arguments ``<…>`` right after ``end`` gives (0 when none)."""
    i = end
    while i < len(text) and text[i] in " \t":
        i += 1
    if i >= len(text) or text[i] != "<":
        return 0
    depth, count = 0, 1
    for j in range(i, min(len(text), i + 500)):
        c = text[j]
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
            if depth == 0:
                return count
        elif c == "," and depth == 1:
            count += 1
    return count
