"""Issue drafts rendered from verdicts, and the summary tables. Pure: no I/O.

A draft is what a maintainer reads to decide in a minute: the impact in the title, what
broke in upstream's own words (quoted, linked to where depbot read it), every place our
code uses it, a suggested fix and a checklist. A hidden marker
(``<!-- depbot: pip/urllib3@2.0.7 -->``, the update's key) identifies it on GitHub so
publishing never opens a second issue for the same update.

Text from upstream or from a model goes through ``mdsafe.neutralize`` (no pings, no
unintended links, no forged markers). The body stays under GitHub's 65,536-character
limit by trimming quotes, then call sites, with a note that says what was left out (the
body's sections and that fitting are ``draft_body.py``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from depbot.core.atomicio import sha256_text
from depbot.output.draft_body import (
    BODY_LIMIT,
    FOOTER_PREFIX,
    fit_body,
    impact,
    plural,
    unique_hits,
)
from depbot.output.links import RepoLink, web_url_from_api
from depbot.output.mdsafe import clean_line, code_span, neutralize_line
from depbot.records.update import Update
from depbot.records.verdict import Verdict

PUBLISH_RESERVE = 200  # room kept for the digest line publish appends
TITLE_LIMIT = 256  # GitHub's cap on issue titles
MARKER_RE = re.compile(r"<!--\s*depbot:\s*([^\s<>]+)\s*-->")
DIGEST_RE = re.compile(r"<!--\s*depbot-digest:\s*([0-9a-f]+)\s*-->\n?")


# --- identity ---------------------------------------------------------------------------


def draft_id(update: Update) -> str:
    """File-safe id: ``pip-urllib3-2.0.7``; ``@scope/name`` becomes ``scope-name``."""
    raw = f"{update.ecosystem}-{update.package.lstrip('@')}-{update.to_version}"
    ident = re.sub(r"[^A-Za-z0-9._-]+", "-", raw.replace("/", "-"))
    ident = re.sub(r"-{2,}", "-", ident).strip("-.").lower()
    return ident[:150] or "draft"


def marker_for(key: str) -> str:
    """The hidden marker that identifies a draft (and its issue) by update key."""
    return f"<!-- depbot: {re.sub(r'[^A-Za-z0-9@/._+~!-]', '_', key)} -->"


def parse_marker(body: str) -> str | None:
    """The update key of the last depbot marker in ``body`` (ours closes every draft)."""
    found = MARKER_RE.findall(body or "")
    return found[-1] if found else None


# --- draft files and digests ------------------------------------------------------------


@dataclass(frozen=True)
class Draft:
    """One rendered issue draft; ``path`` is relative to the output folder."""

    id: str
    path: str
    title: str
    body: str
    marker: str
    key: str
    note: str = ""  # set by write_drafts, e.g. when a hand-edited draft was kept

    def text(self) -> str:
        return draft_file_text(self.title, self.body)


def draft_file_text(title: str, body: str) -> str:
    """A draft file: the title as the first (``# ``) line, a blank line, the body."""
    return f"# {title}\n\n{body.rstrip()}\n"


def parse_draft_file(text: str) -> tuple[str, str]:
    """``(title, body)`` of a draft file; the title is empty when the first line is not ``# …``."""
    text = text.replace("\r\n", "\n").lstrip("\ufeff")
    first, _, rest = text.partition("\n")
    if first.startswith("# "):
        return first[2:].strip(), rest.strip("\n").rstrip()
    return "", text.strip("\n").rstrip()


def content_digest(title: str, body: str) -> str:
    """What a draft says, as a short hash that ignores the commit in permalinks and the footer.

    Two renders of the same findings at different commits (or days) digest alike, so a
    weekly rerun does not rewrite an issue whose content did not change.
    """
    text = DIGEST_RE.sub("", body.replace("\r\n", "\n"))
    text = re.sub(r"/blob/[0-9a-fA-F]{7,64}/", "/blob/-/", text)
    lines = [ln.rstrip() for ln in text.split("\n") if not ln.startswith(FOOTER_PREFIX)]
    return sha256_text(title.strip() + "\n" + "\n".join(lines).strip())[:16]


def with_digest(title: str, body: str) -> str:
    """The issue body publish sends: the draft body plus a hidden digest line."""
    clean = DIGEST_RE.sub("", body).rstrip()
    return f"{clean}\n<!-- depbot-digest: {content_digest(title, clean)} -->"


def body_digest(body: str) -> str | None:
    m = DIGEST_RE.search(body or "")
    return m.group(1) if m else None


# --- rendering --------------------------------------------------------------------------


def draft_title(verdict: Verdict) -> str:
    u = verdict.update
    title = clean_line(f"{u.package} {u.from_version} → {u.to_version} {impact(verdict)}")
    return title if len(title) <= TITLE_LIMIT else title[: TITLE_LIMIT - 1] + "…"


def render_draft(
    verdict: Verdict, *, repo: RepoLink | None = None, generated_at: str | None = None
) -> Draft:
    """The issue draft for an ``affected`` verdict (any verdict renders; callers filter)."""
    u = verdict.update
    ident = draft_id(u)
    marker = marker_for(u.key)
    body = fit_body(verdict, repo, generated_at, marker, BODY_LIMIT - PUBLISH_RESERVE)
    return Draft(
        id=ident,
        path=f"drafts/{ident}.md",
        title=draft_title(verdict),
        body=body,
        marker=marker,
        key=u.key,
    )


# --- summaries --------------------------------------------------------------------------

_ICONS = {"affected": "❗ affected", "not_affected": "✅ not affected", "unknown": "❔ unknown"}


def _cell(text: str, limit: int = 200) -> str:
    text = clean_line(text)
    if len(text) > limit:  # cut before neutralizing: a cut code span would free its text
        text = text[: limit - 1] + "…"
    return neutralize_line(text).replace("|", "\\|")


def _counts(verdicts: Sequence[Verdict]) -> str:
    n = {k: sum(1 for v in verdicts if v.verdict == k) for k in _ICONS}
    return (
        f"{plural(len(verdicts), 'update')}: {n['affected']} affected, "
        f"{n['not_affected']} not affected, {n['unknown']} unknown"
    )


def render_step_summary(
    verdicts: Sequence[Verdict], *, report_path: str, drafts: Sequence[Draft] = ()
) -> str:
    """A Markdown table of every verdict, for ``$GITHUB_STEP_SUMMARY``."""
    by_key = {d.key: d.path for d in drafts}
    rows = [
        "## depbot triage",
        "",
        f"{_counts(verdicts)} · report: {code_span(report_path)}",
        "",
        "| Verdict | Package | Update | Type | Hits | Draft | Why |",
        "|---|---|---|---|---:|---|---|",
    ]
    for v in verdicts:
        u = v.update
        draft = by_key.get(u.key) or v.draft
        rows.append(
            "| "
            + " | ".join(
                [
                    _ICONS[v.verdict],
                    code_span(u.package).replace("|", "\\|"),
                    _cell(f"{u.from_version} → {u.to_version}"),
                    u.update_type,
                    str(len(unique_hits(v.hits))),
                    code_span(draft).replace("|", "\\|") if draft else "–",
                    _cell(v.reason),
                ]
            )
            + " |"
        )
    return "\n".join(rows) + "\n"


def verdict_table(verdicts: Sequence[Verdict]) -> str:
    """A compact plain-text table of verdicts for the terminal."""
    header = ("VERDICT", "PACKAGE", "UPDATE", "TYPE", "HITS", "DRAFT / WHY")
    rows = [header]
    for v in verdicts:
        u = v.update
        detail = v.draft or clean_line(v.reason)
        if len(detail) > 70:
            detail = detail[:69] + "…"
        rows.append(
            (
                v.verdict,
                clean_line(u.package),
                f"{u.from_version} → {u.to_version}",
                u.update_type,
                str(len(unique_hits(v.hits))),
                detail,
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(header) - 1)]
    lines = [
        "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(r[:-1])) + "  " + r[-1]
        for r in rows
    ]
    return "\n".join(line.rstrip() for line in lines) + "\n" + _counts(verdicts) + "\n"


__all__ = [
    "BODY_LIMIT",
    "Draft",
    "RepoLink",
    "content_digest",
    "draft_id",
    "marker_for",
    "parse_draft_file",
    "parse_marker",
    "render_draft",
    "render_step_summary",
    "verdict_table",
    "web_url_from_api",
    "with_digest",
]
