"""#28 item 4: a disk that fills up while ``depbot triage`` writes its output folder.

A real full disk: a small tmpfs mounted in a user and mount namespace of its own
(``unshare``), partly taken by a filler file so that the run runs out of room at a
different point each time (the journal's header, the trace, the drafts, report.json).
Each run must end in one line naming the folder and the cause, exit 1, no traceback;
once the filler is removed, ``--resume`` finishes the week with every update reported once.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT
from tests.helpers.worlds import N_MANY as N
from tests.helpers.worlds import many_updates_world

SIZE_KB = 512


def _can_mount() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
         "mount -t tmpfs -o size=64k tmpfs /mnt 2>/dev/null || mount -t tmpfs -o size=64k tmpfs /tmp"],
        capture_output=True,
    )  # fmt: skip
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(not _can_mount(), reason="needs unshare and a tmpfs mount")

SCRIPT = """
set -u
mount -t tmpfs -o size={size}k tmpfs "$DISK"
head -c {filler} /dev/zero > "$DISK/filler" 2>/dev/null
"$PY" -m depbot triage -r "$REPO" -u "$WEEK" -o "$DISK/out" -q >"$LOG/first.out" 2>"$LOG/first.err"
echo $? > "$LOG/first.rc"
cp -a "$DISK/out" "$LOG/after-first" 2>/dev/null
rm -f "$DISK/filler"
"$PY" -m depbot triage -r "$REPO" -u "$WEEK" --resume "$DISK/out" -q >"$LOG/second.out" 2>"$LOG/second.err"
echo $? > "$LOG/second.rc"
cp -a "$DISK/out" "$LOG/final"
"""


@pytest.mark.parametrize("free_kb", [0, 40, 72])
def test_a_full_disk_says_one_line_and_resume_finishes(tmp_path: Path, free_kb: int) -> None:
    world = many_updates_world(tmp_path)
    week = tmp_path / "week.json"
    week.write_text(json.dumps([u.to_dict() for u in world.updates]))
    disk, log = tmp_path / "disk", tmp_path / "log"
    disk.mkdir()
    log.mkdir()
    with world.serve() as up:
        env = {
            **{k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")},
            "PYTHONPATH": str(ROOT),
            "DEPBOT_PYPI_URL": up.url,
            "GITHUB_API_URL": f"{up.url}/github",
            "DEPBOT_ALLOW_PRIVATE_HOSTS": "1",
            "DEPBOT_NO_CACHE": "1",
            "DEPBOT_MODEL": "rules",
            "DISK": str(disk), "LOG": str(log), "PY": sys.executable,
            "REPO": str(world.repo), "WEEK": str(week),
        }  # fmt: skip
        script = SCRIPT.format(size=SIZE_KB, filler=(SIZE_KB - free_kb) * 1024)
        subprocess.run(
            ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script],
            env=env, timeout=240, check=True,
        )  # fmt: skip
    first_err = (log / "first.err").read_text()
    assert (log / "first.rc").read_text().strip() == "1", first_err
    assert "Traceback" not in first_err
    lines = [line for line in first_err.splitlines() if line.strip()]
    assert len(lines) == 1, first_err
    assert lines[0].startswith("depbot: error: could not write in ")
    assert str(disk / "out") in lines[0] and "No space left on device" in lines[0]
    assert f"--resume {disk / 'out'}" in lines[0]

    second_err = (log / "second.err").read_text()
    assert (log / "second.rc").read_text().strip() == "0", second_err
    report = json.loads((log / "final" / "report.json").read_text())
    keys = [f"{u['ecosystem']}/{u['package']}@{u['to']}" for u in report["updates"]]
    assert keys == [u.key for u in world.updates]  # every update once, in order
    assert {u["package"]: u["verdict"] for u in report["updates"]} == {
        f"lib{i}": "affected" if i % 2 == 0 else "not_affected" for i in range(N)
    }
