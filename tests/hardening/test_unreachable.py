"""End to end: `depbot triage` with a GitHub API that accepts connections and never answers.

The registry is a ``FakeUpstream`` on 127.0.0.1; GitHub is a listening socket on 127.0.0.1
that accepts and stays silent. With 0.5 s timeouts the breaker marks GitHub down after its
third timeout (a few seconds in), says so once on stderr, and the run finishes on what the
registry holds. The subprocess is killed after 60 s at most; the run must take under 30 s.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from depbot.records.update import Update
from tests.helpers.paths import ROOT
from tests.helpers.silent import Silent
from tests.helpers.worlds import OLDLIB_CHANGES, OTHERLIB_CHANGES, World, write_tree

DESCRIPTION = (
    "# desclib\n\n## Changelog\n\n### 2.0.0\n\n- `desclib.shout()` was removed; use "
    "`desclib.say()`.\n\n### 1.0.0\n\n- First release.\n"
)


def world(tmp_path: Path) -> World:
    """oldlib 1.5.0 → 2.0.0 and otherlib 1.2.0 → 1.2.1 keep their notes on GitHub; desclib
    1.0.0 → 2.0.0 has them in its description on the package index."""
    repo, upstream = tmp_path / "repo", tmp_path / "upstream"
    write_tree(
        repo,
        {
            "requirements.txt": "oldlib==1.5.0\notherlib==1.2.0\ndesclib==1.0.0\n",
            "app/main.py": "import desclib\nimport oldlib\nimport otherlib\n\n\ndef run():\n"
            "    desclib.shout()\n    return oldlib.legacy(otherlib.VALUE)\n",
        },
    )
    write_tree(upstream / "pip" / "oldlib", {"CHANGELOG.md": OLDLIB_CHANGES})
    write_tree(upstream / "pip" / "otherlib", {"CHANGELOG.md": OTHERLIB_CHANGES})
    meta = {"repository": "https://github.com/example/desclib", "description": DESCRIPTION}
    write_tree(upstream / "pip" / "desclib", {"meta.json": json.dumps(meta)})
    updates = [
        Update("pip", "oldlib", "1.5.0", "2.0.0", manifest="requirements.txt"),
        Update("pip", "otherlib", "1.2.0", "1.2.1", manifest="requirements.txt"),
        Update("pip", "desclib", "1.0.0", "2.0.0", manifest="requirements.txt"),
    ]
    return World(repo, upstream, updates)


def test_a_silent_github_is_named_once_and_the_run_ends_in_seconds(tmp_path):
    w = world(tmp_path)
    week = tmp_path / "week.json"
    week.write_text(json.dumps([u.to_dict() for u in w.updates]))
    out = tmp_path / "out"
    base = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
    with w.serve() as up, Silent() as github:
        env = {
            **base,
            "PYTHONPATH": str(ROOT),
            "DEPBOT_NO_CACHE": "1",
            "DEPBOT_PYPI_URL": up.url,
            "DEPBOT_NPM_URL": f"{up.url}/npm",
            "GITHUB_API_URL": github.url,
            "DEPBOT_ALLOW_PRIVATE_HOSTS": "1",
            "DEPBOT_HTTP_TIMEOUT": "0.5",
            "DEPBOT_CONNECT_TIMEOUT": "0.5",
        }
        args = ["triage", "-r", str(w.repo), "-u", str(week), "-o", str(out), "-q"]
        started = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-m", "depbot", *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        seconds = time.monotonic() - started
        accepted = github.accepted
    print(f"wall time {seconds:.1f} s, exit {proc.returncode}, stderr:\n{proc.stderr}")
    assert seconds < 30, proc.stderr
    # the breaker's line, said once as GitHub goes down (the run's closing summary may name
    # the endpoint again, without the "; continuing ..." tail)
    lines = [x for x in proc.stderr.splitlines() if "unreachable: " in x and "; continuing" in x]
    assert lines == [
        f"depbot: GitHub API ({github.url}) unreachable: no answer in time; "
        "continuing with registry metadata"
    ], proc.stderr
    assert accepted == 3  # three timeouts, then no connection to GitHub at all
    report = json.loads((out / "report.json").read_text())
    verdicts = {u["package"]: u for u in report["updates"]}
    assert verdicts["oldlib"]["verdict"] == "unknown"  # a major bump whose notes are on GitHub
    assert "GitHub" in verdicts["oldlib"]["reason"]
    # a patch bump: the rules call it not_affected on the semver promise, saying why
    assert verdicts["otherlib"]["verdict"] == "not_affected"
    assert "semver" in verdicts["otherlib"]["reason"]
    # the notes in the registry's description are read without GitHub
    assert verdicts["desclib"]["verdict"] == "affected"
