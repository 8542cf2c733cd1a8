"""``DIR/drafts/<id>.md``: one issue draft per affected update, written so edits survive.

The review status of each draft (and what depbot last wrote there) is in
``DIR/drafts/review.json`` (``review.py``); the draft's text is rendered by ``drafts.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from depbot.core.atomicio import atomic_write_text, sha256_text
from depbot.output.drafts import Draft, RepoLink, render_draft
from depbot.output.review import DraftRecord, drafts_dir, load_review, save_review
from depbot.records.verdict import Verdict


def write_drafts(
    out_dir: str | Path,
    verdicts: Iterable[Verdict],
    repo_link: RepoLink | None = None,
    *,
    generated_at: str | None = None,
) -> list[Draft]:
    """Write one draft per ``affected`` verdict and set ``verdict.draft`` to its path.

    A draft a person edited (its text is none depbot wrote) is never overwritten: the new
    render goes beside it as ``<id>.new.md`` and the returned ``Draft.note`` says so. A
    draft whose render changed loses its approval (it goes back to ``pending``). Drafts of
    earlier runs that this run did not produce are marked stale (publish skips them).
    """
    drafts_dir(out_dir).mkdir(parents=True, exist_ok=True)
    records = load_review(out_dir, salvage=True)
    written: list[Draft] = []
    keys_by_id: dict[str, str] = {}
    for verdict in verdicts:
        if verdict.verdict != "affected":
            verdict.draft = None
            continue
        draft = render_draft(verdict, repo=repo_link, generated_at=generated_at)
        draft = _unclash(draft, records, keys_by_id)
        keys_by_id[draft.id] = draft.key
        rec = records.get(draft.id) or DraftRecord(id=draft.id)
        draft = _write_one(out_dir, draft, rec, records)
        _record_meta(rec, verdict, draft)
        records[draft.id] = rec
        save_review(out_dir, records)
        verdict.draft = draft.path
        written.append(draft)
    _mark_stale(records, produced=keys_by_id)
    save_review(out_dir, records)
    return written


def _unclash(draft: Draft, records: dict[str, DraftRecord], keys_by_id: dict[str, str]) -> Draft:
    """Two packages whose drafts would share one file name: the later one gets a suffix."""
    known = records.get(draft.id)
    if keys_by_id.get(draft.id, draft.key) != draft.key or (
        known and known.key and known.key != draft.key
    ):
        ident = f"{draft.id}-{sha256_text(draft.key)[:6]}"
        return replace(draft, id=ident, path=f"drafts/{ident}.md")
    return draft


def _mark_stale(records: dict[str, DraftRecord], *, produced: dict[str, str]) -> None:
    for ident, rec in records.items():
        if ident not in produced and not rec.stale:
            rec.stale = True
            rec.note = "not produced by the latest triage run"


def _record_meta(rec: DraftRecord, verdict: Verdict, draft: Draft) -> None:
    u = verdict.update
    hits = {(h.path, h.line) for h in verdict.hits}
    rec.key = draft.key
    rec.ecosystem, rec.package = u.ecosystem, u.package
    rec.from_version, rec.to_version, rec.update_type = u.from_version, u.to_version, u.update_type
    rec.hits, rec.files = len(hits), len({p for p, _ in hits})
    rec.source = u.source
    pr = str(u.extra.get("pr", "")).strip()
    rec.pr = pr if pr.isdigit() else _pr_number(u.source_ref) if u.source == "dependabot" else ""
    rec.pr_url = u.source_ref if u.source == "dependabot" else ""
    rec.stale = False


def _pr_number(url: str) -> str:
    m = re.search(r"/pull/(\d+)", url or "")
    return m.group(1) if m else ""


def _write_one(
    out_dir: str | Path, draft: Draft, rec: DraftRecord, records: dict[str, DraftRecord]
) -> Draft:
    out = Path(out_dir)
    path = out / draft.path
    text = draft.text()
    digest = sha256_text(text)
    current = path.read_text(encoding="utf-8") if path.is_file() else None
    if current is not None and current != text and sha256_text(current) not in rec.rendered:
        # a person changed this file (or it is not one depbot wrote): keep it
        rec.new_render = f"drafts/{draft.id}.new.md"
        atomic_write_text(out / rec.new_render, text)
        rec.note = f"kept your edited {draft.path}; the new render is in {rec.new_render}"
        return replace(draft, note=rec.note)
    rec.note = ""
    if rec.rendered and rec.rendered[-1] != digest and rec.status != "pending":
        rec.note = f"changed since it was {rec.status}; review it again"
        rec.status, rec.why = "pending", ""
    rec.remember_render(digest)
    if rec.new_render:
        try:
            (out / rec.new_render).unlink()
        except OSError:
            pass
        rec.new_render = ""
    # the record goes first: a crash before the file is written leaves no false "edit"
    records[rec.id] = rec
    save_review(out_dir, records)
    if current != text:
        atomic_write_text(path, text)
    return replace(draft, note=rec.note)
