"""`depbot trace show` reads a trace as found: torn, edited or foreign lines are one note each."""

from __future__ import annotations

from pathlib import Path

from depbot.agent.trace import show


def test_bad_bytes_wrong_types_and_foreign_lines_are_notes(tmp_path: Path):
    trace = tmp_path / "trace.jsonl"
    trace.write_bytes(
        b'{"type": "round", "conv": "c1", "round": 1, "seconds": "slow"}\n'
        b'{"type": "verdict", "package": "caf\xe9", "verdict": "affected", "reason": "r"}\n'
        b"\xff\xfe\n"
        b"[1, 2]\n"
        b'{"type": "tool", "call_id": "x", "result": {"not": "text"}, "guard": 5}\n'
        b'{"type": "exit", "conv": "c1", "status": "finished", "rounds": 2}\n'
    )
    lines = show(trace).splitlines()
    assert lines[0] == "(line 1: a 'round' record with unexpected fields)"
    assert lines[1] == "  [verdict] caf\ufffd: affected (r)"
    assert lines[2] == "(line 3 is not JSON: torn write?)"
    assert lines[3] == "(line 4 is not a trace record)"
    assert lines[-1] == "=== c1 ended: finished after 2 rounds"
