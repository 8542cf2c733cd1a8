"""The manifests npm projects keep: package.json, with the lock beside it (package-lock.json,
npm-shrinkwrap.json, yarn.lock, pnpm-lock.yaml) or at its workspace's root."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from depbot.ecosystems.npm.workspaces import read_package_json
from depbot.ecosystems.reading import read_text
from depbot.records.declared import Declared


def is_manifest(path: Path) -> bool:
    return path.name == "package.json"


def read(
    path: Path, root: Path, label: str, secret_files: tuple[str, ...], memo: dict[Path, Any] | None
) -> tuple[list[Declared], list[str]]:
    """One package.json and its lock; ``memo``: a workspace's members, learned once."""
    return read_package_json(path, root, read_text(path, label), label, secret_files, memo)
