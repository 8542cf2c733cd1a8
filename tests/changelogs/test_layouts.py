"""Notes where real projects keep them (issue #15 §2), against the loopback fake upstream:
per-release files in docs and changelog folders, monorepo package changelogs, upgrade
guides of a major, files over the contents API's limit; and the tag memo (issue #16)."""

from __future__ import annotations

from pathlib import Path

import pytest

from depbot.changelogs.layouts import (
    guide_files,
    guide_names,
    is_fragment,
    manifest_candidates,
    notes_files,
)
from depbot.changelogs.tagmemo import TagMemo
from depbot.fakes.upstream import FakeUpstream
from tests.helpers.changelogs import got, make, served, write


@pytest.fixture
def up_dir(tmp_path: Path) -> Path:
    return tmp_path / "upstream"


def meta(repo: str, versions: list[str], **extra: object) -> dict:
    return {"repository": f"https://github.com/{repo}", "versions": versions, **extra}


def contents_asked(up: FakeUpstream) -> list[str]:
    return [r.path.split("/contents/", 1)[1] for r in up.requests if "/contents/" in r.path]


# -- layouts (pure) -------------------------------------------------------------------------


def test_layout_rules_are_about_names_and_folders():
    files = [(p, 10) for p in (
        "docs/releases/4.2.rst", "doc/source/whatsnew/v2.0.0.rst", "docs/changelog/1.2.0.md",
        "changes/1.3.0.md", "changes/123.feature.rst", "changes/+abc.bugfix.md",
        "changelog.d/2.0.0.md", "CHANGELOG/1.0.md", ".changeset/1.2.0.md", "src/releases/1.0.md",
        "docs/api/1.0.rst",
    )]  # fmt: skip
    assert [n.path for n in notes_files(files)] == [
        "docs/releases/4.2.rst", "doc/source/whatsnew/v2.0.0.rst", "docs/changelog/1.2.0.md",
        "changes/1.3.0.md", "changelog.d/2.0.0.md", "CHANGELOG/1.0.md",
    ]  # fmt: skip
    assert is_fragment("123.feature.rst") and is_fragment("+abc.bugfix.md")
    assert not is_fragment("1.2.0.md")
    guides = guide_files([(p, 1) for p in ("UPGRADING.md", "docs/guide/migrating-to-v3.md",
                                           "src/migrations/0001.py", "MIGRATION.md")])  # fmt: skip
    assert guides == ["MIGRATION.md", "UPGRADING.md", "docs/guide/migrating-to-v3.md"]
    # a guides folder under docs holds one file per major, named by the version alone
    folder = guide_files([(p, 1) for p in (
        "docs/migration-guide/to-16.md", "docs/migration-guide/README.md", "docs/upgrading/v5.md",
        "docs/user-guide/5.md", "src/migrations/to-3.md", "docs/migrations/from-v4-to-v5.md",
    )])  # fmt: skip
    assert folder == ["docs/migration-guide/to-16.md", "docs/migrations/from-v4-to-v5.md",
                      "docs/upgrading/v5.md"]  # fmt: skip
    assert guide_names("docs/migration-guide/to-16.md", 16, 0) is True
    assert guide_names("docs/migrations/from-v4-to-v5.md", 5, 0) is True  # the one it leads to
    assert guide_names("docs/migrations/from-v4-to-v5.md", 4, 0) is False
    # a guide named by its major first, anywhere under docs
    nested = guide_files([(p, 1) for p in ("docs/getting-started/v3-migration.md",
                                           "docs/getting-started/integration.md")])  # fmt: skip
    assert nested == ["docs/getting-started/v3-migration.md"]
    assert guide_names(nested[0], 3, 0) is True
    paths = [("packages/widgets/package.json", 1), ("packages/other/package.json", 1),
             ("node_modules/widgets/package.json", 1)]  # fmt: skip
    assert manifest_candidates(paths, "@acme/widgets") == ["packages/widgets/package.json"]


# -- 1. per-release files in a docs folder ----------------------------------------------------


def test_docs_releases_per_version_read_only_the_range(up_dir):
    root = "pip/webkit"
    write(up_dir, f"{root}/meta.json", meta("o/webkit", ["4.1", "4.2", "4.2.1", "4.2.2", "5.0"]))
    write(up_dir, f"{root}/README.md", "# webkit\n")
    write(up_dir, f"{root}/docs/releases/4.1.rst", "4.1 release notes\n=================\n\nOld.\n")
    write(up_dir, f"{root}/docs/releases/4.2.rst",
          "4.2 release notes\n=================\n\nRemoved ``old_api()``.\n\n"
          "4.2.2\n-----\n\n- Fixed a crash.\n")  # fmt: skip
    write(up_dir, f"{root}/docs/releases/4.2.1.rst", "4.2.1 release notes\n===\n\n- A fix.\n")
    write(up_dir, f"{root}/docs/releases/5.0.rst", "5.0 release notes\n=================\n\nNew.\n")
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("pip", "webkit", "4.1", "4.2.2")
        asked = contents_asked(up)
    assert got(r) == ["4.2.2", "4.2.1", "4.2"]
    assert "docs/releases/4.1.rst" not in asked and "docs/releases/5.0.rst" not in asked
    assert r.sections[2].body.startswith("Removed ``old_api()``")
    assert r.sections[2].source.endswith("/docs/releases/4.2.rst")
    assert r.missing_versions == []
    assert any(t.startswith("docs/releases/4.2.rst at main") for t in r.sources_tried)


def test_a_release_the_registry_does_not_list_is_read_from_its_own_notes_file(up_dir):
    # the registry lists 3.10.0 and 4.6.0 only (4.0.0 unpublished, say); the notes folder
    # still holds the major's file, and its breaks are part of the update
    root = "npm/runner"
    write(up_dir, f"{root}/meta.json", meta("o/runner", ["3.10.0", "4.6.0"]))
    write(up_dir, f"{root}/release_notes/release-4.0.0.md",
          "# Runner 4.0.0 Release Notes\n\n## Breaking changes\n\n"
          "* `Runner#onComplete` is no longer supported.\n")  # fmt: skip
    write(
        up_dir, f"{root}/release_notes/release-4.6.0.md", "# Runner 4.6.0 Release Notes\n\nDeps.\n"
    )
    write(
        up_dir, f"{root}/release_notes/release-4.7.0.md", "# Runner 4.7.0 Release Notes\n\nNew.\n"
    )
    write(up_dir, f"{root}/release_notes/release-4.1.0-beta.1.md", "# 4.1.0-beta.1\n\nBeta.\n")
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("npm", "runner", "3.10.0", "4.6.0")
    assert got(r) == ["4.6.0", "4.0.0"]
    assert "onComplete" in r.sections[1].body


def test_whatsnew_files_and_a_file_without_headings(up_dir):
    root = "pip/tables"
    write(up_dir, f"{root}/meta.json", meta("o/tables", ["1.5.0", "2.0.0"]))
    write(
        up_dir,
        f"{root}/doc/source/whatsnew/v2.0.0.rst",
        "Intro paragraph.\n\n- ``frame.ix`` removed\n",
    )
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("pip", "tables", "1.5.0", "2.0.0")
    assert got(r) == ["2.0.0"] and "frame.ix" in r.sections[0].body


# -- 2. changelog folders, towncrier fragments excluded ---------------------------------------


def test_changes_folder_without_fragments(up_dir):
    root = "pip/frag"
    write(up_dir, f"{root}/meta.json", meta("o/frag", ["1.1.0", "1.2.0"]))
    write(up_dir, f"{root}/changes/1.2.0.md", "## 1.2.0\n\n- Dropped `legacy()`.\n")
    write(up_dir, f"{root}/changes/123.feature.rst", "Unreleased: a feature.\n")
    write(up_dir, f"{root}/changes/+abc.bugfix.md", "Unreleased: a fix.\n")
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("pip", "frag", "1.1.0", "1.2.0")
        asked = contents_asked(up)
    assert got(r) == ["1.2.0"] and "legacy" in r.sections[0].body
    assert not [p for p in asked if "feature" in p or "bugfix" in p]


# -- 3. monorepo package changelogs -----------------------------------------------------------


def test_monorepo_package_found_by_its_manifest(up_dir):
    root = "npm/@acme/widgets"
    write(up_dir, f"{root}/meta.json", meta("acme/ui", ["1.4.0", "2.0.0"]))
    write(up_dir, f"{root}/CHANGELOG.md", "# ui\n\n## 9.0.0\n\n- the root app\n")
    write(up_dir, f"{root}/packages/widgets/package.json", '{"name": "@acme/widgets"}')
    write(up_dir, f"{root}/packages/widgets/CHANGELOG.md",
          "# @acme/widgets\n\n## 2.0.0\n\n### Major Changes\n\n- 1a2b3c: Removed `renderAll()`.\n\n"
          "## 1.4.0\n\n### Minor Changes\n\n- added\n")  # fmt: skip
    write(up_dir, f"{root}/.changeset/brave-owls.md", "---\n'@acme/widgets': major\n---\n\nNext.\n")
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("npm", "@acme/widgets", "1.4.0", "2.0.0")
        asked = contents_asked(up)
    assert got(r) == ["2.0.0"] and "Major Changes" in r.sections[0].body
    assert r.sections[0].source.endswith("packages/widgets/CHANGELOG.md")
    assert not [p for p in asked if ".changeset" in p]


def test_monorepo_directory_from_the_registry(up_dir):
    root = "npm/gadget"
    write(
        up_dir, f"{root}/meta.json", meta("acme/tools", ["1.0.0", "1.1.0"], directory="libs/gadget")
    )
    write(up_dir, f"{root}/libs/gadget/docs/releases/1.1.0.md", "# 1.1.0\n\n- removed `x`\n")
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("npm", "gadget", "1.0.0", "1.1.0")
    assert got(r) == ["1.1.0"]


# -- 4. upgrade guides of a major -------------------------------------------------------------


def test_upgrade_guide_section_of_the_target_major(up_dir):
    root = "pip/shapes"
    write(up_dir, f"{root}/meta.json", meta("o/shapes", ["2.4.0", "3.0.0"]))
    write(
        up_dir,
        f"{root}/CHANGELOG.md",
        "# Changelog\n\n## 3.0.0\n\nSee UPGRADING.md.\n\n## 2.4.0\n\n- x\n",
    )
    write(up_dir, f"{root}/UPGRADING.md",
          "# Upgrading\n\n## Upgrading to 3.0\n\n- `Shape.area_of()` was removed; use `Shape.area`.\n\n"
          "## Upgrading to 2.0\n\n- `Shape.draw_old()` was removed.\n")  # fmt: skip
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("pip", "shapes", "2.4.0", "3.0.0")
    s = r.sections[0]
    assert got(r) == ["3.0.0"] and "area_of" in s.body and "draw_old" not in s.body
    assert s.source.endswith("/UPGRADING.md") and s.heading == "Upgrading to 3.0"
    assert "See UPGRADING.md." in s.body
    assert any("upgrade guide" in t for t in r.sources_tried)


def test_a_zero_major_minor_step_is_read_in_its_guide(up_dir):
    # 0.21 -> 0.95 is a breaking step (semver 0.x), though its update type is "minor": the
    # changelog points to the guide, whose section for 0.95 (not 0.21's) becomes the notes
    root = "npm/qb"
    write(up_dir, f"{root}/meta.json", meta("o/qb", ["0.21.5", "0.95.0", "0.95.2"]))
    write(up_dir, f"{root}/CHANGELOG.md",
          "# Changelog\n\n## 0.95.2\n\n- fix x\n\n## 0.95.0\n\n"
          "- Note: many breaking changes, see `UPGRADING.md`.\n\n## 0.21.5\n\n- y\n")  # fmt: skip
    write(up_dir, f"{root}/UPGRADING.md",
          "## Upgrading\n\n### Upgrading to version 0.95.0+\n\n- `qb.rawStatic()` was removed.\n\n"
          "### Upgrading to version 0.21.0+\n\n- `qb.older()` was removed.\n")  # fmt: skip
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("npm", "qb", "0.21.5", "0.95.2")
        minor = f.fetch("npm", "qb", "0.95.0", "0.95.2")  # one series: no guide wanted
    guide = [s for s in r.sections if s.source.endswith("/UPGRADING.md")]
    assert guide and "rawStatic" in guide[0].body and "older" not in guide[0].body
    assert not any(s.source.endswith("/UPGRADING.md") for s in minor.sections)


def test_a_major_whose_release_notes_name_no_break_is_read_in_its_guide(up_dir):
    # the first release of the major (not its first beta) has bug fixes and features only:
    # its breaks are in the guide, whose one heading names the major it leaves
    root = "npm/ldr"
    write(up_dir, f"{root}/meta.json", meta("o/ldr", ["14.1.0", "15.0.0-beta.1", "15.0.0"]))
    write(up_dir, f"{root}/CHANGELOG.md",
          "# Changelog\n\n## 15.0.0\n\n### Bug Fixes\n\n- compat with null-loader\n\n"
          "### Features\n\n- rules for .vue.html\n\n## 15.0.0-beta.1\n\n### Features\n\n"
          "- faster builds\n\n## 14.1.0\n\n- x\n")  # fmt: skip
    write(up_dir, f"{root}/docs/migrating.md",
          "# Migrating from v14\n\n## A Plugin is Now Required\n\n"
          "- `LdrPlugin` must be added to the webpack plugins.\n")  # fmt: skip
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        r = f.fetch("npm", "ldr", "14.1.0", "15.0.0")
    guide = [s for s in r.sections if s.source.endswith("/docs/migrating.md")]
    assert guide and "LdrPlugin" in guide[0].body


def test_no_guide_read_for_a_minor_or_a_full_major_note(up_dir):
    root = "pip/plain"
    write(up_dir, f"{root}/meta.json", meta("o/plain", ["1.0.0", "1.1.0"]))
    write(up_dir, f"{root}/CHANGELOG.md", "## 1.1.0\n\n- one\n")
    write(up_dir, f"{root}/MIGRATION.md", "# Migration\n\nSomething.\n")
    with FakeUpstream(up_dir) as up:
        f, _ = make(up)
        f.fetch("pip", "plain", "1.0.0", "1.1.0")
        assert served(up, "/git/trees/") == 0 and served(up, "MIGRATION") == 0


# -- 5. files over the contents API's limit ---------------------------------------------------


def test_a_file_over_the_contents_limit_is_read_raw(up_dir):
    root = "npm/big"
    write(up_dir, f"{root}/meta.json", meta("o/big", ["1.0.0", "1.1.0"]))
    write(up_dir, f"{root}/CHANGELOG.md", "# Changelog\n\n## 1.1.0\n\n- big change\n" + "x" * 400)
    with FakeUpstream(up_dir) as up:
        up.contents_limit = 100
        f, _ = make(up, raw_url=up.url + "/raw")
        r = f.fetch("npm", "big", "1.0.0", "1.1.0")
    assert got(r) == ["1.1.0"] and served(up, "/raw/o/big/HEAD/CHANGELOG.md") == 1


def test_a_failed_tree_is_named(up_dir):
    root = "pip/treeless"
    write(up_dir, f"{root}/meta.json", meta("o/treeless", ["1.0.0", "1.1.0"]))
    write(up_dir, f"{root}/docs/releases/1.1.0.md", "- new\n")
    faults = [{"package": "treeless", "kind": "server_error", "times": 0, "endpoint": "git"}]
    with FakeUpstream(up_dir, faults) as up:
        f, _ = make(up, http_retries=0)
        r = f.fetch("pip", "treeless", "1.0.0", "1.1.0")
    assert not r.found
    assert "the file tree of o/treeless at main (could not be read)" in r.sources_tried
    assert any("file tree of o/treeless" in e for e in r.errors)


# -- issue #16: the tag memo ------------------------------------------------------------------


def test_a_warm_run_reads_at_the_remembered_tag_with_no_request(up_dir, tmp_path):
    root = "npm/tagged"
    write(
        up_dir, f"{root}/meta.json", meta("o/tagged", ["1.0.0", "1.1.0"], tags=["v1.1.0", "v1.0.0"])
    )
    write(up_dir, f"{root}/docs/releases/1.1.0.md", "# 1.1.0\n\n- removed `x`\n")
    cache = tmp_path / "cache"
    with FakeUpstream(up_dir) as up:
        first, http = make(up, cache)
        r1 = first.fetch("npm", "tagged", "1.0.0", "1.1.0")
        http.close()
        n = len(up.requests)
        second, _ = make(up, cache)
        r2 = second.fetch("npm", "tagged", "1.0.0", "1.1.0")
        again = up.requests[n:]
    assert got(r1) == got(r2) == ["1.1.0"] and "at v1.1.0" in r2.note
    assert [r.path for r in again if "/github/" in r.path] == []
    assert TagMemo(cache).get("o/tagged", "npm", "tagged", "1.1.0") == "v1.1.0"


def test_tag_memo_survives_a_broken_file(tmp_path):
    (tmp_path / "release_tags.json").write_text("{not json", encoding="utf-8")
    memo = TagMemo(tmp_path)
    assert memo.get("o/r", "pip", "x", "1.0") is None
    memo.put("o/r", "pip", "x", "1.0", "v1.0")
    assert TagMemo(tmp_path).get("O/R", "pip", "X", "1.0") == "v1.0"


def test_guide_sections_by_major():
    from depbot.changelogs.folders import guide_section

    guide = "# Upgrading\n\n## Upgrading to 3.0\n\n- a\n\n## Upgrading to 2.0\n\n- b\n"
    assert guide_section(guide, 3) == ("Upgrading to 3.0", "- a", 3, 6)
    assert guide_section(guide, 4) is None  # only other majors: not the notes of 4.0
    zero = "### Upgrading to version 0.95.0+\n\n- g\n\n### Upgrading to version 0.21.0+\n\n- h\n"
    assert guide_section(zero, 0, minor=95)[:2] == ("Upgrading to version 0.95.0+", "- g")
    assert guide_section(zero, 0, minor=30) is None
    assert guide_section("# Migration\n\n- c\n", 5) == ("Migration", "# Migration\n\n- c", 1, 3)
    # a heading that names only the major it leaves is the guide to the next one
    leaving = "# Migrating from v14\n\n## A plugin is now required\n\n- d\n"
    assert guide_section(leaving, 15)[0] == "Migrating from v14"
    assert guide_section(leaving, 14) is None
    assert (
        guide_section("# Upgrading from 2.x to 3.0\n\n- e\n", 3)[0] == "Upgrading from 2.x to 3.0"
    )
    # of several headings naming the major, the one that says it breaks
    several = "## v3 changes\n\nSee the discussion.\n\n## v3 breaking changes\n\n- `f` removed\n"
    assert guide_section(several, 3)[:2] == ("v3 breaking changes", "- `f` removed")
    # a docs site's front matter is no heading: its title line over `---` hid the guide
    site = (
        "---\ntitle: 'How to Migrate to v2 from v1'\n---\n\n# How to Migrate to v2 from v1\n\n- g\n"
    )
    assert guide_section(site, 2) == ("How to Migrate to v2 from v1", "- g", 5, 7)


@pytest.mark.parametrize(
    ("path", "named"),
    [
        ("doc/build/changelog/migration_20.rst", True),  # dotless 2.0, as SQLAlchemy names it
        ("doc/build/changelog/migration_14.rst", False),
        ("docs/migrating-to-v2.md", True),
        ("docs/migrating-to-v3.md", False),
        ("UPGRADING-2.0.md", True),
        ("MIGRATION.md", None),
    ],
)
def test_a_guide_names_its_release_with_or_without_the_dot(path, named):
    assert guide_names(path, 2, 0) is named


def test_a_series_file_named_without_the_dot_is_the_notes_of_that_series():
    paths = [
        ("doc/build/changelog/changelog_20.rst", 9),  # the 2.0.x releases
        ("doc/build/changelog/changelog_14.rst", 9),
        ("doc/build/changelog/migration_20.rst", 9),  # a guide, not notes
        ("doc/build/changelog/unreleased_20/1234.rst", 9),  # a fragment
        ("docs/changelog_2020.md", 9),  # a year, not a series
        ("src/changelog_20.py", 9),  # not a notes folder
    ]
    assert [(n.path, n.version) for n in notes_files(paths)] == [
        ("doc/build/changelog/changelog_20.rst", "2.0"),
        ("doc/build/changelog/changelog_14.rst", "1.4"),
    ]


def test_a_code_fence_in_a_guide_is_neither_an_underline_nor_a_heading():
    from depbot.changelogs.folders import guide_section

    text = (
        "# V4 migration guide\n\nRe-install:\n\n```\nnpm uninstall kit\nnpm install kit\n```\n\n"
        "```sh\n# a shell comment, not a heading\n```\n\n* `legacyConnection` has been removed.\n"
    )
    title, body, _first, last = guide_section(text, 4)
    assert title == "V4 migration guide"
    assert "`legacyConnection` has been removed." in body
    assert last == len(text.splitlines())


def test_the_english_edition_of_a_translated_guide_is_a_guide_and_names_its_major():
    paths = ["docs/react/migration-v4.en-US.md", "docs/react/migration-v4.zh-CN.md"]
    assert guide_files([(p, 1) for p in paths]) == ["docs/react/migration-v4.en-US.md"]
    assert guide_names("docs/react/migration-v4.en-US.md", 4, 0) is True


def test_a_top_level_folder_of_guides_holds_guides():
    paths = ["migration_guides/migrating_to_13.md", "src/migrate.md", "lib/upgrade.md"]
    assert guide_files([(p, 1) for p in paths]) == ["migration_guides/migrating_to_13.md"]


def test_a_majors_notes_that_name_no_api_among_their_removals_keep_its_breaks_in_a_guide():
    from depbot.changelogs.folders import _names_a_break

    styles = "- 🚮 Remove DatePicker legacy cell className for custom cell style.\n- 🐞 Fix Table."
    assert not _names_a_break(styles, "ui")  # "remove" said only of a style: read the guide
    assert _names_a_break("- Removed `Form.create`, use `Form.useForm`.", "ui")
