"""publish against a stateful fake of the GitHub REST API (tests/fake_github.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from depbot.core.errors import ConfigError, PublishError
from depbot.output.draft_files import write_drafts
from depbot.output.publish import pr_marker, publish
from depbot.output.review import approve, load_review, reject
from depbot.records.verdict import Hit
from tests.helpers.fake_github import FakeGitHub
from tests.helpers.samples import simple_verdict, urllib3_verdict
from tests.helpers.settings import loopback_settings

URLLIB3 = "pip-urllib3-2.0.7"
ISSUES = r"/repos/acme/app/issues$"


@pytest.fixture
def gh():
    with FakeGitHub("acme/app") as fake:
        yield fake


def run(gh: FakeGitHub, out: Path, **kw):
    settings = loopback_settings(gh.url, github_token=gh.token, http_retries=2)
    lines: list[str] = []
    summary = publish(
        out,
        settings,
        repo="acme/app",
        write_interval=0,
        progress=lambda a: lines.append(a.line(kw.get("dry_run", False))),
        **kw,
    )
    summary.printed = lines  # type: ignore[attr-defined]
    return summary


def drafts_of(tmp_path: Path, *verdicts, approve_all: bool = True) -> Path:
    out = tmp_path / "out"
    drafts = write_drafts(out, list(verdicts))
    if approve_all:
        approve(out, [d.id for d in drafts])
    return out


def test_publish_twice_makes_one_issue(gh, tmp_path):
    out = drafts_of(tmp_path, urllib3_verdict())
    first = run(gh, out)
    assert [a.action for a in first.actions] == ["created"]
    (issue,) = gh.real_issues()
    assert issue["title"] == "urllib3 1.26.18 → 2.0.7 breaks 1 call site in 1 file"
    assert "<!-- depbot: pip/urllib3@2.0.7 -->" in issue["body"]
    assert {lab["name"] for lab in issue["labels"]} == {"dependencies", "breaking-change"}
    assert set(gh.labels) == {"dependencies", "breaking-change"}
    pub = load_review(out)[URLLIB3].published
    assert pub is not None and pub.issue == issue["number"] and pub.url == issue["html_url"]
    writes_after_first = len(gh.writes())

    second = run(gh, out)
    print("\n".join(first.printed + [first.totals()] + second.printed + [second.totals()]))
    assert [a.action for a in second.actions] == ["unchanged"]
    assert len(gh.real_issues()) == 1
    assert len(gh.writes()) == writes_after_first  # the second run wrote nothing
    assert gh.count("POST", ISSUES) == 1


def test_changed_draft_updates_the_open_issue(gh, tmp_path):
    out = drafts_of(tmp_path, urllib3_verdict())
    run(gh, out)
    path = out / "drafts" / f"{URLLIB3}.md"
    path.write_text(
        path.read_text().replace("## Checklist", "Owner: the platform team.\n\n## Checklist")
    )
    summary = run(gh, out)
    assert [a.action for a in summary.actions] == ["updated"]
    (issue,) = gh.real_issues()
    assert "Owner: the platform team." in issue["body"]
    assert gh.count("PATCH", r"/issues/\d+$") == 1
    assert [a.action for a in run(gh, out).actions] == ["unchanged"]

    # a later triage finds another call site: new render, approved again, issue updated
    more = urllib3_verdict(
        hits=[
            Hit("h1", "statuspoller/http.py", 26, "method_whitelist=x"),
            Hit("h2", "statuspoller/checks.py", 8, "method_whitelist=y"),
        ]
    )
    path.unlink()  # the person takes the new render
    write_drafts(out, [more])
    assert [a.action for a in run(gh, out).actions] == ["skipped"]  # needs review again
    approve(out, [URLLIB3])
    assert [a.action for a in run(gh, out).actions] == ["updated"]
    (issue,) = gh.real_issues()
    assert issue["title"].endswith("breaks 2 call sites in 2 files")


def test_edits_made_on_github_survive_an_unchanged_draft(gh, tmp_path):
    out = drafts_of(tmp_path, urllib3_verdict())
    run(gh, out)
    (issue,) = gh.real_issues()
    issue["body"] = issue["body"].replace(
        "## Suggested fix", "Assigned to Sam.\n\n## Suggested fix"
    )
    issue["title"] = "urllib3 2: fix Retry"
    # a fresh output folder (the weekly job starts empty): the same findings again
    out2 = drafts_of(tmp_path / "week2", urllib3_verdict())
    assert [a.action for a in run(gh, out2).actions] == ["unchanged"]
    assert "Assigned to Sam." in gh.real_issues()[0]["body"]


def test_closed_issue_is_left_alone_unless_reopen(gh, tmp_path):
    out = drafts_of(tmp_path, urllib3_verdict())
    run(gh, out)
    (issue,) = gh.real_issues()
    issue["state"] = "closed"
    path = out / "drafts" / f"{URLLIB3}.md"
    path.write_text(path.read_text() + "\nOne more note.\n")
    summary = run(gh, out)
    assert [a.action for a in summary.actions] == ["closed"]
    assert "--reopen" in summary.actions[0].note
    assert len(gh.real_issues()) == 1 and issue["state"] == "closed"
    assert "One more note." not in issue["body"]
    assert gh.count("PATCH", r"/issues/\d+$") == 0

    summary = run(gh, out, reopen=True)
    assert [a.action for a in summary.actions] == ["reopened"]
    assert issue["state"] == "open" and "One more note." in issue["body"]
    assert len(gh.real_issues()) == 1


def test_403_is_a_clear_error_and_nothing_is_recorded(gh, tmp_path):
    out = drafts_of(tmp_path, urllib3_verdict())
    gh.labels.update({n: {"name": n} for n in ("dependencies", "breaking-change")})
    gh.forbid_writes = True
    with pytest.raises(PublishError) as err:
        run(gh, out)
    message = str(err.value)
    assert "HTTP 403" in message and "issues: write" in message
    assert gh.token not in message
    assert gh.real_issues() == []
    assert load_review(out)[URLLIB3].published is None


def test_no_token_fails_before_any_request(gh, tmp_path):
    out = drafts_of(tmp_path, urllib3_verdict())
    settings = loopback_settings(gh.url)  # no github_token
    with pytest.raises(ConfigError, match="GITHUB_TOKEN"):
        publish(out, settings, repo="acme/app", write_interval=0)
    assert gh.server.log == []


def test_missing_repository_and_disabled_issues(gh, tmp_path):
    out = drafts_of(tmp_path, urllib3_verdict())
    settings = loopback_settings(gh.url, github_token=gh.token)
    with pytest.raises(PublishError, match="acme/nope was not found"):
        publish(out, settings, repo="acme/nope", write_interval=0)
    gh.has_issues = False
    with pytest.raises(PublishError, match="issues are turned off"):
        publish(out, settings, repo="acme/app", write_interval=0)
    assert gh.writes() == []


def test_interrupted_run_resumes_without_duplicates(gh, tmp_path):
    out = drafts_of(
        tmp_path,
        simple_verdict("flask", "3.0.0"),
        simple_verdict("pyyaml", "6.0.1"),
        urllib3_verdict(),
    )
    gh.fail("POST", ISSUES, status=500, skip=1, times=0)  # every create after the first fails
    with pytest.raises(PublishError) as err:
        run(gh, out)
    # the second create failed with a 500: GitHub may have made it, so it is not "left"
    assert "may have been published" in str(err.value)
    assert "1 other draft(s) not published yet" in str(err.value)
    assert "again" in str(err.value)
    assert len(gh.real_issues()) == 1
    assert gh.count("POST", ISSUES) == 2  # the failed create was not retried
    recorded = {i: r.published.issue for i, r in load_review(out).items() if r.published}
    assert recorded == {"pip-flask-3.0.0": 1}

    gh.faults.clear()
    summary = run(gh, out)
    assert sorted((a.draft, a.action) for a in summary.actions) == [
        ("pip-flask-3.0.0", "unchanged"),
        ("pip-pyyaml-6.0.1", "created"),
        (URLLIB3, "created"),
    ]
    assert len(gh.real_issues()) == 3
    assert gh.count("POST", ISSUES) == 4


def test_create_that_succeeded_but_lost_its_answer_is_found_by_marker(gh, tmp_path):
    out = drafts_of(tmp_path, urllib3_verdict())
    gh.fail("POST", ISSUES, drop=True, after=True)  # GitHub made it; the answer never came
    with pytest.raises(PublishError):
        run(gh, out)
    assert len(gh.real_issues()) == 1
    assert load_review(out)[URLLIB3].published is None  # we never saw the answer
    summary = run(gh, out)
    assert [a.action for a in summary.actions] == ["unchanged"]
    assert len(gh.real_issues()) == 1
    assert load_review(out)[URLLIB3].published.issue == gh.real_issues()[0]["number"]


def test_a_create_answered_502_is_counted_as_maybe_published_not_as_left(gh, tmp_path):
    # #28 item 5: GitHub made the issue, then answered 502; the first run said "1 draft(s)
    # not published yet", which the rerun (finding it by its marker) showed was not so
    out = drafts_of(tmp_path, urllib3_verdict())
    gh.fail("POST", ISSUES, status=502, after=True)
    with pytest.raises(PublishError) as err:
        run(gh, out)
    said = str(err.value)
    assert "not published yet" not in said
    assert f"{URLLIB3} may have been published" in said and "publish again" in said
    assert [a.action for a in run(gh, out).actions] == ["unchanged"]
    assert len(gh.real_issues()) == 1


def test_ten_runs_leave_one_issue_per_marker(gh, tmp_path):
    verdicts = [
        simple_verdict("flask", "3.0.0"),
        simple_verdict("@acme/ui", "5.0.0", ecosystem="npm"),
        urllib3_verdict(),
    ]
    out = drafts_of(tmp_path, *verdicts)
    gh.per_page_cap = 2  # the marker lookup has to follow Link pagination
    for _ in range(3):
        gh.add_pull("Bump something")  # Dependabot PRs share the dependencies label
    for i in range(10):
        if i == 4:
            path = out / "drafts" / f"{URLLIB3}.md"
            path.write_text(path.read_text() + "\nEdited in week 4.\n")
        if i == 7:  # a fresh folder in week 7, as a CI job would have
            out = drafts_of(tmp_path / f"run{i}", *verdicts)
        run(gh, out)
    for key in ("pip/flask@3.0.0", "npm/@acme/ui@5.0.0", "pip/urllib3@2.0.7"):
        assert len(gh.issues_with_marker(key)) == 1, key
    assert len(gh.real_issues()) == 3
    assert gh.count("POST", ISSUES) == 3
    assert any(
        r.query.get("page") == "2" for r in gh.server.requests("/github/repos/acme/app/issues")
    )


def test_found_by_search_after_people_removed_the_labels(gh, tmp_path):
    out = drafts_of(tmp_path, urllib3_verdict())
    run(gh, out)
    (issue,) = gh.real_issues()
    issue["labels"] = []
    gh.reindex()
    fresh = drafts_of(tmp_path / "fresh", urllib3_verdict())  # no review record to go by
    assert [a.action for a in run(gh, fresh).actions] == ["unchanged"]
    assert gh.count("GET", r"/search/issues$") >= 1
    # search broken or behind: the review record still finds it
    gh.search_broken = True
    assert [a.action for a in run(gh, out).actions] == ["unchanged"]
    assert len(gh.real_issues()) == 1


def test_no_duplicates_from_a_fresh_folder_when_labels_are_gone_and_search_lags(gh, tmp_path):
    # #28 item 9: in Actions every run has a fresh folder (no review.json); with the labels
    # gone (people remove them; GitHub drops them on create for a token without push access)
    # and search not yet indexing the new issues, all four were made again
    verdicts = [simple_verdict(n, "3.0.0") for n in ("flask", "pyyaml", "jinja2")]
    gh.search_lag = True  # nothing made from here on is in the search index
    run(gh, drafts_of(tmp_path, urllib3_verdict(), *verdicts))
    for issue in gh.real_issues():
        issue["labels"] = []
    fresh = drafts_of(tmp_path / "fresh", urllib3_verdict(), *verdicts)
    searched = gh.count("GET", r"/search/issues$")
    assert [a.action for a in run(gh, fresh).actions] == ["unchanged"] * 4
    assert len(gh.real_issues()) == 4
    assert gh.count("GET", r"/search/issues$") == searched  # found by the listing
    listing = gh.server.requests("/github/repos/acme/app/issues")
    assert any(r.query.get("creator") for r in listing)


def test_dry_run_sends_no_writes(gh, tmp_path):
    out = drafts_of(tmp_path, urllib3_verdict(), simple_verdict("flask", "3.0.0"))
    summary = run(gh, out, dry_run=True)
    assert [a.action for a in summary.actions] == ["created", "created"]
    assert summary.printed[0].startswith("would create")
    assert summary.totals().startswith("dry run, nothing was sent: 2 created")
    assert gh.writes() == [] and gh.labels == {} and gh.issues == {}
    assert all(r.published is None for r in load_review(out).values())

    run(gh, out)
    path = out / "drafts" / f"{URLLIB3}.md"
    path.write_text(path.read_text() + "\nchanged\n")
    gh.issues[1]["state"] = "closed"
    before = len(gh.writes())
    summary = run(gh, out, dry_run=True, reopen=True)
    assert sorted(a.action for a in summary.actions) == ["reopened", "updated"]
    assert len(gh.writes()) == before
    assert gh.issues[1]["state"] == "closed"


def test_dry_run_without_token_reads_anonymously(gh, tmp_path):
    out = drafts_of(tmp_path, urllib3_verdict())
    settings = loopback_settings(gh.url)
    summary = publish(out, settings, repo="acme/app", dry_run=True, write_interval=0)
    assert [a.action for a in summary.actions] == ["created"]
    assert gh.writes() == []


def test_comment_on_pr_posts_once_then_updates(gh, tmp_path):
    pr = gh.add_pull("Bump urllib3 from 1.26.18 to 2.0.7")
    out = drafts_of(tmp_path, urllib3_verdict(pr=pr))
    summary = run(gh, out, comment_on_pr=True)
    assert [a.action for a in summary.actions] == ["created", "commented"]
    (comment,) = gh.comments.values()
    issue = gh.real_issues()[0]
    assert comment["issue"] == pr and f"#{issue['number']}" in comment["body"]
    assert pr_marker("pip/urllib3@2.0.7") in comment["body"]
    assert load_review(out)[URLLIB3].published.comment_id == comment["id"]

    summary = run(gh, out, comment_on_pr=True)
    assert [a.action for a in summary.actions] == ["unchanged", "comment unchanged"]
    assert gh.count("POST", r"/comments$") == 1 and gh.count("PATCH", r"/comments/\d+$") == 0

    path = out / "drafts" / f"{URLLIB3}.md"
    path.write_text(re.sub(r"^# .*", "# urllib3 2.0.7 breaks our Retry policy", path.read_text()))
    summary = run(gh, out, comment_on_pr=True)
    assert [a.action for a in summary.actions] == ["updated", "comment updated"]
    (comment,) = gh.comments.values()
    assert "breaks our Retry policy" in comment["body"]
    assert gh.count("POST", r"/comments$") == 1


def test_comment_needs_a_dependabot_pr(gh, tmp_path):
    out = drafts_of(tmp_path, urllib3_verdict())  # from an update file, not a PR
    summary = run(gh, out, comment_on_pr=True)
    assert [a.action for a in summary.actions] == ["created"]
    assert gh.comments == {}


def test_selection_approved_all_rejected(gh, tmp_path):
    out = drafts_of(
        tmp_path,
        urllib3_verdict(),
        simple_verdict("flask", "3.0.0"),
        simple_verdict("pyyaml", "6.0.1"),
        approve_all=False,
    )
    approve(out, [URLLIB3])
    reject(out, ["pip-pyyaml-6.0.1"], why="we stay on 5.x")
    summary = run(gh, out)
    actions = {a.draft: a.action for a in summary.actions}
    assert actions == {
        URLLIB3: "created",
        "pip-flask-3.0.0": "skipped",
        "pip-pyyaml-6.0.1": "skipped",
    }
    summary = run(gh, out, all_drafts=True)
    actions = {a.draft: (a.action, a.note) for a in summary.actions}
    assert actions["pip-flask-3.0.0"][0] == "created"
    assert actions["pip-pyyaml-6.0.1"] == ("skipped", "rejected: we stay on 5.x")
    assert len(gh.real_issues()) == 2


def test_removed_marker_is_restored_and_oversized_draft_refused(gh, tmp_path):
    out = drafts_of(tmp_path, urllib3_verdict(), simple_verdict("flask", "3.0.0"))
    path = out / "drafts" / f"{URLLIB3}.md"
    path.write_text(path.read_text().replace("<!-- depbot: pip/urllib3@2.0.7 -->", ""))
    big = out / "drafts" / "pip-flask-3.0.0.md"
    big.write_text(big.read_text() + "x" * 70_000)
    summary = run(gh, out)
    actions = {a.draft: (a.action, a.note) for a in summary.actions}
    assert actions[URLLIB3][0] == "created"
    assert actions["pip-flask-3.0.0"][0] == "failed" and "65,536" in actions["pip-flask-3.0.0"][1]
    assert len(gh.issues_with_marker("pip/urllib3@2.0.7")) == 1
    assert run(gh, out).actions[-1].action == "unchanged"


def test_publish_never_reads_github_through_the_disk_cache(gh, tmp_path):
    # the fake sends no ETag: a cached issue list would hide the issue made a run ago
    settings = loopback_settings(gh.url, tmp_path / "cache", github_token=gh.token)
    for week in range(3):
        out = drafts_of(tmp_path / f"week{week}", urllib3_verdict())
        publish(out, settings, repo="acme/app", write_interval=0)
    assert len(gh.real_issues()) == 1


def test_wrong_token_and_rate_limits_say_so(gh, tmp_path):
    out = drafts_of(tmp_path, urllib3_verdict())
    wrong = loopback_settings(gh.url, github_token="ghp_wrong_wrong_wrong_wrong_wrong_wrong")
    with pytest.raises(PublishError, match="rejected the token .*check GITHUB_TOKEN"):
        publish(out, wrong, repo="acme/app", write_interval=0)
    gh.labels.update({n: {"name": n} for n in ("dependencies", "breaking-change")})
    gh.fail(  # GitHub's secondary rate limit answer
        "POST", ISSUES, status=403, times=0, message="You have exceeded a secondary rate limit."
    )
    with pytest.raises(PublishError) as err:
        run(gh, out)
    assert "rate limit" in str(err.value) and "issues: write" not in str(err.value)
    assert gh.real_issues() == [] and load_review(out)[URLLIB3].published is None
    gh.faults.clear()  # #28 item 12: with GitHub's retry-after, the message says how long
    gh.fail("POST", ISSUES, status=403, times=0, headers={"Retry-After": "60"},
            message="You have exceeded a secondary rate limit.")  # fmt: skip
    with pytest.raises(PublishError, match=r"wait 60 s .*and publish again"):
        run(gh, out)


def test_comment_permission_error_keeps_the_issue_record(gh, tmp_path):
    pr = gh.add_pull()
    out = drafts_of(tmp_path, urllib3_verdict(pr=pr))
    gh.fail("POST", r"/comments$", status=403, times=0)
    with pytest.raises(PublishError, match="pull-requests: write"):
        run(gh, out, comment_on_pr=True)
    (issue,) = gh.real_issues()
    assert load_review(out)[URLLIB3].published.issue == issue["number"]
    gh.faults.clear()
    summary = run(gh, out, comment_on_pr=True)
    assert [a.action for a in summary.actions] == ["unchanged", "commented"]
