"""Coverage: the releases of a range that may break, and whose notes were found (pure)."""

import pytest

from depbot.agent.coverage import breaking_releases, coverage


def test_a_major_with_only_the_later_majors_notes_misses_the_first_new_major():
    published = ["2.0.0", "2.0.1", "2.1.0", "3.0.0", "3.1.0"]
    c = coverage("pip", "1.9.0", "3.1.0", published, ["3.0.0", "3.1.0"])
    assert c.needed == ("2.0.0", "3.0.0")
    assert c.covered == ("3.0.0",)
    assert c.missing == ("2.0.0",)
    assert c.to_dict() == {"needed": ["2.0.0", "3.0.0"], "covered": ["3.0.0"], "missing": ["2.0.0"]}


def test_each_0x_minor_of_the_range_must_be_covered():
    published = ["0.8.11", "0.9.0", "0.9.1", "0.10.0"]
    c = coverage("npm", "0.8.10", "0.10.0", published, ["0.10.0", "0.9.1"])
    assert c.needed == ("0.9.0", "0.10.0")
    assert c.missing == ("0.9.0",)
    assert coverage("npm", "0.8.10", "0.10.0", published, ["0.9.0", "0.10.0"]).missing == ()


def test_a_patch_of_a_stable_version_needs_nothing_even_without_notes():
    assert coverage("pip", "1.2.3", "1.2.4", ["1.2.4"], []).needed == ()


@pytest.mark.parametrize(("frm", "to"), [("1.2.0", "1.3.0"), ("0.8.1", "0.8.2")])
def test_an_update_outside_the_semver_promise_without_any_notes_needs_to(frm, to):
    c = coverage("pip", frm, to, [to], [])
    assert c.needed == (to,) and c.missing == (to,)
    assert coverage("pip", frm, to, [to], [to]).missing == ()


def test_pep440_pre_releases_count_only_as_the_target():
    published = ["2.0.0rc1", "2.0.0", "2.1.0b1"]
    assert breaking_releases("pip", "1.4", "2.1.0b1", published) == ["2.0.0", "2.1.0b1"]
    c = coverage("pip", "1.4", "2.0.0rc1", ["2.0.0rc1"], [])
    assert c.missing == ("2.0.0rc1",)


def test_a_release_announcing_removals_is_needed_and_unknown_registry_means_just_to():
    assert breaking_releases("pip", "2.0.3", "2.1.2", ["2.1.0", "2.1.2"], ["2.1.0"]) == ["2.1.0"]
    assert coverage("pip", "1.9.0", "3.1.0", [], ["3.1.0"]).needed == ("3.1.0",)
    assert breaking_releases("pip", "2.0.0", "1.0.0", ["1.0.0"]) == []
