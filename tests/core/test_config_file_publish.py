"""`labels:` and `assignees:` of .github/depbot.yml reach the issues `depbot publish` opens."""

from __future__ import annotations

from click.testing import CliRunner

from depbot.cli.main import cli
from depbot.core.settings import Settings
from depbot.output.draft_files import write_drafts
from depbot.output.publish import publish
from depbot.output.review import approve
from tests.helpers.fake_github import FakeGitHub
from tests.helpers.samples import urllib3_verdict


def drafts(tmp_path):
    out = tmp_path / "out"
    approve(out, [d.id for d in write_drafts(out, [urllib3_verdict()])])
    return out


def env_for(gh: FakeGitHub) -> dict[str, str]:
    return {
        "GITHUB_API_URL": f"{gh.url}/github",
        "GITHUB_TOKEN": gh.token,
        "DEPBOT_ALLOW_PRIVATE_HOSTS": "1",
        "DEPBOT_NO_CACHE": "1",
    }


def created_issue_bodies(gh: FakeGitHub) -> list[dict]:
    return [
        r.json()
        for r in gh.server.log
        if r.method == "POST" and r.path.endswith("/repos/acme/app/issues")
    ]


def test_labels_and_assignees_from_depbot_yml(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".github").mkdir(parents=True)
    (repo / ".github/depbot.yml").write_text(
        "labels: [triaged, dependencies]\nassignees: [alice]\n"
    )
    with FakeGitHub("acme/app") as gh:
        settings = Settings.from_env(env_for(gh), repo=repo)
        publish(drafts(tmp_path), settings, repo="acme/app", write_interval=0)
        (issue,) = gh.real_issues()
        names = [lab["name"] for lab in issue["labels"]]
        assert names == ["dependencies", "breaking-change", "triaged"]  # depbot's own first
        (sent,) = created_issue_bodies(gh)
        assert sent["assignees"] == ["alice"]


def test_without_settings_issues_carry_depbots_labels_and_nobody(tmp_path):
    with FakeGitHub("acme/app") as gh:
        publish(drafts(tmp_path), Settings.from_env(env_for(gh)), repo="acme/app", write_interval=0)
        (sent,) = created_issue_bodies(gh)
        assert sent["labels"] == ["dependencies", "breaking-change"] and "assignees" not in sent


def test_depbot_publish_reads_the_current_folder(tmp_path, monkeypatch):
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github/depbot.yml").write_text("labels: [from-file]\n")
    out = drafts(tmp_path)
    monkeypatch.chdir(tmp_path)
    with FakeGitHub("acme/app") as gh:
        env = {**env_for(gh), "DEPBOT_ASSIGNEES": "bob"}
        result = CliRunner().invoke(
            cli,
            ["publish", str(out), "--repo", "acme/app", "--all", "--write-interval", "0"],
            env=env,
        )
        assert result.exit_code == 0, result.output
        (sent,) = created_issue_bodies(gh)
        assert sent["labels"][-1] == "from-file" and sent["assignees"] == ["bob"]
