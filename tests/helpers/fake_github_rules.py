"""What the GitHub fake (fake_github.py) matches: fault rules, search queries, ``GET /user``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from depbot.fakes.loopback import Reply


@dataclass
class Fault:
    method: str
    pattern: re.Pattern[str]
    status: int = 500
    drop: bool = False  # close the connection instead of answering
    after: bool = False  # act on the request first, then fail (the caller cannot tell)
    skip: int = 0  # let this many matching requests through first
    times: int = 1  # fail this many times; 0 = every time
    message: str = "fake failure"
    headers: dict = field(default_factory=dict)  # sent with the failure (retry-after …)
    seen: int = 0
    fired: int = 0


def first_fault(faults: list[Fault], method: str, path: str) -> Fault | None:
    """The fault that fires for this request (counting it), if any."""
    for f in faults:
        if f.method != method or not f.pattern.search(path):
            continue
        f.seen += 1
        if f.seen <= f.skip:
            continue
        if f.times and f.fired >= f.times:
            continue
        f.fired += 1
        return f
    return None


def search(
    issues: list[dict[str, Any]], q: str, repo: str, *, with_author: bool = True
) -> list[dict[str, Any]]:
    """The ``issues`` a search query ``q`` finds: ``repo:``, ``is:issue``, ``author:``
    (``app/<slug>`` is ``<slug>[bot]``; ignored unless ``with_author``) and quoted phrases
    in the body."""
    phrases = [p.lower() for p in re.findall(r'"([^"]+)"', q)]
    repo_m = re.search(r"repo:(\S+)", q)
    if repo_m and repo_m.group(1) != repo:
        return []
    author_m = re.search(r"author:(\S+)", q)
    author = author_m.group(1) if author_m and with_author else None
    if author and author.startswith("app/"):
        author = author[len("app/") :] + "[bot]"
    found = []
    for issue in issues:
        if "is:issue" in q and "pull_request" in issue:
            continue
        if author and issue["user"]["login"].lower() != author.lower():
            continue
        if all(p in (issue["body"] or "").lower() for p in phrases):
            found.append(issue)
    return found


def user_reply(login: str | None, *, app: bool = False) -> Reply:
    """``GET /user`` for a token acting as ``login`` (None: unknown token; ``app``: an app
    installation token or the Actions ``GITHUB_TOKEN``, which have no user)."""
    if login is None:
        return Reply(401, {"message": "Requires authentication"})
    if app:
        return Reply(403, {"message": "Resource not accessible by integration"})
    return Reply(200, {"login": login, "id": 7000 + len(login), "type": "User"})
