"""Download an artifact through ``depbot.core.net.Http``, verify its digest, keep it by digest.

Kept at ``<root>/artifacts/<algo>/<hex>``: a warm run finds the file, checks its digest and
downloads nothing. The download goes through the run's ``Http`` (its breaker, deadline, retry
listener and counts) with the size cap ``max_artifact_bytes`` for this answer, and is not
stored in the HTTP cache: the digest cache keeps the bytes.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from depbot.artifacts.select import Choice, Digest
from depbot.core.cache import UNCACHED
from depbot.core.cachedir import touch
from depbot.core.net import Http
from depbot.core.settings import Settings


class DownloadError(Exception):
    """Why an artifact could not be had, in one line."""


def artifact_path(root: Path, digest: Digest) -> Path:
    return root / "artifacts" / digest.algo / digest.hex


def digest_of_file(path: Path, algo: str) -> str:
    h = hashlib.new(algo)
    with open(path, "rb") as fh:
        while chunk := fh.read(1024 * 1024):
            h.update(chunk)
    return h.hexdigest()


def obtain(http: Http, settings: Settings, choice: Choice, root: Path) -> Path:
    """The verified artifact on disk: from the digest cache, else downloaded.

    Raises ``DownloadError`` (size, digest) and ``UpstreamError`` (the network).
    """
    path = artifact_path(root, choice.digest)
    if path.is_file():
        if digest_of_file(path, choice.digest.algo) == choice.digest.hex:
            touch(path)  # its last use, for the cache's eviction (core/cachedir.py)
            return path
        path.unlink(missing_ok=True)  # damaged in the cache: fetch it again
    cap = settings.max_artifact_bytes
    if choice.size is not None and choice.size > cap:
        raise DownloadError(f"{choice.size} bytes, over max_artifact_bytes ({cap})")
    resp = http.get(
        choice.url,
        what=f"download of {choice.filename}",
        category="artifact",
        cache=UNCACHED,  # kept by digest below, not twice
        max_bytes=cap,
    )
    got = hashlib.new(choice.digest.algo, resp.content).hexdigest()
    if got != choice.digest.hex:
        raise DownloadError(
            f"digest mismatch: the registry says {choice.digest.algo} "
            f"{choice.digest.hex[:16]}…, the download has {got[:16]}…"
        )
    _write_atomic(path, resp.content)
    return path


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
