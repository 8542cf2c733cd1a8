"""A release that needs a newer version of another package the code installs. Pure.

"Dropped support for versions of the `graphql` library prior to `15.3.0`", "TypeScript 4.1+
is now required", "now requires `react` 16.8 or newer": the candidate is that package
(``version_floor``, arg the lowest version it takes); the search compares it with what the
checkout's manifests and lock files install. Runtimes (Node.js, browsers, Python) are not
packages a manifest installs: those items stay runtime requirements.
"""

from __future__ import annotations

import re

from depbot.changelogs.wording import Candidate

__all__ = ["floor_candidates"]

_NAME = r"`[^`\s]{1,80}`|[A-Za-z][\w.@/-]{0,60}"
_VERSION = r"`?v?(?P<ver>\d+(?:\.\d+){0,2})`?"
_FLOORS = (
    re.compile(  # "dropped support for versions of the `graphql` library prior to 15.3.0"
        r"\b(?:dropp?(?:ed|s)?|remov(?:e|ed|es))\s+support\s+for\s+(?:versions?\s+of\s+)?"
        rf"(?:the\s+)?(?P<pkg>{_NAME})\s+(?:(?:library|package|module)\s+)?(?:versions?\s+)?"
        rf"(?:prior\s+to|older\s+than|before|below|lower\s+than|<)\s*{_VERSION}",
        re.I,
    ),
    re.compile(  # "TypeScript 4.1+ is now required", "`react` >= 16.8 is required"
        rf"(?P<pkg>{_NAME})\s+(?:>=?\s*|v)?{_VERSION}\s*(?:\+|\s+or\s+(?:newer|higher|later|above))?"
        r"\s+(?:is|are)\s+(?:now\s+)?required\b",
        re.I,
    ),
    re.compile(  # "now requires TypeScript 3.8", "requires `react` 16.8 or newer"
        rf"\brequires?\s+(?P<pkg>{_NAME})\s+(?:>=?\s*|v)?{_VERSION}",
        re.I,
    ),
)
# runtimes, platforms and languages: no manifest installs them as a package
_RUNTIMES = re.compile(
    r"^(?:node(?:\.?js)?|npm|yarn|pnpm|deno|bun|python|pypy|cpython|ie\d*|internet|chrome|"
    r"firefox|safari|edge|browsers?|es\d{1,4}|ecmascript|electron|java|ruby|php|go)$",
    re.I,
)
_PACKAGE = re.compile(r"(?:@[a-z0-9][\w.-]*/)?[a-z0-9][\w.-]*")


def floor_candidates(sentence: str, package: str) -> list[Candidate]:
    """The packages (other than ``package``) a sentence says the release needs at a lowest
    version, each a ``version_floor`` candidate with that version."""
    out: list[Candidate] = []
    for pattern in _FLOORS:
        for m in pattern.finditer(sentence):
            name = m.group("pkg").strip("`").lower()
            if _RUNTIMES.match(name) or not _PACKAGE.fullmatch(name) or name == package:
                continue
            cand = Candidate(name, "version_floor", arg=m.group("ver"))
            if cand not in out:
                out.append(cand)
    return out
