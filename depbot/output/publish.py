"""Turn reviewed drafts into GitHub issues, never twice for the same update.

Which drafts: the approved ones (every draft but rejected and stale ones with
``all_drafts``). Each draft's hidden marker (``<!-- depbot: pip/urllib3@2.0.7 -->``) is
its identity on GitHub. Before writing anything, publish finds the issues that already
carry a marker, three ways, each covering the others' gaps:

1. every issue, open or closed, labelled ``dependencies`` or ``breaking-change`` (the
   labels depbot puts on its issues), read page by page from the issues list: a list
   that is consistent the moment an issue is created;
2. the issue number review.json recorded when the draft was published before (found
   even if people removed both labels);
3. once per run, and only when a draft is still unmatched, GitHub search for issues that
   mention depbot (label-free, but eventually consistent, hence last; a failure is
   ignored).

Then: no issue → create it (labels created first if missing) and record it in
review.json at once, so a run cut off halfway resumes without duplicates; an open issue
→ updated when the draft's content digest differs from the one in the issue body, else
left alone (edits people made on GitHub to an unchanged draft are kept); a closed issue →
left alone unless ``reopen``. ``comment_on_pr`` also keeps one comment (found by its own
marker) on the Dependabot pull request the update came from.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from depbot.core.errors import PublishError, UpstreamError
from depbot.core.net import Http
from depbot.core.settings import Settings
from depbot.github.client import GitHubClient, split_repo
from depbot.github.issues import GitHubIssues, IssueInfo
from depbot.output.drafts import (
    BODY_LIMIT,
    TITLE_LIMIT,
    body_digest,
    content_digest,
    marker_for,
    parse_marker,
    with_digest,
)
from depbot.output.review import (
    DraftInfo,
    Published,
    draft_title_body,
    list_drafts,
    now_iso,
    update_record,
)

LABELS: dict[str, tuple[str, str]] = {
    "dependencies": ("0366d6", "Pull requests and issues about dependency updates"),
    "breaking-change": ("d73a4a", "A dependency update that breaks code in this repository"),
}
SEARCH_QUERY = 'repo:{repo} is:issue in:body "depbot"'
PERMISSIONS = "issues: write"


def pr_marker(key: str) -> str:
    """The marker of depbot's comment on a Dependabot pull request."""
    return marker_for(key).replace("<!-- depbot:", "<!-- depbot-pr:", 1)


@dataclass
class Action:
    """What publish did (or, in a dry run, would do) for one draft."""

    draft: str
    action: str  # created | updated | unchanged | closed | reopened | skipped | commented | ...
    issue: int | None = None
    url: str = ""
    note: str = ""

    def line(self, dry_run: bool = False) -> str:
        verb = self.action
        if dry_run and verb in _WOULD:
            verb = _WOULD[verb]
        where = f"#{self.issue}" if self.issue else "-"
        tail = "  ".join(x for x in (self.url, self.note) if x)
        return f"{verb:<18} {where:<7} {self.draft}  {tail}".rstrip()


_WOULD = {
    "created": "would create",
    "updated": "would update",
    "reopened": "would reopen",
    "commented": "would comment",
    "comment updated": "would edit comment",
}


@dataclass
class PublishSummary:
    repo: str
    dry_run: bool = False
    actions: list[Action] = field(default_factory=list)
    labels_created: list[str] = field(default_factory=list)

    def count(self, action: str) -> int:
        return sum(1 for a in self.actions if a.action == action)

    def totals(self) -> str:
        names = ("created", "updated", "reopened", "unchanged", "closed", "skipped", "failed")
        parts = [f"{self.count(n)} {n}" for n in names if self.count(n)]
        comments = self.count("commented") + self.count("comment updated")
        if comments:
            parts.append(f"{comments} pull-request comments")
        if self.labels_created:
            verb = "would create" if self.dry_run else "created"
            parts.append(f"{verb} label(s) {', '.join(self.labels_created)}")
        head = "dry run, nothing was sent: " if self.dry_run else ""
        return head + (", ".join(parts) if parts else "nothing to publish")

    def lines(self) -> list[str]:
        return [a.line(self.dry_run) for a in self.actions] + [self.totals()]


Progress = Callable[[Action], None]


@dataclass
class _Item:
    info: DraftInfo
    key: str
    title: str
    body: str  # as sent: the draft body plus the digest line
    digest: str


def _prepare(info: DraftInfo) -> _Item | str:
    """The issue text of a draft as the person left it, or why it cannot be published."""
    title, body = draft_title_body(info)
    if not title:
        return f"{info.file.name} has no '# title' first line"
    key = info.record.key or parse_marker(body) or ""
    if not key:
        return f"{info.file.name} has no depbot marker and review.json does not know its update"
    if parse_marker(body) != key:
        body = f"{body.rstrip()}\n\n{marker_for(key)}"  # a person removed or changed it
    if len(title) > TITLE_LIMIT:
        title = title[: TITLE_LIMIT - 1] + "…"
    sent = with_digest(title, body)
    if len(sent) > BODY_LIMIT:
        return (
            f"{info.file.name} is {len(sent):,} characters; GitHub takes at most "
            f"{BODY_LIMIT:,}: shorten it"
        )
    return _Item(info=info, key=key, title=title, body=sent, digest=content_digest(title, body))


def _select(
    drafts: list[DraftInfo], all_drafts: bool, summary: PublishSummary, progress: Progress
) -> list[_Item]:
    chosen = []
    for info in drafts:
        rec = info.record
        why = ""
        if rec.status == "rejected":
            why = "rejected" + (f": {rec.why}" if rec.why else "")
        elif rec.stale:
            why = "stale: the latest triage run did not produce it"
        elif rec.status != "approved" and not all_drafts:
            why = f"not approved (depbot drafts approve {info.id}, or publish --all)"
        if why:
            _note(summary, progress, Action(info.id, "skipped", note=why))
            continue
        item = _prepare(info)
        if isinstance(item, str):
            _note(summary, progress, Action(info.id, "failed", note=item))
            continue
        chosen.append(item)
    return chosen


def _note(summary: PublishSummary, progress: Progress | None, action: Action) -> None:
    summary.actions.append(action)
    if progress:
        progress(action)


def _fail(
    exc: UpstreamError, repo: str, what: str, left: int, comment: bool = False
) -> PublishError:
    """The ``PublishError`` a user can act on, for a GitHub failure while ``what``."""
    if exc.kind == "unauthorized" and exc.status == 401:
        return PublishError("GitHub rejected the token (HTTP 401): check GITHUB_TOKEN")
    if exc.kind == "unauthorized":
        need = "issues: write and pull-requests: write" if comment else PERMISSIONS
        return PublishError(
            f"GitHub refused {what} in {repo} (HTTP 403): the token needs {need} permission "
            "(in a workflow: permissions: issues: write"
            + (", pull-requests: write" if comment else "")
            + ")"
        )
    if exc.kind == "not_found" and what == "reading the repository":
        return PublishError(f"repository {repo} was not found, or the token cannot see it")
    if exc.kind == "not_found":
        return PublishError(f"GitHub answered 'not found' while {what} in {repo}")
    rest = f"; {left} draft(s) not published yet" if left else ""
    return PublishError(
        f"GitHub failed while {what} ({exc}){rest}. Run depbot publish again: issues already "
        "made are found by their marker, nothing is duplicated"
    )


class _Publisher:
    def __init__(
        self,
        out_dir: Path,
        gi: GitHubIssues,
        repo: str,
        summary: PublishSummary,
        progress: Progress | None,
        *,
        dry_run: bool,
        reopen: bool,
        comment_on_pr: bool,
    ) -> None:
        self.out_dir, self.gi, self.repo = out_dir, gi, repo
        self.summary, self.progress = summary, progress
        self.dry_run, self.reopen, self.comment_on_pr = dry_run, reopen, comment_on_pr
        self.by_key: dict[str, list[IssueInfo]] = {}
        self.searched = False
        self.labels_ready = False

    # -- finding what exists --------------------------------------------------------------

    def _index(self, issues: list[IssueInfo]) -> None:
        for issue in issues:
            key = parse_marker(issue.body)
            if key and all(i.number != issue.number for i in self.by_key.get(key, [])):
                self.by_key.setdefault(key, []).append(issue)

    def scan_labels(self) -> None:
        for label in LABELS:
            self._index(self.gi.issues_with_label(self.repo, label))

    def existing(self, item: _Item) -> tuple[IssueInfo | None, str]:
        found = self.by_key.get(item.key, [])
        pub = item.info.record.published
        if not found and pub and pub.issue:
            try:
                issue = self.gi.get_issue(self.repo, pub.issue)
            except UpstreamError as exc:
                if exc.kind != "not_found":
                    raise
            else:
                if parse_marker(issue.body) == item.key:
                    found = [issue]
        if not found and not self.searched:
            self.searched = True
            try:
                self._index(self.gi.search_issues(SEARCH_QUERY.format(repo=self.repo)))
            except UpstreamError:
                pass  # search is the last safety net; labels and records came first
            found = self.by_key.get(item.key, [])
        if not found:
            return None, ""
        ordered = sorted(found, key=lambda i: (i.state != "open", i.number))
        note = f"{len(found)} issues carry this marker; using #{ordered[0].number}"
        return ordered[0], note if len(found) > 1 else ""

    # -- writing ----------------------------------------------------------------------------

    def ensure_labels(self) -> None:
        if self.labels_ready:
            return
        for name, (color, description) in LABELS.items():
            if not self.gi.label_exists(self.repo, name):
                if not self.dry_run:
                    self.gi.create_label(self.repo, name, color, description)
                self.summary.labels_created.append(name)
        self.labels_ready = True

    def record(self, item: _Item, issue: IssueInfo, comment: tuple[int, str] | None = None) -> None:
        if self.dry_run:
            return
        rec = item.info.record
        old = rec.published
        rec.published = Published(
            issue=issue.number,
            url=issue.url,
            marker=marker_for(item.key),
            body_hash=body_digest(issue.body) or item.digest,
            title=issue.title,
            state=issue.state,
            at=now_iso(),
            repo=self.repo,
            comment_id=comment[0] if comment else (old.comment_id if old else None),
            comment_url=comment[1] if comment else (old.comment_url if old else ""),
        )
        update_record(self.out_dir, rec)

    def publish_one(self, item: _Item) -> IssueInfo | None:
        issue, note = self.existing(item)
        ident = item.info.id
        if issue is None:
            self.ensure_labels()
            if self.dry_run:
                self.note(Action(ident, "created", note=item.title))
                return None
            issue = self.gi.create_issue(self.repo, item.title, item.body, list(LABELS))
            self.record(item, issue)  # at once: a crash after this never makes a second one
            self.by_key.setdefault(item.key, []).append(issue)
            self.note(Action(ident, "created", issue.number, issue.url, note))
            return issue
        same = _same(issue, item)
        if issue.state != "open":
            if not self.reopen:
                why = "closed: left alone (--reopen to reopen it)"
                self.note(Action(ident, "closed", issue.number, issue.url, why))
                self.record(item, issue)
                return None
            fields: dict[str, str] = {"state": "open"}
            if not same:
                fields.update(title=item.title, body=item.body)
            if not self.dry_run:
                issue = self.gi.edit_issue(self.repo, issue.number, **fields)
                self.record(item, issue)
            self.note(Action(ident, "reopened", issue.number, issue.url, note))
            return issue
        if same:
            self.record(item, issue)
            self.note(Action(ident, "unchanged", issue.number, issue.url, note))
            return issue
        if not self.dry_run:
            issue = self.gi.edit_issue(self.repo, issue.number, title=item.title, body=item.body)
            self.record(item, issue)
        self.note(Action(ident, "updated", issue.number, issue.url, note))
        return issue

    def comment(self, item: _Item, issue: IssueInfo) -> None:
        rec = item.info.record
        if rec.source != "dependabot" or not rec.pr.isdigit():
            return
        pr = int(rec.pr)
        marker = pr_marker(item.key)
        body = (
            f"depbot found that this update needs changes in this repository: #{issue.number} "
            f"({_plain(item.title)}).\n\n{marker}"
        )
        mine = [c for c in self.gi.comments(self.repo, pr) if marker in c.body]
        where = f"pull request #{pr}"
        if mine and mine[0].body.strip() == body.strip():
            self.note(Action(item.info.id, "comment unchanged", pr, mine[0].url, where))
            return
        if self.dry_run:
            verb = "comment updated" if mine else "commented"
            self.note(Action(item.info.id, verb, pr, note=where))
            return
        if mine:
            done = self.gi.edit_comment(self.repo, mine[0].id, body)
            verb = "comment updated"
        else:
            done = self.gi.create_comment(self.repo, pr, body)
            verb = "commented"
        self.record(item, issue, (done.id, done.url))
        self.note(Action(item.info.id, verb, pr, done.url, where))

    def note(self, action: Action) -> None:
        _note(self.summary, self.progress, action)


def _same(issue: IssueInfo, item: _Item) -> bool:
    """Whether the issue already says what the draft says (by digest when it has one)."""
    digest = body_digest(issue.body)
    if digest is not None:
        return digest == item.digest
    return issue.title.strip() == item.title.strip() and _norm(issue.body) == _norm(item.body)


def _norm(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").strip().split("\n"))


def _plain(title: str) -> str:
    return title.replace("@", "@\u200b").replace("#", "#\u200b")


def publish(
    out_dir: str | Path,
    settings: Settings,
    *,
    repo: str,
    all_drafts: bool = False,
    dry_run: bool = False,
    comment_on_pr: bool = False,
    reopen: bool = False,
    progress: Progress | None = None,
    http: Http | None = None,
    write_interval: float | None = 1.0,
) -> PublishSummary:
    """Publish the drafts of ``out_dir`` to ``repo`` (see the module doc for the rules).

    Raises ``ConfigError`` without a token (before any request; a dry run may read
    anonymously), ``InputError`` for a folder without drafts, and ``PublishError`` when
    GitHub refuses or fails (the message names the permission the token needs, or says
    that running again resumes without duplicates).
    """
    split_repo(repo)
    out = Path(out_dir)
    own_http = http is None
    # never through the on-disk cache: a stale issue list could make a second issue
    http = http or Http(settings.replace(cache_dir=None))
    try:
        client = GitHubClient(
            settings, http, require_token=not dry_run, write_interval=write_interval or None
        )
        return _run(
            out,
            GitHubIssues(client),
            repo,
            all_drafts=all_drafts,
            dry_run=dry_run,
            comment_on_pr=comment_on_pr,
            reopen=reopen,
            progress=progress,
        )
    finally:
        if own_http:
            http.close()


def _run(
    out: Path,
    gi: GitHubIssues,
    repo: str,
    *,
    all_drafts: bool,
    dry_run: bool,
    comment_on_pr: bool,
    reopen: bool,
    progress: Progress | None,
) -> PublishSummary:
    summary = PublishSummary(repo=repo, dry_run=dry_run)
    items = _select(list_drafts(out), all_drafts, summary, progress)
    if not items:
        return summary
    pub = _Publisher(
        out,
        gi,
        repo,
        summary,
        progress,
        dry_run=dry_run,
        reopen=reopen,
        comment_on_pr=comment_on_pr,
    )
    what = "reading the repository"
    try:
        info = gi.repository(repo)
        if info.get("has_issues") is False:
            raise PublishError(f"issues are turned off in {repo}; turn them on in its settings")
        what = "listing existing issues"
        pub.scan_labels()
        for n, item in enumerate(items):
            what = f"publishing {item.info.id}"
            issue = pub.publish_one(item)
            if comment_on_pr and issue is not None:
                what = f"commenting on the pull request of {item.info.id}"
                try:
                    pub.comment(item, issue)
                except UpstreamError as exc:
                    raise _fail(exc, repo, what, len(items) - n - 1, comment=True) from None
    except UpstreamError as exc:
        done = {a.draft for a in summary.actions if a.action != "skipped"}
        left = sum(1 for i in items if i.info.id not in done)
        raise _fail(exc, repo, what, left) from None
    return summary
