"""#30: the API diff of two artifacts is derived once and read back on the next run."""

from __future__ import annotations

from pathlib import Path

from depbot.apidiff import diff_releases, stored


def release(root: Path, text: str) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text(text)
    return root


def test_a_second_diff_of_the_same_artifacts_is_read_back(tmp_path):
    old = release(tmp_path / "aaa111", "def keep(a, b):\n    pass\n\ndef gone():\n    pass\n")
    new = release(tmp_path / "bbb222", "def keep(a):\n    pass\n")
    cache = tmp_path / "cache"
    first = diff_releases("pip", old, new, old_label="o", new_label="n", cache_dir=cache)
    assert "stored" not in first.stats
    assert len(list((cache / "diffs").glob("*.json"))) == 1
    second = diff_releases("pip", old, new, old_label="o", new_label="n", cache_dir=cache)
    assert second.stats.get("stored") == 1
    assert [c.line() for c in second.changes] == [c.line() for c in first.changes]
    assert second.new_api == first.new_api and second.old_api == first.old_api


def test_a_damaged_or_foreign_entry_is_a_miss(tmp_path):
    old = release(tmp_path / "aaa111", "def gone():\n    pass\n")
    new = release(tmp_path / "bbb222", "x = 1\n")
    cache = tmp_path / "cache"
    k = stored.key("pip", old, new, {}, {})
    (cache / "diffs").mkdir(parents=True)
    (cache / "diffs" / f"{k}.json").write_text('{"not": "a diff"}')
    diff = diff_releases("pip", old, new, old_label="o", new_label="n", cache_dir=cache)
    assert "stored" not in diff.stats and [c.kind for c in diff.changes] == ["removed"]


def test_the_key_holds_the_model_version_and_both_artifacts(tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    assert stored.key("pip", a, b, {}, {}) != stored.key("pip", a, c, {}, {})
    assert stored.key("pip", a, b, {}, {}) != stored.key("npm", a, b, {}, {})
    assert len(stored.model_version()) == 16
