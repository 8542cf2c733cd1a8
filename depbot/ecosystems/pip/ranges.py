"""PEP 440 version specifiers (">=2.28,<3"): their lowest version, membership, open ends. Pure."""

from __future__ import annotations

import re
from collections.abc import Iterable

from packaging.specifiers import InvalidSpecifier, SpecifierSet

__all__ = [
    "InvalidSpecifier",
    "allows",
    "best_allowed",
    "in_ranges",
    "lower_bound",
    "open_ended",
    "valid_range",
]

from depbot.ecosystems.pip.versions import parse


def lower_bound(spec: str) -> str | None:
    """The lowest version a specifier names (``>=2.28,<3`` → 2.28), or None."""
    try:
        specs = SpecifierSet(spec)
    except InvalidSpecifier:
        return None
    lows = [
        s.version.rstrip(".*")
        for s in specs
        if s.operator in (">=", "==", "~=", "===", ">") and parse(s.version.rstrip(".*"))
    ]
    parsed = [(parse(v), v) for v in lows]
    return max(parsed, key=lambda p: p[0])[1] if parsed else None  # type: ignore[arg-type,return-value]


def open_ended(spec: str) -> bool:
    """A specifier with no upper bound and no pin: it allows the newest release, whatever it is."""
    try:
        specs = SpecifierSet(spec)
    except InvalidSpecifier:
        return False  # sources says it cannot read the range
    bounded = ("<", "<=", "~=", "===", "==")
    return not any(s.operator in bounded for s in specs)


def allows(spec: str, version: str) -> bool:
    """Whether the specifier ``spec`` already allows ``version`` (pre-releases included)."""
    return SpecifierSet(spec).contains(version, prereleases=True)


def best_allowed(spec: str, versions: Iterable[str]) -> str | None:
    """The highest of ``versions`` that ``spec`` allows; raises ``InvalidSpecifier``."""
    allowed = [v for v in SpecifierSet(spec).filter(versions)]
    best = max(
        ((parse(v), v) for v in allowed if parse(v) is not None),
        key=lambda pair: pair[0],  # type: ignore[arg-type,return-value]
        default=None,
    )
    return best[1] if best else None


def _as_specifier(text: str) -> str:
    return text if re.match(r"^\s*[<>=!~]", text) else f"=={text.strip()}"


def valid_range(text: str) -> bool:
    """Whether ``text`` is a PEP 440 specifier, or a bare version (``==`` is meant)."""
    try:
        SpecifierSet(_as_specifier(text))
    except InvalidSpecifier:
        return False
    return True


def in_ranges(version: str, ranges: tuple[str, ...]) -> bool:
    """Whether ``version`` is in one of ``ranges`` (pre-releases included)."""
    return any(
        SpecifierSet(_as_specifier(text)).contains(version, prereleases=True) for text in ranges
    )
