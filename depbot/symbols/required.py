"""The uses of a package that lack a name the release now requires (``required_use``).

The notes say the release needs something the code must now add ("now requires an
accompanying webpack plugin", its example imports ``VueLoaderPlugin`` from the package).
Such a break is an absence: when the name occurs in the checkout's code the requirement is
met and nothing is affected; when it occurs nowhere, every use of the package (its import
sites and, in JavaScript, the places that name it as a string, such as a loader or plugin
entry of a build configuration) is a hit.
"""

from __future__ import annotations

import re
from typing import Any

from depbot.core.errors import ToolError
from depbot.search.lexical import CODE, STRING
from depbot.search.sites import ImportReport
from depbot.symbols.facts import SymbolHit, SymbolResult

__all__ = ["required_uses"]

_MAX_HITS = 20


def spec_pattern(package: str) -> str:
    """A quoted module specifier naming the package (``'pkg'``, ``"pkg/sub"``, ``'pkg?x'``)."""
    return rf"""['"`]{re.escape(package)}(?:[/?!#][^'"`\s]*)?['"`]"""


def one_glob(globs: tuple[str, ...]) -> tuple[str, ...]:
    """``*.js``, ``*.ts`` … as one ripgrep glob (``*.{js,ts}``): one search, not one per glob."""
    if len(globs) > 1 and all(g.startswith("*.") and "/" not in g for g in globs):
        return ("*.{" + ",".join(g[2:] for g in globs) + "}",)
    return globs


def required_uses(
    code: Any,
    rep: ImportReport,
    package: str,
    symbol: str,
    globs: tuple[str, ...],
    javascript: bool,
) -> SymbolResult:
    """Hits at the uses of ``package`` when ``symbol`` occurs nowhere in the code, else none."""
    name = symbol.strip().rsplit(".", 1)[-1]
    globs = one_glob(globs)
    if not re.fullmatch(r"[A-Za-z_$][\w$]*", name):
        raise ToolError(f"required_use needs a name, not {symbol!r}")
    present = [
        h
        for g in globs
        for h in code.search_code(name, word=True, path_glob=g, max_hits=5).hits
        if h.context == CODE
    ]
    if present:
        first = present[0]
        note = f"`{name}` is used at {first.path}:{first.line}: the requirement is met"
        return SymbolResult(
            symbol, "required_use", [], 0, False, {"required name present": 1}, note
        )
    hits: list[SymbolHit] = []
    why = (
        f"uses {package} here, but `{name}`, which the release requires, occurs nowhere in the code"
    )
    for site in rep.sites:
        if not site.type_only:
            hits.append(SymbolHit(site.path, site.line, site.col, site.text, "code", "strong", why))
    if javascript:
        seen = {(h.path, h.line) for h in hits}
        for g in globs:
            res = code.search_code(
                spec_pattern(package), regex=True, path_glob=g, max_hits=_MAX_HITS
            )
            for h in res.hits:
                if h.context == STRING and (h.path, h.line) not in seen:
                    seen.add((h.path, h.line))
                    hits.append(SymbolHit(h.path, h.line, h.col, h.text, "code", "strong", why))
    hits.sort(key=lambda h: (h.path, h.line))
    note = (
        f"`{name}` occurs nowhere in the code; {len(hits)} use(s) of {package} lack it"
        if hits
        else f"this code does not use {package}"
    )
    return SymbolResult(
        symbol, "required_use", hits[:_MAX_HITS], len(hits), len(hits) > _MAX_HITS, {}, note
    )
