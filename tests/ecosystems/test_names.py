"""Package names: one rule (PEP 503) for every place that compares them."""

from depbot.ecosystems import canonical_name
from depbot.records.names import normalize


def test_normalize_is_pep503():
    assert normalize("Foo.Bar__baz-Q") == "foo-bar-baz-q"
    assert normalize("zope.interface") == "zope-interface"
    assert normalize(" padded ") == " padded "  # callers strip when a name may carry blanks


def test_canonical_name_lowercases_npm_names_without_pep503():
    assert canonical_name("pip", "Typing_Extensions") == "typing-extensions"
    assert canonical_name("npm", "@Scope/Lodash.Merge") == "@scope/lodash.merge"
