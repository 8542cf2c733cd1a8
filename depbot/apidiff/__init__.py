"""The API of two releases of one package and their diff, over unpacked folders.

Pure: reads two folders an artifact was unpacked into, runs nothing, asks no network.
Python releases go through griffe (``python_api``), npm releases through their
``package.json`` and tree-sitter (``npm_api``).
"""

from __future__ import annotations

import time
from pathlib import Path

from depbot import ecosystems
from depbot.apidiff.npm_api import npm_changes, read_package
from depbot.apidiff.python_api import python_changes
from depbot.apidiff.records import ApiChange, ApiDiff, Deprecation

__all__ = ["ApiChange", "ApiDiff", "Deprecation", "diff_releases"]


def diff_releases(
    ecosystem: str,
    old_root: Path,
    new_root: Path,
    *,
    old_label: str = "old",
    new_label: str = "new",
) -> ApiDiff:
    """Breaking changes and deprecations between two unpacked releases of one package."""
    diff = ApiDiff(ecosystem, old_label, new_label)
    started = time.perf_counter()
    old_root, new_root = Path(old_root), Path(new_root)
    for root, label in ((old_root, old_label), (new_root, new_label)):
        if not root.is_dir():
            diff.notes.append(f"{label}: no unpacked release at {root.name}")
    if diff.notes:
        return diff
    eco = ecosystems.find(ecosystem)
    language = eco.language if eco else None
    if language == "python":
        diff.changes, diff.deprecated = python_changes(old_root, new_root, diff.notes, diff.stats)
    elif language == "javascript":
        old = read_package(old_root, old_label, diff.notes)
        new = read_package(new_root, new_label, diff.notes)
        diff.changes = npm_changes(old, new, diff.notes)
    else:
        diff.notes.append(f"{ecosystem}: no API model for this ecosystem")
    diff.stats["seconds"] = round(time.perf_counter() - started, 3)
    return diff
