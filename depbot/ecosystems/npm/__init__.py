"""npm: JavaScript packages on the npm registry (SemVer versions, lower-case names)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from depbot.ecosystems.npm import artifacts, ranges, registry, versions
from depbot.records.versions import Version, parse_version

if TYPE_CHECKING:  # annotations only: importing the ecosystems stays light
    from depbot.records.api import ApiDiff
    from depbot.records.artifact import Choice, NoArtifact
    from depbot.records.declared import Declared
    from depbot.records.package import PackageInfo


# what the registry accepts: URL-safe ASCII, no leading "." or "_" (upper case only in
# the legacy names npm still serves, e.g. JSONStream)
_NAME = re.compile(r"^(?:@[A-Za-z0-9][A-Za-z0-9._~-]*/)?[A-Za-z0-9][A-Za-z0-9._~-]*$")


class Npm:
    """The ``Ecosystem`` of npm packages (npm, yarn, pnpm and bun read the same registry)."""

    name = "npm"
    aliases = ("npm_and_yarn", "yarn", "pnpm", "bun", "javascript", "node")
    dependabot = ("npm",)
    language = "javascript"
    source_globs = (
        "*.js",
        "*.cjs",
        "*.mjs",
        "*.jsx",
        "*.ts",
        "*.tsx",
        "*.cts",
        "*.mts",
        "*.vue",
        "*.svelte",
    )
    default_manifest = "package.json"
    registry_label = "npm registry"
    url_setting = "npm_url"
    range_syntax = "an npm range"
    name_noun = "an npm package name"
    requirements_folder = None
    whole_interface = False
    lock_files = ("package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml")

    def locked(self, lock: str, text: str, name: str) -> set[str]:
        from depbot.ecosystems.npm.locks import parse_npm_lock

        read, _ = parse_npm_lock(lock.rsplit("/", 1)[-1], text, lock)
        found = set(read.by_name.get(name, set()))
        return found | ({read.importer[name]} if name in read.importer else set())

    def is_manifest(self, path: Path) -> bool:
        from depbot.ecosystems.npm import manifests  # its readers load only when a scan runs

        return manifests.is_manifest(path)

    def read_manifest(
        self,
        path: Path,
        root: Path,
        label: str,
        secret_files: tuple[str, ...],
        memo: dict[Path, Any] | None,
    ) -> tuple[list[Declared], list[str]]:
        from depbot.ecosystems.npm import manifests

        return manifests.read(path, root, label, secret_files, memo)

    def workspace_globs(self, repo: Path, root: str) -> list[str]:
        from depbot.ecosystems.npm import workspaces  # yaml: only for dependabot.yml's folders

        return workspaces.root_globs(repo, root)

    def in_workspace(self, rel: str, globs: list[str]) -> bool:
        from depbot.ecosystems.npm import workspaces

        return workspaces.is_member(rel, globs)

    def api_changes(self, old_root: Path, new_root: Path, diff: ApiDiff) -> None:
        from depbot.ecosystems.npm.api.model import (  # tree-sitter
            npm_changes,
            read_package,
            unread_reexports,
        )
        from depbot.ecosystems.npm.api.surface import npm_surface

        sides = []
        for root, label, side in ((old_root, diff.old_label, "old"),
                                  (new_root, diff.new_label, "new")):  # fmt: skip
            companion, foreign = diff.companions.get(side), diff.foreign.get(side)
            sides.append(read_package(root, label, diff.notes, companion, foreign))
        old, new = sides
        if not (old.read and new.read):  # a release whose package.json was never read was not
            diff.stats["incomplete"] = diff.stats["unread"] = 1  # compared: it backs no verdict
        diff.changes = npm_changes(old, new, diff.notes)
        name = new.name or old.name or "package"
        diff.old_api, diff.new_api = npm_surface(old, name), npm_surface(new, name)
        for package in sides:
            for other in unread_reexports(package):
                diff.notes.append(f"{package.label}: re-exports all of {other}, not read")

    def companion(
        self,
        package: str,
        version: str,
        root: Path,
        versions: Callable[[str], list[str]],
        *,
        older: bool = False,
    ) -> tuple[str, str | None] | None:
        from depbot.ecosystems.npm.api.types import matching_version, types_companion

        name = types_companion(package, root)
        if name is None:
            return None
        return name, matching_version(version, versions(name), below=older)

    def re_exported(
        self, package: str, version: str, root: Path, versions: Callable[[str], list[str]]
    ) -> list[tuple[str, str | None]]:
        from depbot.ecosystems.npm.api import reexports  # tree-sitter

        wanted = []
        for name in reexports.re_exported(root):
            spec = reexports.dependency_range(root, name)
            picked = None if spec is None else reexports.newest_in_range(spec, versions(name))
            wanted.append((name, picked))
        return wanted

    def release_files(
        self, document: dict[str, Any], package: str, version: str
    ) -> tuple[str, str, tuple[str, ...]] | None:
        return None  # the registry serves the released files

    def reach_rules(self) -> Any:
        from depbot.ecosystems.npm import reach

        return reach

    def import_names(self, package: str, *, environment: bool = False) -> list[str]:
        return [package]

    def parse_version(self, raw: str) -> Version | None:
        return versions.parse(raw)

    def forgiving_version(self, text: str) -> str | None:
        return versions.forgiving(text)

    def canonical_name(self, name: str) -> str:
        return name.lower()

    def valid_name(self, name: str) -> bool:
        return bool(_NAME.match(name)) and len(name) <= 214

    def metadata_url(self, base: str, name: str) -> str:
        return registry.metadata_url(base, name)

    def description_page(self, base: str, name: str) -> str | None:
        return None

    def package_info(self, name: str, data: dict[str, Any], url: str) -> PackageInfo:
        return registry.info(name, data, url)

    def choose_artifact(self, document: dict[str, Any], version: str) -> Choice | NoArtifact:
        return artifacts.choose(document, version)

    def keep_member(self, kind: str, parts: list[str]) -> str | None:
        return artifacts.keep(kind, parts)

    def lower_bound(self, spec: str) -> str | None:
        """``spec`` itself when it is a version, else the lowest version its range names."""
        spec = spec.strip()
        return spec if parse_version(self.name, spec) is not None else ranges.npm_min_version(spec)

    def open_ended(self, spec: str) -> bool:
        return False  # the lock says what is installed; a range alone is compared from its low

    def valid_range(self, text: str) -> bool:
        return ranges.valid_range(text)

    def in_ranges(self, version: str, texts: tuple[str, ...]) -> bool:
        return ranges.in_ranges(version, texts)

    def version_in_use(
        self,
        name: str,
        spec: str,
        pinned: str | None,
        installed: str | None,
        released: tuple[str, ...] | None,
    ) -> tuple[str | None, str | None]:
        """(the version in use, why none): the lock's, else the pin, else the range's lowest."""
        return installed or pinned or self.lower_bound(spec), None

    def range_allows(self, spec: str, pinned: str | None, version: str) -> bool:
        return False  # an npm update is measured from the lock, never skipped by its range


NPM = Npm()
