"""The pure changelog core: heading styles, sections, version-range slicing, tags, trimming."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from depbot.changelogs.sections import (
    Section,
    parse_sections,
    pick_tags,
    slice_range,
    tag_version,
)
from depbot.changelogs.trim import (
    BREAKING_WORDS,
    breaking_lines_cut,
    deprecation_notes,
    release_rank,
    removes_deprecated,
    trim_to_budget,
)


def versions_of(text: str, eco: str = "npm", source: str = "CHANGELOG.md") -> list[str]:
    return [s.version for s in parse_sections(text, source, ecosystem=eco)]


def bodies(text: str, eco: str = "npm", source: str = "CHANGELOG.md") -> dict[str, str]:
    return {s.version: s.body for s in parse_sections(text, source, ecosystem=eco)}


# -- heading styles ---------------------------------------------------------------------------

HEADING_STYLES = {
    "atx": ("## 2.0.0\n\n- two\n\n## 1.0.0\n\n- one\n", "CHANGELOG.md"),
    "atx v prefix": ("## v2.0.0\n\n- two\n\n## v1.0.0\n\n- one\n", "CHANGELOG.md"),
    "atx h1 bare": ("# 2.0.0\n\n- two\n\n# 1.0.0\n\n- one\n", "CHANGELOG.md"),
    "atx with date": ("## 2.0.0 (2023-04-26)\n\n- two\n\n## 1.0.0 (2022-01-01)\n- one\n", "C.md"),
    "linked heading": (
        "## [2.0.0](https://github.com/o/r/compare/v1.0.0...v2.0.0) (2023-04-26)\n\n- two\n\n"
        "## [1.0.0](https://github.com/o/r/compare/v0.9.0...v1.0.0) (2022-01-01)\n\n- one\n",
        "CHANGELOG.md",
    ),
    "keep a changelog": (
        "# Changelog\n\n## [Unreleased]\n\n- soon\n\n## [2.0.0] - 2023-04-26\n\n### Removed\n\n"
        "- two\n\n## [1.0.0] - 2022-01-01\n\n- one\n\n"
        "[2.0.0]: https://github.com/o/r/compare/v1.0.0...v2.0.0\n"
        "[1.0.0]: https://github.com/o/r/releases/tag/v1.0.0\n",
        "CHANGELOG.md",
    ),
    "setext": ("2.0.0\n=====\n\n- two\n\n1.0.0\n=====\n\n- one\n", "CHANGELOG.md"),
    "setext dash": ("Changes\n=======\n\n2.0.0\n-----\n\n- two\n\n1.0.0\n-----\n\n- one\n", "H.md"),
    "version word": (
        "Version 2.0.0\n-------------\n\n- two\n\nVersion 1.0.0\n-------------\n\n- one\n",
        "CHANGES.rst",
    ),
    "v with date underlined": (
        "v2.0.0 (2023-04-26)\n===================\n\n- two\n\nv1.0.0 (2022-01-01)\n===================\n\n- one\n",
        "CHANGELOG.rst",
    ),
    "slash date": (
        "2.0.0 / 2023-04-26\n==================\n\n  * two\n\n1.0.0 / 2022-01-01\n==================\n\n  * one\n",
        "History.md",
    ),
    "overline rst": (
        "=====\n2.0.0\n=====\n\n- two\n\n=====\n1.0.0\n=====\n\n- one\n",
        "CHANGES.rst",
    ),
    "bare lines (PyYAML)": (
        "\nFor a complete changelog, see:\n\n* https://github.com/yaml/pyyaml/commits/\n\n"
        "2.0.0 (2023-04-26)\n\n* two\n\n1.0.0 (2022-01-01)\n\n* one\n",
        "CHANGES",
    ),
    "bold bare lines": ("**v2.0.0**\n\n- two\n\n**v1.0.0**\n\n- one\n", "NEWS"),
    "date first": (
        "# History\n\n# 2020-11-02, version 2.0.0\n\n- two\n\n# 2020-10-10, version 1.0.0\n\n- one\n",
        "HISTORY.md",
    ),
    # a bold version with a date in HTML and a diff link; its own sub-headings stay in it
    "bold version, small date, diff link": (
        "## Change Log\n\n**2.0.0** <small>_Jun 07, 2020_</small> - [Diff](https://x.test/1...2)\n\n"
        "#### Breaking changes\n\n- two\n\n"
        "**1.0.0** <small>_Sep 13, 2019_</small> - [Diff](https://x.test/0...1)\n\n#### Features\n\n"
        "- one\n",
        "CHANGELOG.md",
    ),
    "bracket dash date": (
        "[2.0.0] - 2023-04-26\n\n- two\n\n[1.0.0] - 2022-01-01\n\n- one\n",
        "NEWS",
    ),
}


@pytest.mark.parametrize("name", sorted(HEADING_STYLES))
def test_heading_styles(name):
    text, source = HEADING_STYLES[name]
    secs = parse_sections(text, source, ecosystem="npm")
    assert [s.version for s in secs] == ["2.0.0", "1.0.0"], name
    assert "two" in secs[0].body and "one" not in secs[0].body
    assert "one" in secs[1].body and "two" not in secs[1].body
    assert "[1.0.0]: https" not in secs[1].body  # link-reference lines are not content


@pytest.mark.parametrize("char", list("=-~^*+#\"':._"))
def test_rst_underlines_of_any_punctuation(char):
    line = char * 20
    text = f"Project\n{'@' * 7}\n\nv2.0.0 (2023-04-26)\n{line}\n\n- two\n\n1.0.0\n{line}\n\n- one\n"
    assert versions_of(text, "pip", "CHANGES.rst") == ["2.0.0", "1.0.0"]


def test_fences_are_not_underlines_and_hide_headings():
    text = (
        "## 2.0.0\n\nExample:\n```js\n## 9.9.9\nconst x = 1\n```\n\nSee also:\n~~~\n# 8.0.0\n~~~\n\n"
        "## 1.0.0\n\n- one\n"
    )
    assert versions_of(text) == ["2.0.0", "1.0.0"]
    assert "## 9.9.9" in bodies(text)["2.0.0"] and "# 8.0.0" in bodies(text)["2.0.0"]


def test_real_world_shapes():
    express = (
        "5.0.0-alpha.2 / 2015-07-06\n==========================\n\n  * remove:\n"
        "    - `req.param()`\n  * deps: send@^1.1.0\n\n"
        "4.21.0 / 2024-09-11\n===================\n\n  * deps: serve-static@1.16.2\n"
    )
    assert versions_of(express) == ["5.0.0-alpha.2", "4.21.0"]
    assert "send@^1.1.0" in bodies(express)["5.0.0-alpha.2"]
    flask = (
        ".. currentmodule:: flask\n\nVersion 2.3.3\n-------------\n\nReleased 2023-08-21\n\n"
        "-   Werkzeug >= 2.3.7 is required.\n\n\nVersion 2.3.2\n-------------\n\n-   fix\n"
    )
    assert versions_of(flask, "pip", "CHANGES.rst") == ["2.3.3", "2.3.2"]
    prettier = "# 3.3.3\n\n#### Parenthesize ternaries\n\ntext\n\n# 3.3.2\n\n#### Other\n"
    assert versions_of(prettier) == ["3.3.3", "3.3.2"]
    assert "#### Parenthesize ternaries" in bodies(prettier)["3.3.3"]


def test_one_bullet_per_version_when_a_file_has_no_headings():
    text = (
        "- 0.9.0: Drop support for Python 2.7.\n  Migrate to pyproject.toml.\n"
        "- 0.8.10: Python 3.10 support.\n- 0.8.9 (2021-02-01): Bug fix.\n"
    )
    secs = parse_sections(text, "CHANGELOG", ecosystem="pip")
    assert [(s.version, s.line_start, s.line_end) for s in secs] == [
        ("0.9.0", 1, 2),
        ("0.8.10", 3, 3),
        ("0.8.9", 4, 4),
    ]
    assert secs[0].body == "Drop support for Python 2.7.\n  Migrate to pyproject.toml."
    # in a file with version headings such bullets are notes, not boundaries
    assert versions_of("## 2.0.0\n\n- 1.9.1: backported fix\n\n## 1.0.0\n\n- x\n") == [
        "2.0.0",
        "1.0.0",
    ]


def test_unreleased_main_and_dev_headings_end_sections_but_are_not_versions():
    text = "## main\n\n### Features\n\n- wip\n\n## 29.7.0\n\n- a\n\n## Unreleased\n\n- b\n\n## 29.6.4\n\n- c\n"
    secs = parse_sections(text, "CHANGELOG.md", ecosystem="npm")
    assert [s.version for s in secs] == ["29.7.0", "29.6.4"]
    assert secs[0].body == "- a"
    requests_style = "Release History\n===============\n\ndev\n---\n\n- x\n\n2.28.1 (2022-06-29)\n-------------------\n\n- y\n"
    assert bodies(requests_style, "pip", "HISTORY.md") == {"2.28.1": "- y"}


def test_a_higher_non_version_heading_ends_a_section_but_sub_headings_stay():
    text = (
        "Changelog\n=========\n\n# 3.x release\n\n## v3.0.0\n\n- three\n\n### Breaking\n\n- gone\n\n"
        "# 2.x release\n\nThe 2.x line is kept on a branch.\n\n## v2.6.0\n\n- two\n"
    )
    b = bodies(text)
    assert b["3.0.0"] == "- three\n\n### Breaking\n\n- gone"
    assert "2.x line" not in b["3.0.0"] and "2.x line" not in b["2.6.0"]
    urllib3 = (
        "Changes\n=======\n\n2.0.0 (2023-04-26)\n==================\n\nRemoved\n-------\n\n"
        "* ``method_whitelist`` was removed\n\nAdded\n-----\n\n* stuff\n\n"
        "1.26.18 (2023-10-17)\n====================\n\n* fix\n"
    )
    b = bodies(urllib3, "pip", "CHANGES.rst")
    assert "Removed\n-------" in b["2.0.0"] and "* stuff" in b["2.0.0"]
    assert b["1.26.18"] == "* fix"


def test_versions_in_bodies_and_other_headings_are_not_boundaries():
    text = (
        "## 2.0.0\n\n- deps: send@^1.1.0\n- Werkzeug >= 2.3.7 is required\n\n"
        "### Upgrading to 3.0\n\nlater\n\n```\n1.9.0\n\n```\n\n1.2.3 is mentioned in prose\n\n"
        "## 1.0.0\n\n- one\n"
    )
    assert versions_of(text) == ["2.0.0", "1.0.0"]
    assert "Upgrading to 3.0" in bodies(text)["2.0.0"]


def test_a_digit_inside_a_name_before_the_version_is_no_other_number():
    # d3's CHANGES.md: one heading per major, its name spelled with a digit
    text = "# Changes in D3 6.0\n\n### d3-selection\n\n* Remove d3.event!\n\n# Changes in D3 5.0\n\n- x\n"
    assert versions_of(text) == ["6.0", "5.0"]
    assert "Remove d3.event" in bodies(text)["6.0"]
    # a number standing alone before it is about something else
    assert versions_of("## Python 3 and 2.0\n\n- a\n\n## 1.0.0\n\n- c\n") == ["1.0.0"]


def test_series_and_date_headings_are_not_versions():
    assert versions_of("## 1.2.x\n\n- a\n\n## 2023-04-26\n\n- b\n\n## 1.0.0\n\n- c\n") == ["1.0.0"]


def test_line_spans_and_heading_text():
    text = "# Changelog\n\n## [2.0.0](https://x/y) (2023-04-26)\n\n- two\n- more\n\n## 1.0.0\n\n- one\n"
    s2, s1 = parse_sections(text, "https://github.com/o/r/blob/main/CHANGELOG.md", ecosystem="npm")
    assert (s2.line_start, s2.line_end) == (3, 6)
    assert s2.heading == "## [2.0.0](https://x/y) (2023-04-26)"
    assert (s1.line_start, s1.line_end) == (8, 10)
    assert s1.source.endswith("CHANGELOG.md") and s1.kind == "file"
    rst = "Version 1.1\n-----------\n\nReleased 2024\n\n-   x\n"
    (s,) = parse_sections(rst, "CHANGES.rst", ecosystem="pip")
    assert s.heading == "Version 1.1" and (s.line_start, s.line_end) == (1, 6)


def test_duplicate_headings_of_one_version_are_merged():
    text = "## 2.0.0\n\n- a\n\n## 1.0.0\n\n- b\n\n## 2.0\n\n- c\n"
    secs = parse_sections(text, "C.md", ecosystem="npm")
    assert [s.version for s in secs] == ["2.0.0", "1.0.0"]
    assert secs[0].body == "- a\n\n- c"
    assert (secs[0].line_start, secs[0].line_end) == (1, 11)


def test_a_shared_monorepo_changelog_gives_only_the_packages_own_headings():
    text = "## core@2.0.0\n\n- core two\n\n## cli@9.0.0\n\n- cli nine\n\n## @org/core@1.5.0\n\n- core 1.5\n"
    secs = parse_sections(text, "CHANGELOG.md", ecosystem="npm", package="@org/core")
    assert {s.version: s.body for s in secs} == {"2.0.0": "- core two", "1.5.0": "- core 1.5"}
    assert len(parse_sections(text, "CHANGELOG.md", ecosystem="npm")) == 3  # no package: all


# -- slicing ----------------------------------------------------------------------------------


def _secs(*versions: str) -> list[Section]:
    return [Section(v, f"## {v}", f"- {v}", "C.md", i, i) for i, v in enumerate(versions)]


def _sliced(eco, old, new, *versions):
    return [s.version for s in slice_range(_secs(*versions), eco, old, new)]


def test_slice_is_exclusive_of_old_inclusive_of_new_newest_first_whatever_the_order():
    assert _sliced("npm", "1.0.0", "1.3.0", "1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0") == [
        "1.3.0",
        "1.2.0",
        "1.1.0",
    ]
    assert _sliced("pip", "1.0", "3.0", "2.0", "1.0", "3.0", "2.5", "0.9") == ["3.0", "2.5", "2.0"]


def test_token_boundaries():
    assert _sliced("npm", "1.2.2", "1.2.3", "1.2.30", "11.2.3", "1.2.3") == ["1.2.3"]
    text = "## 1.2.30\n\n- thirty\n\n## 11.2.3\n\n- eleven\n\n## 1.2.3\n\n- three\n"
    assert [
        s.body
        for s in slice_range(parse_sections(text, "C.md", ecosystem="npm"), "npm", "1.2.2", "1.2.3")
    ] == ["- three"]


def test_short_versions_equal_long_ones():
    assert _sliced("npm", "1.0", "2.0", "2.0.0", "1.0.0", "1.5") == ["2.0.0", "1.5"]
    assert _sliced("pip", "1.0.0", "2", "2.0", "1.0") == ["2.0"]


def test_pre_releases_and_intermediates_are_included_in_order():
    vs = ("5.0.0", "5.0.0-beta.1", "5.0.0-alpha.2", "5.0.0-alpha.10", "4.21.0", "4.18.2")
    assert _sliced("npm", "4.18.2", "5.0.0", *vs) == [
        "5.0.0",
        "5.0.0-beta.1",
        "5.0.0-alpha.10",
        "5.0.0-alpha.2",
        "4.21.0",
    ]
    assert _sliced("pip", "1.5.3", "2.0.3", "2.0.0rc0", "2.0.3", "2.0.0", "2.0.0rc1", "1.5.3") == [
        "2.0.3",
        "2.0.0",
        "2.0.0rc1",
        "2.0.0rc0",
    ]


def test_calendar_versions_with_leading_zeros():
    vs = ("2022.09.14", "2022.06.15.2", "2022.06.15.1", "2022.06.15")
    assert _sliced("pip", "2022.6.15", "2022.9.14", *vs) == [
        "2022.09.14",
        "2022.06.15.2",
        "2022.06.15.1",
    ]
    assert _sliced("npm", "2022.6.15", "2022.9.14", "2022.09.14", "2022.06.15") == ["2022.09.14"]


_STYLES = [
    "## {v}\n\n{b}\n",
    "## [{v}](https://github.com/o/r/compare/a...b) (2023-01-02)\n\n{b}\n",
    "{v} / 2020-01-01\n{u}\n\n  * {b}\n",
    "v{v} (2021-03-04)\n{u}\n\n- {b}\n",
    "Version {v}\n{d}\n\n-   {b}\n",
    "# {v}\n\n#### {b}\n",
]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 12), st.integers(0, 12), st.integers(0, 30)),
        min_size=1,
        max_size=25,
        unique=True,
    ),
    st.integers(0, 10**6),
)
def test_slicing_any_file_matches_the_version_order(triples, seed):
    rnd = random.Random(seed)
    versions = [f"{a}.{b}.{c}" for a, b, c in triples]
    rnd.shuffle(versions)
    style = rnd.choice(_STYLES)
    parts = [
        style.format(v=v, b=f"note for <{v}>", u="=" * (len(v) + 13), d="-" * (len(v) + 8))
        for v in versions
    ]
    text = "\n".join(parts)
    lo, hi = sorted(
        rnd.sample(versions, 2) if len(versions) > 1 else versions * 2,
        key=lambda t: tuple(map(int, t.split("."))),
    )
    key = lambda t: tuple(map(int, t.split(".")))  # noqa: E731
    expected = sorted((v for v in versions if key(lo) < key(v) <= key(hi)), key=key, reverse=True)
    got = slice_range(parse_sections(text, "CHANGELOG.md", ecosystem="npm"), "npm", lo, hi)
    assert [s.version for s in got] == expected
    for s in got:
        assert f"note for <{s.version}>" in s.body
        assert all(f"note for <{o}>" not in s.body for o in versions if o != s.version)


# -- tags -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tag", "package", "expected"),
    [
        ("v1.2.3", "x", ("1.2.3", "bare")),
        ("1.2.3", "x", ("1.2.3", "bare")),
        ("x@1.2.3", "x", ("1.2.3", "package")),
        ("@scope/name@1.2.3", "@scope/name", ("1.2.3", "package")),
        ("name-v1.2.3", "name", ("1.2.3", "package")),
        ("name_1.2.3", "name", ("1.2.3", "package")),
        ("name/1.2.3", "name", ("1.2.3", "package")),
        ("release-1.2.3", "x", ("1.2.3", "generic")),
        ("other@1.2.3", "x", ("1.2.3", "other")),
        ("Flask-2.3.0", "flask", ("2.3.0", "package")),
        ("v5.0.0-alpha.2", "x", ("5.0.0-alpha.2", "bare")),
        ("2022.09.14", "certifi", ("2022.09.14", "bare")),
        ("latest", "x", None),
    ],
)
def test_tag_versions(tag, package, expected):
    assert tag_version(tag, package) == expected


def test_monorepo_tags_prefer_the_package_and_ignore_siblings():
    tags = ["v9.0.0", "core@2.0.0", "cli@3.0.0", "core@1.9.0"]
    assert pick_tags(tags, "core") == {"core@2.0.0": "2.0.0", "core@1.9.0": "1.9.0"}
    assert pick_tags(["v2.0.0", "release-1.0.0", "cli@3.0.0"], "core") == {
        "v2.0.0": "2.0.0",
        "release-1.0.0": "1.0.0",
    }
    # a repo that names all its tags its own way is a single-package repo
    assert pick_tags(["jinja-3.1.0", "jinja-3.0.3"], "Jinja2") == {
        "jinja-3.1.0": "3.1.0",
        "jinja-3.0.3": "3.0.3",
    }


# -- trimming ---------------------------------------------------------------------------------


def test_under_budget_nothing_is_trimmed():
    secs = _secs("1.0.0", "2.0.0")
    assert trim_to_budget(secs, 10_000) == (secs, None)


def test_trimming_keeps_breaking_lines_whole_with_their_continuations():
    filler = "\n".join(f"- small fix number {i} in the parser" for i in range(200))
    body = (
        f"{filler}\n"
        "-   ``method_whitelist`` was removed; use\n    ``allowed_methods`` instead, the\n    old name is gone.\n"
        "- Node 12 is no longer supported\n"
        "- Code deprecated in 2.2 is removed.\n\n    -   ``before_first_request``\n    -   ``app.env``\n\n"
        "Removed\n-------\n\n* the ``strict`` parameter\n\n"
        "Added\n-----\n\n"
        f"{filler}\n"
    )
    secs = [Section("2.0.0", "## 2.0.0", body, "C.md", 1, 500), *_secs("1.9.0")]
    out, note = trim_to_budget(secs, 2000)
    text = out[0].body
    assert len(text) + len(out[1].body) < 2000 + 600  # breaking lines may exceed a little
    for line in (
        "``method_whitelist`` was removed; use",
        "    ``allowed_methods`` instead, the",
        "    old name is gone.",
        "- Node 12 is no longer supported",
        "    -   ``before_first_request``",
        "    -   ``app.env``",
        "* the ``strict`` parameter",
    ):
        assert line in text
    assert "lines trimmed" in text
    assert "small fix number 0 in" in text  # the budget left is used for the rest, in order
    assert "small fix number 199" not in text
    assert note and "2.0.0" in note and "every line about a breaking change" in note
    assert out[1].body == "- 1.9.0"


def test_trimming_keeps_the_list_a_breaking_lead_in_introduces():
    # "We've deprecated 9 of the rules …:" and its list of bare names: the names are what a
    # later "Removed: the rules deprecated in 3.0.0" removes, so the list is kept whole
    filler = "\n".join(f"- small fix number {i} in the parser" for i in range(200))
    rules = "\n".join(f"- `rule-number-{i}`" for i in range(9))
    body = (
        f"{filler}\n\nWe've deprecated 9 of the rules that enforce stylistic conventions:\n\n"
        f"{rules}\n\nThe other rules stay:\n\n- `kept-rule-0`\n\n{filler}\n"
    )
    out, _note = trim_to_budget([Section("3.0.0", "## 3.0.0", body, "C.md", 1, 500)], 1500)
    text = out[0].body
    assert all(f"- `rule-number-{i}`" in text for i in range(9))
    assert "- `kept-rule-0`" not in text  # a lead-in that says no break keeps nothing


def test_trimming_when_even_the_breaking_lines_do_not_fit():
    body = "\n".join(f"- removed the old function_{i}()" for i in range(300))
    out, note = trim_to_budget([Section("2.0.0", "## 2.0.0", body, "C.md", 1, 300)], 1000)
    assert len(out[0].body) < 1200
    assert "- removed the old function_0()" in out[0].body
    assert note and "did not all fit" in note


def test_breaking_words_and_deprecation_helpers():
    for text in (
        "BREAKING CHANGE",
        "was removed",
        "renamed to",
        "deprecated",
        "no longer",
        "dropped",
        "migration guide",
    ):
        assert BREAKING_WORDS.search(text), text
    assert not BREAKING_WORDS.search("faster parsing of dates")
    body = "- ``a`` is deprecated; use ``b``.\n  More words.\n- Code deprecated in 2.2 is removed.\n- fix\n"
    assert deprecation_notes(body) == ["- ``a`` is deprecated; use ``b``.\n  More words."]
    later = Section("1.26.12", "", "* ``x`` is deprecated and will be removed in v2.x.", "C", 1, 2)
    now = Section(
        "2.0.0",
        "",
        "* The deprecated ``Retry`` keyword ``method_whitelist`` was removed",
        "C",
        1,
        2,
    )
    assert not removes_deprecated([later])
    assert removes_deprecated([later, now])


def test_the_trim_note_says_when_breaking_lines_were_cut():
    body = "\n".join(f"- removed the old function_{i}()" for i in range(300))
    _out, note = trim_to_budget([Section("2.0.0", "## 2.0.0", body, "C.md", 1, 300)], 1000)
    assert breaking_lines_cut(note)
    filler = "\n".join(f"- small fix number {i} in the parser" for i in range(200))
    _out, note = trim_to_budget(
        [Section("2.0.0", "## 2.0.0", f"- removed `x`\n{filler}", "C.md", 1, 9)], 1000
    )
    assert note and not breaking_lines_cut(note)


def test_a_long_range_keeps_the_majors_section_before_the_fix_releases_that_say_remove():
    # 4.24.16 … 4.0.1 each say "remove" about a style; 4.0.0 is the major: with room for 20
    # sections (budget 4,000), the major's and its pre-release's sections are among them
    fixes = [Section(f"4.{m}.{p}", f"## 4.{m}.{p}", "- Remove a redundant style.", "C.md", 1, 2)
             for m in range(24, 0, -1) for p in (2, 1)]  # fmt: skip
    major = Section("4.0.0", "## 4.0.0", "- Removed the Form.create method.", "C.md", 1, 2)
    beta = Section("4.0.0-rc.1", "## 4.0.0-rc.1", "- Remove `Mention`.", "C.md", 1, 2)
    out, note = trim_to_budget([*fixes, major, beta], 4000)
    kept = [s.version for s in out]
    assert "4.0.0" in kept and "4.0.0-rc.1" in kept
    assert kept.index("4.24.2") < kept.index("4.0.0")  # the file's order is kept
    assert note and "left out" in note and "4.1.1" in note


@pytest.mark.parametrize(
    "version, rank",
    [("4.0.0", 0), ("4.0.0-beta.2", 0), ("0.5.0", 0), ("4.1.0", 1), ("4.1.2", 2),
     ("0.5.1", 2), ("nightly", 2)],
)  # fmt: skip
def test_release_rank(version, rank):
    assert release_rank(version) == rank
