"""npm-side lock files: yarn.lock (classic v1 and berry), pnpm-lock.yaml, package-lock.json.

Pure: text in, an ``NpmLock`` out that answers "which version is locked for this
package.json entry" (``NpmLock.version(name, spec)``), plus warnings. A lock that does not
parse is one warning naming it ("...; lock ignored") and the declared ranges are used.

- yarn classic (``# yarn lockfile v1``) has its own format, read by ``parse_yarn_classic``
  (hand-written, linear, never raises): blocks headed ``"pkg@^1.0.0", pkg@~1.1:`` with an
  indented ``version "1.2.3"``;
- yarn berry (``__metadata:``) is YAML: ``"pkg@npm:^1.0.0": {version: 1.2.3}``;
- pnpm-lock.yaml (v5.4, v6, v9) is YAML: ``importers[<folder>].dependencies.<name>.version``
  (or the top-level ``dependencies`` of a lock with no importers), else the ``packages`` keys
  (``/name@1.2.3``, ``name@1.2.3(peer@1)``, v5 ``/name/1.2.3``) when they lock one version;
- package-lock.json of a workspace: ``<folder>/node_modules/<name>`` before the hoisted
  ``node_modules/<name>``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import yaml

from depbot.ecosystems.npm.package_json import NPM_SECTIONS
from depbot.ecosystems.reading import broken

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass
class NpmLock:
    """The versions one lock records, for one importer (workspace folder)."""

    importer: dict[str, str] = field(default_factory=dict)  # name → version for this folder
    by_descriptor: dict[str, str] = field(default_factory=dict)  # "name@range" → version
    by_name: dict[str, set[str]] = field(default_factory=dict)  # name → versions locked

    def add(self, descriptor: str, version: str) -> None:
        name = split_descriptor(descriptor)[0]
        if not name or not version:
            return
        self.by_descriptor.setdefault(descriptor, version)
        self.by_name.setdefault(name, set()).add(version)

    def version(self, name: str, spec: str) -> str | None:
        """The locked version of a package.json entry ``name: spec``, or None."""
        if name in self.importer:
            return self.importer[name]
        spec = spec.strip()
        for descriptor in (f"{name}@{spec}", f"{name}@npm:{spec}"):
            if descriptor in self.by_descriptor:
                return self.by_descriptor[descriptor]
        versions = self.by_name.get(name, set())
        return next(iter(versions)) if len(versions) == 1 else None


def split_descriptor(descriptor: str) -> tuple[str, str]:
    """``@scope/pkg@^1.0`` → (``@scope/pkg``, ``^1.0``); ("", "") when there is no ``@``."""
    at = descriptor.find("@", 1)
    if at <= 0:
        return "", ""
    return descriptor[:at], descriptor[at + 1 :]


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


# --- yarn.lock -----------------------------------------------------------------------------


def parse_yarn_classic(text: str) -> NpmLock:
    """Every ``descriptor → version`` of a yarn v1 lockfile; lines it cannot read are skipped."""
    lock = NpmLock()
    descriptors: list[str] = []
    field_indent = 0
    for raw in text.splitlines():
        line = raw.rstrip()
        stripped = line.lstrip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(stripped)
        if indent == 0:
            descriptors = []
            field_indent = 0
            if line.endswith(":"):
                descriptors = [_unquote(d) for d in line[:-1].split(",") if d.strip()]
            continue
        if not descriptors:
            continue
        if field_indent == 0:
            field_indent = indent
        if indent != field_indent or not stripped.startswith("version"):
            continue
        rest = stripped[len("version") :]
        if rest.startswith(":"):
            rest = rest[1:]
        if not rest.startswith(" "):
            continue
        version = _unquote(rest)
        for d in descriptors:
            lock.add(d, version)
        descriptors = []
    return lock


def parse_yarn_berry(data: dict[str, Any]) -> NpmLock:
    """Every ``descriptor → version`` of a berry lockfile (YAML, already loaded)."""
    lock = NpmLock()
    for key, entry in data.items():
        if key == "__metadata" or not isinstance(key, str) or not isinstance(entry, dict):
            continue
        version = entry.get("version")
        if version is None or "@workspace:" in key:
            continue
        for d in key.split(","):
            lock.add(_unquote(d), str(version))
    return lock


def _load_yaml(text: str, label: str) -> tuple[Any, str | None]:
    try:
        return yaml.load(text, Loader=_Loader), None  # noqa: S506 - a safe loader
    except yaml.YAMLError as exc:
        return None, broken(label, "YAML", str(exc).replace("\n", " ")) + "; lock ignored"
    except RecursionError:
        return None, f"{label}: nested too deeply to be a lock file; lock ignored"


def parse_yarn_lock(text: str, label: str = "yarn.lock") -> tuple[NpmLock, list[str]]:
    """A yarn.lock of either generation."""
    if "__metadata:" in text:
        data, why = _load_yaml(text, label)
        if why:
            return NpmLock(), [why]
        if not isinstance(data, dict):
            return NpmLock(), [f"{label}: not a yarn lockfile (no entries); lock ignored"]
        return parse_yarn_berry(data), []
    lock = parse_yarn_classic(text)
    if not lock.by_descriptor and text.strip() and "yarn lockfile v1" not in text:
        return lock, [f"{label}: not a yarn lockfile (no entries); lock ignored"]
    return lock, []


# --- pnpm-lock.yaml --------------------------------------------------------------------------


def pnpm_version(raw: Any) -> str | None:
    """``18.2.0(react@18.2.0)`` → 18.2.0; v5 ``1.0.0_react@18.2.0`` → 1.0.0; aliases
    ``/string-width@4.2.3`` → 4.2.3; ``link:``/``file:`` → None."""
    if isinstance(raw, dict):
        raw = raw.get("version")
    if raw is None or isinstance(raw, (dict, list, bool)):
        return None
    text = str(raw).strip()
    if text.startswith(("link:", "file:", "workspace:")) or "://" in text:
        return None
    text = text.split("(", 1)[0]
    if text[:1] and not text[0].isdigit():  # an alias: /real@1.2.3, real@1.2.3, v5 /real/1.2.3
        text = text.rsplit("@", 1)[1] if "@" in text[1:] else text.rsplit("/", 1)[-1]
    text = text.split("_", 1)[0]  # v5 peer suffix: 1.0.0_react@18.2.0
    return text or None


def _package_key(key: str) -> tuple[str, str | None]:
    """``/name@1.2.3``, ``name@1.2.3(peer@1)``, v5 ``/@scope/name/1.2.3_peer@1`` → (name, version)."""
    key = key.split("(", 1)[0].lstrip("/")
    start = key.find("/") + 1 if key.startswith("@") else 0
    cuts = [i for i in (key.find("@", start), key.find("/", start)) if i > 0]
    if not cuts:
        return "", None
    cut = min(cuts)
    return key[:cut], pnpm_version(key[cut + 1 :])


def parse_pnpm_lock(
    text: str, label: str = "pnpm-lock.yaml", importer: str = "."
) -> tuple[NpmLock, list[str]]:
    """The versions a pnpm lock records for the workspace folder ``importer``."""
    data, why = _load_yaml(text, label)
    if why:
        return NpmLock(), [why]
    if not isinstance(data, dict):
        return NpmLock(), [f"{label}: not a pnpm lockfile (not a mapping); lock ignored"]
    lock = NpmLock()
    importers = data.get("importers")
    body = importers.get(importer) if isinstance(importers, dict) else data
    if not isinstance(importers, dict) and importer != ".":
        body = None
    if isinstance(body, dict):
        for section, _kind in NPM_SECTIONS:
            table = body.get(section)
            if isinstance(table, dict):
                for name, raw in table.items():
                    version = pnpm_version(raw)
                    if isinstance(name, str) and version:
                        lock.importer[name] = version
    packages = data.get("packages")
    if isinstance(packages, dict):
        for key in packages:
            if isinstance(key, str):
                name, version = _package_key(key)
                if name and version:
                    lock.by_name.setdefault(name, set()).add(version)
    return lock, []


# --- package-lock.json of a workspace ------------------------------------------------------


def parse_package_lock(text: str, label: str, importer: str = ".") -> tuple[NpmLock, list[str]]:
    """package-lock.json / npm-shrinkwrap.json (v1-v3), seen from the folder ``importer``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return NpmLock(), [f"{label}: not valid JSON (line {exc.lineno}: {exc.msg}); lock ignored"]
    except RecursionError:
        return NpmLock(), [f"{label}: nested too deeply to be a lock file; lock ignored"]
    if not isinstance(data, dict):
        return NpmLock(), [f"{label}: not a JSON object; lock ignored"]
    lock = NpmLock()
    prefix = "" if importer in (".", "") else importer.rstrip("/") + "/"
    packages = data.get("packages")
    if isinstance(packages, dict):
        hoisted: dict[str, str] = {}
        for key, meta in packages.items():
            if not (isinstance(key, str) and isinstance(meta, dict)):
                continue
            version = meta.get("version")
            if not isinstance(version, str):
                continue
            for base, into in ((prefix, lock.importer), ("", hoisted)):
                head = base + "node_modules/"
                if key.startswith(head) and "/node_modules/" not in key[len(head) :]:
                    into.setdefault(key[len(head) :], version)
        for name, version in hoisted.items():
            lock.importer.setdefault(name, version)
    deps = data.get("dependencies")
    if isinstance(deps, dict):  # lockfileVersion 1
        for name, meta in deps.items():
            if isinstance(meta, dict) and isinstance(meta.get("version"), str):
                lock.importer.setdefault(name, meta["version"].rsplit("@", 1)[-1])
    return lock, []


def parse_npm_lock(
    lock_name: str, text: str, label: str, importer: str = "."
) -> tuple[NpmLock, list[str]]:
    """Any of the npm-side locks, by its file name."""
    if lock_name == "yarn.lock":
        return parse_yarn_lock(text, label)
    if lock_name == "pnpm-lock.yaml":
        return parse_pnpm_lock(text, label, importer)
    return parse_package_lock(text, label, importer)
