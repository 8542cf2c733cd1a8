"""Stages ask the update's ecosystem; none compares an ecosystem's name with a string (#25).

Outside ``depbot/ecosystems/`` no production module may hold a comparison such as
``eco == "npm"``, ``ecosystem != "pip"`` or ``eco in ("pip", "pypi")``. Two places aside:
the CLI (its choices and help text name the ecosystems for people) and ``depbot/fakes``, the
loopback stand-ins that speak each registry's own wire format (a fake PyPI, a fake npm).
"""

from __future__ import annotations

import ast
from pathlib import Path

from depbot import ecosystems
from tests.helpers.paths import ROOT

SRC = ROOT / "depbot"
ASIDE = ("ecosystems", "cli", "fakes", "demo")
# language names ("python", "javascript") are aliases too, but a stage may key on a language
LANGUAGES = frozenset(e.language for e in ecosystems.ECOSYSTEMS.values())
NAMES = frozenset(
    n for e in ecosystems.ECOSYSTEMS.values() for n in (e.name, *e.aliases) if n not in LANGUAGES
)


def _literals(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [v for elt in node.elts for v in _literals(elt)]
    return []


def name_comparisons(path: Path) -> list[str]:
    """``file:line`` of each comparison of a value with an ecosystem's name in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        ops = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)
        if any(isinstance(op, ops) for op in node.ops) and any(
            v.lower() in NAMES for side in sides for v in _literals(side)
        ):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def production_modules() -> list[Path]:
    return [
        p
        for p in sorted(SRC.rglob("*.py"))
        if p.relative_to(SRC).parts[0] not in ASIDE and "__pycache__" not in p.parts
    ]


def test_no_stage_compares_an_ecosystem_name_with_a_string() -> None:
    found = [hit for path in production_modules() for hit in name_comparisons(path)]
    assert not found, "ask the ecosystem (depbot.ecosystems.get) instead:\n" + "\n".join(found)


def test_the_check_sees_each_form_it_forbids(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        'a = eco == "npm"\nb = "pip" != eco\nc = eco in ("pip", "uv")\nd = x == "other"\n'
    )
    assert [hit.rsplit(":", 1)[1] for hit in name_comparisons_at(sample)] == ["1", "2", "3"]


def name_comparisons_at(path: Path) -> list[str]:
    """``name_comparisons`` for a file outside the checkout (its own name stands for it)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(v.lower() in NAMES for side in sides for v in _literals(side)):
                hits.append(f"{path.name}:{node.lineno}")
    return hits
