"""The uses of a generic type with fewer type arguments than its new release requires
(``bare_type``, #27 stop 52), over real files."""

from __future__ import annotations

from pathlib import Path

import pytest

from depbot.core.errors import ToolError
from depbot.core.settings import Settings
from depbot.search.code import CodeSearch
from depbot.symbols.facts import SymbolQuery
from depbot.symbols.search import SymbolSearch

SRC = """import { compile, Match as M, match } from "routes";

export function matchPath(path: string, source: string): M {
  const found: M<{ id: string }> = match(source)(path);
  return found;
}
type Maybe = M | null;
const label = "M";  // a string
export const M2 = compile("/x");
"""


def _search(tmp_path: Path) -> SymbolSearch:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "match.ts").write_text(SRC)
    (tmp_path / "package.json").write_text('{"dependencies": {"routes": "6.2.0"}}')
    return SymbolSearch(CodeSearch(tmp_path, Settings()))


def test_bare_uses_in_type_positions_are_hits(tmp_path):
    res = _search(tmp_path).search(SymbolQuery("npm", "routes", "M", kind="bare_type", arg="1"))
    assert [(h.line, h.evidence) for h in res.hits] == [(3, "strong"), (7, "strong")]
    assert "without type arguments" in res.hits[0].why


def test_a_use_that_gives_enough_arguments_is_none(tmp_path):
    res = _search(tmp_path).search(SymbolQuery("npm", "routes", "M", kind="bare_type", arg="2"))
    assert [h.line for h in res.hits] == [3, 4, 7]  # line 4 gives one of two


def test_bare_type_needs_a_count(tmp_path):
    with pytest.raises(ToolError):
        _search(tmp_path).search(SymbolQuery("npm", "routes", "M", kind="bare_type", arg="x"))


def test_any_makes_every_use_as_a_type_a_hit_and_values_none(tmp_path):
    res = _search(tmp_path).search(SymbolQuery("npm", "routes", "M", kind="bare_type", arg="any"))
    assert [h.line for h in res.hits] == [3, 4, 7]  # not the string, not `M2`
    assert "value only" in res.hits[0].why
