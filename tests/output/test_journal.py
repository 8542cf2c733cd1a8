"""DIR/journal.jsonl: round trip, torn last lines, the last line of an update wins, SIGKILL."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from depbot.output.journal import Journal, read_journal
from tests.helpers.paths import ROOT
from tests.helpers.samples import simple_verdict, urllib3_verdict


def _verdicts():
    v1 = urllib3_verdict()
    v2 = simple_verdict("requests", "2.32.3", verdict="not_affected")
    v3 = simple_verdict("left-pad", "2.0.0", verdict="unknown", ecosystem="npm")
    return [v1, v2, v3]


def test_journal_round_trip_and_torn_last_line(tmp_path):
    verdicts = _verdicts()
    with Journal(tmp_path) as journal:
        for v in verdicts:
            journal.append(v)
    back = read_journal(tmp_path)
    assert [v.to_journal() for v in back] == [v.to_journal() for v in verdicts]
    # a crash in the middle of a line
    with open(tmp_path / "journal.jsonl", "ab") as fh:
        fh.write(b'{"update": {"ecosystem": "pip", "package": "tor')
    assert len(read_journal(tmp_path)) == 3
    # reopening cuts the torn tail, so the next line is whole
    with Journal(tmp_path) as journal:
        journal.append(simple_verdict("flask", "3.0.0"))
    back = read_journal(tmp_path)
    assert [v.update.package for v in back] == ["urllib3", "requests", "left-pad", "flask"]
    lines = (tmp_path / "journal.jsonl").read_text().splitlines()
    assert all(json.loads(line) for line in lines)


def test_journal_last_line_of_an_update_wins(tmp_path):
    first = simple_verdict("flask", "3.0.0", verdict="unknown")
    second = simple_verdict("flask", "3.0.0", verdict="affected")
    with Journal(tmp_path) as journal:
        journal.append(first)
        journal.append(simple_verdict("other", "1.1.0", verdict="not_affected"))
        journal.append(second)
    back = read_journal(tmp_path)
    assert [(v.update.package, v.verdict) for v in back] == [
        ("flask", "affected"),
        ("other", "not_affected"),
    ]


_WRITER = """
import sys
sys.path.insert(0, {root!r})
from depbot.output.journal import Journal
from tests.helpers.samples import simple_verdict
j = Journal({out!r})
i = 0
while True:
    v = simple_verdict(f"pkg{{i}}", "2.0.0")
    v.reason = "x" * 20000
    j.append(v)
    i += 1
"""


def test_journal_survives_sigkill(tmp_path):
    script = _WRITER.format(root=str(ROOT), out=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-c", script])
    journal = tmp_path / "journal.jsonl"
    try:
        while not journal.exists() or journal.stat().st_size < 400_000:
            if proc.poll() is not None:
                pytest.fail("the writer stopped on its own")
            time.sleep(0.01)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    back = read_journal(tmp_path)
    assert len(back) >= 10
    assert [v.update.package for v in back] == [f"pkg{i}" for i in range(len(back))]
    with Journal(tmp_path) as j:
        j.append(simple_verdict("after", "2.0.0"))
    assert read_journal(tmp_path)[-1].update.package == "after"
