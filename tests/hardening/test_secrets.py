"""Secrets never leave through an output: the canary test.

Recognizable fake ``GITHUB_TOKEN`` and ``OPENAI_API_KEY`` values are set in the
environment of real ``depbot`` processes (triage with a remote model, ``trace show``,
``drafts``, ``publish`` that succeeds and that fails, ``eval``, a model that refuses the
key), and the checkout holds an AWS key, GitHub tokens, a private key block and
``password=`` assignments on lines that searches hit. Every file those runs leave (the
report, drafts, trace, journal, review records, the HTTP cache, eval's kept folders) and
every captured stream and every request body the model server received is searched for
all of them. The only place a credential may appear is the request header it is for.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from depbot.core.redact import private_key_lines, redact
from depbot.fakes.loopback import Reply
from depbot.fakes.model_server import ModelServer
from depbot.models.rules import rules_responder
from depbot.output.draft_files import write_drafts
from depbot.output.review import approve
from tests.helpers.fake_github import FakeGitHub
from tests.helpers.injection import CANARIES, injection_world
from tests.helpers.paths import ROOT, SCENARIOS
from tests.helpers.samples import urllib3_verdict

TOKEN = "ghp_CanaryEnvToken000000000000000000000007"
KEY = "sk-canary-env-openai-key-000000000000000000007"

# what must never show: the run's credentials, and every secret the checkout holds
CODE_SECRETS = {k: v for k, v in CANARIES.items() if k not in ("token", "openai")}
NEVER = {"GITHUB_TOKEN": TOKEN, "OPENAI_API_KEY": KEY, **CODE_SECRETS}
SECRET_SEARCHES = ["CANARY", "AKIA", "ghp_", "password", "[A-Za-z0-9+/]{40,}", "PRIVATE KEY"]


def depbot(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """A real ``depbot`` process with ``env`` on top of a clean environment."""
    base = {
        k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR", "SYSTEMROOT")
    }
    return subprocess.run(
        [sys.executable, "-m", "depbot", *args],
        env={**base, "PYTHONPATH": str(ROOT), **env},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def leaks(blobs: dict[str, str | bytes]) -> list[str]:
    found = []
    for where, blob in blobs.items():
        data = blob if isinstance(blob, bytes) else blob.encode("utf-8", "replace")
        for name, value in NEVER.items():
            if value.encode() in data:
                found.append(f"{name} in {where}")
    return found


def files_under(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def process_output(name: str, done: subprocess.CompletedProcess[str]) -> dict[str, str]:
    return {f"{name} stdout": done.stdout, f"{name} stderr": done.stderr}


class SecretSearcher:
    """A remote model that first searches for every secret shape, then triages like the planner."""

    def __init__(self) -> None:
        self.inner = rules_responder()
        self.calls = 0

    def __call__(self, body: dict[str, Any]) -> Any:
        self.calls += 1
        if self.calls == 1:
            searches = [
                {"id": f"sec{i}", "type": "function", "function": {
                    "name": "search_code",
                    "arguments": json.dumps({"pattern": p, "regex": any(c in p for c in "[{+")}),
                }}
                for i, p in enumerate(SECRET_SEARCHES)
            ]  # fmt: skip
            return {"role": "assistant", "content": "", "tool_calls": searches}
        return self.inner(body)


def upstream_env(up_url: str) -> dict[str, str]:
    return {
        "DEPBOT_PYPI_URL": up_url,
        "DEPBOT_NPM_URL": f"{up_url}/npm",
        "GITHUB_API_URL": f"{up_url}/github",
        "DEPBOT_ALLOW_PRIVATE_HOSTS": "1",
    }


def test_the_canaries_are_nowhere(tmp_path):
    world = injection_world(tmp_path, "", "none")
    week = tmp_path / "week.json"
    week.write_text(json.dumps([u.to_dict() for u in world.updates]))
    blobs: dict[str, str | bytes] = {}
    model = SecretSearcher()
    with world.serve() as up, ModelServer(model) as srv:
        env = {
            **upstream_env(up.url),
            "GITHUB_TOKEN": TOKEN,
            "OPENAI_API_KEY": KEY,
            "OPENAI_BASE_URL": srv.base_url,
            "DEPBOT_MODEL": "canary-model",
            "DEPBOT_CACHE_DIR": str(tmp_path / "cache"),
        }
        out = tmp_path / "out"
        triage = depbot(
            ["triage", "-r", str(world.repo), "-u", str(week), "-o", str(out)], env, tmp_path
        )
        assert triage.returncode == 0, triage.stderr
        blobs |= process_output("triage", triage)
        blobs |= process_output("trace show", depbot(["trace", "show", str(out)], env, tmp_path))
        blobs |= process_output("drafts", depbot(["drafts", str(out)], env, tmp_path))
        headers = [r.headers for r in srv.server.log]
        upstream_log = up.requests
    blobs |= {f"out/{k}": v for k, v in files_under(out).items()}
    blobs |= {f"cache/{k}": v for k, v in files_under(tmp_path / "cache").items()}
    blobs |= {f"model request {i}": json.dumps(b) for i, b in enumerate(srv.requests)}
    assert leaks(blobs) == []
    # the searches really hit the secret lines, and the model saw them redacted
    results = [m["content"] for m in srv.requests[1]["messages"] if m.get("role") == "tool"]
    assert sum("[REDACTED" in r for r in results) >= 4
    report = json.loads((out / "report.json").read_text())
    verdicts = {u["package"]: u["verdict"] for u in report["updates"]}
    assert verdicts == {
        "oldlib": "affected",
        "otherlib": "not_affected",
        "shinylib": "not_affected",
    }
    draft = (out / report["updates"][0]["draft"]).read_text()
    assert "app/settings.py" in draft and "password=" in draft and "[REDACTED]" in draft
    assert (tmp_path / "cache").is_dir() and any((tmp_path / "cache").rglob("*"))
    # credentials go where they belong: the key to the model endpoint, the token to GitHub
    assert all(h.get("authorization") == f"Bearer {KEY}" for h in headers)
    github = [r for r in upstream_log if r.path.startswith("/github/")]
    assert github and all(TOKEN in r.headers.get("authorization", "") for r in github)
    assert not any(
        "authorization" in r.headers for r in upstream_log if not r.path.startswith("/github/")
    )


def test_publish_success_and_failures_print_no_token(tmp_path):
    out = tmp_path / "out"
    drafts = write_drafts(out, [urllib3_verdict()])
    approve(out, [d.id for d in drafts])
    blobs: dict[str, str | bytes] = {}
    with FakeGitHub("acme/app", token=TOKEN) as gh:
        env = {"GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": gh.api, "DEPBOT_ALLOW_PRIVATE_HOSTS": "1"}
        args = ["publish", str(out), "--repo", "acme/app", "--write-interval", "0"]
        # GitHub answers 401 and, as a misconfigured proxy might, echoes the header back
        gh.fail(
            "GET",
            r"/repos/acme/app$",
            status=401,
            times=1,
            message=f"Bad credentials: token {TOKEN}",
        )
        refused = depbot(args, env, tmp_path)
        assert refused.returncode != 0 and "GITHUB_TOKEN" in refused.stderr
        gh.fail("POST", r"/issues$", status=500, times=1, message=f"oops {TOKEN}")
        failed = depbot(args, env, tmp_path)
        assert failed.returncode != 0 and "Run depbot publish again" in failed.stderr
        done = depbot(args, env, tmp_path)
        assert done.returncode == 0, done.stderr
        assert len(gh.real_issues()) == 1
        wrong = depbot(args, {**env, "GITHUB_TOKEN": TOKEN[:-1] + "8"}, tmp_path)
        blobs |= process_output("publish 401", refused) | process_output("publish 500", failed)
        blobs |= process_output("publish", done) | process_output("publish again", wrong)
        blobs |= {f"issue {i['number']}": i["body"] + i["title"] for i in gh.real_issues()}
    blobs |= {f"out/{k}": v for k, v in files_under(out).items()}
    assert leaks(blobs) == []


def test_eval_and_a_refused_model_key_print_no_secret(tmp_path):
    scenario = next(p for p in sorted(SCENARIOS.iterdir()) if (p / "scenario.toml").is_file())
    env = {"GITHUB_TOKEN": TOKEN, "OPENAI_API_KEY": KEY}
    ran = depbot(
        ["eval", str(scenario), "--json", str(tmp_path / "eval.json"), "--keep", str(tmp_path / "keep")],
        env, tmp_path,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stdout + ran.stderr
    blobs: dict[str, str | bytes] = process_output("eval", ran)
    blobs |= {f"keep/{k}": v for k, v in files_under(tmp_path / "keep").items()}
    blobs["eval.json"] = (tmp_path / "eval.json").read_text()

    world = injection_world(tmp_path / "w", "", "none")
    week = tmp_path / "week.json"
    week.write_text(json.dumps([u.to_dict() for u in world.updates]))
    refuse = lambda body: Reply(401, {"error": {"message": f"Incorrect API key provided: {KEY}"}})  # noqa: E731
    with world.serve() as up, ModelServer(refuse) as srv:
        env2 = {**env, **upstream_env(up.url), "OPENAI_BASE_URL": srv.base_url, "DEPBOT_MODEL": "m"}
        denied = depbot(
            ["triage", "-r", str(world.repo), "-u", str(week), "-o", str(tmp_path / "o2")],
            env2,
            tmp_path,
        )
    assert denied.returncode == 3  # degraded: every update unknown because the key was refused
    assert "refused the key (HTTP 401)" in json.dumps(
        json.loads((tmp_path / "o2" / "report.json").read_text())
    )
    blobs |= process_output("triage with a refused key", denied)
    blobs |= {f"o2/{k}": v for k, v in files_under(tmp_path / "o2").items()}
    assert leaks(blobs) == []


# -- the redactor -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line,secret",
    [
        ('AWS_ACCESS_KEY_ID = "AKIAIOSFODNN7EXAMPLE"', "AKIAIOSFODNN7EXAMPLE"),
        ("session = boto3.Session(aws_access_key_id='ASIAJEXAMPLEXEG2JICE')", "ASIAJEXAMPLEXEG2JICE"),
        ('aws_secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"', "wJalrXUtnFEMI/K7MDENG"),
        ('gh = Github("ghp_16C7e42F292c6912E7710c838347Ae178B4a")', "ghp_16C7e42F292c6912E7710c838347Ae178B4a"),
        ("token: gho_16C7e42F292c6912E7710c838347Ae178B4a", "gho_16C7e42F292c6912E7710c838347Ae178B4a"),
        ("pat = 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz'", "github_pat_11ABCDEFG0123456789"),
        ('client = OpenAI(api_key="sk-proj-abcdefghijklmnop1234567890")', "sk-proj-abcdefghijklmnop1234567890"),
        ("SLACK = 'xoxb-123456789012-abcdefghijkl'", "xoxb-123456789012-abcdefghijkl"),
        ("key=AIzaSyA1234567890abcdefghijklmnopqrstuv", "AIzaSyA1234567890abcdefghijklmnopqrstuv"),
        ("//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789", "npm_abcdefghijklmnopqrstuvwxyz0123456789"),
        ("jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'", "dozjgNryP4J3jVmNHl0w5N"),
        ('db = connect(password="correct-horse-battery")', "correct-horse-battery"),
        ("PASSWD: hunter2hunter2", "hunter2hunter2"),
        ("DB_PASSWORD=s3cr3t-value", "s3cr3t-value"),
        ("app.secret = 'flask-secret-key-123'", "flask-secret-key-123"),
        ("-----BEGIN RSA PRIVATE KEY-----MIIEowIBAAKCAQEA", "MIIEowIBAAKCAQEA"),
        ("private_key = '-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjE='", "b3BlbnNzaC1rZXktdjE"),
    ],
)  # fmt: skip
def test_the_redactor_hides_common_secret_shapes(line, secret):
    hidden = redact(line)
    assert secret not in hidden and "[REDACTED]" in hidden


def test_the_redactor_keeps_ordinary_code():
    for line in (
        "retry = Retry(total=3, method_whitelist=['GET'])",
        "password_field = form.fields['password']",
        "token_count = len(tokens)",
        "if auth is None: return 401",
        "timeout = 30",
    ):
        assert redact(line) == line


def test_the_lines_of_a_private_key_block_are_found():
    lines = [
        "import oldlib",
        'KEY = """-----BEGIN RSA PRIVATE KEY-----',
        "MIIEowIBAAKCAQEAwhatever0123456789abcdefABCDEF0123456789abcdefABCD",
        "Proc-Type: 4,ENCRYPTED",
        "",
        "aGVsbG8gd29ybGQgdGhpcyBpcyBub3QgYSByZWFsIGtleSBidXQgbG9va3MgbGlrZQ==",
        '-----END RSA PRIVATE KEY-----"""',
        "client = oldlib.connect(KEY)",
        'if text.startswith("-----BEGIN PRIVATE KEY-----"):',
        "    parse(text)",
    ]
    assert private_key_lines(lines) == {2, 3, 4, 5, 6, 7, 9}
