"""Source files too big to search that may use a package (#28 item 10).

Every search skips files over ``max_filesize`` (rg's ``--max-filesize``). A generated module
of 31 MB that calls a removed function is then invisible, and a ``not_affected`` would rest
on what depbot could not see. ``too_big_users`` names those files: the in-scope source files
over the limit whose first ``SCAN_BYTES`` hold what looks like an import of the package, or
that are larger than that and so cannot be cleared by the scan. Reading is bounded: at most
``SCAN_BYTES`` of each file, in chunks, never following a symbolic link.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

SCAN_BYTES = 8 << 20  # how much of an oversized file is scanned for the package's names
_CHUNK = 1 << 20
MAX_LISTED = 200  # oversized source files looked at, per checkout and file type


def size_text(n: int) -> str:
    """``31 MB``, ``2.0 GB``, ``1.2 MB`` (decimal units, as file managers show them)."""
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("KB", 10**3)):
        if n >= scale:
            value = n / scale
            return f"{value:.1f} {unit}" if value < 10 else f"{value:.0f} {unit}"
    return f"{n} bytes"


def import_pattern(language: str, names: list[str], uses: str = "") -> re.Pattern[bytes]:
    """What an import of one of ``names`` looks like in the raw bytes of a source file:
    ``import x`` / ``from x… import`` (or ``__import__(`` / ``import_module(``) in Python,
    ``'x'`` or ``'x/…'`` as a module specifier in JavaScript; in a workflow, ``uses``
    (a regex of a step that uses the action)."""
    alt = b"|".join(re.escape(n.encode()) for n in names if n) or b"(?!)"
    if language == "github-workflow":
        return re.compile(uses.encode(), re.IGNORECASE)
    if language == "javascript":
        return re.compile(rb"""["'`](?:""" + alt + rb""")(?:/[^"'`\n]*)?["'`]""")
    return re.compile(
        rb"\b(?:import|from)\b[^\n]{0,200}?(?<![\w.])(?:" + alt + rb")(?![\w])"
        rb"|__import__\(|import_module\("
    )


def mentions(path: Path, rx: re.Pattern[bytes], limit: int = SCAN_BYTES) -> bool | None:
    """Whether the first ``limit`` bytes of ``path`` match ``rx`` (``import_pattern``);
    ``None`` when the file is longer than that and the part read does not (cannot tell),
    or cannot be read (a symbolic link is never followed)."""
    tail = b""
    read = 0
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as fh:
            while read < limit:
                chunk = fh.read(min(_CHUNK, limit - read))
                if not chunk:
                    return False
                read += len(chunk)
                if rx.search(tail + chunk):
                    return True
                tail = chunk[-256:]
            return False if not fh.read(1) else None
    except OSError:
        return None


def too_big_users(
    root: Path, oversized: list[tuple[str, int]], rx: re.Pattern[bytes]
) -> list[tuple[str, int]]:
    """The ``(path, size)`` of ``oversized`` (repo-relative) that may import what ``rx``
    (``import_pattern``) matches."""
    return [
        (rel, size) for rel, size in oversized[:MAX_LISTED] if mentions(root / rel, rx) is not False
    ]


def skipped_line(files: list[tuple[str, int]], limit: str) -> str:
    """The sentence a search result and a verdict carry about ``files``."""
    shown = ", ".join(f"{p} ({size_text(n)})" for p, n in files[:5])
    more = f" and {len(files) - 5} more" if len(files) > 5 else ""
    return (
        f"{len(files)} source file(s) over {limit} were not searched and may use the package: "
        f"{shown}{more}"
    )
