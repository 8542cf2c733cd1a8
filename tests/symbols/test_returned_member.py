"""A member removed from what a function returns (``returned_member``): the reads of it on
the function's results, destructured or through a variable, are uses; a local of the same
name is not."""

from __future__ import annotations

from depbot.changelogs.breaking import analyze_section
from depbot.core.settings import Settings
from depbot.search.code import CodeSearch
from depbot.symbols.facts import SymbolQuery
from depbot.symbols.search import SymbolSearch
from tests.helpers.worlds import write_tree


def test_a_member_read_on_what_a_function_returns_is_found_destructured_or_through_a_variable(
    tmp_path,
):
    write_tree(tmp_path, {
        "package.json": '{"dependencies": {"querykit": "^4.0.0"}}\n',
        "src/a.js": "import { useQuery } from 'querykit';\n"
                    "const { data, remove } = useQuery({ key: 1 });\n",
        "src/b.js": "import { useQuery } from 'querykit';\nconst q = useQuery({ key: 2 });\n"
                    "q.remove();\nconst remove = () => 1;\nremove();\n",
        "src/c.js": "import { useQuery } from 'querykit';\nconst { data } = useQuery({ key: 3 });\n",
    })  # fmt: skip
    query = SymbolQuery("npm", "querykit", "useQuery", "returned_member", arg="remove")
    r = SymbolSearch(CodeSearch(tmp_path, Settings())).search(query)
    assert sorted((h.path, h.line) for h in r.hits) == [("src/a.js", 2), ("src/b.js", 3)]
    assert all(h.evidence == "strong" for h in r.hits)


def test_a_removal_from_a_function_s_result_reads_as_a_returned_member_and_a_class_s_does_not():
    (item,) = analyze_section("- The `remove` method has been removed from useQuery")
    assert [(c.symbol, c.kind, c.arg) for c in item.candidates] == [
        ("useQuery", "returned_member", "remove")
    ]
    (item,) = analyze_section("- The `save` method has been removed from Model")
    assert all(c.kind != "returned_member" for c in item.candidates)


def test_a_result_that_goes_on_is_a_weak_hit_to_verify_never_a_clear(tmp_path):
    write_tree(tmp_path, {
        "package.json": '{"dependencies": {"querykit": "^4.0.0"}}\n',
        "src/hooks.js": "import { useQuery } from 'querykit';\n"
                        "export const useNotes = () => useQuery({ key: 'notes' });\n",
        "src/Page.jsx": "import { useQuery } from 'querykit';\n"
                        "export function Page() {\n  const q = useQuery({ key: 1 });\n"
                        "  const n = q.data;\n  return <List query={q} />;\n}\n",
    })  # fmt: skip
    query = SymbolQuery("npm", "querykit", "useQuery", "returned_member", arg="remove")
    r = SymbolSearch(CodeSearch(tmp_path, Settings())).search(query)
    assert sorted((h.path, h.line, h.evidence) for h in r.hits) == [
        ("src/Page.jsx", 5, "weak"),  # handed to a component
        ("src/hooks.js", 2, "weak"),  # returned by a custom hook
    ]
