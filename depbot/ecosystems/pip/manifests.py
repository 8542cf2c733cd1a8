"""The manifests pip projects keep, and which reader each goes to.

requirements*.txt (and any .txt under a ``requirements``/``reqs`` folder) with their ``-r``
and ``-c`` includes; pyproject.toml (PEP 621, PEP 735, Poetry) with uv.lock / poetry.lock
beside it; Pipfile with Pipfile.lock; setup.cfg and setup.py (read with ``ast``, never run).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from depbot.ecosystems.pip.locks import read_pyproject_locks
from depbot.ecosystems.pip.pipfile import read_pipfile
from depbot.ecosystems.pip.pyproject import parse_pyproject_text
from depbot.ecosystems.pip.requirements import is_requirements, parse_requirements
from depbot.ecosystems.pip.setuptools import read_setuptools
from depbot.ecosystems.reading import read_text
from depbot.records.declared import Declared

NAMES = ("pyproject.toml", "Pipfile", "setup.cfg", "setup.py")


def is_manifest(path: Path) -> bool:
    return path.name in NAMES or is_requirements(path)


def read(
    path: Path, root: Path, label: str, secret_files: tuple[str, ...], memo: dict[Path, Any] | None
) -> tuple[list[Declared], list[str]]:
    """One manifest and its lock (uv.lock / poetry.lock, Pipfile.lock)."""
    if path.name == "pyproject.toml":
        text = read_text(path, label)
        deps = parse_pyproject_text(text, label)
        return read_pyproject_locks(path, root, text, label, deps, secret_files)
    if path.name == "Pipfile":
        return read_pipfile(path, root, secret_files)
    if path.name in ("setup.cfg", "setup.py"):
        return read_setuptools(path, root, secret_files)
    return parse_requirements(path, root, secret_files)
