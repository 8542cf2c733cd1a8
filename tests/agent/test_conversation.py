"""The loop alone: an in-process scripted model and the fake services, one test per way out.

Every conversation ends with one of the exit statuses, written to the trace, and the
budget is checked before every model call (a run never makes one unbudgeted call).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from depbot.agent import exits
from depbot.agent.ledger import Ledger
from depbot.agent.loop import EXIT_STATUSES, Budget, ConversationResult, run_conversation
from depbot.agent.toolbox import MAX_CALLS_PER_REPLY, Toolbox
from depbot.agent.trace import Trace
from depbot.core.errors import ModelError
from depbot.models.base import ModelReply, Usage
from depbot.records.update import Update
from tests.helpers.fake_services import FakeServices
from tests.helpers.scripted import ScriptedModel

PATCH = Update("pip", "otherlib", "3.1.0", "3.1.1")
THIRD = Update("pip", "thirdlib", "1.2.0", "1.2.5")


def call(name: str, args: dict[str, Any] | str, i: int = 0) -> dict[str, Any]:
    raw = args if isinstance(args, str) else json.dumps(args)
    return {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": raw}}


def calls(*items: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": None, "tool_calls": list(items)}


def conclude(package: str, i: int = 0) -> dict[str, Any]:
    return call("conclude", {"package": package, "verdict": "not_affected", "reason": "patch"}, i)


PROSE = {"role": "assistant", "content": "All good, I think."}


def converse(
    tmp_path: Path,
    model: ScriptedModel,
    *,
    budget: Budget | None = None,
    updates: tuple[Update, ...] = (PATCH, THIRD),
    **kw: Any,
) -> tuple[ConversationResult, list[dict[str, Any]], list[dict[str, Any]]]:
    toolbox = Toolbox(list(updates), Ledger(), FakeServices(), "0123456789ab")
    messages = [{"role": "user", "content": "triage these"}]
    trace = Trace(tmp_path / "trace.jsonl")
    options = {"max_rounds": 5, "max_format_errors": 3, "retry_backoff": 0.0, **kw}
    result = run_conversation(
        model, toolbox, messages, conv="conv1", budget=budget or Budget(10**6, 60.0),
        trace=trace, **options,
    )  # fmt: skip
    trace.close()
    events = [json.loads(line) for line in (tmp_path / "trace.jsonl").read_text().splitlines()]
    return result, messages, events


def test_the_exit_statuses_are_the_documented_ones():
    assert EXIT_STATUSES == (
        "finished", "step_limit", "token_budget", "time_budget", "format_errors",
        "model_unavailable",
    )  # fmt: skip
    assert all(issubclass(e, exits.ConversationExit) for e in exits.EXITS)


def test_finished_when_every_update_is_concluded(tmp_path):
    model = ScriptedModel(calls(conclude("otherlib", 1), conclude("thirdlib", 2)))
    result, messages, events = converse(tmp_path, model)
    model.assert_done()
    assert (result.status, result.rounds, result.tool_calls) == ("finished", 1, 2)
    assert (result.prompt_tokens, result.completion_tokens) == (100, 10)
    assert [m["tool_call_id"] for m in messages if m["role"] == "tool"] == ["c1", "c2"]
    assert events[-1] == {**events[-1], "type": "exit", "status": "finished", "rounds": 1}


def test_a_final_message_before_every_verdict_gets_a_nudge(tmp_path):
    model = ScriptedModel(calls(conclude("otherlib", 1)), PROSE, calls(conclude("thirdlib", 2)))
    result, messages, events = converse(tmp_path, model)
    model.assert_done()
    assert result.status == "finished" and result.rounds == 3
    nudges = [e for e in events if e["type"] == "nudge"]
    assert len(nudges) == 1 and "thirdlib" in nudges[0]["message"]
    assert "otherlib" not in nudges[0]["message"]
    assert messages[3:5] == [PROSE, {"role": "user", "content": nudges[0]["message"]}]


def test_step_limit_after_max_rounds(tmp_path):
    search = calls(call("search_code", {"pattern": "x"}, 1))
    model = ScriptedModel(search, search)
    result, _, _ = converse(tmp_path, model, max_rounds=2)
    model.assert_done()
    assert (result.status, result.rounds, result.refused) == ("step_limit", 2, 1)


def test_the_token_budget_is_checked_before_every_model_call(tmp_path):
    budget = Budget(max_tokens=150, max_seconds=60.0)
    model = ScriptedModel(calls(call("search_code", {"pattern": "x"}, 1)))
    result, _, events = converse(tmp_path, model, budget=budget)
    model.assert_done()  # the second call would have overspent: never made
    assert (result.status, result.rounds) == ("token_budget", 1)
    assert (budget.prompt_tokens, budget.completion_tokens) == (100, 10)
    assert [e["type"] for e in events] == ["round", "tool", "exit"]


def test_the_time_budget_is_checked_before_every_model_call(tmp_path):
    model = ScriptedModel()
    result, _, _ = converse(tmp_path, model, budget=Budget(10**6, max_seconds=-1.0))
    model.assert_done()
    assert (result.status, result.rounds) == ("time_budget", 0)


def test_format_errors_for_prose_that_never_concludes(tmp_path):
    model = ScriptedModel(PROSE, PROSE, PROSE)
    result, _, _ = converse(tmp_path, model)
    model.assert_done()
    assert result.status == "format_errors"
    assert result.detail == "the model stopped without concluding every update"


def test_format_errors_for_malformed_calls_and_a_valid_call_resets_the_count(tmp_path):
    bad = calls(call("fetch_changelog", "{oops", 1))
    good = calls(call("search_code", {"pattern": "x"}, 2))
    model = ScriptedModel(bad, bad, good, bad, bad, bad)
    result, _, _ = converse(tmp_path, model, max_rounds=10)
    model.assert_done()
    assert (result.status, result.rounds) == ("format_errors", 6)
    assert result.detail == "repeated malformed tool calls"


def test_transient_model_errors_are_retried_a_bounded_number_of_times(tmp_path):
    busy = ModelError("rate limited", transient=True)
    model = ScriptedModel(busy, busy, calls(conclude("otherlib", 1), conclude("thirdlib", 2)))
    result, _, events = converse(tmp_path, model, model_retries=2)
    model.assert_done()
    assert result.status == "finished"
    assert [e["attempt"] for e in events if e["type"] == "model_error"] == [1, 2]

    model = ScriptedModel(busy, busy, busy)
    result, _, _ = converse(tmp_path / "again", model, model_retries=2)
    model.assert_done()
    assert (result.status, result.detail, result.rounds) == (
        "model_unavailable",
        "rate limited",
        0,
    )


@pytest.mark.parametrize(
    ("error", "detail"),
    [
        (ModelError("bad key"), "bad key"),  # not transient: no retry
        (ValueError("adapter bug"), "the model failed unexpectedly (ValueError)"),
    ],
)
def test_a_lasting_model_failure_ends_at_once(tmp_path, error, detail):
    model = ScriptedModel(error)
    result, _, events = converse(tmp_path, model, model_retries=3)
    model.assert_done()
    assert (result.status, result.detail) == ("model_unavailable", detail)
    assert events[-1]["detail"] == detail


def test_answered_results_shrink_to_their_compact_form_in_later_rounds(tmp_path):
    def check(messages: list[dict[str, Any]]) -> dict[str, Any]:
        fetched, searched = [json.loads(m["content"]) for m in messages if m["role"] == "tool"]
        assert fetched.get("compacted") is True  # answered by the model's second reply
        assert "compacted" not in searched  # not answered yet
        return calls(conclude("otherlib", 3), conclude("thirdlib", 4))

    model = ScriptedModel(
        calls(call("fetch_changelog", {"package": "otherlib"}, 1)),
        calls(call("search_code", {"pattern": "x"}, 2)),
        check,
    )
    result, _, _ = converse(tmp_path, model)
    model.assert_done()
    assert result.status == "finished"
    assert "compacted" not in model.requests[1][-1]["content"]  # sent whole the first time


def test_without_compact_results_stay_whole(tmp_path):
    def check(messages: list[dict[str, Any]]) -> dict[str, Any]:
        assert all("compacted" not in m["content"] for m in messages if m["role"] == "tool")
        return calls(conclude("otherlib", 3), conclude("thirdlib", 4))

    model = ScriptedModel(
        calls(call("fetch_changelog", {"package": "otherlib"}, 1)),
        calls(call("search_code", {"pattern": "x"}, 2)),
        check,
    )
    result, _, _ = converse(tmp_path, model, compact=False)
    model.assert_done()
    assert result.status == "finished"


def test_conclusions_run_before_the_other_calls_of_their_reply(tmp_path):
    order: list[str] = []
    model = ScriptedModel(
        calls(call("search_code", {"pattern": "x"}, 1), conclude("otherlib", 2),
              call("search_code", {"pattern": "y"}, 3), conclude("thirdlib", 4)),
    )  # fmt: skip
    toolbox_execute = Toolbox.execute

    def spy(self, name, raw_args):
        order.append(name)
        return toolbox_execute(self, name, raw_args)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Toolbox, "execute", spy)
        result, messages, _ = converse(tmp_path, model)
    assert order[:2] == ["conclude", "conclude"]
    assert [m["tool_call_id"] for m in messages if m["role"] == "tool"] == ["c1", "c2", "c3", "c4"]
    assert result.status == "finished"


def test_calls_past_the_per_reply_cap_are_refused(tmp_path):
    many = [call("search_code", {"pattern": f"p{i}"}, i) for i in range(MAX_CALLS_PER_REPLY + 2)]
    model = ScriptedModel(calls(*many), calls(conclude("otherlib", 90), conclude("thirdlib", 91)))
    result, messages, _ = converse(tmp_path, model)
    model.assert_done()
    answers = [json.loads(m["content"]) for m in messages if m["role"] == "tool"]
    assert sum("too many tool calls" in a.get("error", "") for a in answers) == 2
    assert result.refused == 2 and result.status == "finished"


def test_usage_is_charged_to_the_shared_budget(tmp_path):
    budget = Budget(10**6, 60.0)
    reply = ModelReply(calls(conclude("otherlib", 1), conclude("thirdlib", 2)), Usage(7, 3))
    result, _, _ = converse(tmp_path, ScriptedModel(reply), budget=budget)
    assert (budget.prompt_tokens, budget.completion_tokens) == (7, 3)
    assert (result.prompt_tokens, result.completion_tokens) == (7, 3)
