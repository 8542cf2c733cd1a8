"""What a run cost and how it ended: the ``stats`` of report.json (pure)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from depbot.agent.ledger import Ledger
from depbot.agent.loop import Budget, ConversationResult

TRACED_STATS = ("turns", "tool_calls", "prompt_tokens", "seconds")  # in the trace's run_end


def run_status(conversations: Sequence[ConversationResult]) -> str:
    """``finished``, or the exit status of the first conversation that did not finish."""
    return next((c.status for c in conversations if c.status != "finished"), "finished")


def run_stats(
    conversations: Sequence[ConversationResult],
    *,
    budget: Budget,
    ledger: Ledger,
    http_stats: Mapping[str, Any],
    seconds: float,
) -> dict[str, Any]:
    """Turns, tool calls, tokens, time, exit statuses, refusals and HTTP counts of a run."""
    return {
        "turns": sum(c.rounds for c in conversations),
        "tool_calls": sum(c.tool_calls for c in conversations),
        "prompt_tokens": budget.prompt_tokens,
        "completion_tokens": budget.completion_tokens,
        "seconds": round(seconds, 3),
        "conversations": len(conversations),
        "exit_statuses": dict(Counter(c.status for c in conversations)),
        "repeated_calls_refused": sum(c.refused for c in conversations),
        "integrity_rejections": ledger.rejections,
        "http": {k: v for k, v in sorted(http_stats.items())},
        "status": run_status(conversations),
    }
