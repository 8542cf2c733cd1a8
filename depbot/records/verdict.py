"""What triage concludes about each update: pure value types shared by the loop, drafts and report.

A ``Verdict`` is built by the program from the ledger of real tool results (see
``integrity.py``); the model only chooses which ids to cite.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from depbot.records.accounting import Accounting
from depbot.records.update import Update

VERDICTS = ("affected", "not_affected", "unknown")
# why an ``unknown`` is unknown: something failed (an upstream, the model, a budget), or
# nothing failed and the facts did not settle it (no release notes, say)
UNKNOWN_CAUSES = ("failure", "no_facts")


@dataclass(frozen=True)
class BreakingChange:
    summary: str  # one line, in the model's (or planner's) words
    symbols: tuple[str, ...] = ()  # the API names it breaks
    source: str = ""  # URL or repo path the section was read from (from the ledger)
    quote: str = ""  # the changelog lines, verbatim from the fetched section
    version: str = ""  # the section's version
    section_ref: str = ""  # ledger id of the section ("c1.s2")

    def to_report(self) -> dict[str, Any]:
        return {"summary": self.summary, "symbols": list(self.symbols), "source": self.source}


@dataclass(frozen=True)
class Hit:
    """A place in the checkout that a search returned in this run."""

    id: str  # ledger id ("h7")
    path: str  # repo-relative
    line: int
    text: str  # the line, trimmed
    col: int = 0
    weak: bool = False  # the search could not tell the receiver is the package's: to check

    def to_report(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "line": self.line, "text": self.text}
        if self.weak:
            out["evidence"] = "weak"
        return out


@dataclass
class Verdict:
    update: Update
    verdict: str  # affected | not_affected | unknown
    reason: str
    breaking_changes: list[BreakingChange] = field(default_factory=list)
    hits: list[Hit] = field(default_factory=list)
    suggested_fix: str = ""
    draft: str | None = None  # path relative to the output folder
    decided_by: str = "model"  # "model" | "program" (the program filled in what the model left)
    unknown_cause: str = ""  # for an unknown: one of UNKNOWN_CAUSES ("" until the run says)
    accounting: Accounting | None = None  # what it rests on (the run fills it in at the end)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {self.verdict!r}")
        if self.unknown_cause and self.unknown_cause not in UNKNOWN_CAUSES:
            raise ValueError(f"unknown cause {self.unknown_cause!r}")

    def to_report(self) -> dict[str, Any]:
        """One entry of report.json's ``updates``, schema 1: readers rely on these keys."""
        u = self.update
        return {
            "ecosystem": u.ecosystem,
            "package": u.package,
            "from": u.from_version,
            "to": u.to_version,
            "update_type": u.update_type,
            "manifest": u.manifest,
            "verdict": self.verdict,
            "reason": self.reason,
            "breaking_changes": [b.to_report() for b in self.breaking_changes],
            "hits": [h.to_report() for h in self.hits],
            "suggested_fix": self.suggested_fix,
            "draft": self.draft,
            "decided_by": self.decided_by,
            "source": u.source,
            "source_ref": u.source_ref,
            "unknown_cause": self.unknown_cause or None,
            "basis": self.accounting.basis if self.accounting else "none",
            "accounting": self.accounting.to_report() if self.accounting else None,
        }

    def to_journal(self) -> dict[str, Any]:
        """Everything needed to rebuild this verdict (crash-safe journal lines)."""
        return {
            "update": asdict(self.update),
            "verdict": self.verdict,
            "reason": self.reason,
            "breaking_changes": [asdict(b) for b in self.breaking_changes],
            "hits": [asdict(h) for h in self.hits],
            "suggested_fix": self.suggested_fix,
            "draft": self.draft,
            "decided_by": self.decided_by,
            "unknown_cause": self.unknown_cause,
            "basis": self.accounting.basis if self.accounting else None,
            "accounting": self.accounting.to_report() if self.accounting else None,
        }

    @classmethod
    def from_journal(cls, data: dict[str, Any]) -> Verdict:
        upd = dict(data["update"])
        upd["extra"] = dict(upd.get("extra") or {})
        return cls(
            update=Update(**upd),
            verdict=data["verdict"],
            reason=data["reason"],
            breaking_changes=[
                BreakingChange(**{**b, "symbols": tuple(b.get("symbols", ()))})
                for b in data.get("breaking_changes", [])
            ],
            hits=[Hit(**h) for h in data.get("hits", [])],
            suggested_fix=data.get("suggested_fix", ""),
            draft=data.get("draft"),
            decided_by=data.get("decided_by", "model"),
            unknown_cause=data.get("unknown_cause", ""),
            accounting=Accounting.from_report(data["basis"], data.get("accounting"))
            if data.get("basis")
            else None,
        )
