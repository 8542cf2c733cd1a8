"""The uses of a package that lack a name its release requires (``symbols.required`` through
``SymbolSearch``, kind ``required_use``), over real files."""

from __future__ import annotations

from pathlib import Path

import pytest

from depbot.core.errors import ToolError
from depbot.core.settings import Settings
from depbot.search.code import CodeSearch
from depbot.symbols.facts import SymbolQuery
from depbot.symbols.search import SymbolSearch


def _search(tmp_path: Path, files: dict[str, str]) -> SymbolSearch:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return SymbolSearch(CodeSearch(tmp_path, Settings()))


def _query(symbol: str = "BundlePlugin") -> SymbolQuery:
    return SymbolQuery("npm", "bundle-loader", symbol, kind="required_use")


CONFIG = (
    "const conf = require('./bundle-loader.conf')\n"
    "// see bundle-loader docs\n"
    "module.exports = { rules: [{ loader: 'bundle-loader', options: conf }] }\n"
)


def test_the_package_named_as_a_loader_without_the_required_name_is_a_hit(tmp_path):
    res = _search(
        tmp_path,
        {"build/webpack.config.js": CONFIG, "src/a.ts": "import x from 'bundle-loader/sub'\n"},
    ).search(_query())
    assert [(h.path, h.line, h.evidence) for h in res.hits] == [
        ("build/webpack.config.js", 3, "strong"),  # the string, not the comment or ./file
        ("src/a.ts", 1, "strong"),  # an import site
    ]
    assert "occurs nowhere" in res.note


def test_the_required_name_in_code_meets_the_requirement(tmp_path):
    files = {
        "build/webpack.config.js": CONFIG + "const { BundlePlugin } = require('bundle-loader')\n"
    }
    res = _search(tmp_path, files).search(_query())
    assert res.hits == [] and "requirement is met" in res.note


def test_the_required_name_only_in_a_comment_does_not(tmp_path):
    files = {"build/webpack.config.js": CONFIG + "// TODO add BundlePlugin\n"}
    assert len(_search(tmp_path, files).search(_query()).hits) == 1


def test_no_use_of_the_package_is_no_hit(tmp_path):
    res = _search(tmp_path, {"src/a.js": "const other = require('other')\n"}).search(_query())
    assert res.hits == [] and "does not use bundle-loader" in res.note
    with pytest.raises(ToolError):
        _search(tmp_path, {}).search(_query("new BundlePlugin()"))
