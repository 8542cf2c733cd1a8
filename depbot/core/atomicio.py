"""Crash-safe file writes: a reader sees the old file or the new one, never half of either.

Used for report.json, the drafts and their review state, so a run killed at any moment
leaves every file whole.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from depbot.core.fence import shown


def atomic_write_text(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file in the same folder.

    The temporary file is flushed and fsynced, then renamed over ``path`` with
    ``os.replace`` (atomic on POSIX and Windows when both are on one file system).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(shown(text, json_text=target.suffix == ".json"))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(target.parent)
    return target


def atomic_write_json(path: str | Path, data: Any) -> Path:
    """``atomic_write_text`` of ``data`` as indented JSON with a final newline."""
    return atomic_write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable (best effort; not every platform allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def sha256_text(text: str) -> str:
    """Hex SHA-256 of ``text`` encoded as UTF-8."""
    return hashlib.sha256(shown(text).encode("utf-8")).hexdigest()
