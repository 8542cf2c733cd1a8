"""Batches, the updates a conversation left open, and the run's stats."""

from __future__ import annotations

from collections import Counter

from depbot.agent.ledger import Ledger
from depbot.agent.loop import Budget, ConversationResult
from depbot.pipeline.batches import Shared, conclude_the_rest, plan_batches
from depbot.pipeline.stats import run_stats, run_status
from depbot.pipeline.verdicts import final_verdicts, ledger_of, program_verdict
from depbot.records.update import Update
from depbot.records.verdict import Verdict


def _updates(n: int) -> list[Update]:
    return [Update("pip", f"lib{i}", "1.0.0", "2.0.0") for i in range(n)]


def test_plan_batches_keeps_the_order_and_the_size():
    ups = _updates(5)
    assert [[u.package for u in b] for b in plan_batches(ups, 2)] == [
        ["lib0", "lib1"],
        ["lib2", "lib3"],
        ["lib4"],
    ]
    assert plan_batches(ups, 0) == [[u] for u in ups]  # at least one a batch
    assert plan_batches([], 3) == []


def test_an_update_left_open_gets_unknown_with_the_reason_its_conversation_ended():
    ups = _updates(3)
    ledger = Ledger()
    ledger.add_verdict(ups[0].key, Verdict(update=ups[0], verdict="affected", reason="r"))
    seen: list[Verdict] = []
    shared = Shared(
        settings=None,  # type: ignore[arg-type]
        model=None,  # type: ignore[arg-type]
        services=None,
        ledger=ledger,
        budget=Budget(10, 10.0),
        trace=None,  # type: ignore[arg-type]
        label="repo",
        on_verdict=seen.append,
    )
    batches = [ups[:2], ups[2:]]
    convs = [
        ConversationResult(conv="conv1", status="step_limit"),
        ConversationResult(conv="conv2", status="budget", detail="out of tokens"),
    ]
    conclude_the_rest(shared, ups, batches, convs)
    assert [v.update.package for v in seen] == ["lib1", "lib2"]
    assert seen[0].reason == "not concluded: the conversation ended (step_limit: step limit)"
    assert seen[1].reason == "not concluded: the conversation ended (budget: out of tokens)"
    assert all(v.decided_by == "program" for v in seen)
    assert final_verdicts(ups, ledger, {})[0].verdict == "affected"


def test_final_verdicts_take_the_ledger_then_the_journal():
    ups = _updates(2)
    done = {ups[1].key: program_verdict(ups[1], "listed badly")}
    ledger = ledger_of(done)
    ledger.add_verdict(ups[0].key, program_verdict(ups[0], "from the ledger"))
    assert [v.reason for v in final_verdicts(ups, ledger, done)] == [
        "from the ledger",
        "listed badly",
    ]


def test_status_and_stats():
    ok = ConversationResult(conv="c1", status="finished", rounds=3, tool_calls=5, refused=1)
    cut = ConversationResult(conv="c2", status="time_limit", rounds=2, tool_calls=1)
    assert run_status([]) == "finished" and run_status([ok]) == "finished"
    assert run_status([ok, cut, ok]) == "time_limit"
    budget = Budget(100, 10.0)
    budget.prompt_tokens, budget.completion_tokens = 40, 7
    stats = run_stats(
        [ok, cut], budget=budget, ledger=Ledger(), http_stats=Counter(b=2, a=1), seconds=1.23456
    )
    assert stats == {
        "turns": 5,
        "tool_calls": 6,
        "prompt_tokens": 40,
        "completion_tokens": 7,
        "seconds": 1.235,
        "conversations": 2,
        "exit_statuses": {"finished": 1, "time_limit": 1},
        "repeated_calls_refused": 1,
        "integrity_rejections": 0,
        "http": {"a": 1, "b": 2},
        "status": "time_limit",
    }
    assert list(stats["http"]) == ["a", "b"]
