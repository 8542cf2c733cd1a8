"""Which releases of an update's range may break, and whose notes were found. Pure.

A release of the range ``(from, to]`` may break when it is the first release of a new
major, the first of a 0.x minor (each 0.0.x patch), the ``to`` version when it is a
pre-release, or a release whose notes announce removals. ``not_affected`` for an update
needs the notes of every one of them (or a clean API diff): the semver promise covers
only patch bumps of 1.x+ versions, so for any other update whose notes were not found
at all, ``to`` itself is needed.

>>> c = coverage("pip", "1.9.0", "3.1.0", ["2.0.0", "2.1.0", "3.0.0", "3.1.0"], ["3.0.0", "3.1.0"])
>>> c.needed, c.missing
(('2.0.0', '3.0.0'), ('2.0.0',))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from depbot.records.versions import Version, parse_version, semver_promise

__all__ = ["Coverage", "breaking_releases", "coverage", "semver_promise"]


@dataclass(frozen=True)
class Coverage:
    needed: tuple[str, ...]  # the releases that may break, oldest first
    covered: tuple[str, ...]
    missing: tuple[str, ...]

    def to_dict(self) -> dict[str, list[str]]:
        return {"needed": list(self.needed), "covered": list(self.covered),
                "missing": list(self.missing)}  # fmt: skip


def _parsed(ecosystem: str, texts: Iterable[str]) -> dict[Version, str]:
    out: dict[Version, str] = {}
    for t in texts:
        v = parse_version(ecosystem, str(t))
        if v is not None:
            out.setdefault(v, str(t))
    return out


def _breaking_step(prev: Version, v: Version) -> bool:
    """Whether ``v`` opens a new major, a new 0.x minor or (0.0.x) a new patch after ``prev``."""
    if v.major != prev.major:
        return True
    if v.major == 0 and v.minor != prev.minor:
        return True
    return v.major == 0 and v.minor == 0 and v.release[:3] != prev.release[:3]


def breaking_releases(
    ecosystem: str, old: str, new: str, published: Iterable[str], removals: Iterable[str] = ()
) -> list[str]:
    """The releases of ``(old, new]`` that may break, oldest first (see the module doc)."""
    lo, hi = parse_version(ecosystem, old), parse_version(ecosystem, new)
    if lo is None or hi is None or not hi > lo:
        return []
    ranged = {v: t for v, t in _parsed(ecosystem, [*published, new]).items() if lo < v <= hi}
    marked = set(_parsed(ecosystem, removals))
    out: list[str] = []
    prev = lo
    for v in sorted(ranged):
        if v.is_prerelease and v != hi:
            continue  # a pre-release's notes are its final's; only `to` itself counts
        if _breaking_step(prev, v) or v in marked or v.is_prerelease:
            out.append(ranged[v])
        prev = v
    return out


def _is_covered(v: Version, found: set[Version]) -> bool:
    return v in found or (v.is_prerelease and any(f.release == v.release for f in found))


def coverage(
    ecosystem: str,
    old: str,
    new: str,
    published: Iterable[str],
    found: Iterable[str],
    removals: Iterable[str] = (),
) -> Coverage:
    """The releases of the range that may break, which of them have notes, which do not.

    ``published``: the versions the registry lists in ``(old, new]`` (just ``new`` when
    unknown); ``found``: the versions whose notes were found; ``removals``: those whose
    notes announce removals."""
    got = _parsed(ecosystem, found)
    needed = breaking_releases(ecosystem, old, new, published, [*removals])
    if not got and not needed and not semver_promise(ecosystem, old, new):
        needed = [new]  # nothing read at all, and no promise to fall back on
    have = set(got)
    covered, missing = [], []
    for text in needed:
        v = parse_version(ecosystem, text)
        (covered if v is not None and _is_covered(v, have) else missing).append(text)
    return Coverage(tuple(needed), tuple(covered), tuple(missing))
