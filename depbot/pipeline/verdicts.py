"""Verdicts the program decides, and where every verdict goes as it arrives.

Every update ends with exactly one verdict: the model's, one kept from the journal of an
earlier run (``--resume``), or ``unknown`` with the reason the program filled in.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from depbot.agent.accounting import account
from depbot.agent.ledger import Ledger
from depbot.agent.trace import Trace
from depbot.output.journal import Journal, read_journal
from depbot.pipeline.watch import CONCLUDED, StageEvent
from depbot.records.update import Update
from depbot.records.verdict import Verdict

Progress = Callable[[str], None]


def program_verdict(update: Update, reason: str) -> Verdict:
    """``unknown``, filled in by the program because something failed (``unknown_cause``)."""
    return Verdict(
        update=update, verdict="unknown", reason=reason, decided_by="program",
        unknown_cause="failure",
    )  # fmt: skip


def resumed(out_dir: Path, say: Progress) -> dict[str, Verdict]:
    """The verdicts an earlier run journaled in ``out_dir``, by update key (the first wins)."""
    done: dict[str, Verdict] = {}
    for v in read_journal(out_dir):
        done.setdefault(v.update.key, v)
    if done:
        say(f"resuming: {len(done)} update(s) already concluded")
    return done


class Recorder:
    """Takes each verdict as it arrives: journal line, trace record, ``[n/total]`` progress.

    Called from the conversations' threads. ``cause`` says why an ``unknown`` is unknown
    (``failure`` or ``no_facts``: ``Verdict.unknown_cause``) before it is journaled.
    """

    def __init__(
        self,
        journal: Journal,
        trace: Trace,
        say: Progress,
        *,
        total: int,
        done: int,
        cause: Callable[[Verdict], str] | None = None,
    ):
        self.journal, self.trace, self.say = journal, trace, say
        self.total, self.count = total, done
        self.cause = cause
        self._lock = threading.Lock()

    def __call__(self, v: Verdict) -> None:
        if v.verdict == "unknown" and not v.unknown_cause and self.cause is not None:
            v.unknown_cause = self.cause(v)
        self.journal.append(v)
        self.trace.write("verdict", package=v.update.package, verdict=v.verdict, reason=v.reason)
        u = v.update
        with self._lock:
            self.count += 1
            line = (
                f"[{self.count}/{self.total}] {u.package} {u.from_version} → {u.to_version}: "
                f"{v.verdict}"
            )
            self.say(StageEvent(line, stage=CONCLUDED, done=self.count, total=self.total))


def still_open(updates: list[Update], done: dict[str, Verdict], record: Recorder) -> list[Update]:
    """The updates a conversation must conclude; one whose listing failed is ``unknown`` now.

    ``done`` gains those program verdicts.
    """
    todo: list[Update] = []
    for u in updates:
        if u.key in done:
            continue
        if u.error:
            v = program_verdict(u, f"the update list could not be completed for it: {u.error}")
            done[u.key] = v
            record(v)
            continue
        todo.append(u)
    return todo


def ledger_of(done: dict[str, Verdict]) -> Ledger:
    """A ledger that already holds the verdicts of ``done``."""
    ledger = Ledger()
    for key, v in done.items():
        ledger.add_verdict(key, v)
    return ledger


def final_verdicts(
    updates: list[Update], ledger: Ledger, done: dict[str, Verdict]
) -> list[Verdict]:
    """One verdict per update, in the list's order."""
    verdicts = []
    for u in updates:
        v = ledger.verdict(u.key) or done.get(u.key)
        if v is None:  # pragma: no cover - every path of triage() sets one
            v = program_verdict(u, "not examined")
        if v.accounting is None:
            v = replace(v, accounting=account(u, ledger))
        verdicts.append(v)
    return verdicts
