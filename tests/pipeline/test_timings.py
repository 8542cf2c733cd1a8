"""#30: where a run's time went, by stage and by update, in report.json, the trace and
``depbot trace show --timings``; a rerun on the same cache spends nothing on the API model."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from depbot.cli.main import cli
from tests.helpers.worlds import World, removed_function_world, triage_cached


def world(tmp_path: Path) -> World:
    return removed_function_world(tmp_path)


def test_each_stage_of_the_api_diff_is_timed_in_the_report_and_the_trace(tmp_path):
    w = world(tmp_path)
    result = triage_cached(tmp_path, w, "cold")
    assert result.verdicts[0].verdict == "affected"
    timings = json.loads((tmp_path / "cold" / "report.json").read_text())["stats"]["timings"]
    stages = timings["stages"]
    for stage in ("notes", "registry", "download", "unpack", "api model", "use_check"):
        assert stage in stages, stage
    assert list(stages)[:2] == ["notes", "registry"]  # in the order the work is done
    mine = timings["updates"]["lib"]
    assert abs(mine["total"] - sum(v for k, v in mine.items() if k != "total")) < 0.01
    shown = CliRunner().invoke(cli, ["trace", "show", str(tmp_path / "cold"), "--timings"])
    assert shown.exit_code == 0, shown.output
    assert "by stage" in shown.output and "api model" in shown.output
    assert "slowest updates (seconds by stage):" in shown.output and " lib (" in shown.output


def test_a_warm_rerun_reads_the_stored_diff_and_downloads_nothing(tmp_path):
    w = world(tmp_path)
    triage_cached(tmp_path, w, "cold")
    cold = json.loads((tmp_path / "cold" / "report.json").read_text())["stats"]["http"]
    assert cold.get("artifact:downloads") == 2, cold
    triage_cached(tmp_path, w, "warm")
    report = json.loads((tmp_path / "warm" / "report.json").read_text())
    assert report["updates"][0]["verdict"] == "affected"
    assert report["stats"]["http"].get("artifact:downloads", 0) == 0, report["stats"]["http"]
    records = [json.loads(line) for line in (tmp_path / "warm" / "trace.jsonl").open()]
    (timings,) = [r for r in records if r["type"] == "timings"]
    assert timings["stages"]["api model"] < 0.5  # read back, not made again
