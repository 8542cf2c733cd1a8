"""Coverage end to end, over the loopback fake upstream: notes found only for the releases
after the new major never make a verdict of not_affected, whichever model concludes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from depbot.models.rules import RulesModel
from depbot.pipeline.run import triage
from depbot.records.update import Update
from tests.helpers.scripted import ScriptedModel, call, last_tool
from tests.helpers.worlds import World, settings_for, write_tree

CHANGES = (
    "# Changelog\n\n## 3.1.0\n\n- Faster parsing.\n\n## 3.0.0\n\n- Error messages name the line.\n"
)
VERSIONS = ["1.9.0", "2.0.0", "2.1.0", "3.0.0", "3.1.0"]


def world(tmp_path: Path) -> World:
    repo, upstream = tmp_path / "repo", tmp_path / "upstream"
    write_tree(repo, {"requirements.txt": "oldlib==1.9.0\n",
                      "app/main.py": "import oldlib\n\n\ndef run():\n    return oldlib.load('x')\n"})  # fmt: skip
    meta = {"repository": "https://github.com/example/oldlib", "versions": VERSIONS}
    write_tree(upstream, {"pip/oldlib/CHANGELOG.md": CHANGES,
                          "pip/oldlib/meta.json": json.dumps(meta)})  # fmt: skip
    update = Update("pip", "oldlib", "1.9.0", "3.1.0", manifest="requirements.txt")
    return World(repo, upstream, [update])


def run(tmp_path: Path, model: Any) -> Any:
    w = world(tmp_path)
    with w.serve() as up:
        return triage(settings_for(up), repo=w.repo, updates=w.updates, model=model,
                      out_dir=tmp_path / "out")  # fmt: skip


def test_a_chat_model_calling_it_safe_is_told_which_notes_are_missing(tmp_path):
    calm = {"package": "oldlib", "verdict": "not_affected", "reason": "the 3.x notes break nothing"}

    def claim_safe(messages: list[dict[str, Any]]) -> dict[str, Any]:
        cov = last_tool(messages)["coverage"]
        assert cov == {"needed": ["2.0.0", "3.0.0"], "covered": ["3.0.0"], "missing": ["2.0.0"]}
        return call("conclude", calm, 2)

    def own_up(messages: list[dict[str, Any]]) -> dict[str, Any]:
        assert "notes for 2.0.0 were not found: conclude unknown" in last_tool(messages)["error"]
        reason = "the notes of 2.0.0, the first new major, were not found"
        return call("conclude", {"package": "oldlib", "verdict": "unknown", "reason": reason}, 3)

    model = ScriptedModel(call("fetch_changelog", {"package": "oldlib"}, 1), claim_safe, own_up)
    result = run(tmp_path, model)
    model.assert_done()
    (v,) = result.verdicts
    assert v.verdict == "unknown" and "2.0.0" in v.reason


def test_the_rules_planner_concludes_unknown_naming_the_missing_major(tmp_path):
    (v,) = run(tmp_path, RulesModel()).verdicts
    assert v.verdict == "unknown"
    assert "2.0.0" in v.reason and "not found" in v.reason
