"""report.json, the journal, draft files and review state on disk."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from depbot.core.errors import InputError
from depbot.output.drafts import RepoLink
from depbot.output.report import (
    Journal,
    detect_repo_link,
    parse_remote,
    read_journal,
    write_drafts,
    write_report,
    write_step_summary,
)
from depbot.output.review import approve, list_drafts, load_review, reject
from depbot.records.verdict import Hit
from tests.helpers.paths import ROOT
from tests.helpers.samples import simple_verdict, urllib3_verdict

CONTRACT_FIELDS = {
    "ecosystem",
    "package",
    "from",
    "to",
    "update_type",
    "verdict",
    "reason",
    "breaking_changes",
    "hits",
    "draft",
}


def _verdicts():
    v1 = urllib3_verdict()
    v2 = simple_verdict("requests", "2.32.3", verdict="not_affected")
    v3 = simple_verdict("left-pad", "2.0.0", verdict="unknown", ecosystem="npm")
    return [v1, v2, v3]


# --- report.json -----------------------------------------------------------------------


def test_report_matches_the_contract(tmp_path):
    verdicts = _verdicts()
    write_drafts(tmp_path, verdicts)
    path = write_report(
        tmp_path,
        repo="acme/statuspoller",
        model="rules",
        verdicts=verdicts,
        stats={"turns": 7, "tool_calls": 9, "seconds": 1.23456, "cache_hits": 3},
    )
    assert path == tmp_path / "report.json"
    data = json.loads(path.read_text())
    assert data["schema"] == 1 and data["repo"] == "acme/statuspoller" and data["model"] == "rules"
    assert data["stats"] == {
        "turns": 7,
        "tool_calls": 9,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "seconds": 1.235,
        "cache_hits": 3,
    }
    assert [u["package"] for u in data["updates"]] == ["urllib3", "requests", "left-pad"]
    first = data["updates"][0]
    assert CONTRACT_FIELDS <= set(first)
    assert first["from"] == "1.26.18" and first["to"] == "2.0.7" and first["update_type"] == "major"
    assert first["breaking_changes"][0] == {
        "summary": "Retry(method_whitelist=) was removed; use allowed_methods=",
        "symbols": ["method_whitelist"],
        "source": "https://github.com/urllib3/urllib3/blob/main/CHANGES.rst",
    }
    assert first["hits"] == [
        {"path": "statuspoller/http.py", "line": 26, "text": "method_whitelist=_RETRYABLE_METHODS,"}
    ]
    assert first["draft"] == "drafts/pip-urllib3-2.0.7.md"
    assert (tmp_path / first["draft"]).is_file()
    assert data["updates"][1]["draft"] is None and data["updates"][2]["draft"] is None


def test_report_write_is_atomic(tmp_path):
    write_report(tmp_path, repo="r", model="rules", verdicts=_verdicts(), stats={})
    before = (tmp_path / "report.json").read_text()
    with pytest.raises(TypeError):  # fails while serializing: the old file must survive
        write_report(tmp_path, repo="r", model="m2", verdicts=_verdicts(), stats={"x": object()})
    assert (tmp_path / "report.json").read_text() == before
    write_report(tmp_path, repo="r", model="m3", verdicts=_verdicts()[:1], stats={})
    assert json.loads((tmp_path / "report.json").read_text())["model"] == "m3"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temporary files left


# --- journal ---------------------------------------------------------------------------


def test_journal_round_trip_and_torn_last_line(tmp_path):
    verdicts = _verdicts()
    with Journal(tmp_path) as journal:
        for v in verdicts:
            journal.append(v)
    back = read_journal(tmp_path)
    assert [v.to_journal() for v in back] == [v.to_journal() for v in verdicts]
    # a crash in the middle of a line
    with open(tmp_path / "journal.jsonl", "ab") as fh:
        fh.write(b'{"update": {"ecosystem": "pip", "package": "tor')
    assert len(read_journal(tmp_path)) == 3
    # reopening cuts the torn tail, so the next line is whole
    with Journal(tmp_path) as journal:
        journal.append(simple_verdict("flask", "3.0.0"))
    back = read_journal(tmp_path)
    assert [v.update.package for v in back] == ["urllib3", "requests", "left-pad", "flask"]
    lines = (tmp_path / "journal.jsonl").read_text().splitlines()
    assert all(json.loads(line) for line in lines)


def test_journal_last_line_of_an_update_wins(tmp_path):
    first = simple_verdict("flask", "3.0.0", verdict="unknown")
    second = simple_verdict("flask", "3.0.0", verdict="affected")
    with Journal(tmp_path) as journal:
        journal.append(first)
        journal.append(simple_verdict("other", "1.1.0", verdict="not_affected"))
        journal.append(second)
    back = read_journal(tmp_path)
    assert [(v.update.package, v.verdict) for v in back] == [
        ("flask", "affected"),
        ("other", "not_affected"),
    ]


_WRITER = """
import sys
sys.path.insert(0, {root!r})
from depbot.output.report import Journal
from tests.helpers.samples import simple_verdict
j = Journal({out!r})
i = 0
while True:
    v = simple_verdict(f"pkg{{i}}", "2.0.0")
    v.reason = "x" * 20000
    j.append(v)
    i += 1
"""


def test_journal_survives_sigkill(tmp_path):
    script = _WRITER.format(root=str(ROOT), out=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-c", script])
    journal = tmp_path / "journal.jsonl"
    try:
        while not journal.exists() or journal.stat().st_size < 400_000:
            if proc.poll() is not None:
                pytest.fail("the writer stopped on its own")
            time.sleep(0.01)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    back = read_journal(tmp_path)
    assert len(back) >= 10
    assert [v.update.package for v in back] == [f"pkg{i}" for i in range(len(back))]
    with Journal(tmp_path) as j:
        j.append(simple_verdict("after", "2.0.0"))
    assert read_journal(tmp_path)[-1].update.package == "after"


# --- drafts and review state ------------------------------------------------------------


def test_drafts_only_for_affected_with_records(tmp_path):
    verdicts = _verdicts()
    drafts = write_drafts(tmp_path, verdicts, RepoLink("acme/statuspoller", "a" * 40))
    assert [d.id for d in drafts] == ["pip-urllib3-2.0.7"]
    assert verdicts[0].draft == "drafts/pip-urllib3-2.0.7.md"
    assert verdicts[1].draft is None and verdicts[2].draft is None
    text = (tmp_path / "drafts/pip-urllib3-2.0.7.md").read_text()
    assert text.startswith("# urllib3 1.26.18 → 2.0.7 breaks 1 call site in 1 file\n\n")
    assert "blob/" + "a" * 40 in text
    rec = load_review(tmp_path)["pip-urllib3-2.0.7"]
    assert (rec.key, rec.package, rec.from_version, rec.to_version) == (
        "pip/urllib3@2.0.7",
        "urllib3",
        "1.26.18",
        "2.0.7",
    )
    assert rec.status == "pending" and rec.hits == 1 and rec.files == 1


def test_hand_edited_draft_is_never_overwritten(tmp_path):
    v = urllib3_verdict()
    write_drafts(tmp_path, [v])
    path = tmp_path / "drafts/pip-urllib3-2.0.7.md"
    edited = path.read_text().replace("## Suggested fix", "## Suggested fix\n\nOur own plan.")
    path.write_text(edited)
    approve(tmp_path, ["pip-urllib3-2.0.7"])
    # the next triage finds one more call site
    v2 = urllib3_verdict(
        hits=[*v.hits, Hit("h9", "statuspoller/checks.py", 5, "method_whitelist=x")]
    )
    (draft,) = write_drafts(tmp_path, [v2])
    assert path.read_text() == edited  # the person's text stays
    new = tmp_path / "drafts/pip-urllib3-2.0.7.new.md"
    assert "breaks 2 call sites in 2 files" in new.read_text()
    assert "kept your edited drafts/pip-urllib3-2.0.7.md" in draft.note
    assert v2.draft == "drafts/pip-urllib3-2.0.7.md"
    (info,) = list_drafts(tmp_path)
    assert info.edited and info.record.status == "approved"
    assert info.record.new_render == "drafts/pip-urllib3-2.0.7.new.md"


def test_changed_render_needs_review_again_unchanged_keeps_it(tmp_path):
    write_drafts(tmp_path, [urllib3_verdict()])
    approve(tmp_path, ["pip-urllib3-2.0.7"])
    write_drafts(tmp_path, [urllib3_verdict()])  # same findings
    assert load_review(tmp_path)["pip-urllib3-2.0.7"].status == "approved"
    more = urllib3_verdict(hits=[Hit("h1", "statuspoller/http.py", 30, "method_whitelist=a")])
    (draft,) = write_drafts(tmp_path, [more])
    rec = load_review(tmp_path)["pip-urllib3-2.0.7"]
    assert rec.status == "pending" and "changed since it was approved" in draft.note
    assert ":30`" in (tmp_path / draft.path).read_text()
    assert not (tmp_path / "drafts/pip-urllib3-2.0.7.new.md").exists()


def test_stale_drafts_and_name_collisions(tmp_path):
    write_drafts(tmp_path, [simple_verdict("flask", "3.0.0"), urllib3_verdict()])
    reject(tmp_path, ["pip-flask-3.0.0"], why="we pin flask")
    scoped = simple_verdict("@acme/web-kit", "2.0.0", ecosystem="npm")
    plain = simple_verdict("acme-web-kit", "2.0.0", ecosystem="npm")
    drafts = write_drafts(tmp_path, [urllib3_verdict(), scoped, plain])
    ids = [d.id for d in drafts]
    assert ids[1] == "npm-acme-web-kit-2.0.0"
    assert ids[2].startswith("npm-acme-web-kit-2.0.0-") and len(set(ids)) == 3
    records = load_review(tmp_path)
    assert records["pip-flask-3.0.0"].stale and records["pip-flask-3.0.0"].status == "rejected"
    assert not records["pip-urllib3-2.0.7"].stale
    assert records[ids[2]].key == "npm/acme-web-kit@2.0.0"


# --- step summary and repo link ------------------------------------------------------------


def test_step_summary_appends_when_set(tmp_path, monkeypatch):
    assert write_step_summary(None, "# x") is False
    target = tmp_path / "summary.md"
    target.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(target))
    assert write_step_summary(None, "| a |") is True
    assert write_step_summary(None, "| b |\n") is True
    assert target.read_text() == "earlier step\n| a |\n| b |\n"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("git@github.com:acme/app.git", ("github.com", "acme/app")),
        ("https://github.com/acme/app", ("github.com", "acme/app")),
        ("https://x-access-token:abc@github.com/acme/app.git", ("github.com", "acme/app")),
        ("ssh://git@ghe.corp:2222/team/svc.git", ("ghe.corp", "team/svc")),
        ("/local/path/repo", None),
        ("", None),
    ],
)
def test_parse_remote(url, expected):
    assert parse_remote(url) == expected


def _git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_detect_repo_link_from_a_git_checkout(tmp_path):
    repo = tmp_path / "repo"
    (repo / "svc").mkdir(parents=True)
    (repo / "svc/a.py").write_text("x = 1\n")
    (repo / "svc/b.py").write_text("y = 1\n")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "init")
    _git(repo, "remote", "add", "origin", "git@github.com:acme/mono.git")
    head = _git(repo, "rev-parse", "HEAD")
    (repo / "svc/b.py").write_text("y = 2\n")  # changed since the commit
    link = detect_repo_link(repo / "svc", "https://api.github.com")
    assert link is not None
    assert (link.owner_repo, link.commit, link.root) == ("acme/mono", head, "svc")
    assert link.permalink("a.py", 1) == f"https://github.com/acme/mono/blob/{head}/svc/a.py#L1"
    assert link.permalink("b.py", 1) is None
    # a remote on another host than the configured GitHub: no permalinks
    assert detect_repo_link(repo, "https://ghe.corp.example/api/v3") is None
    assert detect_repo_link(tmp_path, "https://api.github.com") is None  # not a checkout


def test_unreadable_review_file_does_not_sink_a_triage(tmp_path):
    write_drafts(tmp_path, [urllib3_verdict()])
    approve(tmp_path, ["pip-urllib3-2.0.7"])
    (tmp_path / "drafts/review.json").write_text("{ broken by hand")
    with pytest.raises(InputError, match="review.json is not readable JSON"):
        list_drafts(tmp_path)
    (draft,) = write_drafts(tmp_path, [urllib3_verdict()])
    assert (tmp_path / "drafts/review.json.unreadable").read_text() == "{ broken by hand"
    assert load_review(tmp_path)[draft.id].status == "pending"  # approval must be given again
