"""Turn reviewed drafts into GitHub issues, never twice for the same update.

Which drafts: the approved ones (every draft but rejected and stale ones with
``all_drafts``). Each draft's hidden marker (``<!-- depbot: pip/urllib3@2.0.7 -->``) is
its identity on GitHub; the author says whose: only issues opened by the identity
publishing now count, others' marked issues are ignored and counted (own_issues.py). One
publish of a folder at a time (publish_lock.py). Before writing anything, publish finds
the issues that already carry a marker, three ways, each covering the others' gaps:

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
left alone unless ``reopen``; a new issue whose older open twin another publish made
meanwhile → closed as its duplicate. ``comment_on_pr`` also keeps one comment (found by
its own marker and author) on the Dependabot pull request the update came from.
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path

from depbot.core.errors import PublishError, UpstreamError
from depbot.core.net import Http
from depbot.core.settings import Settings
from depbot.github.client import GitHubClient, split_repo
from depbot.github.issues import GitHubIssues, IssueInfo
from depbot.output.drafts import body_digest, marker_for, parse_marker
from depbot.output.mdsafe import neutralize_line
from depbot.output.own_issues import (
    OwnIssues,
    duplicate_body,
    older_twin,
    publisher_login,
    search_query,
)
from depbot.output.publish_lock import DEFAULT_WAIT, publish_lock
from depbot.output.publish_plan import (
    Action,
    Item,
    Progress,
    PublishSummary,
    note_action,
    select_items,
)
from depbot.output.review import Published, list_drafts, now_iso, update_record

__all__ = ["LABELS", "Action", "PublishSummary", "pr_marker", "publish"]

LABELS: dict[str, tuple[str, str]] = {
    "dependencies": ("0366d6", "Pull requests and issues about dependency updates"),
    "breaking-change": ("d73a4a", "A dependency update that breaks code in this repository"),
}
PERMISSIONS = "issues: write"


def pr_marker(key: str) -> str:
    """The marker of depbot's comment on a Dependabot pull request."""
    return marker_for(key).replace("<!-- depbot:", "<!-- depbot-pr:", 1)


# failures of a create that GitHub may have carried out before answering (or not answering)
UNSURE = frozenset({"server_error", "timeout", "connection", "bad_response"})


def _fail(
    exc: UpstreamError,
    repo: str,
    what: str,
    left: int,
    comment: bool = False,
    maybe: str = "",
) -> PublishError:
    """The ``PublishError`` a user can act on, for a GitHub failure while ``what``.

    ``maybe`` names the draft whose create failed in a way that does not tell whether GitHub
    made the issue: it is not counted as left, and the rerun finds it by its marker.
    """
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
    if maybe:
        other = f"; {left} other draft(s) not published yet" if left else ""
        return PublishError(
            f"{maybe} may have been published: GitHub failed while creating its issue ({exc}) "
            f"and did not say whether it was made{other}. Run depbot publish again: an issue "
            "already made is found by its marker, nothing is duplicated"
        )
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
        self.creating = ""  # the draft whose issue is being created, while it is
        self.dry_run, self.reopen, self.comment_on_pr = dry_run, reopen, comment_on_pr
        self.own = OwnIssues(None)  # who depbot is: set by _run from GET /user
        self.searched = False
        self.labels_ready = False
        # from Settings (.github/depbot.yml `labels:` / `assignees:`): set by _run
        self.extra_labels: tuple[str, ...] = ()
        self.assignees: tuple[str, ...] = ()

    # -- finding what exists --------------------------------------------------------------

    def scan_labels(self) -> None:
        """depbot's issues by their labels, and by their author: people remove labels, and
        GitHub drops them on create for a token without push access."""
        for label in LABELS:
            self.own.add(self.gi.issues_with_label(self.repo, label))
        if self.own.login:
            self.own.add(self.gi.issues_by_creator(self.repo, self.own.login))

    def existing(self, item: Item) -> tuple[IssueInfo | None, str]:
        found = self.own.get(item.key)
        pub = item.info.record.published
        if not found and pub and pub.issue:
            try:
                issue = self.gi.get_issue(self.repo, pub.issue)
            except UpstreamError as exc:
                if exc.kind != "not_found":
                    raise
            else:
                if parse_marker(issue.body) == item.key and self.own.mine(issue):
                    found = [issue]
        if not found and not self.searched:
            self.searched = True
            try:
                self.own.add(self.gi.search_issues(search_query(self.repo, self.own.login)))
            except UpstreamError:
                pass  # search is the last safety net; labels and records came first
            found = self.own.get(item.key)
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

    def record(self, item: Item, issue: IssueInfo, comment: tuple[int, str] | None = None) -> None:
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

    def publish_one(self, item: Item) -> IssueInfo | None:
        issue, note = self.existing(item)
        ident = item.info.id
        if issue is not None:
            return self.apply(item, issue, note)
        self.ensure_labels()
        if self.dry_run:
            self.note(Action(ident, "created", note=item.title))
            return None
        labels = list(LABELS) + [name for name in self.extra_labels if name not in LABELS]
        self.creating = ident  # a failure now may come after GitHub made the issue
        issue = self.gi.create_issue(
            self.repo, item.title, item.body, labels, assignees=list(self.assignees)
        )
        self.creating = ""
        self.record(item, issue)  # at once: a crash after this never makes a second one
        if issue.author and not self.own.is_author(issue.author):
            raise PublishError(
                f"GitHub opened #{issue.number} as @{issue.author}, but depbot took "
                f"@{self.own.login} for itself and would not find it again: set "
                f"DEPBOT_BOT_LOGIN={issue.author}"
            )
        scanned = self.own.newest  # before this one: a twin is newer than what the scan saw
        self.own.add([issue])
        twin = older_twin(self.gi, self.repo, next(iter(LABELS)), item.key, issue, scanned)
        if twin is None:
            self.note(Action(ident, "created", issue.number, issue.url, note))
            return issue
        # another publish created one too, first: keep the older, close this duplicate
        why = f"Duplicate of #{twin.number}: two depbot publishes ran at the same time."
        self.gi.create_comment(self.repo, issue.number, why)
        self.gi.edit_issue(
            self.repo,
            issue.number,
            state="closed",
            state_reason="not_planned",
            body=duplicate_body(issue.body, twin.number),
        )
        self.summary.duplicates[issue.number] = twin.number
        self.own.replace(item.key, twin)
        return self.apply(item, twin, f"closed #{issue.number}, made at the same time")

    def apply(self, item: Item, issue: IssueInfo, note: str) -> IssueInfo | None:
        """Bring the existing ``issue`` in line with the draft (the rules of the module doc)."""
        ident = item.info.id
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

    def comment(self, item: Item, issue: IssueInfo) -> None:
        rec = item.info.record
        if rec.source != "dependabot" or not rec.pr.isdigit():
            return
        pr = int(rec.pr)
        marker = pr_marker(item.key)
        body = (
            f"depbot found that this update needs changes in this repository: #{issue.number} "
            f"({_plain(item.title)}).\n\n{marker}"
        )
        mine = [
            c
            for c in self.gi.comments(self.repo, pr)
            if marker in c.body and self.own.is_author(c.author)
        ]
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
        note_action(self.summary, self.progress, action)


def _same(issue: IssueInfo, item: Item) -> bool:
    """Whether the issue already says what the draft says (by digest when it has one)."""
    digest = body_digest(issue.body)
    if digest is not None:
        return digest == item.digest
    return issue.title.strip() == item.title.strip() and _norm(issue.body) == _norm(item.body)


def _norm(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").strip().split("\n"))


def _plain(title: str) -> str:
    return neutralize_line(title)


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
    lock_wait: float = DEFAULT_WAIT,
) -> PublishSummary:
    """Publish the drafts of ``out_dir`` to ``repo`` (see the module doc for the rules).

    Raises ``ConfigError`` without a token (before any request; a dry run may read
    anonymously), ``InputError`` for a folder without drafts, and ``PublishError`` when
    GitHub refuses or fails (the message names the permission the token needs, or says
    that running again resumes without duplicates, or that another publish of the same
    folder still holds its lock after ``lock_wait`` seconds: publish_lock.py).
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
        # one publish of a folder at a time (a dry run writes nothing and need not wait)
        locked = not dry_run and (out / "drafts").is_dir()
        with publish_lock(out, wait=lock_wait) if locked else nullcontext():
            return _run(
                out,
                GitHubIssues(client),
                settings,
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
    settings: Settings,
    repo: str,
    *,
    all_drafts: bool,
    dry_run: bool,
    comment_on_pr: bool,
    reopen: bool,
    progress: Progress | None,
) -> PublishSummary:
    summary = PublishSummary(repo=repo, dry_run=dry_run)
    items = select_items(list_drafts(out), all_drafts, summary, progress)
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
    pub.extra_labels, pub.assignees = settings.labels, settings.assignees
    what = "reading the repository"
    try:
        info = gi.repository(repo)
        if info.get("has_issues") is False:
            raise PublishError(f"issues are turned off in {repo}; turn them on in its settings")
        what = "finding out whose the token is"
        pub.own = OwnIssues(publisher_login(gi, settings))
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
        maybe = pub.creating if exc.kind in UNSURE else ""
        left = sum(1 for i in items if i.info.id not in done and i.info.id != maybe)
        raise _fail(exc, repo, what, left, maybe=maybe) from None
    finally:
        summary.ignored = pub.own.ignored_line()
    return summary
