"""The triage loop: one plain for-loop over rounds.

Call the model; a reply without tool calls is a final message; otherwise run every tool
call of the reply, feed back the results and go on. Every conversation ends with a named
exit status and never with one more unbudgeted model call.
"""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from depbot.agent.prompts import nudge_prompt
from depbot.agent.toolbox import MAX_CALLS_PER_REPLY, Outcome, Toolbox, tool_specs
from depbot.agent.trace import Trace
from depbot.core.errors import ModelError
from depbot.models.base import Model, Usage, estimate_tokens

EXIT_STATUSES = (
    "finished",
    "step_limit",
    "token_budget",
    "time_budget",
    "format_errors",
    "model_unavailable",
)


@dataclass
class Budget:
    """Token and time budget shared by every conversation of a run."""

    max_tokens: int
    max_seconds: float
    started: float = field(default_factory=time.monotonic)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def charge(self, usage: Usage) -> None:
        with self._lock:
            self.prompt_tokens += usage.prompt_tokens
            self.completion_tokens += usage.completion_tokens

    def would_exceed(self, next_prompt: int) -> bool:
        with self._lock:
            return self.prompt_tokens + self.completion_tokens + next_prompt > self.max_tokens

    def out_of_time(self) -> bool:
        return time.monotonic() - self.started > self.max_seconds


@dataclass
class ConversationResult:
    conv: str
    status: str
    rounds: int = 0
    tool_calls: int = 0
    refused: int = 0  # repeated calls answered from an earlier result or refused
    rejected: int = 0  # conclusions refused by the integrity check
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    detail: str = ""


def _execute_all(toolbox: Toolbox, calls: list[dict[str, Any]]) -> list[Outcome]:
    def one(i_call: tuple[int, dict[str, Any]]) -> Outcome:
        i, call = i_call
        fn = call.get("function") or {}
        if i >= MAX_CALLS_PER_REPLY:
            return toolbox._fail(
                f"refused: too many tool calls in one reply (limit {MAX_CALLS_PER_REPLY})",
                "refused",
            )
        args = fn.get("arguments")
        if not isinstance(args, str):
            args = json.dumps(args)
        t0 = time.monotonic()
        outcome = toolbox.execute(str(fn.get("name") or ""), args)
        outcome.seconds = round(time.monotonic() - t0, 3)
        return outcome

    # conclusions first, one at a time in reply order: each is judged on the facts the
    # model had when it wrote the reply (never on a fetch or search of the same reply), and
    # of two conclusions for one update the first counts, whatever the thread timing
    done: dict[int, Outcome] = {}
    for i, call in enumerate(calls):
        if (call.get("function") or {}).get("name") == "conclude":
            done[i] = one((i, call))
    rest = [(i, c) for i, c in enumerate(calls) if i not in done]
    if len(rest) <= 1:
        done.update((i, one((i, c))) for i, c in rest)
    else:
        with ThreadPoolExecutor(max_workers=min(8, len(rest))) as pool:
            done.update(zip((i for i, _ in rest), pool.map(one, rest), strict=True))
    return [done[i] for i in range(len(calls))]


def run_conversation(
    model: Model,
    toolbox: Toolbox,
    messages: list[dict[str, Any]],
    *,
    conv: str,
    budget: Budget,
    max_rounds: int,
    max_format_errors: int,
    trace: Trace,
    model_retries: int = 2,
    retry_backoff: float = 0.5,
    compact: bool = True,
) -> ConversationResult:
    """Run one conversation to its end; ``messages`` grows in place."""
    res = ConversationResult(conv=conv, status="step_limit")
    started = time.monotonic()
    tools = tool_specs()
    compact_forms: dict[str, str] = {}
    round_of: dict[str, int] = {}
    sent = 0
    format_errors = 0

    def end(status: str, detail: str = "") -> ConversationResult:
        res.status, res.detail = status, detail
        res.seconds = round(time.monotonic() - started, 3)
        trace.write("exit", conv=conv, status=status, rounds=res.rounds, detail=detail)
        return res

    for rnd in range(1, max_rounds + 1):
        if budget.out_of_time():
            return end("time_budget")
        if budget.would_exceed(estimate_tokens(messages)):
            return end("token_budget")
        t0 = time.monotonic()
        reply = None
        for attempt in range(model_retries + 1):
            try:
                reply = model.complete(messages, tools)
                break
            except ModelError as exc:
                trace.write(
                    "model_error", conv=conv, round=rnd, attempt=attempt + 1, error=str(exc)
                )
                if not exc.transient or attempt == model_retries or budget.out_of_time():
                    return end("model_unavailable", str(exc))
                time.sleep(min(retry_backoff * (2**attempt), 30.0))
            except Exception as exc:  # noqa: BLE001 - a broken model adapter ends this conversation only
                detail = f"the model failed unexpectedly ({type(exc).__name__})"
                trace.write("model_error", conv=conv, round=rnd, attempt=attempt + 1, error=detail)
                return end("model_unavailable", detail)
        assert reply is not None
        res.rounds = rnd
        budget.charge(reply.usage)
        res.prompt_tokens += reply.usage.prompt_tokens
        res.completion_tokens += reply.usage.completion_tokens
        message = reply.message
        messages.append(message)
        trace.write(
            "round",
            conv=conv,
            round=rnd,
            sent=messages[sent:-1],
            reply=message,
            usage={
                "prompt_tokens": reply.usage.prompt_tokens,
                "completion_tokens": reply.usage.completion_tokens,
            },
            seconds=round(time.monotonic() - t0, 3),
        )
        sent = len(messages)
        calls = message.get("tool_calls") or []
        if not calls:
            if toolbox.all_concluded():
                return end("finished")
            format_errors += 1
            if format_errors >= max_format_errors:
                return end("format_errors", "the model stopped without concluding every update")
            nudge = nudge_prompt([u.package for u in toolbox.open_updates()])
            trace.write("nudge", conv=conv, round=rnd, message=nudge)
            messages.append({"role": "user", "content": nudge})
            continue
        outcomes = _execute_all(toolbox, calls)
        for call, outcome in zip(calls, outcomes, strict=True):
            call_id = str(call.get("id") or "")
            messages.append({"role": "tool", "tool_call_id": call_id, "content": outcome.content})
            if outcome.compact:
                compact_forms[call_id] = outcome.compact
            round_of[call_id] = rnd
            res.tool_calls += 1
            res.refused += outcome.guard in ("repeat", "refused")
            res.rejected += outcome.guard == "rejected"
            trace.write(
                "tool",
                conv=conv,
                round=rnd,
                call_id=call_id,
                name=(call.get("function") or {}).get("name"),
                result=outcome.content,
                guard=outcome.guard,
                error_detail=outcome.error_detail
                if outcome.error_detail != outcome.content
                else "",
                seconds=outcome.seconds,
            )
        if all(o.guard == "invalid" for o in outcomes):
            format_errors += 1
            if format_errors >= max_format_errors:
                return end("format_errors", "repeated malformed tool calls")
        else:
            format_errors = 0
        # results the model has already answered to shrink to their compact form
        for m in messages if compact else ():
            cid = m.get("tool_call_id")
            if m.get("role") == "tool" and cid in compact_forms and round_of.get(cid, rnd) < rnd:
                m["content"] = compact_forms.pop(cid)
        if toolbox.all_concluded():
            return end("finished")
    return end("step_limit")
