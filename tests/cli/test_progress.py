"""Progress while `depbot triage` works: plain lines off a terminal and in Actions, a live line
per stage (rich) on a terminal, nothing with ``-q``.

The runs are real: ``depbot triage`` (click's runner, or a subprocess whose stderr is a
pseudo-terminal) against a ``FakeUpstream`` on 127.0.0.1, a second or two each; the
subprocess is killed after 60 s at most.
"""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
import threading
from pathlib import Path

from click.testing import CliRunner
from rich.console import Console

from depbot.cli.main import cli
from depbot.cli.progress import LiveReporter, PlainReporter, Reporter, live_wanted, reporter
from depbot.models.rules import RulesModel
from depbot.pipeline.run import triage
from depbot.pipeline.watch import CONCLUDED, FETCHED, FOUND, SEARCHED, StageEvent
from tests.helpers.paths import ROOT
from tests.helpers.worlds import settings_for, two_package_world

ANSI = "\x1b["


def _week(world, tmp: Path) -> Path:
    week = tmp / "week.json"
    week.write_text(json.dumps([u.to_dict() for u in world.updates]))
    return week


def _env(up) -> dict[str, str]:
    return {
        "DEPBOT_NO_CACHE": "1",
        "DEPBOT_ALLOW_PRIVATE_HOSTS": "1",
        "DEPBOT_PYPI_URL": up.url,
        "DEPBOT_NPM_URL": f"{up.url}/npm",
        "GITHUB_API_URL": f"{up.url}/github",
    }


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_plain_lines_off_a_terminal_and_none_with_quiet(tmp_path):
    world = two_package_world(tmp_path)
    week = _week(world, tmp_path)
    args = ["triage", "-r", str(world.repo), "-u", str(week), "-o", str(tmp_path / "out")]
    with world.serve() as up:
        shown = CliRunner().invoke(cli, args, env=_env(up))
        quiet = CliRunner().invoke(cli, [*args, "-q"], env=_env(up))
    assert shown.exit_code == 0 and quiet.exit_code == 0, shown.output
    lines = shown.stderr.splitlines()
    assert ANSI not in shown.stderr and all(x.startswith("depbot: ") for x in lines)
    assert "depbot: updates found: 2" in lines
    fetched = sorted(x for x in lines if x.startswith("depbot: notes fetched "))
    assert [x.split(": ")[1] for x in fetched] == ["notes fetched 1/2", "notes fetched 2/2"]
    assert "depbot: searched 1/2: oldlib" in lines  # otherlib's notes break nothing to search
    concluded = [x for x in lines if x.startswith("depbot: [")]
    assert [x[:13] for x in concluded] == ["depbot: [1/2]", "depbot: [2/2]"]
    assert lines.index(fetched[0]) < lines.index(concluded[-1])
    assert quiet.stderr == ""
    assert quiet.stdout.rstrip().endswith("— ok")


def test_live_mode_shows_the_stage_counts_of_a_real_run(tmp_path):
    world = two_package_world(tmp_path)
    screen = io.StringIO()
    console = Console(force_terminal=True, file=screen, width=120, color_system="standard")
    with world.serve() as up, LiveReporter(console) as say:
        say(StageEvent("updates found: 2", stage=FOUND, done=2, total=2))
        result = triage(
            settings_for(up), repo=world.repo, updates=world.updates, model=RulesModel(),
            out_dir=tmp_path / "out", progress=say,
        )  # fmt: skip
    assert [v.verdict for v in result.verdicts] == ["affected", "not_affected"]
    text = screen.getvalue()
    assert ANSI in text  # drawn in place, not printed line by line
    final = text.rsplit("\r", 1)[-1] if "\r" in text else text
    for stage, count in ((FOUND, "2/2"), (FETCHED, "2/2"), (SEARCHED, "1/2"), (CONCLUDED, "2/2")):
        assert any(stage in row and count in row for row in final.splitlines()), (stage, final)
    # a line that is not a stage prints above the live lines
    assert "depbot: triaging 2 update(s) in 1 conversation(s) with model rules" in text


def test_live_mode_counts_the_registry_lookups_and_keeps_the_last_count():
    screen = io.StringIO()
    console = Console(force_terminal=True, file=screen, width=100)
    with LiveReporter(console) as say:
        for i in range(1, 41):
            say(f"[{i}/40] pip pkg{i}: ok")  # the update listing's plain lines
        for i in range(1, 4):
            say(StageEvent(f"notes fetched {i}/11: p{i}", stage=FETCHED, done=i, total=11))
    rows = screen.getvalue().split("\r")[-1].splitlines()
    assert any("registries checked" in r and "40/40" in r for r in rows), rows
    assert any("notes fetched" in r and "3/11" in r and "p3" in r for r in rows), rows
    assert "pkg7: ok" not in screen.getvalue()  # counted, not printed one by one


def test_the_reporter_is_live_only_on_a_terminal_and_never_in_actions():
    assert live_wanted(_Tty(), {}) is True
    assert live_wanted(_Tty(), {"GITHUB_ACTIONS": "true"}) is False
    assert live_wanted(io.StringIO(), {}) is False
    assert isinstance(reporter(False, stream=_Tty(), env={"GITHUB_ACTIONS": "true"}), PlainReporter)
    assert isinstance(reporter(False, stream=io.StringIO(), env={}), PlainReporter)
    quiet = reporter(True, stream=_Tty(), env={})
    assert type(quiet) is Reporter and quiet.mode == "quiet"


def _on_a_terminal(args: list[str], env: dict[str, str]) -> tuple[int, str]:
    """Run ``depbot ARGS`` with stderr on a pseudo-terminal; (exit status, what it drew)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "depbot", *args],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave, env=env,
    )  # fmt: skip
    os.close(slave)
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        reader.join(timeout=5)
        os.close(master)
    return code, b"".join(chunks).decode("utf-8", "replace")


def test_on_a_real_terminal_live_lines_and_in_actions_plain_ones(tmp_path):
    world = two_package_world(tmp_path)
    week = _week(world, tmp_path)
    keep = ("PATH", "HOME", "LANG", "TMPDIR")
    base = {k: v for k, v in os.environ.items() if k in keep}
    base.update(PYTHONPATH=str(ROOT), TERM="xterm-256color", COLUMNS="120")
    with world.serve() as up:
        env = {**base, **_env(up)}
        live = _on_a_terminal(
            ["triage", "-r", str(world.repo), "-u", str(week), "-o", str(tmp_path / "a")], env
        )
        actions = _on_a_terminal(
            ["triage", "-r", str(world.repo), "-u", str(week), "-o", str(tmp_path / "b")],
            {**env, "GITHUB_ACTIONS": "true"},
        )
    assert live[0] == 0 and actions[0] == 0, (live, actions)
    assert ANSI in live[1] and "notes fetched" in live[1] and "2/2" in live[1]
    assert ANSI not in actions[1], actions[1]
    lines = actions[1].replace("\r\n", "\n").splitlines()
    assert "depbot: updates found: 2" in lines and "depbot: searched 1/2: oldlib" in lines
