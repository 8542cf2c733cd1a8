"""The issue tracker is not trusted (#18): marked issues by others, and publishes at once.

Against the loopback GitHub fake (tests/helpers/fake_github.py) over real HTTP: an issue
is depbot's only when the identity publishing now opened it; a second publish of one
output folder waits for the first (the folder's run lock); two publishes of two folders
at once still leave one open issue per marker.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import threading
import time
from pathlib import Path

import pytest

from depbot.core.errors import PublishError
from depbot.core.settings import Settings
from depbot.output.draft_files import write_drafts
from depbot.output.drafts import marker_for
from depbot.output.publish import publish
from depbot.output.review import approve, load_review
from depbot.output.runlock import FolderInUse, FolderLock
from tests.helpers.fake_github import FakeGitHub
from tests.helpers.samples import simple_verdict, urllib3_verdict
from tests.helpers.settings import loopback_settings

URLLIB3, PYYAML, FLASK = "pip/urllib3@2.0.7", "pip/pyyaml@6.0.1", "pip/flask@3.0.0"
LABELS = ("dependencies", "breaking-change")


@pytest.fixture
def gh():
    with FakeGitHub("acme/app") as fake:
        yield fake


def drafts_of(folder: Path, *verdicts) -> Path:
    out = folder / "out"
    approve(out, [d.id for d in write_drafts(out, list(verdicts))])
    return out


def run(gh: FakeGitHub, out: Path, token: str | None = None, **kw):
    settings = loopback_settings(
        gh.url, github_token=token or gh.token, http_retries=1, bot_login=kw.pop("bot", None)
    )
    return publish(out, settings, repo="acme/app", write_interval=0, **kw)


def squat(gh: FakeGitHub, key: str, author: str, state: str = "open", labels=LABELS) -> dict:
    body = f"Totally legit.\n\n{marker_for(key)}"
    return gh.add_issue(f"{key} (by {author})", body, labels=labels, state=state, author=author)


# -- 1. marker squatting ------------------------------------------------------------------------


def test_marked_issues_by_others_are_ignored_open_and_closed(gh, tmp_path):
    # before: urllib3 "closed: left alone" (mallory's closed issue), pyyaml "updated" eve's
    closed = squat(gh, URLLIB3, "mallory", state="closed")
    opened = squat(gh, PYYAML, "eve")
    own = squat(gh, FLASK, gh.login)  # depbot's own earlier issue (an older text)
    before = {n: dict(i) for n, i in gh.issues.items()}
    out = drafts_of(
        tmp_path,
        urllib3_verdict(),
        simple_verdict("pyyaml", "6.0.1"),
        simple_verdict("flask", "3.0.0"),
    )
    summary = run(gh, out)
    acts = {a.draft: (a.action, a.issue) for a in summary.actions}
    assert acts["pip-urllib3-2.0.7"][0] == "created"
    assert acts["pip-pyyaml-6.0.1"][0] == "created"
    assert acts["pip-flask-3.0.0"] == ("updated", own["number"])
    for issue in (closed, opened):
        assert gh.issues[issue["number"]] == before[issue["number"]]  # not touched
    assert gh.count("PATCH", rf"/issues/({closed['number']}|{opened['number']})$") == 0
    for key in (URLLIB3, PYYAML):
        mine = [i for i in gh.issues_with_marker(key) if i["user"]["login"] == gh.login]
        assert len(mine) == 1 and mine[0]["state"] == "open"
    assert "ignored 2 issues by @eve and @mallory that carry depbot's marker" in summary.totals()
    recorded = {r.key: r.published.issue for r in load_review(out).values() if r.published}
    assert closed["number"] not in recorded.values() and opened["number"] not in recorded.values()

    again = run(gh, out)  # and it stays that way
    assert sorted(a.action for a in again.actions) == ["unchanged"] * 3
    assert again.totals().count("ignored") == 1


def test_summary_names_one_squatter_once(gh, tmp_path):
    squat(gh, URLLIB3, "mallory", state="closed")
    out = drafts_of(tmp_path, urllib3_verdict())
    summary = run(gh, out)
    assert [a.action for a in summary.actions] == ["created"]
    assert summary.totals().endswith("ignored 1 issue by @mallory that carries depbot's marker")


def test_search_fallback_asks_for_the_author_and_checks_it_again(gh, tmp_path):
    mine = squat(gh, FLASK, gh.login, labels=())  # people removed the labels
    squat(gh, URLLIB3, "mallory", labels=())
    gh.reindex()
    gh.search_checks_author = False  # a sloppy index: results by anyone
    out = drafts_of(tmp_path, urllib3_verdict(), simple_verdict("flask", "3.0.0"))
    summary = run(gh, out)
    acts = {a.draft: (a.action, a.issue) for a in summary.actions}
    assert acts["pip-flask-3.0.0"] == ("updated", mine["number"])
    assert acts["pip-urllib3-2.0.7"][0] == "created"
    (query,) = [r.query["q"] for r in gh.server.requests("/github/search/issues")]
    assert "author:depbot-tester" in query
    assert "ignored 1 issue by @mallory" in summary.totals()


def test_recorded_issue_now_by_someone_else_is_not_used(gh, tmp_path):
    out = drafts_of(tmp_path, urllib3_verdict())
    run(gh, out)
    (issue,) = gh.real_issues()
    issue["user"] = {"login": "mallory"}  # what depbot recorded is not its issue (any more)
    issue["labels"] = []
    summary = run(gh, out)
    assert [a.action for a in summary.actions] == ["created"]
    assert "ignored 1 issue by @mallory" in summary.totals()


def test_actions_token_is_github_actions_bot(gh, tmp_path):
    token = gh.add_token("ghs_actions_token_for_tests", "github-actions[bot]", app=True)
    squat(gh, URLLIB3, "mallory", state="closed")
    out = drafts_of(tmp_path, urllib3_verdict())
    summary = run(gh, out, token, bot="github-actions[bot]")
    assert [a.action for a in summary.actions] == ["created"]
    (made,) = [i for i in gh.real_issues() if i["user"]["login"] == "github-actions[bot]"]
    assert [a.action for a in run(gh, out, token, bot="github-actions[bot]").actions] == [
        "unchanged"
    ]
    assert made["state"] == "open"
    made["labels"] = []  # found again by search alone, which names the bot as app/<slug>
    gh.reindex()
    fresh = drafts_of(tmp_path / "fresh", urllib3_verdict())
    assert [a.action for a in run(gh, fresh, token, bot="github-actions[bot]").actions] == [
        "unchanged"
    ]
    queries = [r.query["q"] for r in gh.server.requests("/github/search/issues")]
    assert queries and all("author:app/github-actions" in q for q in queries)
    env = {"GITHUB_ACTIONS": "true", "DEPBOT_NO_CACHE": "1"}
    assert Settings.from_env(env).bot_login == "github-actions[bot]"
    env["DEPBOT_BOT_LOGIN"] = "acme-depbot[bot]"
    assert Settings.from_env(env).bot_login == "acme-depbot[bot]"
    assert Settings.from_env({"DEPBOT_NO_CACHE": "1"}).bot_login is None


def test_app_token_without_a_bot_login_is_one_clear_line(gh, tmp_path):
    token = gh.add_token("ghs_app_token_for_tests", "acme-depbot[bot]", app=True)
    out = drafts_of(tmp_path, urllib3_verdict())
    with pytest.raises(PublishError) as err:
        run(gh, out, token)
    assert "DEPBOT_BOT_LOGIN" in str(err.value) and "\n" not in str(err.value)
    assert gh.writes() == []
    # configured, but not what GitHub says: stops at the first issue and says what to set
    with pytest.raises(PublishError, match=r"DEPBOT_BOT_LOGIN=acme-depbot\[bot\]"):
        run(gh, out, token, bot="github-actions[bot]")
    assert len(gh.real_issues()) == 1
    assert [a.action for a in run(gh, out, token, bot="acme-depbot[bot]").actions] == ["unchanged"]


def test_token_without_issue_permission_is_one_line(gh, tmp_path):
    out = drafts_of(tmp_path, urllib3_verdict())
    gh.labels.update({n: {"name": n} for n in LABELS})
    gh.forbid_writes = True
    with pytest.raises(PublishError) as err:
        run(gh, out)
    message = str(err.value)
    assert "\n" not in message and "HTTP 403" in message and "issues: write" in message
    gh.forbid_writes = False
    assert [a.action for a in run(gh, out).actions] == ["created"]  # the lock was let go


def test_pr_comment_with_depbots_marker_by_someone_else_is_not_edited(gh, tmp_path):
    from depbot.output.publish import pr_marker

    pr = gh.add_pull("Bump urllib3 from 1.26.18 to 2.0.7")
    planted = gh.add_comment(pr, f"gotcha {pr_marker(URLLIB3)}", author="mallory")
    out = drafts_of(tmp_path, urllib3_verdict(pr=pr))
    summary = run(gh, out, comment_on_pr=True)
    assert [a.action for a in summary.actions] == ["created", "commented"]
    assert gh.comments[planted["id"]]["body"].startswith("gotcha")
    assert gh.count("PATCH", r"/comments/\d+$") == 0


# -- 2. two publishes at once -------------------------------------------------------------------


def test_a_held_folder_makes_publish_wait_then_name_the_holder(gh, tmp_path):
    out = drafts_of(tmp_path, urllib3_verdict())
    with FolderLock(out, command="triage"):
        start = time.monotonic()
        with pytest.raises(FolderInUse) as err:
            run(gh, out, lock_wait=0.2)
        assert time.monotonic() - start >= 0.2
    message = str(err.value)
    assert f"pid {os.getpid()}" in message and "started" in message and "\n" not in message
    assert gh.server.log == []  # nothing asked before the lock
    holder = FolderLock(out, command="triage").acquire()
    threading.Timer(0.15, holder.release).start()  # let go while publish waits
    assert [a.action for a in run(gh, out, lock_wait=5).actions] == ["created"]


def _publisher(url: str, token: str, out: str, go, results) -> None:  # in a child process
    go.wait(10)
    settings = loopback_settings(url, github_token=token, http_retries=1, http_timeout=10.0)
    try:
        summary = publish(out, settings, repo="acme/app", write_interval=0, lock_wait=20)
    except Exception as exc:  # noqa: BLE001 - reported to the test
        results.put(f"error: {exc!r}")
    else:
        results.put(summary.totals())


def _together(gh: FakeGitHub, folders: list[Path]) -> list[str]:
    """One publish process per folder (forked: no second interpreter start), released at the
    same moment; what each said."""
    ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    go, results = ctx.Event(), ctx.Queue()
    procs = [
        ctx.Process(target=_publisher, args=(gh.url, gh.token, str(out), go, results))
        for out in folders
    ]
    for proc in procs:
        proc.start()
    go.set()
    outputs = [results.get(timeout=30) for _ in procs]
    for proc in procs:
        proc.join(10)
        assert proc.exitcode == 0
    return sorted(outputs)


def test_two_publishes_of_one_folder_make_one_issue_per_draft(gh, tmp_path):
    # before: four issues for two drafts
    out = drafts_of(tmp_path, urllib3_verdict(), simple_verdict("pyyaml", "6.0.1"))
    gh.repo_delay = 0.15  # each publish is still busy when the other one starts
    outputs = _together(gh, [out, out])
    print(outputs)
    assert sorted(outputs) == [
        "2 created, created label(s) dependencies, breaking-change",
        "2 unchanged",
    ]
    assert len(gh.real_issues()) == 2  # the second waited: it never made a duplicate
    for key in (URLLIB3, PYYAML):
        assert len(gh.issues_with_marker(key)) == 1, key


def test_two_publishes_of_two_folders_keep_the_older_issue(gh, tmp_path):
    folders = [
        drafts_of(tmp_path / name, urllib3_verdict(), simple_verdict("pyyaml", "6.0.1"))
        for name in ("a", "b")
    ]
    gh.create_barrier = threading.Barrier(2)  # both listed before either created: a race
    outputs = _together(gh, folders)
    print(outputs)
    assert len(gh.real_issues()) == 4  # the race happened: each made one per draft
    for key in (URLLIB3, PYYAML):
        (kept,) = gh.issues_with_marker(key)  # the duplicate's marker is switched off
        assert kept["state"] == "open"
        for out in folders:  # both folders now point at the kept one
            recorded = {r.key: r.published.issue for r in load_review(out).values()}
            assert recorded[key] == kept["number"]
    closed = [i for i in gh.real_issues() if i["state"] == "closed"]
    assert len(closed) == 2
    for issue in closed:
        kept = min(i["number"] for i in gh.real_issues() if i["title"] == issue["title"])
        assert issue["number"] > kept and issue["state_reason"] == "not_planned"
        notes = [c["body"] for c in gh.comments.values() if c["issue"] == issue["number"]]
        assert notes == [f"Duplicate of #{kept}: two depbot publishes ran at the same time."]
    assert sum("closed duplicate(s)" in o for o in outputs) >= 1
