"""Version parsing, ordering and update types for both ecosystems (pure values)."""

import pytest

from depbot.ecosystems import normalize_ecosystem
from depbot.records.versions import (
    in_range,
    may_break,
    parse_version,
    sort_versions,
    update_type,
)


@pytest.mark.parametrize(
    ("eco", "old", "new", "kind"),
    [
        ("pip", "1.26.18", "2.0.7", "major"),
        ("pip", "2.2.5", "2.3.3", "minor"),
        ("pip", "8.1.6", "8.1.7", "patch"),
        ("pip", "0.3", "0.4", "minor"),
        ("pip", "3.6", "3.7", "minor"),
        ("pip", "1.0.0rc1", "1.0.0", "other"),  # pre-release
        ("pip", "1.0", "1.0.1", "patch"),
        ("pip", "1!1.0", "1!2.0", "other"),  # epoch: not semver
        ("pip", "1.0+local", "1.1", "other"),  # local version
        ("pip", "2022.06.15.1", "2022.09.14", "other"),  # four numbers
        ("pip", "2022.6.15", "2022.9.14", "minor"),
        ("pip", "0.24.0.post1", "0.54.0", "minor"),  # a post-release is of its release's line
        ("pip", "2.1.0.post1", "2.4.0", "minor"),
        ("pip", "2.1.0", "2.1.0.post2", "patch"),
        ("pip", "1.0.dev1", "1.0", "other"),  # a dev release is not
        ("pip", "2.0", "1.0", "other"),  # downgrade
        ("pip", "not-a-version", "1.0", "other"),
        ("npm", "4.18.2", "5.0.0", "major"),
        ("npm", "2.0.0-beta.1", "2.0.0", "other"),
        ("npm", "1.7.4", "1.7.7", "patch"),
        ("npm", "v3.4.0", "9.0.1", "major"),
        ("npm", "1.0.0rc1", "1.0.0", "other"),  # not semver at all
    ],
)
def test_update_type(eco, old, new, kind):
    assert update_type(eco, old, new) == kind


def test_equal_forms():
    assert parse_version("pip", "1.0") == parse_version("pip", "1.0.0")
    assert parse_version("npm", "1.0") == parse_version("npm", "1.0.0")
    assert parse_version("npm", "v1.2.3") == parse_version("npm", "1.2.3")


def test_semver_prerelease_order():
    order = [
        "1.0.0-alpha",
        "1.0.0-alpha.1",
        "1.0.0-alpha.beta",
        "1.0.0-beta",
        "1.0.0-beta.2",
        "1.0.0-beta.11",
        "1.0.0-rc.1",
        "1.0.0",
    ]
    parsed = [parse_version("npm", t) for t in order]
    assert parsed == sorted(parsed)
    assert sort_versions("npm", list(reversed(order)), newest_first=False) == order


def test_pep440_order_and_epoch():
    assert parse_version("pip", "2.0.0rc1") < parse_version("pip", "2.0.0")
    assert parse_version("pip", "1!0.1") > parse_version("pip", "9.9")
    assert parse_version("pip", "1.0.post1") > parse_version("pip", "1.0")


def test_npm_rejects_pep440_only_forms():
    assert parse_version("npm", "1.0.0rc1") is None
    assert parse_version("pip", "1.0.0rc1") is not None


def test_in_range_is_exclusive_below_inclusive_above():
    assert in_range("pip", "2.0.0", "1.26.18", "2.0.7")
    assert in_range("pip", "2.0.7", "1.26.18", "2.0.7")
    assert not in_range("pip", "1.26.18", "1.26.18", "2.0.7")
    assert not in_range("pip", "2.1.0", "1.26.18", "2.0.7")
    assert in_range("npm", "5.0.0-alpha.2", "4.18.2", "5.0.0")


def test_may_break():
    assert may_break("pip", "0.3", "0.4")
    assert not may_break("pip", "1.3", "1.4")
    assert may_break("npm", "0.0.3", "0.0.4")
    assert not may_break("npm", "0.3.1", "0.3.2")
    assert may_break("pip", "1.0", "2.0")
    assert may_break("pip", "2.0.0rc1", "2.0.0")


def test_ecosystem_aliases():
    assert normalize_ecosystem("npm_and_yarn") == "npm"
    assert normalize_ecosystem("PyPI") == "pip"
    with pytest.raises(ValueError, match="unknown ecosystem 'cargo'"):
        normalize_ecosystem("cargo")


def test_comparing_across_ecosystems_is_refused():
    with pytest.raises(TypeError):
        parse_version("pip", "1.0") < parse_version("npm", "1.0.0")  # noqa: B015


@pytest.mark.parametrize(
    ("text", "release", "prerelease"),
    [
        ("1", (1, 0, 0), False),
        ("1.2", (1, 2, 0), False),
        ("1.2.3-rc.1+build.5", (1, 2, 3), True),
        ("0.0.0-0", (0, 0, 0), True),
        ("1.2.3-x-y.7.z", (1, 2, 3), True),
        ("1.2.3+b-1", (1, 2, 3), False),
    ],
)
def test_npm_versions_are_read_by_the_semver_grammar(text, release, prerelease):
    v = parse_version("npm", text)
    assert v is not None and (v.release, v.is_prerelease) == (release, prerelease)


@pytest.mark.parametrize(
    "text",
    ["01.2.3", "1.02.3", "1.2.03", "1.2.3-01", "1.2.3-", "1.2.3+", "1.2.3.4", "1.2.3-a..b",
     "1.2-rc_1", "1.2.3+b..c", "x.2.3", "1.2.3 4"],
)  # fmt: skip
def test_what_the_semver_grammar_refuses_is_not_an_npm_version(text):
    assert parse_version("npm", text) is None
