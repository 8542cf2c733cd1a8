"""Diffs kept on disk (#30): the API diff of two released artifacts is derived once.

A diff is keyed by the ecosystem, the two unpacked folders' names (the artifacts' digests:
content-addressed), those of the companions and re-exported packages it read, and the API
model's own version: a hash of the source of every module that makes a diff, so a change to
depbot's model never serves a diff the old model made. Reading a stored diff that is
unreadable or of another shape is a miss, never an error.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path
from typing import Any

from depbot.core.atomicio import atomic_write_json
from depbot.core.sourcehash import source_hash
from depbot.records.api import ApiChange, ApiDiff, Deprecation

FOLDER = "diffs"
_PACKAGE = Path(__file__).resolve().parents[1]  # depbot/


@lru_cache(maxsize=1)
def model_version() -> str:
    """A hash of the source of the API model (apidiff, the ecosystems' api packages, the
    records it writes): what a stored diff must have been made by."""
    return source_hash(_PACKAGE, [*(_PACKAGE / "apidiff").glob("*.py"),
                                  *(_PACKAGE / "ecosystems").rglob("*.py"),
                                  _PACKAGE / "records" / "api.py"])  # fmt: skip


def key(ecosystem: str, old_root: Path, new_root: Path,
        companions: dict[str, Path], foreign: dict[str, dict[str, Path]]) -> str:  # fmt: skip
    parts = [ecosystem, Path(old_root).name, Path(new_root).name, model_version()]
    parts += [f"{side}={Path(p).name}" for side, p in sorted(companions.items())]
    parts += [f"{side}:{name}={Path(p).name}" for side, roots in sorted(foreign.items())
              for name, p in sorted(roots.items())]  # fmt: skip
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _to_json(diff: ApiDiff) -> dict[str, Any]:
    return {
        "ecosystem": diff.ecosystem, "old_label": diff.old_label, "new_label": diff.new_label,
        "changes": [asdict(c) for c in diff.changes],
        "deprecated": [asdict(d) for d in diff.deprecated],
        "notes": list(diff.notes), "stats": dict(diff.stats),
        "old_api": diff.old_api, "new_api": diff.new_api,
        "companions": {k: str(v) for k, v in diff.companions.items()},
        "foreign": {s: {n: str(p) for n, p in r.items()} for s, r in diff.foreign.items()},
    }  # fmt: skip


def _from_json(d: dict[str, Any]) -> ApiDiff:
    return ApiDiff(
        d["ecosystem"], d["old_label"], d["new_label"],
        changes=[ApiChange(**c) for c in d["changes"]],
        deprecated=[Deprecation(**x) for x in d["deprecated"]],
        notes=list(d["notes"]), stats=dict(d["stats"]),
        old_api=d["old_api"], new_api=d["new_api"],
        companions={k: Path(v) for k, v in d["companions"].items()},
        foreign={s: {n: Path(p) for n, p in r.items()} for s, r in d["foreign"].items()},
    )  # fmt: skip


def load(cache_dir: Path, k: str) -> ApiDiff | None:
    path = Path(cache_dir) / FOLDER / f"{k}.json"
    try:
        diff = _from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None
    try:
        path.touch()  # its last use, for the cache's eviction
    except OSError:
        pass
    diff.stats["stored"] = 1
    return diff


def save(cache_dir: Path, k: str, diff: ApiDiff) -> None:
    try:
        atomic_write_json(Path(cache_dir) / FOLDER / f"{k}.json", _to_json(diff))
    except OSError:
        pass  # a cache that cannot be written is no cache: the diff stands
