"""What version of depbot's own code made a kept answer: a hash of that code's source. Pure
but for reading the files it is given."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path


def source_hash(root: Path, files: Iterable[Path]) -> str:
    """16 hex digits of the files' paths (relative to ``root``) and bytes, in sorted order:
    a kept result made by other code never matches."""
    h = hashlib.sha256()
    for f in sorted(files):
        h.update(f.relative_to(root).as_posix().encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]
