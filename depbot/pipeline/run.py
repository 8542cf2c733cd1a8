"""The weekly job on one checkout: updates → conversations → verdicts → report and drafts.

``triage()`` reads as the run's table of contents; the parts are ``services`` (backends,
HTTP session, trace), ``verdicts`` (resume, program verdicts, journal), ``batches``
(conversations on threads) and ``stats``. Verdicts are journaled as they arrive, so
``--resume`` continues a killed run without redoing what was finished. The run writes
only its output folder: the Actions job summary is the CLI's (``depbot.cli.triage``).
One run at a time holds the folder (``output.runlock``), and a fresh run first moves the
older run's files to ``DIR/previous/`` (``output.runfolder``): journal, trace, report and
drafts are always of one run; ``--resume`` continues only a journal of the same inputs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from depbot.agent.loop import Budget, ConversationResult
from depbot.core.cachedir import evict, megabytes
from depbot.core.errors import InputError
from depbot.core.net import Http
from depbot.core.settings import Settings
from depbot.models.base import Model
from depbot.output.draft_files import write_drafts
from depbot.output.journal import Journal
from depbot.output.repo_link import detect_repo_link
from depbot.output.report import write_report
from depbot.output.runfolder import RunStart, begin_run, fingerprint
from depbot.output.runlock import FolderLock
from depbot.pipeline.batches import Shared, run_batches
from depbot.pipeline.outcome import RunOutcome, judge
from depbot.pipeline.services import LiveServices, wired
from depbot.pipeline.stats import TRACED_STATS, run_stats
from depbot.pipeline.verdicts import (
    Progress,
    Recorder,
    final_verdicts,
    ledger_of,
    resumed,
    still_open,
)
from depbot.pipeline.watch import ToolWatch
from depbot.records.update import Update
from depbot.records.verdict import Verdict


@dataclass
class TriageResult:
    verdicts: list[Verdict]
    stats: dict[str, Any]
    status: str
    out_dir: Path
    report_path: Path
    drafts: list[str] = field(default_factory=list)
    conversations: list[ConversationResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # e.g. "kept your edited draft, wrote ….new.md"
    outcome: RunOutcome = field(default_factory=RunOutcome)  # degraded or not, and why


def triage(
    settings: Settings,
    *,
    repo: Path,
    updates: list[Update],
    model: Model,
    out_dir: Path,
    services: Any = None,
    http: Http | None = None,
    progress: Progress | None = None,
    resume: bool = False,
    repo_label: str | None = None,
) -> TriageResult:
    """Triage ``updates`` against the checkout at ``repo``; write the report, drafts and trace."""
    repo, out_dir = _folders(repo, out_dir)
    say = progress or _quiet
    label = repo_label or repo.resolve().name
    started = time.monotonic()
    fp = fingerprint(repo, updates, model.name, settings, out_dir=out_dir)
    with FolderLock(out_dir, command="triage", notice=say):
        return _run(settings, repo, updates, model, out_dir, services, http, say, label,
                    started, begin_run(out_dir, fp, resume=resume, say=say))  # fmt: skip


def _keep_cache_small(settings: Settings, trace: Any, say: Progress) -> None:
    """The cache folder back under ``cache_max_mb``, least recently used first."""
    if settings.cache_dir is None:
        return
    removed, freed = evict(settings.cache_dir, settings.cache_max_mb * 1_000_000)
    if removed:
        trace.write("cache_evicted", entries=removed, bytes=freed)
        say(f"cache: removed {removed} least recently used entries ({megabytes(freed)}) "
            f"to stay under {settings.cache_max_mb} MB (DEPBOT_CACHE_MAX_MB)")  # fmt: skip


def _run(
    settings: Settings,
    repo: Path,
    updates: list[Update],
    model: Model,
    out_dir: Path,
    services: Any,
    http: Http | None,
    say: Progress,
    label: str,
    started: float,
    run: RunStart,
) -> TriageResult:
    """The run itself, in a folder that is its own (locked; an older run moved away)."""
    with wired(settings, out_dir, http) as (http, trace):
        done = resumed(out_dir, say) if run.resumed else {}
        with Journal(out_dir) as journal:
            watch = ToolWatch(say)  # fetch failures and stage counts, as the tools run
            record = Recorder(
                journal, trace, say, total=len(updates), done=len(done), cause=watch.cause
            )
            todo = still_open(updates, done, record)
            trace.write(
                "run_start",
                run=out_dir.name,
                run_id=run.run_id,
                resumed=run.resumed,
                updates=len(updates),
                todo=len(todo),
                model=model.name,
            )
            ledger = ledger_of(done)
            budget = Budget(settings.max_tokens, settings.max_seconds)
            conversations: list[ConversationResult] = []
            if todo:
                services = watch.wrap(
                    services or LiveServices(settings, repo, http), total=len(todo)
                )
                shared = Shared(settings, model, services, ledger, budget, trace, label, record)
                conversations = run_batches(shared, todo, say)
        verdicts = final_verdicts(updates, ledger, done)
        for v in verdicts:  # one journaled by an earlier depbot may not say why it is unknown
            v.unknown_cause = v.unknown_cause or watch.cause(v)
            if v.accounting is not None:  # what it rests on, for `depbot trace show`
                trace.write("accounting", package=v.update.package, verdict=v.verdict,
                            basis=v.accounting.basis, **v.accounting.to_report())  # fmt: skip
        drafts = write_drafts(out_dir, verdicts, detect_repo_link(repo, settings.github_api_url))
        seconds = time.monotonic() - started
        outcome = judge(
            verdicts,
            conversations,
            unreachable=http.unreachable(),
            failures=watch.failures_of(verdicts),
        )
        stats = run_stats(
            conversations, budget=budget, ledger=ledger, http_stats=http.stats, seconds=seconds
        )
        stats.update(outcome.to_stats())
        stats["timings"] = watch.timings.to_report(sum(c.model_seconds for c in conversations))
        trace.write("timings", **stats["timings"])
        report_path = write_report(
            out_dir, repo=label, model=model.name, verdicts=verdicts, stats=stats
        )
        trace.write(
            "run_end",
            status=stats["status"],
            stats={k: stats[k] for k in TRACED_STATS},
            degraded=outcome.because,
        )
        _keep_cache_small(settings, trace, say)
    return TriageResult(
        verdicts=verdicts,
        stats=stats,
        status=stats["status"],
        out_dir=out_dir,
        report_path=report_path,
        drafts=[d.path for d in drafts],
        conversations=conversations,
        notes=[d.note for d in drafts if getattr(d, "note", "")],
        outcome=outcome,
    )


def _folders(repo: Path, out_dir: Path) -> tuple[Path, Path]:
    """The checkout (it must exist) and the output folder (made when missing)."""
    repo = Path(repo)
    if not repo.is_dir():
        raise InputError(f"repository path {str(repo)!r} does not exist or is not a folder")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    return repo, out_dir


def _quiet(_msg: str) -> None:
    pass


__all__ = ["TriageResult", "triage"]
