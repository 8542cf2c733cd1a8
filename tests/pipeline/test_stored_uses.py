"""#30: the use-check of a clean git checkout is kept by its tree's hash and read back; a
checkout with local changes is never served from it."""

from __future__ import annotations

import subprocess
from pathlib import Path

from depbot.pipeline.stored_uses import tree_hash
from tests.helpers.worlds import World, removed_function_world, triage_cached


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "HOME": str(repo),
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"})  # fmt: skip


def world(tmp_path: Path) -> World:
    w = removed_function_world(tmp_path)
    git(w.repo, "init", "-q")
    git(w.repo, "add", "-A")
    git(w.repo, "commit", "-qm", "x")
    return w


def test_a_clean_checkout_keeps_its_use_check_and_reads_it_back(tmp_path):
    w = world(tmp_path)
    assert tree_hash(w.repo)
    first = triage_cached(tmp_path, w, "one")
    kept = sorted((tmp_path / "cache" / "uses").glob("*.json"))
    assert first.verdicts[0].verdict == "affected" and kept
    stamps = {p: p.stat().st_mtime_ns for p in kept}
    second = triage_cached(tmp_path, w, "two")
    assert second.verdicts[0].verdict == "affected"
    assert sorted((tmp_path / "cache" / "uses").glob("*.json")) == kept  # nothing new asked
    assert [d.read_text() for d in sorted((tmp_path / "two" / "drafts").glob("*.md"))] == [
        d.read_text() for d in sorted((tmp_path / "one" / "drafts").glob("*.md"))
    ]
    assert all(p.stat().st_mtime_ns >= stamps[p] for p in kept)


def test_a_changed_checkout_is_searched_afresh(tmp_path):
    w = world(tmp_path)
    triage_cached(tmp_path, w, "one")
    (w.repo / "app.py").write_text("import lib\n")  # the use is gone, not committed
    assert tree_hash(w.repo) is None
    again = triage_cached(tmp_path, w, "two")
    assert again.verdicts[0].verdict != "affected"  # not the stored answer of the tree
    assert not list((tmp_path / "two" / "drafts").glob("*.md"))
