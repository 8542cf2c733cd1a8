"""`depbot drafts` and `depbot publish` through the real command line (click's runner)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from depbot.cli.main import cli
from depbot.output.draft_files import write_drafts
from depbot.output.review import load_review
from tests.helpers.fake_github import FakeGitHub
from tests.helpers.samples import simple_verdict, urllib3_verdict

URLLIB3 = "pip-urllib3-2.0.7"


@pytest.fixture
def out(tmp_path: Path) -> Path:
    folder = tmp_path / "out"
    write_drafts(folder, [urllib3_verdict(), simple_verdict("flask", "3.0.0", hits=3)])
    return folder


def invoke(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def test_list_drafts_of_a_folder(out):
    result = invoke("drafts", str(out))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["ID", "PACKAGE", "UPDATE", "HITS", "STATUS", "NOTES"]
    row = next(line for line in lines if line.startswith(URLLIB3))
    assert row.split()[:6] == [URLLIB3, "urllib3", "1.26.18", "→", "2.0.7", "1"]
    assert "pending" in row
    assert any(line.startswith("pip-flask-3.0.0") and " 3 " in line for line in lines)
    assert "2 draft(s): 0 approved, 2 pending, 0 rejected" in result.output


def test_default_folder_is_depbot_out(out, monkeypatch):
    monkeypatch.chdir(out.parent)
    out.rename(out.parent / "depbot-out")
    result = invoke("drafts")
    assert result.exit_code == 0 and URLLIB3 in result.output
    assert invoke("drafts", "approve", URLLIB3).exit_code == 0
    assert load_review(out.parent / "depbot-out")[URLLIB3].status == "approved"


def test_show_approve_reject(out):
    shown = invoke("drafts", "show", URLLIB3, "--dir", str(out))
    assert shown.exit_code == 0
    assert "[pending]" in shown.output
    assert "# urllib3 1.26.18 → 2.0.7 breaks 1 call site in 1 file" in shown.output
    assert "<!-- depbot: pip/urllib3@2.0.7 -->" in shown.output

    approved = invoke("drafts", "approve", URLLIB3, "--dir", str(out))
    assert approved.exit_code == 0 and f"approved {URLLIB3}" in approved.output
    rejected = invoke(
        "drafts", "reject", "pip-flask-3.0.0.md", "--why", "we pin flask 2", "-o", str(out)
    )
    assert rejected.exit_code == 0 and "rejected pip-flask-3.0.0: we pin flask 2" in rejected.output
    records = load_review(out)
    assert records[URLLIB3].status == "approved"
    assert (records["pip-flask-3.0.0"].status, records["pip-flask-3.0.0"].why) == (
        "rejected",
        "we pin flask 2",
    )
    listing = invoke("drafts", str(out)).output
    assert "why: we pin flask 2" in listing and "1 approved, 0 pending, 1 rejected" in listing
    # the folder may also come first, before the subcommand
    again = invoke("drafts", str(out), "show", URLLIB3)
    assert again.exit_code == 0 and "[approved]" in again.output


def test_reject_needs_a_reason(out):
    result = CliRunner().invoke(cli, ["drafts", "reject", URLLIB3, "--dir", str(out)])
    assert result.exit_code == 2 and "--why" in result.output
    result = invoke("drafts", "reject", URLLIB3, "--why", "  ", "--dir", str(out))
    assert result.exit_code == 2 and "say why" in result.output
    assert load_review(out)[URLLIB3].status == "pending"


def test_unknown_id_lists_the_valid_ones(out):
    result = invoke("drafts", "approve", "pip-urllib3-9.9.9", "--dir", str(out))
    assert result.exit_code == 2
    assert "unknown draft 'pip-urllib3-9.9.9'" in result.output
    assert f"drafts there: {URLLIB3}, pip-flask-3.0.0" in result.output or (
        f"pip-flask-3.0.0, {URLLIB3}" in result.output
    )
    assert "Traceback" not in result.output
    assert all(r.status == "pending" for r in load_review(out).values())


def test_missing_folder_is_a_clear_error(tmp_path):
    result = invoke("drafts", str(tmp_path / "nowhere"))
    assert result.exit_code == 2
    assert "no drafts in" in result.output and "depbot triage --out" in result.output


def test_hand_edit_shows_in_the_listing(out):
    path = out / "drafts" / f"{URLLIB3}.md"
    path.write_text(path.read_text() + "\nMy note.\n")
    assert "edited by hand" in invoke("drafts", str(out)).output
    assert "edited by hand" in invoke("drafts", "show", URLLIB3, "-o", str(out)).output


# --- publish --------------------------------------------------------------------------


def test_publish_needs_a_token_and_a_repository(out):
    result = invoke("publish", str(out), "--repo", "acme/app")
    assert result.exit_code == 2 and "GITHUB_TOKEN" in result.output
    result = invoke("publish", str(out), env={"GITHUB_TOKEN": "x"})
    assert result.exit_code == 2 and "--repo OWNER/REPO" in result.output
    result = invoke("publish", str(out), "--repo", "not-a-repo", env={"GITHUB_TOKEN": "x"})
    assert result.exit_code == 2 and "OWNER/REPO" in result.output


def test_publish_from_the_command_line(out, tmp_path):
    with FakeGitHub("acme/app") as gh:
        env = {
            "GITHUB_TOKEN": gh.token,
            "GITHUB_API_URL": gh.api,
            "GITHUB_REPOSITORY": "acme/app",
            "DEPBOT_ALLOW_PRIVATE_HOSTS": "1",
            "DEPBOT_CACHE_DIR": str(tmp_path / "cache"),
        }
        invoke("drafts", "approve", URLLIB3, "-o", str(out))
        dry = invoke("publish", str(out), "--dry-run", "--write-interval", "0", env=env)
        assert dry.exit_code == 0, dry.output
        assert "would create" in dry.output and gh.writes() == []
        first = invoke("publish", str(out), "--write-interval", "0", env=env)
        assert first.exit_code == 0, first.output
        assert "created" in first.output and "1 created, 1 skipped" in first.output
        second = invoke("publish", str(out), "--write-interval", "0", env=env)
        assert "1 unchanged, 1 skipped" in second.output
        assert len(gh.real_issues()) == 1
        gh.forbid_writes = True
        everything = invoke("publish", str(out), "--all", "--write-interval", "0", env=env)
        assert everything.exit_code == 1
        assert "issues: write" in everything.output and gh.token not in everything.output


def test_publish_exits_non_zero_when_a_draft_cannot_go(out, tmp_path):
    path = out / "drafts" / "pip-flask-3.0.0.md"
    path.write_text(path.read_text().split("\n", 1)[1])  # the title line is gone
    with FakeGitHub("acme/app") as gh:
        env = {
            "GITHUB_TOKEN": gh.token,
            "GITHUB_API_URL": gh.api,
            "DEPBOT_ALLOW_PRIVATE_HOSTS": "1",
            "DEPBOT_NO_CACHE": "1",
        }
        result = invoke(
            "publish", str(out), "-R", "acme/app", "--all", "--write-interval", "0", env=env
        )
        assert result.exit_code == 1
        assert "pip-flask-3.0.0.md has no '# title' first line" in result.output
        assert "1 draft(s) could not be published" in result.output
        assert len(gh.real_issues()) == 1  # the other draft still went
