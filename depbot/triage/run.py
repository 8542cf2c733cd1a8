"""The weekly job on one checkout: updates → conversations → verdicts → report and drafts.

Updates are split into batches; each batch is one conversation of the loop, and
conversations run concurrently (bounded) over shared services, one ledger and one
budget. Every update ends with exactly one verdict: the model's, or ``unknown`` with the
reason the program filled in. Verdicts are journaled as they arrive, so ``--resume``
continues a killed run without redoing what was finished.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from depbot.agent.ledger import Ledger
from depbot.agent.loop import Budget, ConversationResult, run_conversation
from depbot.agent.prompts import initial_messages
from depbot.agent.toolbox import Toolbox
from depbot.agent.trace import Trace
from depbot.changelogs.fetch import ChangelogFetcher
from depbot.core.errors import InputError
from depbot.core.fence import new_nonce
from depbot.core.net import Http
from depbot.core.settings import Settings
from depbot.models.base import Model
from depbot.output.drafts import render_step_summary
from depbot.output.report import (
    Journal,
    detect_repo_link,
    read_journal,
    write_drafts,
    write_report,
    write_step_summary,
)
from depbot.records.update import Update
from depbot.records.verdict import Verdict
from depbot.search.code import CodeSearch
from depbot.symbols.search import SymbolSearch

Progress = Callable[[str], None]


class LiveServices:
    """The real backends of the tools: registries, GitHub and ripgrep over one checkout."""

    def __init__(self, settings: Settings, repo: Path, http: Http) -> None:
        self.changelogs = ChangelogFetcher(settings, http)
        self.code = CodeSearch(repo, settings)
        self.symbols = SymbolSearch(self.code)

    def fetch_changelog(self, update: Update) -> Any:
        return self.changelogs.fetch(
            update.ecosystem, update.package, update.from_version, update.to_version
        )

    def search_code(self, pattern: str, **kw: Any) -> Any:
        return self.code.search_code(pattern, **kw)

    def where_imported(self, ecosystem: str, package: str) -> Any:
        return self.symbols.report(ecosystem, package)

    def search_symbol(self, ecosystem: str, package: str, symbol: str, **kw: Any) -> Any:
        return self.symbols.search(ecosystem, package, symbol, **kw)

    def import_names(self, ecosystem: str, package: str) -> list[str]:
        return self.symbols.import_names(ecosystem, package)

    def in_secret_block(self, path: str, line: int) -> bool:
        return self.code.in_private_key_block(path, line)


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


def plan_batches(updates: list[Update], size: int) -> list[list[Update]]:
    """Split the week into conversations of at most ``size`` updates, keeping the list's order."""
    size = max(1, size)
    return [updates[i : i + size] for i in range(0, len(updates), size)]


def _program_verdict(update: Update, reason: str) -> Verdict:
    return Verdict(update=update, verdict="unknown", reason=reason, decided_by="program")


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
    repo = Path(repo)
    if not repo.is_dir():
        raise InputError(f"repository path {str(repo)!r} does not exist or is not a folder")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    say = progress or (lambda _msg: None)
    started = time.monotonic()
    own_http = http is None
    http = http or Http(settings)
    secrets = settings.secrets()
    trace = Trace(out_dir / "trace.jsonl", secrets)
    hooked = http.on_retry is None
    if hooked:  # every retried request goes into the trace
        http.on_retry = lambda event: trace.write("http_retry", **event)
    label = repo_label or repo.resolve().name

    done: dict[str, Verdict] = {}
    if resume:
        for v in read_journal(out_dir):
            done.setdefault(v.update.key, v)
        if done:
            say(f"resuming: {len(done)} update(s) already concluded")
    journal = Journal(out_dir)
    lock = threading.Lock()
    count = {"n": len(done)}
    total = len(updates)

    def on_verdict(v: Verdict) -> None:
        journal.append(v)
        trace.write("verdict", package=v.update.package, verdict=v.verdict, reason=v.reason)
        with lock:
            count["n"] += 1
            say(
                f"[{count['n']}/{total}] {v.update.package} {v.update.from_version} → {v.update.to_version}: {v.verdict}"
            )

    todo: list[Update] = []
    for u in updates:
        if u.key in done:
            continue
        if u.error:
            v = _program_verdict(u, f"the update list could not be completed for it: {u.error}")
            done[u.key] = v
            on_verdict(v)
            continue
        todo.append(u)

    trace.write(
        "run_start", run=out_dir.name, updates=len(updates), todo=len(todo), model=model.name
    )
    ledger = Ledger()
    for key, v in done.items():
        ledger.add_verdict(key, v)
    budget = Budget(settings.max_tokens, settings.max_seconds)
    nonce = new_nonce()
    conversations: list[ConversationResult] = []
    if todo:
        services = services or LiveServices(settings, repo, http)
        batches = plan_batches(todo, settings.batch_size)

        def run_batch(i_batch: tuple[int, list[Update]]) -> ConversationResult:
            i, batch = i_batch
            toolbox = Toolbox(batch, ledger, services, nonce, tuple(secrets), on_verdict=on_verdict)
            messages = initial_messages(label, batch, batch=i + 1, batches=len(batches))
            return run_conversation(
                model,
                toolbox,
                messages,
                conv=f"conv{i + 1}",
                budget=budget,
                max_rounds=settings.max_rounds,
                max_format_errors=settings.max_format_errors,
                trace=trace,
                model_retries=settings.model_retries,
                retry_backoff=settings.retry_backoff,
                compact=settings.compact_results,
            )

        say(
            f"triaging {len(todo)} update(s) in {len(batches)} conversation(s) with model {model.name}"
        )
        workers = max(1, min(settings.concurrency, len(batches)))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            conversations = list(pool.map(run_batch, enumerate(batches)))
        status_of = {}
        for conv, batch in zip(conversations, batches, strict=True):
            for u in batch:
                status_of[u.key] = conv
        for u in todo:
            if ledger.verdict(u.key) is None:
                conv = status_of[u.key]
                why = conv.detail or conv.status.replace("_", " ")
                v = _program_verdict(
                    u, f"not concluded: the conversation ended ({conv.status}: {why})"
                )
                ledger.add_verdict(u.key, v)
                on_verdict(v)
    journal.close()

    verdicts = []
    for u in updates:
        v = ledger.verdict(u.key) or done.get(u.key)
        if v is None:  # pragma: no cover - every path above sets one
            v = _program_verdict(u, "not examined")
        verdicts.append(v)

    link = detect_repo_link(repo, settings.github_api_url)
    drafts = write_drafts(out_dir, verdicts, link)
    statuses = Counter(c.status for c in conversations)
    status = (
        "finished"
        if all(c.status == "finished" for c in conversations)
        else (next((c.status for c in conversations if c.status != "finished"), "finished"))
    )
    stats: dict[str, Any] = {
        "turns": sum(c.rounds for c in conversations),
        "tool_calls": sum(c.tool_calls for c in conversations),
        "prompt_tokens": budget.prompt_tokens,
        "completion_tokens": budget.completion_tokens,
        "seconds": round(time.monotonic() - started, 3),
        "conversations": len(conversations),
        "exit_statuses": dict(statuses),
        "repeated_calls_refused": sum(c.refused for c in conversations),
        "integrity_rejections": ledger.rejections,
        "http": {k: v for k, v in sorted(http.stats.items())},
        "status": status,
    }
    report_path = write_report(
        out_dir, repo=label, model=model.name, verdicts=verdicts, stats=stats
    )
    write_step_summary(
        None, render_step_summary(verdicts, report_path=str(report_path), drafts=drafts)
    )
    trace.write(
        "run_end",
        status=status,
        stats={k: stats[k] for k in ("turns", "tool_calls", "prompt_tokens", "seconds")},
    )
    trace.close()
    if hooked:
        http.on_retry = None
    if own_http:
        http.close()
    return TriageResult(
        verdicts=verdicts,
        stats=stats,
        status=status,
        out_dir=out_dir,
        report_path=report_path,
        drafts=[d.path for d in drafts],
        conversations=conversations,
        notes=[d.note for d in drafts if getattr(d, "note", "")],
    )
