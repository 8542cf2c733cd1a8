"""GitHub Models: a ``publisher/model`` name runs there with GITHUB_TOKEN, within its limits.

Every test drives the real ``openai`` client against the loopback model server, which
speaks GitHub Models' wire format: its URL (``…/inference/chat/completions``), its 401 and
413 bodies, and its 429 with ``retry-after`` and ``x-ratelimit-type``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from depbot.agent.fit import (
    CUT_NOTE,
    PER_UPDATE_TOKENS,
    PROMPT_TOKENS,
    batch_size_for,
    estimate_tokens,
    fit_prompt,
    prompt_tokens,
)
from depbot.agent.specs import tool_specs
from depbot.cli.main import cli
from depbot.core.errors import ConfigError, ModelError
from depbot.core.settings import DEFAULT_GITHUB_MODELS_URL, Settings
from depbot.fakes.loopback import Reply
from depbot.fakes.model_server import ModelServer, openai_rate_limited, rate_limited
from depbot.models import make_model
from depbot.models.github_models import rate_limit, reset_text
from depbot.models.openai_chat import KeyRefused, OpenAIChatModel
from depbot.models.rules import RulesModel, rules_responder
from depbot.pipeline.run import triage
from depbot.records.update import Update
from tests.helpers.worlds import World, settings_for, two_package_world

MODEL = "openai/gpt-4.1-mini"
TOKEN = "ghs_loopbackActionsToken0000000000000"
HELLO = [{"role": "user", "content": "hello"}]


def first_fails(reply: Reply) -> Any:
    """The rules planner behind the wire, after one failed answer."""
    rules = rules_responder()
    seen = []

    def respond(body: dict[str, Any]) -> Any:
        seen.append(1)
        return reply if len(seen) == 1 else rules(body)

    return respond


def on_github_models(srv: ModelServer, up: Any = None, **overrides: Any) -> Settings:
    values: dict[str, Any] = dict(github_models_url=srv.github_models_url, github_token=TOKEN)
    values.update(overrides)
    return settings_for(up, **values) if up is not None else Settings(**values)


def run(tmp_path: Path, srv: ModelServer, world: World, **overrides: Any):
    with world.serve() as up:
        settings = on_github_models(srv, up, **overrides)
        model = make_model(MODEL, settings)
        return triage(
            settings, repo=world.repo, updates=world.updates, model=model, out_dir=tmp_path / "out"
        )


# --- which endpoint, which key -------------------------------------------------------------


def test_a_github_models_name_uses_the_github_models_url_and_github_token():
    with ModelServer(lambda body: {"content": "hi"}, token=TOKEN) as srv:
        model = make_model(MODEL, on_github_models(srv))
        reply = model.complete(HELLO, [])
    assert reply.message["content"] == "hi"
    (req,) = srv.server.log
    assert req.path == "/inference/chat/completions"
    assert req.headers["authorization"] == f"Bearer {TOKEN}"
    assert srv.requests[0]["model"] == MODEL
    assert model.max_input_tokens == 6000  # the free tier's default


def test_plain_names_keep_openai_settings_and_rules_stays_the_default():
    env = {"OPENAI_API_KEY": "sk-x", "GITHUB_TOKEN": TOKEN}
    plain = make_model("gpt-4o-mini", Settings.from_env(env))
    assert isinstance(plain, OpenAIChatModel) and plain.endpoint.url is None
    assert plain.max_input_tokens is None
    assert isinstance(make_model(None, Settings.from_env({})), RulesModel)
    routed = make_model(MODEL, Settings.from_env({**env, "OPENAI_BASE_URL": "http://h:1/v1"}))
    assert routed.endpoint.url == "http://h:1/v1" and not routed.endpoint.github_models
    s = Settings.from_env(
        {"DEPBOT_GITHUB_MODELS_URL": "http://127.0.0.1:9/x/", "GITHUB_TOKEN": "t"}
    )
    assert s.github_models_url == "http://127.0.0.1:9/x"
    assert Settings.from_env({}).github_models_url == DEFAULT_GITHUB_MODELS_URL
    assert make_model(MODEL, s.replace(max_input_tokens=0)).max_input_tokens is None
    assert Settings.from_env({"DEPBOT_MAX_INPUT_TOKENS": "3000"}).max_input_tokens == 3000


def test_a_missing_token_is_one_line_naming_what_to_set():
    with pytest.raises(ConfigError) as err:
        make_model(MODEL, Settings.from_env({}))
    text = str(err.value)
    assert "\n" not in text
    assert "permissions: models: read" in text and "GITHUB_TOKEN" in text
    assert DEFAULT_GITHUB_MODELS_URL in text


def test_a_wrong_token_is_refused_naming_the_endpoint():
    with ModelServer(lambda body: {"content": "hi"}, token="ghs_right") as srv:
        model = make_model(MODEL, on_github_models(srv))
        model.stderr = lambda line: None
        with pytest.raises(KeyRefused) as err:
            model.complete(HELLO, [])
        with pytest.raises(KeyRefused):  # for good: the endpoint is not asked again
            model.complete(HELLO, [])
    assert str(err.value) == (
        f"model endpoint {srv.github_models_url} refused the key (HTTP 401): check GITHUB_TOKEN "
        "and that the workflow job has `permissions: models: read`"
    )
    assert len(srv.server.log) == 1 and TOKEN not in str(err.value)


def test_a_request_over_the_input_limit_says_tokens_limit_reached():
    with ModelServer(lambda body: {"content": "hi"}, max_input_tokens=5) as srv:
        model = make_model(MODEL, on_github_models(srv))
        with pytest.raises(ModelError) as err:
            model.complete([{"role": "user", "content": "x" * 400}], [])
    text = str(err.value)
    assert not err.value.transient
    assert f"model endpoint {srv.github_models_url} refused a request as too large" in text
    assert "HTTP 413 tokens_limit_reached: Request body too large for openai/gpt-4.1-mini" in text
    assert "set DEPBOT_MAX_INPUT_TOKENS below its limit (now 6000)" in text


# --- rate limits ---------------------------------------------------------------------------


def test_a_429_whose_reset_fits_the_deadline_is_waited_for(tmp_path):
    world = two_package_world(tmp_path)
    with ModelServer(first_fails(rate_limited(1, kind="UserByMinute"))) as srv:
        started = time.monotonic()
        result = run(tmp_path, srv, world, max_seconds=60.0)
        seconds = time.monotonic() - started
    assert {v.update.package: v.verdict for v in result.verdicts} == {
        "oldlib": "affected",
        "otherlib": "not_affected",
    }
    assert not result.outcome.degraded
    assert 1.0 <= seconds < 5.0
    trace = (tmp_path / "out" / "trace.jsonl").read_text().splitlines()
    errors = [json.loads(t) for t in trace if '"model_error"' in t]
    (error,) = errors  # one 429, waited out; the next call succeeded
    assert error["error"].startswith(
        "GitHub Models rate limit reached (requests per minute); resets at "
    )
    assert error["error"].endswith(" UTC")


def test_openai_reset_headers_are_read_too():
    with ModelServer(first_fails(openai_rate_limited("20ms", "6m0s"))) as srv:
        s = Settings(openai_base_url=srv.base_url, openai_api_key="sk-x")
        model = make_model("gpt-4o-mini", s)
        with pytest.raises(ModelError) as err:
            model.complete(HELLO, [])
    assert err.value.retry_after == pytest.approx(0.02, abs=0.01)  # type: ignore[attr-defined]
    assert str(err.value).startswith(
        "the model endpoint is rate limiting (HTTP 429: requests); resets at "
    )


def test_a_429_far_beyond_the_deadline_ends_the_run_degraded_at_once(tmp_path):
    world = two_package_world(tmp_path)
    wait = 5 * 3600  # the day's requests are spent: the reset is hours away
    with ModelServer(lambda body: rate_limited(wait)) as srv:
        started = time.monotonic()
        result = run(tmp_path, srv, world, max_seconds=600.0)
        seconds = time.monotonic() - started
    assert seconds < 1.0
    assert len(srv.requests) == 1  # one 429, then no call asks before the reset
    assert all(v.verdict == "unknown" for v in result.verdicts)
    assert result.outcome.degraded
    resets = {reset_text(time.time() + wait - d) for d in (0, seconds + 1)}
    lines = [
        "GitHub Models rate limit reached (requests per day); "
        f"resets at {r}; 2 updates left unknown"
        for r in resets
    ]
    assert any(line in result.outcome.because for line in lines), result.outcome.because


def test_the_cli_says_the_rate_limit_in_one_line_and_exits_degraded(tmp_path):
    world = two_package_world(tmp_path)
    week = tmp_path / "week.json"
    week.write_text(json.dumps([u.to_dict() for u in world.updates]))
    with world.serve() as up, ModelServer(lambda body: rate_limited(7200)) as srv:
        env = {
            "DEPBOT_NO_CACHE": "1",
            "DEPBOT_ALLOW_PRIVATE_HOSTS": "1",
            "DEPBOT_PYPI_URL": up.url,
            "DEPBOT_NPM_URL": f"{up.url}/npm",
            "GITHUB_API_URL": f"{up.url}/github",
            "DEPBOT_GITHUB_MODELS_URL": srv.github_models_url,
            "GITHUB_TOKEN": TOKEN,
            "OPENAI_BASE_URL": None,
            "OPENAI_API_KEY": None,
            "GITHUB_ACTIONS": None,
            "GITHUB_STEP_SUMMARY": None,
        }
        argv = ["triage", "-r", str(world.repo), "-u", str(week), "-o", str(tmp_path / "o")]
        result = CliRunner().invoke(cli, [*argv, "-m", MODEL, "-q"], env=env)
    assert result.exit_code == 3, result.output
    said = [line for line in result.stderr.splitlines() if "rate limit reached" in line]
    assert len(said) == 1, result.stderr
    assert said[0].startswith(
        "depbot: GitHub Models rate limit reached (requests per day); resets at "
    )
    assert said[0].endswith(" UTC; 2 updates left unknown")
    assert TOKEN not in result.output


# --- the input limit ------------------------------------------------------------------------


def test_a_full_batch_fits_max_input_tokens(tmp_path):
    long_notes = (
        "# Changelog\n\n## 2.0.0\n\n- `oldlib.legacy()` was removed; use `oldlib.modern()`.\n"
    )
    long_notes += "".join(
        f"- Internal change {i}: refactored module part {i}.\n" for i in range(400)
    )
    long_notes += "\n## 1.0.0\n\n- First release.\n"
    world = two_package_world(tmp_path, oldlib_changes=long_notes)
    extra = [Update("pip", f"quietlib{i}", "1.0.0", "1.0.1") for i in range(6)]
    world = World(world.repo, world.upstream, [*world.updates, *extra], world.faults)
    # room for two updates a conversation beside the tools and the system prompt, whatever
    # their length
    limit = estimate_tokens(tool_specs()) + PROMPT_TOKENS + 2 * PER_UPDATE_TOKENS + 100
    with ModelServer(rules_responder(), max_input_tokens=limit) as srv:
        result = run(tmp_path, srv, world, max_input_tokens=limit, batch_size=8)
    firsts = [b for b in srv.requests if len(b["messages"]) == 2]  # each conversation's start
    assert len(firsts) == 4  # 8 updates, 2 a conversation
    assert max(srv.prompt_sizes) <= limit, srv.prompt_sizes
    assert len(srv.prompt_sizes) == len(srv.requests) == result.stats["turns"]
    assert result.status == "finished" and not result.outcome.degraded
    assert {v.update.package: v.verdict for v in result.verdicts}["oldlib"] == "affected"


def test_no_request_waits_past_the_run_deadline():
    with ModelServer(lambda body: {"content": "late"}, latency=0.9) as srv:
        model = make_model(MODEL, on_github_models(srv))
        assert model.client.max_retries == 0  # the client never sleeps to retry by itself
        model.set_deadline(time.monotonic() + 0.1)  # as run_batches does for the run
        started = time.monotonic()
        with pytest.raises(ModelError) as err:
            model.complete(HELLO, [])
        seconds = time.monotonic() - started
    assert str(err.value) == f"the model endpoint {srv.github_models_url} did not answer in time"
    assert seconds < 0.85  # cut at the deadline (0.5 s at least), not the 120 s model timeout


def test_every_reset_header_reads_as_a_reset_time():
    now = 1_796_083_200.0  # 2026-12-01 00:00 UTC
    day = rate_limit({"Retry-After": "86400", "x-ratelimit-type": "UserByDay"}, now=now)
    assert day.wait == 86400 and day.line("GitHub Models") == (
        "GitHub Models rate limit reached (requests per day); resets at 2026-12-02 00:00 UTC"
    )
    epoch = rate_limit({"x-ratelimit-reset": str(int(now) + 90)}, now=now)
    assert epoch.wait == 90 and reset_text(epoch.reset_at or 0) == "2026-12-01 00:02 UTC"
    date = rate_limit({"retry-after": "Tue, 01 Dec 2026 00:00:30 GMT"}, now=now)
    assert date.wait == 30
    tokens = rate_limit(
        {"x-ratelimit-remaining-tokens": "0", "x-ratelimit-reset-tokens": "1m30s"}, now=now
    )
    assert tokens.wait == 90 and tokens.kind == "tokens"
    assert rate_limit({"retry-after-ms": "250"}, now=now).wait == 0.25
    body = {"message": "Rate limit of 15 per 60s exceeded for UserByMinute. Please wait 4 s"}
    assert rate_limit({"retry-after": "4"}, body, now=now).kind == "requests per minute"
    assert rate_limit({}, now=now).wait is None  # nothing said: the loop's own backoff


def test_a_prompt_over_the_limit_is_compacted_then_cut_to_fit():
    tools = [{"type": "function", "function": {"name": "f", "parameters": {}}}]
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "s"},
        {"role": "tool", "tool_call_id": "old", "content": "o" * 8000},
        {"role": "tool", "tool_call_id": "new", "content": "n" * 8000},
    ]
    forms = {"old": '{"compacted":true}'}
    size = fit_prompt(messages, tools, 1500, forms)
    assert size == prompt_tokens(messages, tools) <= 1500
    assert messages[1]["content"] == '{"compacted":true}' and forms == {}  # answered: compact
    assert messages[2]["content"].startswith("nnn") and messages[2]["content"].endswith(CUT_NOTE)
    assert fit_prompt(messages, tools, 10, {}) > 10  # cannot fit: the loop ends the conversation
    assert batch_size_for(8, None, tools) == 8 and batch_size_for(8, 6000, tools) == 4
    assert batch_size_for(8, 100, tools) == 1


def test_an_endpoint_that_refuses_the_connection_is_named(tmp_path):
    # #29: the README says the line names the endpoint; it said only "the model endpoint"
    import socket

    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    settings = Settings(cache_dir=None, openai_base_url=url, openai_api_key="sk-x",
                        model_retries=0)  # fmt: skip
    with pytest.raises(ModelError) as err:
        OpenAIChatModel("some-model", settings).complete(HELLO, [])
    assert str(err.value) == f"could not connect to the model endpoint {url}"
