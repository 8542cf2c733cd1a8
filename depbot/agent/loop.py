"""The triage loop, in small steps: ``run`` → ``step`` → ``query`` / ``execute``.

``query`` checks the budget and asks the model; a reply without tool calls is a final
message (or earns a nudge); otherwise ``execute`` runs every tool call of the reply and
feeds the results back. Each way out is an exception of ``exits`` carrying its status,
so every conversation ends with a named exit status and never with one more unbudgeted
model call.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from depbot.agent.exits import (
    EXIT_STATUSES,
    ConversationExit,
    Finished,
    FormatErrors,
    ModelUnavailable,
    StepLimit,
    TimeBudget,
    TokenBudget,
)
from depbot.agent.fit import fit_prompt
from depbot.agent.observations import Outcome
from depbot.agent.prompts import nudge_prompt
from depbot.agent.specs import tool_specs
from depbot.agent.toolbox import Toolbox
from depbot.agent.trace import Trace
from depbot.core.errors import ModelError
from depbot.core.tokens import estimate_tokens
from depbot.models.base import Model, ModelReply, Usage, spends_tokens

__all__ = ["EXIT_STATUSES", "Budget", "ConversationResult", "Conversation", "run_conversation"]


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

    def seconds_left(self) -> float:
        return self.max_seconds - (time.monotonic() - self.started)


RATE_LIMIT_WAITS = 8  # per model call, each for the reset a 429 named


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
    model_seconds: float = 0.0  # of ``seconds``, waiting for the model's replies
    detail: str = ""


@dataclass(frozen=True)
class LoopConfig:
    max_rounds: int
    max_format_errors: int
    model_retries: int = 2
    retry_backoff: float = 0.5
    compact: bool = True  # shrink results the model has answered to their compact form
    max_input_tokens: int | None = None  # no prompt larger (agent/fit.py); None: no limit


def _tool_name(call: dict[str, Any]) -> Any:
    return (call.get("function") or {}).get("name")


def execute_reply(toolbox: Toolbox, calls: list[dict[str, Any]]) -> list[Outcome]:
    """Run the tool calls of one reply; the outcomes in call order."""
    # conclusions first, one at a time in reply order: each is judged on the facts the
    # model had when it wrote the reply (never on a fetch or search of the same reply), and
    # of two conclusions for one update the first counts, whatever the thread timing
    done: dict[int, Outcome] = {}
    for i, call in enumerate(calls):
        if _tool_name(call) == "conclude":
            done[i] = toolbox.execute_call(call, i)
    rest = [(i, c) for i, c in enumerate(calls) if i not in done]
    if len(rest) <= 1:
        done.update((i, toolbox.execute_call(c, i)) for i, c in rest)
    else:
        with ThreadPoolExecutor(max_workers=min(8, len(rest))) as pool:
            outcomes = pool.map(lambda ic: toolbox.execute_call(ic[1], ic[0]), rest)
            done.update(zip((i for i, _ in rest), outcomes, strict=True))
    return [done[i] for i in range(len(calls))]


class Conversation:
    """One conversation of one batch; ``messages`` grows in place."""

    def __init__(
        self,
        model: Model,
        toolbox: Toolbox,
        messages: list[dict[str, Any]],
        *,
        conv: str,
        budget: Budget,
        trace: Trace,
        config: LoopConfig,
    ) -> None:
        self.model, self.toolbox, self.messages = model, toolbox, messages
        self.conv, self.budget, self.trace, self.config = conv, budget, trace, config
        self.result = ConversationResult(conv=conv, status="step_limit")
        self.tools = tool_specs()
        self.round = 0
        self.sent = 0  # messages[:sent] are in the trace already
        self.format_errors = 0
        self.compact_forms: dict[str, str] = {}  # tool call id -> its result's compact form
        self.round_of: dict[str, int] = {}  # tool call id -> the round it was made in

    def run(self) -> ConversationResult:
        started = time.monotonic()
        try:
            while True:
                self.step()
        except ConversationExit as end:
            res = self.result
            res.status, res.detail = end.status, end.detail
            res.seconds = round(time.monotonic() - started, 3)
            self.trace.write(
                "exit", conv=self.conv, status=end.status, rounds=res.rounds, detail=end.detail
            )
            return res

    def step(self) -> None:
        if self.round >= self.config.max_rounds:
            raise StepLimit()
        self.round += 1
        calls = self.query().get("tool_calls") or []
        if not calls:
            self.stop_or_nudge()
            return
        self.execute(calls)
        if self.config.compact:
            self.shrink_answered()
        if self.toolbox.all_concluded():
            raise Finished()

    # -- query ---------------------------------------------------------------------------------

    def query(self) -> dict[str, Any]:
        """Check the budget, ask the model, record its reply; the reply's message."""
        if self.budget.out_of_time():
            raise TimeBudget()
        limit = self.config.max_input_tokens
        if limit and fit_prompt(self.messages, self.tools, limit, self.compact_forms) > limit:
            raise TokenBudget(f"the prompt does not fit max_input_tokens ({limit})")
        if spends_tokens(self.model) and self.budget.would_exceed(estimate_tokens(self.messages)):
            raise TokenBudget()
        t0 = time.monotonic()
        reply = self.complete()
        res, usage = self.result, reply.usage
        res.model_seconds += time.monotonic() - t0
        res.rounds = self.round
        self.budget.charge(usage)
        res.prompt_tokens += usage.prompt_tokens
        res.completion_tokens += usage.completion_tokens
        self.messages.append(reply.message)
        self.trace.write(
            "round",
            conv=self.conv,
            round=self.round,
            sent=self.messages[self.sent : -1],
            reply=reply.message,
            usage={
                "prompt_tokens": usage.prompt_tokens,
                "completion_tokens": usage.completion_tokens,
            },
            seconds=round(time.monotonic() - t0, 3),
        )
        self.sent = len(self.messages)
        return reply.message

    def complete(self) -> ModelReply:
        """One model call, retried (bounded, with backoff) while its errors are transient."""
        retries = self.config.model_retries
        waits = 0  # rate limits waited out: they do not count as retries (the deadline bounds them)
        for attempt in range(retries + 1 + RATE_LIMIT_WAITS):
            try:
                return self.model.complete(self.messages, self.tools)
            except ModelError as exc:
                self._model_error(attempt, str(exc))
                # a rate limit says when it resets: wait for it if the run's deadline allows
                wait = getattr(exc, "retry_after", None)
                if wait is not None:
                    if wait >= self.budget.seconds_left() or waits == RATE_LIMIT_WAITS:
                        raise ModelUnavailable(str(exc)) from exc
                    waits += 1
                    time.sleep(max(wait, 0.05))
                    continue
                tries = attempt - waits
                if not exc.transient or tries == retries or self.budget.out_of_time():
                    raise ModelUnavailable(str(exc)) from exc
                time.sleep(min(self.config.retry_backoff * (2**tries), 30.0))
            except Exception as exc:  # noqa: BLE001 - a broken model adapter ends this conversation only
                detail = f"the model failed unexpectedly ({type(exc).__name__})"
                self._model_error(attempt, detail)
                raise ModelUnavailable(detail) from exc
        raise AssertionError(f"model_retries must be 0 or more, not {retries}")

    def _model_error(self, attempt: int, error: str) -> None:
        self.trace.write(
            "model_error", conv=self.conv, round=self.round, attempt=attempt + 1, error=error
        )

    # -- execute -------------------------------------------------------------------------------

    def stop_or_nudge(self) -> None:
        """A reply without tool calls: the end if every update is concluded, else a nudge."""
        if self.toolbox.all_concluded():
            raise Finished()
        self._format_error("the model stopped without concluding every update")
        nudge = nudge_prompt([u.package for u in self.toolbox.open_updates()])
        self.trace.write("nudge", conv=self.conv, round=self.round, message=nudge)
        self.messages.append({"role": "user", "content": nudge})

    def execute(self, calls: list[dict[str, Any]]) -> None:
        """Run the reply's tool calls and answer each with its result."""
        outcomes = execute_reply(self.toolbox, calls)
        for call, outcome in zip(calls, outcomes, strict=True):
            self._answer(call, outcome)
        if all(o.guard == "invalid" for o in outcomes):
            self._format_error("repeated malformed tool calls")
        else:
            self.format_errors = 0

    def _answer(self, call: dict[str, Any], outcome: Outcome) -> None:
        call_id = str(call.get("id") or "")
        self.messages.append({"role": "tool", "tool_call_id": call_id, "content": outcome.content})
        if outcome.compact:
            self.compact_forms[call_id] = outcome.compact
        self.round_of[call_id] = self.round
        res = self.result
        res.tool_calls += 1
        res.refused += outcome.guard in ("repeat", "refused")
        res.rejected += outcome.guard == "rejected"
        self.trace.write(
            "tool",
            conv=self.conv,
            round=self.round,
            call_id=call_id,
            name=_tool_name(call),
            result=outcome.content,
            guard=outcome.guard,
            error_detail=outcome.error_detail if outcome.error_detail != outcome.content else "",
            seconds=outcome.seconds,
        )

    def _format_error(self, detail: str) -> None:
        self.format_errors += 1
        if self.format_errors >= self.config.max_format_errors:
            raise FormatErrors(detail)

    def shrink_answered(self) -> None:
        """Results the model has already answered to go back in their compact form."""
        for m in self.messages:
            cid = m.get("tool_call_id")
            if m.get("role") != "tool" or cid not in self.compact_forms:
                continue
            if self.round_of.get(cid, self.round) < self.round:
                m["content"] = self.compact_forms.pop(cid)


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
    max_input_tokens: int | None = None,
) -> ConversationResult:
    """Run one conversation to its end; ``messages`` grows in place."""
    config = LoopConfig(
        max_rounds, max_format_errors, model_retries, retry_backoff, compact, max_input_tokens
    )
    conversation = Conversation(
        model, toolbox, messages, conv=conv, budget=budget, trace=trace, config=config
    )
    return conversation.run()
