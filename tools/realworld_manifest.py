"""Pin the updated package in a real-world case's kept manifest (used by tools/realworld.py).

A client often declares the package unpinned or at another version; the scenario needs the
manifest to declare it at the update's ``from`` version. The manifest is read with depbot's
own parsers; a requirements file gets its declaring line replaced (or a line appended), a
``pyproject.toml`` its dependency string, a ``package.json`` its dependency entry (its lock
files are dropped, since they would record another version). A manifest that was not kept
is written as one line.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from depbot.ecosystems import canonical_name
from depbot.updates.manifests.scan import read_manifest


def pin_manifest(repo: Path, manifest: str, eco: str, package: str, version: str) -> str:
    """Make ``repo/manifest`` declare ``package`` at ``version``; returns what was done ('' if
    it already did). Raises ValueError for a manifest kind it cannot edit."""
    path = repo / manifest
    key = canonical_name(eco, package)
    try:
        deps, _ = read_manifest(path, repo)
    except Exception:  # noqa: BLE001 - an unreadable manifest is rewritten below
        deps = []
    mine = [d for d in deps if d.ecosystem == eco and canonical_name(eco, d.name) == key]
    if any(version in (d.pinned, d.installed) for d in mine):
        return ""
    was = ", ".join(f"{d.name} {d.spec or '(any)'}" for d in mine) or "not declared"
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    if path.name == "package.json":
        data = json.loads(text) if text.strip() else {}
        section = next((s for s in ("dependencies", "devDependencies", "peerDependencies",
                                    "optionalDependencies") if package in (data.get(s) or {})),
                       "dependencies")  # fmt: skip
        data.setdefault(section, {})[package] = version
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        for lock in ("package-lock.json", "npm-shrinkwrap.json"):
            (path.parent / lock).unlink(missing_ok=True)
        return f"{manifest}: {package} was {was}; set {section}.{package} = {version} (lock files dropped)"
    lines = text.splitlines()
    pin = f"{package}=={version}"
    if path.name == "pyproject.toml":
        for d in mine:
            lines[d.line - 1] = re.sub(r"([\"'])[^\"']*\1", f'"{pin}"', lines[d.line - 1], count=1)
        if not mine:
            new = re.sub(
                r"^(\s*dependencies\s*=\s*\[)",
                rf'\1"{pin}", ',
                "\n".join(lines),
                count=1,
                flags=re.M,
            )
            if new == "\n".join(lines):
                raise ValueError(f"{manifest}: no [project] dependencies list to add {pin} to")
            lines = new.splitlines()
    elif path.suffix in (".txt", ".in") or not text:
        for d in mine:
            lines[d.line - 1] = pin
        if not mine:
            lines.append(pin)
    else:
        raise ValueError(f"{manifest}: cannot pin {pin} in this kind of manifest")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return f"{manifest}: {package} was {was}; wrote {pin}"
