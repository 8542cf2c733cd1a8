"""report.json on disk: the contract's fields, written atomically."""

from __future__ import annotations

import json

import pytest

from depbot.output.draft_files import write_drafts
from depbot.output.report import write_report
from tests.helpers.samples import simple_verdict, urllib3_verdict

CONTRACT_FIELDS = {
    "ecosystem",
    "package",
    "from",
    "to",
    "update_type",
    "verdict",
    "reason",
    "breaking_changes",
    "hits",
    "draft",
}


def _verdicts():
    v1 = urllib3_verdict()
    v2 = simple_verdict("requests", "2.32.3", verdict="not_affected")
    v3 = simple_verdict("left-pad", "2.0.0", verdict="unknown", ecosystem="npm")
    return [v1, v2, v3]


def test_report_matches_the_contract(tmp_path):
    verdicts = _verdicts()
    write_drafts(tmp_path, verdicts)
    path = write_report(
        tmp_path,
        repo="acme/statuspoller",
        model="rules",
        verdicts=verdicts,
        stats={"turns": 7, "tool_calls": 9, "seconds": 1.23456, "cache_hits": 3},
    )
    assert path == tmp_path / "report.json"
    data = json.loads(path.read_text())
    assert data["schema"] == 1 and data["repo"] == "acme/statuspoller" and data["model"] == "rules"
    assert data["stats"] == {
        "turns": 7,
        "tool_calls": 9,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "seconds": 1.235,
        "cache_hits": 3,
    }
    assert [u["package"] for u in data["updates"]] == ["urllib3", "requests", "left-pad"]
    first = data["updates"][0]
    assert CONTRACT_FIELDS <= set(first)
    assert first["from"] == "1.26.18" and first["to"] == "2.0.7" and first["update_type"] == "major"
    assert first["breaking_changes"][0] == {
        "summary": "Retry(method_whitelist=) was removed; use allowed_methods=",
        "symbols": ["method_whitelist"],
        "source": "https://github.com/urllib3/urllib3/blob/main/CHANGES.rst",
    }
    assert first["hits"] == [
        {"path": "statuspoller/http.py", "line": 26, "text": "method_whitelist=_RETRYABLE_METHODS,"}
    ]
    assert first["draft"] == "drafts/pip-urllib3-2.0.7.md"
    assert (tmp_path / first["draft"]).is_file()
    assert data["updates"][1]["draft"] is None and data["updates"][2]["draft"] is None


def test_report_write_is_atomic(tmp_path):
    write_report(tmp_path, repo="r", model="rules", verdicts=_verdicts(), stats={})
    before = (tmp_path / "report.json").read_text()
    with pytest.raises(TypeError):  # fails while serializing: the old file must survive
        write_report(tmp_path, repo="r", model="m2", verdicts=_verdicts(), stats={"x": object()})
    assert (tmp_path / "report.json").read_text() == before
    write_report(tmp_path, repo="r", model="m3", verdicts=_verdicts()[:1], stats={})
    assert json.loads((tmp_path / "report.json").read_text())["model"] == "m3"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temporary files left
