"""`depbot eval` cleans up after itself: no folder left behind unless --keep or a failure."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from depbot.core.settings import Settings
from depbot.evals.run import run_eval
from tests.helpers.paths import SHARED_SCENARIOS

SCENARIO = SHARED_SCENARIOS / "pip-pyyaml-load"


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The temporary-folder root eval uses, emptied for the test."""
    root = tmp_path / "tmp"
    root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(root))
    return root


def _eval(paths: list[Path], keep: Path | None = None):
    return run_eval(paths, model_name="rules", base=Settings(), keep=keep)


@pytest.mark.skipif(not SCENARIO.is_dir(), reason="the shared scenarios are not beside the repo")
def test_a_passing_scenario_leaves_no_folder(scratch: Path):
    summary = _eval([SCENARIO])
    assert summary.totals()["passed"] == 1
    assert [p.name for p in scratch.iterdir() if p.name.startswith("depbot-eval-")] == []


@pytest.mark.skipif(not SCENARIO.is_dir(), reason="the shared scenarios are not beside the repo")
def test_keep_keeps_and_a_failure_keeps_its_trace(scratch: Path, tmp_path: Path):
    kept = tmp_path / "kept"
    kept.mkdir()
    _eval([SCENARIO], keep=kept)
    assert len(list(kept.iterdir())) == 1

    wrong = tmp_path / "wrong"
    shutil.copytree(SCENARIO, wrong)
    toml = wrong / "scenario.toml"
    toml.write_text(toml.read_text().replace('verdict = "affected"', 'verdict = "not_affected"'))
    summary = _eval([wrong])
    assert summary.totals()["failed"] == 1
    left = [p for p in scratch.iterdir() if p.name.startswith("depbot-eval-")]
    assert len(left) == 1 and (left[0] / "out" / "trace.jsonl").is_file()
    # the checkout and the cache are gone: many failing runs must not fill the disk
    assert sorted(p.name for p in left[0].iterdir()) == ["out"]
