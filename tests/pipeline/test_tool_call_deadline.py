"""A per-tool-call deadline: one stalled package ends ``unknown`` with the reason, and the rest
of its batch goes on (one stalled package held its whole batch for 169 s)."""

from __future__ import annotations

import time

from depbot.models.rules import RulesModel
from depbot.pipeline.run import triage
from tests.helpers.worlds import settings_for, two_package_world


def test_a_stalled_package_ends_at_the_tool_call_limit_and_the_batch_goes_on(tmp_path):
    world = two_package_world(tmp_path)
    world.faults = [{"package": "oldlib", "kind": "timeout", "times": 0}]  # never answers in time
    t0 = time.monotonic()
    with world.serve() as up:
        result = triage(
            settings_for(up, tool_call_seconds=1.2, http_retries=8, batch_size=5),
            repo=world.repo, updates=world.updates, model=RulesModel(), out_dir=tmp_path / "out",
        )  # fmt: skip
    took = time.monotonic() - t0
    by = {v.update.package: v for v in result.verdicts}
    assert by["otherlib"].verdict == "not_affected"
    assert by["oldlib"].verdict == "unknown"
    assert "this tool call's time limit (1.2 s) passed" in by["oldlib"].reason
    assert (
        took < 12
    )  # 9 tries of a 1 s timeout per request, two tool calls: 18 s and more without the limit
