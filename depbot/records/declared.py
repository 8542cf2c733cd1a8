"""The ``Declared`` record: one dependency as a manifest declares it, and naming helpers.

Shared by the manifest parsers (``scan``, ``npm``); pure, no I/O. Package names compare
with ``records.names.canonical_name``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Declared:
    """One dependency as a manifest declares it."""

    ecosystem: str  # "pip" | "npm"
    name: str  # distribution / registry package name, as written
    spec: str  # the version specifier as written: "==2.31.0", ">=2.28,<3", "^1.2.3", ""
    pinned: str | None  # the exact version the spec (or a constraints file) pins, if any
    installed: str | None  # the version the lock file records (npm), if any
    manifest: str  # repo-relative path of the file that declares it
    dependency_kind: str = "direct"  # direct | dev | indirect
    line: int = 0  # 1-based line of the declaration; 0 when unknown


# Optional-dependency groups and requirement files named like these hold development tools.
DEV_WORDS = frozenset(
    "dev develop development test tests testing lint linting linters docs doc documentation "
    "typing types mypy style format ci qa coverage".split()
)


def is_dev_name(name: str) -> bool:
    """``dev``, ``test-extras``, ``requirements-docs`` ... name development dependencies."""
    return any(word in DEV_WORDS for word in re.split(r"[-_.\s/]+", name.lower()))


def first_line(message: str) -> str:
    return message.strip().splitlines()[0] if message.strip() else "invalid"
