"""A removal that names nothing but the release that deprecated its items ("Removed: 76 rules
deprecated in 15.0.0") is searched for the names that release's notes deprecated."""

from __future__ import annotations

from depbot.changelogs.breaking import analyze_section
from depbot.changelogs.deprecated import fill_removed_deprecations
from depbot.changelogs.sections import version_key

GUIDE_3 = """\
### Deprecated stylistic rules

We've deprecated 3 of the rules that enforce stylistic conventions:

- `indentation`
- `string-quotes`
- `max-line-length`

### Deprecated `output` property

The `output` property of the returned object is deprecated; use `report` instead.
"""


def _fill(*sections: tuple[str, str]) -> list[list]:
    read = [(v, analyze_section(body, package="lintkit")) for v, body in sections]
    return fill_removed_deprecations(read, lambda v: version_key("npm", v))


def _terms(items: list) -> list[str]:
    return [c.symbol for it in items if it.category == "breaking" for c in it.candidates]


def test_a_removal_of_rules_deprecated_in_a_release_searches_that_releases_rules():
    filled = _fill(("4.0.0", "- Removed: 3 rules deprecated in 3.0.0."), ("3.0.0", GUIDE_3))
    # the rules only: `output` was deprecated in 3.0.0 too, but it is a property, not a rule
    assert _terms(filled[0]) == ["indentation", "string-quotes", "max-line-length"]
    kinds = {c.symbol: c.kind for it in filled[0] for c in it.candidates}
    assert kinds["string-quotes"] == "config_key"  # a kebab-case rule is a configuration key


def test_a_release_named_elsewhere_or_not_in_the_range_gives_nothing():
    assert (
        _terms(_fill(("4.0.0", "- Removed: 3 rules deprecated in 2.0.0."), ("3.0.0", GUIDE_3))[0])
        == []
    )
    # no version and no kind of thing: which deprecations it means is a guess, left alone
    assert _terms(_fill(("4.0.0", "- Removed everything deprecated."), ("3.0.0", GUIDE_3))[0]) == []


def test_without_a_version_the_earlier_releases_of_the_range_are_read_by_kind():
    filled = _fill(("4.0.0", "- Removed the deprecated rules."), ("3.0.0", GUIDE_3))
    assert _terms(filled[0]) == ["indentation", "string-quotes", "max-line-length"]
    # a later release's deprecations are not what an earlier one removed
    later = _fill(("3.0.0", GUIDE_3), ("2.0.0", "- Removed the deprecated rules."))
    assert _terms(later[1]) == []


def test_a_removal_that_names_its_items_keeps_them():
    filled = _fill(
        ("4.0.0", "- Removed: the `indentation` rule deprecated in 3.0.0."), ("3.0.0", GUIDE_3)
    )
    assert _terms(filled[0]) == ["indentation"]
