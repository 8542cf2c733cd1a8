"""No module of depbot or tools/ imports another module's ``_private`` names (#25).

A name with a leading underscore is its module's own; a second module that needs it gets
it public. ``import x as _y`` of a public name is fine.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def private_imports(path: Path, root: Path = ROOT) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("depbot"):
            out += [
                f"{path.relative_to(root)}:{node.lineno} {node.module}.{a.name}"
                for a in node.names
                if a.name.startswith("_") and not a.name.startswith("__")
            ]
    return out


def test_no_module_imports_a_private_name():
    files = [*(ROOT / "depbot").rglob("*.py"), *(ROOT / "tools").glob("*.py")]
    found = [line for f in files if "/demo/" not in f.as_posix() for line in private_imports(f)]
    assert found == []


def test_the_check_sees_a_private_import(tmp_path: Path):
    probe = tmp_path / "x.py"
    probe.write_text("from depbot.core.redact import _kit, redact\nfrom depbot import x as _x\n")
    assert private_imports(probe, tmp_path) == ["x.py:1 depbot.core.redact._kit"]
