"""Python lock files: uv.lock, poetry.lock, Pipfile.lock; and a pyproject.toml with its lock.

The parsers are pure (text in, canonical name → locked version out, plus warnings); a lock
that does not parse is one warning naming it and the declared ranges are used instead.
``read_pyproject_locks`` adds Poetry's (and uv's) own dependency tables to what
``scan.parse_pyproject_text`` read and puts the lock's versions on them: the lock beside the
pyproject.toml, else (a uv workspace member) the nearest uv.lock in a folder above it.
Only declared (direct) dependencies take a version; the rest of the lock is not a candidate.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from depbot.ecosystems.pip.poetry import parse_poetry
from depbot.ecosystems.reading import (
    apply_pip_lock,
    broken,
    highest,
    label_of,
    read_confined,
)
from depbot.ecosystems.table import canonical_name
from depbot.records.declared import Declared

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

LockVersions = tuple[dict[str, str], list[str]]


def _collect(pairs: Iterable[tuple[Any, Any]]) -> dict[str, str]:
    seen: dict[str, list[str]] = {}
    for name, version in pairs:
        if isinstance(name, str) and isinstance(version, str) and version:
            seen.setdefault(canonical_name("pip", name), []).append(version)
    out = {}
    for name, versions in seen.items():
        best = highest(versions)
        if best:
            out[name] = best
    return out


def _toml_packages(text: str, label: str, kind: str) -> LockVersions:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return {}, [broken(label, "TOML", exc) + "; lock ignored"]
    except RecursionError:
        return {}, [f"{label}: nested too deeply to be a {kind}; lock ignored"]
    packages = data.get("package", [])
    if not isinstance(packages, list):
        return {}, [f"{label}: [[package]] is not a list of tables; lock ignored"]
    rows = [p for p in packages if isinstance(p, dict)]
    return _collect((p.get("name"), p.get("version")) for p in rows if _from_index(p)), []


def _from_index(package: dict[str, Any]) -> bool:
    """uv.lock: the root project and workspace members (editable / virtual) are no candidates."""
    source = package.get("source")
    return not (isinstance(source, dict) and ({"editable", "virtual", "path"} & set(source)))


def parse_uv_lock(text: str, label: str = "uv.lock") -> LockVersions:
    """``[[package]] name / version`` of a uv.lock (the projects themselves left out)."""
    return _toml_packages(text, label, "uv.lock")


def parse_poetry_lock(text: str, label: str = "poetry.lock") -> LockVersions:
    """``[[package]] name / version`` of a poetry.lock."""
    return _toml_packages(text, label, "poetry.lock")


def parse_pipfile_lock(text: str, label: str = "Pipfile.lock") -> LockVersions:
    """``default`` and ``develop`` of a Pipfile.lock: ``"version": "==1.2.3"``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return {}, [f"{label}: not valid JSON (line {exc.lineno}: {exc.msg}); lock ignored"]
    except RecursionError:
        return {}, [f"{label}: nested too deeply to be a Pipfile.lock; lock ignored"]
    if not isinstance(data, dict):
        return {}, [f"{label}: not a JSON object; lock ignored"]
    pairs = []
    for section in ("default", "develop"):
        table = data.get(section)
        if not isinstance(table, dict):
            continue
        for name, meta in table.items():
            version = meta.get("version") if isinstance(meta, dict) else None
            if isinstance(version, str) and version.startswith("=="):
                pairs.append((name, version[2:].strip()))
    return _collect(pairs), []


LOCK_PARSERS = {"uv.lock": parse_uv_lock, "poetry.lock": parse_poetry_lock}


def _find_lock(path: Path, root: Path) -> tuple[Path | None, str]:
    """(the lock, "" beside the pyproject, else the member's folder relative to the lock's)."""
    folder = path.parent
    for name in ("uv.lock", "poetry.lock"):
        if (folder / name).is_file():
            return folder / name, ""
    base = Path(root).absolute()
    here = folder.absolute()
    while here != base and base in here.parents:
        here = here.parent
        if (here / "uv.lock").is_file():  # a uv workspace locks all its members at the root
            return here / "uv.lock", folder.absolute().relative_to(here).as_posix()
    return None, ""


def _lists_member(text: str, member: str) -> bool:
    """Whether a workspace's uv.lock has the member (``source = { editable = "<folder>" }``)."""
    return any(f'{kind} = "{member}"' in text for kind in ("editable", "virtual"))


def read_lock_beside(
    path: Path, root: Path, lock: Path, secret_files: Iterable[str], member: str = ""
) -> LockVersions:
    """One Python lock, read under the checkout's rule; problems are warnings. A workspace
    root's uv.lock that does not list ``member`` gives nothing (it is another project's)."""
    text, why = read_confined(root, lock, secret_files)
    if text is None:
        return {}, [f"{why}; lock ignored"]
    if member and not _lists_member(text, member):
        return {}, []
    parser = LOCK_PARSERS.get(lock.name, parse_pipfile_lock)
    return parser(text, label_of(root, lock))


def read_pyproject_locks(
    path: Path,
    root: Path,
    text: str,
    label: str,
    deps: list[Declared],
    secret_files: Iterable[str],
) -> tuple[list[Declared], list[str]]:
    """``deps`` (PEP 621 / PEP 735) plus Poetry's tables, with the lock's versions on them."""
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        data = {}  # parse_pyproject_text already said so
    extra, warnings = parse_poetry(data, label)
    have = {(canonical_name("pip", d.name), d.dependency_kind) for d in deps}
    deps = deps + [
        d for d in extra if (canonical_name("pip", d.name), d.dependency_kind) not in have
    ]
    lock, member = _find_lock(path, root)
    if lock is None or not deps:
        return deps, warnings
    locked, more = read_lock_beside(path, root, lock, secret_files, member)
    return apply_pip_lock(deps, locked), warnings + more
