"""The GitHub releases source of ``fetch.ChangelogFetcher``: the release pages read until the
range is covered (cache-only first, kept when every needed release is settled), and their
bodies as sections. A mixin: it uses the fetcher's ``github``, ``settings`` and ``_clock``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime

from depbot.changelogs.discovery import MAX_RELEASE_PAGES, PER_PAGE
from depbot.changelogs.problems import github_problem
from depbot.changelogs.result import FetchState
from depbot.changelogs.sections import Section, heading_version, pick_tags, version_key
from depbot.core.cache import settled
from depbot.core.errors import UpstreamError
from depbot.core.settings import Settings
from depbot.github.client import GitHubClient, Release

__all__ = ["ReleaseSource"]


class ReleaseSource:
    """Reads the releases of a repository for a ``FetchState`` (mixed into the fetcher)."""

    github: GitHubClient
    settings: Settings
    _clock: Callable[[], datetime]

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
