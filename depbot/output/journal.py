"""``DIR/journal.jsonl``: every verdict as it arrives, so ``--resume`` keeps finished work.

Append-only, flushed and fsynced line by line; a run killed mid-write leaves at most a torn
last line, which reading skips and reopening cuts off. The first line is the run's header
(``{"journal": 1, "run": …, "fingerprint": …}``, written by ``runfolder.begin_run``): which
run the journal belongs to, so ``--resume`` continues only its own. Journals of an older
depbot have none; their lines are read all the same.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

from depbot.core.fence import shown
from depbot.records.verdict import Verdict

JOURNAL_FILE = "journal.jsonl"
_MAX_HEADER = 64 * 1024  # bytes read for the header line


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
        line = shown(
            json.dumps(verdict.to_journal(), ensure_ascii=False, separators=(",", ":")),
            json_text=True,
        )
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
            data = json.loads(raw.decode("utf-8"))
            if isinstance(data, dict) and "journal" in data and "update" not in data:
                continue  # the run's header
            verdict = Verdict.from_journal(data)
        except (UnicodeDecodeError, KeyError, TypeError, ValueError, RecursionError):
            continue
        found[(verdict.update.key, verdict.update.manifest)] = verdict
    return list(found.values())


def read_header(out_dir: str | Path) -> dict[str, Any] | None:
    """The header of ``DIR/journal.jsonl`` (its first line), or None: no journal, or one of
    an older depbot, or a first line torn or not a header."""
    path = Path(out_dir) / JOURNAL_FILE
    try:
        with open(path, "rb") as fh:
            first = fh.read(_MAX_HEADER).split(b"\n", 1)
    except OSError:
        return None
    if len(first) < 2:  # no complete first line
        return None
    try:
        data = json.loads(first[0].decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or "journal" not in data or "update" in data:
        return None
    return data
