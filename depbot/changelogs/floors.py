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
    re.compile(  # "minimum support webpack version is `4`", "minimum required `less` version: 3"
        rf"\bminimum\s+(?:support(?:ed)?\s+|required\s+)?(?P<pkg>{_NAME})\s+version\s*(?:is\s+|:\s*)"
        rf"(?:now\s+)?{_VERSION}",
        re.I,
    ),
    re.compile(  # "the minimum supported version of `webpack` is now 5"
        rf"\bminimum\s+(?:support(?:ed)?\s+|required\s+)?version\s+of\s+(?P<pkg>{_NAME})\s+is\s+"
        rf"(?:now\s+)?{_VERSION}",
        re.I,
    ),
)
# a version no longer supported: the floor is the next one ("`2` version of `less` is not
# supported anymore": 3; "drop support for TypeScript 3.9": 3.10)
_OLD = r"`?v?(?P<old>\d+(?:\.\d+)?)(?:\.x)?`?"
_DROPPED = (
    re.compile(
        rf"(?<![\w.]){_OLD}\s+versions?\s+of\s+(?P<pkg>{_NAME})\s+(?:is|are)\s+"
        r"(?:not|no\s+longer)\s+supported",
        re.I,
    ),
    re.compile(  # "webpack 4 is no longer supported", "webpack@4 no longer supported"
        rf"(?P<pkg>{_NAME})(?:\s+|@)(?:v|versions?\s+)?{_OLD}\s+(?:(?:is|are)\s+)?"
        r"(?:not|no\s+longer)\s+supported",
        re.I,
    ),
    re.compile(  # "drop support for ESLint v3", "remove: support for koa 1", "Remove support rollup 1.x"
        rf"\b(?:drop(?:ped|s)?|remov(?:e|ed|es))\s*:?\s+support\s+(?:for\s+)?(?P<pkg>{_NAME})\s+"
        rf"(?:v|versions?\s+)?{_OLD}"
        r"(?![\w.]|\s*(?:and|or|,)\s*(?:below|lower|older|earlier))",
        re.I,
    ),
    re.compile(  # "dropped koa 1 support"
        rf"\b(?:drop(?:ped|s)?|remov(?:e|ed|es))\s+(?P<pkg>{_NAME})\s+(?:v|versions?\s+)?{_OLD}"
        r"\s+support\b",
        re.I,
    ),
)


def _next(old: str) -> str:
    """The version after the one no longer supported: ``2`` → ``3``, ``3.9`` → ``3.10``."""
    parts = [int(p) for p in old.split(".")]
    parts[-1] += 1
    return ".".join(str(p) for p in parts)


# runtimes, platforms and languages: no manifest installs them as a package
_RUNTIMES = re.compile(
    r"^(?:node(?:\.?js)?|npm|yarn|pnpm|deno|bun|python|pypy|cpython|ie\d*|internet|chrome|"
    r"firefox|safari|edge|browsers?|es\d{1,4}|ecmascript|electron|java|ruby|php|go)$",
    re.I,
)
_PACKAGE = re.compile(r"(?:@[a-z0-9][\w.-]*/)?[a-z0-9][\w.-]*")


# "… ESLint v3 and v4", "… koa 1, 2": the other versions the item drops with the first
_MORE_OLD = re.compile(r"(?:\s*(?:,|and|or|&|/)\s*`?v?(\d+(?:\.\d+)?)(?:\.x)?`?(?![\w.]))+")


def _last_dropped(m: re.Match[str], sentence: str) -> str:
    """The newest version a dropped-support match names, its list included."""
    more = _MORE_OLD.match(sentence, m.end())
    olds = [m.group("old"), *re.findall(r"\d+(?:\.\d+)?", more.group(0) if more else "")]
    return max(olds, key=lambda v: [int(p) for p in v.split(".")])


def floor_candidates(sentence: str, package: str) -> list[Candidate]:
    """The packages (other than ``package``) a sentence says the release needs at a lowest
    version, each a ``version_floor`` candidate with that version."""
    out: list[Candidate] = []
    found = [(m, m.group("ver")) for p in _FLOORS for m in p.finditer(sentence)]
    found += [
        (m, _next(_last_dropped(m, sentence))) for p in _DROPPED for m in p.finditer(sentence)
    ]
    for m, version in found:
        name = m.group("pkg").strip("`").lower()
        if _RUNTIMES.match(name) or not _PACKAGE.fullmatch(name) or name == package:
            continue
        cand = Candidate(name, "version_floor", arg=version)
        if cand not in out:
            out.append(cand)
    return out
