"""Where a checkout lives on GitHub (repository, commit, changed files), for permalinks.

The one place of the output stage that runs a program: ``git`` on the checkout.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

from depbot.output.drafts import RepoLink, web_url_from_api

_SCP_REMOTE = re.compile(r"^(?:[\w.-]+@)?([\w.-]+):(?!//)([^\s]+)$")


def parse_remote(url: str) -> tuple[str, str] | None:
    """``(host, "owner/repo")`` of a git remote URL (https, ssh or scp-like), else None."""
    url = url.strip()
    m = _SCP_REMOTE.match(url)
    if m and "://" not in url:
        host, path = m.group(1), m.group(2)
    else:
        parts = urlsplit(url)
        if parts.scheme not in ("https", "http", "ssh", "git") or not parts.hostname:
            return None
        host, path = parts.hostname, parts.path
    path = path.strip("/")
    if path.endswith(".git"):
        path = path[:-4]
    bits = path.split("/")
    if len(bits) < 2 or not all(re.fullmatch(r"[A-Za-z0-9_.-]+", b) for b in bits[-2:]):
        return None
    return host.lower(), "/".join(bits[-2:])


def _git(checkout: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(checkout), *args],
            capture_output=True,
            text=True,
            timeout=15,
            env={**os.environ, "GIT_TERMINAL_PROMPT": "0"},
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def detect_repo_link(checkout: str | Path, github_api_url: str) -> RepoLink | None:
    """The GitHub repository and commit of a git checkout, for permalinks; None if unknown.

    Only a remote on the configured GitHub web host counts. Files changed since the
    commit get no permalink (the line numbers would not match).
    """
    root = Path(checkout)
    web = web_url_from_api(github_api_url)
    commit = (_git(root, "rev-parse", "HEAD") or "").strip()
    remotes = (_git(root, "remote") or "").split()
    if not commit or not remotes:
        return None
    owner_repo = _github_remote(root, remotes, (urlsplit(web).hostname or "").lower())
    if owner_repo is None:
        return None
    prefix = (_git(root, "rev-parse", "--show-prefix") or "").strip().strip("/")
    status = _git(root, "status", "--porcelain=v1", "-z", "--untracked-files=all") or ""
    return RepoLink(
        owner_repo=owner_repo,
        commit=commit,
        web_url=web,
        root=prefix,
        dirty=frozenset(_changed_paths(status)),
    )


def _github_remote(root: Path, remotes: list[str], web_host: str) -> str | None:
    """``owner/repo`` of the first remote (origin first) on the GitHub web host."""
    ordered = ["origin"] + [r for r in remotes if r != "origin"] if "origin" in remotes else remotes
    for name in ordered:
        parsed = parse_remote(_git(root, "remote", "get-url", name) or "")
        if parsed and parsed[0] == web_host:
            return parsed[1]
    return None


def _changed_paths(status: str) -> set[str]:
    """The paths of ``git status --porcelain=v1 -z`` (a rename's source is skipped)."""
    dirty = set()
    entries = status.split("\0")
    i = 0
    while i < len(entries):
        entry = entries[i]
        if len(entry) > 3:
            dirty.add(entry[3:])
            if entry[0] in "RC":
                i += 1  # the rename source follows
        i += 1
    return dirty
