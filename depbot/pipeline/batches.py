"""The week in batches: one conversation of the loop each, run on threads.

Conversations run concurrently (bounded by ``concurrency``) over shared services, one
ledger and one budget. An update a conversation ended without concluding gets ``unknown``
with the reason the conversation ended.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from depbot.agent.fit import batch_size_for
from depbot.agent.ledger import Ledger
from depbot.agent.loop import Budget, ConversationResult, run_conversation
from depbot.agent.prompts import initial_messages
from depbot.agent.specs import tool_specs
from depbot.agent.toolbox import Toolbox
from depbot.agent.trace import Trace
from depbot.core.fence import new_nonce
from depbot.core.settings import Settings
from depbot.models.base import Model, spends_tokens
from depbot.pipeline.verdicts import program_verdict
from depbot.records.update import Update
from depbot.records.verdict import Verdict


@dataclass
class Shared:
    """What every conversation of one run shares."""

    settings: Settings
    model: Model
    services: Any
    ledger: Ledger
    budget: Budget
    trace: Trace
    label: str  # the repository, as the prompt names it
    on_verdict: Callable[[Verdict], None]
    nonce: str = field(default_factory=new_nonce)


def plan_batches(updates: list[Update], size: int) -> list[list[Update]]:
    """Split the week into conversations of at most ``size`` updates, keeping the list's order."""
    size = max(1, size)
    return [updates[i : i + size] for i in range(0, len(updates), size)]


def run_batches(
    shared: Shared, todo: list[Update], say: Callable[[str], None]
) -> list[ConversationResult]:
    """Run one conversation per batch of ``todo``; afterwards every update has a verdict."""
    limit = getattr(shared.model, "max_input_tokens", None)  # GitHub Models' free tier: 8000
    batches = plan_batches(todo, batch_size_for(shared.settings.batch_size, limit, tool_specs()))
    if hasattr(shared.model, "set_deadline"):  # no model request waits past the run's deadline
        shared.model.set_deadline(shared.budget.started + shared.budget.max_seconds)
    say(
        f"triaging {len(todo)} update(s) in {len(batches)} conversation(s) "
        f"with model {shared.model.name}"
    )
    short = budget_warning(shared, len(todo))
    if short:
        say(short)
    workers = max(1, min(shared.settings.concurrency, len(batches)))
    one = partial(run_batch, shared, batches=len(batches))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        conversations = list(pool.map(one, batches, range(len(batches))))
    conclude_the_rest(shared, todo, batches, conversations)
    count_left_unknown(shared, batches, conversations)
    return conversations


TOKENS_PER_UPDATE = 8_000  # a chat model's prompt + completion per update on the scenarios


def budget_warning(shared: Shared, updates: int) -> str:
    """A line said up front when the week plainly needs more tokens than the budget holds
    ("" when it fits, or when the model spends no tokens, as the offline planner)."""
    if not spends_tokens(shared.model):
        return ""
    budget = shared.settings.max_tokens
    need = updates * TOKENS_PER_UPDATE
    if need <= budget:
        return ""
    covered = budget // TOKENS_PER_UPDATE
    return (
        f"depbot: warning: {updates} updates need about {need:,} tokens at ~{TOKENS_PER_UPDATE:,} "
        f"each, over the token budget of {budget:,} (DEPBOT_MAX_TOKENS): about {covered} can be "
        "triaged and the rest will end unknown (degraded); raise the budget or split the week"
    )


def run_batch(shared: Shared, batch: list[Update], i: int, batches: int) -> ConversationResult:
    """Conversation ``i`` (from 0) of ``batches``, over the updates of ``batch``."""
    s = shared.settings
    secrets = tuple(s.secrets())
    toolbox = Toolbox(
        batch, shared.ledger, shared.services, shared.nonce, secrets, on_verdict=shared.on_verdict
    )
    return run_conversation(
        shared.model,
        toolbox,
        initial_messages(shared.label, batch, batch=i + 1, batches=batches),
        conv=f"conv{i + 1}",
        budget=shared.budget,
        max_rounds=s.max_rounds,
        max_format_errors=s.max_format_errors,
        trace=shared.trace,
        model_retries=s.model_retries,
        retry_backoff=s.retry_backoff,
        compact=s.compact_results,
        max_input_tokens=getattr(shared.model, "max_input_tokens", None),
    )


def conclude_the_rest(
    shared: Shared,
    todo: list[Update],
    batches: list[list[Update]],
    conversations: list[ConversationResult],
) -> None:
    """``unknown`` for each update its conversation ended without concluding, saying why."""
    status_of = {}
    for conv, batch in zip(conversations, batches, strict=True):
        for u in batch:
            status_of[u.key] = conv
    for u in todo:
        if shared.ledger.verdict(u.key) is None:
            conv = status_of[u.key]
            why = conv.detail or conv.status.replace("_", " ")
            v = program_verdict(u, f"not concluded: the conversation ended ({conv.status}: {why})")
            shared.ledger.add_verdict(u.key, v)
            shared.on_verdict(v)


def count_left_unknown(
    shared: Shared, batches: list[list[Update]], conversations: list[ConversationResult]
) -> None:
    """A rate limit that ended conversations says how many updates it left unknown, one
    count for the run: ``…; resets at 2026-12-02 00:00 UTC; 4 updates left unknown``."""
    left: dict[str, int] = {}
    for conv, batch in zip(conversations, batches, strict=True):
        if conv.status == "model_unavailable" and "rate limit" in conv.detail:
            n = sum(
                1
                for u in batch
                if (v := shared.ledger.verdict(u.key)) is not None and v.decided_by == "program"
            )
            left[conv.detail] = left.get(conv.detail, 0) + n
    for conv in conversations:
        if conv.detail in left:
            n = left[conv.detail]
            conv.detail += f"; {n} update{'s' if n != 1 else ''} left unknown"
