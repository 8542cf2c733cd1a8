"""A removal that points back at a deprecation of the same range. Pure.

"Removed: 76 rules deprecated in 15.0.0" names nothing itself: what it removes is what the
notes of 15.0.0 deprecated ("We've deprecated 76 of the rules …: - `indentation` …").
When both releases are in the range read, the deprecation's names are the removal's
search terms. The rule reads only the wording: a version the removal names ("deprecated
in 15.0.0", "since v3") picks that release's notes, else every earlier release of the
range; a kind of thing it names ("rules", "options", "methods") keeps the deprecations
that speak of the same kind. A removal that names neither a version nor a kind is left
alone: guessing which deprecations it means could search for names still there.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from depbot.changelogs.breaking import Item
from depbot.changelogs.wording import Candidate

__all__ = ["fill_removed_deprecations"]

V = TypeVar("V")

_DEPRECATED_IN = re.compile(
    r"\bdeprecated\s+(?:in|since|as\s+of|with)\s+(?:v(?:ersion)?\s*)?(\d+(?:\.\d+)*)", re.I
)
_KINDS = {
    "rule": r"rules?",
    "option": r"options?|settings?|flags?",
    "method": r"methods?|functions?|apis?|helpers?",
    "property": r"propert(?:y|ies)|attributes?|fields?",
    "class": r"class(?:es)?|components?|types?",
    "command": r"commands?",
    "event": r"events?|hooks?",
}
_KIND_RES = {k: re.compile(rf"\b(?:{v})\b", re.I) for k, v in _KINDS.items()}


def _kinds(text: str) -> set[str]:
    return {k for k, rx in _KIND_RES.items() if rx.search(text)}


def _named_release(text: str) -> str | None:
    m = _DEPRECATED_IN.search(text)
    return m.group(1) if m else None


def _same_release(named: str, version: str) -> bool:
    """ "15.0.0", "15.0" and "15" name the release 15.0.0 (trailing zeros are forgiven)."""
    want = [int(x) for x in named.split(".")]
    m = re.match(r"v?(\d+(?:\.\d+)*)", version.strip())
    if not m:
        return False
    got = [int(x) for x in m.group(1).split(".")]
    width = max(len(want), len(got))
    return want + [0] * (width - len(want)) == got + [0] * (width - len(got))


def fill_removed_deprecations(
    sections: Sequence[tuple[str, list[Item]]],
    order: Callable[[str], V | None],
) -> list[list[Item]]:
    """The items of each section, a removal of deprecated things that names none given the
    names the range's earlier deprecations name.

    ``sections``: (version, items) in reading order; ``order``: a version's sort key (None
    when it cannot be read)."""
    out = [list(items) for _v, items in sections]
    for si, (version, items) in enumerate(sections):
        at = order(version)
        for ii, item in enumerate(items):
            if item.category != "breaking" or item.candidates or not item.removes_deprecated:
                continue
            named = _named_release(item.text)
            kinds = _kinds(re.sub(r"\bdeprecat\w*", " ", item.text, flags=re.I))
            if named is None and not kinds:
                continue
            found: list[Candidate] = []
            for ov, oitems in sections:
                if named is not None and not _same_release(named, ov):
                    continue
                before = order(ov)
                if named is None and (at is None or before is None or not before < at):
                    continue
                for dep in oitems:
                    if dep.category != "deprecation" or not dep.deprecates:
                        continue
                    if kinds and not kinds & _kinds(f"{dep.text} {dep.context}"):
                        continue
                    found.extend(c for c in dep.deprecates if c not in found)
            if found:
                out[si][ii] = replace(item, candidates=tuple(found))
    return out
