"""Review state of the drafts of one output folder, kept in ``DIR/drafts/review.json``.

Per draft id: what the draft is about (key, package, versions, hits, the Dependabot pull
request), the review status (``pending`` | ``approved`` | ``rejected``, with ``why`` for a
rejection), the hashes of the texts depbot rendered (so a hand edit is recognized and
never overwritten), and what was published (issue number, URL, marker, the digest of the
body sent, the pull-request comment). The file is rewritten atomically after every change,
so review survives between runs and a publish cut off halfway knows what it already did.
"""

from __future__ import annotations

import json
from dataclasses import MISSING, asdict, dataclass, field, fields
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from depbot.core.atomicio import atomic_write_json, sha256_text
from depbot.core.errors import InputError
from depbot.output.drafts import parse_draft_file, parse_marker

REVIEW_FILE = "review.json"
STATUSES = ("pending", "approved", "rejected")
_KEEP_HASHES = 8  # how many earlier renders of one draft are remembered


def now_iso() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


@dataclass
class Published:
    """What publish did for one draft on GitHub."""

    issue: int
    url: str
    marker: str
    body_hash: str  # content digest of the body sent (drafts.content_digest)
    title: str = ""
    state: str = "open"
    at: str = ""
    repo: str = ""
    comment_id: int | None = None  # the comment on the Dependabot pull request
    comment_url: str = ""


@dataclass
class DraftRecord:
    """One draft's entry in review.json."""

    id: str
    key: str = ""
    ecosystem: str = ""
    package: str = ""
    from_version: str = ""
    to_version: str = ""
    update_type: str = ""
    hits: int = 0
    files: int = 0
    source: str = ""
    pr: str = ""  # number of the Dependabot pull request, when the update came from one
    pr_url: str = ""
    status: str = "pending"
    why: str = ""
    reviewed_at: str = ""
    rendered: list[str] = field(default_factory=list)  # hashes of texts depbot wrote, newest last
    new_render: str = ""  # "drafts/<id>.new.md" when a hand-edited draft was kept
    stale: bool = False  # the latest triage run did not produce this draft
    note: str = ""
    published: Published | None = None

    @property
    def path(self) -> str:
        return f"drafts/{self.id}.md"

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        if self.published is None:
            data["published"] = None
        return data

    @classmethod
    def from_dict(cls, ident: str, data: dict[str, Any]) -> DraftRecord:
        rec = cls(id=ident, **_typed(cls, data, skip=("id", "published")))
        if rec.rendered and not all(isinstance(h, str) for h in rec.rendered):
            rec.rendered = [h for h in rec.rendered if isinstance(h, str)]
        pub = data.get("published")
        if isinstance(pub, dict):
            try:
                rec.published = Published(**_typed(Published, pub))
            except TypeError:  # a required field missing or of another type
                rec.published = None
        if rec.status not in STATUSES:
            rec.status = "pending"
        return rec

    def remember_render(self, digest: str) -> None:
        if digest in self.rendered:
            self.rendered.remove(digest)
        self.rendered.append(digest)
        del self.rendered[:-_KEEP_HASHES]


def _typed(cls: Any, data: dict[str, Any], skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """The fields of ``data`` that ``cls`` has, each of its type (a hand edit that put a
    number where text goes falls back to the default, never to a crash later)."""
    out = {}
    for f in fields(cls):
        if f.name in skip or f.name not in data:
            continue
        value = data[f.name]
        default = f.default_factory() if f.default_factory is not MISSING else f.default
        want = type(default) if default is not MISSING else _PLAIN.get(str(f.type))
        if default is None or (
            want is not None
            and isinstance(value, want)
            and isinstance(value, bool) == (want is bool)
        ):
            out[f.name] = value
    return out


_PLAIN = {"int": int, "str": str, "bool": bool}


def drafts_dir(out_dir: str | Path) -> Path:
    return Path(out_dir) / "drafts"


def review_path(out_dir: str | Path) -> Path:
    return drafts_dir(out_dir) / REVIEW_FILE


def load_review(out_dir: str | Path, *, salvage: bool = False) -> dict[str, DraftRecord]:
    """Every record of review.json (empty when there is none yet).

    An unreadable file (only a hand edit can make one: it is written atomically) is an
    ``InputError``; with ``salvage`` it is renamed to ``review.json.unreadable`` and the
    records start empty (no approval survives, so nothing is published by mistake; the
    issues already published are still found by their marker).
    """
    path = review_path(out_dir)
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        if salvage:
            path.replace(path.with_name(REVIEW_FILE + ".unreadable"))
            return {}
        raise InputError(
            f"{path} is not readable JSON; fix or delete it (review status is kept there)"
        ) from None
    entries = data.get("drafts", {}) if isinstance(data, dict) else None
    if not isinstance(entries, dict):
        if salvage:
            path.replace(path.with_name(REVIEW_FILE + ".unreadable"))
            return {}
        raise InputError(
            f'{path}: expected an object with "drafts": {{id: record}}; fix or delete it '
            "(review status is kept there)"
        )
    return {
        ident: DraftRecord.from_dict(ident, entry)
        for ident, entry in entries.items()
        if isinstance(entry, dict)
    }


def save_review(out_dir: str | Path, records: dict[str, DraftRecord]) -> Path:
    data = {
        "schema": 1,
        "drafts": {ident: rec.to_dict() for ident, rec in sorted(records.items())},
    }
    return atomic_write_json(review_path(out_dir), data)


def update_record(out_dir: str | Path, record: DraftRecord) -> None:
    """Re-read review.json, replace one record, write it back (keeps others' changes)."""
    records = load_review(out_dir)
    records[record.id] = record
    save_review(out_dir, records)


# --- listing ------------------------------------------------------------------------------


@dataclass
class DraftInfo:
    """A draft file with its review record, as ``depbot drafts`` shows it."""

    record: DraftRecord
    file: Path
    edited: bool  # the file is not a text depbot wrote: a person changed it

    @property
    def id(self) -> str:
        return self.record.id


def _record_from_file(ident: str, text: str) -> DraftRecord:
    rec = DraftRecord(id=ident)
    key = parse_marker(text) or ""
    rec.key = key
    if "/" in key and "@" in key:
        eco, _, rest = key.partition("/")
        pkg, _, to = rest.rpartition("@")
        rec.ecosystem, rec.package, rec.to_version = eco, pkg, to
    return rec


def list_drafts(out_dir: str | Path) -> list[DraftInfo]:
    """The drafts of ``out_dir`` (``.new.md`` renders excluded), sorted by id."""
    folder = drafts_dir(out_dir)
    if not folder.is_dir():
        raise InputError(
            f"no drafts in {str(out_dir)!r} (expected a drafts/ folder): "
            f"run `depbot triage --out {out_dir}` first"
        )
    records = load_review(out_dir)
    out = []
    for file in sorted(folder.glob("*.md")):
        if file.name.endswith(".new.md"):
            continue
        ident = file.name[: -len(".md")]
        text = file.read_text(encoding="utf-8", errors="replace")
        rec = records.get(ident) or _record_from_file(ident, text)
        # with no render on record there is nothing to compare with: not an edit
        edited = bool(rec.rendered) and sha256_text(text) not in rec.rendered
        out.append(DraftInfo(record=rec, file=file, edited=edited))
    return out


def resolve(out_dir: str | Path, ids: list[str] | tuple[str, ...]) -> list[DraftInfo]:
    """The drafts named by ``ids`` (an id, ``id.md`` or ``drafts/id.md``); unknown ids fail."""
    drafts = list_drafts(out_dir)
    by_id = {d.id: d for d in drafts}
    chosen: list[DraftInfo] = []
    unknown = []
    for raw in ids:
        ident = Path(raw).name
        ident = ident[: -len(".md")] if ident.endswith(".md") else ident
        if ident in by_id:
            if by_id[ident] not in chosen:
                chosen.append(by_id[ident])
        else:
            unknown.append(raw)
    if unknown:
        valid = ", ".join(by_id) if by_id else "none"
        raise InputError(
            f"unknown draft {', '.join(repr(u) for u in unknown)} in {drafts_dir(out_dir)}; "
            f"drafts there: {valid}"
        )
    return chosen


def show(out_dir: str | Path, ident: str) -> tuple[DraftInfo, str]:
    """A draft and its text."""
    (info,) = resolve(out_dir, [ident])
    return info, info.file.read_text(encoding="utf-8", errors="replace")


def _set_status(
    out_dir: str | Path, ids: list[str] | tuple[str, ...], status: str, why: str = ""
) -> list[DraftRecord]:
    chosen = resolve(out_dir, ids)
    records = load_review(out_dir)
    done = []
    for info in chosen:
        rec = records.get(info.id) or info.record
        rec.status = status
        rec.why = why if status == "rejected" else ""
        rec.reviewed_at = now_iso()
        if not rec.rendered:
            # remember the text as reviewed, so later edits are recognized as edits
            rec.remember_render(sha256_text(info.file.read_text(encoding="utf-8")))
        records[rec.id] = rec
        done.append(rec)
    save_review(out_dir, records)
    return done


def approve(out_dir: str | Path, ids: list[str] | tuple[str, ...]) -> list[DraftRecord]:
    """Mark drafts approved: ``depbot publish`` will open issues for them."""
    return _set_status(out_dir, ids, "approved")


def reject(out_dir: str | Path, ids: list[str] | tuple[str, ...], why: str) -> list[DraftRecord]:
    """Mark drafts rejected, with the reason; publish never opens issues for them."""
    if not why.strip():
        raise InputError('say why the draft is rejected: --why "…"')
    return _set_status(out_dir, ids, "rejected", why.strip())


def draft_title_body(info: DraftInfo) -> tuple[str, str]:
    """The title and body publish sends for a draft (the file as the person left it)."""
    return parse_draft_file(info.file.read_text(encoding="utf-8", errors="replace"))


def drafts_table(drafts: list[DraftInfo], out_dir: str | Path = "") -> str:
    """The plain-text listing ``depbot drafts`` prints."""
    folder = drafts_dir(out_dir) if out_dir else Path("drafts")
    if not drafts:
        return f"no drafts in {folder} (no update was found to affect the code)\n"
    rows = [("ID", "PACKAGE", "UPDATE", "HITS", "STATUS", "NOTES")]
    for d in drafts:
        rec = d.record
        notes = []
        if rec.status == "rejected" and rec.why:
            notes.append(f"why: {rec.why}")
        if d.edited:
            notes.append("edited by hand")
        if rec.new_render:
            notes.append(f"new render in {rec.new_render}")
        if rec.stale:
            notes.append("stale")
        if rec.published:
            notes.append(f"published #{rec.published.issue}")
        if rec.note and not rec.new_render and not rec.stale:
            notes.append(rec.note)
        versions = f"{rec.from_version or '?'} → {rec.to_version or '?'}"
        rows.append(
            (d.id, rec.package or "?", versions, str(rec.hits), rec.status, "; ".join(notes))
        )
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = ["  ".join(r[i].ljust(widths[i]) for i in range(5)) + "  " + r[5] for r in rows]
    counts = {s: sum(1 for d in drafts if d.record.status == s) for s in STATUSES}
    where = f" -o {out_dir}" if out_dir else ""
    tail = (
        f"{len(drafts)} draft(s): {counts['approved']} approved, {counts['pending']} pending, "
        f"{counts['rejected']} rejected. Next: depbot drafts show ID{where} · "
        f"depbot drafts approve ID{where}"
    )
    return "\n".join(line.rstrip() for line in lines) + "\n" + tail + "\n"
