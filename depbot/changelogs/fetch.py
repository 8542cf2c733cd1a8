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
   exists; a file without any version heading gives way to the next one. Read at the
   default branch; when that copy does not mention the new version, read again at the new
   version's tag (a stable branch may carry newer notes than the default branch).
4. GitHub releases, 100 a page, until the range is covered or a whole page is older than
   ``old``; tags map to versions with ``tag_version`` (``v1.2.3``, ``pkg@1.2.3``,
   ``pkg-v1.2.3``, ``release-1.2.3``, …; the package's own tags win in a monorepo).
5. The long description on the package index (pip), when it carries a changelog.

Sections merge one per version: a changelog file's section (default branch, then tag) wins
over a release body, which wins over the description.

Caching (``core/cache.py``): a file read at the new version's tag is immutable (a warm run
sends nothing for it); the release pages are first taken from the cache as they are, and
used with no request when they hold a release of every version the update needs, each
published at least ``release_settle_days`` ago (settled notes are final, and releases
published since lie outside the range); otherwise they are revalidated. What is read at the
default branch (the repository, folder listings, the changelog file) follows
``notes_policy``: by the age of the new version's release as the registry dates it
(revalidated while under a day old or undated, then fresh for an hour, a day, ten days).
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timezone
from typing import TypeVar

from depbot.changelogs.discovery import (
    CHANGELOG_FILE,
    CONTEXT_LINES,
    MAX_FILES_READ,
    MAX_RELEASE_PAGES,
    PER_PAGE,
    candidate_rank,
    parse_github_link,
)
from depbot.changelogs.problems import github_problem, registry_problem
from depbot.changelogs.result import ChangelogResult, FetchState
from depbot.changelogs.sections import (
    Section,
    describe_versions,
    heading_version,
    parse_sections,
    pick_tags,
    slice_range,
    version_key,
)
from depbot.changelogs.trim import deprecation_notes, removes_deprecated, trim_to_budget
from depbot.core.cache import notes_policy, settled
from depbot.core.errors import ToolError, UpstreamError
from depbot.core.net import Http
from depbot.core.settings import Settings
from depbot.github.client import Entry, GitHubClient, Release
from depbot.records.names import canonical_name
from depbot.records.versions import Version, normalize_ecosystem, update_type
from depbot.updates.registries import PackageInfo, Registries

T = TypeVar("T")


class ChangelogFetcher:
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
            primary = self._from_files(run, repo, info.directory)
        if primary and not run.covered() and hi not in run.seen:
            self._at_new_tag(run, primary[0], primary[1])
        if repo and not run.covered():
            self._from_releases(run, repo)
        if eco == "pip" and not run.covered():
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

    def _list(self, run: FetchState, repo: str, path: str) -> list[Entry] | None:
        try:
            entries = self._twice(lambda: self.github.list_dir(repo, path, cache=run.notes))
        except UpstreamError as exc:
            if exc.kind != "not_found":
                run.errors.append(github_problem(exc, f"folder '{path or '/'}' of {repo}"))
            elif not path:  # the root of a repository that exists: worth saying
                run.tried.append(f"the files of {repo} (GitHub answered 'not found')")
            return None
        return [e for e in entries if isinstance(e.name, str) and isinstance(e.path, str)]

    def _from_files(
        self, run: FetchState, repo: str, directory: str | None
    ) -> tuple[str, str] | None:
        """Find and read the changelog file; ``(repo, path)`` of the one used, if any."""
        try:
            self._branch(run, repo)
        except UpstreamError:
            return None
        places: list[tuple[str, int]] = []
        directory = (directory or "").strip("/")
        if directory:
            places.append((directory, 0))
        places.append(("", 1))
        candidates: list[tuple[tuple[int, ...], Entry]] = []
        root: list[Entry] | None = None
        for path, rank in places:
            entries = self._list(run, repo, path)
            if path == "":
                root = entries
            for e in entries or []:
                if e.type == "file" and CHANGELOG_FILE.match(e.name):
                    candidates.append((candidate_rank(e, rank), e))
        if not any(r[0] == 0 for r, _ in candidates) and root:
            for d in root:
                if d.type == "dir" and d.name.lower() in ("docs", "doc"):
                    for e in self._list(run, repo, d.path) or []:
                        if e.type == "file" and CHANGELOG_FILE.match(e.name):
                            candidates.append((candidate_rank(e, 2), e))
        candidates.sort(key=lambda c: c[0])
        looked = "the root" + (f", {directory}" if directory else "") + " and docs/"
        if not candidates:
            if root is not None:
                run.no_file = (
                    f"no changelog file found in {repo} (looked for CHANGELOG, CHANGES, HISTORY, "
                    f"NEWS, RELEASES, RELEASE_NOTES, WHATSNEW in {looked})"
                )
                run.no_file_at = len(run.tried)
                run.tried.append(run.no_file)
            return None
        for _, entry in candidates[:MAX_FILES_READ]:
            sections = self._read(run, repo, entry.path, None)
            if sections:
                return repo, entry.path
            if run.covered():
                break
        return None

    def _tag_for(self, run: FetchState, repo: str) -> str | None:
        """The tag of the new version: from the releases when read, else the tag list."""
        tags = [r.tag for r in self._release_list(run, repo)]
        for tag, version in pick_tags(tags, run.package).items():
            if version_key(run.eco, version) == run.hi:
                return tag
        try:
            tags = self.github.tags(repo)
        except UpstreamError as exc:
            run.errors.append(github_problem(exc, f"tags of {repo}"))
            return None
        for tag, version in pick_tags(tags, run.package).items():
            if version_key(run.eco, version) == run.hi:
                return tag
        return None

    def _at_new_tag(self, run: FetchState, repo: str, path: str) -> None:
        tag = self._tag_for(run, repo)
        if tag is None:
            run.tried.append(f"{path} at the tag of {run.new} (no such tag found)")
            return
        self._read(run, repo, path, tag, quiet_404=True, at_tag=True)

    def _release_list(self, run: FetchState, repo: str) -> list[Release]:
        """Releases of ``repo``, newest first, read page by page until enough is known."""
        if repo in run.releases:
            return run.releases[repo]
        if repo in run.missing_repos:
            return []
        out: list[Release] = self._settled_releases(run, repo) or []
        error: UpstreamError | None = None
        capped = False
        for _attempt in range(0 if out else 2):  # once more after an unreadable first page
            error = None
            try:
                for rel in self.github.iter_releases(repo):
                    out.append(rel)
                    if len(out) % PER_PAGE == 0:
                        if self._enough(run, out):
                            break
                        if len(out) >= PER_PAGE * MAX_RELEASE_PAGES:
                            capped = True
                            break
            except UpstreamError as exc:
                error = exc
            if error is None or error.kind != "bad_response" or out:
                break
        run.releases[repo] = out
        if error is not None:
            hint = (
                f"the sections from {run.files_read[0]} are shown"
                if run.files_read
                else "the changelog file may still be readable"
                if run.no_file is None
                else "the repository has no changelog file either; set GITHUB_TOKEN or try again later"
            )
            run.errors.append(github_problem(error, f"releases of {repo}", hint))
            run.tried.append(f"releases of {repo} (could not be read)")
        elif not out:
            run.tried.append(f"releases of {repo} (none)")
        else:
            more = "first " if capped else ""
            run.tried.append(
                f"releases of {repo} ({more}{len(out)} releases, newest {out[0].tag}, "
                f"oldest read {out[-1].tag})"
                if len(out) > 1
                else f"releases of {repo} (1 release, {out[0].tag})"
            )
        return out

    def _release_sections(self, run: FetchState, releases: list[Release]) -> list[Section]:
        picked = pick_tags([r.tag for r in releases], run.package)
        out: list[Section] = []
        for r in releases:
            version = picked.get(r.tag)
            if version is None and not re.search(r"\d", r.tag):
                version = heading_version(r.name or "")
            if version is None:
                continue
            out.append(
                Section(
                    version=version,
                    heading=(r.name or r.tag).strip(),
                    body=r.body.strip(),
                    source=r.url or f"{r.tag} release",
                    line_start=0,
                    line_end=0,
                    kind="release",
                )
            )
        return out

    def _settled_releases(self, run: FetchState, repo: str) -> list[Release] | None:
        """The release pages as the cache holds them (no request), when they cover the range
        with settled releases; None otherwise (not cached, or a needed release is missing or
        younger than ``release_settle_days``)."""
        out: list[Release] = []
        try:
            for rel in self.github.iter_releases(repo, cached_only=True):
                out.append(rel)
                full = len(out) >= PER_PAGE * MAX_RELEASE_PAGES
                if len(out) % PER_PAGE == 0 and (full or self._settled_cover(run, out)):
                    break
        except UpstreamError:
            pass  # the next page is not cached: the pages before it may still do
        return out if out and self._settled_cover(run, out) else None

    def _settled_cover(self, run: FetchState, releases: list[Release]) -> bool:
        now, days = self._clock(), self.settings.release_settle_days
        fresh = {
            r.url or f"{r.tag} release" for r in releases if not settled(r.published, now, days)
        }
        sections = self._release_sections(run, releases)
        return self._covers(run, [s for s in sections if s.source not in fresh])

    def _covers(self, run: FetchState, sections: list[Section]) -> bool:
        """Every needed version is found or in ``sections`` (a pre-release: or its final)."""
        have = set(run.found) | {
            v for s in sections if (v := version_key(run.eco, s.version)) is not None
        }
        finals = {(v.release, v.is_prerelease) for v in have}
        return all(
            v in have or (v.is_prerelease and (v.release, False) in finals) for v in run.needed
        )

    def _enough(self, run: FetchState, releases: list[Release]) -> bool:
        """After a page: the range is covered, or the whole last page is older than ``old``."""
        if self._covers(run, self._release_sections(run, releases)):
            return True
        page = self._release_sections(run, releases[-PER_PAGE:])
        keys = [version_key(run.eco, s.version) for s in page]
        keys = [k for k in keys if k is not None]
        return bool(keys) and all(k <= run.lo for k in keys)

    def _from_releases(self, run: FetchState, repo: str) -> None:
        releases = self._release_list(run, repo)
        if releases:
            run.add(self._release_sections(run, releases), f"releases of {repo}")
        if run.no_file and releases:
            run.no_file += f"; {len(releases)} releases exist, newest {releases[0].tag}"
            run.tried[run.no_file_at] = run.no_file

    def _from_description(self, run: FetchState, info: PackageInfo) -> None:
        if not info.description.strip():
            return
        source = f"{self.settings.pypi_url}/project/{info.name}/"
        sections = parse_sections(info.description, source, ecosystem=run.eco, kind="description")
        label = "the long description on the package index"
        if sections:
            run.tried.append(
                f"{label} ({describe_versions(run.eco, [s.version for s in sections])})"
            )
            run.add(sections, label)
        else:
            run.tried.append(f"{label} (no changelog in it)")

    # -- result ----------------------------------------------------------------------------

    def _context(self, run: FetchState, in_range: list[Section]) -> list[Section]:
        """Deprecation notes of versions <= old, when the range removes deprecated code."""
        kind = update_type(run.eco, run.old, run.new)
        zero_x = run.lo.major == 0 and kind in ("minor", "major", "other")
        if not (kind == "major" or zero_x or removes_deprecated(in_range)):
            return []
        older = sorted((v for v in run.seen if v <= run.lo), reverse=True)
        out: list[Section] = []
        budget = CONTEXT_LINES
        for v in older:
            notes = deprecation_notes(run.seen[v].body)
            kept: list[str] = []
            for note in notes:
                n = note.count("\n") + 1
                if n > budget:
                    break
                kept.append(note)
                budget -= n
            if kept:
                out.append(replace(run.seen[v], body="\n".join(kept)))
            if budget <= 0 or len(kept) < len(notes):
                break
        return out

    def _result(self, run: FetchState) -> ChangelogResult:
        found = slice_range(list(run.found.values()), run.eco, run.old, run.new)
        context = self._context(run, found)
        sections, trimmed = trim_to_budget(found, self.settings.changelog_budget)
        missing = [
            text for v, text in sorted(run.needed.items(), reverse=True) if v not in run.found
        ]
        if found:
            counts = Counter(run.labels[v] for v in run.found)
            span = describe_versions(run.eco, [s.version for s in found]).replace("versions ", "")
            where = ", ".join(f"{n} from {label}" for label, n in counts.items())
            note = f"found {len(found)} section{'s' if len(found) > 1 else ''} ({span}): {where}"
            if missing:
                shown = ", ".join(missing[:8]) + (", …" if len(missing) > 8 else "")
                note += f"; no notes found for {shown}, which the registry publishes"
            if run.no_file and not run.files_read:
                note += f"; {run.no_file.split(' (')[0]}"
        else:
            tried = ", ".join(run.tried) or "no source"
            note = f"no section between {run.old} and {run.new} found; tried {tried}"
            if run.errors:
                note += "; upstream problems: " + "; ".join(run.errors)
        return ChangelogResult(
            ecosystem=run.eco,
            package=run.package,
            from_version=run.old,
            to_version=run.new,
            sections=sections,
            context=context,
            sources_tried=run.tried,
            missing_versions=missing,
            note=note,
            errors=run.errors,
            trimmed=trimmed,
            published=[text for _, text in sorted(run.needed.items())],
            found_versions=[run.found[v].version for v in sorted(run.found)],
        )


__all__ = ["ChangelogFetcher"]
