"""`triage`, `eval`, `demo` and `trace show` through click's runner."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from depbot.cli.main import cli
from tests.helpers.paths import DEMO
from tests.helpers.worlds import two_package_world


def run(args, env=None):
    return CliRunner().invoke(cli, args, env={"DEPBOT_NO_CACHE": "1", **(env or {})})


@pytest.fixture
def temp_here(tmp_path, monkeypatch):
    """The demo's work folder (a new temporary folder) goes under tmp_path."""
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    return tmp_path / "tmp"


def test_demo_runs_offline_and_says_where_everything_is(tmp_path, temp_here):
    result = run(["demo", "-o", str(tmp_path / "d")])
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "d" / "report.json").read_text())
    verdicts = {u["package"]: u["verdict"] for u in report["updates"]}
    assert verdicts["PyYAML"] == "affected" and verdicts["chalk"] == "affected"
    assert verdicts["lodash"] == "not_affected"
    assert f"report: {tmp_path / 'd' / 'report.json'}" in result.output
    assert "drafts: 2 in" in result.output
    assert sorted(p.name for p in (tmp_path / "d" / "drafts").glob("*.md")) == [
        "npm-chalk-5.3.0.md",
        "pip-pyyaml-6.0.1.md",
    ]


def test_demo_removes_its_temporary_folder_and_names_the_shipped_example(tmp_path, temp_here):
    result = run(["demo", "--out", str(tmp_path / "d")])
    assert result.exit_code == 0, result.output
    assert list(temp_here.iterdir()) == []  # the copy of the checkout and the cache: gone
    (line,) = [x for x in result.output.splitlines() if x.startswith("checkout: ")]
    assert line.startswith(f"checkout: {DEMO / 'repo'} (") and "--keep DIR" in line


def test_demo_out_holds_what_triage_out_holds_and_keep_keeps_the_checkout(tmp_path, temp_here):
    out, kept = tmp_path / "d", tmp_path / "kept"
    result = run(["demo", "--out", str(out), "--keep", str(kept)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == [
        "drafts",
        "journal.jsonl",
        "report.json",
        "trace.jsonl",
    ]
    (line,) = [x for x in result.output.splitlines() if x.startswith("checkout: ")]
    checkout = Path(line.removeprefix("checkout: ").split(" (cache: ")[0])
    assert (checkout / "requirements.txt").is_file()
    assert checkout.parent == kept and f"(cache: {kept / 'cache'})" in line


def test_demo_writes_the_job_summary_in_actions(tmp_path, temp_here):
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    result = run(["demo", "-o", str(tmp_path / "d")], {"GITHUB_STEP_SUMMARY": str(summary)})
    assert result.exit_code == 0, result.output
    text = summary.read_text()
    assert text.startswith("earlier step\n## depbot triage\n")
    assert f"report: `{tmp_path / 'd' / 'report.json'}`" in text
    assert "| ❗ affected | `PyYAML` | 5.4.1 → 6.0.1 | major | 1 | `drafts/pip-pyyaml-6.0.1.md` |" in text  # fmt: skip


def test_triage_with_an_update_file(tmp_path):
    world = two_package_world(tmp_path)
    week = tmp_path / "week.json"
    week.write_text(json.dumps([u.to_dict() for u in world.updates]))
    summary = tmp_path / "summary.md"
    with world.serve() as up:
        env = {
            "DEPBOT_PYPI_URL": up.url,
            "DEPBOT_NPM_URL": f"{up.url}/npm",
            "GITHUB_API_URL": f"{up.url}/github",
            "DEPBOT_ALLOW_PRIVATE_HOSTS": "1",
            "GITHUB_STEP_SUMMARY": str(summary),
        }
        result = run(
            ["triage", "-r", str(world.repo), "-u", str(week), "-o", str(tmp_path / "out"), "-q"],
            env,
        )
    assert result.exit_code == 0, result.output
    assert "affected      oldlib" in result.output
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["schema"] == 1 and report["model"] == "rules"
    assert [u["verdict"] for u in report["updates"]] == ["affected", "not_affected"]
    text = summary.read_text()  # the job summary in Actions: depbot triage appends its table
    assert text.startswith("## depbot triage\n")
    assert "2 updates: 1 affected, 1 not affected, 0 unknown" in text
    rounds = run(["trace", "show", str(tmp_path / "out"), "--rounds"])
    assert rounds.exit_code == 0
    assert "[call call_1] fetch_changelog" in rounds.output and "ended: finished" in rounds.output
    # #29: by default a story per update, one line per step, no raw JSON
    story = run(["trace", "show", str(tmp_path / "out")]).output
    assert "\n== oldlib\n  - read the notes: " in story
    assert "  => affected: " in story and "  => not_affected: " in story
    assert not any(line.lstrip().startswith("{") for line in story.splitlines())
    one = run(["trace", "show", str(tmp_path / "out"), "-U", "oldlib"]).output
    assert "== oldlib" in one and "== otherlib" not in one
    raw = run(["trace", "show", str(tmp_path / "out"), "--json"]).output
    assert all(line.startswith("{") for line in raw.splitlines() if line)


def test_triage_bad_input_is_one_line_and_exit_2(tmp_path):
    result = run(["triage", "-r", str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert result.output.strip().startswith("depbot: error: repository path")
    bad = tmp_path / "week.json"
    bad.write_text('[{"ecosystem": "pip", "package": "x", "from": "1.0"}]')
    result = run(["triage", "-r", str(tmp_path), "-u", str(bad)])
    assert result.exit_code == 2
    assert "week.json: record 1: missing field 'to'" in result.output


def test_chat_model_without_key_says_what_to_set(tmp_path):
    result = run(["triage", "-r", str(tmp_path), "-m", "gpt-4o-mini"])
    assert result.exit_code == 2
    assert "OPENAI_API_KEY" in result.output and "--model rules" in result.output


def test_eval_json_and_failure_exit(tmp_path):
    out = tmp_path / "eval.json"
    result = run(["eval", str(DEMO), "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("1 passed, 0 failed")
    data = json.loads(out.read_text())
    assert data["model"] == "rules"
    assert data["totals"]["tp"] == 2 and data["totals"]["fp"] == 0
    row = data["scenarios"][0]
    assert row["name"] == "demo" and row["passed"] is True
    assert {"turns", "tool_calls", "prompt_tokens", "completion_tokens", "seconds"} <= set(
        row["stats"]
    )

    # an expectation the truth contradicts: the scenario fails, says why, exit code 1
    broken = tmp_path / "broken"
    shutil.copytree(DEMO, broken)
    toml = broken / "scenario.toml"
    toml.write_text(
        toml.read_text().replace(
            'package = "lodash"\nverdict = "not_affected"',
            'package = "lodash"\nverdict = "affected"',
        )
    )
    result = run(["eval", str(broken)])
    assert result.exit_code == 1
    assert "why: lodash: expected affected, got not_affected" in result.output
    assert result.output.rstrip().endswith("0 passed, 1 failed")


def test_eval_accepts_a_folder_of_scenarios_and_rejects_others(tmp_path):
    (tmp_path / "nothing").mkdir()
    result = run(["eval", str(tmp_path / "nothing")])
    assert result.exit_code == 2
    assert "neither a scenario" in result.output
