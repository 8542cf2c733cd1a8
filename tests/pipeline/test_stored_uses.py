"""#30: the use-check of a clean git checkout is kept by its tree's hash and read back; a
checkout with local changes is never served from it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from depbot.models.rules import RulesModel
from depbot.pipeline.run import triage
from depbot.pipeline.stored_uses import tree_hash
from depbot.records.update import Update
from tests.helpers.worlds import World, settings_for, write_tree


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "HOME": str(repo),
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"})  # fmt: skip


def world(tmp_path: Path) -> World:
    repo, upstream = tmp_path / "repo", tmp_path / "upstream"
    write_tree(repo, {"requirements.txt": "lib==1.0.0\n", "app.py": "import lib\nlib.old()\n"})
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "x")
    meta = {"repository": "https://github.com/example/lib", "versions": ["1.0.0", "2.0.0"]}
    write_tree(upstream / "pip" / "lib", {
        "meta.json": json.dumps(meta),
        "dist/1.0.0/lib/__init__.py": "def old():\n    pass\n",
        "dist/2.0.0/lib/__init__.py": "def new():\n    pass\n",
    })  # fmt: skip
    updates = [Update("pip", "lib", "1.0.0", "2.0.0", manifest="requirements.txt")]
    return World(repo, upstream, updates, [])


def run(tmp_path: Path, w: World, out: str):
    with w.serve() as up:
        settings = settings_for(up, cache_dir=tmp_path / "cache")
        return triage(settings, repo=w.repo, updates=w.updates, model=RulesModel(),
                      out_dir=tmp_path / out)  # fmt: skip


def test_a_clean_checkout_keeps_its_use_check_and_reads_it_back(tmp_path):
    w = world(tmp_path)
    assert tree_hash(w.repo)
    first = run(tmp_path, w, "one")
    kept = sorted((tmp_path / "cache" / "uses").glob("*.json"))
    assert first.verdicts[0].verdict == "affected" and kept
    stamps = {p: p.stat().st_mtime_ns for p in kept}
    second = run(tmp_path, w, "two")
    assert second.verdicts[0].verdict == "affected"
    assert sorted((tmp_path / "cache" / "uses").glob("*.json")) == kept  # nothing new asked
    assert [d.read_text() for d in sorted((tmp_path / "two" / "drafts").glob("*.md"))] == [
        d.read_text() for d in sorted((tmp_path / "one" / "drafts").glob("*.md"))
    ]
    assert all(p.stat().st_mtime_ns >= stamps[p] for p in kept)


def test_a_changed_checkout_is_searched_afresh(tmp_path):
    w = world(tmp_path)
    run(tmp_path, w, "one")
    (w.repo / "app.py").write_text("import lib\n")  # the use is gone, not committed
    assert tree_hash(w.repo) is None
    again = run(tmp_path, w, "two")
    assert again.verdicts[0].verdict != "affected"  # not the stored answer of the tree
    assert not list((tmp_path / "two" / "drafts").glob("*.md"))
