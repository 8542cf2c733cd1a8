"""Find the notes of every version an update brings, from wherever the package keeps them.

``ChangelogFetcher.fetch(ecosystem, package, old, new)`` returns a ``ChangelogResult``: every
section with ``old < version <= new``, newest first, each naming the exact source it was read
from, plus what was tried and what went wrong. All traffic goes through the ``Http`` seam
(registries directly, GitHub through ``GitHubClient``), so host policy, retries and the
on-disk cache with ETag revalidation apply.

Discovery order; it stops as soon as every version the registry publishes in the range has
a section (a pre-release counts as covered by its final release for this decision):

1. Registry metadata (package index JSON / npm registry): the published versions, the
   GitHub repository (+ the package's folder in a monorepo) and any changelog link.
2. The changelog link: a github.com ``blob`` link (or raw.githubusercontent.com) is read
   through the contents API at its ref, a ``tree`` link is searched like a folder; a link
   to another site is named in ``sources_tried`` but not fetched (only configured hosts
   are contacted).
3. Changelog files: CHANGELOG(S), CHANGE-LOG, CHANGES, HISTORY, NEWS, RELEASES,
   RELEASE-NOTES / RELEASE_NOTES, WHATSNEW, UPDATES with ``.md``, ``.markdown``, ``.rst``,
   ``.txt`` or no extension, case-insensitive; in the package's own folder (monorepos),
   the root, then a top-level ``docs``/``doc`` folder. Markdown is preferred over
   reStructuredText over plain text; files under 100 B or over 1 MB only when nothing else
   exists; a file without any version heading gives way to the next one. Read first at the
   new version's tag when it is known (``_new_tag``: the tag memo, else the tag list): the
   notes as released, immutable there. The default branch is read when the tag has no
   notes of the new version (after the tag's folders and the releases); when its copy does
   not mention the new version either, the tag is read (a stable branch may carry newer
   notes than the default branch).
4. Folders of the tree (``folders.py``, rules in ``layouts.py``; the git trees API, one
   request, at the tag or the default branch), when the files leave the range uncovered:
   per-release notes files (``docs/releases/4.2.rst``, ``changes/1.2.0.md``, towncrier
   fragments excluded), read for the range's versions only (a series file ``4.2`` for a
   4.2.x without its own file), and in a monorepo whose registry names no folder, the
   folder whose package.json / pyproject.toml names the package, and its changelog.
5. GitHub releases, 100 a page, until the range is covered or a whole page is older than
   ``old``; tags map to versions with ``tag_version`` (``v1.2.3``, ``pkg@1.2.3``,
   ``pkg-v1.2.3``, ``release-1.2.3``, …; the package's own tags win in a monorepo).
6. The long description on the package index (pip), when it carries a changelog.
7. For a major update whose first release of the new major has no notes, or notes that are
   short or point to a guide: an upgrade / migration guide (``UPGRADING*``, ``MIGRAT*``, at
   the root or under docs/), its section for the new major or the whole guide, bounded, read
   as that release's notes.

A file over the contents API's 1 MB limit (sent without content) is read from the raw-file
endpoint (``raw_url``).

Sections merge one per version: a changelog file's section (default branch, then tag) wins
over a release body, which wins over the description.

Caching (``core/cache.py``): a file, listing or tree read at the new version's tag is
immutable, and the tag itself is remembered for good once found (``tagmemo.py``): a warm run
sends nothing for them; the release pages are first taken from the cache as they are, and
used with no request when they hold a release of every version the update needs, each
published at least ``release_settle_days`` ago (settled notes are final, and releases
published since lie outside the range); otherwise they are revalidated. What is read at the
default branch (the repository, folder listings, the changelog file) follows
``notes_policy``: by the age of the new version's release as the registry dates it
(revalidated while under a day old or undated, then fresh for an hour, a day, ten days).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime, timezone
from typing import TypeVar

from depbot import ecosystems
from depbot.changelogs.assemble import assemble
from depbot.changelogs.discovery import (
    CHANGELOG_FILE,
    MAX_FILES_READ,
    candidate_rank,
    parse_github_link,
)
from depbot.changelogs.folders import FolderSource
from depbot.changelogs.newtag import TagSource
from depbot.changelogs.problems import github_problem, registry_problem
from depbot.changelogs.releases import ReleaseSource
from depbot.changelogs.result import ChangelogResult, FetchState
from depbot.changelogs.sections import (
    Section,
    describe_versions,
    parse_sections,
    version_key,
)
from depbot.changelogs.tagmemo import TagMemo
from depbot.core.cache import IMMUTABLE, notes_policy
from depbot.core.errors import ToolError, UpstreamError
from depbot.core.net import Http
from depbot.core.settings import Settings
from depbot.ecosystems import canonical_name, normalize_ecosystem
from depbot.github.client import Entry, GitHubClient
from depbot.records.package import PackageInfo
from depbot.records.versions import Version
from depbot.updates.registries import Registries, registry_url

T = TypeVar("T")


class ChangelogFetcher(TagSource, ReleaseSource, FolderSource):
    """Fetches changelog sections for updates; memoized per update and safe to share between threads."""

    def __init__(
        self,
        settings: Settings,
        http: Http,
        registries: Registries | None = None,
        github: GitHubClient | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.settings = settings
        self.http = http
        self._clock = clock or (lambda: datetime.now(timezone.utc))  # for release_settle_days
        self.registries = registries or Registries(settings, http)
        self.github = github or GitHubClient(settings, http)
        self._lock = threading.Lock()
        self._key_locks: dict[tuple[str, str, str, str], threading.Lock] = {}
        self._memo: dict[tuple[str, str, str, str], ChangelogResult] = {}
        self.tag_memo = TagMemo(settings.cache_dir)  # "R has version V at tag T", for good

    # -- entry point -----------------------------------------------------------------------

    def fetch(self, ecosystem: str, package: str, old: str, new: str) -> ChangelogResult:
        """Every section ``old < version <= new`` of ``package``, newest first.

        Raises ``UpstreamError`` only when the registry metadata could not be read (then
        nothing can be learned); any later failure goes into ``errors`` and the note.
        Raises ``ToolError`` for an unknown ecosystem or a version that does not parse.
        """
        try:
            eco = normalize_ecosystem(ecosystem)
        except ValueError as exc:
            raise ToolError(str(exc)) from None
        name = package.strip()
        key = (eco, canonical_name(eco, name), old.strip(), new.strip())
        with self._lock:
            lock = self._key_locks.setdefault(key, threading.Lock())
        with lock:
            cached = self._memo.get(key)
            if cached is not None:
                return cached
            result = self._fetch(eco, name, old.strip(), new.strip())
            self._memo[key] = result
            return result

    def _fetch(self, eco: str, package: str, old: str, new: str) -> ChangelogResult:
        lo, hi = version_key(eco, old), version_key(eco, new)
        for text, v in ((old, lo), (new, hi)):
            if v is None:
                raise ToolError(f"{text!r} is not a {eco} version; give versions like 1.2.3")
        assert lo is not None and hi is not None
        if not hi > lo:
            return ChangelogResult(
                eco, package, old, new, [],
                note=f"{new} is not newer than {old}, so no section lies between them",
            )  # fmt: skip
        try:
            info = self._twice(lambda: self.registries.info(eco, package))
        except UpstreamError as exc:
            raise registry_problem(exc, eco, package) from None
        skipped = {version_key(eco, t) for t in info.skipped}
        needed: dict[Version, str] = {}
        for text in info.versions:
            v = version_key(eco, text)
            if v is not None and lo < v <= hi and v not in skipped:
                needed[v] = text
        needed.setdefault(hi, new)
        run = FetchState(eco, package, old, new, lo, hi, needed, repo=info.repository)
        run.notes = notes_policy(self._released(info, eco, hi), self._clock())

        primary = self._from_link(run, info)
        repo = info.repository or (primary[0] if primary else None)
        if repo is None:
            run.tried.append("the registry names no GitHub repository")
        if repo and not run.covered() and primary is None:
            tag = self._new_tag(run, repo)
            if tag is not None:  # the notes as released: immutable at the tag
                primary = self._from_files(run, repo, info.directory, tag=tag)
                if not run.covered():  # per-release files, a monorepo package's folder
                    self._from_layouts(run, repo, info.directory, tag)
                if hi not in run.seen and not run.covered():  # the version's release, if any
                    self._from_releases(run, repo)
            if hi not in run.seen:  # none has notes of the version: the default branch
                primary = self._from_files(run, repo, info.directory) or primary
                if not run.covered() and repo not in run.missing_repos:
                    self._from_layouts(run, repo, info.directory, None)
        if primary and not run.covered() and hi not in run.seen and repo not in run.tag_tried:
            self._at_new_tag(run, primary[0], primary[1])
        if repo and not run.covered():
            self._from_releases(run, repo)
        if repo and repo not in run.missing_repos:  # a major: its upgrade guide, when needed
            self._from_guides(run, repo, info.directory, run.new_tags.get(repo))
        if not run.covered():
            self._from_description(run, info)
        return self._result(run)

    @staticmethod
    def _released(info: PackageInfo, eco: str, version: Version) -> datetime | None:
        """When the registry says ``version`` was published (None: it gives no date)."""
        for text, when in info.released.items():
            if version_key(eco, text) == version:
                return when
        return None

    # -- sources ---------------------------------------------------------------------------

    @staticmethod
    def _twice(call: Callable[[], T]) -> T:
        """``call()``, once more after an unreadable answer (an HTML error page from a proxy
        is usually gone on the next try; statuses and timeouts are retried by ``Http``)."""
        try:
            return call()
        except UpstreamError as exc:
            if exc.kind != "bad_response":
                raise
        return call()

    def _branch(self, run: FetchState, repo: str) -> str | None:
        """The default branch's name (None when it could not be had; reads still work)."""
        if repo in run.branches:
            return run.branches[repo]
        branch: str | None = None
        try:
            name = self.github.default_branch(repo, cache=run.notes)
            branch = name if name and name != "None" else None
        except UpstreamError as exc:
            if exc.kind == "not_found":
                run.errors.append(
                    github_problem(
                        exc,
                        f"repository {repo}",
                        "the registry may point at a renamed or private repository",
                    )
                )
                run.branches[repo] = None
                run.missing_repos.add(repo)
                raise
            run.errors.append(github_problem(exc, f"repository {repo}"))
        run.branches[repo] = branch
        return branch

    def _read(
        self,
        run: FetchState,
        repo: str,
        path: str,
        ref: str | None,
        *,
        quiet_404: bool = False,
        at_tag: bool = False,
    ) -> list[Section] | None:
        """Read and parse one file; None when it could not be read. ``at_tag``: ``ref`` is a
        release tag (the file is immutable there: a cached copy is used with no request)."""
        label_ref = ref or run.branches.get(repo) or "the default branch"
        label = f"{path} at {label_ref}" + ("" if repo == run.repo else f" of {repo}")
        try:
            text, url = self._twice(
                lambda: self.github.read_file(
                    repo, path, ref, immutable=at_tag, cache=None if at_tag else run.notes
                )
            )
        except UpstreamError as exc:
            if exc.kind == "not_found" and quiet_404:
                return None
            run.errors.append(github_problem(exc, f"{path} of {repo} at {label_ref}"))
            run.tried.append(f"{label} (could not be read)")
            return None
        source = url or f"{repo}:{path}@{label_ref}"
        sections = parse_sections(text, source, ecosystem=run.eco, package=run.package)
        run.tried.append(f"{label} ({describe_versions(run.eco, [s.version for s in sections])})")
        run.files_read.append(label)
        run.add(sections, label)
        return sections

    def _from_link(self, run: FetchState, info: PackageInfo) -> tuple[str, str] | None:
        """Follow the registry's changelog link; ``(repo, path)`` of a file read, if any."""
        link = info.changelog_url
        if not link:
            return None
        parsed = parse_github_link(link)
        if parsed is None:
            run.tried.append(f"changelog link {link} (not on GitHub, not read)")
            return None
        repo, kind, ref, path = parsed
        if kind == "releases":
            return None  # the releases step reads them
        try:
            self._branch(run, repo)
        except UpstreamError:
            return None
        if kind == "blob" and path:
            sections = self._read(run, repo, path, ref, quiet_404=True)
            if sections is None and ref:
                sections = self._read(run, repo, path, None, quiet_404=True)
            if sections is None:
                run.tried.append(f"changelog link {link} (no such file)")
                return None
            return (repo, path) if sections else None
        # a tree link: a folder to search
        if repo == info.repository or info.repository is None:
            return self._from_files(run, repo, path or info.directory)
        return None

    def _list(
        self, run: FetchState, repo: str, path: str, tag: str | None = None
    ) -> list[Entry] | None:
        """A folder listing at the default branch (``run.notes``) or at a release ``tag``
        (immutable there); None when it could not be had."""
        cache = IMMUTABLE if tag else run.notes
        try:
            entries = self._twice(lambda: self.github.list_dir(repo, path, tag, cache=cache))
        except UpstreamError as exc:
            if tag and exc.kind == "not_found":
                return None  # the folder is not there at the tag: the default branch decides
            if exc.kind != "not_found":
                at = f" at {tag}" if tag else ""
                run.errors.append(github_problem(exc, f"folder '{path or '/'}' of {repo}{at}"))
            elif not path:  # the root of a repository that exists: worth saying
                run.tried.append(f"the files of {repo} (GitHub answered 'not found')")
            return None
        return [e for e in entries if isinstance(e.name, str) and isinstance(e.path, str)]

    def _from_files(
        self, run: FetchState, repo: str, directory: str | None, *, tag: str | None = None
    ) -> tuple[str, str] | None:
        """Find and read the changelog file at the default branch, or at the release ``tag``
        (listings and file immutable there); ``(repo, path)`` of the one used, if any."""
        if tag is None:
            if repo in run.missing_repos:
                return None
            try:
                self._branch(run, repo)
            except UpstreamError:
                return None
        else:
            run.tag_tried.add(repo)
        places: list[tuple[str, int]] = []
        directory = (directory or "").strip("/")
        if directory:
            places.append((directory, 0))
        places.append(("", 1))
        candidates: list[tuple[tuple[int, ...], Entry]] = []
        root: list[Entry] | None = None
        for path, rank in places:
            entries = self._list(run, repo, path, tag)
            if path == "":
                root = entries
            for e in entries or []:
                if e.type == "file" and CHANGELOG_FILE.match(e.name):
                    candidates.append((candidate_rank(e, rank), e))
        if not any(r[0] == 0 for r, _ in candidates) and root:
            for d in root:
                if d.type == "dir" and d.name.lower() in ("docs", "doc"):
                    for e in self._list(run, repo, d.path, tag) or []:
                        if e.type == "file" and CHANGELOG_FILE.match(e.name):
                            candidates.append((candidate_rank(e, 2), e))
        candidates.sort(key=lambda c: c[0])
        looked = "the root" + (f", {directory}" if directory else "") + " and docs/"
        if not candidates:
            if root is not None:
                at = f" at {tag}" if tag else ""
                run.no_file = (
                    f"no changelog file found in {repo}{at} (looked for CHANGELOG, CHANGES, "
                    f"HISTORY, NEWS, RELEASES, RELEASE_NOTES, WHATSNEW in {looked})"
                )
                if run.no_file_at < 0:
                    run.no_file_at = len(run.tried)
                    run.tried.append(run.no_file)
                else:  # the default branch after the tag: one sentence for both
                    run.tried[run.no_file_at] = run.no_file
            return None
        if tag is None:
            run.no_file = None  # the tag had none, the default branch has one
        for _, entry in candidates[:MAX_FILES_READ]:
            sections = self._read(run, repo, entry.path, tag, at_tag=tag is not None)
            if sections:
                return repo, entry.path
            if run.covered():
                break
        return None

    def _at_new_tag(self, run: FetchState, repo: str, path: str) -> None:
        tag = self._tag_for(run, repo)
        if tag is None:
            run.tried.append(f"{path} at the tag of {run.new} (no such tag found)")
            return
        self._read(run, repo, path, tag, quiet_404=True, at_tag=True)

    def _from_description(self, run: FetchState, info: PackageInfo) -> None:
        eco = ecosystems.get(run.eco)
        page = eco.description_page(registry_url(self.settings, eco), info.name)
        if page is None or not info.description.strip():
            return
        source = page
        sections = parse_sections(info.description, source, ecosystem=run.eco, kind="description")
        label = f"the long description on the {eco.registry_label}"
        if sections:
            run.tried.append(
                f"{label} ({describe_versions(run.eco, [s.version for s in sections])})"
            )
            run.add(sections, label)
        else:
            run.tried.append(f"{label} (no changelog in it)")

    def _result(self, run: FetchState) -> ChangelogResult:
        return assemble(run, self.settings.changelog_budget)


__all__ = ["ChangelogFetcher"]
