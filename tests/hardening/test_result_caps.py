"""Every tool result has a size cap: a checkout with thousands of import sites cannot flood the
model (a 50,000-file checkout returned 5.1 MB and 1.28 M prompt tokens for six updates)."""

from __future__ import annotations

import json

from depbot.agent.observations import MAX_RESULT_CHARS
from depbot.agent.toolbox import MAX_IMPORT_SITES
from depbot.models.rules import RulesModel
from depbot.pipeline.run import triage
from tests.helpers.worlds import settings_for, two_package_world

FILES = 1500


def _tool_results(out):
    rows = (json.loads(x) for x in (out / "trace.jsonl").read_text().splitlines() if x)
    return [r for r in rows if r["type"] == "tool"]


def test_where_imported_on_thousands_of_files_is_summarised_and_capped(tmp_path):
    world = two_package_world(tmp_path)
    for i in range(FILES):
        (world.repo / "app" / f"mod{i:04}.py").write_text(f"import oldlib\n\nX{i} = oldlib\n")
    with world.serve() as up:
        result = triage(
            settings_for(up), repo=world.repo, updates=world.updates, model=RulesModel(),
            out_dir=tmp_path / "out",
        )  # fmt: skip
    assert {v.update.package: v.verdict for v in result.verdicts}["oldlib"] == "affected"
    tools = _tool_results(tmp_path / "out")
    assert max(len(t["result"]) for t in tools) <= MAX_RESULT_CHARS
    (imported,) = [
        json.loads(t["result"])
        for t in tools
        if t["name"] == "where_imported" and '"package":"oldlib"' in t["result"]
    ]
    assert imported["total"] > FILES and imported["truncated"] is True
    assert len(imported["hits"]) == MAX_IMPORT_SITES
    assert "import sites in" in imported["note"] and "shown" in imported["note"]
    assert len(imported["files"]) <= 50 and imported["files_total"] > FILES
    assert sum(imported["sites_per_file"].values()) >= len(imported["files"])
