"""The released code of a version: its artifact downloaded, verified, unpacked safely, cached.

``fetch_release(http, settings, "pip", "urllib3", "2.0.7")`` gives ``ReleaseFiles`` (the
unpacked folder, trimmed to what the API models read) or a one-line ``Problem``; it never
raises for an upstream or artifact failure. Static only: nothing of the artifact is
installed, imported or run. Layout of the cache (``settings.cache_dir``, else a temporary
folder for the process)::

    artifacts/<algo>/<hex>     the verified artifact, named by its digest
    unpacked/<hex>/            its kept files (see keep.py), made once
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urljoin

from depbot import ecosystems
from depbot.artifacts.download import DownloadError, obtain
from depbot.artifacts.repofiles import RepoFileError, read_release
from depbot.artifacts.select import Choice, NoArtifact, choose
from depbot.artifacts.unpack import Budget, UnpackError, archive_format, unpack_cached
from depbot.core.errors import UpstreamError
from depbot.core.net import Http
from depbot.core.settings import Settings
from depbot.updates.registries import Registries

__all__ = ["Problem", "ReleaseFiles", "cache_root", "fetch_release"]

_tmp_root: Path | None = None
_tmp_lock = threading.Lock()


@dataclass(frozen=True)
class ReleaseFiles:
    root: Path  # the unpacked folder
    artifact: str  # e.g. "urllib3-2.0.7 wheel"
    files: int  # files kept in it


@dataclass(frozen=True)
class Problem:
    reason: str  # one line, no stack trace
    kind: str = ""  # the UpstreamError kind when an upstream failed ("refused", "timeout", …)


def cache_root(settings: Settings) -> Path:
    """Where artifacts are kept: the cache folder, else one temporary folder per process."""
    global _tmp_root
    if settings.cache_dir is not None:
        return Path(settings.cache_dir)
    with _tmp_lock:
        if _tmp_root is None:
            _tmp_root = Path(tempfile.mkdtemp(prefix="depbot-artifacts-"))
            atexit.register(shutil.rmtree, _tmp_root, True)
        return _tmp_root


def fetch_release(
    http: Http,
    settings: Settings,
    ecosystem: str,
    package: str,
    version: str,
    *,
    registries: Registries | None = None,
    clock: dict[str, float] | None = None,
) -> ReleaseFiles | Problem:
    """The unpacked released code of ``package`` ``version``, or why it cannot be had.

    ``registries``: the run's instance, so the metadata it has read is not asked again;
    ``clock``: seconds spent are added to it by stage (``registry``, ``download``, ``unpack``).
    """
    where = f"{package} {version}"
    registries = registries or Registries(settings, http)
    clock = {} if clock is None else clock
    started = time.perf_counter()
    try:
        document = registries.document(ecosystem, package)
    except UpstreamError as exc:
        return Problem(f"{where}: no registry metadata ({exc})", exc.kind)
    except ValueError as exc:  # an unknown ecosystem
        return Problem(f"{where}: {exc}")
    finally:
        _tick(clock, "registry", started)
    from_repository = ecosystems.get(ecosystem).release_files(document, package, version)
    if from_repository is not None:  # a tag of a repository (an action), not an artifact
        return _from_repository(http, settings, package, version, from_repository, clock)
    choice = choose(ecosystem, document, version)
    if isinstance(choice, NoArtifact):
        return Problem(f"{where}: {choice.reason}")
    # indexes and mirrors may list files relative to the metadata (``../../packages/…``)
    choice = replace(choice, url=urljoin(registries.metadata_url(ecosystem, package), choice.url))
    return _fetch(http, settings, ecosystem, package, version, choice, clock)


def _from_repository(
    http: Http,
    settings: Settings,
    package: str,
    version: str,
    release: tuple[str, str, tuple[str, ...]],
    clock: dict[str, float],
) -> ReleaseFiles | Problem:
    repo, ref, paths = release
    label = f"{package}@{version} {paths[0].rsplit('/', 1)[-1] if paths else 'files'}"
    if not ref or not paths:
        return Problem(f"{package} {version}: no tag of {repo} names this version")
    try:
        folder = read_release(http, settings, cache_root(settings), label, repo, ref, paths, clock)
    except RepoFileError as exc:
        return Problem(exc.reason, exc.kind)
    except OSError as exc:  # the cache folder: disk full, permissions
        return Problem(f"{label}: could not write the cache ({exc.strerror or exc})")
    return ReleaseFiles(folder, label, 1)  # one metadata file


def _tick(clock: dict[str, float], stage: str, since: float) -> float:
    """Add the seconds since ``since`` to ``clock[stage]``; the time now."""
    now = time.perf_counter()
    clock[stage] = clock.get(stage, 0.0) + (now - since)
    return now


def _fetch(
    http: Http,
    settings: Settings,
    ecosystem: str,
    package: str,
    version: str,
    choice: Choice,
    clock: dict[str, float],
) -> ReleaseFiles | Problem:
    label = choice.label(package, version)
    fmt = archive_format(choice.filename)
    if fmt is None:
        return Problem(f"{label}: {choice.filename} is not a zip or tar archive")
    root = cache_root(settings)
    budget = Budget(settings.max_unpacked_bytes, settings.max_members)
    started, stage = time.perf_counter(), "download"
    try:
        archive = obtain(http, settings, choice, root)
        started, stage = _tick(clock, "download", started), "unpack"
        kind = (ecosystem, choice.kind)
        folder, count = unpack_cached(archive, fmt, root, choice.digest.hex, kind, budget)
    except UpstreamError as exc:
        return Problem(f"{label}: download failed ({exc})", exc.kind)
    except (DownloadError, UnpackError) as exc:
        return Problem(f"{label}: {exc}")
    except OSError as exc:  # the cache folder: disk full, permissions
        return Problem(f"{label}: could not write the cache ({exc.strerror or exc})")
    finally:
        _tick(clock, stage, started)
    return ReleaseFiles(folder, label, count)
