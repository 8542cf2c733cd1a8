"""Copy scenario folders with their release notes out of reach: the notes-removed variants.

    python tools/notes_removed.py OUT SCENARIO_DIR [SCENARIO_DIR ...]

Each scenario (a folder with scenario.toml, or a folder of them, or a corpus with built/)
is copied to OUT/<name>, and under upstream/<ecosystem>/<package>/ everything but
``meta.json`` and ``dist/`` is deleted: changelog files, docs, GitHub releases. What is left
for depbot is the registry and the released code, as on a week when GitHub is unreachable.
Then ``depbot eval OUT --model rules`` scores them: a breaking update called safe is a
false-safe; ``unknown`` is counted, not hidden. (#26)
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

KEEP = {"meta.json", "dist"}


def scenarios(root: Path) -> list[Path]:
    if (root / "scenario.toml").is_file():
        return [root]
    base = root / "built" if (root / "built").is_dir() else root
    return sorted(p.parent for p in base.glob("*/scenario.toml"))


def strip_notes(case: Path) -> int:
    """Delete the notes of every upstream package of ``case``; how many entries went."""
    gone = 0
    for pkg in case.glob("upstream/*/*"):
        if pkg.name.startswith("@"):  # a scoped npm package: upstream/npm/@scope/name
            targets = [p for p in pkg.iterdir() if p.is_dir()]
        else:
            targets = [pkg]
        for target in targets:
            for entry in target.iterdir():
                if entry.name in KEEP:
                    continue
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
                gone += 1
    return gone


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for root in map(Path, argv[1:]):
        for case in scenarios(root):
            dest = out / case.name
            if dest.exists():
                shutil.rmtree(dest)
            shutil.copytree(case, dest, symlinks=True)
            strip_notes(dest)
            count += 1
    print(f"{count} scenario(s) copied to {out} with their notes removed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
