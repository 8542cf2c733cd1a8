"""The fake upstream's git trees API, its contents limit and its raw-file endpoint."""

from __future__ import annotations

import json
from pathlib import Path

from depbot.core.net import Http
from depbot.fakes.upstream import FakeUpstream
from depbot.github.client import GitHubClient
from tests.helpers.settings import loopback_settings


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_tree_raw_and_the_contents_limit(tmp_path: Path):
    up_dir = tmp_path / "upstream"
    write(
        up_dir,
        "pip/x/meta.json",
        json.dumps({"repository": "https://github.com/o/x", "tags": ["v1.0"]}),
    )
    write(up_dir, "pip/x/docs/releases/1.0.rst", "1.0\n===\n\n- first\n")
    write(up_dir, "pip/x/CHANGELOG.md", "## 1.0\n\n" + "- line\n" * 50)
    with FakeUpstream(up_dir) as up:
        up.contents_limit = 64
        settings = loopback_settings(up.url, raw_url=up.url + "/raw")
        gh = GitHubClient(settings, Http(settings))
        entries = {e.path: e for e in gh.tree("o/x", "v1.0")}
        assert entries["docs"].type == "dir" and entries["docs/releases"].type == "dir"
        assert entries["docs/releases/1.0.rst"].type == "file"
        assert entries["docs/releases/1.0.rst"].size == len("1.0\n===\n\n- first\n")
        text, url = gh.read_file("o/x", "CHANGELOG.md", "v1.0", immutable=True)  # over the limit
        assert text.startswith("## 1.0") and url.endswith("/blob/v1.0/CHANGELOG.md")
        assert any(r.path == "/raw/o/x/v1.0/CHANGELOG.md" for r in up.requests)
        small, _ = gh.read_file("o/x", "docs/releases/1.0.rst")
        assert small.startswith("1.0") and not any(
            "1.0.rst" in r.path for r in up.requests if r.path.startswith("/raw/")
        )
        assert up.settings_overrides()["raw_url"] == up.url + "/raw"
