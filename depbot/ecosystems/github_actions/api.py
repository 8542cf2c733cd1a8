"""The API of an action: its ``action.yml`` at two releases, and what changed. Pure.

An action's callers see its ``inputs`` (removed, newly required, default changed,
deprecated), its ``outputs`` (removed) and how it runs (``runs.using``: ``node16`` ->
``node20``; ``runs.main``, ``runs.image``). A removed input given in a ``with:``, a newly
required one a step does not give, and a removed output read as
``steps.<id>.outputs.<name>`` break the workflow; a runtime moved or a default changed is
said (a deprecation), never a break by itself. The file is read as YAML data (safe loader),
bounded in size; nothing is run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from depbot.ecosystems.github_actions.manifests import ACTION_FILES
from depbot.records.api import ApiChange, ApiDiff, Deprecation

MAX_BYTES = 256_000


@dataclass
class Action:
    """What one release's ``action.yml`` offers its callers."""

    file: str = ""  # the file read ("" when none was)
    problem: str = ""  # why it could not be read
    inputs: dict[str, dict[str, Any]] = field(default_factory=dict)
    outputs: set[str] = field(default_factory=set)
    runs: dict[str, str] = field(default_factory=dict)  # using, main, image


def read_action(root: Path) -> Action:
    """The action whose metadata sits at the top of ``root`` (the unpacked release)."""
    for name in ACTION_FILES:
        path = Path(root) / name
        if not path.is_file():
            continue
        if path.stat().st_size > MAX_BYTES:
            return Action(name, f"{name} is over {MAX_BYTES // 1000} kB")
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8", errors="replace"))
        except (yaml.YAMLError, RecursionError):
            return Action(name, f"{name} is not valid YAML")
        if not isinstance(data, dict):
            return Action(name, f"{name} is not a mapping")
        return _action(name, data)
    return Action("", "no action.yml or action.yaml")


def _action(name: str, data: dict[str, Any]) -> Action:
    inputs = data.get("inputs") if isinstance(data.get("inputs"), dict) else {}
    outputs = data.get("outputs") if isinstance(data.get("outputs"), dict) else {}
    runs = data.get("runs") if isinstance(data.get("runs"), dict) else {}
    return Action(
        name,
        inputs={str(k): (v if isinstance(v, dict) else {}) for k, v in inputs.items()},
        outputs={str(k) for k in outputs},
        runs={k: str(runs[k]) for k in ("using", "main", "image") if runs.get(k) is not None},
    )


def _required(spec: dict[str, Any]) -> bool:
    """Required and without a default: a step that leaves it out fails."""
    req = spec.get("required")
    required = req is True or str(req).strip().lower() == "true"
    return required and spec.get("default") in (None, "")


def action_changes(old_root: Path, new_root: Path, diff: ApiDiff) -> None:
    """Fill ``diff`` from the two releases' action metadata."""
    old, new = read_action(old_root), read_action(new_root)
    for side, a in ((diff.old_label, old), (diff.new_label, new)):
        if a.problem:
            diff.notes.append(f"{side}: {a.problem}")
    if old.problem or new.problem:  # one side unread: nothing was compared
        diff.stats["incomplete"] = diff.stats["unread"] = 1
        return
    where = new.file
    for name in sorted(old.inputs):
        if name not in new.inputs:
            diff.changes.append(
                ApiChange("input_removed", f"inputs.{name}", "", f"{where} · inputs")
            )
    for name, spec in sorted(new.inputs.items()):
        before = old.inputs.get(name)
        if _required(spec) and (before is None or not _required(before)):
            diff.changes.append(
                ApiChange("input_now_required", f"inputs.{name}", "", f"{where} · inputs")
            )
        message = spec.get("deprecationMessage")
        if message and not (before or {}).get("deprecationMessage"):
            diff.deprecated.append(
                Deprecation(
                    f"inputs.{name}",
                    "deprecated input",
                    str(message)[:300],
                    "",
                    f"{where} · inputs",
                )
            )
        if before is not None and str(before.get("default")) != str(spec.get("default")):
            said = f"default {before.get('default')!r} → {spec.get('default')!r}"
            diff.deprecated.append(
                Deprecation(f"inputs.{name}", "default changed", said, "", f"{where} · inputs")
            )
    for name in sorted(old.outputs - new.outputs):
        diff.changes.append(
            ApiChange("output_removed", f"outputs.{name}", "", f"{where} · outputs")
        )
    for key in ("using", "main", "image"):
        was, now = old.runs.get(key), new.runs.get(key)
        if was != now and (was or now):
            what = "runtime" if key == "using" else f"runs.{key}"
            diff.deprecated.append(
                Deprecation(f"runs.{key}", what, f"{was} → {now}", "", f"{where} · runs")
            )
    diff.stats.update(inputs=len(new.inputs), outputs=len(new.outputs))
    diff.old_api, diff.new_api = surface(old), surface(new)


def surface(action: Action) -> dict[str, str]:
    """The names a workflow takes from the action (``inputs.<name>``, ``outputs.<name>``:
    the paths of its changes, and how used names are spelled), each with its kind."""
    names = {f"inputs.{n}": "input" for n in action.inputs}
    return names | {f"outputs.{n}": "output" for n in action.outputs}
