"""End to end on the loopback GitHub: `depbot updates` finds the actions a checkout's
workflows use and their newest tags; `depbot triage` compares their action.yml at both tags."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from depbot.cli.main import cli
from depbot.fakes.upstream import FakeUpstream
from tests.helpers.worlds import write_tree

SHA = "8f152de45cc393bb48ce5d89d36b731f54556e65"
CI = f"""\
name: ci
on: push
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v3
        with:
          persist-credentials: false
      - uses: actions/setup-node@{SHA} # v3.8.1
        with:
          node-version: 20
      - uses: actions/cache@v4
      - uses: ./.github/actions/lint
"""
CHECKOUT_3 = "inputs:\n  persist-credentials: {default: true}\nruns: {using: node16, main: a.js}\n"
CHECKOUT_4 = "inputs:\n  token: {default: x}\nruns: {using: node20, main: a.js}\n"
NODE = "inputs:\n  node-version: {}\nruns: {using: node16, main: a.js}\n"


def _env(fake: FakeUpstream) -> dict[str, str]:
    """depbot pointed at the loopback GitHub (no cache)."""
    return {"GITHUB_API_URL": f"{fake.url}/github", "DEPBOT_RAW_URL": f"{fake.url}/raw",
            "DEPBOT_ALLOW_PRIVATE_HOSTS": "1", "DEPBOT_NO_CACHE": "1"}  # fmt: skip


@pytest.fixture
def world(tmp_path: Path):
    repo, up = tmp_path / "repo", tmp_path / "upstream" / "github_actions"
    write_tree(repo, {".github/workflows/ci.yml": CI, ".github/actions/lint/action.yml": "x: 1\n"})
    write_tree(up / "actions" / "checkout", {
        "dist/3/action.yml": CHECKOUT_3, "dist/3.6.0/action.yml": CHECKOUT_3,
        "dist/4/action.yml": CHECKOUT_4, "dist/4.1.0/action.yml": CHECKOUT_4,
        "releases.json": json.dumps([{"tag_name": "v4.0.0", "body": "## Breaking\n\n"
                                      "- The `persist-credentials` input is removed."}]),
    })  # fmt: skip
    write_tree(up / "actions" / "setup-node", {
        "dist/3.8.1/action.yml": NODE, "dist/4.0.0/action.yml": NODE.replace("16", "20"),
    })  # fmt: skip
    write_tree(up / "actions" / "cache", {"dist/4/action.yml": NODE, "dist/4.0.2/action.yml": NODE})
    with FakeUpstream(tmp_path / "upstream") as fake:
        env = _env(fake)
        yield repo, env, tmp_path, fake


def test_updates_lists_each_action_at_its_newest_tag(world):
    repo, env, *_ = world
    got = CliRunner().invoke(cli, ["updates", "-C", str(repo), "--json"], env=env)
    assert got.exit_code == 0, got.output
    data = json.loads(got.stdout)
    found = sorted((u["ecosystem"], u["package"], u["from"], u["to"]) for u in data["updates"])
    assert found == [
        ("github_actions", "actions/checkout", "3", "4.1.0"),
        ("github_actions", "actions/setup-node", "3.8.1", "4.0.0"),  # the SHA pin's comment
    ]  # actions/cache@v4 already runs 4.0.2: a floating major tag
    assert any("./.github/actions/lint (a local action" in w for w in data["warnings"])


def test_triage_cites_the_step_that_gives_a_removed_input(world):
    repo, env, tmp, _ = world
    out = tmp / "out"
    got = CliRunner().invoke(
        cli, ["triage", "-C", str(repo), "-o", str(out), "--fail-on", "never"], env=env
    )
    assert got.exit_code == 0, got.output
    report = json.loads((out / "report.json").read_text())
    verdicts = {u["package"]: u["verdict"] for u in report["updates"]}
    assert verdicts["actions/checkout"] == "affected"
    (draft,) = (out / "drafts").glob("github_actions-actions-checkout-*.md")
    body = draft.read_text()
    assert ".github/workflows/ci.yml:9" in body  # the `persist-credentials:` key of the step
    assert "the input persist-credentials is gone" in body  # the released code says so too


def test_dependabot_yml_github_actions_entries_are_honoured(world):
    repo, env, *_ = world
    (repo / ".github" / "dependabot.yml").write_text(
        "version: 2\nupdates:\n  - package-ecosystem: github-actions\n    directory: /\n"
        "    ignore:\n      - dependency-name: actions/setup-node\n"
    )
    got = CliRunner().invoke(cli, ["updates", "-C", str(repo), "--json"], env=env)
    assert got.exit_code == 0, got.output
    found = [(u["package"], u["to"]) for u in json.loads(got.stdout)["updates"]]
    assert found == [("actions/checkout", "4.1.0")]  # "/" means .github/workflows
    (repo / ".github" / "dependabot.yml").write_text(
        "version: 2\nupdates:\n  - package-ecosystem: pip\n    directory: /\n"
    )
    got = CliRunner().invoke(cli, ["updates", "-C", str(repo), "--json"], env=env)
    assert json.loads(got.stdout)["updates"] == []  # no github-actions entry: none configured


def test_the_tags_are_asked_with_the_github_token(world):
    repo, env, _, fake = world
    got = CliRunner().invoke(cli, ["updates", "-C", str(repo), "--json"],
                             env={**env, "GITHUB_TOKEN": "ghp_tagsreader"})  # fmt: skip
    assert got.exit_code == 0, got.output
    asked = [r for r in fake.requests if r.path.endswith("/tags")]
    assert asked and all(r.headers.get("authorization") == "Bearer ghp_tagsreader" for r in asked)
    assert "ghp_tagsreader" not in got.output


LOCK = """\
name: lock
on: {schedule: [{cron: '0 0 * * *'}]}
jobs:
  lock:
    runs-on: ubuntu-latest
    steps:
      - uses: acme/lock-threads@v3
        with:
          issue-lock-inactive-days: 90
"""
LOCK_ACTION = (
    "inputs:\n  issue-inactive-days: {default: '365'}\nruns: {using: node12, main: a.js}\n"
)


def test_a_default_behaviour_change_and_an_input_neither_release_declares(tmp_path: Path):
    # the notes change what the action does by default (a behaviour no API diff shows), and
    # the step passes an input the old action already renamed: unknown, saying both
    repo, up = tmp_path / "repo", tmp_path / "upstream" / "github_actions"
    write_tree(repo, {".github/workflows/lock.yml": LOCK})
    write_tree(up / "acme" / "lock-threads", {
        "dist/3/action.yml": LOCK_ACTION,
        "dist/5.0.0/action.yml": LOCK_ACTION.replace("node12", "node20"),
        "releases.json": json.dumps([{"tag_name": "v5.0.0", "body": "### BREAKING CHANGES\n\n"
            "* Discussions are also processed by default; set the `process-only` input "
            "parameter to keep the old behavior\n* the action now requires Node.js 20\n"}]),
    })  # fmt: skip
    with FakeUpstream(tmp_path / "upstream") as fake:
        env = _env(fake)
        out = tmp_path / "out"
        got = CliRunner().invoke(
            cli, ["triage", "-C", str(repo), "-o", str(out), "--fail-on", "never"], env=env
        )
    assert got.exit_code == 0, got.output
    (u,) = json.loads((out / "report.json").read_text())["updates"]
    assert (u["package"], u["verdict"]) == ("acme/lock-threads", "unknown")
    assert "Discussions are also processed by default" in u["reason"]
    assert "`inputs.issue-lock-inactive-days`, which neither release declares" in u["reason"]
    names = {n["name"]: n["fate"] for n in u["accounting"]["names"]}
    assert names == {"inputs.issue-lock-inactive-days": "undeclared"}


def test_an_action_with_more_tags_than_a_page_is_read_past_the_first_page(tmp_path: Path):
    # 152 tags, 100 a page: the newest major is listed on the second page
    repo, up = tmp_path / "repo", tmp_path / "upstream" / "github_actions"
    step = "      - uses: acme/many@v1\n"
    write_tree(repo, {".github/workflows/ci.yml": CI.split("      - uses:")[0] + step})
    action = "inputs: {}\nruns: {using: node20, main: a.js}\n"
    tree = {f"dist/1.0.{i}/action.yml": action for i in range(150)}
    write_tree(up / "acme" / "many", {**tree, "dist/1/action.yml": action,
                                      "dist/2.0.0/action.yml": action})  # fmt: skip
    with FakeUpstream(tmp_path / "upstream") as fake:
        got = CliRunner().invoke(cli, ["updates", "-C", str(repo), "--json"], env=_env(fake))
        pages = [r.query.get("page", "1") for r in fake.requests if r.path.endswith("/tags")]
    assert got.exit_code == 0, got.output
    (u,) = json.loads(got.stdout)["updates"]
    assert (u["package"], u["from"], u["to"]) == ("acme/many", "1", "2.0.0")
    assert pages == ["1", "2"]  # a short second page ends the listing
