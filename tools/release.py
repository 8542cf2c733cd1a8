"""Check a release and tag it: ``python tools/release.py`` (check), ``--tag`` (make the tags).

The version is written once, in ``depbot/__init__.py``. A release needs a section
``## X.Y.Z — DATE`` in CHANGELOG.md; ``--tag`` then makes the annotated tag ``vX.Y.Z`` on
HEAD and moves ``vX`` to it (``git tag -f``), and prints the push commands (this script
pushes nothing). Exit 1 with one line per problem when the check fails.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def version() -> str:
    text = (ROOT / "depbot" / "__init__.py").read_text(encoding="utf-8")
    m = re.search(r'^__version__ = "([^"]+)"', text, re.M)
    if not m:
        raise SystemExit("release: no __version__ in depbot/__init__.py")
    return m.group(1)


def problems(v: str) -> list[str]:
    found = []
    if not re.fullmatch(r"\d+\.\d+\.\d+", v):
        found.append(f"the version {v!r} is not X.Y.Z")
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    if not re.search(rf"^## {re.escape(v)} — \d{{4}}-\d{{2}}-\d{{2}}$", changelog, re.M):
        found.append(f"CHANGELOG.md has no section '## {v} — YYYY-MM-DD'")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    if re.search(r'^version\s*=\s*"', pyproject, re.M):
        found.append("pyproject.toml writes a version of its own; it must be dynamic")
    return found


def tag(v: str) -> None:
    major = f"v{v.split('.')[0]}"
    git = ["git", "-C", str(ROOT)]
    subprocess.run([*git, "tag", "-a", f"v{v}", "-m", f"depbot {v}"], check=True)
    subprocess.run([*git, "tag", "-f", "-a", major, "-m", f"depbot {v} (newest {major}.x)"],
                   check=True)  # fmt: skip
    print(f"tagged v{v} and moved {major}; push with:\n"
          f"  git push origin v{v}\n  git push -f origin {major}")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tag", action="store_true", help="make the tags vX.Y.Z and vX on HEAD")
    args = parser.parse_args(argv)
    v = version()
    found = problems(v)
    for p in found:
        print(f"release: {p}", file=sys.stderr)
    if found:
        return 1
    print(f"release {v}: ok")
    if args.tag:
        tag(v)
    return 0


if __name__ == "__main__":
    sys.exit(main())
