"""The fault matrix: every upstream endpoint depbot uses × every way it can fail.

Endpoints: registry metadata, the GitHub repository, repository contents and GitHub
releases (served by ``FakeUpstream`` with ``[[faults]]``-style rules narrowed to one
endpoint), the model API (the real ``openai`` client against a loopback model server)
and the GitHub issues API (``publish`` against ``tests/fake_github.py``).

Faults: 429 with and without ``Retry-After``, 500, 502, 503, a timeout, a connection
reset, a truncated body, invalid JSON, an HTML page where JSON was expected, 404, 401
and 403; each once (then the service recovers) and always.

For every cell: the run finishes and every update appears once; updates whose data
arrived get the right verdict; the others are ``unknown`` with a reason that names the
problem (a patch bump of a 1.x package is ``not_affected`` on the semver promise, and
says so); nothing that may break is ever called ``not_affected``; the trace records
what happened (``http_retry`` for each retried request, the tool result naming the
failure, ``model_error`` for the model API); nothing crashes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from depbot.agent.loop import RATE_LIMIT_WAITS
from depbot.core.errors import PublishError
from depbot.fakes.loopback import Reply
from depbot.fakes.model_server import ModelServer, completion
from depbot.models.openai_chat import OpenAIChatModel
from depbot.models.rules import RulesModel, rules_responder
from depbot.output.draft_files import write_drafts
from depbot.output.publish import publish
from depbot.output.review import approve
from depbot.pipeline.run import triage
from depbot.records.update import Update
from tests.helpers.fake_github import FakeGitHub
from tests.helpers.samples import simple_verdict, urllib3_verdict
from tests.helpers.settings import loopback_settings
from tests.helpers.worlds import OLDLIB_CHANGES, OTHERLIB_CHANGES, World, settings_for, write_tree

# -- the world: three updates, each needing a different endpoint ------------------------------

WIDGETKIT_RELEASES = [
    {
        "tag_name": "v4.0.0",
        "name": "4.0.0",
        "body": "## Breaking changes\n\n- `makeWidget()` was removed; use `createWidget()` instead.\n",
    },
    {"tag_name": "v3.4.0", "name": "3.4.0", "body": "- Added `createWidget()`.\n"},
]
TRUTH = {"oldlib": "affected", "widgetkit": "affected", "otherlib": "not_affected"}
PACKAGES = tuple(TRUTH)
MAY_BREAK = {"oldlib", "widgetkit"}
# which packages lose their notes when an endpoint fails for good
DEPENDS = {
    "registry": set(PACKAGES),
    "repo": set(),  # the default branch is optional: files and releases are read without it
    "contents": {"oldlib", "otherlib"},  # changelog files
    "releases": {"widgetkit"},  # notes only in GitHub releases
}


def fault_world(tmp_path: Path) -> World:
    """oldlib 1.5.0 → 2.0.0 (CHANGELOG.md, affected), widgetkit 3.4.0 → 4.0.0 (GitHub
    releases only, affected), otherlib 1.2.0 → 1.2.1 (CHANGELOG.md, a patch)."""
    repo = tmp_path / "repo"
    write_tree(
        repo,
        {
            "requirements.txt": "oldlib==1.5.0\notherlib==1.2.0\n",
            "package.json": json.dumps({"name": "app", "dependencies": {"widgetkit": "^3.4.0"}}),
            "app/main.py": "import oldlib\nimport otherlib\n\n\ndef run():\n"
            "    return oldlib.legacy(otherlib.VALUE)\n",
            "web/index.js": "const { makeWidget } = require('widgetkit');\n\n"
            "module.exports = () => makeWidget({ size: 2 });\n",
        },
    )
    upstream = tmp_path / "upstream"
    write_tree(
        upstream,
        {
            "pip/oldlib/CHANGELOG.md": OLDLIB_CHANGES,
            "pip/oldlib/meta.json": json.dumps({"repository": "https://github.com/example/oldlib"}),
            "pip/otherlib/CHANGELOG.md": OTHERLIB_CHANGES,
            "pip/otherlib/meta.json": json.dumps(
                {"repository": "https://github.com/example/otherlib"}
            ),
            "npm/widgetkit/releases.json": json.dumps(WIDGETKIT_RELEASES),
            "npm/widgetkit/meta.json": json.dumps(
                {"repository": "https://github.com/example/widgetkit"}
            ),
        },
    )
    updates = [
        Update("pip", "oldlib", "1.5.0", "2.0.0", manifest="requirements.txt"),
        Update("npm", "widgetkit", "3.4.0", "4.0.0", manifest="package.json"),
        Update("pip", "otherlib", "1.2.0", "1.2.1", manifest="requirements.txt"),
    ]
    return World(repo, upstream, updates)


# -- the faults -------------------------------------------------------------------------------

# (id, FakeUpstream kind, status): the thirteen faults of the matrix
UPSTREAM_FAULTS = [
    ("429-retry-after", "rate_limit", None),
    ("429-bare", "rate_limit_bare", None),
    ("500", "server_error", 500),
    ("502", "server_error", 502),
    ("503", "server_error", 503),
    ("timeout", "timeout", None),
    ("reset", "reset", None),
    ("truncated", "truncated", None),
    ("invalid-json", "bad_json", None),
    ("html", "html", None),
    ("404", "not_found", None),
    ("401", "unauthorized", None),
    ("403", "forbidden", None),
]
FAULT_IDS = [f[0] for f in UPSTREAM_FAULTS]
NOT_RETRIED = {"404", "401", "403"}  # statuses that say "this will not change"
# words the reason or the tool result uses for each fault, when the data never came
SAYS = {
    "429-retry-after": "rate limit",
    "429-bare": "rate limit",
    "500": "HTTP 500",
    "502": "HTTP 502",
    "503": "HTTP 503",
    "timeout": "in time",
    "reset": "connect",
    "truncated": "connect|cut",
    "invalid-json": "JSON|cannot read|unreadable",
    "html": "JSON|cannot read|unreadable",
    "404": "not found",
    "401": "refused access|access refused",
    "403": "refused access|access refused",
}
# how an Http retry names each fault in the trace (None: not retried at that layer)
RETRY_REASON = {
    "429-retry-after": "HTTP 429",
    "429-bare": "HTTP 429",
    "500": "HTTP 500",
    "502": "HTTP 502",
    "503": "HTTP 503",
    "timeout": "timeout",
    "reset": "connection",
    "truncated": "connection",
}


def lost_packages(endpoint: str, fault: str, times: int) -> set[str]:
    """The packages whose notes never arrive, given how the fetcher and planner retry.

    Transient faults are retried by the HTTP seam; an unreadable answer is read once
    more by the fetcher; a failed fetch is asked once more by the planner (which reaches
    the registry again, while repository reads of one fetch are remembered).
    """
    if endpoint == "repo":
        # 404: the repository is gone. Only the packages without release tags ask for it
        # (for the default branch); widgetkit's notes are read at its v4.0.0 tag, and in this
        # fake its tags and releases still answer, so it needs no repository endpoint at all.
        return {"oldlib", "otherlib"} if fault == "404" else set()
    if times == 0:
        return DEPENDS[endpoint]
    if fault in NOT_RETRIED and endpoint != "registry":
        return DEPENDS[endpoint]
    return set()


def read_trace(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "trace.jsonl").read_text().splitlines() if line]


def check_report(out: Path, expected: dict[str, str]) -> dict[str, dict[str, Any]]:
    """report.json lists every update exactly once with the expected verdicts."""
    report = json.loads((out / "report.json").read_text())
    names = [u["package"] for u in report["updates"]]
    assert sorted(names) == sorted(PACKAGES), names
    by_name = {u["package"]: u for u in report["updates"]}
    assert {n: u["verdict"] for n, u in by_name.items()} == expected
    for name, u in by_name.items():
        assert u["reason"].strip(), name
        if name in MAY_BREAK:
            assert u["verdict"] != "not_affected", u  # never falsely safe
        if u["verdict"] != "affected":
            assert u["draft"] is None
    return by_name


# -- registry, repository, contents, releases -------------------------------------------------


@pytest.mark.parametrize("times", [1, 0], ids=["once", "always"])
@pytest.mark.parametrize("fault", UPSTREAM_FAULTS, ids=FAULT_IDS)
@pytest.mark.parametrize("endpoint", ["registry", "repo", "contents", "releases"])
def test_upstream_fault(tmp_path, endpoint, fault, times):
    fid, kind, status = fault
    world = fault_world(tmp_path)
    world.faults = [
        {"package": p, "kind": kind, "times": times, "endpoint": endpoint}
        | ({"status": status} if status else {})
        for p in PACKAGES
    ]
    with world.serve() as up:
        up.retry_after, up.timeout_delay = 0.02, 1.0
        settings = settings_for(up, http_timeout=0.25, http_retries=1, max_retry_wait=0.2)
        result = triage(
            settings,
            repo=world.repo,
            updates=world.updates,
            model=RulesModel(),
            out_dir=tmp_path / "out",
        )
        served = [r.path for r in up.requests]
    assert result.status == "finished"
    lost = lost_packages(endpoint, fid, times)
    expected = {
        p: (("unknown" if p in MAY_BREAK else "not_affected") if p in lost else TRUTH[p])
        for p in PACKAGES
    }
    by_name = check_report(tmp_path / "out", expected)
    for p in lost:
        reason = by_name[p]["reason"]
        if p in MAY_BREAK:
            assert "may break" in reason, reason
        else:
            assert "semver" in reason, reason  # a patch bump: safe on the semver promise, said so
    # the fault was really served on this endpoint
    endpoint_path = {
        "registry": r"^/(pypi|npm)/",
        "repo": r"^/github/repos/[^/]+/[^/]+$",
        "contents": r"/contents",
        "releases": r"/releases",
    }[endpoint]
    assert any(re.search(endpoint_path, p) for p in served)
    # the trace records what happened
    records = read_trace(tmp_path / "out")
    text = json.dumps(records)
    assert "Traceback" not in text
    retries = [r for r in records if r["type"] == "http_retry"]
    if fid in RETRY_REASON:
        assert any(r["reason"] == RETRY_REASON[fid] for r in retries), retries
    else:
        assert not retries
    tool_results = " ".join(r["result"] for r in records if r["type"] == "tool")
    if lost and endpoint != "repo":
        assert re.search(SAYS[fid], tool_results, re.I), tool_results[:2000]
    verdicts = [r for r in records if r["type"] == "verdict"]
    assert sorted(r["package"] for r in verdicts) == sorted(PACKAGES)


def test_a_rate_limit_longer_than_depbot_waits_is_not_slept_through(tmp_path):
    """Retry-After beyond max_retry_wait: the request gives up at once and says why."""
    world = fault_world(tmp_path)
    world.faults = [{"package": "widgetkit", "kind": "rate_limit", "times": 0}]
    with world.serve() as up:
        up.retry_after = 3600
        settings = settings_for(up, http_retries=3, max_retry_wait=0.2)
        result = triage(
            settings, repo=world.repo, updates=world.updates, model=RulesModel(),
            out_dir=tmp_path / "out",
        )  # fmt: skip
        asked = [r for r in up.requests if r.path == "/npm/widgetkit"]
    verdicts = {v.update.package: v for v in result.verdicts}
    assert verdicts["widgetkit"].verdict == "unknown"
    assert "rate limit" in verdicts["widgetkit"].reason
    # asked once: "wait an hour" holds for the run, so it is remembered, never retried
    assert len(asked) == 1
    assert verdicts["oldlib"].verdict == "affected"


# -- the model API ------------------------------------------------------------------------------

MODEL_FAULTS = [
    "429-retry-after", "429-bare", "500", "502", "503", "timeout", "reset", "truncated",
    "invalid-json", "html", "404", "401", "403",
]  # fmt: skip
MODEL_SAYS = {
    "429-retry-after": "rate limiting",
    "429-bare": "rate limiting",
    "500": "HTTP 500",
    "502": "HTTP 502",
    "503": "HTTP 503",
    "timeout": "in time",
    "reset": "connect",
    "truncated": "connect",
    "invalid-json": "cannot read",
    "html": "page instead of a chat completion",
    "404": "HTTP 404",
    "401": "HTTP 401",
    "403": "HTTP 403",
}


class FaultyModel:
    """The rules planner behind the OpenAI wire format, failing the first ``times`` calls
    (every call with ``times=0``) with one fault."""

    def __init__(self, fault: str, times: int) -> None:
        self.fault, self.times, self.calls = fault, times, 0
        self.inner = rules_responder()

    def __call__(self, body: dict[str, Any]) -> Any:
        self.calls += 1
        if self.times and self.calls > self.times:
            return self.inner(body)
        f = self.fault
        if f in ("timeout", "truncated"):
            reply = Reply(200, completion(self.inner(body), body, self.calls))
            reply.delay, reply.truncate = (1.0, False) if f == "timeout" else (0.0, True)
            return reply
        return {
            "429-retry-after": Reply(429, {"error": {"message": "slow down"}}, {"Retry-After": "0"}),
            "429-bare": Reply(429, {"error": {"message": "slow down"}}),
            "500": Reply(500, {"error": {"message": "internal"}}),
            "502": Reply(502, "<html><body>Bad gateway</body></html>"),
            "503": Reply(503, {"error": {"message": "overloaded"}}),
            "reset": Reply(drop=True),
            "invalid-json": Reply(200, '{"id": "x", "choices": [', {"Content-Type": "application/json"}),
            "html": Reply(200, "<!DOCTYPE html><html>Sign in</html>", {"Content-Type": "text/html"}),
            "404": Reply(404, {"error": {"message": "no such model"}}),
            "401": Reply(401, {"error": {"message": "Incorrect API key"}}),
            "403": Reply(403, {"error": {"message": "not allowed"}}),
        }[f]  # fmt: skip


@pytest.mark.parametrize("times", [1, 0], ids=["once", "always"])
@pytest.mark.parametrize("fault", MODEL_FAULTS)
def test_model_api_fault(tmp_path, fault, times):
    world = fault_world(tmp_path)
    responder = FaultyModel(fault, times)
    with world.serve() as up, ModelServer(responder) as srv:
        settings = settings_for(
            up,
            openai_base_url=srv.base_url,
            openai_api_key="sk-fault-matrix-key",
            model_retries=2,
            retry_backoff=0.0,
            model_timeout=0.3,
        )
        result = triage(
            settings, repo=world.repo, updates=world.updates,
            model=OpenAIChatModel("faulty", settings), out_dir=tmp_path / "out",
        )  # fmt: skip
    records = read_trace(tmp_path / "out")
    errors = [r for r in records if r["type"] == "model_error"]
    assert errors and all(MODEL_SAYS[fault] in r["error"] for r in errors), errors
    recovered = times == 1 and fault not in NOT_RETRIED
    if recovered:
        assert result.status == "finished"
        check_report(tmp_path / "out", TRUTH)
        assert len(errors) == 1
    else:
        assert result.status == "model_unavailable"
        by_name = check_report(tmp_path / "out", dict.fromkeys(PACKAGES, "unknown"))
        for u in by_name.values():
            assert "model_unavailable" in u["reason"] and MODEL_SAYS[fault] in u["reason"]
        # transient faults are retried model_retries times, the others not at all; a 429 that
        # names its reset is waited out (bounded by RATE_LIMIT_WAITS and the deadline) instead
        if fault == "429-retry-after":
            assert len(errors) == RATE_LIMIT_WAITS + 1
        else:
            assert len(errors) == (1 if fault in NOT_RETRIED else 3)
        exits = [r for r in records if r["type"] == "exit"]
        assert [r["status"] for r in exits] == ["model_unavailable"]
    assert "Traceback" not in json.dumps(records)


# -- the GitHub issues API ----------------------------------------------------------------------


class FaultyGitHub(FakeGitHub):
    """``FakeGitHub`` with matrix faults: ``inject(method, path regex, fault, times, after)``.

    ``after``: the fake acts on the request first (the issue is created), then the
    caller loses the answer, as when a connection drops after the server committed.
    """

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.injected: list[dict[str, Any]] = []

    def inject(self, method: str, pattern: str, fault: str, times: int, after: bool) -> None:
        self.injected.append(
            {
                "method": method,
                "rx": re.compile(pattern),
                "fault": fault,
                "times": times,
                "after": after,
                "fired": 0,
            }  # fmt: skip
        )

    def handle(self, req):  # type: ignore[no-untyped-def]
        path = req.path[len("/github") :]
        for f in self.injected:
            if f["method"] != req.method or not f["rx"].search(path):
                continue
            if f["times"] and f["fired"] >= f["times"]:
                continue
            f["fired"] += 1
            normal = (
                super().handle(req)
                if f["after"] or f["fault"] in ("timeout", "truncated")
                else None
            )
            return _issues_fault(f["fault"], normal)
        return super().handle(req)


def _issues_fault(fault: str, normal: Reply | None) -> Reply:
    if fault == "timeout":
        assert normal is not None
        normal.delay = 1.0
        return normal
    if fault == "truncated":
        assert normal is not None
        normal.truncate = True
        return normal
    return {
        "429-retry-after": Reply(429, {"message": "slow down"}, {"Retry-After": "0"}),
        "429-bare": Reply(429, {"message": "You have exceeded a secondary rate limit"}),
        "500": Reply(500, {"message": "Server Error"}),
        "502": Reply(502, "<html><body>Bad gateway</body></html>"),
        "503": Reply(503, {"message": "Service Unavailable"}),
        "reset": Reply(drop=True),
        "invalid-json": Reply(200, '{"number": 7, "title": ', {"Content-Type": "application/json"}),
        "html": Reply(200, "<!DOCTYPE html><html>Unicorn!</html>", {"Content-Type": "text/html"}),
        "404": Reply(404, {"message": "Not Found"}),
        "401": Reply(401, {"message": "Bad credentials"}),
        "403": Reply(403, {"message": "Resource not accessible by integration"}),
    }[fault]


ISSUES_TARGETS = {"list": ("GET", r"/repos/acme/app/issues$"), "create": ("POST", r"/issues$")}
ISSUES_CASES = [
    (target, fault, times, after)
    for target in ISSUES_TARGETS
    for fault in MODEL_FAULTS
    for times, after in ((1, False), (1, True), (0, False))
    # a GET changes nothing; GitHub never acts on a request it answers 429
    if not (after and (target == "list" or fault.startswith("429")))
]
RECOVERS_IN_ONE_RUN = {
    "list": {"429-retry-after", "429-bare", "500", "502", "503", "timeout", "reset", "truncated"},
    "create": {"429-retry-after", "429-bare"},  # only a refusal is safe to send again
}


def _publish(gh: FakeGitHub, out: Path):
    settings = loopback_settings(
        gh.url, github_token=gh.token, http_retries=1, http_timeout=0.3, max_retry_wait=0.2
    )
    return publish(out, settings, repo="acme/app", write_interval=0)


@pytest.mark.parametrize(
    "target,fault,times,after",
    ISSUES_CASES,
    ids=[
        f"{t}-{f}-{'always' if n == 0 else 'once'}{'-after-acting' if a else ''}"
        for t, f, n, a in ISSUES_CASES
    ],  # fmt: skip
)
def test_issues_api_fault(tmp_path, target, fault, times, after):
    out = tmp_path / "out"
    drafts = write_drafts(out, [urllib3_verdict(), simple_verdict("leftpad")])
    approve(out, [d.id for d in drafts])
    keys = ["pip/urllib3@2.0.7", "pip/leftpad@2.0.0"]
    with FaultyGitHub("acme/app") as gh:
        method, pattern = ISSUES_TARGETS[target]
        gh.inject(method, pattern, fault, times, after)
        outcomes: list[str] = []
        for _ in range(3):  # a person runs publish again after a failure
            try:
                summary = _publish(gh, out)
            except PublishError as exc:
                message = str(exc)
                assert "\n" not in message and len(message) < 400
                assert "Traceback" not in message and "<html" not in message.lower()
                assert gh.token not in message
                if fault == "401":
                    assert "GITHUB_TOKEN" in message
                if fault == "403":
                    assert "permission" in message
                outcomes.append("error")
                continue
            outcomes.append("ok")
            assert summary.count("failed") == 0
            break
        # never a second issue for one update, whatever failed when
        for key in keys:
            assert len(gh.issues_with_marker(key)) <= 1, key
        acts = target == "create" and (after or fault in ("timeout", "truncated"))
        if times == 0 and acts:
            # the fake creates each issue, then the answer is lost: every run creates one
            # more, finds the earlier ones by their marker, and the third run is done
            assert outcomes == ["error", "error", "ok"]
            for key in keys:
                assert len(gh.issues_with_marker(key)) == 1, key
        elif times == 0:
            assert outcomes == ["error"] * 3
            assert gh.real_issues() == []
        else:
            assert outcomes[-1] == "ok"
            recovered_at_once = fault in RECOVERS_IN_ONE_RUN[target]
            assert outcomes == (["ok"] if recovered_at_once else ["error", "ok"])
            for key in keys:
                assert len(gh.issues_with_marker(key)) == 1, key
