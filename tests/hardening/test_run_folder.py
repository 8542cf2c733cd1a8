"""One run per output folder (issue #18): a run's own journal, a fingerprint ``--resume``
checks, a lock against a second run, and nothing of an older run left beside a new one."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from depbot.cli.main import cli
from depbot.fakes.model_server import ModelServer
from depbot.models.rules import RulesModel, rules_responder
from depbot.output.journal import read_header, read_journal
from depbot.output.runfolder import checkout_state, move_previous
from depbot.output.runlock import FolderInUse, FolderLock
from depbot.pipeline import triage
from tests.helpers.paths import ROOT
from tests.helpers.worlds import World, settings_for, two_package_world


def _env(up) -> dict[str, str]:
    return {
        "DEPBOT_PYPI_URL": up.url,
        "DEPBOT_NPM_URL": f"{up.url}/npm",
        "GITHUB_API_URL": f"{up.url}/github",
        "DEPBOT_ALLOW_PRIVATE_HOSTS": "1",
        "DEPBOT_NO_CACHE": "1",
    }


def _week(tmp_path: Path, world: World) -> Path:
    week = tmp_path / "week.json"
    week.write_text(json.dumps([u.to_dict() for u in world.updates]))
    return week


def _cli(args: list[str], env: dict[str, str]):
    return CliRunner().invoke(cli, args, env=env)


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=repo, check=True, capture_output=True,
    )  # fmt: skip


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


# --- item 1: each run its own journal, trace, report and drafts ------------------------------


def test_a_fresh_run_moves_the_older_run_to_previous(tmp_path):
    world = two_package_world(tmp_path)
    out = tmp_path / "out"
    with world.serve() as up:
        settings = settings_for(up)
        first = triage(settings, repo=world.repo, updates=world.updates, model=RulesModel(),
                       out_dir=out)  # fmt: skip
        first_run = read_header(out)["run"]
        triage(settings, repo=world.repo, updates=world.updates[:1], model=RulesModel(),
               out_dir=out)  # fmt: skip
    header = read_header(out)
    assert header["run"] != first_run and header["journal"] == 1
    assert set(header["fingerprint"]) >= {"checkout", "updates", "model", "settings"}
    journal = _lines(out / "journal.jsonl")
    assert len(journal) == 2 and "update" in journal[1]  # its header and its one verdict
    assert [v.update.package for v in read_journal(out)] == ["oldlib"]
    runs = [r for r in _lines(out / "trace.jsonl") if r["type"] == "run_start"]
    assert [r["run_id"] for r in runs] == [header["run"]]  # trace show never mixes runs
    assert len(json.loads((out / "report.json").read_text())["updates"]) == 1
    prev = out / "previous"
    assert read_header(prev)["run"] == first_run
    assert sorted(p.name for p in prev.iterdir()) == [
        "drafts", "journal.jsonl", "report.json", "trace.jsonl"
    ]  # fmt: skip
    assert len(json.loads((prev / "report.json").read_text())["updates"]) == 2
    assert first.drafts == ["drafts/pip-oldlib-2.0.0.md"] and (prev / first.drafts[0]).is_file()


def test_previous_is_replaced_a_cut_off_move_finished_and_review_state_carried(tmp_path):
    out = tmp_path / "out"
    (out / "previous").mkdir(parents=True)
    (out / "previous" / "report.json").write_text("oldest")
    (out / "drafts").mkdir()
    (out / "drafts" / "pip-a-2.0.0.md").write_text("draft")
    (out / "drafts" / "review.json").write_text('{"schema": 1, "drafts": {}}')
    (out / "report.json").write_text("older")
    (out / "notes.txt").write_text("not depbot's")  # only a run's own files are moved
    assert move_previous(out) == ["report.json", "drafts"]
    assert (out / "previous" / "report.json").read_text() == "older"
    assert sorted(p.name for p in (out / "previous").iterdir()) == ["drafts", "report.json"]
    assert sorted(p.name for p in (out / "drafts").iterdir()) == ["review.json"]  # approvals
    assert (out / "notes.txt").is_file()
    # a move killed halfway (previous/.moving still there) is finished, not thrown away
    (out / "previous" / ".moving").touch()
    (out / "trace.jsonl").write_text("{}\n")
    (out / "drafts" / "review.json").unlink()
    assert move_previous(out) == ["trace.jsonl", "drafts"]
    assert sorted(p.name for p in (out / "previous").iterdir()) == [
        "drafts", "report.json", "trace.jsonl"
    ]  # fmt: skip


def test_resume_refuses_the_journal_of_another_checkout(tmp_path):
    world = two_package_world(tmp_path)
    _git(world.repo, "init", "-q")
    _git(world.repo, "add", ".")
    _git(world.repo, "commit", "-qm", "one")
    week, out = _week(tmp_path, world), world.repo / "depbot-out"  # the default: inside the repo
    with world.serve() as up:
        env = _env(up)
        base = ["triage", "-r", str(world.repo), "-u", str(week), "-q"]
        assert _cli([*base, "-o", str(out)], env).exit_code == 0
        again = _cli([*base, "--resume", str(out)], env)  # same inputs: resumes
        assert again.exit_code == 0, again.output
        old = subprocess.run(["git", "rev-parse", "HEAD"], cwd=world.repo, capture_output=True,
                             text=True).stdout.strip()  # fmt: skip
        (world.repo / "app" / "main.py").write_text("import oldlib\n\n\ndef run():\n    pass\n")
        _git(world.repo, "commit", "-qam", "two")
        new = subprocess.run(["git", "rev-parse", "HEAD"], cwd=world.repo, capture_output=True,
                             text=True).stdout.strip()  # fmt: skip
        before = (out / "journal.jsonl").read_bytes()
        refused = _cli([*base, "--resume", str(out)], env)
    assert refused.exit_code == 2
    assert refused.output.strip().splitlines() == [
        f"depbot: --resume: the journal in {out} is of another run (checkout changed: "
        f"{old[:7]} → {new[:7]}); run without --resume to start afresh"
    ]
    assert (out / "journal.jsonl").read_bytes() == before  # nothing touched


def test_the_checkout_state_sees_uncommitted_edits_but_not_the_output_folder(tmp_path):
    repo = tmp_path / "repo"
    (repo / "app").mkdir(parents=True)
    (repo / "app" / "a.py").write_text("x = 1\n")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "one")
    out = repo / "depbot-out"
    clean, shown = checkout_state(repo, out)
    (out / "drafts").mkdir(parents=True)
    (out / "journal.jsonl").write_text("{}\n")
    assert checkout_state(repo, out) == (clean, shown) and "+" not in shown
    (repo / "app" / "a.py").write_text("x = 2\n")
    one = checkout_state(repo, out)
    (repo / "app" / "a.py").write_text("x = 3\n")  # still "M app/a.py": its content counts
    two = checkout_state(repo, out)
    assert len({clean, one[0], two[0]}) == 3
    assert one[1].startswith(shown + "+") and one[1] != two[1]


def test_resume_refuses_another_update_list_and_model_but_reads_an_old_journal(tmp_path):
    world = two_package_world(tmp_path)  # not a git checkout: its files' sizes and times
    out = tmp_path / "out"
    with world.serve() as up:
        settings = settings_for(up)
        triage(settings, repo=world.repo, updates=world.updates, model=RulesModel(), out_dir=out)
        from depbot.core.errors import InputError

        with pytest.raises(InputError, match=r"another run \(update list changed"):
            triage(settings, repo=world.repo, updates=world.updates[:1], model=RulesModel(),
                   out_dir=out, resume=True)  # fmt: skip
        (world.repo / "app" / "main.py").write_text("import oldlib\n")
        with pytest.raises(InputError, match=r"another run \(checkout changed: files:"):
            triage(settings, repo=world.repo, updates=world.updates, model=RulesModel(),
                   out_dir=out, resume=True)  # fmt: skip
        # a journal of an older depbot (no header): resumed, with a warning
        lines = (out / "journal.jsonl").read_text().splitlines(keepends=True)
        (out / "journal.jsonl").write_text("".join(lines[1:]))
        said: list[str] = []
        again = triage(settings, repo=world.repo, updates=world.updates, model=RulesModel(),
                       out_dir=out, resume=True, progress=said.append, services=object())  # fmt: skip
    assert [v.verdict for v in again.verdicts] == ["affected", "not_affected"]
    assert any("no run header" in str(s) for s in said)


# --- item 2: a lock on the output folder ------------------------------------------------------


def test_a_second_run_into_a_folder_in_use_exits_at_once(tmp_path):
    world = two_package_world(tmp_path)
    week, out = _week(tmp_path, world), tmp_path / "out"
    with FolderLock(out, command="triage"):
        with pytest.raises(FolderInUse):
            FolderLock(out).acquire()
        with world.serve() as up:
            started = time.monotonic()
            busy = _cli(["triage", "-r", str(world.repo), "-u", str(week), "-o", str(out)],
                        _env(up))  # fmt: skip
        assert time.monotonic() - started < 1
    assert busy.exit_code == 2
    (line,) = busy.output.strip().splitlines()
    assert line.startswith(f"depbot: {out} is in use by another depbot run (pid {os.getpid()} on ")
    assert line.endswith("); wait for it or use another --out")
    assert not (out / "journal.jsonl").exists() and not (out / ".depbot.lock").exists()


def test_a_stale_lock_is_taken_over_with_a_notice(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()  # fmt: skip
    (out / ".depbot.lock").write_text(json.dumps(
        {"pid": int(dead), "host": socket.gethostname(), "started": "2026-12-01T22:10:03+00:00",
         "command": "triage"}
    ))  # fmt: skip
    said: list[str] = []
    with FolderLock(out, notice=said.append) as lock:
        assert json.loads((out / ".depbot.lock").read_text())["pid"] == os.getpid()
        assert lock.held
    assert said == [f"{out}: took over a stale lock (pid {dead} on {socket.gethostname()}, "
                    "started 22:10:03, no longer running)"]  # fmt: skip
    assert not (out / ".depbot.lock").exists()


# --- item 3: a run killed midway leaves nothing of the older run beside its journal ------------


def test_a_killed_run_leaves_no_older_report_or_drafts_beside_its_journal(tmp_path):
    world = two_package_world(tmp_path)
    week, out = _week(tmp_path, world), tmp_path / "out"
    with world.serve() as up, ModelServer(rules_responder(), latency=1.0) as srv:
        env = _env(up)
        assert _cli(["triage", "-r", str(world.repo), "-u", str(week), "-o", str(out), "-q"],
                    env).exit_code == 0  # fmt: skip
        older = read_header(out)["run"]
        assert (out / "report.json").is_file() and list((out / "drafts").glob("*.md"))
        keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
        proc = subprocess.Popen(
            [sys.executable, "-m", "depbot", "triage", "-r", str(world.repo), "-u", str(week),
             "-o", str(out), "-q"],
            env={**keep, **env, "PYTHONPATH": str(ROOT), "OPENAI_BASE_URL": srv.base_url,
                 "OPENAI_API_KEY": "sk-kill-test", "DEPBOT_MODEL": "slow-planner"},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 10
            while (read_header(out) or {}).get("run") in (None, older):
                assert proc.poll() is None and time.monotonic() < deadline
                time.sleep(0.01)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
    assert not (out / "report.json").exists()
    assert not list(out.glob("drafts/*.md"))
    assert read_header(out / "previous")["run"] == older
    assert (out / "previous" / "report.json").is_file()
