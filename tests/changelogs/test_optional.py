"""A feature the release now leaves to an optional dependency is a break (#27): the item
names the dependency and the feature in words; a new feature that an optional library
enables is not."""

from __future__ import annotations

import pytest

from depbot.changelogs.breaking import analyze_section
from depbot.changelogs.optional import feature_words, optional_dependency_candidates


def test_the_item_gives_the_dependency_and_the_feature_s_words():
    (c,) = optional_dependency_candidates(
        "Email validation is now handled by an optional library, ``email_validator``. :pr:`429`",
        "WTForms",
    )
    assert (c.symbol, c.kind, c.arg) == ("email_validator", "optional_dependency",
                                         "Email|validation")  # fmt: skip


def test_a_section_reads_it_as_breaking_though_it_says_no_break_word():
    items = analyze_section(
        "-   Drop support for Python 3.4.\n"
        "-   Email validation is now handled by an optional library,\n"
        "    ``email_validator``. :pr:`429`\n",
        package="formkit",
    )
    (item,) = [i for i in items if i.candidates]
    assert item.category == "breaking"
    assert item.candidates[0].symbol == "email_validator"


@pytest.mark.parametrize(
    "text",
    [
        "YAML files are now supported with the optional `pyyaml` library.",  # a new feature
        "Added an optional dependency on `rich` for coloured output.",
        "Email validation is handled by an optional library, `email_validator`.",  # no change said
        "Validation is now handled by an optional library, `a_lib` or `b_lib`.",  # which one?
    ],
)
def test_no_candidate_where_nothing_the_code_had_now_needs_the_dependency(text):
    assert optional_dependency_candidates(text, "formkit") == []


def test_the_feature_is_the_subject_not_the_dependency_s_name():
    assert feature_words("Colour output now requires the optional `colorama` package.") == [
        "Colour", "output"
    ]  # fmt: skip
