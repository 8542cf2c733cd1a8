"""`depbot trace show` reads a trace as found: torn, edited or foreign lines are one note each."""

from __future__ import annotations

import json
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


def test_an_accounting_record_reads_as_items_names_and_refusals(tmp_path: Path):
    rec = {"type": "accounting", "package": "lib", "verdict": "unknown", "basis": "api-diff",
           "items": [{"version": "2.0.0", "item": "`load()` needs\nLoader", "disposition":
                      "searched", "terms": ["lib.load"], "hits": 2}],
           "names": [{"name": "lib:gone", "fate": "unresolved", "detail": "not exported",
                      "place": "a.js:3"}],
           "names_resolved": 0, "refused": ["not_affected: the diff cannot see lib:gone"]}  # fmt: skip
    path = tmp_path / "trace.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    assert show(path).splitlines() == [
        "  [accounting] lib: unknown on api-diff; 1 breaking item(s): 1 searched; "
        "0 of 1 used name(s) resolved",
        "    item 2.0.0 searched (lib.load; 2 hit(s)): `load()` needs Loader",
        "    name lib:gone: unresolved (not exported) · a.js:3",
        "    refused not_affected: the diff cannot see lib:gone",
    ]
