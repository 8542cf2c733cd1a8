"""What publish sends and what it says it did: the drafts chosen, their issue text, actions.

``publish.py`` does the talking to GitHub; this module has no network in it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from depbot.output.drafts import (
    BODY_LIMIT,
    TITLE_LIMIT,
    content_digest,
    marker_for,
    parse_marker,
    with_digest,
)
from depbot.output.review import DraftInfo, draft_title_body


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
    # said once: issues by others that carry depbot's marker (own_issues.py), ignored
    ignored: str = ""
    # issues depbot made twice at once (another publish raced it) and closed: new -> kept
    duplicates: dict[int, int] = field(default_factory=dict)

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
        if self.duplicates:
            parts.append(
                "closed duplicate(s) "
                + ", ".join(f"#{new} (of #{old})" for new, old in self.duplicates.items())
            )
        if self.ignored:
            parts.append(self.ignored)
        head = "dry run, nothing was sent: " if self.dry_run else ""
        return head + (", ".join(parts) if parts else "nothing to publish")

    def lines(self) -> list[str]:
        return [a.line(self.dry_run) for a in self.actions] + [self.totals()]


Progress = Callable[[Action], None]


@dataclass
class Item:
    info: DraftInfo
    key: str
    title: str
    body: str  # as sent: the draft body plus the digest line
    digest: str


def prepare_item(info: DraftInfo) -> Item | str:
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
    return Item(info=info, key=key, title=title, body=sent, digest=content_digest(title, body))


def select_items(
    drafts: list[DraftInfo], all_drafts: bool, summary: PublishSummary, progress: Progress
) -> list[Item]:
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
            note_action(summary, progress, Action(info.id, "skipped", note=why))
            continue
        item = prepare_item(info)
        if isinstance(item, str):
            note_action(summary, progress, Action(info.id, "failed", note=item))
            continue
        chosen.append(item)
    return chosen


def note_action(summary: PublishSummary, progress: Progress | None, action: Action) -> None:
    summary.actions.append(action)
    if progress:
        progress(action)
