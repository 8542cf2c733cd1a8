"""npm versions: SemVer 2.0.0, by semver.org's own regular expression. Pure.

Minor and patch are optional ("1.2" is 1.2.0, as npm registries never write but people do).
Not the `semver` distribution: the node-semver releases before 0.9 shipped a top-level
`semver` package of their own, and an upgrade past them deleted the other's files ("No module
named 'semver'").

>>> parse("2.0.0-beta.1") < parse("2.0.0")
True
"""

from __future__ import annotations

import re
from typing import Any

from depbot.records.versions import Version

_NUM = r"(?:0|[1-9]\d*)"
_PRE_ID = r"(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)"
_SEMVER = re.compile(
    rf"^(?P<major>{_NUM})(?:\.(?P<minor>{_NUM})(?:\.(?P<patch>{_NUM}))?)?"
    rf"(?:-(?P<prerelease>{_PRE_ID}(?:\.{_PRE_ID})*))?"
    r"(?:\+(?P<build>[0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?\Z"
)


def _key(release: tuple[int, int, int], prerelease: str) -> tuple[Any, ...]:
    # semver 2.0.0 precedence: a pre-release sorts before its release; numeric
    # identifiers compare numerically and sort before alphanumeric ones.
    if prerelease:
        ids = tuple(
            (0, int(part), "") if part.isdigit() else (1, 0, part) for part in prerelease.split(".")
        )
        pre: tuple[Any, ...] = (0, ids)
    else:
        pre = (1, ())
    return (*release, pre)


def parse(raw: str) -> Version | None:
    """``raw`` (its ``v``/``=`` prefix already gone) as a SemVer version, or None."""
    m = _SEMVER.match(raw)
    if m is None:
        return None
    release = (int(m["major"]), int(m["minor"] or 0), int(m["patch"] or 0))
    pre = m["prerelease"] or ""
    return Version("npm", raw, release, bool(pre), True, _key(release, pre))


def forgiving(text: str) -> str | None:
    """How a changelog's heading may mean a version: leading zeros and "rc1" forgiven
    ("1.02.0" is 1.2.0, "2.0.0rc1" is 2.0.0-rc1); None when nothing was forgiven."""
    raw = text.strip().lstrip("vV")
    fixed = re.sub(r"(?<![\w.])0+(?=\d)|(?<=\.)0+(?=\d)", "", raw)
    fixed = re.sub(r"^(\d+(?:\.\d+)*)(?=[A-Za-z])", r"\1-", fixed)
    return fixed if fixed != raw else None
