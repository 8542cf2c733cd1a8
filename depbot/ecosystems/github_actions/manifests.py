"""The actions a checkout's workflows use, as declarations: one per ``uses:``. Pure but for
reading the file it is given.

A manifest is a workflow (``.github/workflows/*.yml``/``*.yaml``) or an action's metadata
(``action.yml``/``action.yaml``: a composite action's steps, a repository's own actions).
Each ``uses: owner/repo[/path]@ref`` is a ``Declared`` with the ref as its spec and the
version it names as its pin (a tag's, else the comment of a SHA pin); a step with a local
action (``./…``) or a container image (``docker://…``) is skipped, and the file's one
warning says which and why.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from depbot.ecosystems.github_actions.versions import NAME
from depbot.ecosystems.github_actions.workflows import uses_in, version_of
from depbot.records.declared import Declared

ACTION_FILES = ("action.yml", "action.yaml")


def is_manifest(path: Path) -> bool:
    if path.name in ACTION_FILES:
        return True
    parent = path.parent
    return (
        path.suffix in (".yml", ".yaml")
        and parent.name == "workflows"
        and parent.parent.name == ".github"
    )


def read(
    path: Path, root: Path, label: str, secret_files: tuple[str, ...], memo: dict[Path, Any] | None
) -> tuple[list[Declared], list[str]]:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        return [], [f"{label}: not read: {exc.strerror or exc}"]
    try:
        steps, skipped = uses_in(text)
    except ValueError as exc:
        return [], [f"{label}: not read: {exc}"]
    out = []
    for s in steps:
        version = version_of(s)
        out.append(Declared(NAME, s.action, s.ref, version, None, label, "direct", s.line))
    warnings = []
    if skipped:
        said = ", ".join(f"{k.value} ({k.why}, line {k.line})" for k in skipped[:5])
        more = f" and {len(skipped) - 5} more" if len(skipped) > 5 else ""
        warnings.append(f"{label}: skipped {len(skipped)} step(s) with no action to update: "
                        f"{said}{more}")  # fmt: skip
    return out, warnings
