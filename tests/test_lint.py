"""ruff lint and format are part of the test suite, so `pytest` alone keeps the tree clean."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = [p for p in ("depbot", "tests", "tools") if (ROOT / p).exists()]


def _ruff(*args: str) -> subprocess.CompletedProcess:
    exe = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    return subprocess.run([exe, *args, *TARGETS], cwd=ROOT, capture_output=True, text=True)


def test_ruff_check():
    result = _ruff("check", "--quiet")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format():
    result = _ruff("format", "--check", "--quiet")
    assert result.returncode == 0, result.stdout + result.stderr
