"""Crash safety: a real ``depbot triage`` killed with SIGKILL, then ``--resume``.

The model server answers slowly (the rules planner behind the OpenAI wire format, with
latency) and each update is its own conversation, so a kill lands between verdicts. The
run is killed twice at different points and resumed each time. Nothing finished is lost
(every verdict journaled before a kill is in the final report, unchanged), nothing is
redone (the resumed runs never ask the model about a finished update) or duplicated
(one journal line and one report entry per update), and the final report equals the one
an uninterrupted run writes.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from depbot.fakes.model_server import ModelServer
from depbot.models.rules import rules_responder
from depbot.output.journal import read_journal
from tests.helpers.paths import ROOT
from tests.helpers.worlds import N_MANY as N
from tests.helpers.worlds import many_updates_world

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


def start(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.Popen[str]:
    base = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
    return subprocess.Popen(
        [sys.executable, "-m", "depbot", *args],
        env={**base, "PYTHONPATH": str(ROOT), **env},
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def journal_lines(out: Path) -> list[bytes]:
    path = out / "journal.jsonl"
    lines = path.read_bytes().split(b"\n") if path.is_file() else []
    return [x for x in lines if x.strip() and not x.startswith(b'{"journal"')]  # no header


def kill_after(proc: subprocess.Popen[str], out: Path, verdicts: int) -> None:
    """SIGKILL the process as soon as the journal holds ``verdicts`` more complete lines."""
    target = len(journal_lines(out)) + verdicts
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the run ended before the kill: {proc.stderr.read()}")  # type: ignore[union-attr]
        if len(journal_lines(out)) >= target:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
            return
        time.sleep(0.01)
    proc.kill()
    raise AssertionError("no verdict arrived in time")


def asked_about(requests: list[dict[str, Any]]) -> set[str]:
    """The packages of every conversation the model was asked about."""
    packages = set()
    for body in requests:
        if not isinstance(body, dict):  # a request the kill cut off before its body was read
            continue
        for m in body["messages"]:
            if m["role"] == "user" and "```json" in m["content"]:
                listed = json.loads(m["content"].split("```json", 1)[1].split("```", 1)[0])
                packages |= {u["package"] for u in listed}
    return packages


def test_kill_and_resume_loses_nothing_and_redoes_nothing(tmp_path):
    world = many_updates_world(tmp_path)
    week = tmp_path / "week.json"
    week.write_text(json.dumps([u.to_dict() for u in world.updates]))
    out, clean = tmp_path / "out", tmp_path / "clean"
    with world.serve() as up, ModelServer(rules_responder(), latency=0.15) as srv:
        env = {
            "DEPBOT_PYPI_URL": up.url,
            "DEPBOT_NPM_URL": f"{up.url}/npm",
            "GITHUB_API_URL": f"{up.url}/github",
            "DEPBOT_ALLOW_PRIVATE_HOSTS": "1",
            "DEPBOT_NO_CACHE": "1",
            "OPENAI_BASE_URL": srv.base_url,
            "OPENAI_API_KEY": "sk-crash-test",
            "DEPBOT_MODEL": "slow-planner",
            "DEPBOT_BATCH_SIZE": "1",  # one conversation per update: verdicts arrive one by one
            "DEPBOT_CONCURRENCY": "1",
        }
        common = ["triage", "-r", str(world.repo), "-u", str(week), "-q"]

        # first run: killed after two verdicts
        kill_after(start([*common, "-o", str(out)], env, tmp_path), out, 2)
        first = {v.update.key: v for v in read_journal(out)}
        assert 2 <= len(first) < N
        assert not (out / "report.json").exists()  # the report is written at the end only

        # second run: resumes, killed again after one more
        before = len(srv.requests)
        kill_after(start([*common, "--resume", str(out)], env, tmp_path), out, 1)
        second = {v.update.key: v for v in read_journal(out)}
        assert set(first) < set(second) and len(second) < N
        assert not asked_about(srv.requests[before:]) & {
            k.split("/")[1].split("@")[0] for k in first
        }

        # third run: resumes and finishes
        before = len(srv.requests)
        done = subprocess.run(
            [sys.executable, "-m", "depbot", *common[:-1], "--resume", str(out)],  # not -q
            env={**{k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")},
                 "PYTHONPATH": str(ROOT), **env},
            cwd=tmp_path, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert f"resuming: {len(second)} update(s) already concluded" in done.stderr
        finished_before = {k.split("/")[1].split("@")[0] for k in second}
        assert not asked_about(srv.requests[before:]) & finished_before
        assert asked_about(srv.requests[before:]) == {f"lib{i}" for i in range(N)} - finished_before

        # for comparison: the same week, never interrupted
        plain = subprocess.run(
            [sys.executable, "-m", "depbot", *common, "-o", str(clean)],
            env={**{k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")},
                 "PYTHONPATH": str(ROOT), **env},
            cwd=tmp_path, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert plain.returncode == 0, plain.stderr

    report = json.loads((out / "report.json").read_text())
    keys = [f"{u['ecosystem']}/{u['package']}@{u['to']}" for u in report["updates"]]
    assert sorted(keys) == sorted(u.key for u in world.updates)  # every update exactly once
    assert keys == [u.key for u in world.updates]  # in the order of the update list
    lines = journal_lines(out)
    journal_keys = [json.loads(x)["update"]["ecosystem"] + "/" + json.loads(x)["update"]["package"]
                    for x in lines]  # fmt: skip
    assert len(journal_keys) == len(set(journal_keys)) == N  # nothing journaled twice
    by_key = {k: u for k, u in zip(keys, report["updates"], strict=True)}
    for key, v in second.items():  # nothing finished before a kill was lost or changed
        assert by_key[key]["verdict"] == v.verdict and by_key[key]["reason"] == v.reason
    clean_report = json.loads((clean / "report.json").read_text())
    assert [(u["package"], u["verdict"], u["draft"]) for u in report["updates"]] == [
        (u["package"], u["verdict"], u["draft"]) for u in clean_report["updates"]
    ]
    assert {u["package"]: u["verdict"] for u in report["updates"]} == {
        f"lib{i}": "affected" if i % 2 == 0 else "not_affected" for i in range(N)
    }
    for u in report["updates"]:
        if u["draft"]:
            assert (out / u["draft"]).read_text() == (clean / u["draft"]).read_text()
