"""#28 item 10: files too big to search are part of the accounting, never silently skipped.

The only uses of a removed function sit in a generated module of 2 MB and in a sparse file
of 2 GB (both over the search's 1 MB ``max_filesize``). Before, every search skipped them
without a word and the verdict was ``not_affected`` — ok. Now the update is ``unknown``,
naming both files, and the report lists them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from depbot.core.settings import Settings
from depbot.models.rules import RulesModel
from depbot.pipeline.run import triage
from depbot.records.update import Update
from depbot.search.code import CodeSearch
from depbot.search.oversized import import_pattern, mentions, size_text, too_big_users
from tests.helpers.worlds import World, settings_for, write_tree

PY = import_pattern("python", ["oldlib"])

CHANGES = "# Changelog\n\n## 2.0.0\n\n- `oldlib.legacy()` was removed; use `oldlib.modern()`.\n"
FILLER = "VALUES = [\n" + "    0,\n" * 300_000 + "]\n"  # 2.1 MB of generated data


def world(tmp_path: Path, *, big: bool = True) -> World:
    repo, upstream = tmp_path / "repo", tmp_path / "upstream"
    files = {"requirements.txt": "oldlib==1.0.0\n", "app/main.py": "print('hello')\n"}
    if big:
        files["app/generated.py"] = "import oldlib\n" + FILLER + "oldlib.legacy()\n"
    write_tree(repo, files)
    if big:
        with open(repo / "app" / "sparse.py", "wb") as fh:  # 2 GB, almost all a hole
            fh.truncate(2 << 30)
    meta = {"repository": "https://github.com/example/oldlib", "versions": ["1.0.0", "2.0.0"]}
    write_tree(upstream, {"pip/oldlib/CHANGELOG.md": CHANGES,
                          "pip/oldlib/meta.json": json.dumps(meta)})  # fmt: skip
    return World(
        repo, upstream, [Update("pip", "oldlib", "1.0.0", "2.0.0", manifest="requirements.txt")]
    )


def run(tmp_path: Path, w: World):
    with w.serve() as up:
        result = triage(settings_for(up), repo=w.repo, updates=w.updates, model=RulesModel(),
                        out_dir=tmp_path / "out")  # fmt: skip
    (v,) = result.verdicts
    entry = json.loads((tmp_path / "out" / "report.json").read_text())["updates"][0]
    return v, entry


def test_uses_only_in_files_too_big_to_search_leave_the_update_unknown(tmp_path):
    v, entry = run(tmp_path, world(tmp_path))
    assert v.verdict == "unknown"  # before: not_affected
    assert "app/generated.py (2.1 MB)" in v.reason and "app/sparse.py (2.1 GB)" in v.reason
    assert entry["accounting"]["files_not_searched"] == [
        "app/generated.py (2.1 MB)",
        "app/sparse.py (2.1 GB)",
    ]


def test_without_them_the_same_week_is_not_affected(tmp_path):
    v, entry = run(tmp_path, world(tmp_path, big=False))
    assert v.verdict == "not_affected"
    assert "files_not_searched" not in entry["accounting"]


def test_an_oversized_file_that_never_names_the_package_is_cleared(tmp_path):
    repo = tmp_path / "repo"
    write_tree(repo, {"data.py": "import other\n" + FILLER, "gen.py": "import oldlib\n" + FILLER})
    cs = CodeSearch(repo, Settings())
    big = cs.oversized(("*.py",))
    assert sorted(p for p, _ in big) == ["data.py", "gen.py"]
    assert too_big_users(repo, big, PY) == [("gen.py", (repo / "gen.py").stat().st_size)]


def test_the_scan_is_bounded_and_says_when_it_cannot_tell(tmp_path):
    path = tmp_path / "late.py"
    path.write_bytes(b"x = 1\n" * 2_000_000 + b"import oldlib\n")  # the name after 12 MB
    assert mentions(path, PY) is None  # past the part read: cannot tell
    assert mentions(path, PY, limit=20_000_000) is True
    others = import_pattern("python", ["oldlibs"])
    assert mentions(path, others, limit=20_000_000) is False  # whole names only
    assert size_text(2 << 30) == "2.1 GB" and size_text(31_000_000) == "31 MB"


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_a_link_to_a_big_file_is_not_followed(tmp_path):
    target = tmp_path / "outside.py"
    target.write_text("import oldlib\n" + FILLER)
    link = tmp_path / "link.py"
    link.symlink_to(target)
    assert mentions(link, PY) is None


def test_a_javascript_bundle_counts_only_when_it_imports_the_package(tmp_path):
    rx = import_pattern("javascript", ["left-pad"])
    (tmp_path / "a.js").write_text("// ./node_modules/left-pad/index.js\nvar leftpad = 1;\n")
    (tmp_path / "b.js").write_text("const pad = require('left-pad/lib');\n")
    assert mentions(tmp_path / "a.js", rx) is False
    assert mentions(tmp_path / "b.js", rx) is True
