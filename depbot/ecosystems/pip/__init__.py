"""pip: Python distributions on the package index (PEP 440 versions, PEP 503 names)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from depbot.ecosystems.pip import artifacts, importnames, ranges, registry, versions
from depbot.records.names import normalize
from depbot.records.versions import Version, parse_version

if TYPE_CHECKING:  # annotations only: importing the ecosystems stays light
    from depbot.records.api import ApiDiff
    from depbot.records.artifact import Choice, NoArtifact
    from depbot.records.declared import Declared
    from depbot.records.package import PackageInfo


# PEP 508: letters, digits, ".", "_", "-", beginning and ending with a letter or digit
_NAME = re.compile(r"^(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9])$")


class Pip:
    """The ``Ecosystem`` of Python distributions."""

    name = "pip"
    aliases = ("pypi", "python", "pip-compile", "pip_compile", "pipenv", "poetry", "uv")
    dependabot = ("pip", "uv")
    language = "python"
    source_globs = ("*.py", "*.pyi")
    default_manifest = "requirements.txt"
    registry_label = "package index"
    url_setting = "pypi_url"
    range_syntax = "a PEP 440 version specifier"
    name_noun = "a pip distribution name"
    whole_interface = False
    lock_files: tuple[str, ...] = ()
    requirements_folder = "requirements"  # Dependabot reads requirements/*.txt from the parent

    def locked(self, lock: str, text: str, name: str) -> set[str]:
        return set()  # not yet: what poetry.lock / uv.lock pin for other packages is not read

    def is_manifest(self, path: Path) -> bool:
        from depbot.ecosystems.pip import manifests  # its readers load only when a scan runs

        return manifests.is_manifest(path)

    def read_manifest(
        self,
        path: Path,
        root: Path,
        label: str,
        secret_files: tuple[str, ...],
        memo: dict[Path, Any] | None,
    ) -> tuple[list[Declared], list[str]]:
        from depbot.ecosystems.pip import manifests

        return manifests.read(path, root, label, secret_files, memo)

    def workspace_globs(self, repo: Path, root: str) -> list[str]:
        return []  # pip has no workspaces Dependabot reads from their root

    def in_workspace(self, rel: str, globs: list[str]) -> bool:
        return False

    def api_changes(self, old_root: Path, new_root: Path, diff: ApiDiff) -> None:
        from depbot.ecosystems.pip.api.model import python_changes  # griffe: only for a diff

        surfaces: tuple[dict[str, str], dict[str, str]] = ({}, {})
        diff.changes, diff.deprecated = python_changes(
            old_root, new_root, diff.notes, diff.stats, surfaces
        )
        diff.old_api, diff.new_api = surfaces

    def companion(
        self,
        package: str,
        version: str,
        root: Path,
        versions: Callable[[str], list[str]],
        *,
        older: bool = False,
    ) -> tuple[str, str | None] | None:
        return None  # stubs ship inside the wheel, or as their own package the code imports

    def re_exported(
        self, package: str, version: str, root: Path, versions: Callable[[str], list[str]]
    ) -> list[tuple[str, str | None]]:
        return []  # griffe follows imports between the modules of one release

    def release_files(
        self, document: dict[str, Any], package: str, version: str
    ) -> tuple[str, str, tuple[str, ...]] | None:
        return None  # the registry serves the released files

    def reach_rules(self) -> Any:
        return None  # what loads a package besides an import is not read for this ecosystem

    def import_names(self, package: str, *, environment: bool = False) -> list[str]:
        """The names ``package`` is imported under, most likely first; ``environment``: also
        what this Python environment's installed metadata says."""
        installed = importnames.installed_import_names() if environment else None
        return list(importnames.import_names_for(package, installed))

    def parse_version(self, raw: str) -> Version | None:
        return versions.parse(raw)

    def forgiving_version(self, text: str) -> str | None:
        return None

    def canonical_name(self, name: str) -> str:
        return normalize(name)

    def valid_name(self, name: str) -> bool:
        return bool(_NAME.match(name)) and len(name) <= 200

    def metadata_url(self, base: str, name: str) -> str:
        return registry.metadata_url(base, name)

    def description_page(self, base: str, name: str) -> str | None:
        """The index's page of ``name``: its long description may carry the changelog."""
        return registry.project_page(base, name)

    def package_info(self, name: str, data: dict[str, Any], url: str) -> PackageInfo:
        return registry.info(name, data, url)

    def choose_artifact(self, document: dict[str, Any], version: str) -> Choice | NoArtifact:
        return artifacts.choose(document, version)

    def keep_member(self, kind: str, parts: list[str]) -> str | None:
        return artifacts.keep(kind, parts)

    def lower_bound(self, spec: str) -> str | None:
        """``spec`` itself when it is a version, else the lowest version its range names."""
        spec = spec.strip()
        return spec if parse_version(self.name, spec) is not None else ranges.lower_bound(spec)

    def open_ended(self, spec: str) -> bool:
        return ranges.open_ended(spec)

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
        """(the version in use, why none): the pin, else the highest release ``spec`` allows
        (``released``: the registry's versions; None when unknown: the range's lower bound)."""
        if pinned:
            return pinned, None
        if released is None:
            return self.lower_bound(spec), None
        try:
            best = ranges.best_allowed(spec, released)
        except ranges.InvalidSpecifier:
            return None, f"cannot read the range '{spec}' of {name}; skipped"
        return (
            (best, None) if best else (None, f"no published version of {name} satisfies '{spec}'")
        )

    def range_allows(self, spec: str, pinned: str | None, version: str) -> bool:
        """Whether an unpinned range already allows ``version`` (nothing to update)."""
        return not pinned and bool(spec) and ranges.allows(spec, version)


PIP = Pip()
