"""How a run came out: reached from facts, or degraded; and the exit status that says so. Pure.

A run is **degraded** when the model endpoint was unavailable (a conversation ended
``model_unavailable``), a configured upstream was down (``Http.unreachable()``), or an
update is ``unknown`` because something failed: a fetch (rate limited, server error,
timeout, unreachable), a budget, a conversation that ended early. An ``unknown`` that
nothing failed for (the release notes do not exist, the facts did not settle it) is
``no_facts``: the run still reached its verdicts from facts.

``exit_status`` maps an outcome and a ``--fail-on`` level to the documented statuses.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from depbot.records.verdict import Verdict

# exit statuses of `depbot triage` (1 and 2 come from DepbotError.exit_code)
EXIT_OK = 0
EXIT_FAILED = 1  # the run itself failed
EXIT_BAD_INPUT = 2
EXIT_DEGRADED = 3
EXIT_UNKNOWN = 4
EXIT_AFFECTED = 5

# --fail-on levels, in order; each selects the statuses of the levels before it (but never)
FAIL_ON = ("never", "degraded", "unknown", "affected")
DEFAULT_FAIL_ON = "degraded"
_SELECTS = {
    "never": frozenset(),
    "degraded": frozenset({EXIT_DEGRADED}),
    "unknown": frozenset({EXIT_DEGRADED, EXIT_UNKNOWN}),
    "affected": frozenset({EXIT_DEGRADED, EXIT_UNKNOWN, EXIT_AFFECTED}),
}

CAUSES = "; and "  # between the causes of one update (pipeline/watch.py joins them with it)

# how a conversation that ended early reads in a reason
_STATUS_WORDS = {
    "time_budget": "time budget spent",
    "token_budget": "token budget spent",
    "step_limit": "round limit reached",
    "format_errors": "unusable model replies",
    "model_unavailable": "model endpoint unavailable",
}


class Ended(Protocol):
    """What this module reads of a conversation (``agent.loop.ConversationResult``)."""

    status: str
    detail: str


@dataclass(frozen=True)
class RunOutcome:
    """The counts of a run's verdicts and why it is degraded (``because`` empty: it is not)."""

    total: int = 0
    affected: int = 0
    not_affected: int = 0
    unknown: int = 0
    unknown_failed: int = 0  # unknown because something failed
    because: tuple[str, ...] = ()  # one sentence each: "GitHub API unreachable: DNS lookup failed"
    short: tuple[str, ...] = ()  # the same in a few words each, for the closing line
    unreachable: Mapping[str, str] = field(default_factory=dict)

    @property
    def degraded(self) -> bool:
        return bool(self.because)

    def to_stats(self) -> dict[str, Any]:
        """What report.json's ``stats`` gains."""
        return {
            "degraded": self.degraded,
            "degraded_because": list(self.because),
            "unreachable": dict(self.unreachable),
            "unknown_causes": {
                "failure": self.unknown_failed,
                "no_facts": self.unknown - self.unknown_failed,
            },
        }


def unknown_cause(verdict: Verdict, failures: Mapping[str, str]) -> str:
    """``failure`` or ``no_facts`` for an unknown verdict ("" for the others).

    ``failures`` maps an update key to what failed while fetching its notes. A verdict the
    program filled in (the conversation ended, the update list failed) is a failure.
    """
    if verdict.verdict != "unknown":
        return ""
    if verdict.unknown_cause:
        return verdict.unknown_cause
    if verdict.decided_by == "program" or verdict.update.key in failures:
        return "failure"
    return "no_facts"


def judge(
    verdicts: Sequence[Verdict],
    conversations: Sequence[Ended] = (),
    *,
    unreachable: Mapping[str, str] | None = None,
    failures: Mapping[str, str] | None = None,
) -> RunOutcome:
    """The outcome of a run from its verdicts, how its conversations ended, the upstreams
    that were down (label → reason) and the fetch failures (update key → what failed)."""
    unreachable, failures = dict(unreachable or {}), dict(failures or {})
    count = {k: sum(1 for v in verdicts if v.verdict == k) for k in ("affected", "not_affected")}
    unknowns = [v for v in verdicts if v.verdict == "unknown"]
    failed = [v for v in unknowns if unknown_cause(v, failures) == "failure"]
    because: list[str] = []
    short: list[str] = []
    for label, reason in sorted(unreachable.items()):
        because.append(f"{label} unreachable: {reason}")
        short.append(f"{label} unreachable")
    for detail in dict.fromkeys(c.detail for c in conversations if c.status == "model_unavailable"):
        text = detail or "no answer"
        named = "model endpoint" in text or text.startswith("GitHub Models")  # says what it is
        because.append(text if named else f"model endpoint unavailable: {text}")
        short.append("model endpoint unavailable")
    if failed:
        kinds = _failure_kinds(failed, conversations, failures)
        n = len(failed)
        because.append(
            f"{n} update{'s' if n != 1 else ''} unknown after failures"
            + (f" ({'; '.join(kinds)})" if kinds else "")
        )
        if not short:  # an unreachable upstream or the model explains them already
            short += [_head(k) for k in kinds]
    return RunOutcome(
        total=len(verdicts),
        affected=count["affected"],
        not_affected=count["not_affected"],
        unknown=len(unknowns),
        unknown_failed=len(failed),
        because=tuple(dict.fromkeys(because)),
        short=tuple(dict.fromkeys(short)),
        unreachable=unreachable,
    )


def _failure_kinds(
    failed: Sequence[Verdict], conversations: Sequence[Ended], failures: Mapping[str, str]
) -> list[str]:
    """What failed for these unknowns, each cause with the number of updates it left
    unknown when there are several ("13 artifact downloads refused: …"), then early endings."""
    counts: Counter[str] = Counter()
    for v in failed:
        causes = failures.get(v.update.key, "")
        counts.update(c for c in dict.fromkeys(causes.split(CAUSES)) if c)
    several = len(failed) > 1 and (len(counts) > 1 or any(n < len(failed) for n in counts.values()))
    kinds = [f"{n} {cause}" if several else cause for cause, n in counts.items()]
    if any(v.decided_by == "program" for v in failed):
        kinds += [_STATUS_WORDS[c.status] for c in conversations if c.status in _STATUS_WORDS]
    return list(dict.fromkeys(kinds))


def _head(kind: str) -> str:
    """A cause in a few words, for the closing line: what comes before its explanation."""
    return kind.split(": ", 1)[0]


def exit_status(outcome: RunOutcome, fail_on: str = DEFAULT_FAIL_ON) -> int:
    """The exit status for ``outcome`` at ``--fail-on`` level ``fail_on``.

    0 unless something the level selects applies: degraded 3, some update unknown 4, some
    update affected 5; of several, the lowest wins.
    """
    if fail_on not in _SELECTS:
        raise ValueError(f"--fail-on must be one of {', '.join(FAIL_ON)}, not {fail_on!r}")
    applies = []
    if outcome.degraded:
        applies.append(EXIT_DEGRADED)
    if outcome.unknown:
        applies.append(EXIT_UNKNOWN)
    if outcome.affected:
        applies.append(EXIT_AFFECTED)
    return min((c for c in applies if c in _SELECTS[fail_on]), default=EXIT_OK)


# --- in words ---------------------------------------------------------------------------


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def closing_line(outcome: RunOutcome) -> str:
    """The run's last line: its counts, why updates are unknown, and ``— degraded`` or ``— ok``.

    E.g. ``6 updates: 2 affected, 3 not affected, 1 unknown (GitHub API unreachable) — degraded``.
    """
    o = outcome
    why = ", ".join(o.short)
    failed, settled = o.unknown_failed, o.unknown - o.unknown_failed
    detail = ""
    if failed and settled:
        because = why or "see the report"
        detail = f" ({failed} after failures: {because}; {settled} not settled by the facts)"
    elif failed:
        detail = f" ({why or 'after failures'})"
    elif settled:
        detail = " (not settled by the facts)"
    end = "ok"
    if o.degraded:
        end = "degraded" if failed or not why else f"degraded ({why})"
    return (
        f"{_plural(o.total, 'update')}: {o.affected} affected, {o.not_affected} not affected, "
        f"{o.unknown} unknown{detail} — {end}"
    )


def no_drafts_line(outcome: RunOutcome) -> str:
    """The ``drafts:`` line when nothing was drafted: it does not claim more than was checked."""
    o = outcome
    if not o.unknown:
        return "drafts: none (no update affects this code)"
    if o.unknown == o.total:
        what = (
            "nothing was checked for them"
            if o.unknown_failed == o.unknown
            else "the facts settled none of them"
        )
        return f"drafts: none; {_plural(o.unknown, 'update')} unknown: {what}"
    return f"drafts: none (no decided update affects this code; {o.unknown} unknown)"


__all__ = [
    "DEFAULT_FAIL_ON",
    "EXIT_AFFECTED",
    "EXIT_BAD_INPUT",
    "EXIT_DEGRADED",
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_UNKNOWN",
    "FAIL_ON",
    "RunOutcome",
    "closing_line",
    "exit_status",
    "judge",
    "no_drafts_line",
    "unknown_cause",
]
