"""Dependabot pull request titles: the shapes Dependabot writes (``TITLE_PATTERNS``) and
what ``parse_title`` reads from them, whatever prefix and case a configuration gives.
Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_V = r"`?(?P<{}>[^`]+?)`?"
_DIR = r"(?: in (?P<dir>/\S*))?"
TITLE_PATTERNS = [
    (
        "group",
        re.compile(
            r"^bump the (?P<group>\S+) group(?: in (?P<dir>/\S*))?"
            r"(?: across (?P<ndirs>\d+) directories)? with (?P<count>\d+) updates?$",
            re.I,
        ),
    ),
    (
        "single",
        re.compile(
            rf"^(?:bump|upgrade|update) (?P<name>\S+) from {_V.format('old')} to {_V.format('new')}"
            rf" in the (?P<group>\S+) group(?: in (?P<dir>/\S*))?(?: across \d+ directories)?$",
            re.I,
        ),
    ),
    (
        "requirement",
        re.compile(
            rf"^update (?P<name>\S+) requirement from {_V.format('old')} to {_V.format('new')}{_DIR}$",
            re.I,
        ),
    ),
    (
        "single",
        re.compile(
            rf"^(?:bump|upgrade|update) (?P<name>\S+) from {_V.format('old')} to {_V.format('new')}{_DIR}$",
            re.I,
        ),
    ),
    ("names", re.compile(rf"^update requirements for (?P<names>.+?){_DIR}$", re.I)),
    (
        "names",
        re.compile(rf"^(?:bump|upgrade|update) (?P<names>\S+(?:, \S+)* and \S+){_DIR}$", re.I),
    ),
]


@dataclass(frozen=True)
class Title:
    kind: str  # group | single | requirement | names
    prefix: str  # what came before the first word (``build(deps-dev): ``)
    names: tuple[str, ...] = ()
    old: str | None = None
    new: str | None = None
    directory: str | None = None
    group: str | None = None


def parse_title(title: str) -> Title | None:
    """The shape of a Dependabot PR title, whatever prefix and case it uses."""
    text = " ".join((title or "").split())
    for start in [m.start() for m in re.finditer(r"\b(?:bump|update|upgrade)\b", text, re.I)]:
        rest = text[start:]
        for kind, pattern in TITLE_PATTERNS:
            m = pattern.match(rest)
            if not m:
                continue
            groups = m.groupdict()
            if kind == "names":
                names = tuple(n.strip() for n in re.split(r",\s*|\s+and\s+", groups["names"]))
            elif kind == "group":
                names = ()
            else:
                names = (groups["name"],)
            return Title(
                kind=kind,
                prefix=text[:start],
                names=names,
                old=groups.get("old"),
                new=groups.get("new"),
                directory=groups.get("dir"),
                group=groups.get("group"),
            )
    return None
