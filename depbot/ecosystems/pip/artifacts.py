"""Which released file of a pip version to read, and which of its members to keep. Pure.

The choice, from the package index JSON (``releases[<v>]``, or ``urls`` of a per-version
document): a pure-Python wheel if any, else any wheel, else the sdist, each with the sha256
to verify it by. The members kept (wheel: as is; sdist: without its top folder, and without
``src/``): ``*.py``, ``*.pyi``, ``py.typed``; not ``setup.py``/``conftest.py``/``noxfile.py``
at the top of an sdist, nor its top-level ``docs``, ``examples``, ``benchmarks`` folders.
"""

from __future__ import annotations

import re
from typing import Any

from depbot.records.artifact import Choice, Digest, NoArtifact, url_name

_TOP_SKIP_FILES = frozenset({"setup.py", "conftest.py", "noxfile.py"})
_TOP_SKIP_DIRS = frozenset({"docs", "doc", "examples", "benchmarks"})
_FILE = re.compile(r"^(?:.+\.pyi?|py\.typed)$")


def choose(document: dict[str, Any], version: str) -> Choice | NoArtifact:
    """The artifact of ``version`` named by the index ``document``, or why there is none."""
    return _choose(_files(document, version), version)


def _files(document: dict[str, Any], version: str) -> list[dict[str, Any]]:
    releases = document.get("releases")
    files: Any = releases.get(version) if isinstance(releases, dict) else None
    if files is None:
        info = document.get("info")
        if isinstance(info, dict) and str(info.get("version")) == version:
            files = document.get("urls")
    return [f for f in files or [] if isinstance(f, dict)] if isinstance(files, list) else []


def wheel_tags(filename: str) -> tuple[str, str, str] | None:
    """(python, abi, platform) tags of a wheel file name, or None if it is not one."""
    if not filename.endswith(".whl"):
        return None
    parts = filename[: -len(".whl")].split("-")
    return (parts[-3], parts[-2], parts[-1]) if len(parts) >= 5 else None


def _pure(filename: str) -> bool:
    tags = wheel_tags(filename)
    return bool(tags and tags[1] == "none" and tags[2] == "any" and "py3" in tags[0].split("."))


def _is_sdist(entry: dict[str, Any], filename: str) -> bool:
    return entry.get("packagetype") == "sdist" or filename.endswith((".tar.gz", ".zip", ".tgz"))


def _choose(files: list[dict[str, Any]], version: str) -> Choice | NoArtifact:
    usable = [f for f in files if isinstance(f.get("url"), str) and f.get("url")]
    if not usable:
        return NoArtifact(f"the package index lists no files for {version}")
    ranked: list[tuple[int, dict[str, Any], str]] = []
    for f in usable:
        name = str(f.get("filename") or url_name(str(f["url"])))
        rank = 0 if _pure(name) else 1 if wheel_tags(name) else 2 if _is_sdist(f, name) else 9
        if rank < 9:
            ranked.append((rank, f, name))
    if not ranked:
        return NoArtifact(f"the package index lists no wheel or sdist for {version}")
    ranked.sort(key=lambda t: t[0])
    for rank, f, name in ranked:
        digests = f.get("digests")
        sha = digests.get("sha256") if isinstance(digests, dict) else None
        if isinstance(sha, str) and re.fullmatch(r"[0-9a-fA-F]{64}", sha):
            size = f.get("size") if isinstance(f.get("size"), int) else None
            kind = "sdist" if rank == 2 else "wheel"
            return Choice(str(f["url"]), name, kind, Digest("sha256", sha.lower()), size)
    return NoArtifact(f"the package index lists no sha256 digest for the files of {version}")


def keep(kind: str, parts: list[str]) -> str | None:
    """The path a member (its safe ``parts``) is kept at, or None when the API model needs none."""
    if kind == "sdist":
        parts = parts[1:]  # <name>-<version>/ of an sdist
        if parts[:1] == ["src"]:
            parts = parts[1:]
    if not parts:
        return None
    base = parts[-1]
    ok = bool(_FILE.match(base))
    if kind == "sdist":
        ok = ok and not (len(parts) == 1 and base in _TOP_SKIP_FILES)
        ok = ok and not (len(parts) > 1 and parts[0] in _TOP_SKIP_DIRS)
    return "/".join(parts) if ok else None
