"""Which members of an artifact to keep, and where they go. Pure: no I/O.

Every member name is checked first: an absolute path, a drive letter or a ``..`` part makes
the whole artifact refused (``Unsafe``), kept or not. Then the member is mapped to its path
under the unpacked root, or None when the API models do not need it:

- what each ecosystem's API model reads (``keep_member`` of ``depbot/ecosystems/<name>/``:
  Python sources and stubs of a wheel or sdist; an npm tarball's ``package.json``,
  declarations and scripts);
- never anything in a tests folder (``test``, ``tests``, ``__tests__``).
"""

from __future__ import annotations

import re

from depbot import ecosystems

TEST_DIRS = frozenset({"test", "tests", "__tests__"})


class Unsafe(ValueError):
    """A member whose name would land outside the unpacked root."""


def safe_parts(name: str) -> list[str]:
    """The parts of a member name, or ``Unsafe`` for an absolute path or a ``..`` part."""
    text = name.replace("\\", "/")
    if text.startswith("/") or re.match(r"^[A-Za-z]:", text) or "\x00" in text:
        raise Unsafe(f"member {name!r} has an absolute path")
    parts = [p for p in text.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise Unsafe(f"member {name!r} points outside the archive")
    return parts


def target(ecosystem: str, kind: str, name: str) -> str | None:
    """The relative path a member is kept at, or None; raises ``Unsafe``."""
    kept = ecosystems.get(ecosystem).keep_member(kind, safe_parts(name))
    if kept is None or any(p in TEST_DIRS for p in kept.split("/")[:-1]):
        return None
    return kept
