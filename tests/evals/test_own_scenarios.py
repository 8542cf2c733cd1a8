"""The scenarios under tests/scenarios/ all pass ``depbot eval --model rules``, so CI holds them.

Several of them put the fake upstream through ``[[faults]]`` (rate limits, server errors,
timeouts, garbage, an upstream down all day): the verdicts must still be the ones a
careful triager reaches, ``unknown`` where the facts never arrived.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from depbot.evals.scenarios import find_scenarios, load_scenario
from tests.helpers.paths import ROOT, SCENARIOS


def test_every_scenario_of_our_own_passes(tmp_path):
    folders = find_scenarios([SCENARIOS])
    assert len(folders) >= 5
    with_faults = [f.name for f in folders if load_scenario(f).faults]
    assert len(with_faults) >= 5, with_faults
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
    done = subprocess.run(
        [sys.executable, "-m", "depbot", "eval", str(SCENARIOS), "--model", "rules",
         "--json", str(tmp_path / "eval.json")],
        env={**env, "PYTHONPATH": str(ROOT)}, cwd=tmp_path, capture_output=True, text=True,
        timeout=600,
    )  # fmt: skip
    summary = json.loads((tmp_path / "eval.json").read_text())
    failed = [f"{s['name']}: {s.get('why')}" for s in summary["scenarios"] if not s["passed"]]
    assert failed == [] and done.returncode == 0, done.stdout + done.stderr
    assert f"{len(folders)} passed, 0 failed" in done.stdout
    assert summary["totals"]["fp"] == 0 and summary["totals"]["fn"] == 0
