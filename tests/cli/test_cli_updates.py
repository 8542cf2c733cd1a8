"""`depbot updates` through click's runner, against loopback registries and a fake GitHub."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from depbot.cli.main import cli
from depbot.fakes.loopback import LoopbackServer, Reply
from tests.helpers.fake_registry import FakeRegistry, pull
from tests.helpers.paths import DEMO as _DEMO

DEMO = _DEMO / "repo"


@pytest.fixture
def upstream():
    fake = FakeRegistry()
    fake.add_pypi("requests", "2.31.0", "2.32.3")
    fake.add_pypi("urllib3", "1.26.18", "2.0.7")
    fake.add_pypi("pytest", "7.4.4", "7.4.5")
    fake.add_npm("express", "4.18.2", "4.19.2", "5.0.0")
    fake.add_npm("left-pad", "1.3.0")
    fake.faults["left-pad"] = [Reply(200, "not json at all")] * 10
    with LoopbackServer(fake) as srv:
        fake.base_url = srv.url
        yield fake, srv


@pytest.fixture
def repo(tmp_path):
    (tmp_path / "requirements.txt").write_text("requests==2.31.0\nurllib3==1.26.18\n")
    (tmp_path / "requirements-dev.txt").write_text("pytest==7.4.4\n-e .\n")
    (tmp_path / "package.json").write_text(
        json.dumps({"dependencies": {"express": "^4.18.0", "left-pad": "1.3.0"}})
    )
    (tmp_path / "package-lock.json").write_text(
        json.dumps(
            {"lockfileVersion": 2, "packages": {"node_modules/express": {"version": "4.18.2"}}}
        )
    )
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


def invoke(args, env):
    return CliRunner().invoke(cli, ["updates", *args], env=env)


def test_json_output_is_clean_and_complete(upstream, repo):
    _, srv = upstream
    result = invoke(["--repo", str(repo), "--json", "-v"], env_for(srv))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # stdout holds the JSON and nothing else
    got = {
        u["package"]: (u["from"], u["to"], u["update_type"], u["error"]) for u in data["updates"]
    }
    assert got["express"] == ("4.18.2", "5.0.0", "major", None)
    assert got["urllib3"] == ("1.26.18", "2.0.7", "major", None)
    assert got["requests"] == ("2.31.0", "2.32.3", "minor", None)
    assert got["pytest"] == ("7.4.4", "7.4.5", "patch", None)
    assert got["left-pad"][3] == "npm registry entry for left-pad: the answer was not valid JSON"
    assert data["warnings"] == ["requirements-dev.txt line 2: skipped editable install '.'"]
    dev = next(u for u in data["updates"] if u["package"] == "pytest")
    assert dev["dependency_kind"] == "dev" and dev["manifest"] == "requirements-dev.txt"
    assert "checking 5 packages against the registries" in result.stderr  # -v: progress


def test_table_is_grouped_by_update_type_with_errors_last(upstream, repo):
    _, srv = upstream
    result = invoke(["-r", str(repo)], env_for(srv))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert (
        out.splitlines()[0]
        == "4 updates: 2 major, 1 minor, 1 patch; 1 package could not be checked"
    )
    heads = [line for line in out.splitlines() if line and not line.startswith(" ")][1:]
    assert heads == ["major (2)", "minor (1)", "patch (1)", "errors (1)"]
    express = next(line for line in out.splitlines() if " express " in line)
    assert express.split()[:5] == ["npm", "express", "4.18.2", "→", "5.0.0"]
    assert express.split()[-2:] == ["package.json", "registry"]
    assert (
        out.index("urllib3") < out.index("requests") < out.index("pytest") < out.index("left-pad")
    )
    assert "warning: requirements-dev.txt line 2: skipped editable install" in result.stderr
    assert "checking" not in result.stderr  # no progress when stderr is not a terminal


def test_demo_repository_lists_the_demo_week():
    """The shipped example, against its own upstream: the manifests give exactly the demo's updates."""
    from depbot.evals.scenarios import load_scenario
    from depbot.fakes.upstream import FakeUpstream as ScenarioUpstream

    sc = load_scenario(DEMO.parent)
    with ScenarioUpstream(sc.upstream, versions=sc.versions()) as up:
        srv_env = {
            "DEPBOT_PYPI_URL": up.url,
            "DEPBOT_NPM_URL": f"{up.url}/npm",
            "GITHUB_API_URL": f"{up.url}/github",
            "DEPBOT_ALLOW_PRIVATE_HOSTS": "1",
            "DEPBOT_NO_CACHE": "1",
        }
        result = invoke(["-r", str(DEMO), "--json"], srv_env)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    got = sorted((u["package"].lower(), u["from"], u["to"]) for u in data["updates"])
    want = sorted((u.package.lower(), u.from_version, u.to_version) for u in sc.updates)
    assert got == want


def test_missing_repository_is_one_line_and_exit_2(upstream, tmp_path):
    _, srv = upstream
    result = invoke(["--repo", str(tmp_path / "missing")], env_for(srv))
    assert result.exit_code == 2
    assert (
        result.stderr == f"depbot: error: repository path '{tmp_path / 'missing'}' does not exist\n"
    )
    assert result.stdout == "" and srv.log == []


def test_malformed_manifest_names_file_and_line(upstream, tmp_path):
    _, srv = upstream
    (tmp_path / "requirements.txt").write_text("requests==2.31.0\n\nflask=>2.0\n")
    result = invoke(["-r", str(tmp_path), "--json"], env_for(srv))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("depbot: error: requirements.txt line 3: 'flask=>2.0'")
    assert result.stderr.count("\n") == 1


def test_updates_and_dependabot_exclude_each_other(upstream, tmp_path):
    _, srv = upstream
    result = invoke(["-u", "x.json", "-d", "acme/shop"], env_for(srv))
    assert result.exit_code == 2
    assert "--updates and --dependabot exclude each other" in result.stderr
    result = invoke(["-d", "acme/shop"], env_for(srv, DEPBOT_UPDATES_FILE="x.json"))
    assert result.exit_code == 2
    assert "DEPBOT_UPDATES_FILE (environment) and --dependabot" in result.stderr
    assert srv.log == []


def test_dependabot_without_token_names_the_variable_and_sends_nothing(upstream, tmp_path):
    fake, srv = upstream
    fake.pulls["acme/shop"] = []
    result = invoke(["-r", str(tmp_path), "-d", "acme/shop"], env_for(srv))
    assert result.exit_code == 2
    assert "GITHUB_TOKEN" in result.stderr and result.stderr.count("\n") == 1
    assert srv.log == []


def test_dependabot_pull_requests_as_json(upstream, tmp_path):
    fake, srv = upstream
    fake.pulls["acme/shop"] = [
        pull(
            9,
            "chore(deps): bump urllib3 from 1.26.18 to 2.0.7",
            "Bumps [urllib3](https://github.com/urllib3/urllib3) from 1.26.18 to 2.0.7.",
            "dependabot/pip/urllib3-2.0.7",
        )
    ]
    env = env_for(srv, GITHUB_TOKEN="ghp_not_a_real_token", DEPBOT_DEPENDABOT_REPO="acme/shop")
    result = invoke(["-r", str(tmp_path), "--json"], env)
    assert result.exit_code == 0, result.output
    (u,) = json.loads(result.stdout)["updates"]
    assert (u["package"], u["from"], u["to"], u["source"]) == (
        "urllib3",
        "1.26.18",
        "2.0.7",
        "dependabot",
    )
    assert u["source_ref"] == "https://github.com/acme/shop/pull/9" and u["extra"]["pr"] == "9"
    assert "ghp_not_a_real_token" not in result.output


def test_update_file(tmp_path):
    week = tmp_path / "week.toml"
    week.write_text(
        '[[updates]]\necosystem = "npm"\npackage = "chalk"\nfrom = "4.1.2"\nto = "5.3.0"\n'
    )
    result = CliRunner().invoke(cli, ["updates", "-r", str(tmp_path), "-u", str(week)])
    assert result.exit_code == 0
    assert "major (1)" in result.stdout and "4.1.2 → 5.3.0" in result.stdout
    bad = tmp_path / "bad.json"
    bad.write_text('[{"ecosystem": "cobol", "package": "x", "from": "1", "to": "2"}]')
    result = CliRunner().invoke(cli, ["updates", "-r", str(tmp_path), "-u", str(bad)])
    assert (
        result.exit_code == 2 and "bad.json: record 1: unknown ecosystem 'cobol'" in result.stderr
    )


def test_no_updates(upstream, tmp_path):
    _, srv = upstream
    (tmp_path / "requirements.txt").write_text("requests==2.32.3\n")
    result = invoke(["-r", str(tmp_path)], env_for(srv))
    assert result.exit_code == 0 and result.stdout == "No pending updates.\n"


def test_help_teaches_with_examples():
    result = CliRunner().invoke(cli, ["updates", "--help"])
    assert result.exit_code == 0
    for text in (
        "Examples:",
        "depbot updates -u week.json",
        "-d acme/shop",
        "GITHUB_TOKEN",
        "--json",
    ):
        assert text in result.stdout
