"""The API of two releases of one package and their diff, over unpacked folders.

Pure: reads two folders an artifact was unpacked into, runs nothing, asks no network. The API
model is the ecosystem's (``api_changes`` of ``depbot/ecosystems/<name>/``: griffe for Python
releases, ``package.json`` and tree-sitter for npm ones); ``join`` meets it with the code.
"""

from __future__ import annotations

import time
from pathlib import Path

from depbot import ecosystems
from depbot.apidiff import stored
from depbot.records.api import ApiChange, ApiDiff, Deprecation

__all__ = ["ApiChange", "ApiDiff", "Deprecation", "diff_releases"]


def diff_releases(
    ecosystem: str,
    old_root: Path,
    new_root: Path,
    *,
    old_label: str = "old",
    new_label: str = "new",
    companions: dict[str, Path] | None = None,
    foreign: dict[str, dict[str, Path]] | None = None,
    cache_dir: Path | None = None,
) -> ApiDiff:
    """Breaking changes and deprecations between two unpacked releases of one package;
    ``companions``: "old"/"new" -> an unpacked companion release (npm: ``@types/<name>``);
    ``foreign``: "old"/"new" -> the unpacked packages each re-exports wholesale, by name.
    With ``cache_dir``, a diff made before from the same artifacts by the same model is read
    back (``stored``), and a new one kept."""
    k = ""
    if cache_dir is not None and Path(old_root).is_dir() and Path(new_root).is_dir():
        k = stored.key(ecosystem, Path(old_root), Path(new_root), companions or {}, foreign or {})
        kept = stored.load(cache_dir, k)
        if kept is not None:
            return kept
    diff = _diff(ecosystem, old_root, new_root, old_label, new_label, companions, foreign)
    if k:  # what the two artifacts (and the model) decide, notes included: kept as made
        stored.save(cache_dir, k, diff)  # type: ignore[arg-type]
    return diff


def _diff(
    ecosystem: str,
    old_root: Path,
    new_root: Path,
    old_label: str,
    new_label: str,
    companions: dict[str, Path] | None,
    foreign: dict[str, dict[str, Path]] | None,
) -> ApiDiff:
    diff = ApiDiff(
        ecosystem, old_label, new_label, companions=dict(companions or {}),
        foreign={side: dict(roots) for side, roots in (foreign or {}).items()},
    )  # fmt: skip
    started = time.perf_counter()
    old_root, new_root = Path(old_root), Path(new_root)
    for root, label in ((old_root, old_label), (new_root, new_label)):
        if not root.is_dir():
            diff.notes.append(f"{label}: no unpacked release at {root.name}")
    if diff.notes:
        return diff
    eco = ecosystems.find(ecosystem)
    if eco is None:
        diff.notes.append(f"{ecosystem}: no API model for this ecosystem")
    else:
        eco.api_changes(old_root, new_root, diff)
    diff.stats["seconds"] = round(time.perf_counter() - started, 3)
    return diff
