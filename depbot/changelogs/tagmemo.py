"""Which tag of a repository a release is: "repository R has version V of package P at tag T".

The answer is read from a mutable list (the releases or the tags of the repository), but once
a tag for a version is found it does not change (a release tag is not moved), so it is kept
for good beside the HTTP cache, in ``<cache_dir>/release_tags.json``: a warm run reads the
notes at the tag (immutable there) without listing releases or tags again. Without a cache
folder the memo lives for the process only. Safe to share between threads; a file that
cannot be read or written is ignored (the memo is an optimisation, never a source of notes).
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

__all__ = ["TAG_MEMO_FILE", "TagMemo"]

TAG_MEMO_FILE = "release_tags.json"
_SCHEMA = 1


def _key(repo: str, eco: str, package: str, version: str) -> str:
    return f"{repo.strip().lower()} {eco}:{package.strip().lower()}@{version.strip()}"


class TagMemo:
    """``get``/``put`` of release tags, kept in ``cache_dir`` (None: in memory only)."""

    def __init__(self, cache_dir: Path | None) -> None:
        self.path = Path(cache_dir) / TAG_MEMO_FILE if cache_dir is not None else None
        self._lock = threading.Lock()
        self._tags: dict[str, str] | None = None

    def _load(self) -> dict[str, str]:
        if self._tags is None:
            self._tags = self._read_file()
        return self._tags

    def _read_file(self) -> dict[str, str]:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        tags = (
            data.get("tags") if isinstance(data, dict) and data.get("schema") == _SCHEMA else None
        )
        if not isinstance(tags, dict):
            return {}
        return {k: v for k, v in tags.items() if isinstance(k, str) and isinstance(v, str)}

    def get(self, repo: str, eco: str, package: str, version: str) -> str | None:
        """The tag remembered for ``version`` of ``package`` in ``repo``, or None."""
        with self._lock:
            return self._load().get(_key(repo, eco, package, version))

    def put(self, repo: str, eco: str, package: str, version: str, tag: str) -> None:
        """Remember ``tag``; written through to the file (merged with what another process
        wrote meanwhile), atomically."""
        key = _key(repo, eco, package, version)
        with self._lock:
            tags = self._load()
            if tags.get(key) == tag:
                return
            tags[key] = tag
            if self.path is None:
                return
            merged = {**self._read_file(), **tags}
            self._tags = merged
            tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.{threading.get_ident()}")
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                tmp.write_text(json.dumps({"schema": _SCHEMA, "tags": merged}), encoding="utf-8")
                os.replace(tmp, self.path)
            except OSError:
                tmp.unlink(missing_ok=True)
