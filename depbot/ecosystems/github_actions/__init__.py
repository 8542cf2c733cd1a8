"""GitHub Actions: the actions a repository's workflows use, released as tags of their
repositories (``uses: owner/repo[/path]@v4``).

The "registry" is the GitHub API (the repository's tags, ``registry.py``); a release's code
is its ``action.yml`` at the tag's commit (``release_files``), read through the GitHub client
with the same size and path limits as any other file; its API is that file's inputs,
outputs and runtime (``api.py``); its uses are the workflow steps that name it
(``workflows.py``, searched as the language ``github-workflow``). Nothing is executed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from depbot.ecosystems.github_actions import registry, versions
from depbot.ecosystems.github_actions.manifests import ACTION_FILES
from depbot.ecosystems.github_actions.workflows import ACTION
from depbot.ecosystems.npm import ranges
from depbot.records.artifact import NoArtifact
from depbot.records.versions import Version

if TYPE_CHECKING:  # annotations only: importing the ecosystems stays light
    from depbot.records.api import ApiDiff
    from depbot.records.artifact import Choice
    from depbot.records.declared import Declared
    from depbot.records.package import PackageInfo


class GitHubActions:
    """The ``Ecosystem`` of actions used by GitHub workflows."""

    name = versions.NAME
    aliases = ("github-actions", "actions", "gha")
    dependabot = ("github-actions",)
    language = "github-workflow"
    source_globs = (".github/workflows/*.yml", ".github/workflows/*.yaml", "action.yml",
                    "action.yaml", "**/action.yml", "**/action.yaml")  # fmt: skip
    default_manifest = ".github/workflows"
    registry_label = "GitHub tags"
    url_setting = "github_api_url"
    range_syntax = "an npm-style range of action versions"
    name_noun = "an action (owner/repo or owner/repo/path)"
    requirements_folder = ".github/workflows"  # Dependabot reads it for the directory "/"
    whole_interface = True  # action.yml declares every input and output
    lock_files: tuple[str, ...] = ()

    def locked(self, lock: str, text: str, name: str) -> set[str]:
        return set()  # a workflow pins each action where it uses it

    def is_manifest(self, path: Path) -> bool:
        from depbot.ecosystems.github_actions import manifests

        return manifests.is_manifest(path)

    def read_manifest(
        self,
        path: Path,
        root: Path,
        label: str,
        secret_files: tuple[str, ...],
        memo: dict[Path, Any] | None,
    ) -> tuple[list[Declared], list[str]]:
        from depbot.ecosystems.github_actions import manifests

        return manifests.read(path, root, label, secret_files, memo)

    def workspace_globs(self, repo: Path, root: str) -> list[str]:
        return []

    def in_workspace(self, rel: str, globs: list[str]) -> bool:
        return False

    def api_changes(self, old_root: Path, new_root: Path, diff: ApiDiff) -> None:
        from depbot.ecosystems.github_actions.api import action_changes

        action_changes(old_root, new_root, diff)

    def companion(
        self,
        package: str,
        version: str,
        root: Path,
        versions: Callable[[str], list[str]],
        *,
        older: bool = False,
    ) -> tuple[str, str | None] | None:
        return None

    def re_exported(
        self, package: str, version: str, root: Path, versions: Callable[[str], list[str]]
    ) -> list[tuple[str, str | None]]:
        return []

    def release_files(
        self, document: dict[str, Any], package: str, version: str
    ) -> tuple[str, str, tuple[str, ...]] | None:
        """(owner/repo, the commit of the version's tag, the action metadata files there)."""
        repo, folder = registry.repository(package)
        tag = registry.tags(document).get(version)
        if tag is None:
            return repo, "", ()
        name, sha = tag
        prefix = f"{folder}/" if folder else ""
        return repo, sha or name, tuple(prefix + f for f in ACTION_FILES)

    def reach_rules(self) -> Any:
        return None  # what loads a package besides an import is not read for this ecosystem

    def import_names(self, package: str, *, environment: bool = False) -> list[str]:
        return [package]

    def parse_version(self, raw: str) -> Version | None:
        return versions.parse(raw)

    def forgiving_version(self, text: str) -> str | None:
        from depbot.ecosystems.npm.versions import forgiving

        return forgiving(text)

    def canonical_name(self, name: str) -> str:
        return name.lower()

    def valid_name(self, name: str) -> bool:
        return bool(ACTION.match(name)) and ".." not in name.split("/")

    def metadata_url(self, base: str, name: str) -> str:
        return registry.metadata_url(base, name)

    def description_page(self, base: str, name: str) -> str | None:
        return None

    def package_info(self, name: str, data: dict[str, Any], url: str) -> PackageInfo:
        return registry.info(name, data, url)

    def choose_artifact(self, document: dict[str, Any], version: str) -> Choice | NoArtifact:
        return NoArtifact("an action's code is its repository at the tag (release_files)")

    def keep_member(self, kind: str, parts: list[str]) -> str | None:
        return None

    def lower_bound(self, spec: str) -> str | None:
        return versions.of_ref(spec)

    def open_ended(self, spec: str) -> bool:
        return False

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
        """The version the ref names (a tag, or a SHA pin's version comment)."""
        if pinned:
            return pinned, None
        if versions.is_sha(spec):
            return None, f"{name}@{spec[:12]}…: a commit with no version comment; skipped"
        return None, f"{name}@{spec}: a branch or a tag that names no version; skipped"

    def range_allows(self, spec: str, pinned: str | None, version: str) -> bool:
        """A floating tag already runs ``version``: ``v4`` any 4.x, ``v4.1`` any 4.1.x."""
        wanted = versions.parse(version)
        if wanted is None or versions.is_sha(spec):
            return False
        n = versions.precision(spec)
        mine = versions.parse(versions.of_ref(spec) or "")
        if mine is None or n >= 3:
            return False
        return mine.release[:n] == wanted.release[:n]


GITHUB_ACTIONS = GitHubActions()
