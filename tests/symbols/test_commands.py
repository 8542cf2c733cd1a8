"""A command line the release no longer runs: the checkout's scripts, CI steps, Makefiles and
strings in code that run it are uses; comments and imports of the same module are not."""

from __future__ import annotations

import pytest

from depbot.changelogs.breaking import analyze_section
from depbot.core.errors import ToolError
from depbot.core.settings import Settings
from depbot.search.code import CodeSearch
from depbot.symbols.commands import command_pattern
from depbot.symbols.facts import SymbolQuery
from depbot.symbols.search import SymbolSearch
from tests.helpers.worlds import write_tree


def _search(root, eco: str, package: str, symbol: str):
    query = SymbolQuery(eco, package, symbol, "command")
    return SymbolSearch(CodeSearch(root, Settings())).search(query)


def test_a_python_module_run_from_a_makefile_a_workflow_and_code_is_a_use(tmp_path):
    write_tree(tmp_path, {
        "requirements.txt": "webkit==2.0.1\n",
        "Makefile": "serve:\n\tpython3 -m webkit.serving --reload app:app\n",
        ".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: python -m  webkit.serving\n",
        "app/run.py": "import subprocess\nsubprocess.run('python -m webkit.serving', shell=True)\n",
        "app/views.py": "# python -m webkit.serving is how we used to run it\n"
                        "from webkit.serving import run_simple\n",
    })  # fmt: skip
    r = _search(tmp_path, "pip", "webkit", "python -m webkit.serving")
    got = sorted((h.path, h.line) for h in r.hits)
    assert got == [(".github/workflows/ci.yml", 4), ("Makefile", 2), ("app/run.py", 2)]
    assert all(h.evidence == "strong" and h.context == "code" for h in r.hits)


def test_a_package_s_subcommand_in_a_package_json_script_is_a_use_and_others_are_not(tmp_path):
    write_tree(tmp_path, {
        "package.json": '{"scripts": {"db": "dbtool --env dev migrate", "x": "dbtool migrated"},'
                        ' "dependencies": {"dbtool": "^3.0.0"}}\n',
    })  # fmt: skip
    r = _search(tmp_path, "npm", "dbtool", "dbtool migrate")
    assert [(h.path, h.line) for h in r.hits] == [("package.json", 1)]
    assert not _search(tmp_path, "npm", "dbtool", "npx dbtool seed").hits


def test_a_span_that_is_no_command_line_is_a_clear_error():
    with pytest.raises(ToolError, match="not a command line"):
        command_pattern("foo(bar)")


@pytest.mark.parametrize(
    ("text", "symbol"),
    [
        ("- Remove the ``python -m webkit.serving`` CLI.", "python -m webkit.serving"),
        ("- Removed the `dbtool migrate` command", "dbtool migrate"),
        ("- `npx dbtool init` was removed", "npx dbtool init"),
    ],
)
def test_a_removal_that_names_a_command_line_searches_for_the_lines_that_run_it(text, symbol):
    (item,) = analyze_section(text, package="dbtool")
    assert [(c.symbol, c.kind) for c in item.candidates] == [(symbol, "command")]


def test_two_words_that_do_not_start_with_the_package_s_name_are_no_command():
    (item,) = analyze_section("- Remove `other migrate`", package="dbtool")
    assert all(c.kind != "command" for c in item.candidates)
