"""A release that is files of a GitHub repository at a tag (GitHub Actions: ``action.yml``).

The ecosystem says which repository, which commit (the tag's) and which files
(``Ecosystem.release_files``); they are read through the GitHub client, like any file of a
repository depbot reads, bounded in size (``MAX_BYTES``) and kept at
``unpacked/repo-<hash of repository, commit and files>/<file name>``: a commit never changes,
so a warm run reads nothing. A file path is the ecosystem's, checked here to stay a
relative path with no ``..``.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path, PurePosixPath

from depbot.artifacts.unpack import made_once
from depbot.core.cachedir import touch
from depbot.core.errors import UpstreamError
from depbot.core.net import Http
from depbot.core.settings import Settings
from depbot.github.client import GitHubClient

MAX_BYTES = 256_000  # an action's metadata is a few kB; a bigger one is not its metadata


class RepoFileError(Exception):
    """Why a release's files could not be had, in one line, with the UpstreamError kind
    ("" when no upstream failed)."""

    def __init__(self, reason: str, kind: str = "") -> None:
        super().__init__(reason)
        self.reason, self.kind = reason, kind


def _safe(path: str) -> bool:
    p = PurePosixPath(path)
    return bool(path) and not p.is_absolute() and ".." not in p.parts and "\\" not in path


def read_release(
    http: Http,
    settings: Settings,
    root: Path,
    label: str,
    repo: str,
    ref: str,
    paths: tuple[str, ...],
    clock: dict[str, float],
) -> Path:
    """The folder holding the first of ``paths`` found at ``ref``; raises ``RepoFileError``."""
    if not all(_safe(p) for p in paths):
        raise RepoFileError(f"{label}: refused a file path outside the repository", "refused")
    key = hashlib.sha256("\n".join([repo.lower(), ref, *paths]).encode()).hexdigest()
    final = root / "unpacked" / f"repo-{key}"
    if final.is_dir():
        touch(final)
        return final
    immutable = len(ref) == 40 and all(c in "0123456789abcdef" for c in ref.lower())
    client = GitHubClient(settings, http)
    started = time.perf_counter()
    try:
        for path in paths:
            try:
                text, _ = client.read_file(repo, path, ref=ref, immutable=immutable)
            except UpstreamError as exc:
                if exc.kind == "not_found":
                    continue
                raise RepoFileError(
                    f"{label}: {path} could not be read ({exc})", exc.kind
                ) from None
            data = text.encode("utf-8")
            if len(data) > MAX_BYTES:
                raise RepoFileError(f"{label}: {path} is over {MAX_BYTES // 1000} kB; not read")
            return _keep(final, PurePosixPath(path).name, data)
    finally:
        clock["download"] = clock.get("download", 0.0) + time.perf_counter() - started
    raise RepoFileError(f"{label}: no {' or '.join(paths)} in {repo} at {ref[:12]}")


def _keep(final: Path, name: str, data: bytes) -> Path:
    def fill(tmp: Path) -> None:
        (tmp / name).write_bytes(data)

    return made_once(final, ".tmp-repo-", fill)
