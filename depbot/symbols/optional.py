"""The uses of a feature the release now leaves to an optional dependency (``optional_dependency``).

The notes say a feature ("Email validation") is now handled by an optional library
(``email_validator``). The break is an absence, as with ``required_use``: when a manifest
of the checkout lists the dependency (or the package with an extra, which may bring it), or
the code imports it, the requirement is met and nothing is affected; otherwise each name the
code takes from the package that is called like a word of the feature (``Email`` for
"Email validation") is a hit, at its import or its first use.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from depbot.core.errors import ToolError
from depbot.records.api import UsedName
from depbot.search.sites import ImportReport
from depbot.symbols.facts import SymbolHit, SymbolResult

__all__ = ["optional_uses"]

_MAX_HITS = 20
_MAX_MANIFEST_BYTES = 2_000_000


def _spelled(name: str) -> str:
    """A pattern of a distribution name in any spelling the registries take as the same
    (PEP 503: case, ``-``, ``_``, ``.``)."""
    return r"[-_.]+".join(re.escape(p) for p in re.split(r"[-_.]+", name) if p)


def _listed(text: str, dep: str) -> bool:
    """Whether a manifest's text names the distribution ``dep`` as a whole name."""
    return bool(re.search(rf"(?<![\w.-]){_spelled(dep)}(?![\w-])", text, re.I))


def _with_extra(text: str, package: str) -> bool:
    """Whether a manifest asks for the package with an extra (``wtforms[email]``)."""
    return bool(re.search(rf"(?<![\w.-]){_spelled(package)}\s*\[", text, re.I))


def _leaf(name: str) -> str:
    return re.split(r"[.:/]", name)[-1]


def optional_uses(
    code: Any,
    rep: ImportReport,
    used: list[UsedName],
    package: str,
    symbol: str,
    words: str,
    is_manifest: Callable[[Path], bool],
) -> SymbolResult:
    """Hits at the uses of the feature ``words`` (``a|b``) when nothing in the checkout
    installs ``symbol``, else none."""
    dep = symbol.strip()
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*", dep):
        raise ToolError(f"optional_dependency needs a distribution name, not {symbol!r}")
    wanted = {w.lower() for w in words.split("|") if len(w) >= 3}
    if not wanted:
        raise ToolError("optional_dependency needs arg: the feature's words, such as 'Email'")
    for rel in code.files():
        if not is_manifest(Path(rel)):
            continue
        try:
            text = "\n".join(code.read_lines(rel))[:_MAX_MANIFEST_BYTES]
        except ToolError:
            continue
        listed = _listed(text, dep)
        if listed or _with_extra(text, package):
            why = f"{rel} lists {dep}" if listed else f"{rel} asks for an extra"
            return SymbolResult(
                symbol, "optional_dependency", [], 0, False, {"dependency installed": 1},
                f"{why}: the requirement is met",
            )  # fmt: skip
    own = code.search_code(rf"\b{re.escape(dep)}\b", regex=True, max_hits=1).hits
    if any(h.context == "code" for h in own):
        return SymbolResult(
            symbol, "optional_dependency", [], 0, False, {"dependency imported": 1},
            f"the code uses {dep} itself: the requirement is met",
        )  # fmt: skip
    why = f"uses {package}'s %s, which now needs {dep}; no manifest of this checkout lists {dep}"
    hits: dict[tuple[str, int], SymbolHit] = {}
    for site in rep.sites:
        for imported in site.names.values():
            if not site.type_only and _leaf(imported).lower() in wanted:
                hits.setdefault(
                    (site.path, site.line),
                    SymbolHit(site.path, site.line, site.col, site.text, "code", "strong",
                              why % f"`{_leaf(imported)}`"),
                )  # fmt: skip
    for u in used:
        if u.how == "member" and _leaf(u.name).lower() in wanted:
            hits.setdefault(
                (u.path, u.line),
                SymbolHit(u.path, u.line, u.col, u.text, "code", "strong", why % f"`{_leaf(u.name)}`"),
            )  # fmt: skip
    found = sorted(hits.values(), key=lambda h: (h.path, h.line))
    note = (
        f"{len(found)} use(s) of what now needs {dep}, which no manifest lists"
        if found
        else f"this code uses nothing of {package} named like {words.replace('|', ', ')}"
    )
    return SymbolResult(
        symbol, "optional_dependency", found[:_MAX_HITS], len(found), len(found) > _MAX_HITS,
        {}, note,
    )  # fmt: skip
