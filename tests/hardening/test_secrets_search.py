"""Secrets in the checkout never reach the model, the trace or a draft (issue #18).

Two defences, each tested on real files: files that may hold secrets are never searched
nor read (``core.confine``'s floor of secret-file globs, matched case-insensitively), and
every tool result has secret-shaped values replaced by ``[REDACTED]`` (``core.redact``,
detect-secrets' plugins) while the rest of the line, and every ordinary line, stays.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from depbot.agent.ledger import Ledger
from depbot.agent.toolbox import Toolbox
from depbot.cli.main import cli
from depbot.core.errors import ToolError
from depbot.core.net import Http
from depbot.core.redact import redact
from depbot.core.settings import Settings
from depbot.pipeline.services import LiveServices
from depbot.records.update import Update
from depbot.search.code import CodeSearch
from tests.helpers.growth import growth_if_slow
from tests.helpers.worlds import two_package_world, write_tree

SECRET_FILES = {
    ".envrc": "export AWS_PROFILE=CANARY_envrc\n",
    "infra/prod.tfvars": 'db_password = "CANARY_tfvars"\n',
    "infra/web.auto.tfvars.json": '{"CANARY_tfvars_json": 1}\n',
    "infra/terraform.tfstate": '{"CANARY_tfstate": 1}\n',
    "infra/terraform.tfstate.backup": '{"CANARY_tfstate_backup": 1}\n',
    ".env.local": "CANARY_env_local=1\n",
    ".ENV": "CANARY_env_upper=1\n",
    "certs/SERVER.PEM": "CANARY_pem_upper\n",
    "certs/tls.key": "CANARY_key\n",
    ".npmrc": "//registry.npmjs.org/:_authToken=CANARY_npmrc\n",
    "app/.pypirc": "[pypi]\npassword = CANARY_pypirc\n",
    ".netrc": "machine example.com login ci password CANARY_netrc\n",
    ".htpasswd": "ci:CANARY_htpasswd\n",
    "deploy/kubeconfig": "token: CANARY_kubeconfig\n",
    ".dockercfg": '{"auth": "CANARY_dockercfg"}\n',
}
ORDINARY = {"app/main.py": "import oldlib\nVALUE = 'CANARY_code'\n"}

SETTINGS_PY = """\
import os

SECRET_KEY = "django-insecure-7f3k2lq9x0vz8w1m4n5b6c"
DATABASE_URL = "postgres://app:Pr1vateDbPassw0rd@db.internal:5432/app"
API_TOKEN = os.environ["API_TOKEN"]
password = get_password()
"""
CONFIG_YAML = "database:\n  password: hunter2-Pr1vate-yaml\n"
DOTLESS_ENV = "DATABASE_URL=postgres://app:Pr1vateEnvPw@db/app\n"
LEAKS = ("django-insecure-7f3k2lq9x0vz8w1m4n5b6c", "Pr1vateDbPassw0rd", "hunter2-Pr1vate-yaml")

# ordinary code: nothing in it is a secret, and redaction must leave every line as it is
CODE_LINES = [
    "import os",
    "from django.conf import settings",
    "def check_password(password: str, *, hasher=None) -> bool:",
    "    return hasher.verify(password, user.password_hash)",
    "token = self.token",
    "secret = get_secret()",
    'password = request.form["password"]',
    "API_TOKEN = os.environ['API_TOKEN']",
    "const apiKey = process.env.API_KEY;",
    "for key, value in sorted(settings.items()):",
    'x = {"key": value, "api": api_url, "timeout": 30}',
    'url = "https://github.com/example/oldlib"',
    "result = client.fetch(url, timeout=30, retries=3)",
    'logger.info(f"connecting to {host}:{port} as {user}")',
    "    return oldlib.legacy(otherlib.VALUE)",
    'className = "AbstractSingletonProxyFactoryBean"',
    "if (a === b && c !== d) { return x ? y : z; }",
    "export PATH=/usr/local/bin:$PATH",
    "- `oldlib.legacy()` was removed; use `oldlib.modern()` instead.",
    "Password: hashing now uses argon2 by default.",
    "requests==2.31.0",
]


def test_secret_files_are_never_searched_listed_or_read(tmp_path):
    write_tree(tmp_path, {**SECRET_FILES, **ORDINARY})
    search = CodeSearch(tmp_path, Settings())
    result = search.search_code("CANARY")
    assert [(h.path, h.text) for h in result.hits] == [("app/main.py", "VALUE = 'CANARY_code'")]
    assert search.files() == ["app/main.py"]
    for rel in SECRET_FILES:
        with pytest.raises(ToolError, match="may hold secrets"):
            search.read_lines(rel)
    with pytest.raises(ToolError, match="may hold secrets"):
        search.search_code("CANARY", path_glob="**/*.tfvars")


def test_ordinary_code_lines_are_never_redacted():
    for line in CODE_LINES:
        assert redact(line, patterns=False) == line
        assert redact(line, filename="app/views.py", patterns=False) == line
    text = "\n".join(CODE_LINES) + "\n"
    assert redact(text, patterns=False) == text


@pytest.mark.parametrize(
    ("line", "filename", "shown"),
    [
        ('SECRET_KEY = "django-insecure-7f3k2lq9x0vz8w1m4n5b6c"', "a.py", 'SECRET_KEY = "[REDACTED]"'),
        ('URL = "postgres://app:Pr1vatePw@db:5432/app"', "a.py", 'URL = "postgres://app:[REDACTED]@db:5432/app"'),
        ("DB_PASSWORD=Pr1vateEnvPw", ".envrc", "DB_PASSWORD=[REDACTED]"),
        ("  password: hunter2-Pr1vate", "config.yaml", "  password: [REDACTED]"),
        ("export GH=ghp_ManifestCanary0000000000000000000000", "", "export GH=[REDACTED]"),
        ("aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "", "aws_access_key_id = [REDACTED]"),
        ("//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789", "", "//registry.npmjs.org/:_authToken=[REDACTED]"),
        ('"integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ"', "", '"integrity": "[REDACTED]"'),
    ],
)  # fmt: skip
def test_secret_values_are_redacted_and_the_line_kept(line, filename, shown):
    assert redact(line, filename=filename, patterns=False) == shown


def checkout(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    write_tree(
        repo,
        {
            "app/settings.py": SETTINGS_PY,
            "app/config.yaml": CONFIG_YAML,
            "deploy/app.envfile": DOTLESS_ENV,
            "app/views.py": "\n".join(CODE_LINES) + "\n",
        },
    )
    return repo


def test_every_tool_result_is_redacted_before_the_model_sees_it(tmp_path):
    repo = checkout(tmp_path)
    settings = Settings()
    services = LiveServices(settings, repo, Http(settings))
    box = Toolbox([Update("pip", "oldlib", "1.0.0", "2.0.0")], Ledger(), services, "0123456789ab")
    pattern = {"pattern": "SECRET_KEY|password|postgres", "regex": True}
    outcome = box.execute("search_code", json.dumps(pattern))
    assert outcome.ok, outcome.content
    for leak in (*LEAKS, "Pr1vateEnvPw"):
        assert leak not in outcome.content + outcome.compact + outcome.error_detail
    lines = json.loads(outcome.content)["lines"]
    assert 'app/settings.py:3: SECRET_KEY = \\"[REDACTED]\\"' in json.dumps(lines)
    assert "postgres://app:[REDACTED]@db.internal:5432/app" in lines
    assert "app/config.yaml:2: password: [REDACTED]" in lines  # depbot's patterns came first
    # the ordinary lines the search hit come through unchanged
    assert "app/views.py:3: def check_password(password: str, *, hasher=None) -> bool:" in lines
    assert "app/settings.py:6: password = get_password()" in lines
    assert 'password = request.form[\\"password\\"]' in json.dumps(lines)


def test_triage_trace_report_and_drafts_hold_no_searched_secret(tmp_path):
    world = two_package_world(tmp_path)
    write_tree(
        world.repo,
        {
            "app/main.py": "import oldlib\nimport otherlib\n\n\ndef run():\n"
            '    return oldlib.legacy("postgres://app:Pr1vateDbPassw0rd@db/app")\n',
            "app/settings.py": SETTINGS_PY,
        },
    )
    week = tmp_path / "week.json"
    week.write_text(json.dumps([u.to_dict() for u in world.updates]))
    out = tmp_path / "out"
    with world.serve() as up:
        env = {
            "DEPBOT_PYPI_URL": up.url,
            "DEPBOT_NPM_URL": f"{up.url}/npm",
            "GITHUB_API_URL": f"{up.url}/github",
            "DEPBOT_ALLOW_PRIVATE_HOSTS": "1",
            "DEPBOT_NO_CACHE": "1",
        }
        args = ["triage", "-r", str(world.repo), "-u", str(week), "-o", str(out), "-q"]
        result = CliRunner().invoke(cli, args, env=env)
    assert result.exit_code == 0, result.output
    blobs = {"output": result.output}
    blobs |= {str(p.relative_to(out)): p.read_text() for p in out.rglob("*") if p.is_file()}
    for name, text in blobs.items():
        for leak in LEAKS:
            assert leak not in text, (leak, name)
    assert "postgres://app:[REDACTED]@db/app" in blobs["trace.jsonl"]
    report = json.loads(blobs["report.json"])
    assert [u["verdict"] for u in report["updates"]] == ["affected", "not_affected"]


def test_long_and_hostile_lines_are_redacted_in_bounded_time():
    token = "ghp_ManifestCanary0000000000000000000000"
    for offset in (0, 395, 400, 590, 1000, 3999):
        line = "x" * offset + f" t={token} " + "y " * 500
        assert token not in redact(line, patterns=False), offset
    hostile = {  # the plugins' regexes are quadratic on a whole line
        "keys": lambda n: "api_key" * (n // 7),
        "password": lambda n: "password=" + "a" * n,
        "quote": lambda n: '"' + "b" * n,
    }
    for family, make in hostile.items():
        growth = growth_if_slow(lambda s: redact(s, patterns=False), make, 10_000, 0.3)
        assert growth is None, f"redact grows {growth}x on {family} for 4x the line"
