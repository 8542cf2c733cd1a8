"""The loopback fake upstream: registry and GitHub wire formats, pagination, refs, faults, ETags."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from depbot.core.errors import UpstreamError
from depbot.core.net import Http
from depbot.fakes.upstream import FakeUpstream
from depbot.github.client import GitHubClient
from depbot.updates.registries import Registries
from tests.helpers.settings import loopback_settings


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def upstream(tmp_path: Path) -> Path:
    up = tmp_path / "upstream"
    write(
        up,
        "pip/Flask/CHANGES.rst",
        "Version 2.3.0\n-------------\n\n- x\n\nVersion 2.2.5\n-------------\n\n- y\n",
    )
    write(up, "pip/Flask/meta.json", json.dumps({"repository": "https://github.com/pallets/flask"}))
    write(up, "pip/Flask/docs/notes.txt", "hello")
    write(
        up,
        "npm/@scope/pkg/releases.json",
        json.dumps([{"tag_name": "@scope/pkg@1.1.0", "name": "1.1.0", "body": "- b"}]),
    )
    write(
        up,
        "npm/@scope/pkg/meta.json",
        json.dumps({"repository": "github:o/mono", "directory": "packages/pkg"}),
    )
    write(up, "npm/lonely/CHANGELOG.md", "## 0.2.0\n\n- z\n")
    return up


def _http(up: FakeUpstream, cache: Path | None = None, **kw) -> Http:
    return Http(loopback_settings(up.url, cache, **kw))


def test_registry_metadata_in_the_real_shapes(upstream):
    with FakeUpstream(upstream, versions={("pip", "flask"): ["2.3.3"]}) as up:
        http = _http(up)
        data = http.get_json(up.url + "/pypi/flask/json", what="x")
        assert data["info"]["name"] == "Flask"
        assert data["info"]["project_urls"] == {"Source": "https://github.com/pallets/flask"}
        assert sorted(data["releases"]) == ["2.2.5", "2.3.0", "2.3.3"]
        assert data["info"]["version"] == "2.3.3"
        assert data["releases"]["2.3.0"][0]["yanked"] is False
        info = Registries(http.settings, http).info("pip", "FLASK")
        assert info.repository == "pallets/flask" and "2.2.5" in info.versions
        npm = Registries(http.settings, http).info("npm", "@scope/pkg")
        assert npm.versions == ("1.1.0",)
        assert (npm.repository, npm.directory) == ("o/mono", "packages/pkg")
        with pytest.raises(UpstreamError) as err:
            http.get_json(up.url + "/pypi/nothere/json", what="x")
        assert err.value.kind == "not_found"


def test_a_package_without_a_repository_gets_a_made_up_one(upstream):
    with FakeUpstream(upstream) as up:
        http = _http(up)
        info = Registries(http.settings, http).info("npm", "lonely")
        assert info.repository and info.versions == ("0.2.0",)
        gh = GitHubClient(http.settings, http)
        text, url = gh.read_file(info.repository, "CHANGELOG.md")
        assert text.startswith("## 0.2.0") and url.endswith("/blob/main/CHANGELOG.md")


def test_contents_listing_files_and_refs(upstream):
    with FakeUpstream(upstream) as up:
        http = _http(up)
        gh = GitHubClient(http.settings, http)
        assert gh.default_branch("pallets/flask") == "main"
        root = {(e.name, e.type) for e in gh.list_dir("pallets/flask")}
        assert root == {("CHANGES.rst", "file"), ("docs", "dir")}
        assert [e.path for e in gh.list_dir("pallets/flask", "docs")] == ["docs/notes.txt"]
        text, url = gh.read_file("pallets/flask", "CHANGES.rst", ref="main")
        assert "Version 2.3.0" in text
        assert url == "https://github.com/pallets/flask/blob/main/CHANGES.rst"
        raw = http.get_json(up.url + "/github/repos/pallets/flask/contents/CHANGES.rst", what="x")
        assert raw["encoding"] == "base64" and base64.b64decode(raw["content"]).decode() == text
        with pytest.raises(UpstreamError) as err:
            gh.read_file("pallets/flask", "CHANGES.rst", ref="v9.9.9")
        assert err.value.kind == "not_found"
        # a release tag is a ref that exists
        tags = gh.tags("o/mono")
        assert tags == ["@scope/pkg@1.1.0"]
        with pytest.raises(UpstreamError):
            gh.list_dir("o/mono", "packages/pkg")  # the tree of @scope/pkg has no such folder


def test_a_ref_can_have_its_own_tree(tmp_path):
    up_dir = tmp_path / "upstream"
    write(up_dir, "npm/x/CHANGELOG.md", "## 1.0.0\n\n- main\n")
    write(up_dir, "npm/x/at-v2/CHANGELOG.md", "## 2.0.0\n\n- stable\n\n## 1.0.0\n\n- main\n")
    write(
        up_dir,
        "npm/x/meta.json",
        json.dumps({"repository": "https://github.com/o/x", "refs": {"v2.0.0": "at-v2"}}),
    )
    with FakeUpstream(up_dir) as up:
        http = _http(up)
        gh = GitHubClient(http.settings, http)
        assert [e.name for e in gh.list_dir("o/x")] == ["CHANGELOG.md"]  # the ref folder is hidden
        assert "2.0.0" not in gh.read_file("o/x", "CHANGELOG.md")[0]
        assert "2.0.0" in gh.read_file("o/x", "CHANGELOG.md", ref="v2.0.0")[0]
        assert "2.0.0" in Registries(http.settings, http).info("npm", "x").versions


def test_releases_are_paginated_with_link_headers(tmp_path):
    up_dir = tmp_path / "upstream"
    rels = [{"tag_name": f"v1.0.{i}", "name": "", "body": f"- {i}"} for i in range(249, -1, -1)]
    write(up_dir, "npm/many/releases.json", json.dumps(rels))
    with FakeUpstream(up_dir) as up:
        http = _http(up)
        gh = GitHubClient(http.settings, http)
        got = gh.releases("fake-npm/many", max_items=1000)
        assert [r.tag for r in got] == [r["tag_name"] for r in rels]
        assert got[0].url == "https://github.com/fake-npm/many/releases/tag/v1.0.249"
        pages = [r for r in up.requests if r.path.endswith("/releases")]
        assert len(pages) == 3
        assert [r.query.get("page", "1") for r in pages] == ["1", "2", "3"]
        first = http.send(
            "GET", up.url + "/github/repos/fake-npm/many/releases?per_page=100", what="x"
        )
        assert 'rel="next"' in first.header("Link") and "page=2" in first.header("Link")


def test_etags_give_304_to_a_cached_client(upstream, tmp_path):
    with FakeUpstream(upstream) as up:
        for expected_downloads in (1, 0):
            http = _http(up, tmp_path / "cache")
            http.get(up.url + "/pypi/Flask/json", what="x", category="registry")
            assert http.stats["registry:downloads"] == expected_downloads
            http.close()
        assert up.requests[-1].headers.get("if-none-match")


# -- faults -----------------------------------------------------------------------------------


def _status(http: Http, url: str) -> int:
    return http.send("GET", url, what="x").status


def test_rate_limit_fault_counts_across_registry_and_repo_requests(upstream):
    faults = [{"package": "flask", "kind": "rate_limit", "times": 2}]
    with FakeUpstream(upstream, faults, retry_after=0.5) as up:
        http = _http(up, http_retries=0)
        r = http.send("GET", up.url + "/pypi/Flask/json", what="x")
        assert r.status == 429 and r.header("Retry-After") == "0.5"
        assert _status(http, up.url + "/github/repos/pallets/flask") == 429
        assert _status(http, up.url + "/github/repos/pallets/flask") == 200
        assert _status(http, up.url + "/pypi/flask/json") == 200
        assert _status(http, up.url + "/npm/lonely") == 200  # other packages are untouched


def test_server_error_and_not_found_and_always(upstream):
    faults = [
        {"package": "Flask", "kind": "server_error", "times": 3},
        {"package": "lonely", "kind": "not_found", "times": 0},
    ]
    with FakeUpstream(upstream, faults) as up:
        http = _http(up, http_retries=0)
        got = [_status(http, up.url + "/pypi/flask/json") for _ in range(4)]
        assert got == [500, 502, 503, 200]
        assert [_status(http, up.url + "/npm/lonely") for _ in range(5)] == [404] * 5


def test_timeout_fault_answers_too_late(upstream):
    faults = [{"package": "flask", "kind": "timeout", "times": 1}]
    with FakeUpstream(upstream, faults, timeout_delay=1.0) as up:
        http = _http(up, http_retries=0, http_timeout=0.2)
        with pytest.raises(UpstreamError) as err:
            http.get(up.url + "/pypi/flask/json", what="x")
        assert err.value.kind == "timeout"
        assert http.get_json(up.url + "/pypi/flask/json", what="x")["info"]["name"] == "Flask"


def test_garbage_fault_is_html_then_broken_json(upstream):
    faults = [{"package": "flask", "kind": "garbage", "times": 2}]
    with FakeUpstream(upstream, faults) as up:
        http = _http(up)
        with pytest.raises(UpstreamError, match="HTML page"):
            http.get_json(up.url + "/pypi/flask/json", what="x")
        with pytest.raises(UpstreamError, match="not valid JSON"):
            http.get_json(up.url + "/pypi/flask/json", what="x")
        assert http.get_json(up.url + "/pypi/flask/json", what="x")["info"]["name"] == "Flask"


def test_a_fault_can_be_narrowed_to_one_endpoint(upstream):
    faults = [{"package": "flask", "kind": "server_error", "times": 0, "endpoint": "releases"}]
    with FakeUpstream(upstream, faults) as up:
        http = _http(up, http_retries=0)
        assert _status(http, up.url + "/pypi/flask/json") == 200
        assert _status(http, up.url + "/github/repos/pallets/flask/contents/CHANGES.rst") == 200
        assert _status(http, up.url + "/github/repos/pallets/flask/releases") == 500
    with pytest.raises(ValueError):
        FakeUpstream(upstream, [{"package": "x", "kind": "meltdown"}])


def test_for_scenario_reads_faults_and_versions(tmp_path, upstream):
    (tmp_path / "scenario.toml").write_text(
        'description = "x"\n\n[[updates]]\necosystem = "pip"\npackage = "flask"\nfrom = "2.2.5"\n'
        'to = "2.3.9"\nmanifest = "requirements.txt"\n\n[[faults]]\npackage = "Flask"\n'
        'kind = "not_found"\ntimes = 1\n',
        encoding="utf-8",
    )
    with FakeUpstream.for_scenario(tmp_path) as up:
        http = _http(up, http_retries=0)
        assert _status(http, up.url + "/pypi/flask/json") == 404
        assert "2.3.9" in http.get_json(up.url + "/pypi/flask/json", what="x")["releases"]
        assert up.settings_overrides()["github_api_url"] == up.url + "/github"


def test_a_package_named_only_by_the_updates_is_published_without_notes(upstream):
    with FakeUpstream(upstream, versions={("npm", "ghost"): ["1.0.0", "1.0.1"]}) as up:
        http = _http(up)
        info = Registries(http.settings, http).info("npm", "ghost")
        assert info.versions == ("1.0.0", "1.0.1") and info.repository
        gh = GitHubClient(http.settings, http)
        assert gh.list_dir(info.repository) == []
        assert gh.releases(info.repository) == []


def test_the_registry_publishes_the_versions_of_backticked_headings(tmp_path):
    root = tmp_path / "upstream" / "npm" / "structs"
    root.mkdir(parents=True)
    (root / "meta.json").write_text('{"repository": "https://github.com/o/structs"}')
    (root / "Changelog.md").write_text(
        "# Changelog\n\n### `1.0.0` — November 17, 2022\n\n- x\n\n### `0.16.0` — June 6, 2022\n"
    )
    with FakeUpstream(tmp_path / "upstream", versions={("npm", "structs"): ["1.0.4"]}) as up:
        http = _http(up)
        info = Registries(http.settings, http).info("npm", "structs")
        assert {"0.16.0", "1.0.0", "1.0.4"} <= set(info.versions)


def test_the_registry_publishes_the_releases_of_per_release_notes_files(tmp_path):
    # release_notes/4.0.0.md exists because 4.0.0 was released: a real registry lists it
    root = tmp_path / "upstream" / "npm" / "runner"
    (root / "release_notes").mkdir(parents=True)
    (root / "meta.json").write_text('{"repository": "https://github.com/o/runner"}')
    for v in ("4.0.0", "4.1.0", "v4.2.1"):
        (root / "release_notes" / f"{v}.md").write_text(f"# Runner {v} Release Notes\n")
    (root / "release_notes" / "README.md").write_text("index\n")
    with FakeUpstream(tmp_path / "upstream", versions={("npm", "runner"): ["3.10.0"]}) as up:
        http = _http(up)
        info = Registries(http.settings, http).info("npm", "runner")
        assert set(info.versions) == {"3.10.0", "4.0.0", "4.1.0", "4.2.1"}


def test_one_release_document_from_its_package_json_or_a_manifest_alone(tmp_path):
    tool = tmp_path / "npm" / "tool" / "dist" / "2.0.0"
    tool.mkdir(parents=True)
    (tool / "package.json").write_text(
        '{"name": "tool", "version": "2.0.0", "bin": {"tl": "cli.js"}, "main": "x.js"}'
    )
    kit = tmp_path / "npm" / "@ui" / "kit" / "manifests"
    kit.mkdir(parents=True)
    (kit / "1.3.0.json").write_text('{"peerDependencies": {"tool": ">=1"}}')
    with FakeUpstream(tmp_path, versions={("npm", "tool"): ["2.0.0"]}) as up:
        http = _http(up)
        reg = Registries(http.settings, http)
        doc = reg.version_document("npm", "tool", "2.0.0")
        assert (doc["version"], doc["bin"]) == ("2.0.0", {"tl": "cli.js"})
        assert "bin" in reg.document("npm", "tool")["versions"]["2.0.0"]
        kit_doc = reg.version_document("npm", "@ui/kit", "1.3.0")
        assert kit_doc == {"name": "@ui/kit", "version": "1.3.0",
                           "peerDependencies": {"tool": ">=1"}}  # fmt: skip
        for missing in (lambda: reg.document("npm", "@ui/kit"),  # a manifest alone: no metadata
                        lambda: reg.version_document("npm", "tool", "9.9.9")):  # fmt: skip
            with pytest.raises(UpstreamError) as err:
                missing()
            assert err.value.kind == "not_found"
