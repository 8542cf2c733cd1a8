"""`depbot trace show`'s story per update (#29): each step in one line, refusals in words
for people, a text search under every update of its conversation."""

from __future__ import annotations

import json

from depbot.agent.story import tell


def call(cid: str, name: str, **args: object) -> dict:
    return {"id": cid, "function": {"name": name, "arguments": json.dumps(args)}}


RECORDS = [
    {"type": "run_start", "run": "out", "updates": 2, "model": "m"},
    {"type": "round", "conv": "b1", "reply": {"tool_calls": [
        call("c1", "search_symbol", package="oldlib", symbol="oldlib.load", kind="name"),
        call("c2", "search_code", pattern="load\\("),
        call("c3", "conclude", package="oldlib", verdict="not_affected", reason="x"),
        call("c4", "conclude", package="otherlib", verdict="not_affected", reason="y"),
    ]}},
    {"type": "tool", "conv": "b1", "call_id": "c1", "result": json.dumps({"hits": [
        {"path": "a.py", "line": 3, "context": "code", "evidence": "strong"}],
        "excluded": {"a local name, not the package's": 2}})},
    {"type": "tool", "conv": "b1", "call_id": "c2", "result": json.dumps({"hits": []})},
    {"type": "tool", "conv": "b1", "call_id": "c3", "guard": "rejected", "result": json.dumps(
        {"error": "conclusion rejected: … conclude affected citing them",
         "for_people": "1 use(s) of what the notes of oldlib say breaks were found (a.py:3)"})},
    {"type": "tool", "conv": "b1", "call_id": "c4", "result": json.dumps({"accepted": True})},
    {"type": "verdict", "package": "oldlib", "verdict": "unknown", "reason": "not settled: …"},
    {"type": "run_end", "status": "finished"},
]  # fmt: skip


def test_each_step_is_one_line_and_a_refusal_is_told_for_people():
    text = tell(RECORDS, update="oldlib")
    assert "== otherlib" not in text
    assert "  - searched oldlib.load (name): 1 strong (a.py:3); set aside: 2 a local name" in text
    assert "  - searched the text /load\\(/: nothing" in text  # its conversation's text search
    assert "  - conclusion refused: 1 use(s) of what the notes of oldlib say breaks" in text
    assert "conclude affected" not in text  # the instruction to the model stays in the trace
    assert "  => unknown: not settled: …" in text
    assert text.splitlines()[0] == "run out: 2 update(s), model m"
    assert text.splitlines()[-1] == "run finished: finished"


def test_every_update_has_its_story():
    text = tell(RECORDS)
    assert text.index("== oldlib") < text.index("== otherlib")


def test_the_timings_table_says_where_the_time_went():
    from depbot.agent.story import timings

    records = [dict(r) for r in RECORDS]
    tools = [r for r in records if r["type"] == "tool"]
    for r, secs in zip(tools, (2.5, 0.5, 0.1, 0.1), strict=True):
        r["seconds"] = secs
    records[1]["seconds"] = 0.25  # the model's round
    table = timings(records).splitlines()
    assert table[0].split() == ["step", "calls", "total", "s", "slowest", "s"]
    assert table[1].split() == ["search_symbol", "1", "2.50", "2.50"]  # the slowest step first
    assert ["model", "rounds", "1", "0.25", "0.25"] in [line.split() for line in table]
    assert "slowest updates (seconds in tools):" in table
    assert table[-2].split() == ["2.60", "oldlib"] and table[-1].split() == ["0.10", "otherlib"]
