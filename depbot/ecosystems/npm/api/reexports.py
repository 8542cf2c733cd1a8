"""The packages a release re-exports wholesale, and the versions of them its manifest means.

A package whose entry is ``export * from 'other'`` has the API of ``other`` at the version its
own ``dependencies`` (else ``peerDependencies``) range resolves to: read without it, the
release looks almost empty, and a name it still re-exports looks removed.
"""

from __future__ import annotations

from pathlib import Path

from depbot.ecosystems.npm.api.model import read_package, subpath_names, unread_reexports
from depbot.ecosystems.npm.ranges import in_ranges
from depbot.ecosystems.npm.versions import parse

MAX_FOREIGN = 4  # packages followed per release


def re_exported(root: Path) -> list[str]:
    """The packages the root entry of the release unpacked at ``root`` re-exports wholesale."""
    package = read_package(root, "release", [])
    subpath_names(package, ".")
    return unread_reexports(package)[:MAX_FOREIGN]


def dependency_range(root: Path, name: str) -> str | None:
    """The range the release's own manifest gives ``name`` (dependencies, then peers)."""
    manifest = read_package(root, "release", []).manifest
    for field in ("dependencies", "peerDependencies", "optionalDependencies"):
        table = manifest.get(field)
        if isinstance(table, dict) and isinstance(table.get(name), str):
            return table[name]
    return None


def newest_in_range(spec: str, published: list[str]) -> str | None:
    """The newest published stable version ``spec`` allows (an exact version: itself)."""
    matching = []
    for text in published:
        version = parse(text)
        if version is None or version.is_prerelease:
            continue
        try:
            if in_ranges(text, (spec,)):
                matching.append((version, text))
        except ValueError:
            return None
    return max(matching, key=lambda pair: pair[0])[1] if matching else None
