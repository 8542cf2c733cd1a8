"""The update file (JSON or TOML) that lists pending updates, and its records as ``Update``.

Reads what people and tools write: depbot's own ``{"updates": [...]}``, a bare list, one
record, and dependabot/fetch-metadata's ``updated-dependencies-json`` with their field
names. Parsing is pure; ``load_update_file`` is the only function here that reads a file.
No error quotes more of the file than a short, redacted excerpt (``core.redact.excerpt``).
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from depbot import ecosystems
from depbot.core.confine import refusal, relative_to
from depbot.core.errors import InputError
from depbot.core.redact import excerpt
from depbot.ecosystems import normalize_ecosystem
from depbot.records.update import Update, dedupe
from depbot.records.versions import parse_version, update_type

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib


# --- reading update records -------------------------------------------------------------

_FIELD_ALIASES: dict[str, tuple[str, ...]] = {
    "ecosystem": ("ecosystem", "package-ecosystem", "package_ecosystem", "packageEcosystem"),
    "package": (
        "package",
        "name",
        "dependency-name",
        "dependency_name",
        "dependencyName",
        "dependency-names",
    ),
    "from": (
        "from",
        "from_version",
        "previous-version",
        "previous_version",
        "prevVersion",
        "current",
    ),
    "to": ("to", "to_version", "new-version", "new_version", "newVersion", "latest"),
    "manifest": ("manifest", "manifest_path", "file", "directory"),
    "update_type": ("update_type", "update-type", "updateType"),
    "dependency_kind": ("dependency_kind", "dependency-type", "dependency_type", "dependencyType"),
}


def _pick(record: Mapping[str, Any], name: str) -> Any:
    for alias in _FIELD_ALIASES[name]:
        if alias in record and record[alias] not in (None, ""):
            return record[alias]
    return None


def dependency_kind_of(raw: Any) -> str:
    """``direct``, ``dev`` or ``indirect`` from any spelling of a dependency type."""
    text = str(raw or "direct").strip().lower()
    if text in ("direct:development", "development", "dev", "devdependencies", "dev-dependency"):
        return "dev"
    if text in ("indirect", "transitive"):
        return "indirect"
    return "direct"


_UPDATE_TYPE_RE = re.compile(r"(?:version-update:)?(?:semver-)?(major|minor|patch)$")


def _shown(text: str) -> str:
    """A name or path for a one-line message: control and format characters (a right-to-left
    override) escaped, so the line reads as it is."""
    return excerpt(repr(text) if any(unicodedata.category(c) in ("Cc", "Cf") for c in text)
                   else f"'{text}'", 80)  # fmt: skip


def checked_manifest(where: str, path: str) -> str:
    """``path`` when it stays inside the checkout: relative, no ``..`` part, no drive, no
    control characters; else an input error naming the record."""
    if any(unicodedata.category(c) in ("Cc", "Cf") for c in path):
        raise InputError(f"{where}: manifest {_shown(path)} holds control or format characters")
    parts = path.replace("\\", "/").split("/")
    if ".." in parts or re.match(r"^[A-Za-z]:", path) or "\\" in path:
        raise InputError(f"{where}: manifest {_shown(path)} is outside the checkout")
    return path


def manifest_for(ecosystem: str, raw: Any) -> str:
    """Dependabot's ``directory`` is a folder; turn it into the usual manifest path."""
    if raw in (None, ""):
        return ""
    text = str(raw).strip().lstrip("/")
    eco = ecosystems.get(ecosystem)
    if text.endswith((".txt", ".toml", ".json", ".in", ".cfg", ".lock")) or (
        text and eco.is_manifest(Path(text))  # a workflow file (.github/workflows/ci.yml)
    ):
        return text
    default = eco.default_manifest
    return f"{text}/{default}" if text else default


def update_from_record(
    record: Mapping[str, Any], *, where: str, source: str = "file", source_ref: str = ""
) -> list[Update]:
    """One record of an update list to updates (fetch-metadata may name several packages).

    ``where`` names the record in error messages (``updates.json: record 3``).
    """
    if not isinstance(record, Mapping):
        raise InputError(f"{where}: expected a table of fields, got {type(record).__name__}")
    eco_raw = _pick(record, "ecosystem")
    if eco_raw is None:
        raise InputError(f"{where}: missing field 'ecosystem' (or 'package-ecosystem')")
    try:
        ecosystem = normalize_ecosystem(str(eco_raw))
    except ValueError as exc:
        raise InputError(f"{where}: {excerpt(exc, 120)}") from None
    names_raw = _pick(record, "package")
    if names_raw is None:
        raise InputError(f"{where}: missing field 'package' (or 'dependency-names')")
    if not isinstance(names_raw, str):
        raise InputError(
            f"{where}: field 'package' must be a string (one package per record), "
            f"got a {type(names_raw).__name__}"
        )
    names = [n.strip() for n in names_raw.split(",") if n.strip()]
    if not names:
        raise InputError(f"{where}: field 'package' is empty")
    if len(names) > 1:
        # fetch-metadata's dependency-names: its versions are the first dependency's only
        raise InputError(
            f"{where}: {len(names)} packages ({excerpt(', '.join(names))}) but versions for one: "
            "give one record per package (or fetch-metadata's updated-dependencies-json)"
        )
    eco = ecosystems.get(ecosystem)
    if not eco.valid_name(names[0]):
        raise InputError(f"{where}: {_shown(names[0])} is not {eco.name_noun}")
    old, new = _pick(record, "from"), _pick(record, "to")
    for label, value in (("from", old), ("to", new)):
        if value is None:
            raise InputError(f"{where}: missing field '{label}' (or the fetch-metadata name)")
        if isinstance(value, (bool, int, float)):
            # 6.10 read as a number is 6.1: a different version, silently
            raise InputError(
                f"{where}: field '{label}' is the number {value!r}: write versions as strings "
                f'(e.g. "{value}" in quotes), a number loses trailing zeros'
            )
        if not isinstance(value, str):
            raise InputError(f"{where}: field '{label}' must be a version string")
        if parse_version(ecosystem, str(value)) is None:
            raise InputError(
                f"{where}: '{excerpt(value, 60)}' is not a {ecosystem} version (field '{label}')"
            )
    declared = _pick(record, "update_type")
    computed = update_type(ecosystem, str(old), str(new))
    if declared is not None and not _UPDATE_TYPE_RE.search(str(declared).strip().lower()):
        if str(declared).strip().lower() != "other":
            raise InputError(f"{where}: unknown update type {excerpt(repr(declared), 60)}")
    return [
        Update(
            ecosystem=ecosystem,
            package=names[0],
            from_version=str(old),
            to_version=str(new),
            update_type=computed,
            manifest=checked_manifest(where, manifest_for(ecosystem, _pick(record, "manifest"))),
            dependency_kind=dependency_kind_of(_pick(record, "dependency_kind")),
            source=source,
            source_ref=source_ref,
        )
    ]


def _refuse_conflicts(updates: list[Update], name: str) -> None:
    """Two records of one package and manifest that disagree on the versions: say which."""
    first: dict[tuple[str, str, str], Update] = {}
    for u in updates:
        key = (u.ecosystem, u.package.lower(), u.manifest)
        seen = first.setdefault(key, u)
        if (seen.from_version, seen.to_version) != (u.from_version, u.to_version):
            where = f" in {excerpt(u.manifest)}" if u.manifest else ""
            raise InputError(
                f"{name}: {excerpt(u.package)}{where} is listed twice with different "
                f"versions ({excerpt(seen.from_version, 40)} → {excerpt(seen.to_version, 40)} "
                f"and {excerpt(u.from_version, 40)} → {excerpt(u.to_version, 40)}): keep one"
            )


def _records(data: Any, name: str) -> list[tuple[str, Mapping[str, Any]]]:
    """Find the list of records in a loaded document, with a label for each."""
    if isinstance(data, Mapping):
        if "updated-dependencies-json" in data:
            raw = data["updated-dependencies-json"]
            try:
                items = json.loads(raw) if isinstance(raw, str) else raw
            except json.JSONDecodeError as exc:
                raise InputError(
                    f"{name}: 'updated-dependencies-json' is not JSON ({exc.msg})"
                ) from None
            except RecursionError:
                raise InputError(
                    f"{name}: 'updated-dependencies-json' is nested too deeply"
                ) from None
            if not isinstance(items, list):
                raise InputError(f"{name}: 'updated-dependencies-json' must be a list")
            return [(f"{name}: updated dependency {i + 1}", r) for i, r in enumerate(items)]
        if "updates" in data:
            items = data["updates"]
        elif any(alias in data for alias in _FIELD_ALIASES["package"]):
            return [(f"{name}: record 1", data)]
        else:
            raise InputError(f"{name}: no 'updates' list and no update fields found")
    else:
        items = data
    if not isinstance(items, list):
        raise InputError(f"{name}: 'updates' must be a list of records")
    return [(f"{name}: record {i + 1}", r) for i, r in enumerate(items)]


def parse_update_document(text: str, name: str, *, fmt: str | None = None) -> list[Update]:
    """Parse an update list (JSON or TOML). ``name`` labels errors; ``fmt`` forces a format."""
    fmt = fmt or ("toml" if name.endswith(".toml") else "json")
    try:
        data = tomllib.loads(text) if fmt == "toml" else json.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{name}: not valid TOML ({exc})") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{name}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except RecursionError:  # "[[[[…" thousands deep: the parsers give up with this
        raise InputError(f"{name}: nested too deeply to be an update list") from None
    updates: list[Update] = []
    for label, record in _records(data, name):
        updates.extend(update_from_record(record, where=label, source="file", source_ref=name))
    _refuse_conflicts(updates, name)
    return dedupe(updates)


def load_update_file(path: str | Path, checkout: Path | None = None) -> list[Update]:
    """Read ``--updates FILE``; every problem is an ``InputError`` naming the file.

    A file named inside ``checkout`` (the repository's own update list) follows the
    checkout's rule (``core.confine.refusal``): never read through a link that leaves the
    checkout, never a file that may hold secrets. A file named elsewhere is the caller's."""
    p = Path(path)
    rel = relative_to(checkout, p) if checkout is not None else ""
    why = refusal(checkout, rel) if checkout is not None and rel else ""
    if why:
        raise InputError(f"update file {excerpt(rel, 200)!r} is not read: {why}")
    try:
        exists = p.is_file()
    except OSError as exc:  # e.g. a name over the file-name limit
        raise InputError(f"update file path is not usable: {exc.strerror}") from None
    if not exists:
        raise InputError(f"update file {str(p)[:200]!r} does not exist")
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read update file {str(p)[:200]!r}: {excerpt(exc, 120)}") from None
    fmt = "toml" if p.suffix.lower() == ".toml" else "json"
    return parse_update_document(text, p.name, fmt=fmt)
