"""End to end: `depbot updates` and `depbot triage` on a tmp checkout with dependabot.yml /
depbot.yml, against the loopback fake registry."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from depbot.cli.main import cli
from depbot.fakes.loopback import LoopbackServer, Reply
from tests.helpers.fake_registry import FakeRegistry

DEPENDABOT_YML = """
version: 2
updates:
  - package-ecosystem: pip
    directory: "/"
    schedule: {interval: weekly}
    ignore:
      - dependency-name: "urllib*"
      - dependency-name: requests
        update-types: ["version-update:semver-major"]
      - dependency-name: pytest
        versions: [">=8"]
  - package-ecosystem: npm
    directory: "/web"
  - package-ecosystem: github-actions
    directory: "/"
"""


@pytest.fixture
def upstream():
    fake = FakeRegistry()
    fake.add_pypi("requests", "2.31.0", "2.32.3", "3.0.0")
    fake.add_pypi("urllib3", "1.26.18", "2.0.7")
    fake.add_pypi("pytest", "7.4.4", "8.0.0")
    fake.add_npm("express", "4.18.2", "4.19.2")
    fake.add_npm("left-pad", "1.3.0", "1.3.1")
    with LoopbackServer(fake) as srv:
        fake.base_url = srv.url
        yield fake, srv


@pytest.fixture
def repo(tmp_path):
    files = {
        ".github/dependabot.yml": DEPENDABOT_YML,
        "requirements.txt": "requests==2.31.0\nurllib3==1.26.18\npytest==7.4.4\n",
        "package.json": json.dumps({"dependencies": {"left-pad": "1.3.0"}}),
        "web/package.json": json.dumps({"dependencies": {"express": "4.18.2"}}),
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def env_for(srv, **extra):
    env = {
        "DEPBOT_PYPI_URL": srv.url,
        "DEPBOT_NPM_URL": f"{srv.url}/npm",
        "GITHUB_API_URL": f"{srv.url}/github",
        "DEPBOT_ALLOW_PRIVATE_HOSTS": "1",
        "DEPBOT_NO_CACHE": "1",
    }
    env.update(extra)
    return env


SUMMARY = (
    "dependabot.yml: 3 updates ignored (2 by ignore rules, 1 outside the configured "
    "directories); 1 moved to the newest version the ignore rules allow"
)


def test_depbot_updates_honours_dependabot_yml(upstream, repo):
    _, srv = upstream
    result = CliRunner().invoke(cli, ["updates", "-r", str(repo)], env=env_for(srv))
    assert result.exit_code == 0, result.output
    assert (
        "requests" in result.stdout and "2.32.3" in result.stdout and "3.0.0" not in result.stdout
    )
    assert "express" in result.stdout
    for gone in ("urllib3", "pytest", "left-pad"):
        assert gone not in result.stdout
    assert f"depbot: warning: {SUMMARY}" in result.stderr
    assert "github-actions not read" not in result.stderr  # read since #31 (no workflows here)

    as_json = CliRunner().invoke(cli, ["updates", "-r", str(repo), "--json"], env=env_for(srv))
    data = json.loads(as_json.stdout)
    assert sorted((u["package"], u["to"]) for u in data["updates"]) == [
        ("express", "4.19.2"),
        ("requests", "2.32.3"),
    ]
    assert SUMMARY in data["warnings"]


def test_depbot_yml_updates_replace_dependabot_yml_in_depbot_updates(upstream, repo):
    _, srv = upstream
    (repo / ".github/depbot.yml").write_text(
        "updates:\n  - package-ecosystem: npm\n    allow: [{dependency-name: left-pad}]\n"
    )
    result = CliRunner().invoke(cli, ["updates", "-r", str(repo), "--json"], env=env_for(srv))
    data = json.loads(result.stdout)
    assert [u["package"] for u in data["updates"]] == ["left-pad"]
    assert (
        "depbot.yml: 4 updates ignored (1 not matched by the allow rules, 3 of an ecosystem it does not configure); it has no `pip` entry"
        in data["warnings"]
    )


def test_a_bad_depbot_yml_is_exit_2_with_the_key_path(upstream, repo):
    _, srv = upstream
    (repo / ".github/depbot.yml").write_text("fail-on: afected\n")
    for command in ("updates", "triage"):
        result = CliRunner().invoke(cli, [command, "-r", str(repo)], env=env_for(srv))
        assert result.exit_code == 2, result.output
        assert result.stderr.strip().endswith(
            ".github/depbot.yml: fail-on: must be one of never, degraded, unknown, affected, "
            "got 'afected'"
        )


def test_triage_fail_on_flag_over_environment_over_file(upstream, tmp_path):
    """An update whose lookup fails is unknown after a failure: degraded (3) by default."""
    fake, srv = upstream
    fake.faults["left-pad"] = [Reply(200, "not json at all")] * 10
    (tmp_path / "package.json").write_text(json.dumps({"dependencies": {"left-pad": "1.3.0"}}))
    out = tmp_path / "out"

    def triage(*args, **env):
        argv = ["triage", "-r", str(tmp_path), "-o", str(out), "-q", *args]
        return CliRunner().invoke(cli, argv, env=env_for(srv, **env)).exit_code

    assert triage() == 3  # the default
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github/depbot.yml").write_text("fail-on: never\n")
    assert triage() == 0  # the file
    assert triage(DEPBOT_FAIL_ON="degraded") == 3  # the environment over the file
    assert triage("--fail-on", "never", DEPBOT_FAIL_ON="degraded") == 0  # the flag over both


def test_when_the_rules_leave_nothing_the_table_says_so_and_names_the_ecosystem(upstream, repo):
    _, srv = upstream
    (repo / ".github/dependabot.yml").write_text(
        "version: 2\nupdates:\n  - package-ecosystem: github-actions\n    directory: /\n"
    )
    result = CliRunner().invoke(cli, ["updates", "-r", str(repo)], env=env_for(srv))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "No pending updates.",
        "Every update found was left out by the repository's update rules (below).",
    ]
    assert "it has no `npm`, `pip` entry" in result.stderr
