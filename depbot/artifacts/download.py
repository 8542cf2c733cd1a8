"""Download an artifact through ``depbot.core.net.Http``, verify its digest, keep it by digest.

Kept at ``<root>/artifacts/<algo>/<hex>``: a warm run finds the file, checks its digest and
downloads nothing. The download goes through a companion ``Http`` of the caller's (same
settings, breaker, deadline and retry listener; the response cap raised to
``max_artifact_bytes``; no HTTP cache, since the digest cache keeps the bytes).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
import weakref
from pathlib import Path

from depbot.artifacts.select import Choice, Digest
from depbot.core.net import Http
from depbot.core.settings import Settings

_companions: weakref.WeakKeyDictionary[Http, Http] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


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


def companion(http: Http, settings: Settings) -> Http:
    """The ``Http`` artifacts are downloaded with (made once per ``http``)."""
    with _lock:
        other = _companions.get(http)
        if other is None or other.settings.max_response_bytes != settings.max_artifact_bytes:
            changed = http.settings.replace(
                max_response_bytes=settings.max_artifact_bytes, cache_dir=None
            )
            other = Http(changed)
            other.breaker = http.breaker  # a host marked down is down for both
            _companions[http] = other
    other.stderr = http.stderr
    other.on_retry = http.on_retry
    other.set_deadline(http.deadline)
    return other


def obtain(http: Http, settings: Settings, choice: Choice, root: Path) -> Path:
    """The verified artifact on disk: from the digest cache, else downloaded.

    Raises ``DownloadError`` (size, digest) and ``UpstreamError`` (the network).
    """
    path = artifact_path(root, choice.digest)
    if path.is_file():
        if digest_of_file(path, choice.digest.algo) == choice.digest.hex:
            return path
        path.unlink(missing_ok=True)  # damaged in the cache: fetch it again
    cap = settings.max_artifact_bytes
    if choice.size is not None and choice.size > cap:
        raise DownloadError(f"{choice.size} bytes, over max_artifact_bytes ({cap})")
    resp = companion(http, settings).get(
        choice.url, what=f"download of {choice.filename}", category="artifact"
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
