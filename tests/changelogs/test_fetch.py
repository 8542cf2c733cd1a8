"""Changelog discovery and fetching against the loopback fake upstream (real wire formats)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from depbot.changelogs.discovery import parse_github_link
from depbot.changelogs.trim import breaking_lines_cut
from depbot.core.errors import ToolError, UpstreamError
from depbot.fakes.upstream import FakeUpstream
from tests.helpers.changelogs import TOKEN, got, make, served, write


def md(*versions: str, prefix: str = "## ") -> str:
    """A Markdown changelog with one section per version, in the given order."""
    return "# Changelog\n\n" + "".join(f"{prefix}{v}\n\n- change in {v}\n\n" for v in versions)


def releases(*tags: str) -> list[dict]:
    return [{"tag_name": t, "name": t, "body": f"- released {t}"} for t in tags]


def no_secrets_or_noise(result) -> None:
    text = json.dumps(
        [result.note, result.errors, result.sources_tried, result.trimmed], ensure_ascii=False
    )
    for bad in (TOKEN, "Traceback", "<html", "<!DOCTYPE", "Unicorn"):
        assert bad not in text


@pytest.fixture
def up_dir(tmp_path: Path) -> Path:
    return tmp_path / "upstream"


# -- discovery --------------------------------------------------------------------------------


def test_changelog_file_only(up_dir):
    write(up_dir, "npm/lib/CHANGELOG.md", md("1.3.0", "1.2.0", "1.1.0", "1.0.0"))
    write(up_dir, "npm/lib/meta.json", {"repository": "https://github.com/o/lib"})
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("npm", "lib", "1.0.0", "1.3.0")
    assert got(r) == ["1.3.0", "1.2.0", "1.1.0"]
    s = r.sections[0]
    assert s.kind == "file" and s.source == "https://github.com/o/lib/blob/main/CHANGELOG.md"
    assert (s.line_start, s.line_end) == (3, 5) and s.body == "- change in 1.3.0"
    assert r.sources_tried == ["CHANGELOG.md at main (versions 1.0.0–1.3.0)"]
    assert r.found and r.missing_versions == [] and r.errors == []
    assert "3 from CHANGELOG.md at main" in r.note
    assert served(up, "/releases") == 0  # covered: no further source asked


def test_the_english_edition_of_a_translated_changelog_is_read_and_no_other(up_dir):
    write(up_dir, "npm/ui/CHANGELOG.zh-CN.md", md("1.3.0", "1.2.0", "1.1.0", "1.0.0"))
    write(up_dir, "npm/ui/CHANGELOG.en-US.md", md("1.3.0", "1.2.0", "1.1.0", "1.0.0"))
    write(up_dir, "npm/ui/meta.json", {"repository": "https://github.com/o/ui"})
    write(up_dir, "npm/zh/CHANGELOG.zh-CN.md", md("1.3.0", "1.2.0", "1.1.0", "1.0.0"))
    write(up_dir, "npm/zh/meta.json", {"repository": "https://github.com/o/zh"})
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("npm", "ui", "1.0.0", "1.3.0")
        assert got(r) == ["1.3.0", "1.2.0", "1.1.0"]
        assert r.sections[0].source.endswith("/CHANGELOG.en-US.md")
        assert not f.fetch("npm", "zh", "1.0.0", "1.3.0").found  # its words are not read


def test_releases_only(up_dir):
    write(up_dir, "npm/rel/releases.json", releases("v2.1.0", "v2.0.0", "v1.0.0"))
    write(up_dir, "npm/rel/meta.json", {"repository": "https://github.com/o/rel"})
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("npm", "rel", "1.0.0", "2.1.0")
    assert got(r) == ["2.1.0", "2.0.0"]
    assert r.sections[0].kind == "release" and (
        r.sections[0].line_start,
        r.sections[0].line_end,
    ) == (0, 0)
    assert r.sections[0].source == "https://github.com/o/rel/releases/tag/v2.1.0"
    assert r.sections[0].heading == "v2.1.0" and r.sections[0].body == "- released v2.1.0"
    assert any(
        # read at the tag (no file there), then the releases: they cover it
        t.startswith("no changelog file found in o/rel at v2.1.0 (looked for CHANGELOG, CHANGES")
        and t.endswith("; 3 releases exist, newest v2.1.0")
        for t in r.sources_tried
    )
    assert "no changelog file found in o/rel" in r.note


def test_file_and_releases_each_covering_part_are_merged(up_dir):
    # the file stops at 1.3.0 (notes moved to GitHub releases); the file's section wins for 1.3.0
    write(up_dir, "npm/both/CHANGELOG.md", md("1.3.0", "1.2.0", "1.1.0"))
    write(up_dir, "npm/both/releases.json", releases("v2.1.0", "v2.0.0", "v1.3.0"))
    write(up_dir, "npm/both/meta.json", {"repository": "https://github.com/o/both"})
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("npm", "both", "1.1.0", "2.1.0")
    assert got(r) == ["2.1.0", "2.0.0", "1.3.0", "1.2.0"]
    assert [s.kind for s in r.sections] == ["release", "release", "file", "file"]
    assert r.sections[2].body == "- change in 1.3.0"
    # read at the new tag first (the file there lacks 2.1.0, so the default branch is read too)
    assert "2 from CHANGELOG.md at v2.1.0" in r.note and "2 from releases of o/both" in r.note


def test_monorepo_package_folder_and_package_name_tags(up_dir):
    write(up_dir, "npm/core/CHANGELOG.md", "# Monorepo\n\n## 2024-01-01\n\n- tooling\n")
    write(up_dir, "npm/core/packages/core/CHANGELOG.md", md("2.0.0", "1.0.0"))
    write(up_dir, "npm/core/packages/cli/CHANGELOG.md", md("9.0.0", "2.0.0", "1.5.0"))
    write(
        up_dir,
        "npm/core/meta.json",
        {"repository": "https://github.com/o/mono", "directory": "packages/core"},
    )
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("npm", "core", "1.0.0", "2.0.0")
    assert got(r) == ["2.0.0"]
    assert r.sections[0].source == "https://github.com/o/mono/blob/main/packages/core/CHANGELOG.md"


def test_monorepo_releases_use_the_packages_own_tags(up_dir):
    tags = ("cli@9.0.0", "core@2.1.0", "v7.0.0", "core@2.0.0", "cli@2.0.5", "core@1.0.0")
    write(up_dir, "npm/@org/core/releases.json", releases(*tags))
    write(
        up_dir,
        "npm/@org/core/meta.json",
        {"repository": "github:o/mono2", "directory": "packages/core"},
    )
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("npm", "@org/core", "1.0.0", "2.1.0")
    assert got(r) == ["2.1.0", "2.0.0"]
    assert [s.heading for s in r.sections] == ["core@2.1.0", "core@2.0.0"]


def test_changelog_only_at_the_new_versions_tag(up_dir):
    # the default branch lags behind; the notes of 2.0.0 are on its tag (a stable branch)
    write(up_dir, "pip/stable/CHANGES.rst", "1.0.0\n=====\n\n- main line\n")
    write(
        up_dir,
        "pip/stable/at-tag/CHANGES.rst",
        "2.0.0\n=====\n\n- on the tag\n\n1.0.0\n=====\n\n- main line\n",
    )
    write(
        up_dir,
        "pip/stable/meta.json",
        {
            "repository": "https://github.com/o/stable",
            "refs": {"v2.0.0": "at-tag"},
            "tags": ["v1.0.0"],
        },
    )
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("pip", "stable", "1.0.0", "2.0.0")
    assert got(r) == ["2.0.0"]
    assert r.sections[0].source == "https://github.com/o/stable/blob/v2.0.0/CHANGES.rst"
    assert r.sections[0].body == "- on the tag"
    assert served(up, "/tags") == 1
    assert "CHANGES.rst at v2.0.0 (versions 1.0.0–2.0.0)" in r.sources_tried


def test_pypi_long_description_when_it_carries_a_changelog(up_dir):
    description = (
        "Project\n=======\n\nA library.\n\nChangelog\n---------\n\n"
        "1.1.0 (2024-02-01)\n~~~~~~~~~~~~~~~~~~\n\n- desc change\n\n1.0.0 (2024-01-01)\n~~~~~~~~~~~~~~~~~~\n\n- first\n"
    )
    write(
        up_dir, "pip/desc/meta.json", {"description": description, "versions": ["1.0.0", "1.1.0"]}
    )
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("pip", "desc", "1.0.0", "1.1.0")
    assert got(r) == ["1.1.0"]
    assert r.sections[0].kind == "description" and r.sections[0].body == "- desc change"
    assert r.sections[0].source == f"{up.url}/project/desc/"
    assert "the long description on the package index" in r.note


def test_nothing_found_says_what_was_tried_and_what_it_held(up_dir):
    write(up_dir, "npm/gap/CHANGELOG.md", md("3.4.0", "3.0.0", "2.1.0"))
    write(up_dir, "npm/gap/meta.json", {"repository": "https://github.com/o/gap"})
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("npm", "gap", "1.0.0", "2.0.0")
    assert not r.found and r.sections == []
    assert r.note.startswith("no section between 1.0.0 and 2.0.0 found; tried ")
    assert "CHANGELOG.md at main (versions 2.1.0–3.4.0)" in r.note
    assert "releases of o/gap (none)" in r.note
    assert r.missing_versions == ["2.0.0"]
    no_secrets_or_noise(r)


def test_a_package_with_no_notes_anywhere(up_dir):
    up_dir.mkdir(parents=True)
    with FakeUpstream(up_dir, versions={("pip", "quiet"): ["1.0.0", "1.0.1"]}) as up:
        f, _ = make(up)
        r = f.fetch("pip", "quiet", "1.0.0", "1.0.1")
    assert not r.found and r.missing_versions == ["1.0.1"]
    assert r.note.startswith(
        "no section between 1.0.0 and 1.0.1 found; tried no changelog file found in "
    )
    assert "releases of fake-pip/quiet (none)" in r.note


def test_changelog_link_in_project_urls(up_dir):
    write(up_dir, "pip/linked/docs/release-history.md", md("0.3.0", "0.2.0"))
    urls = {
        "Changelog": "https://github.com/o/linked/blob/main/docs/release-history.md",
        "Source": "https://github.com/o/linked",
    }
    write(
        up_dir,
        "pip/linked/meta.json",
        {"repository": "https://github.com/o/linked", "project_urls": urls},
    )
    write(up_dir, "pip/other/CHANGELOG.md", md("0.3.0", "0.2.0"))
    urls2 = {
        "Changelog": "https://other.readthedocs.io/en/latest/changes.html",
        "Source": "https://github.com/o/other",
    }
    write(
        up_dir,
        "pip/other/meta.json",
        {"repository": "https://github.com/o/other", "project_urls": urls2},
    )
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("pip", "linked", "0.2.0", "0.3.0")
        r2 = f.fetch("pip", "other", "0.2.0", "0.3.0")
    assert got(r) == ["0.3.0"]
    assert r.sections[0].source == "https://github.com/o/linked/blob/main/docs/release-history.md"
    assert got(r2) == ["0.3.0"]
    assert r2.sources_tried[0] == (
        "changelog link https://other.readthedocs.io/en/latest/changes.html (not on GitHub, not read)"
    )


def test_markdown_preferred_and_tiny_files_skipped(up_dir):
    write(
        up_dir,
        "npm/pref/CHANGES.txt",
        md("1.1.0", "1.0.0").replace("change", "text change") + "x" * 200,
    )
    write(up_dir, "npm/pref/HISTORY.md", md("1.1.0", "1.0.0") + "y" * 200)
    write(up_dir, "npm/pref/CHANGELOG.md", "see releases\n")  # under 100 bytes
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("npm", "pref", "1.0.0", "1.1.0")
    assert r.sections[0].source.endswith("/HISTORY.md")


def test_releases_are_paged_until_the_range_is_covered(up_dir):
    rels = releases(*(f"v1.0.{i}" for i in range(249, -1, -1)))
    write(up_dir, "npm/paged/releases.json", rels)
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("npm", "paged", "1.0.10", "1.0.20")
        pages_old = served(up, "/releases")
        r2 = f.fetch("npm", "paged", "1.0.240", "1.0.249")
        pages_new = served(up, "/releases") - pages_old
    assert got(r) == [f"1.0.{i}" for i in range(20, 10, -1)]
    assert pages_old == 3  # 1.0.249..150, 149..50, 49..0
    assert got(r2) == [f"1.0.{i}" for i in range(249, 240, -1)]
    assert pages_new == 1  # covered by the first page


def test_tags_with_leading_zeros_match_the_index_versions(up_dir):
    write(
        up_dir,
        "pip/certifi/releases.json",
        releases("2022.09.14", "2022.06.15.2", "2022.06.15.1", "2022.06.15"),
    )
    with FakeUpstream(up_dir, versions={("pip", "certifi"): ["2022.6.15", "2022.9.14"]}) as up:
        f, _ = make(up)
        r = f.fetch("pip", "certifi", "2022.6.15", "2022.9.14")
    assert got(r) == ["2022.09.14", "2022.06.15.2", "2022.06.15.1"]
    assert r.missing_versions == []


def test_missing_versions_are_named(up_dir):
    write(up_dir, "npm/holes/CHANGELOG.md", md("1.3.0", "1.1.0", "1.0.0"))
    write(
        up_dir,
        "npm/holes/meta.json",
        {"repository": "https://github.com/o/holes", "versions": ["1.2.0"]},
    )
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("npm", "holes", "1.0.0", "1.3.0")
    assert got(r) == ["1.3.0", "1.1.0"]
    assert r.missing_versions == ["1.2.0"]
    assert "no notes found for 1.2.0" in r.note


def test_deprecation_context_from_versions_before_the_update(up_dir):
    text = (
        "2.0.0 (2023-04-26)\n==================\n\n* The deprecated ``method_whitelist`` was removed.\n\n"
        "1.26.18\n=======\n\n* fix\n\n1.26.0\n======\n\n* Faster.\n"
        "* ``method_whitelist=`` is deprecated; use\n  ``allowed_methods=``.\n* Other.\n"
    )
    write(up_dir, "pip/u3/CHANGES.rst", text)
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("pip", "u3", "1.26.18", "2.0.0")
        minor = f.fetch("pip", "u3", "1.26.0", "1.26.18")
    assert got(r) == ["2.0.0"]
    assert [c.version for c in r.context] == ["1.26.0"]
    assert (
        r.context[0].body == "* ``method_whitelist=`` is deprecated; use\n  ``allowed_methods=``."
    )
    assert minor.context == []  # a patch range that removes nothing needs no context


def test_budget_trims_but_keeps_breaking_lines(up_dir):
    filler = "".join(f"- small fix {i} in the formatter\n" for i in range(300))
    text = f"## 2.0.0\n\n{filler}- **Breaking:** `oldApi()` was removed; use `newApi()`.\n{filler}\n## 1.0.0\n\n- x\n"
    write(up_dir, "npm/big/CHANGELOG.md", text)
    with FakeUpstream(up_dir) as up:
        f, _ = make(up, changelog_budget=1500)
        r = f.fetch("npm", "big", "1.0.0", "2.0.0")
    assert "- **Breaking:** `oldApi()` was removed; use `newApi()`." in r.sections[0].body
    assert len(r.sections[0].body) <= 1500
    assert r.trimmed and "2.0.0" in r.trimmed


def test_the_items_are_read_from_a_larger_budget_than_the_display(up_dir):
    # more breaking lines than the display's budget holds: the model is shown some, and the
    # items are read from the notes trimmed to ANALYSIS_FACTOR times the budget, all of them
    removals = "".join(f"- `oldFunction{i}()` was removed.\n" for i in range(60))
    text = f"## 2.0.0\n\n{removals}\n## 1.0.0\n\n- x\n"
    write(up_dir, "npm/big/CHANGELOG.md", text)
    with FakeUpstream(up_dir) as up:
        f, _ = make(up, changelog_budget=1000)
        r = f.fetch("npm", "big", "1.0.0", "2.0.0")
    assert "oldFunction59" not in r.sections[0].body and breaking_lines_cut(r.trimmed)
    assert "oldFunction59" in r.analysed[0].body and not breaking_lines_cut(r.analysed_trimmed)


def test_bad_arguments_are_tool_errors(up_dir):
    write(up_dir, "npm/x/CHANGELOG.md", md("1.0.0"))
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        with pytest.raises(ToolError, match="not a npm version"):
            f.fetch("npm", "x", "banana", "1.0.0")
        with pytest.raises(ToolError, match="unknown ecosystem"):
            f.fetch("cargo", "x", "1.0.0", "2.0.0")
        assert not f.fetch("npm", "x", "2.0.0", "1.0.0").found


# -- faults -----------------------------------------------------------------------------------


def _flask(up_dir: Path) -> None:
    write(up_dir, "pip/Flask/CHANGES.rst", "".join(
        f"Version {v}\n-------------\n\n-   change {v}\n\n\n" for v in ("2.3.3", "2.3.0", "2.2.5")
    ))  # fmt: skip
    write(up_dir, "pip/Flask/meta.json", {"repository": "https://github.com/pallets/flask"})


@pytest.mark.parametrize(
    ("kind", "extra"),
    [
        ("rate_limit", {}),
        ("server_error", {}),
        ("timeout", {"http_timeout": 0.3}),
        ("garbage", {}),
    ],
)
def test_transient_faults_recover_within_the_retry_budget(up_dir, kind, extra):
    _flask(up_dir)
    times = 1 if kind == "garbage" else 2
    faults = [{"package": "flask", "kind": kind, "times": times}]
    with FakeUpstream(up_dir, faults, retry_after=0.05, timeout_delay=1.0) as up:
        f, http = make(up, **extra)
        r = f.fetch("pip", "Flask", "2.2.5", "2.3.3")
    assert got(r) == ["2.3.3", "2.3.0"]
    assert r.errors == []
    if kind != "garbage":
        assert http.stats["retries"] == times


def test_permanent_registry_faults_raise_short_sentences(up_dir):
    _flask(up_dir)
    for kind, words in (
        ("not_found", "Flask was not found on the package index; check the package name"),
        ("rate_limit", "rate limit reached"),
        ("server_error", "server error"),
        ("garbage", "unreadable answer"),
    ):
        with FakeUpstream(
            up_dir, [{"package": "FLASK", "kind": kind, "times": 0}], retry_after=0.05
        ) as up:
            f, _ = make(up)
            with pytest.raises(UpstreamError) as err:
                f.fetch("pip", "Flask", "2.2.5", "2.3.3")
        msg = str(err.value)
        assert words in msg and len(msg) < 200 and "\n" not in msg
        for bad in (TOKEN, "<html", "Traceback", "127.0.0.1"):
            assert bad not in msg


def test_rate_limited_releases_leave_the_file_sections(up_dir):
    write(up_dir, "npm/part/CHANGELOG.md", md("1.1.0", "1.0.0"))
    write(up_dir, "npm/part/releases.json", releases("v1.2.0", "v1.1.0"))
    write(up_dir, "npm/part/meta.json", {"repository": "https://github.com/o/part"})
    faults = [{"package": "part", "kind": "rate_limit", "times": 0, "endpoint": "releases"}]
    with FakeUpstream(up_dir, faults, retry_after=0.05) as up:
        f, _ = make(up, http_retries=1)
        r = f.fetch("npm", "part", "1.0.0", "1.2.0")
    assert got(r) == ["1.1.0"]
    assert r.errors[0] == (
        "GitHub rate limit reached for releases of o/part; the sections from CHANGELOG.md at v1.2.0 are shown"
    )
    assert r.missing_versions == ["1.2.0"]
    no_secrets_or_noise(r)


def test_rate_limited_releases_without_a_file_say_so(up_dir):
    write(up_dir, "npm/nofile/releases.json", releases("v1.1.0"))
    write(up_dir, "npm/nofile/meta.json", {"repository": "https://github.com/o/nofile"})
    faults = [{"package": "nofile", "kind": "rate_limit", "times": 0, "endpoint": "releases"}]
    with FakeUpstream(up_dir, faults, retry_after=0.05) as up:
        f, _ = make(up, http_retries=0)
        r = f.fetch("npm", "nofile", "1.0.0", "1.1.0")
    assert not r.found
    assert r.errors == [
        "GitHub rate limit reached for releases of o/nofile; the repository has no changelog "
        "file either; set GITHUB_TOKEN or try again later"
    ]
    assert "upstream problems: GitHub rate limit reached" in r.note
    assert "no changelog file found in o/nofile" in r.note


@pytest.mark.parametrize(
    ("endpoint", "kind", "sentence"),
    [
        (
            "repo",
            "not_found",
            "repository o/gone not found on GitHub; the registry may point at a renamed or private repository",
        ),
        (
            "contents",
            "server_error",
            "GitHub: server error (HTTP 503) after retries for folder '/' of o/gone",
        ),
        (
            "contents",
            "garbage",
            "GitHub: unreadable answer (not the JSON expected) for folder '/' of o/gone",
        ),
    ],
)
def test_github_failures_become_sentences(up_dir, endpoint, kind, sentence):
    write(up_dir, "npm/gone/CHANGELOG.md", md("1.1.0", "1.0.0"))
    write(up_dir, "npm/gone/meta.json", {"repository": "https://github.com/o/gone"})
    faults = [{"package": "gone", "kind": kind, "times": 0, "endpoint": endpoint}]
    with FakeUpstream(up_dir, faults) as up:
        f, _ = make(up, http_retries=2)
        r = f.fetch("npm", "gone", "1.0.0", "1.1.0")
    assert not r.found
    assert sentence in r.errors
    assert "no section between 1.0.0 and 1.1.0 found" in r.note
    no_secrets_or_noise(r)


# -- caching and concurrency ------------------------------------------------------------------


def test_a_warm_cache_downloads_no_body_again(up_dir, tmp_path):
    write(up_dir, "npm/warm/CHANGELOG.md", md("1.1.0", "1.0.0"))
    write(up_dir, "npm/warm/releases.json", releases("v1.2.0"))
    write(up_dir, "npm/warm/meta.json", {"repository": "https://github.com/o/warm"})
    cache = tmp_path / "cache"
    with FakeUpstream(up_dir) as up:
        first, http1 = make(up, cache)
        r1 = first.fetch("npm", "warm", "1.0.0", "1.2.0")
        http1.close()
        n = len(up.requests)
        second, http2 = make(up, cache)
        r2 = second.fetch("npm", "warm", "1.0.0", "1.2.0")
    assert got(r1) == got(r2) == ["1.2.0", "1.1.0"]
    assert http1.stats["changelog:downloads"] >= 2
    downloads = {k: v for k, v in http2.stats.items() if k.endswith(":downloads")}
    assert downloads == {} and http2.stats.get("bytes", 0) == 0
    assert http2.stats["revalidated"] == len(up.requests) - n
    assert all(r.headers.get("if-none-match") for r in up.requests[n:])


def test_memoized_and_safe_to_share_between_threads(up_dir):
    write(up_dir, "npm/conc/CHANGELOG.md", md("1.1.0", "1.0.0"))
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        results: list = []
        threads = [
            threading.Thread(
                target=lambda: results.append(f.fetch("npm", "conc", "1.0.0", "1.1.0"))
            )
            for _ in range(8)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        once = len(up.requests)
        assert f.fetch("npm", "CONC", "1.0.0", "1.1.0") is results[0]
        assert len(up.requests) == once
    assert len(results) == 8 and all(r is results[0] for r in results)
    assert once == 5  # registry, repository, tags (none: no tag to read at), root listing, file


def test_github_links():
    assert parse_github_link("https://github.com/o/r/blob/main/docs/CHANGES.rst#L3") == (
        "o/r", "blob", "main", "docs/CHANGES.rst",
    )  # fmt: skip
    assert parse_github_link("https://github.com/o/r/tree/v2/packages/x") == (
        "o/r",
        "tree",
        "v2",
        "packages/x",
    )
    assert parse_github_link("https://github.com/o/r/releases") == ("o/r", "releases", None, "")
    assert parse_github_link("https://raw.githubusercontent.com/o/r/main/NEWS.md") == (
        "o/r",
        "blob",
        "main",
        "NEWS.md",
    )
    assert parse_github_link("https://docs.example.org/changes") is None
