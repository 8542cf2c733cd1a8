"""A package named by string in a config object: its options sit beside the name."""

from __future__ import annotations

import pytest

from depbot.symbols.jsnamed import names, names_package


def _at(src: str, key: str) -> list[str]:
    return names(src, src.index(key))


@pytest.mark.parametrize(
    ("src", "key", "package", "named"),
    [
        ("const r = { loader: 'css-loader', options: { modules: true, localIdentName: 'x' } }",
         "localIdentName", "css-loader", True),
        ("use: [{ loader: require.resolve('css-loader'), options: { localIdentName: 'x' } }]",
         "localIdentName", "css-loader", True),
        ("module.exports = { plugins: [['babel-plugin-x', { loose: true }]] }",
         "loose", "babel-plugin-x", True),
        ("loaders: [{ loader: 'style-loader!css-loader?modules', query: { camelCase: 1 } }]",
         "camelCase", "css-loader", True),
        # the key belongs to the loader named beside it, not to one named further out
        ("use: ['css-loader', { loader: 'postcss-loader', options: { localIdentName: 1 } }]",
         "localIdentName", "css-loader", False),
        # an object passed to a call: the call says whose options these are
        ("makeLoader('css-loader', { localIdentName: 1 })", "localIdentName", "css-loader", False),
        # a key as a string is a key, not a name
        ("const r = { 'css-loader': 1, options: { localIdentName: 1 } }",
         "localIdentName", "css-loader", False),
        # a longer package whose name starts the same is another package
        ("const r = { loader: 'css-loader-plus', options: { localIdentName: 1 } }",
         "localIdentName", "css-loader", False),
    ],
)  # fmt: skip
def test_options_beside_a_string_naming_the_package(src, key, package, named):
    assert names_package(_at(src, key), package) is named


def test_a_comment_naming_the_package_names_nothing():
    src = "const r = {\n  // loader: 'css-loader'\n  options: { localIdentName: 1 },\n}"
    assert _at(src, "localIdentName") == []
