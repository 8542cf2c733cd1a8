"""A chat model that calls an update safe right after search_symbol found a strong use of its
break is refused, over the loopback fake upstream; the report keeps the refusal (#26)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from depbot.pipeline.run import triage
from depbot.records.update import Update
from tests.helpers.scripted import ScriptedModel, call, last_tool
from tests.helpers.worlds import World, settings_for, write_tree

CHANGES = "# Changelog\n\n## 2.0.0\n\n- `oldlib.load()` was removed; use `oldlib.read()`.\n"


def world(tmp_path: Path) -> World:
    repo, upstream = tmp_path / "repo", tmp_path / "upstream"
    write_tree(repo, {"requirements.txt": "oldlib==1.9.0\n",
                      "app/main.py": "import oldlib\n\n\ndef run():\n    return oldlib.load('x')\n"})  # fmt: skip
    meta = {"repository": "https://github.com/example/oldlib", "versions": ["1.9.0", "2.0.0"]}
    write_tree(upstream, {"pip/oldlib/CHANGELOG.md": CHANGES,
                          "pip/oldlib/meta.json": json.dumps(meta)})  # fmt: skip
    return World(
        repo, upstream, [Update("pip", "oldlib", "1.9.0", "2.0.0", manifest="requirements.txt")]
    )


def test_not_affected_after_a_strong_hit_is_refused_and_the_refusal_is_reported(tmp_path):
    calm = {"package": "oldlib", "verdict": "not_affected", "reason": "nothing here uses it"}

    def search(messages: list[dict[str, Any]]) -> dict[str, Any]:
        assert last_tool(messages)["breaking"], "the notes' breaking item"
        return call(
            "search_symbol", {"package": "oldlib", "symbol": "oldlib.load", "kind": "name"}, 2
        )

    def claim_safe(messages: list[dict[str, Any]]) -> dict[str, Any]:
        hits = last_tool(messages)["hits"]
        assert [(h["path"], h["evidence"]) for h in hits] == [("app/main.py", "strong")]
        return call("conclude", calm, 3)

    def own_up(messages: list[dict[str, Any]]) -> dict[str, Any]:
        assert (
            "strong use(s) of what the notes of oldlib say breaks stand"
            in last_tool(messages)["error"]
        )
        return call("conclude", {**calm, "verdict": "unknown", "reason": "a use stands"}, 4)

    model = ScriptedModel(
        call("fetch_changelog", {"package": "oldlib"}, 1), search, claim_safe, own_up
    )
    w = world(tmp_path)
    with w.serve() as up:
        result = triage(settings_for(up), repo=w.repo, updates=w.updates, model=model,
                        out_dir=tmp_path / "out")  # fmt: skip
    model.assert_done()
    (v,) = result.verdicts
    assert v.verdict == "unknown"
    entry = json.loads((tmp_path / "out" / "report.json").read_text())["updates"][0]
    assert entry["basis"] == "notes"
    (refused,) = entry["accounting"]["refused"]
    assert refused.startswith("not_affected: 1 use(s) of what the notes of oldlib say breaks")
    assert "conclude" not in refused  # #29: what a person reads holds no model instruction
    (item,) = entry["accounting"]["items"]
    assert (item["disposition"], item["hits"]) == ("searched", 1)
