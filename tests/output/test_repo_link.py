"""Where a checkout lives on GitHub: git remote URLs and a real git checkout."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from depbot.output.repo_link import detect_repo_link, parse_remote


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
