"""The GitHub Actions trial (#31): ``python tools/actions_trial.py [--mirror-root DIR]``.

Runs ``depbot updates`` and ``depbot triage`` on the workflows of three public repositories
at a pinned commit each (snapshots brought with the session's fetch tool: bare git folders
at ``<DIR>/<owner>+<name>/repo``), with the actions they use served from the fixtures in
``tests/fixtures/actions/`` (the loopback fake of GitHub: tags, releases and each tag's
``action.yml``; GitHub itself is not reachable here). Only the ``.github/`` folder of each
commit is taken. Prints what ``updates`` lists and each update's verdict and reason from
report.json. Nothing here runs in the test suite; run it by hand.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from depbot.fakes.upstream import FakeUpstream  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "actions"
TRIALS = (  # repository, commit: each one's workflows use actions some majors behind
    ("pallets/flask", "3812a52e96d8dd0630eb3263485bce6da5cda07c"),
    ("psf/requests", "ec78348c4b6292b1a38008fa31e51f7b6b2252dc"),
    ("encode/httpx", "b40c04dfa604db0a5f9b48c12268c0a0c63c71d2"),
)


def checkout(mirror: Path, commit: str, dest: Path) -> None:
    """The ``.github/`` folder of ``commit`` (and nothing else) into ``dest``."""
    done = subprocess.run(["git", "--git-dir", str(mirror), "archive", commit, ".github"],
                          capture_output=True, check=True)  # fmt: skip
    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as tar:
        tar.extractall(dest, filter="data")


def depbot(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "depbot", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True)  # fmt: skip


def trial(repo: str, commit: str, mirror_root: Path, work: Path, env: dict[str, str]) -> int:
    mirror = mirror_root / repo.replace("/", "+") / "repo"
    if (mirror / ".git").is_dir():  # a snapshot with a work tree
        mirror = mirror / ".git"
    if not mirror.is_dir():
        print(f"{repo}: no mirror at {mirror} (get it with the fetch tool: github:{repo})")
        return 1
    dest = work / repo.replace("/", "+")
    checkout(mirror, commit, dest)
    print(f"\n=== {repo} @ {commit[:12]} ===")
    listed = depbot(["updates", "-C", str(dest)], env)
    print(f"$ depbot updates -C {dest.name}   (exit {listed.returncode})")
    print(listed.stdout.rstrip() or listed.stderr.rstrip())
    out = work / f"{dest.name}-out"
    done = depbot(["triage", "-C", str(dest), "-o", str(out), "-q", "--fail-on", "never"], env)
    print(f"$ depbot triage -C {dest.name} -o {out.name}   (exit {done.returncode})")
    report = out / "report.json"
    if not report.is_file():
        print(done.stderr.strip()[-800:])
        return 1
    for u in json.loads(report.read_text(encoding="utf-8"))["updates"]:
        hits = ", ".join(f"{h['path']}:{h['line']}" for h in u.get("hits") or [])
        draft = f" draft {u['draft']}" if u.get("draft") else ""
        where = f" [{hits}]" if hits else ""
        print(f"- {u['package']} {u['from']} -> {u['to']}: {u['verdict']}{where}{draft}")
        print(f"    {u['reason'][:400]}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirror-root", type=Path, default=Path("/work/.mirror"), metavar="DIR",
                    help="the snapshots: DIR/<owner>+<name>/repo (default: %(default)s)")  # fmt: skip
    ap.add_argument("--keep", type=Path, metavar="DIR", help="work in DIR and keep it")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        upstream = Path(tmp) / "upstream"
        upstream.mkdir()
        (upstream / "github_actions").symlink_to(FIXTURES, target_is_directory=True)
        with FakeUpstream(upstream) as up:
            over = up.settings_overrides()
            env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_TOKEN", "GH_TOKEN")}
            env.update({
                "GITHUB_API_URL": over["github_api_url"], "DEPBOT_RAW_URL": over["raw_url"],
                "DEPBOT_PYPI_URL": over["pypi_url"], "DEPBOT_NPM_URL": over["npm_url"],
                "DEPBOT_ALLOW_PRIVATE_HOSTS": "1", "DEPBOT_NO_CACHE": "1",
            })  # fmt: skip
            print(f"actions served from {FIXTURES.relative_to(ROOT)} at {up.url} (loopback)")
            failed = sum(trial(r, c, args.mirror_root, work, env) for r, c in TRIALS)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
