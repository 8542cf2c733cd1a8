"""One run per output folder: its id, the fingerprint of its inputs, and the older run moved away.

A run's journal starts with a header line (``journal.py``): ``{"journal": 1, "run": id,
"started": …, "fingerprint": {…}}``. The fingerprint is what the verdicts depend on: the
checkout (``git rev-parse HEAD`` and the content of the files ``git status`` lists; outside
git the paths, sizes and times of its files, bounded), the update list, the model and the
settings that change verdicts. ``--resume`` continues only a journal of the same fingerprint.

A fresh run first moves the older run's files (``RUN_FILES``) into ``DIR/previous/``
(replacing an older one), so that its journal, trace, report and drafts are its own; the
drafts' review state (``drafts/review.json``: approvals, issues published) is carried over.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from depbot.core.atomicio import atomic_write_text
from depbot.core.errors import InputError
from depbot.core.settings import Settings
from depbot.output.journal import JOURNAL_FILE, read_header, read_journal
from depbot.output.report import REPORT_FILE
from depbot.output.review import REVIEW_FILE
from depbot.records.update import Update

TRACE_FILE = "trace.jsonl"
DRAFTS_DIR = "drafts"
RUN_FILES = (JOURNAL_FILE, TRACE_FILE, REPORT_FILE, DRAFTS_DIR)  # what one run writes
PREVIOUS_DIR = "previous"
_MOVING = ".moving"  # inside previous/ while the move is under way
MAX_FILES = 20_000  # files looked at for the fingerprint of a checkout
MAX_HASHED_BYTES = 2 * 1024 * 1024  # a changed file larger than this: its size and time
MAX_TOTAL_HASHED = 64 * 1024 * 1024  # past this much read, every further file: size and time
# the settings whose change can change a verdict (upstreams, search scope, the model's room)
VERDICT_SETTINGS = (
    "pypi_url", "npm_url", "github_api_url", "raw_url", "openai_base_url", "artifact_hosts",
    "release_settle_days", "max_rounds", "changelog_budget", "exclude_dirs", "exclude_files",
    "secret_files", "skip_env_dirs", "respect_gitignore", "manifest_exclude", "max_hits",
    "max_hits_per_file", "hit_width", "max_filesize", "minified_line_length",
)  # fmt: skip


class ResumeRefused(InputError):
    """``--resume`` on a journal of other inputs (exit status 2, one line)."""

    plain = True  # printed as "depbot: <message>", without "error:"


def _digest(value: Any) -> str:
    # ensure_ascii: a file name that is not UTF-8 (a surrogate escape) is hashed as its escape
    text = json.dumps(value, sort_keys=True, default=str, ensure_ascii=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def new_run_id() -> str:
    """``20261201T221003Z-1a2b3c``: the UTC start time and a short random part."""
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ") + "-" + secrets.token_hex(3)


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _git(repo: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(repo), *args], capture_output=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.decode("utf-8", "surrogateescape") if done.returncode == 0 else None


def _file_mark(path: Path, budget: list[int]) -> str:
    """The content hash of a changed file (its size and time when large or past ``budget``)."""
    try:
        st = path.stat()
    except OSError:
        return "missing"
    if not path.is_file():
        return "dir"
    if st.st_size <= min(MAX_HASHED_BYTES, budget[0]):
        budget[0] -= st.st_size
        try:
            return hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            return "unreadable"
    return f"{st.st_size}:{st.st_mtime_ns}"


def checkout_state(
    repo: Path, skip: Path, exclude_dirs: Sequence[str] = (".git",)
) -> tuple[str, str]:
    """(digest, shown) of the checkout; ``shown`` is what the refusal names (``abc1234``).

    ``skip`` (the output folder) is left out; outside git so are ``exclude_dirs`` (names).
    """
    repo, skip = repo.resolve(), skip.resolve()
    budget = [MAX_TOTAL_HASHED]
    head = (_git(repo, "rev-parse", "HEAD") or "").strip()
    top = (_git(repo, "rev-parse", "--show-toplevel") or "").strip()
    status = _git(repo, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", ".")
    if head and top and status is not None:
        marks: list[tuple[str, str]] = []
        fields = status.split("\0")
        i = 0
        while i < len(fields) and len(marks) < MAX_FILES:
            entry = fields[i]
            i += 1
            if len(entry) < 4:
                continue
            if entry[0] in "RC":
                i += 1  # the path it was renamed or copied from
            path = Path(top) / entry[3:]
            if not _inside(path, skip):
                marks.append((entry, _file_mark(path, budget)))
        if not marks:
            return _digest(["git", head]), head[:7]
        dirty = _digest(marks)
        return _digest(["git", head, dirty]), f"{head[:7]}+{dirty[:6]}"
    files: list[tuple[str, int, int]] = []
    skipped = {".git", *exclude_dirs}
    for root, dirs, names in os.walk(repo):
        base = Path(root)
        dirs[:] = sorted(d for d in dirs if d not in skipped and not _inside(base / d, skip))
        for name in sorted(names):
            try:
                st = (base / name).stat()
            except OSError:
                continue
            files.append((str((base / name).relative_to(repo)), st.st_size, st.st_mtime_ns))
        if len(files) >= MAX_FILES:
            break
    digest = _digest(["files", files[:MAX_FILES]])
    return digest, f"files:{digest[:7]}"


def fingerprint(
    repo: Path, updates: Sequence[Update], model: str, settings: Settings, *, out_dir: Path
) -> dict[str, str]:
    """What this run's verdicts depend on; ``out_dir`` (perhaps inside ``repo``) is left out."""
    checkout, shown = checkout_state(Path(repo), Path(out_dir), settings.exclude_dirs)
    chosen = {name: getattr(settings, name, None) for name in VERDICT_SETTINGS}
    if settings.registry_urls:  # an ecosystem's registry set by name (absent: as before)
        chosen["registry_urls"] = dict(settings.registry_urls)
    return {
        "checkout": checkout,
        "checkout_shown": shown,
        "updates": _digest([u.to_dict() for u in updates]),
        "model": model,
        "settings": _digest(chosen),
    }


def differences(old: dict[str, Any], new: dict[str, str]) -> list[str]:
    """What changed between two fingerprints, in words (empty: the same inputs)."""
    out: list[str] = []
    if old.get("checkout") != new["checkout"]:
        out.append(f"checkout changed: {old.get('checkout_shown', '?')} → {new['checkout_shown']}")
    if old.get("updates") != new["updates"]:
        out.append("update list changed")
    if old.get("model") != new["model"]:
        out.append(f"model changed: {old.get('model', '?')} → {new['model']}")
    if old.get("settings") != new["settings"]:
        out.append("settings changed")
    return out


@dataclass
class RunStart:
    run_id: str
    resumed: bool  # continuing the journal of an earlier, cut-off run
    moved: list[str]  # the older run's files moved to previous/


def begin_run(
    out_dir: Path, fp: dict[str, str], *, resume: bool, say: Callable[[str], None]
) -> RunStart:
    """Start this run in ``out_dir`` (held by ``FolderLock``): check or write the header.

    ``resume``: a journal of the same fingerprint is continued; one of another is refused
    (``ResumeRefused``, nothing touched); one without a header (an older depbot) is
    continued with a warning; no journal: a fresh run.
    """
    out_dir = Path(out_dir)
    journal = out_dir / JOURNAL_FILE
    if resume and journal.is_file():
        header = read_header(out_dir)
        if header is None:
            if read_journal(out_dir):
                say(f"resuming a journal with no run header (an older depbot): {journal}")
                return RunStart(run_id="", resumed=True, moved=[])
        else:
            changed = differences(header.get("fingerprint") or {}, fp)
            if changed:
                raise ResumeRefused(
                    f"--resume: the journal in {out_dir} is of another run "
                    f"({'; '.join(changed)}); run without --resume to start afresh"
                )
            return RunStart(run_id=str(header.get("run", "")), resumed=True, moved=[])
    moved = move_previous(out_dir)
    run_id = new_run_id()
    header_line = {
        "journal": 1,
        "run": run_id,
        "started": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "fingerprint": fp,
    }
    atomic_write_text(journal, json.dumps(header_line, ensure_ascii=False) + "\n")
    return RunStart(run_id=run_id, resumed=False, moved=moved)


def move_previous(out_dir: Path) -> list[str]:
    """Move the files of the run in ``out_dir`` to ``out_dir/previous/``; the names moved.

    An older ``previous/`` is replaced; a move cut off by a kill is finished by the next
    run (``previous/.moving`` marks it). ``drafts/review.json`` is copied back.
    """
    present = [name for name in RUN_FILES if (out_dir / name).exists()]
    if not present:
        return []
    prev = out_dir / PREVIOUS_DIR
    if not (prev / _MOVING).exists():
        if prev.is_dir() and not prev.is_symlink():
            shutil.rmtree(prev)
        elif prev.exists() or prev.is_symlink():
            prev.unlink()
        prev.mkdir()
        (prev / _MOVING).touch()
    for name in present:
        target = prev / name
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        elif target.exists() or target.is_symlink():
            target.unlink()
        os.replace(out_dir / name, target)
    (prev / _MOVING).unlink()
    review = prev / DRAFTS_DIR / REVIEW_FILE
    if review.is_file():
        (out_dir / DRAFTS_DIR).mkdir(exist_ok=True)
        atomic_write_text(out_dir / DRAFTS_DIR / REVIEW_FILE, review.read_text(encoding="utf-8"))
    return present


__all__ = [
    "PREVIOUS_DIR",
    "RUN_FILES",
    "ResumeRefused",
    "RunStart",
    "begin_run",
    "checkout_state",
    "differences",
    "fingerprint",
    "move_previous",
    "new_run_id",
]
