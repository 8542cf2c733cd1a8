"""The files a triage run leaves in its output folder, written so a crash never leaves half a file.

    DIR/report.json        every verdict (CONTRACT.md), replaced atomically
    DIR/journal.jsonl      one verdict per line as it arrives (append-only, fsynced)
    DIR/drafts/<id>.md     one issue draft per affected update
    DIR/drafts/review.json review status and publish records (see review.py)

Also the ``$GITHUB_STEP_SUMMARY`` table and ``detect_repo_link`` (where the checkout lives
on GitHub, for permalinks).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import threading
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from depbot.core.atomicio import atomic_write_json, atomic_write_text, sha256_text
from depbot.output.drafts import Draft, RepoLink, render_draft, web_url_from_api
from depbot.output.review import DraftRecord, drafts_dir, load_review, save_review
from depbot.records.verdict import Verdict

REPORT_FILE = "report.json"
JOURNAL_FILE = "journal.jsonl"
STAT_KEYS = ("turns", "tool_calls", "prompt_tokens", "completion_tokens", "seconds")


# --- report.json ------------------------------------------------------------------------


def report_data(
    *, repo: str, model: str, verdicts: Sequence[Verdict], stats: dict[str, Any]
) -> dict[str, Any]:
    """The report.json document (schema 1, CONTRACT.md); extra stats are kept."""
    merged: dict[str, Any] = {k: 0 for k in STAT_KEYS}
    merged.update(stats or {})
    if isinstance(merged.get("seconds"), float):
        merged["seconds"] = round(merged["seconds"], 3)
    return {
        "schema": 1,
        "repo": repo,
        "model": model,
        "updates": [v.to_report() for v in verdicts],
        "stats": merged,
    }


def write_report(
    out_dir: str | Path,
    *,
    repo: str,
    model: str,
    verdicts: Sequence[Verdict],
    stats: dict[str, Any],
) -> Path:
    """Write ``DIR/report.json`` atomically and return its path."""
    data = report_data(repo=repo, model=model, verdicts=verdicts, stats=stats)
    return atomic_write_json(Path(out_dir) / REPORT_FILE, data)


# --- journal ------------------------------------------------------------------------------


class Journal:
    """``DIR/journal.jsonl``: one verdict per line, flushed and fsynced as each arrives.

    A run killed mid-write leaves at most a partial last line; opening the journal again
    cuts that line off, so the next append starts on a line of its own. Safe to share
    between threads.
    """

    def __init__(self, out_dir: str | Path) -> None:
        self.path = Path(out_dir) / JOURNAL_FILE
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        _cut_torn_tail(self.path)
        self._fh = open(self.path, "a", encoding="utf-8", newline="\n")  # noqa: SIM115

    def append(self, verdict: Verdict) -> None:
        line = json.dumps(verdict.to_journal(), ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            self._fh.write(line + "\n")
            self._fh.flush()
            os.fsync(self._fh.fileno())

    def close(self) -> None:
        with self._lock:
            if not self._fh.closed:
                self._fh.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _cut_torn_tail(path: Path) -> None:
    if not path.is_file():
        return
    with open(path, "rb+") as fh:
        data = fh.read()
        if not data or data.endswith(b"\n"):
            return
        fh.truncate(data.rfind(b"\n") + 1)
        fh.flush()
        os.fsync(fh.fileno())


def read_journal(out_dir: str | Path) -> list[Verdict]:
    """The verdicts of ``DIR/journal.jsonl``; unreadable (torn) lines are skipped.

    When one update appears more than once (a resumed run), the last line wins and keeps
    the position of the first.
    """
    path = Path(out_dir) / JOURNAL_FILE
    if not path.is_file():
        return []
    found: dict[tuple[str, str], Verdict] = {}
    for raw in path.read_bytes().split(b"\n"):
        if not raw.strip():
            continue
        try:
            verdict = Verdict.from_journal(json.loads(raw.decode("utf-8")))
        except (UnicodeDecodeError, KeyError, TypeError, ValueError, RecursionError):
            continue
        found[(verdict.update.key, verdict.update.manifest)] = verdict
    return list(found.values())


# --- drafts -------------------------------------------------------------------------------


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
    folder = drafts_dir(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    records = load_review(out_dir, salvage=True)
    written: list[Draft] = []
    keys_by_id: dict[str, str] = {}
    for verdict in verdicts:
        if verdict.verdict != "affected":
            verdict.draft = None
            continue
        draft = render_draft(verdict, repo=repo_link, generated_at=generated_at)
        ident = draft.id
        known = records.get(ident)
        if keys_by_id.get(ident, draft.key) != draft.key or (
            known and known.key and known.key != draft.key
        ):
            ident = f"{ident}-{sha256_text(draft.key)[:6]}"  # two packages, one file name
            draft = replace(draft, id=ident, path=f"drafts/{ident}.md")
        keys_by_id[ident] = draft.key
        rec = records.get(ident) or DraftRecord(id=ident)
        draft = _write_one(out_dir, draft, rec, records)
        _record_meta(rec, verdict, draft)
        records[ident] = rec
        save_review(out_dir, records)
        verdict.draft = draft.path
        written.append(draft)
    for ident, rec in records.items():
        if ident not in keys_by_id and not rec.stale:
            rec.stale = True
            rec.note = "not produced by the latest triage run"
    save_review(out_dir, records)
    return written


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


# --- GitHub Actions step summary ----------------------------------------------------------


def write_step_summary(path: str | Path | None, markdown: str) -> bool:
    """Append ``markdown`` to ``path`` (default ``$GITHUB_STEP_SUMMARY``); False when unset."""
    target = path or os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        return False
    with open(target, "a", encoding="utf-8") as fh:
        fh.write(markdown if markdown.endswith("\n") else markdown + "\n")
    return True


# --- where the checkout lives on GitHub ---------------------------------------------------

_SCP_REMOTE = re.compile(r"^(?:[\w.-]+@)?([\w.-]+):(?!//)([^\s]+)$")


def parse_remote(url: str) -> tuple[str, str] | None:
    """``(host, "owner/repo")`` of a git remote URL (https, ssh or scp-like), else None."""
    url = url.strip()
    m = _SCP_REMOTE.match(url)
    if m and "://" not in url:
        host, path = m.group(1), m.group(2)
    else:
        parts = urlsplit(url)
        if parts.scheme not in ("https", "http", "ssh", "git") or not parts.hostname:
            return None
        host, path = parts.hostname, parts.path
    path = path.strip("/")
    if path.endswith(".git"):
        path = path[:-4]
    bits = path.split("/")
    if len(bits) < 2 or not all(re.fullmatch(r"[A-Za-z0-9_.-]+", b) for b in bits[-2:]):
        return None
    return host.lower(), "/".join(bits[-2:])


def _git(checkout: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(checkout), *args],
            capture_output=True,
            text=True,
            timeout=15,
            env={**os.environ, "GIT_TERMINAL_PROMPT": "0"},
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def detect_repo_link(checkout: str | Path, github_api_url: str) -> RepoLink | None:
    """The GitHub repository and commit of a git checkout, for permalinks; None if unknown.

    Only a remote on the configured GitHub web host counts. Files changed since the
    commit get no permalink (the line numbers would not match).
    """
    root = Path(checkout)
    web = web_url_from_api(github_api_url)
    web_host = (urlsplit(web).hostname or "").lower()
    commit = (_git(root, "rev-parse", "HEAD") or "").strip()
    remotes = (_git(root, "remote") or "").split()
    if not commit or not remotes:
        return None
    ordered = ["origin"] + [r for r in remotes if r != "origin"] if "origin" in remotes else remotes
    owner_repo = None
    for name in ordered:
        parsed = parse_remote(_git(root, "remote", "get-url", name) or "")
        if parsed and parsed[0] == web_host:
            owner_repo = parsed[1]
            break
    if owner_repo is None:
        return None
    prefix = (_git(root, "rev-parse", "--show-prefix") or "").strip().strip("/")
    status = _git(root, "status", "--porcelain=v1", "-z", "--untracked-files=all") or ""
    dirty = set()
    entries = status.split("\0")
    i = 0
    while i < len(entries):
        entry = entries[i]
        if len(entry) > 3:
            dirty.add(entry[3:])
            if entry[0] in "RC":
                i += 1  # the rename source follows
        i += 1
    return RepoLink(
        owner_repo=owner_repo, commit=commit, web_url=web, root=prefix, dirty=frozenset(dirty)
    )
