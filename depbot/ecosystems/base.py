"""What an ecosystem supplies to the stages: the ``Ecosystem`` contract. Pure: no I/O.

A stage never compares an ecosystem's name with a string: it asks the update's ecosystem
(``depbot.ecosystems.get(update.ecosystem)``). Each ecosystem is one folder under
``depbot/ecosystems/`` and one line in its ``__init__``'s table, as Renovate's
``lib/modules/manager/<name>/index.ts`` and its ``api.set`` line.

Language parsing (Python ``ast``, tree-sitter JS/TS) stays in ``search`` / ``symbols``, keyed
by ``language``, not by ecosystem.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from depbot.records.versions import Version

if TYPE_CHECKING:  # annotations only: importing the ecosystems stays light
    from depbot.records.api import ApiDiff
    from depbot.records.artifact import Choice, NoArtifact
    from depbot.records.declared import Declared
    from depbot.records.package import PackageInfo


class Ecosystem(Protocol):
    """One package ecosystem: its names, versions, registry, released files and code."""

    name: str  # as depbot writes it in records, reports and update files: "pip"
    aliases: tuple[str, ...]  # other names people and Dependabot write for it ("pypi", "uv")
    dependabot: tuple[str, ...]  # dependabot.yml package-ecosystem values that configure it
    language: str  # the language of its code: "python", "javascript" (search and symbols)
    source_globs: tuple[str, ...]  # the files code search reads for uses of its packages
    default_manifest: str  # the manifest a Dependabot ``directory`` means: "requirements.txt"
    registry_label: str  # how an entry is named in messages: "package index" (entry for x)
    url_setting: str  # the Settings field with the registry's base URL
    range_syntax: str  # how its version ranges are called: "a PEP 440 version specifier"
    name_noun: str  # what a package name of it is called: "a pip distribution name"
    requirements_folder: str | None  # a manifests folder Dependabot reads from its parent
    # whether the API model reads the package's whole interface (an action's action.yml
    # declares every input): a used name the old release lacks is then the code's own error,
    # not a part of the package the model could not see (apidiff/fates.py)
    whole_interface: bool
    lock_files: tuple[str, ...]  # the file names of its locks, which ``locked`` reads

    def is_manifest(self, path: Path) -> bool:
        """Whether the checkout's file ``path`` is a manifest of this ecosystem."""
        ...

    def locked(self, lock: str, text: str, name: str) -> set[str]:
        """The versions of ``name`` a lock file (``lock``, one of ``lock_files``; its
        ``text``) installs, whether a manifest declares it or another package brings it."""
        ...

    def read_manifest(
        self,
        path: Path,
        root: Path,
        label: str,
        secret_files: tuple[str, ...],
        memo: dict[Path, Any] | None,
    ) -> tuple[list[Declared], list[str]]:
        """The dependencies ``path`` declares (with its lock's versions), and warnings.

        ``label`` names the file in messages; ``memo`` holds what one scan learns once."""
        ...

    def workspace_globs(self, repo: Path, root: str) -> list[str]:
        """The member globs of a workspace rooted at the folder ``root`` ([] for none)."""
        ...

    def in_workspace(self, rel: str, globs: list[str]) -> bool:
        """Whether the folder ``rel`` (under the workspace root) matches its ``globs``."""
        ...

    def api_changes(self, old_root: Path, new_root: Path, diff: ApiDiff) -> None:
        """Fill ``diff`` (changes, deprecations, notes, stats) from two unpacked releases."""
        ...

    def companion(
        self,
        package: str,
        version: str,
        root: Path,
        versions: Callable[[str], list[str]],
        *,
        older: bool = False,
    ) -> tuple[str, str | None] | None:
        """The release that completes the API of ``package`` ``version`` unpacked at ``root``
        (npm: ``@types/<name>`` of its major when it ships no declarations), as (package,
        version; None when no release fits); ``versions(name)`` lists a package's releases.
        ``older``: the update's old side, where a companion of an older major may stand in
        (never on the new side: it would hide what the new major removed).
        None: the release is whole."""
        ...

    def re_exported(
        self, package: str, version: str, root: Path, versions: Callable[[str], list[str]]
    ) -> list[tuple[str, str | None]]:
        """The packages the release unpacked at ``root`` re-exports wholesale (npm: ``export *
        from 'other'``), each with the version its own dependency ranges resolve to among
        ``versions(name)`` (None: no release fits); [] when it re-exports none."""
        ...

    def release_files(
        self, document: dict[str, Any], package: str, version: str
    ) -> tuple[str, str, tuple[str, ...]] | None:
        """For an ecosystem whose releases are tags of a GitHub repository (GitHub Actions):
        (owner/repo, the ref to read them at: the tag's commit, "" when no tag names
        ``version``, the files that are the release's code there, the first found wins),
        from the registry's ``document``. None: the registry serves artifacts
        (``choose_artifact``)."""
        ...

    def reach_rules(self) -> Any:
        """The pure rules of what may load a package that no file imports (npm: its
        commands, a dependency that needs it, a short name by convention: the module
        ``npm/reach.py``); None when the ecosystem has none, and then no such package is
        called unreached."""
        ...

    def import_names(self, package: str, *, environment: bool = False) -> list[str]:
        """The names code imports ``package`` under (``environment``: also ask the installed
        metadata of this environment, where the ecosystem has any)."""
        ...

    def parse_version(self, raw: str) -> Version | None:
        """A version of this ecosystem (``v``/``=`` prefix already gone), or None."""
        ...

    def forgiving_version(self, text: str) -> str | None:
        """How a changelog heading may still mean a version ("1.02.0"), or None."""
        ...

    def canonical_name(self, name: str) -> str:
        """The name two spellings of one package share."""
        ...

    def valid_name(self, name: str) -> bool:
        """Whether ``name`` can be a package of this ecosystem."""
        ...

    def lower_bound(self, spec: str) -> str | None:
        """``spec`` itself when it is a version, else the lowest version its range names."""
        ...

    def open_ended(self, spec: str) -> bool:
        """A range with no upper bound and no pin, that nothing can be compared with."""
        ...

    def valid_range(self, text: str) -> bool:
        """Whether ``text`` is a range of this ecosystem (dependabot.yml ``versions``)."""
        ...

    def in_ranges(self, version: str, texts: tuple[str, ...]) -> bool:
        """Whether ``version`` is in one of the ranges ``texts``."""
        ...

    def version_in_use(
        self,
        name: str,
        spec: str,
        pinned: str | None,
        installed: str | None,
        released: tuple[str, ...] | None,
    ) -> tuple[str | None, str | None]:
        """(the version a declaration is at, None) or (None, why it cannot be told)."""
        ...

    def range_allows(self, spec: str, pinned: str | None, version: str) -> bool:
        """Whether a declared range already allows ``version``: no update to propose."""
        ...

    def metadata_url(self, base: str, name: str) -> str:
        """The registry's entry of ``name``, under the registry's base URL."""
        ...

    def description_page(self, base: str, name: str) -> str | None:
        """The registry page whose long description may carry the notes, or None."""
        ...

    def package_info(self, name: str, data: dict[str, Any], url: str) -> PackageInfo:
        """The registry's JSON entry read into a ``PackageInfo``."""
        ...

    def choose_artifact(self, document: dict[str, Any], version: str) -> Choice | NoArtifact:
        """The released file of ``version`` to read, from the registry entry."""
        ...

    def keep_member(self, kind: str, parts: list[str]) -> str | None:
        """Where an archive member (its safe parts) is kept, or None when not needed."""
        ...
