"""`depbot triage`'s exit status tells the truth, end to end, and its last line says which it was.

Every run goes through ``depbot triage`` (click's runner, in process) against loopback fakes
on 127.0.0.1: ``FakeUpstream`` for the registries and GitHub, ``ModelServer`` for a chat
model answering 401 in the OpenAI error shape, and a closed port for a GitHub that is down.
Each run takes a second or two; every fake stops when its ``with`` block ends.

0 verdicts from facts, 3 degraded, 4 some update unknown (``--fail-on unknown``), 5 some
update affected (``--fail-on affected``); of several, the lowest the level selects wins.
"""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from depbot.cli.main import cli
from depbot.fakes.loopback import Reply
from depbot.fakes.model_server import ModelServer
from depbot.pipeline.outcome import (
    FAIL_ON,
    RunOutcome,
    closing_line,
    exit_status,
    judge,
    no_drafts_line,
)
from depbot.records.update import Update
from depbot.records.verdict import Verdict
from tests.helpers.worlds import World, two_package_world


def triage(world: World, tmp: Path, *args: str, env: dict[str, str] | None = None, up=None):
    """``depbot triage`` on ``world``'s checkout and updates; (result, report.json)."""
    week = tmp / "week.json"
    week.write_text(json.dumps([u.to_dict() for u in world.updates]))
    out = tmp / "out"
    base = {
        "DEPBOT_NO_CACHE": "1",
        "DEPBOT_ALLOW_PRIVATE_HOSTS": "1",
        "DEPBOT_HTTP_TIMEOUT": "2",
        "DEPBOT_FAIL_ON": None,
        "GITHUB_ACTIONS": None,
        "GITHUB_STEP_SUMMARY": None,
        "OPENAI_BASE_URL": None,
        "OPENAI_API_KEY": None,
        "DEPBOT_MODEL": None,
    }
    if up is not None:
        base.update(
            DEPBOT_PYPI_URL=up.url,
            DEPBOT_NPM_URL=f"{up.url}/npm",
            GITHUB_API_URL=f"{up.url}/github",
        )
    argv = ["triage", "-r", str(world.repo), "-u", str(week), "-o", str(out), *args]
    result = CliRunner().invoke(cli, argv, env={**base, **(env or {})})
    report = (
        json.loads((out / "report.json").read_text()) if (out / "report.json").is_file() else {}
    )
    return result, report


def last_line(result) -> str:
    return result.stdout.rstrip("\n").splitlines()[-1]


def with_more(world: World, n: int) -> World:
    """``world`` plus ``n`` patch updates whose packages publish no notes anywhere."""
    extra = [Update("pip", f"quietlib{i}", "1.0.0", "1.0.1") for i in range(n)]
    return World(world.repo, world.upstream, [*world.updates, *extra], world.faults)


def closed_port() -> str:
    """An address on 127.0.0.1 nothing listens on (connections are refused at once)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


# --- end to end -------------------------------------------------------------------------------


def test_a_clean_run_exits_0_and_fail_on_affected_exits_5(tmp_path):
    world = two_package_world(tmp_path)  # oldlib affected, otherlib not
    with world.serve() as up:
        clean, report = triage(world, tmp_path, up=up)
        strict, _ = triage(world, tmp_path, "--fail-on", "affected", up=up)
        by_env, _ = triage(world, tmp_path, up=up, env={"DEPBOT_FAIL_ON": "affected"})
        unknown_level, _ = triage(world, tmp_path, "--fail-on", "unknown", up=up)
    assert clean.exit_code == 0, clean.output
    assert last_line(clean) == "2 updates: 1 affected, 1 not affected, 0 unknown — ok"
    assert report["stats"]["degraded"] is False and report["stats"]["degraded_because"] == []
    assert [u["unknown_cause"] for u in report["updates"]] == [None, None]
    assert strict.exit_code == 5 and by_env.exit_code == 5
    assert "depbot: exit status 5: some update is affected (--fail-on affected)" in strict.stderr
    assert last_line(strict).endswith("— ok")  # not degraded: the level asked for this status
    assert unknown_level.exit_code == 0  # nothing unknown: nothing --fail-on unknown fails on


def test_a_refused_model_key_is_one_line_naming_the_endpoint_and_exit_3(tmp_path):
    world = with_more(two_package_world(tmp_path), 9)  # 11 updates: two conversations
    refuse = lambda body: Reply(  # noqa: E731 - the OpenAI error shape of a wrong key
        401,
        {
            "error": {
                "message": "Incorrect API key provided: sk-wrong***",
                "type": "invalid_request_error",
                "param": None,
                "code": "invalid_api_key",
            }
        },
    )
    with world.serve() as up, ModelServer(refuse) as srv:
        model = {"OPENAI_BASE_URL": srv.base_url, "OPENAI_API_KEY": "sk-wrong-key"}
        args = ("-m", "gpt-4o-mini", "-q")
        started = time.monotonic()
        denied, report = triage(world, tmp_path, *args, up=up, env=model)
        seconds = time.monotonic() - started
        lenient, _ = triage(world, tmp_path, *args, "--fail-on", "never", up=up, env=model)
        asked = len(srv.requests)
    assert denied.exit_code == 3, denied.output
    assert seconds < 30
    expected = (
        f"depbot: model endpoint {srv.base_url} refused the key (HTTP 401): check OPENAI_API_KEY"
    )
    assert denied.stderr.splitlines().count(expected) == 1, denied.stderr
    assert "sk-wrong-key" not in denied.output
    assert last_line(denied) == (
        "11 updates: 0 affected, 0 not affected, 11 unknown (model endpoint unavailable) — degraded"
    )
    assert "drafts: none; 11 updates unknown: nothing was checked for them" in denied.stdout
    assert "no update affects this code" not in denied.stdout
    stats = report["stats"]
    assert stats["degraded"] is True and stats["exit_statuses"] == {"model_unavailable": 2}
    assert stats["degraded_because"][0] == expected.removeprefix("depbot: ")
    assert stats["unknown_causes"] == {"failure": 11, "no_facts": 0}
    assert {u["unknown_cause"] for u in report["updates"]} == {"failure"}
    assert lenient.exit_code == 0 and last_line(lenient).endswith("— degraded")
    assert 2 <= asked <= 4  # at most one refused request per conversation started, none retried


REFUSE = lambda body: Reply(401, {"error": {"message": "Incorrect API key provided: sk-w***",  # noqa: E731
                                            "type": "invalid_request_error", "code": "invalid_api_key"}})  # fmt: skip


@pytest.mark.parametrize(("concurrency", "most"), [("1", 1), ("4", 4)])
def test_a_refused_key_is_said_at_once_and_never_asked_again(tmp_path, concurrency, most):
    """The refusal comes on stderr before any verdict line; the conversations after it end
    ``model_unavailable`` without a request (those already started asked once each)."""
    world = with_more(two_package_world(tmp_path), 30)  # 32 updates: four conversations
    with world.serve() as up, ModelServer(REFUSE) as srv:
        env = {"OPENAI_BASE_URL": srv.base_url, "OPENAI_API_KEY": "sk-wrong-key",
               "DEPBOT_CONCURRENCY": concurrency}  # fmt: skip
        denied, report = triage(world, tmp_path, "-m", "gpt-4o-mini", up=up, env=env)
        asked = len(srv.requests)
    expected = (
        f"depbot: model endpoint {srv.base_url} refused the key (HTTP 401): check OPENAI_API_KEY"
    )
    lines = denied.stderr.splitlines()
    verdicts = [i for i, line in enumerate(lines) if line.startswith("depbot: [")]
    assert denied.exit_code == 3, denied.output
    assert lines.count(expected) == 1 and verdicts, denied.stderr
    assert lines.index(expected) < verdicts[0]  # said before any [n/N] verdict line
    assert 1 <= asked <= most  # concurrency 1: exactly one request in the whole run
    assert report["stats"]["exit_statuses"] == {"model_unavailable": 4}


def test_a_github_that_is_down_makes_the_run_degraded_exit_3(tmp_path):
    world = two_package_world(tmp_path)
    with world.serve() as up:
        env = {"GITHUB_API_URL": closed_port(), "DEPBOT_HTTP_TIMEOUT": "1"}
        started = time.monotonic()
        down, report = triage(world, tmp_path, "-q", up=up, env=env)
        seconds = time.monotonic() - started
    assert down.exit_code == 3, down.output
    assert seconds < 30
    assert "depbot: GitHub API unreachable: could not connect" in down.stderr.splitlines()
    assert last_line(down) == (
        "2 updates: 0 affected, 1 not affected, 1 unknown (GitHub API unreachable) — degraded"
    )
    stats = report["stats"]
    assert stats["unreachable"] == {"GitHub API": "could not connect"}
    assert stats["degraded_because"][0] == "GitHub API unreachable: could not connect"
    oldlib = report["updates"][0]
    assert (oldlib["verdict"], oldlib["unknown_cause"]) == ("unknown", "failure")


def test_an_unknown_for_want_of_notes_is_not_degraded_but_fail_on_unknown_exits_4(tmp_path):
    world = two_package_world(tmp_path)
    # a major bump of a package that publishes no notes anywhere: unknown, and nothing failed
    world.updates.append(Update("pip", "silentlib", "1.0.0", "2.0.0"))
    with world.serve() as up:
        plain, report = triage(world, tmp_path, up=up)
        strict, _ = triage(world, tmp_path, "--fail-on", "unknown", up=up)
        strictest, _ = triage(world, tmp_path, "--fail-on", "affected", up=up)
    assert plain.exit_code == 0, plain.output
    silent = report["updates"][2]
    assert (silent["verdict"], silent["unknown_cause"]) == ("unknown", "no_facts")
    assert "no release notes were found" in silent["reason"]
    assert report["stats"]["degraded"] is False
    assert report["stats"]["unknown_causes"] == {"failure": 0, "no_facts": 1}
    assert last_line(plain) == (
        "3 updates: 1 affected, 1 not affected, 1 unknown (not settled by the facts) — ok"
    )
    assert strict.exit_code == 4
    assert strictest.exit_code == 4  # unknown (4) before affected (5)


def test_a_rate_limited_changelog_is_a_failure_not_a_missing_note(tmp_path):
    world = two_package_world(tmp_path)
    # every registry read of oldlib answers 429 (Retry-After 0.05 s: the retries are quick)
    world.faults.append({"package": "oldlib", "kind": "rate_limit", "endpoint": "registry"})
    with world.serve() as up:
        result, report = triage(world, tmp_path, "-q", up=up)
    assert result.exit_code == 3, result.output
    oldlib = report["updates"][0]
    assert (oldlib["verdict"], oldlib["unknown_cause"]) == ("unknown", "failure")
    assert report["stats"]["degraded_because"] == ["1 update unknown after failures (rate limited)"]
    assert "depbot: 1 update unknown after failures (rate limited)" in result.stderr
    assert last_line(result).endswith("1 unknown (rate limited) — degraded")


def test_help_documents_every_status_and_fail_on_level():
    shown = CliRunner().invoke(cli, ["triage", "--help"])
    assert shown.exit_code == 0
    text = " ".join(shown.output.split())
    for line in (
        "0 verdicts reached from facts",
        "1 the run itself failed",
        "2 bad input",
        "3 degraded",
        "4 some update is unknown",
        "5 some update is affected",
        "[default: degraded]",
        "DEPBOT_FAIL_ON",
    ):
        assert line in text, line
    assert "[never|degraded|unknown|affected]" in text
    assert FAIL_ON == ("never", "degraded", "unknown", "affected")  # each includes the ones before


def test_a_bad_fail_on_level_is_bad_input(tmp_path):
    result = CliRunner().invoke(cli, ["triage", "-r", str(tmp_path), "--fail-on", "sometimes"])
    assert result.exit_code == 2 and "--fail-on" in result.output


# --- the pure parts -------------------------------------------------------------------------


def _v(package: str, verdict: str, **kw) -> Verdict:
    return Verdict(
        update=Update("pip", package, "1.0.0", "2.0.0"), verdict=verdict, reason="r", **kw
    )


DEGRADED = RunOutcome(total=3, affected=1, unknown=1, unknown_failed=1, because=("x",))


@pytest.mark.parametrize(
    "outcome,fail_on,code",
    [
        (RunOutcome(total=2, not_affected=2), "affected", 0),
        (RunOutcome(total=2, affected=1, not_affected=1), "degraded", 0),
        (RunOutcome(total=2, affected=1, not_affected=1), "unknown", 0),
        (RunOutcome(total=2, affected=1, not_affected=1), "affected", 5),
        (RunOutcome(total=2, affected=1, unknown=1), "unknown", 4),
        (RunOutcome(total=2, affected=1, unknown=1), "affected", 4),
        (RunOutcome(total=2, affected=1, unknown=1), "degraded", 0),
        (DEGRADED, "degraded", 3),
        (DEGRADED, "unknown", 3),
        (DEGRADED, "affected", 3),
        (DEGRADED, "never", 0),
        (RunOutcome(total=1, affected=1), "never", 0),
    ],
)
def test_exit_status_levels_and_precedence(outcome, fail_on, code):
    assert exit_status(outcome, fail_on) == code


def test_judge_tells_failures_from_missing_facts():
    verdicts = [
        _v("a", "affected"),
        _v("b", "unknown", decided_by="program"),  # its conversation ended early
        _v("c", "unknown"),  # its fetch failed
        _v("d", "unknown"),  # nothing failed: the notes say nothing
    ]
    failures = {verdicts[2].update.key: "rate limited"}
    ended = [type("C", (), {"status": "time_budget", "detail": ""})()]
    o = judge(verdicts, ended, failures=failures)
    assert (o.unknown, o.unknown_failed, o.degraded) == (3, 2, True)
    # #29: each cause with the number of updates it left unknown (1 of the 2 here)
    assert o.because == ("2 updates unknown after failures (1 rate limited; time budget spent)",)
    assert closing_line(o) == (
        "4 updates: 1 affected, 0 not affected, 3 unknown (2 after failures: 1 rate limited, "
        "time budget spent; 1 not settled by the facts) — degraded"
    )
    calm = judge([_v("d", "unknown"), _v("e", "not_affected")])
    assert not calm.degraded and exit_status(calm) == 0
    assert no_drafts_line(calm) == "drafts: none (no decided update affects this code; 1 unknown)"
    down = judge([_v("e", "not_affected")], unreachable={"npm registry": "DNS lookup failed"})
    assert down.because == ("npm registry unreachable: DNS lookup failed",)
    assert closing_line(down).endswith("0 unknown — degraded (npm registry unreachable)")
    assert no_drafts_line(down) == "drafts: none (no update affects this code)"
