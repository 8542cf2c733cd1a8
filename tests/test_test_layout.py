"""No test module imports another: what several test modules share lives in ``tests/helpers/``.

A module of the ``tests`` package (a file reached through folders that all have an
``__init__.py``; the checkouts under ``tests/scenarios/`` are data, not tests) may import
from ``tests.helpers`` and from a ``conftest``, and from no other module of ``tests``: a
test module imported by another runs its imports, fixtures and collection twice, and its
pieces are found where nobody looks for shared code.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.helpers.paths import ROOT

TESTS = ROOT / "tests"
SHARED = "tests.helpers"
PENDING: frozenset[str] = frozenset()  # test modules still imported by others: none


def modules_of(tests: Path) -> dict[str, Path]:
    """Dotted name → file, for every module of the package in the folder ``tests``."""
    found = {}
    for path in sorted(tests.rglob("*.py")):
        folders = path.relative_to(tests).parents
        if all((tests / folder / "__init__.py").is_file() for folder in folders):
            parts = ["tests", *path.relative_to(tests).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imported(node: ast.AST, package: str, modules: dict[str, Path]) -> Iterator[str]:
    """The modules an import statement loads (``from M import name`` of a submodule: it)."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            base = ".".join([*parts, *([node.module] if node.module else [])])
        subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
        yield from subs or [base]


def _allowed(target: str) -> bool:
    return (
        target.split(".")[0] != "tests"
        or target in ("tests", SHARED)
        or target.startswith(SHARED + ".")
        or target.rsplit(".", 1)[-1] == "conftest"
    )


def cross_imports(tests: Path, pending: frozenset[str] = frozenset()) -> list[str]:
    """``file:line imports module`` for each import of one test module by another."""
    modules = modules_of(tests)
    found = []
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _imported(node, package, modules):
                if not _allowed(target) and target not in pending:
                    rel = path.relative_to(tests.parent).as_posix()
                    found.append(f"{rel}:{node.lineno} imports {target}")
    return found


def test_no_test_module_imports_another() -> None:
    problems = cross_imports(TESTS, PENDING)
    assert not problems, "move what they share to tests/helpers/:\n" + "\n".join(problems)


def test_the_checker_reports_imports_of_test_modules(tmp_path: Path) -> None:
    files = {
        "__init__.py": "",
        "conftest.py": "",
        "helpers/__init__.py": "",
        "helpers/shared.py": "from tests.a.test_one import X\n",  # helpers may not either
        "a/__init__.py": "",
        "a/_piece.py": "",
        "a/test_one.py": "from tests.helpers.shared import Y\nfrom tests import conftest\nX = 1\n",
        "a/test_two.py": "from tests.a.test_one import X\nfrom . import _piece\n",
        "scenarios/repo/app.py": "from tests.a import test_one\n",  # data: not read
    }
    for rel, text in files.items():
        (tmp_path / "tests" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "tests" / rel).write_text(text, encoding="utf-8")
    assert cross_imports(tmp_path / "tests") == [
        "tests/a/test_two.py:1 imports tests.a.test_one",
        "tests/a/test_two.py:2 imports tests.a._piece",
        "tests/helpers/shared.py:1 imports tests.a.test_one",
    ]
