"""A package.json with its lock: the one beside it, or its workspace root's.

npm / yarn workspaces list their folders in the root package.json (``"workspaces": [...]`` or
``{"packages": [...]}``), pnpm in ``pnpm-workspace.yaml`` (``packages:``); each member's
package.json is found by ``scan.find_manifests`` like any other and declares its own direct
dependencies (its ``manifest`` is its own path); their versions come from the one lock at the
workspace root. ``read_package_json`` finds that lock: the first of ``LOCK_NAMES`` beside the
package.json, else in the nearest folder above whose workspace globs match this folder.
Every file goes through ``reading.read_confined``; a lock that cannot be read or parsed is one
warning and the declared ranges are used.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from depbot.core.confine import relative_to
from depbot.ecosystems.npm.locks import parse_npm_lock
from depbot.ecosystems.npm.package_json import parse_package_json_text
from depbot.ecosystems.reading import label_of, read_confined
from depbot.records.declared import Declared

LOCK_NAMES = ("npm-shrinkwrap.json", "package-lock.json", "pnpm-lock.yaml", "yarn.lock")
_MAX_GLOBS = 200


def glob_regex(pattern: str) -> re.Pattern[str] | None:
    """A workspace glob (``packages/*``, ``apps/**``, ``./libs/?x``) as an anchored regex."""
    pattern = pattern.strip().removeprefix("./").rstrip("/")
    if not pattern or len(pattern) > 300:
        return None
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            if pattern.startswith("/", i):
                out[-1] = "(?:[^/]+/)*"
                i += 1
            continue
        ch = pattern[i]
        out.append("[^/]*" if ch == "*" else "[^/]" if ch == "?" else re.escape(ch))
        i += 1
    return re.compile("".join(out) + r"\Z")


def workspace_globs(package_json: Any) -> list[str]:
    """The ``workspaces`` globs of a loaded root package.json (or pnpm-workspace.yaml)."""
    if not isinstance(package_json, dict):
        return []
    spaces = package_json.get("workspaces", package_json.get("packages"))
    if isinstance(spaces, dict):
        spaces = spaces.get("packages")
    if not isinstance(spaces, list):
        return []
    return [g for g in spaces[:_MAX_GLOBS] if isinstance(g, str)]


def is_member(folder: str, globs: Iterable[str]) -> bool:
    """Whether ``folder`` (relative to the workspace root) is matched by the globs, and by
    no ``!negated`` one."""
    matched = False
    for glob in globs:
        negated = glob.startswith("!")
        regex = glob_regex(glob[1:] if negated else glob)
        if regex is not None and regex.match(folder):
            if negated:
                return False
            matched = True
    return matched


def _globs_of(folder: Path, root: Path, secret_files: Iterable[str]) -> list[str]:
    globs: list[str] = []
    for name, load in (("package.json", json.loads), ("pnpm-workspace.yaml", yaml.safe_load)):
        path = folder / name
        if not path.is_file():
            continue
        text, _ = read_confined(root, path, secret_files)
        try:
            globs += workspace_globs(load(text)) if text is not None else []
        except (ValueError, yaml.YAMLError, RecursionError):
            continue  # the root's own reading reports it
    return globs


def find_npm_lock(path: Path, root: Path, secret_files: Iterable[str]) -> tuple[Path | None, str]:
    """(the lock for this package.json, its folder relative to the lock's folder)."""
    folder = path.parent
    for name in LOCK_NAMES:
        if (folder / name).is_file():
            return folder / name, "."
    base = Path(root).absolute()
    here = folder.absolute()
    while here != base and base in here.parents:
        here = here.parent
        locks = [here / n for n in LOCK_NAMES if (here / n).is_file()]
        if locks:
            member = folder.absolute().relative_to(here).as_posix()
            if is_member(member, _globs_of(here, root, secret_files)):
                return locks[0], member
            return None, "."  # a lock above that does not list this folder: not its lock
    return None, "."


_MAX_MEMBERS = 2000


def _package_jsons(folder: Path) -> list[Path]:
    """Every package.json below ``folder``, sorted; installed packages (node_modules) are
    not walked into."""
    found = []
    for current, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "node_modules"]
        if "package.json" in files:
            found.append(Path(current) / "package.json")
    return sorted(found)


def member_packages(
    folder: Path, root: Path, secret_files: Iterable[str], memo: dict[Path, Any] | None = None
) -> dict[str, str]:
    """name → folder (relative to the checkout) of every package of the workspace whose root
    is ``folder`` (its own package.json included); {} when ``folder`` is no workspace root.
    ``memo``: one scan's answers by folder (each member of a workspace asks the same)."""
    if memo is not None and folder in memo:
        return memo[folder]
    globs = _globs_of(folder, root, secret_files)
    out: dict[str, str] = {}
    if memo is not None:
        memo[folder] = out
    if not globs:
        return out
    seen = 0
    for pj in _package_jsons(folder):
        rel = pj.parent.relative_to(folder).as_posix()
        if not (rel == "." or is_member(rel, globs)):
            continue
        seen += 1
        if seen > _MAX_MEMBERS:
            break
        text, _ = read_confined(root, pj, secret_files)
        try:
            name = json.loads(text).get("name") if text is not None else None
        except (ValueError, AttributeError, RecursionError):
            continue  # its own reading reports it
        if isinstance(name, str) and name:
            out.setdefault(name, relative_to(root, pj.parent) or rel)
    return out


def read_package_json(
    path: Path,
    root: Path,
    text: str,
    label: str,
    secret_files: Iterable[str],
    memo: dict[Path, Any] | None = None,
) -> tuple[list[Declared], list[str]]:
    """A package.json's dependencies with the versions of its lock (beside or workspace root);
    a dependency on a package of its own workspace is linked, not a registry update."""
    lock, importer = find_npm_lock(path, root, secret_files)
    if lock is None:
        return parse_package_json_text(text, label)
    own = member_packages(lock.parent, root, secret_files, memo)
    lock_text, why = read_confined(root, lock, secret_files)
    if lock_text is None:
        deps, notes = parse_package_json_text(text, label, workspace=own)
        return deps, [f"{why}; lock ignored", *notes]
    lock_label = relative_to(root, lock) or label_of(root, lock)
    if importer == "." and lock.name.endswith(".json"):
        return parse_package_json_text(text, label, lock_text, lock_label, workspace=own)
    parsed, warnings = parse_npm_lock(lock.name, lock_text, lock_label, importer)
    deps, notes = parse_package_json_text(text, label, locked=parsed.version, workspace=own)
    return deps, warnings + notes


def root_globs(repo: Path, root: str) -> list[str]:
    """The workspace globs of ``root``'s package.json and pnpm-workspace.yaml ([] if none)."""
    globs: list[str] = []
    for name, load in (("package.json", json.loads), ("pnpm-workspace.yaml", yaml.safe_load)):
        path = repo / root / name
        if not path.is_file():
            continue
        text, _ = read_confined(repo, path, ())
        try:
            globs += workspace_globs(load(text)) if text is not None else []
        except (ValueError, yaml.YAMLError, RecursionError):
            continue  # reading the manifests reports it
    return globs
