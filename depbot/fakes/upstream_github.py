"""The GitHub REST reply shapes the fake upstream serves (repository, releases, tags, contents).

Pure functions from the fake's data to ``Reply`` values; ``upstream.FakeUpstream`` routes
requests to them. The shapes carry what PyGithub reads (and what GitHub sends alongside).
"""

from __future__ import annotations

import base64
import hashlib
import math
import re
from datetime import datetime, timedelta, timezone
from typing import Any
from urllib.parse import quote, urlencode

from depbot.fakes.loopback import Reply, Request

# release dates count back from here: in the past, as real releases are (a date in the future
# would make every release "just published" to the cache policy, core/cache.py settled)
EPOCH = datetime(2025, 1, 1, tzinfo=timezone.utc)
TAG_VERSION = re.compile(r"(\d+(?:\.\d+)+(?:[-.]?[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?)$")


def repo_json(repo: str, api: str, default_branch: str) -> dict[str, Any]:
    """GET /repos/{o}/{r}."""
    owner, name = repo.split("/")
    return {
        "id": int(hashlib.sha1(repo.encode()).hexdigest()[:7], 16),
        "name": name,
        "full_name": repo,
        "owner": {"login": owner, "type": "Organization"},
        "private": False,
        "html_url": f"https://github.com/{repo}",
        "url": api,
        "default_branch": default_branch,
    }


def commit_of(tag: str) -> str:
    """The made-up commit SHA a tag points at (GET /tags says it; contents?ref= reads it)."""
    return hashlib.sha1(tag.encode()).hexdigest()


def tag_json(tag: str, api: str) -> dict[str, Any]:
    """One item of GET /repos/{o}/{r}/tags."""
    return {
        "name": tag,
        "commit": {"sha": commit_of(tag), "url": f"{api}/commits/{tag}"},
        "zipball_url": f"{api}/zipball/{tag}",
        "tarball_url": f"{api}/tarball/{tag}",
    }


def release_json(repo: str, i: int, r: dict[str, Any], api: str) -> dict[str, Any]:
    """A release object as GET /repos/{o}/{r}/releases lists it (``i``: its place, newest first)."""
    tag = str(r.get("tag_name") or "")
    m = TAG_VERSION.search(tag)
    pre = bool(re.search(r"[A-Za-z]", m.group(1))) if m else False
    day = (EPOCH - timedelta(days=i)).strftime("%Y-%m-%dT%H:%M:%SZ")  # newest first
    return {
        "id": i + 1,
        "url": f"{api}/releases/{i + 1}",
        "html_url": f"https://github.com/{repo}/releases/tag/{quote(tag, safe='@/')}",
        "tag_name": tag,
        "name": r.get("name") or tag,
        "body": r.get("body") or "",
        "draft": bool(r.get("draft", False)),
        "prerelease": bool(r.get("prerelease", pre)),
        "created_at": r.get("created_at", day),
        "published_at": r.get("published_at", day),
    }


def paged(items: list[Any], req: Request, base: str) -> Reply:
    """One page of a list endpoint: ``per_page``/``page`` and ``Link`` headers like GitHub."""
    try:
        per_page = max(1, min(100, int(req.query.get("per_page", "30"))))
        page = max(1, int(req.query.get("page", "1")))
    except ValueError:
        return Reply(422, {"message": "Validation Failed"})
    last = max(1, math.ceil(len(items) / per_page))
    chunk = items[(page - 1) * per_page : page * per_page]
    links = []
    if page < last:
        links.append(f'<{base}?{urlencode({"per_page": per_page, "page": page + 1})}>; rel="next"')
        links.append(f'<{base}?{urlencode({"per_page": per_page, "page": last})}>; rel="last"')
    if page > 1:
        links.append(f'<{base}?{urlencode({"per_page": per_page, "page": 1})}>; rel="first"')
        links.append(f'<{base}?{urlencode({"per_page": per_page, "page": page - 1})}>; rel="prev"')
    headers = {"Link": ", ".join(links)} if links else {}
    return Reply(200, chunk, headers)


# the contents API sends no content for a file over 1 MB (``encoding: none``)
CONTENTS_LIMIT = 1024 * 1024


def contents(
    repo: str, api: str, tree: dict[str, bytes], path: str, ref: str, limit: int = CONTENTS_LIMIT
) -> Reply:
    """GET /repos/{o}/{r}/contents/{path}: a folder listing or a base64 file of ``tree``
    (a file over ``limit`` bytes without its content, as GitHub sends one over 1 MB)."""

    def entry(p: str, kind: str, size: int, data: bytes = b"") -> dict[str, Any]:
        sha = hashlib.sha1(data or p.encode()).hexdigest()
        return {
            "type": kind,
            "name": p.rsplit("/", 1)[-1],
            "path": p,
            "size": size,
            "sha": sha,
            "url": f"{api}/contents/{quote(p)}?ref={quote(ref)}",
            "html_url": f"https://github.com/{repo}/{'blob' if kind == 'file' else 'tree'}/{ref}/{p}",
            "git_url": f"{api}/git/{'blobs' if kind == 'file' else 'trees'}/{sha}",
            "download_url": (
                f"https://raw.githubusercontent.com/{repo}/{ref}/{p}" if kind == "file" else None
            ),
        }

    if path in tree:
        data = tree[path]
        body = entry(path, "file", len(data), data)
        if len(data) > limit:
            body["content"], body["encoding"] = "", "none"
            return Reply(200, body)
        encoded = base64.b64encode(data).decode("ascii")
        body["content"] = "\n".join(encoded[i : i + 60] for i in range(0, len(encoded), 60))
        body["encoding"] = "base64"
        return Reply(200, body)
    prefix = f"{path}/" if path else ""
    children: dict[str, dict[str, Any]] = {}
    for p, data in tree.items():
        if not p.startswith(prefix):
            continue
        head = p[len(prefix) :].split("/", 1)[0]
        full = prefix + head
        if full == p:
            children[full] = entry(full, "file", len(data), data)
        else:
            children.setdefault(full, entry(full, "dir", 0))
    if not children and path:
        return not_found()
    return Reply(200, [children[k] for k in sorted(children)])


def git_tree(api: str, tree: dict[str, bytes], ref: str) -> Reply:
    """GET /repos/{o}/{r}/git/trees/{ref}?recursive=1: every file and folder of ``tree``."""
    items: dict[str, dict[str, Any]] = {}
    for p, data in sorted(tree.items()):
        parts = p.split("/")
        for i in range(1, len(parts)):
            d = "/".join(parts[:i])
            sha = hashlib.sha1(d.encode()).hexdigest()
            items.setdefault(d, {"path": d, "mode": "040000", "type": "tree", "sha": sha,
                                 "url": f"{api}/git/trees/{sha}"})  # fmt: skip
        sha = hashlib.sha1(data).hexdigest()
        items[p] = {"path": p, "mode": "100644", "type": "blob", "sha": sha, "size": len(data),
                    "url": f"{api}/git/blobs/{sha}"}  # fmt: skip
    sha = hashlib.sha1(ref.encode()).hexdigest()
    body = {"sha": sha, "url": f"{api}/git/trees/{sha}", "tree": list(items.values()),
            "truncated": False}  # fmt: skip
    return Reply(200, body)


# what GitHub's API sends as Vary (it names Authorization: a cache must cope with it)
VARY = "Accept, Authorization, Cookie, X-GitHub-OTP"


def with_vary(reply: Reply) -> Reply:
    """``reply`` with GitHub's ``Vary`` header."""
    reply.headers.setdefault("Vary", VARY)
    return reply


def not_found() -> Reply:
    return Reply(
        404,
        {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"},
    )
