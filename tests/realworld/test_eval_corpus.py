"""`depbot eval` on a corpus folder (cases/*.toml + built/) and the false-safe count."""

from __future__ import annotations

from pathlib import Path

import pytest

from depbot.core.errors import InputError
from depbot.evals.run import EvalSummary, ScenarioRun
from depbot.evals.scenarios import find_scenarios


def test_an_unbuilt_corpus_says_how_to_build_it(tmp_path: Path):
    corpus = tmp_path / "realworld"
    (corpus / "cases").mkdir(parents=True)
    (corpus / "cases" / "pip-x-y.toml").write_text("")
    with pytest.raises(InputError) as err:
        find_scenarios([corpus])
    assert (
        str(err.value) == f"{corpus}: the corpus is not built; run: python tools/realworld.py build"
    )
    (corpus / "built").mkdir()
    with pytest.raises(InputError):
        find_scenarios([corpus])
    case = corpus / "built" / "pip-x-y"
    (case / "repo").mkdir(parents=True)
    (case / "scenario.toml").write_text("")
    assert find_scenarios([corpus]) == [case]


def _row(expected: str, got: str) -> dict:
    return {"package": "p", "expected": expected, "got": got, "ok": expected == got,
            "missing_files": [], "symbol_named": True, "_files_expected": 0}  # fmt: skip


def test_false_safe_counts_affected_reported_not_affected():
    summary = EvalSummary(model="rules", scenarios=[
        ScenarioRun("a", False, [_row("affected", "not_affected")], {}),
        ScenarioRun("b", False, [_row("affected", "unknown")], {}),
        ScenarioRun("c", True, [_row("affected", "affected")], {}),
        ScenarioRun("d", False, [_row("not_affected", "affected")], {}),
    ])  # fmt: skip
    t = summary.totals()
    assert (t["tp"], t["fp"], t["fn"], t["false_safe"]) == (1, 1, 2, 1)
    assert t["false_safe_cases"] == ["a"]
    assert t["precision"] == 0.5 and t["recall"] == 0.333
    assert summary.to_json()["totals"]["false_safe"] == 1
