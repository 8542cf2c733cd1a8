"""The options a checkout passes a package whose new release refuses them (#27, stop 52):
the keys beside the package's name in a build configuration, or given to its module
object, outside what its options schema lists (``options_outside``), over real files."""

from __future__ import annotations

from pathlib import Path

import pytest

from depbot.core.errors import ToolError
from depbot.core.settings import Settings
from depbot.search.code import CodeSearch
from depbot.symbols.facts import SymbolQuery
from depbot.symbols.javascript import keys_at
from depbot.symbols.jsnamed import options_beside
from depbot.symbols.search import SymbolSearch


def _keys(src: str, name: str = "'pack-loader'"):
    got = options_beside(src, src.index(name))
    return got if got is None else [k for k, _ in got]


@pytest.mark.parametrize(
    ("src", "keys"),
    [
        ("rules: [{ loader: 'pack-loader', options: { modifyVars: t, sourceMap: true } }]",
         ["modifyVars", "sourceMap"]),
        ("use: [{ loader: require.resolve('pack-loader'), options: {\n  // x\n  a: 1,\n  ...b } }]",
         ["a", "..."]),
        ("plugins: [['pack-loader', { loose: true }]]", ["loose"]),
        ("use: ['style-loader', 'pack-loader', 'css-loader']", None),  # no options given
        ("use: [{ loader: 'pack-loader' }]", None),
        ("use: [{ loader: 'pack-loader', options: shared }]", []),  # built elsewhere
        ("use: [{ loader: 'pack-loader', options }]", []),
    ],
)  # fmt: skip
def test_the_options_given_beside_a_package_s_name(src: str, keys):
    assert _keys(src) == keys


def test_keys_at_gives_each_key_with_its_offset():
    src = "x = { a: 1, 'b-c': [1, 2], ...rest, d }"
    got = keys_at(src, src.index("{"))
    assert [k for k, _ in got] == ["a", "b-c", "...", "d"]
    assert [src[o] for _, o in got] == ["a", "'", ".", "d"]
    assert keys_at(src, 0) is None


CONFIG = """module.exports = {
  test: /\\.less$/,
  use: [
    { loader: 'style-loader' },
    {
      loader: 'pack-loader', // compiles
      options: { modifyVars: theme, javascriptEnabled: true, sourceMap: true }
    }
  ]
};
"""


def _search(tmp_path: Path, files: dict[str, str]) -> SymbolSearch:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return SymbolSearch(CodeSearch(tmp_path, Settings()))


def _query(arg: str) -> SymbolQuery:
    return SymbolQuery("npm", "pack-loader", "pack-loader", kind="options_outside", arg=arg)


def test_options_a_closed_schema_does_not_list_are_hits(tmp_path):
    search = _search(
        tmp_path, {"config/loaders.js": CONFIG, "index.js": "require('./config/loaders')\n"}
    )
    res = search.search(_query("only=lessOptions|sourceMap"))
    assert [(h.path, h.line, h.evidence) for h in res.hits] == [("config/loaders.js", 7, "strong")]
    assert (
        "modifyVars" in res.hits[0].why
        and "javascriptEnabled" in res.hits[0].why
        or len({h.why for h in res.hits}) == 1
    )
    assert not search.search(_query("only=modifyVars|javascriptEnabled|sourceMap")).hits
    assert [h.line for h in search.search(_query("not=sourceMap")).hits] == [7]


def test_options_given_to_the_module_object_are_checked_too(tmp_path):
    src = (
        "const Pack = require('pack-loader');\nconst opts = { b: 1 };\n"
        "module.exports = { plugins: [new Pack({ a: 1, gone: 2 }), Pack(opts)] };\n"
    )
    res = _search(tmp_path, {"webpack.config.js": src}).search(_query("only=a|b"))
    assert [(h.line, h.evidence) for h in res.hits] == [(3, "strong")]
    assert "gone" in res.hits[0].why


def test_a_query_without_its_rule_is_refused(tmp_path):
    with pytest.raises(ToolError):
        _search(tmp_path, {"a.js": "x"}).search(_query("a|b"))


def _given(search: SymbolSearch):
    query = SymbolQuery("npm", "pack-loader", "pack-loader", kind="options_given")
    return [(h.path, h.line, h.evidence) for h in search.search(query).hits]


def test_options_reshaped_reach_only_the_code_that_gives_some(tmp_path):
    # stop 54: "move less-specific options to the `lessOptions` option": a loader named bare
    # is given no options; an options object, a query string or other uses of an import are
    # each one to verify, never a confirmed break
    bare = "module.exports = { rules: [{ use: ['style-loader', 'pack-loader'] }] };\n"
    assert _given(_search(tmp_path / "a", {"webpack.config.js": bare})) == []
    assert _given(_search(tmp_path / "b", {"config/loaders.js": CONFIG})) == [
        ("config/loaders.js", 7, "weak")
    ]
    query = "module.exports = { rules: [{ use: ['pack-loader?strict'] }] };\n"
    assert _given(_search(tmp_path / "c", {"webpack.config.js": query})) == [
        ("webpack.config.js", 1, "weak")
    ]
    made = "const Pack = require('pack-loader');\nmodule.exports = [new Pack()];\n"
    assert _given(_search(tmp_path / "d", {"webpack.config.js": made})) == []
    used = "const Pack = require('pack-loader');\nPack.configure(opts);\n"
    assert _given(_search(tmp_path / "e", {"webpack.config.js": used})) == [
        ("webpack.config.js", 1, "weak")
    ]


def test_a_search_of_reshaped_options_says_what_it_lists(tmp_path):
    # the options to verify, under the kind asked for; never "options it refuses now"
    result = _search(tmp_path, {"config/loaders.js": CONFIG}).search(
        SymbolQuery("npm", "pack-loader", "pack-loader", kind="options_given")
    )
    assert result.kind == "options_given"
    assert result.note.startswith("1 place(s) that give pack-loader options to verify")
    assert "refuses" not in result.note
