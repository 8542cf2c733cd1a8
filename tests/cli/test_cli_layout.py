"""The command modules: one per concept, ``cli/main.py`` only builds the group, short functions."""

from __future__ import annotations

import ast

from depbot.cli.main import cli
from tests.helpers.paths import ROOT

CLI = ROOT / "depbot" / "cli"
MAX_FUNCTION_LINES = 80


def test_main_only_builds_the_group_and_adds_the_commands():
    defined_in_main = sorted(
        name for name, cmd in cli.commands.items() if cmd.callback.__module__ == "depbot.cli.main"
    )
    assert defined_in_main == []


def test_no_function_of_the_cli_is_longer_than_the_limit():
    long = []
    for path in sorted(CLI.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{path.name}:{node.lineno} {node.name}: {lines} lines")
    assert long == []
