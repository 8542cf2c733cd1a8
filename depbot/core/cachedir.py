"""The cache folder (``~/.cache/depbot``): what it holds, and keeping it under its cap.

It holds the HTTP cache (``http_cache_v2.sqlite``: registry entries, changelogs, release
notes, revalidated by ETag), the downloaded release archives (``artifacts/<algo>/<digest>``),
their unpacked folders (``unpacked/<digest>``) and the API diffs made of them
(``diffs/<key>.json``, ``apidiff/stored.py``). An archive or folder is touched each
time a run uses it, so its modification time is its last use; ``evict`` removes the least
recently used archives and folders first until the folder is under ``cache_max_mb``, then,
if that is not enough, the HTTP cache itself. Nothing used in the last ``GRACE`` seconds
is removed (another run may be reading it). ``depbot cache`` shows and clears it.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

HTTP_FILES = ("http_cache_v2.sqlite", "http_cache_v2.sqlite-wal", "http_cache_v2.sqlite-shm")
PARTS = ("http", "artifacts", "unpacked", "diffs", "uses")
GRACE = 3600.0  # seconds: what a run used this recently stays


@dataclass(frozen=True)
class Entry:
    path: Path
    part: str  # http | artifacts | unpacked
    size: int
    used: float  # last use (modification time)


@dataclass
class Usage:
    root: Path
    entries: list[Entry] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(e.size for e in self.entries)

    def by_part(self) -> dict[str, tuple[int, int]]:
        """part -> (entries, bytes)."""
        out = {p: (0, 0) for p in PARTS}
        for e in self.entries:
            n, size = out[e.part]
            out[e.part] = (n + 1, size + e.size)
        return out


def touch(path: Path) -> None:
    """Mark ``path`` as used now (best effort: a read-only cache is still a cache)."""
    try:
        os.utime(path)
    except OSError:
        pass


def _size(path: Path) -> int:
    if path.is_symlink() or not path.is_dir():
        try:
            return path.lstat().st_size
        except OSError:
            return 0
    total = 0
    for folder, _dirs, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                pass
    return total


def _mtime(path: Path) -> float:
    try:
        return path.lstat().st_mtime
    except OSError:
        return 0.0


def usage(root: Path) -> Usage:
    """What the cache folder ``root`` holds, entry by entry."""
    found = Usage(Path(root))
    for name in HTTP_FILES:
        p = root / name
        if p.is_file():
            found.entries.append(Entry(p, "http", _size(p), _mtime(p)))
    for p in sorted((root / "artifacts").glob("*/*")):
        if p.is_file():
            found.entries.append(Entry(p, "artifacts", _size(p), _mtime(p)))
    for p in sorted((root / "unpacked").glob("*")):
        if p.is_dir() and not p.name.startswith("."):
            found.entries.append(Entry(p, "unpacked", _size(p), _mtime(p)))
    for part in ("diffs", "uses"):  # derived answers: an API diff, a use-check (#30)
        for p in sorted((root / part).glob("*.json")):
            found.entries.append(Entry(p, part, _size(p), _mtime(p)))
    return found


def _remove(entry: Entry) -> bool:
    try:
        if entry.path.is_dir() and not entry.path.is_symlink():
            shutil.rmtree(entry.path)
        else:
            entry.path.unlink()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return True


def evict(root: Path, cap_bytes: int, *, now: float | None = None) -> tuple[int, int]:
    """Remove the least recently used archives and folders (then the HTTP cache) until
    ``root`` holds at most ``cap_bytes``; what was used in the last ``GRACE`` seconds stays.
    Returns (entries removed, bytes freed). ``cap_bytes`` 0 or less: no cap."""
    if cap_bytes <= 0 or not Path(root).is_dir():
        return 0, 0
    now = time.time() if now is None else now
    found = usage(Path(root))
    total, removed, freed = found.total, 0, 0
    files = sorted((e for e in found.entries if e.part != "http"), key=lambda e: e.used)
    http = [e for e in found.entries if e.part == "http"]
    for e in [*files, *http]:
        if total <= cap_bytes:
            break
        if now - e.used < GRACE:
            continue
        if _remove(e):
            total -= e.size
            removed, freed = removed + 1, freed + e.size
    return removed, freed


def clear(root: Path) -> tuple[int, int]:
    """Remove everything the cache holds. Returns (entries removed, bytes freed)."""
    removed = freed = 0
    for e in usage(Path(root)).entries:
        if _remove(e):
            removed, freed = removed + 1, freed + e.size
    return removed, freed


def megabytes(n: int) -> str:
    return f"{n / 1e6:.1f} MB"
