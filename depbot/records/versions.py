"""Versions and update types, whatever the ecosystem's grammar. Pure functions, no I/O.

Each ecosystem reads its own versions (PEP 440 for pip, SemVer for npm: its folder under
``depbot/ecosystems/``) into a ``Version``; what follows from two of them (the update type,
whether semver allows a break, ranges, order) is the same for all and written here.

>>> update_type("pip", "1.26.18", "2.0.7")
'major'
>>> update_type("npm", "2.0.0-beta.1", "2.0.0")
'other'
>>> parse_version("pip", "1.0") == parse_version("pip", "1.0.0")
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache, total_ordering
from typing import Any

UPDATE_TYPES = ("major", "minor", "patch", "other")

# ecosystem name (and each of its aliases) -> how it reads a version. Each ecosystem brings its
# own grammar (depbot/ecosystems/<name>/versions.py) and ``depbot.ecosystems.register`` enters
# it here; ``depbot/__init__`` imports ``depbot.ecosystems``, so the table is full before any
# record is made.
_GRAMMARS: dict[str, Callable[[str], Version | None]] = {}


def register_grammar(names: Iterable[str], parse: Callable[[str], Version | None]) -> None:
    """Read versions of the ecosystem called by any of ``names`` with ``parse``."""
    for name in names:
        _GRAMMARS[name.strip().lower()] = parse
    _parse_version.cache_clear()


@total_ordering
@dataclass(frozen=True, eq=False)
class Version:
    """A parsed version of one ecosystem; compares only with versions of the same ecosystem.

    ``_key`` orders versions of that ecosystem (its grammar makes it).
    """

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
    parse = _GRAMMARS.get((ecosystem or "").strip().lower())
    if parse is None:
        raise ValueError(f"unknown ecosystem {ecosystem!r} (supported: {', '.join(_GRAMMARS)})")
    return parse(raw)


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
