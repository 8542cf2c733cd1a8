"""``string_value``: the string literals that pass a value the release no longer accepts."""

from __future__ import annotations

from pathlib import Path

import pytest

from depbot.core.errors import ToolError
from depbot.core.settings import Settings
from depbot.search.code import CodeSearch
from depbot.symbols.facts import SymbolQuery
from depbot.symbols.search import SymbolSearch
from depbot.symbols.values import distinctive

SRC = """export const charts = [
  { type: "horizontalBar", data: [] },  // was "bar"
  { type: 'horizontalBarStacked' },
  { label: `horizontalBar` },
  { type: "bar" },
];
// { type: "horizontalBar" } in a comment
"""


def _search(tmp_path: Path) -> SymbolSearch:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "charts.js").write_text(SRC)
    (tmp_path / "package.json").write_text('{"dependencies": {"chartkit": "2.9.0"}}')
    return SymbolSearch(CodeSearch(tmp_path, Settings()))


def test_each_whole_literal_is_a_use_and_a_distinctive_value_a_strong_one(tmp_path):
    res = _search(tmp_path).search(
        SymbolQuery("npm", "chartkit", "horizontalBar", kind="string_value")
    )
    assert [(h.line, h.evidence, h.context) for h in res.hits] == [
        (2, "strong", "code"), (4, "strong", "code")
    ]  # fmt: skip
    assert res.excluded == {"a comment": 1}


def test_a_plain_word_is_weak_and_a_non_value_is_refused(tmp_path):
    search = _search(tmp_path)
    res = search.search(SymbolQuery("npm", "chartkit", "bar", kind="string_value"))
    assert [(h.line, h.evidence) for h in res.hits] == [(5, "weak")]
    with pytest.raises(ToolError):
        search.search(SymbolQuery("npm", "chartkit", "a b", kind="string_value"))
    assert distinctive("ip-address") and distinctive("horizontalBar")
    assert not distinctive("bar") and not distinctive("legacy")


def test_a_config_id_with_a_slash_or_a_scope_is_a_value_to_look_for(tmp_path):
    # `extends: ["prettier/@typescript-eslint"]` in .eslintrc.js: a shareable config's path
    (tmp_path / ".eslintrc.js").write_text(
        'module.exports = {\n  extends: [\n    "prettier",\n    "prettier/@typescript-eslint",\n'
        '    // "prettier/react",\n  ],\n}\n'
    )
    search = SymbolSearch(CodeSearch(tmp_path, Settings()))
    res = search.search(
        SymbolQuery("npm", "eslint-config-x", "prettier/@typescript-eslint", kind="string_value")
    )
    assert [(h.path, h.line, h.evidence) for h in res.hits] == [(".eslintrc.js", 4, "strong")]
    react = search.search(
        SymbolQuery("npm", "eslint-config-x", "prettier/react", kind="string_value")
    )
    assert react.hits == [] and react.excluded == {"a comment": 1}
