"""Versions of GitHub Actions: the version a release tag names (``v4``, ``v4.1``, ``v4.1.0``).

SemVer with the minor and patch optional, as action authors tag their majors and their
releases; ``v4`` is read as 4.0.0 for order (a floating major tag points at the newest 4.x,
which ``range_allows`` knows). Pure.

>>> parse("4") == parse("4.0.0")
True
"""

from __future__ import annotations

import re
from dataclasses import replace

from depbot.ecosystems.npm.versions import parse as semver
from depbot.records.versions import Version

NAME = "github_actions"
_SHA = re.compile(r"^[0-9a-f]{40}$")
_PLAIN = re.compile(r"^v?(\d+(?:\.\d+){0,2})$", re.IGNORECASE)


def parse(raw: str) -> Version | None:
    """``raw`` (its ``v`` already gone) as a version of an action, or None."""
    v = semver(raw)
    return None if v is None else replace(v, ecosystem=NAME)


def of_ref(ref: str) -> str | None:
    """The version a ref names: ``v4.1.0`` -> ``4.1.0``, ``v4`` -> ``4``; None for a branch
    or a commit."""
    m = _PLAIN.match(ref.strip())
    return m.group(1) if m else None


def is_sha(ref: str) -> bool:
    """Whether ``ref`` is a full commit SHA (the pin Dependabot and hardening guides write)."""
    return bool(_SHA.match(ref.strip().lower()))


def precision(ref: str) -> int:
    """How many numbers a version ref gives: ``v4`` 1, ``v4.1`` 2, ``v4.1.0`` 3 (0: none)."""
    version = of_ref(ref)
    return 0 if version is None else version.count(".") + 1
