"""depbot's public face: the curated names of ``depbot/__init__.py``, held as httpx holds its own."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

import depbot
from tests.helpers.paths import ROOT

EXPECTED = [
    "__version__",
    "BreakingChange",
    "collect_updates",
    "ConfigError",
    "DepbotError",
    "Hit",
    "InputError",
    "load_update_file",
    "make_model",
    "ModelError",
    "PublishError",
    "run_eval",
    "Settings",
    "ToolError",
    "triage",
    "TriageResult",
    "Update",
    "UpstreamError",
    "Verdict",
]
MEMBERS = [name for name in EXPECTED if not name.startswith("__")]


def test_all_is_the_curated_list() -> None:
    assert depbot.__all__ == EXPECTED
    assert MEMBERS == sorted(MEMBERS, key=str.casefold)


@pytest.mark.parametrize("name", MEMBERS)
def test_every_member_resolves_to_depbot_code(name: str) -> None:
    member = getattr(depbot, name)
    module = getattr(member, "__module__", None)
    assert isinstance(module, str) and module.startswith("depbot."), (name, member)


def test_dir_lists_the_members() -> None:
    assert set(EXPECTED) <= set(dir(depbot))


def test_no_member_is_named_like_a_subpackage() -> None:
    # Importing ``depbot.<name>`` sets the attribute ``depbot.<name>`` to that module, so
    # ``from depbot import <name>`` would give the module or the member by import order.
    src = ROOT / "depbot"
    clashes = [n for n in MEMBERS if (src / n).is_dir() or (src / f"{n}.py").is_file()]
    assert not clashes, f"exported names that are also depbot subpackages: {clashes}"


def test_type_checking_imports_match_the_lazy_map() -> None:
    tree = ast.parse((ROOT / "depbot" / "__init__.py").read_text(encoding="utf-8"))
    guarded = [
        node
        for node in tree.body
        if isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
    ]
    imported = {
        alias.name: node.module
        for block in guarded
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert imported == depbot._EXPORTS
    assert sorted(depbot._EXPORTS) == sorted(MEMBERS)


# what ``import depbot`` may load of its own: the ecosystems' table, which registers each
# ecosystem's version grammar with the records before any record is made, and those records
LIGHT = ("depbot.ecosystems", "depbot.records", "depbot.core.errors", "depbot.core")


def test_import_depbot_alone_is_cheap() -> None:
    code = (
        "import sys, depbot\n"
        "heavy = ('openai', 'github', 'requests', 'click', 'griffe', 'tree_sitter', 'nodesemver')\n"
        f"light = {LIGHT!r}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy"
        " or (m.startswith('depbot.') and not m.startswith(light))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
