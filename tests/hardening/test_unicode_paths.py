"""A file name that is not UTF-8 anywhere in the checkout: the triage goes on, and shows it escaped.

Linux file names are bytes; Python reads them with ``surrogateescape``. Before, such a name
stopped the whole run (``UnicodeEncodeError`` writing the trace) and ``--resume`` could not
get past it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from depbot.core.settings import Settings
from depbot.evals.run import git_checkout
from depbot.evals.scenarios import load_scenario
from depbot.fakes.upstream import FakeUpstream
from depbot.models import make_model
from depbot.pipeline.run import triage
from tests.helpers.paths import DEMO


def test_a_non_utf8_file_name_is_searched_cited_and_written_escaped(tmp_path: Path):
    repo = tmp_path / "repo"
    git_checkout(DEMO / "repo", repo)
    bad = os.fsencode(repo / "inventory") + b"/caf\xe9.py"
    with open(bad, "wb") as fh:
        fh.write(b'import yaml\n\nyaml.load(open("x"))\n')
    sc = load_scenario(DEMO)
    out = tmp_path / "out"
    with FakeUpstream.for_scenario(DEMO) as up:
        settings = Settings(**up.settings_overrides(), cache_dir=None)
        result = triage(
            settings, repo=repo, updates=sc.updates, model=make_model("rules", settings),
            out_dir=out,
        )  # fmt: skip
    by_pkg = {v.update.package: v for v in result.verdicts}
    assert by_pkg["PyYAML"].verdict == "affected"
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    (yaml_entry,) = [u for u in report["updates"] if u["package"] == "PyYAML"]
    assert "inventory/caf\\xe9.py" in [h["path"] for h in yaml_entry["hits"]]
    trace = (out / "trace.jsonl").read_text(encoding="utf-8")
    for line in trace.splitlines():
        json.loads(line)  # every record still one JSON line
    results = [json.loads(line).get("result", "") for line in trace.splitlines()]
    assert any("inventory/caf\\xe9.py" in _files(r) for r in results)
    draft = (out / yaml_entry["draft"]).read_text(encoding="utf-8")
    assert "caf\\xe9.py" in draft


def _files(result: str) -> list[str]:
    try:
        data = json.loads(result)
    except (TypeError, ValueError):
        return []
    return data.get("files", []) if isinstance(data, dict) else []
