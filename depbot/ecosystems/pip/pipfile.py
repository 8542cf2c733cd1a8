"""Pipenv's Pipfile (``[packages]``, ``[dev-packages]``) with the versions of its Pipfile.lock.

``parse_pipfile_text`` is pure. A value is a PEP 440 specifier (``"*"``, ``"==2.31.0"``,
``">=1.4"``) or a table (``{version = "...", extras = [...]}``); ``git``/``path``/``file``
entries are skipped with a warning. A Pipfile that is not TOML is one warning naming it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from depbot.core.redact import excerpt
from depbot.ecosystems.pip.locks import read_lock_beside
from depbot.ecosystems.reading import apply_pip_lock, broken, label_of, read_confined
from depbot.records.declared import Declared

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib


def _spec_of(value: Any) -> tuple[str | None, str | None]:
    if isinstance(value, dict):
        for source in ("git", "path", "file", "hg", "svn", "bzr"):
            if source in value:
                return None, f"a {source} dependency"
        value = value.get("version", "*")
    if not isinstance(value, str):
        return None, "a version that is not text"
    spec = "" if value.strip() == "*" else value.strip()
    try:
        SpecifierSet(spec)
    except InvalidSpecifier:
        return None, f"'{excerpt(value, 60)}' is not a version specifier"
    return spec, None


def parse_pipfile_text(text: str, manifest: str) -> tuple[list[Declared], list[str]]:
    """The ``[packages]`` (direct) and ``[dev-packages]`` (dev) of a Pipfile."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return [], [broken(manifest, "TOML", exc)]
    except RecursionError:
        return [], [f"{manifest}: nested too deeply to be a Pipfile; not read"]
    out: list[Declared] = []
    warnings: list[str] = []
    for section, kind in (("packages", "direct"), ("dev-packages", "dev")):
        table = data.get(section)
        if table is None:
            continue
        if not isinstance(table, dict):
            warnings.append(f"{manifest}: [{section}] is not a table; not read")
            continue
        for name, value in table.items():
            spec, why = _spec_of(value)
            if spec is None:
                warnings.append(f"{manifest}: [{section}] skipped {excerpt(name, 60)} ({why})")
                continue
            pinned = (
                spec[2:] if spec.startswith("==") and "," not in spec and "*" not in spec else None
            )
            out.append(Declared("pip", str(name), spec, pinned, None, manifest, kind, 0))
    return out, warnings


def read_pipfile(
    path: Path, root: Path, secret_files: Iterable[str]
) -> tuple[list[Declared], list[str]]:
    """A Pipfile and the Pipfile.lock beside it, each read under the checkout's rule."""
    text, why = read_confined(root, path, secret_files)
    if text is None:
        return [], [why or f"{path.name}: not read"]
    deps, warnings = parse_pipfile_text(text, label_of(root, path))
    lock = path.parent / "Pipfile.lock"
    if deps and lock.is_file():
        locked, more = read_lock_beside(path, root, lock, secret_files)
        deps, warnings = apply_pip_lock(deps, locked), warnings + more
    return deps, warnings
