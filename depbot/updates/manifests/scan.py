"""Manifests to declared dependencies: find each ecosystem's manifests and read them.

Which files are manifests and how each reads is the ecosystem's (``is_manifest`` and
``read_manifest`` of ``depbot/ecosystems/<name>/manifests.py``: requirements files,
pyproject.toml, Pipfile, setup.cfg/setup.py for pip; package.json and its locks for npm).
Here: ``find_manifests`` walks the checkout, ``read_manifest`` reads one under the
checkout's rule.

What is fatal and what is skipped
---------------------------------
Manifests stay inside the checkout: a manifest, lock or ``-r``/``-c`` file that is a
symbolic link (or lies in a linked folder) leaving it, or that links to a file that may hold
secrets, is never read (``core.confine``, the code search's rule); a refused manifest is one
warning naming its path, and the others are read. No message quotes more of a file than a
short, redacted excerpt (``core.redact.excerpt``).

A manifest depbot cannot read is an ``InputError`` (exit code 2) naming the file and line,
because every later answer would rest on a guess:

- a file that is not UTF-8, not valid TOML / JSON, or of the wrong shape
  (``dependencies`` not a list / an object, a version that is not a string);
- a requirements line that is neither an option, a URL / path nor a PEP 508 requirement
  (``requests=>2``), an option without its argument, a ``-r`` / ``-c`` file that does not exist.

A valid entry that depbot cannot check against a registry is skipped with a warning:
editable installs, URLs, VCS and local paths, ``name @ url`` references, unknown pip
options, includes that leave the repository, npm ``workspace:``/``file:``/``git+``/GitHub
shorthand specs, and npm dist-tags (``latest``) with no lock entry. A malformed
``package-lock.json`` is a warning too: the declared ranges are still usable.

Broken lock files and broken files of the other formats (Poetry, Pipfile, setup.cfg, yarn
and pnpm locks) are one warning naming the file; a requirement with no pin, no lock and no
upper bound is a note (``ecosystems.reading.unlocked_notes``).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

from depbot import ecosystems
from depbot.core.confine import SECRET_FLOOR, refusal, relative_to
from depbot.core.settings import Settings
from depbot.ecosystems.reading import relative, unlocked_notes
from depbot.records.declared import Declared


def spec_lower_bound(ecosystem: str, spec: str) -> str | None:
    """The lowest version a range names (``>=2.28,<3`` → 2.28); a plain version is itself."""
    return ecosystems.get(ecosystem).lower_bound(spec)


def _is_manifest(path: Path) -> bool:
    return any(eco.is_manifest(path) for eco in ecosystems.ECOSYSTEMS.values())


# the one hidden folder that holds manifests: GitHub's workflows (``.github/workflows``)
GITHUB_DIR = ".github"
# build output never declares the project's dependencies, though its code may be searched
OUTPUT_DIRS = ("build",)


def find_manifests(root: Path, settings: Settings) -> list[Path]:
    """Every manifest of a registered ecosystem under ``root`` (requirements*.txt,
    pyproject.toml, Pipfile, setup.cfg, setup.py, package.json ...), sorted.

    Skips ``settings.exclude_dirs`` (node_modules, virtualenvs, build output, ...), hidden
    folders and, when ``settings.skip_env_dirs``, any folder holding a ``pyvenv.cfg``.
    """
    excluded = {d.lower() for d in settings.exclude_dirs} | set(OUTPUT_DIRS)
    found: list[Path] = []
    for current, dirs, files in os.walk(root):
        here = Path(current)
        dirs[:] = sorted(
            d
            for d in dirs
            if d.lower() not in excluded
            and (not d.startswith(".") or d == GITHUB_DIR)
            and not (settings.skip_env_dirs and (here / d / "pyvenv.cfg").exists())
        )
        for name in sorted(files):
            path = here / name
            if _is_manifest(path):
                found.append(path)
    skip = tuple(p.strip("/") + "/" for p in settings.manifest_exclude if p.strip("/"))
    found = [p for p in found if not p.relative_to(root).as_posix().startswith(skip)]
    if settings.respect_gitignore:
        found = _not_ignored(root, found)
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def _ignored_itself(root: Path) -> bool:
    """Whether git ignores the folder ``root`` itself (it lies in an ignored folder of an
    enclosing repository, as a fetched checkout under a project's build folder)."""
    try:
        done = subprocess.run(["git", "-C", str(root), "check-ignore", "-q", "--", "."],
                              capture_output=True, timeout=30)  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def _not_ignored(root: Path, paths: list[Path]) -> list[Path]:
    """Drop the paths git ignores (when ``root`` is a git checkout and git is installed)."""
    if not paths:
        return paths
    rels = [p.relative_to(root).as_posix() for p in paths]
    if _ignored_itself(root):  # a checkout kept in a folder another repository ignores:
        return paths  # that repository's rules are not this checkout's
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "check-ignore", "--stdin", "-z"],
            input="\0".join(rels) + "\0",
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return paths
    if done.returncode not in (0, 1):  # 128: not a git checkout
        return paths
    ignored = set(filter(None, done.stdout.split("\0")))
    return [p for p, rel in zip(paths, rels, strict=True) if rel not in ignored]


def read_manifest(
    path: Path,
    root: Path,
    secret_files: tuple[str, ...] = SECRET_FLOOR,
    memo: dict[Path, Any] | None = None,
) -> tuple[list[Declared], list[str]]:
    """Parse one manifest found by ``find_manifests`` with its lock (``_read_one``), and
    note each pip requirement that has neither a pin, a lock nor an upper bound. ``memo``:
    what one scan learns once for many manifests (a workspace's member packages)."""
    deps, notes = _read_one(path, root, secret_files, memo)
    return deps, notes + [n for n in unlocked_notes(deps) if n not in notes]


def _read_one(
    path: Path,
    root: Path,
    secret_files: tuple[str, ...] = SECRET_FLOOR,
    memo: dict[Path, Any] | None = None,
) -> tuple[list[Declared], list[str]]:
    """Parse one manifest and its lock, by the ecosystem whose manifest it is.

    A manifest that may not be read (a link leaving the checkout, a secret file: see
    ``core.confine.refusal``) gives no dependencies and one warning naming its path."""
    rel = relative_to(root, path)
    why = refusal(root, rel, secret_files) if rel else "it is not inside the checkout"
    if why:
        return [], [f"{rel or path.name}: not read: {why}"]
    label = relative(path, root) or rel
    eco = next((e for e in ecosystems.ECOSYSTEMS.values() if e.is_manifest(path)), None)
    if eco is None:
        return [], [f"{label}: not read: no ecosystem depbot reads keeps its manifests so"]
    return eco.read_manifest(path, root, label, secret_files, memo)


__all__ = ["find_manifests", "read_manifest", "spec_lower_bound"]
