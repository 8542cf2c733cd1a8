"""Versions of both ecosystems: PEP 440 for pip, semver for npm. Pure functions, no I/O.

>>> update_type("pip", "1.26.18", "2.0.7")
'major'
>>> update_type("npm", "2.0.0-beta.1", "2.0.0")
'other'
>>> parse_version("pip", "1.0") == parse_version("pip", "1.0.0")
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache, total_ordering
from typing import Any

from packaging.version import InvalidVersion
from packaging.version import Version as PepVersion

ECOSYSTEMS = ("pip", "npm")

# Dependabot's package-ecosystem names and the names people write for them.
_ECOSYSTEM_ALIASES = {
    "pip": "pip",
    "pypi": "pip",
    "python": "pip",
    "pip-compile": "pip",
    "pip_compile": "pip",
    "pipenv": "pip",
    "poetry": "pip",
    "uv": "pip",
    "npm": "npm",
    "npm_and_yarn": "npm",
    "yarn": "npm",
    "pnpm": "npm",
    "bun": "npm",
    "javascript": "npm",
    "node": "npm",
}

UPDATE_TYPES = ("major", "minor", "patch", "other")


def normalize_ecosystem(name: str) -> str:
    """Map an ecosystem name (``npm_and_yarn``, ``PyPI``, ...) to ``pip`` or ``npm``."""
    key = (name or "").strip().lower()
    try:
        return _ECOSYSTEM_ALIASES[key]
    except KeyError:
        raise ValueError(
            f"unknown ecosystem {name!r} (supported: pip, npm, and Dependabot's aliases)"
        ) from None


# SemVer 2.0.0's own regular expression (semver.org), with minor and patch optional ("1.2"
# is 1.2.0, as npm registries never write but people do). Not the `semver` distribution: the
# node-semver releases before 0.9 shipped a top-level `semver` package of their own, and an
# upgrade past them deleted the other's files ("No module named 'semver'").
_NUM = r"(?:0|[1-9]\d*)"
_PRE_ID = r"(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)"
_SEMVER = re.compile(
    rf"^(?P<major>{_NUM})(?:\.(?P<minor>{_NUM})(?:\.(?P<patch>{_NUM}))?)?"
    rf"(?:-(?P<prerelease>{_PRE_ID}(?:\.{_PRE_ID})*))?"
    r"(?:\+(?P<build>[0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?\Z"
)


def _semver_key(release: tuple[int, int, int], prerelease: str) -> tuple[Any, ...]:
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


@total_ordering
@dataclass(frozen=True, eq=False)
class Version:
    """A parsed version of one ecosystem; compares only with versions of the same ecosystem."""

    ecosystem: str
    text: str
    release: tuple[int, ...]
    is_prerelease: bool
    semver_like: bool  # at most three release numbers and nothing but a pre-release tag
    _key: Any

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Version) or other.ecosystem != self.ecosystem:
            return NotImplemented
        return self._key == other._key

    def __lt__(self, other: Version) -> bool:
        if not isinstance(other, Version) or other.ecosystem != self.ecosystem:
            return NotImplemented
        return self._key < other._key

    def __hash__(self) -> int:
        return hash((self.ecosystem, self._key))

    def __str__(self) -> str:
        return self.text

    @property
    def major(self) -> int:
        return self.release[0] if self.release else 0

    @property
    def minor(self) -> int:
        return self.release[1] if len(self.release) > 1 else 0


_PREFIX = re.compile(r"^\s*(?:v(?=\d)|=\s*)?", re.IGNORECASE)


def parse_version(ecosystem: str, text: str) -> Version | None:
    """Parse ``text`` as a version of ``ecosystem``; ``None`` when it is not one."""
    if not isinstance(text, str):
        return None
    return _parse_version(ecosystem, text)


@lru_cache(maxsize=1 << 18)  # the same strings are parsed again and again (Version is immutable)
def _parse_version(ecosystem: str, text: str) -> Version | None:
    raw = _PREFIX.sub("", text.strip(), count=1)
    if not raw or len(raw) > 64:
        return None
    eco = normalize_ecosystem(ecosystem)
    if eco == "pip":
        try:
            pv = PepVersion(raw)
        except InvalidVersion:
            return None
        semver_like = (
            len(pv.release) <= 3
            and pv.epoch == 0
            and pv.post is None
            and pv.dev is None
            and pv.local is None
        )
        return Version("pip", raw, tuple(pv.release), pv.is_prerelease, semver_like, pv)
    m = _SEMVER.match(raw)
    if m is None:
        return None
    release = (int(m["major"]), int(m["minor"] or 0), int(m["patch"] or 0))
    pre = m["prerelease"] or ""
    return Version("npm", raw, release, bool(pre), True, _semver_key(release, pre))


def in_range(ecosystem: str, version: str | Version, low: str, high: str) -> bool:
    """``low < version <= high``, the sections an update from ``low`` to ``high`` brings."""
    v = version if isinstance(version, Version) else parse_version(ecosystem, version)
    lo, hi = parse_version(ecosystem, low), parse_version(ecosystem, high)
    if v is None or lo is None or hi is None:
        return False
    return lo < v <= hi


def update_type(ecosystem: str, old: str, new: str) -> str:
    """``major`` / ``minor`` / ``patch`` for semver-shaped upgrades; ``other`` for the rest.

    Pre-releases, non-semver versions (four numbers, post/dev/local releases, epochs),
    unparseable versions and downgrades are ``other``.
    """
    a, b = parse_version(ecosystem, old), parse_version(ecosystem, new)
    if a is None or b is None or not (a.semver_like and b.semver_like):
        return "other"
    if a.is_prerelease or b.is_prerelease or not b > a:
        return "other"
    ra = (a.release + (0, 0, 0))[:3]
    rb = (b.release + (0, 0, 0))[:3]
    if ra[0] != rb[0]:
        return "major"
    if ra[1] != rb[1]:
        return "minor"
    return "patch"


def may_break(ecosystem: str, old: str, new: str, kind: str | None = None) -> bool:
    """Whether semver allows this update to break: majors, 0.x minors, 0.0.x patches, 'other'."""
    kind = kind or update_type(ecosystem, old, new)
    if kind in ("major", "other"):
        return True
    a = parse_version(ecosystem, old)
    if a is None:
        return True
    if kind == "minor":
        return a.major == 0
    return a.major == 0 and a.minor == 0


def semver_promise(ecosystem: str, old: str, new: str) -> bool:
    """A patch bump of a 1.x+ version: the only update semver promises to be compatible."""
    a = parse_version(ecosystem, old)
    return a is not None and a.major >= 1 and update_type(ecosystem, old, new) == "patch"


def sort_versions(ecosystem: str, texts: list[str], *, newest_first: bool = True) -> list[str]:
    """Sort version strings; unparseable ones are dropped."""
    parsed = [(parse_version(ecosystem, t), t) for t in texts]
    good = [(v, t) for v, t in parsed if v is not None]
    good.sort(key=lambda pair: pair[0], reverse=newest_first)  # type: ignore[arg-type,return-value]
    return [t for _, t in good]
