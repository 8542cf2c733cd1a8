"""The new version's tag in a repository, for reading its notes as released: remembered in
the tag memo (``tagmemo.py``, no request), else found in the releases already read, the tag
list, or (later) the release pages. A mixin of ``fetch.ChangelogFetcher``.
"""

from __future__ import annotations

from collections.abc import Callable

from depbot.changelogs.problems import github_problem
from depbot.changelogs.result import FetchState
from depbot.changelogs.sections import pick_tags, version_key
from depbot.changelogs.tagmemo import TagMemo
from depbot.core.errors import UpstreamError
from depbot.github.client import GitHubClient, Release

__all__ = ["TagSource"]


class TagSource:
    """Resolves the new version's tag (mixed into the fetcher)."""

    github: GitHubClient
    tag_memo: TagMemo

    _release_list: Callable[[FetchState, str], list[Release]]  # ReleaseSource's

    def _pick(self, run: FetchState, tags: list[str]) -> str | None:
        for tag, version in pick_tags(tags, run.package).items():
            if version_key(run.eco, version) == run.hi:
                return tag
        return None

    def _tag_for(self, run: FetchState, repo: str, *, first: bool = False) -> str | None:
        """The tag of the new version: from the releases when read, else the tag list, else
        (not ``first``) the releases. ``first``: before any notes are read, quietly (a failure
        leaves the default branch to read) and without the release pages when no tag names
        the version (a release has a tag). Kept in ``run.new_tags`` and, once found, in the
        tag memo for good."""
        if repo in run.new_tags and (run.new_tags[repo] or first):
            return run.new_tags[repo]
        tag = self._pick(run, [r.tag for r in run.releases.get(repo, [])])
        if tag is None and repo not in run.tags_listed:
            run.tags_listed.add(repo)
            try:
                tag = self._pick(run, self.github.tags(repo, cache=run.notes))
            except UpstreamError as exc:
                if not first:
                    run.errors.append(github_problem(exc, f"tags of {repo}"))
        if tag is None and not first and repo not in run.releases:
            tag = self._pick(run, [r.tag for r in self._release_list(run, repo)])
        run.new_tags[repo] = tag
        if tag is not None:
            self.tag_memo.put(repo, run.eco, run.package, run.new, tag)
        return tag

    def _new_tag(self, run: FetchState, repo: str) -> str | None:
        """The new version's tag before anything is read: remembered (no request), else
        resolved from the tag list."""
        tag = self.tag_memo.get(repo, run.eco, run.package, run.new)
        if tag is not None:
            run.new_tags[repo] = tag
            return tag
        return self._tag_for(run, repo, first=True)
