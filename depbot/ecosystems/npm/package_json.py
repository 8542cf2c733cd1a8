"""npm manifests: package.json dependencies, package-lock.json installed versions, npm ranges.

Pure: text in, ``Declared`` out. ``manifests.read_manifest`` does the reading.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from depbot.core.errors import InputError
from depbot.core.redact import excerpt
from depbot.ecosystems.npm.ranges import npm_min_version
from depbot.records.declared import Declared

# --- npm package.json and package-lock.json --------------------------------------------

NPM_SECTIONS = (
    ("dependencies", "direct"),
    ("devDependencies", "dev"),
    ("optionalDependencies", "direct"),
)
_NPM_EXACT = re.compile(r"^=?v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$")
_LOCAL_PREFIXES = ("workspace:", "file:", "link:", "portal:", "patch:", "exec:")
_VCS_PREFIXES = ("git+", "git:", "git@", "github:", "gitlab:", "bitbucket:", "gist:")


def npm_non_registry_reason(spec: str) -> str | None:
    """Why a package.json spec does not name a registry version, or None when it does."""
    s = spec.strip()
    if s.startswith(_LOCAL_PREFIXES) or s.startswith((".", "/", "~/")):
        return "a local or workspace package"
    if s.startswith(_VCS_PREFIXES):
        return "a git dependency"
    if re.match(r"^https?://", s):
        return "a tarball URL"
    if re.match(r"^[\w.-]+/[\w.-]+(?:#.*)?$", s):
        return "a GitHub shorthand"
    return None


def _lock_versions(lock_text: str, label: str) -> tuple[dict[str, str], list[str]]:
    """Installed versions from package-lock.json / npm-shrinkwrap.json (lockfile v1, v2, v3)."""
    try:
        lock = json.loads(lock_text)
    except json.JSONDecodeError as exc:
        return {}, [f"{label}: not valid JSON (line {exc.lineno}: {exc.msg}); lock ignored"]
    except RecursionError:
        return {}, [f"{label}: nested too deeply to be a lock file; lock ignored"]
    if not isinstance(lock, dict):
        return {}, [f"{label}: not a JSON object; lock ignored"]
    out: dict[str, str] = {}
    packages = lock.get("packages")
    if isinstance(packages, dict):  # lockfileVersion 2 and 3
        for key, meta in packages.items():
            if key.startswith("node_modules/") and isinstance(meta, dict):
                name = key[len("node_modules/") :]
                if "/node_modules/" not in name and isinstance(meta.get("version"), str):
                    out[name] = meta["version"]
    deps = lock.get("dependencies")
    if isinstance(deps, dict):  # lockfileVersion 1 (v2 carries both)
        for name, meta in deps.items():
            if isinstance(meta, dict) and isinstance(meta.get("version"), str):
                out.setdefault(name, re.sub(r"^npm:.+@", "", meta["version"]))
    return out, []


def _json_line(lines: list[str], key: str, after: int) -> int:
    """1-based line of ``"key":`` at or after line index ``after``; 0 when not found."""
    pattern = re.compile(rf'"{re.escape(key)}"\s*:')
    for i in range(after, len(lines)):
        if pattern.search(lines[i]):
            return i + 1
    return 0


def parse_package_json_text(
    text: str,
    manifest: str,
    lock_text: str | None = None,
    lock_name: str = "package-lock.json",
    locked: Callable[[str, str], str | None] | None = None,
    workspace: dict[str, str] | None = None,
) -> tuple[list[Declared], list[str]]:
    """``dependencies``, ``devDependencies`` and ``optionalDependencies`` of a package.json.

    ``installed`` comes from the lock text when given, or from ``locked(name, spec as
    written)`` (yarn / pnpm / workspace locks, ``manifests.js_locks``). ``npm:real@range`` aliases are
    declared under the real registry name; non-registry specs, and packages of the same
    workspace (``workspace``: name → folder; the package manager links those), are skipped
    with a warning.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{manifest} line {exc.lineno}: not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise InputError(f"{manifest}: nested too deeply to be a package.json") from None
    if not isinstance(data, dict):
        raise InputError(f"{manifest}: expected a JSON object at the top")
    installed, warnings = ({}, []) if lock_text is None else _lock_versions(lock_text, lock_name)
    lines = text.splitlines()
    out: list[Declared] = []
    for section, kind in NPM_SECTIONS:
        table = data.get(section)
        if table is None:
            continue
        if not isinstance(table, dict):
            raise InputError(f'{manifest}: "{section}" must be an object of name: version')
        start = max(0, _json_line(lines, section, 0) - 1)
        for key, raw in table.items():
            line = _json_line(lines, key, start)
            where = f"{manifest} line {line}" if line else manifest
            if not isinstance(raw, str):
                raise InputError(
                    f"{where}: the version of {excerpt(key)} must be a string, "
                    f"got {excerpt(repr(raw), 60)}"
                )
            name, spec = key, raw.strip()
            alias = re.match(r"^npm:((?:@[^/@\s]+/)?[^@\s]+)(?:@(.*))?$", spec)
            if alias:
                name, spec = alias.group(1), (alias.group(2) or "*").strip()
            reason = npm_non_registry_reason(spec)
            if not reason and workspace and name in workspace:
                reason = f"a package of this workspace, linked from {workspace[name]}"
            if reason:
                warnings.append(f"{where}: skipped {excerpt(key)} ({reason}: '{excerpt(raw)}')")
                continue
            exact = _NPM_EXACT.match(spec)
            have = installed.get(key) if locked is None else locked(key, raw)
            if have is None and not exact and npm_min_version(spec) is None:
                warnings.append(
                    f"{where}: skipped {excerpt(key)} ('{excerpt(raw)}' names no version "
                    "and no lock records one)"
                )
                continue
            out.append(
                Declared(
                    "npm", name, spec, exact.group(1) if exact else None, have, manifest, kind, line
                )
            )
    return out, warnings
