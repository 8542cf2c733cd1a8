"""Manifests never leave the checkout, and no error quotes a file's secrets (issue #18).

A pull request controls the checkout: a ``requirements.txt`` that is a link to
``/proc/self/environ``, ``/etc/passwd`` or a file beside the checkout, or a manifest in a
linked folder, would print the job's environment into the CI log through "could not parse
line …". Each test runs the real ``depbot`` command on such a checkout and searches every
stream and file it leaves for the secret.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from depbot.cli.main import cli
from depbot.fakes.loopback import LoopbackServer
from tests.helpers.fake_registry import FakeRegistry
from tests.helpers.worlds import two_package_world, write_tree

TOKEN = "ghp_ManifestCanary0000000000000000000000"  # a GitHub token's shape: 36 characters
PASSWORD = "Pr1vateDbPassw0rdCanary"


@pytest.fixture
def registry():
    fake = FakeRegistry()
    fake.add_pypi("requests", "2.31.0", "2.32.3")
    fake.add_npm("express", "4.18.2", "4.19.2")
    with LoopbackServer(fake) as srv:
        fake.base_url = srv.url
        yield srv


def env_for(srv) -> dict[str, str]:
    return {
        "DEPBOT_PYPI_URL": srv.url,
        "DEPBOT_NPM_URL": f"{srv.url}/npm",
        "GITHUB_API_URL": f"{srv.url}/github",
        "DEPBOT_ALLOW_PRIVATE_HOSTS": "1",
        "DEPBOT_NO_CACHE": "1",
        "GITHUB_TOKEN": "",
    }


def updates(repo: Path, env: dict[str, str], *args: str):
    return CliRunner().invoke(cli, ["updates", "-r", str(repo), "--json", *args], env=env)


@pytest.fixture
def outside(tmp_path) -> Path:
    """A file beside the checkout holding the job's credentials, as /proc/self/environ would."""
    leak = tmp_path / "outside" / "environ"
    write_tree(leak.parent, {"environ": f"GITHUB_TOKEN={TOKEN}\nPATH=/usr/bin\n"})
    return leak


def checkout(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    write_tree(repo, {"requirements-base.txt": "requests==2.31.0\n"})
    return repo


def test_a_manifest_linked_outside_is_refused_by_name_and_the_others_are_read(
    tmp_path, outside, registry
):
    repo = checkout(tmp_path)
    (repo / "requirements.txt").symlink_to(outside)
    (repo / "package.json").symlink_to(outside)
    result = updates(repo, env_for(registry))
    assert result.exit_code == 0, result.output
    assert TOKEN not in result.stdout + result.stderr and "GITHUB_TOKEN" not in result.output
    data = json.loads(result.stdout)
    assert [u["package"] for u in data["updates"]] == ["requests"]  # the run went on
    assert sorted(data["warnings"]) == [
        "package.json: not read: it is a symbolic link (or lies in a linked folder) that "
        "leaves the checkout",
        "requirements.txt: not read: it is a symbolic link (or lies in a linked folder) that "
        "leaves the checkout",
    ]


def test_a_manifest_linked_to_etc_passwd_is_refused(tmp_path, registry):
    if not Path("/etc/passwd").is_file():
        pytest.skip("no /etc/passwd here")
    repo = checkout(tmp_path)
    (repo / "requirements.txt").symlink_to("/etc/passwd")
    result = updates(repo, env_for(registry))
    assert result.exit_code == 0, result.output
    assert "root:" not in result.output and "/bin/" not in result.output
    assert "requirements.txt: not read" in result.stdout


def test_manifests_and_locks_through_a_linked_folder_are_not_read(tmp_path, outside, registry):
    repo = checkout(tmp_path)
    shared = tmp_path / "outside" / "shared"
    write_tree(shared, {"base.txt": f"{TOKEN}==1\n", "package-lock.json": outside.read_text()})
    (repo / "shared").symlink_to(shared, target_is_directory=True)
    (repo / "web").mkdir()
    (repo / "web" / "package.json").write_text(json.dumps({"dependencies": {"express": "^4.18.0"}}))
    (repo / "web" / "package-lock.json").symlink_to(shared / "package-lock.json")
    (repo / "requirements.txt").write_text("-r shared/base.txt\n-c ./shared/../shared/base.txt\n")
    result = updates(repo, env_for(registry))
    assert result.exit_code == 0, result.output
    assert TOKEN not in result.output and "GITHUB_TOKEN" not in result.output
    warnings = json.loads(result.stdout)["warnings"]
    assert "requirements.txt line 1: skipped 'shared/base.txt' (outside the repository)" in warnings
    assert any(
        w.startswith("web/package-lock.json: not read: it is a symbolic link") for w in warnings
    )


def test_a_manifest_linked_to_a_secret_file_inside_is_refused(tmp_path, registry):
    repo = checkout(tmp_path)
    (repo / ".env").write_text(f"GITHUB_TOKEN={TOKEN}\n")
    (repo / "requirements.txt").symlink_to(repo / ".env")
    (repo / "requirements-dev.txt").write_text("-r .env\n")
    result = updates(repo, env_for(registry))
    assert result.exit_code == 0, result.output
    assert TOKEN not in result.output
    warnings = json.loads(result.stdout)["warnings"]
    assert "requirements.txt: not read: it links to a file that may hold secrets" in warnings
    assert "requirements-dev.txt line 1: skipped '.env' (it may hold secrets)" in warnings


@pytest.mark.parametrize(
    ("line", "shows"),
    [
        (f"GITHUB_TOKEN={TOKEN}", "'GITHUB_TOKEN=[REDACTED]' is not a valid requirement"),
        (f"requests=>2 # {TOKEN}", "is not a valid requirement"),
        (f"DB_PASSWORD={PASSWORD} and more", "'DB_PASSWORD=[REDACTED] and more'"),
        (f"ci = postgres://app:{PASSWORD}@db/app", "'ci = postgres://app:[REDACTED]@db/app'"),
        ("x" * 300 + "=>1", "'" + "x" * 79 + "…' is not a valid requirement"),
    ],
)
def test_a_line_that_fails_to_parse_is_quoted_short_and_redacted(tmp_path, line, shows):
    repo = checkout(tmp_path)
    (repo / "requirements.txt").write_text(f"requests==2.31.0\n{line}\n")
    result = updates(repo, {"DEPBOT_NO_CACHE": "1"})
    assert result.exit_code in (0, 2), result.output  # broken: a warning if others are read
    assert TOKEN not in result.output and PASSWORD not in result.output
    said = result.output
    if result.exit_code == 0:  # the warnings of the JSON listing, decoded
        said = " ".join(json.loads(result.stdout)["warnings"])
    assert shows in said and "requirements.txt line 2" in said


def test_warnings_that_quote_a_line_are_redacted(tmp_path, registry):
    repo = checkout(tmp_path)
    (repo / "requirements.txt").write_text(
        f"-e git+https://ci:{PASSWORD}@git.example.com/app.git#egg=app\n"
        f"https://ci:{PASSWORD}@files.example.com/pkg-1.0.whl\n"
    )
    (repo / "package.json").write_text(
        json.dumps({"dependencies": {"app": f"git+https://ci:{PASSWORD}@git.example.com/a.git"}})
    )
    result = updates(repo, env_for(registry))
    assert result.exit_code == 0, result.output
    assert PASSWORD not in result.output
    warnings = json.loads(result.stdout)["warnings"]
    assert any("skipped editable install 'git+https://ci:[REDACTED]@" in w for w in warnings)
    assert any("skipped 'https://ci:[REDACTED]@files.example.com" in w for w in warnings)


def test_an_update_file_through_a_linked_folder_of_the_checkout_is_refused(tmp_path, outside):
    repo = checkout(tmp_path)
    (repo / "ci").symlink_to(outside.parent, target_is_directory=True)
    result = CliRunner().invoke(
        cli, ["updates", "-r", str(repo), "-u", str(repo / "ci" / "environ")], env={}
    )
    assert result.exit_code == 2
    assert TOKEN not in result.output
    assert "update file 'ci/environ' is not read: it is a symbolic link" in result.output


def test_an_update_file_quotes_its_values_short_and_redacted(tmp_path):
    week = tmp_path / "week.json"
    record = {"ecosystem": "pip", "package": "requests", "from": "2.0", "to": f"{TOKEN}"}
    week.write_text(json.dumps([record]))
    result = CliRunner().invoke(cli, ["updates", "-r", str(tmp_path), "-u", str(week)], env={})
    assert result.exit_code == 2
    assert TOKEN not in result.output and "is not a pip version" in result.output


def test_triage_report_and_trace_hold_no_manifest_secret(tmp_path, outside):
    """The whole run from the manifests: refused links appear by name only in every output."""
    world = two_package_world(tmp_path)
    (world.repo / "requirements-ci.txt").symlink_to(outside)
    (world.repo / "requirements-dev.txt").write_text(
        f"-e git+https://ci:{PASSWORD}@git.example.com/tools.git#egg=tools\n"
    )
    out = tmp_path / "out"
    with world.serve() as up:
        env = {
            "DEPBOT_PYPI_URL": up.url,
            "DEPBOT_NPM_URL": f"{up.url}/npm",
            "GITHUB_API_URL": f"{up.url}/github",
            "DEPBOT_ALLOW_PRIVATE_HOSTS": "1",
            "DEPBOT_NO_CACHE": "1",
        }
        result = CliRunner().invoke(cli, ["triage", "-r", str(world.repo), "-o", str(out)], env=env)
    assert result.exit_code in (0, 3), result.output
    blobs = {"output": result.output}
    blobs |= {p.name: p.read_text() for p in out.rglob("*") if p.is_file()}
    assert {"report.json", "trace.jsonl"} <= set(blobs)
    for name, text in blobs.items():
        assert TOKEN not in text and PASSWORD not in text, name
    assert "requirements-ci.txt: not read" in result.output
