"""tools/notes_removed.py: a scenario's notes out of reach, its registry and released code kept;
and what depbot says of it then (never a breaking update called safe)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.helpers.paths import ROOT

DEMO = ROOT / "depbot" / "demo"


def test_the_variant_keeps_meta_and_dist_and_nothing_else(tmp_path: Path):
    out = tmp_path / "nonotes"
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "notes_removed.py"), str(out), str(DEMO)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert done.stdout.strip() == f"1 scenario(s) copied to {out} with their notes removed"
    kept = sorted(p.name for p in (out / "demo" / "upstream").glob("*/*/*"))
    assert kept and set(kept) <= {"meta.json", "dist"}
    before = sorted(p.relative_to(DEMO).as_posix() for p in (DEMO / "repo").rglob("*"))
    after = sorted(p.relative_to(out / "demo").as_posix() for p in (out / "demo/repo").rglob("*"))
    assert before == after  # the checkout is untouched
    assert any((DEMO / "upstream").rglob("CHANGE*"))  # the source keeps its notes
