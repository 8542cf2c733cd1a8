"""``triage()`` end to end on a small world: what it writes, and what it leaves alone."""

from __future__ import annotations

import json

import pytest

from depbot.core.errors import InputError
from depbot.core.net import Http
from depbot.core.settings import Settings
from depbot.models.rules import RulesModel
from depbot.pipeline import TriageResult, triage
from depbot.pipeline.services import wired
from tests.helpers.worlds import settings_for, two_package_world


def test_triage_writes_its_folder_and_no_actions_file(tmp_path, monkeypatch):
    summary = tmp_path / "summary.md"
    summary.write_text("")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))  # the CLI's business, not triage's
    world = two_package_world(tmp_path)
    lines: list[str] = []
    with world.serve() as up:
        settings = settings_for(up)
        result = triage(
            settings,
            repo=world.repo,
            updates=world.updates,
            model=RulesModel(),
            out_dir=tmp_path / "out",
            progress=lines.append,
        )
    assert isinstance(result, TriageResult) and result.status == "finished"
    assert [v.verdict for v in result.verdicts] == ["affected", "not_affected"]
    out = tmp_path / "out"
    assert sorted(p.name for p in out.iterdir()) == [
        "drafts",
        "journal.jsonl",
        "report.json",
        "trace.jsonl",
    ]
    assert result.report_path == out / "report.json" and result.drafts == [
        "drafts/pip-oldlib-2.0.0.md"
    ]
    assert summary.read_text() == ""
    assert lines[0] == "triaging 2 update(s) in 1 conversation(s) with model rules"
    concluded = [x for x in lines[1:] if x.startswith("[")]
    assert sorted(x.split("] ", 1)[1] for x in concluded) == [
        "oldlib 1.5.0 → 2.0.0: affected",
        "otherlib 1.2.0 → 1.2.1: not_affected",
    ]
    assert sorted(x[:3] for x in concluded) == ["[1/", "[2/"]
    # the stages between: each update's notes fetched once, the one with breaking notes searched
    assert sorted(x.split(": ")[1] for x in lines if x.startswith("notes fetched ")) == [
        "oldlib",
        "otherlib",
    ]
    assert [x for x in lines if x.startswith("searched ")] == ["searched 1/2: oldlib"]
    kinds = [json.loads(x)["type"] for x in (out / "trace.jsonl").read_text().splitlines()]
    assert kinds[0] == "run_start" and kinds[-1] == "run_end" and kinds.count("verdict") == 2


def test_an_update_that_could_not_be_listed_is_unknown_without_a_conversation(tmp_path):
    world = two_package_world(tmp_path)
    broken = [u.with_error("the registry answered 500") for u in world.updates]
    with world.serve() as up:
        result = triage(
            settings_for(up),
            repo=world.repo,
            updates=broken,
            model=RulesModel(),
            out_dir=tmp_path / "out",
            services=object(),  # never asked: no conversation runs
        )
    assert [(v.verdict, v.decided_by) for v in result.verdicts] == [("unknown", "program")] * 2
    assert result.verdicts[0].reason == (
        "the update list could not be completed for it: the registry answered 500"
    )
    assert result.conversations == [] and result.stats["conversations"] == 0


def test_resume_keeps_the_journal_and_asks_nothing_again(tmp_path):
    world = two_package_world(tmp_path)
    out = tmp_path / "out"
    with world.serve() as up:
        settings = settings_for(up)
        first = triage(
            settings, repo=world.repo, updates=world.updates, model=RulesModel(), out_dir=out
        )
        lines: list[str] = []
        again = triage(
            settings,
            repo=world.repo,
            updates=world.updates,
            model=RulesModel(),
            out_dir=out,
            resume=True,
            progress=lines.append,
            services=object(),  # never asked: every update is in the journal
        )
    assert lines == ["resuming: 2 update(s) already concluded"]
    assert [v.verdict for v in again.verdicts] == [v.verdict for v in first.verdicts]
    assert again.conversations == []


def test_a_missing_checkout_is_bad_input(tmp_path):
    with pytest.raises(InputError, match="does not exist or is not a folder"):
        triage(
            Settings(cache_dir=None),
            repo=tmp_path / "nope",
            updates=[],
            model=RulesModel(),
            out_dir=tmp_path / "out",
        )
    assert not (tmp_path / "out").exists()


def test_wired_traces_retries_and_closes_only_its_own_session(tmp_path):
    settings = Settings(cache_dir=None)
    with wired(settings, tmp_path, None) as (http, trace):
        assert http.on_retry is not None
        http.on_retry({"what": "x", "attempt": 1})
    assert http.on_retry is None
    assert json.loads((tmp_path / "trace.jsonl").read_text())["type"] == "http_retry"

    given = Http(settings)
    mine = lambda event: None  # noqa: E731
    given.on_retry = mine
    closed: list[bool] = []
    given.close = lambda: closed.append(True)  # type: ignore[method-assign]
    with wired(settings, tmp_path, given) as (http, _trace):
        assert http is given and http.on_retry is mine
    assert given.on_retry is mine and closed == []
