"""The write side of GitHub: issues, labels and comments, through ``GitHubClient``'s PyGithub.

Every call returns plain values (``IssueInfo``, ``CommentInfo``) and every failure is an
``UpstreamError`` with a short sentence; ``status`` carries the HTTP status so callers can
tell a missing permission (401/403) from a missing repository (404). GitHub's secondary
rate limit (a 403 whose message says "rate limit") comes out as ``rate_limited``.

Creating requests (POST) are never retried by the HTTP seam once they may have reached
GitHub (see ``Http.send(idempotent=False)``), so a flaky answer cannot make two issues.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from github import GithubException

from depbot.core.errors import UpstreamError
from depbot.core.net import Response, status_error
from depbot.github.client import GitHubClient


@dataclass(frozen=True)
class IssueInfo:
    number: int
    title: str
    body: str
    state: str  # "open" | "closed"
    url: str
    labels: tuple[str, ...] = ()
    is_pull: bool = False
    author: str = ""  # user.login of whoever opened it ("" when GitHub left it out)


@dataclass(frozen=True)
class CommentInfo:
    id: int
    body: str
    url: str
    author: str = ""  # user.login


def _issue(raw: Any) -> IssueInfo:
    if not isinstance(raw, dict) or "number" not in raw:
        raise UpstreamError("bad_response", "GitHub sent an issue depbot cannot read")
    return IssueInfo(
        number=int(raw["number"]),
        title=str(raw.get("title") or ""),
        body=str(raw.get("body") or ""),
        state=str(raw.get("state") or "open"),
        url=str(raw.get("html_url") or ""),
        labels=tuple(
            str(lab.get("name", "")) for lab in raw.get("labels") or [] if isinstance(lab, dict)
        ),
        is_pull=bool(raw.get("pull_request")),
        author=_login(raw.get("user")),
    )


def _login(user: Any) -> str:
    login = user.get("login") if isinstance(user, dict) else None
    return login if isinstance(login, str) else ""


def _comment(raw: Any) -> CommentInfo:
    if not isinstance(raw, dict) or "id" not in raw:
        raise UpstreamError("bad_response", "GitHub sent a comment depbot cannot read")
    return CommentInfo(
        id=int(raw["id"]),
        body=str(raw.get("body") or ""),
        url=str(raw.get("html_url") or ""),
        author=_login(raw.get("user")),
    )


def _next_link(header: str) -> str | None:
    """The ``rel="next"`` URL of a ``Link`` header."""
    for part in header.split(","):
        bits = part.split(";")
        if len(bits) < 2:
            continue
        if any(b.strip().replace(" ", "") in ('rel="next"', "rel=next") for b in bits[1:]):
            return bits[0].strip().strip("<>") or None
    return None


def _wait(headers: dict[str, str]) -> str:
    """How long GitHub says to wait, as the end of a sentence: its ``retry-after`` seconds,
    else the ``x-ratelimit-reset`` time (epoch seconds) when the limit left is 0; else ''."""
    after = str(headers.get("retry-after", "")).strip()
    if after.isdigit():
        return f": wait {int(after)} s (GitHub's retry-after) and publish again"
    reset = str(headers.get("x-ratelimit-reset", "")).strip()
    if reset.isdigit() and str(headers.get("x-ratelimit-remaining", "")).strip() == "0":
        when = time.strftime("%H:%M:%S UTC", time.gmtime(int(reset)))
        return f": wait until {when} (GitHub's x-ratelimit-reset) and publish again"
    return ": wait a minute or more and publish again (GitHub said not how long)"


class GitHubIssues:
    """Issues, labels and comments of repositories, for ``publish``.

    Requests go through PyGithub's ``Requester`` (authentication, base URL, pacing of
    writes, its exception types) and come back as raw JSON: PyGithub's lazy objects would
    send one more GET per listed issue for any field GitHub leaves out (``pull_request``
    is absent on plain issues), which makes request counts unpredictable.
    """

    def __init__(self, client: GitHubClient) -> None:
        self.client = client
        self.requester = client.gh.requester
        self.api = client.settings.github_api_url

    def _error(self, exc: Exception, what: str) -> UpstreamError:
        if isinstance(exc, UpstreamError):
            return UpstreamError(exc.kind, f"{what}: {exc}", status=exc.status)
        if isinstance(exc, GithubException):
            data = exc.data if isinstance(exc.data, dict) else {}
            message = str(data.get("message") or "")
            headers = {k.lower(): v for k, v in (exc.headers or {}).items()}
            if exc.status == 403 and "rate limit" in message.lower():
                return UpstreamError(
                    "rate_limited",
                    f"{what}: GitHub's rate limit for writes was reached{_wait(headers)}",
                    status=403,
                )
            fake = Response(url=self.api, status=exc.status, headers=headers, content=b"")
            return status_error(fake, what)
        return UpstreamError("bad_response", f"{what}: GitHub gave an answer depbot cannot read")

    def _call(self, verb: str, path: str, what: str, **kw: Any) -> Any:
        try:
            _, data = self.requester.requestJsonAndCheck(verb, path, **kw)
        except Exception as exc:  # noqa: BLE001 - mapped to a short message
            raise self._error(exc, what) from None
        return data

    def _pages(self, path: str, params: dict[str, Any], what: str) -> Iterator[Any]:
        """Every item of a paginated list, following ``Link: <…>; rel="next"``."""
        url: str | None = path
        query: dict[str, Any] | None = {**params, "per_page": 100}
        while url:
            try:
                headers, data = self.requester.requestJsonAndCheck("GET", url, parameters=query)
            except Exception as exc:  # noqa: BLE001
                raise self._error(exc, what) from None
            items = data.get("items") if isinstance(data, dict) else data
            if not isinstance(items, list):
                raise UpstreamError("bad_response", f"{what}: GitHub sent no list")
            yield from items
            url, query = _next_link(str(headers.get("link", ""))), None

    # -- identity and repository -----------------------------------------------------------

    def viewer_login(self) -> str:
        """The login of the token's user (``GET /user``).

        A GitHub App installation token and the Actions ``GITHUB_TOKEN`` have no user:
        GitHub answers 403 "Resource not accessible by integration", which comes out as an
        ``UpstreamError`` of kind ``unauthorized`` with ``status`` 403 (401: a bad token).
        """
        login = _login(self._call("GET", "/user", "the token's user"))
        if not login:
            raise UpstreamError("bad_response", "the token's user: GitHub sent no login")
        return login

    def repository(self, full_name: str) -> dict[str, Any]:
        """The repository's JSON (``has_issues``, ``permissions`` when GitHub sends them)."""
        data = self._call("GET", f"/repos/{full_name}", f"repository {full_name}")
        if not isinstance(data, dict):
            raise UpstreamError("bad_response", f"repository {full_name}: unreadable answer")
        return data

    def label_exists(self, full_name: str, name: str) -> bool:
        try:
            self._call(
                "GET",
                f"/repos/{full_name}/labels/{quote(name, safe='')}",
                f"label {name!r} of {full_name}",
            )
        except UpstreamError as exc:
            if exc.kind == "not_found":
                return False
            raise
        return True

    def create_label(self, full_name: str, name: str, color: str, description: str) -> None:
        try:
            self._call(
                "POST",
                f"/repos/{full_name}/labels",
                f"creating label {name!r} in {full_name}",
                input={"name": name, "color": color, "description": description},
            )
        except UpstreamError as exc:
            if exc.status == 422:  # created meanwhile by someone else
                return
            raise

    # -- issues ---------------------------------------------------------------------------

    def issues_with_label(self, full_name: str, label: str) -> list[IssueInfo]:
        """Open and closed issues (not pull requests) carrying ``label``, every page."""
        params = {"state": "all", "labels": label, "sort": "created", "direction": "asc"}
        what = f"issues labelled {label!r} in {full_name}"
        found = (_issue(raw) for raw in self._pages(f"/repos/{full_name}/issues", params, what))
        return [i for i in found if not i.is_pull]

    def issues_by_creator(self, full_name: str, login: str) -> list[IssueInfo]:
        """Open and closed issues (not pull requests) opened by ``login``, every page: the
        repository's own listing, consistent at once (search lags behind new issues)."""
        params = {"state": "all", "creator": login, "sort": "created", "direction": "asc"}
        what = f"issues opened by {login} in {full_name}"
        found = (_issue(raw) for raw in self._pages(f"/repos/{full_name}/issues", params, what))
        return [i for i in found if not i.is_pull]

    def open_issues_between(
        self, full_name: str, label: str, above: int, below: int
    ) -> list[IssueInfo]:
        """Open issues labelled ``label`` numbered between ``above`` and ``below`` (both
        excluded), newest first; reads pages only until it is past ``above``."""
        params = {"state": "open", "labels": label, "sort": "created", "direction": "desc"}
        what = f"open issues labelled {label!r} in {full_name}"
        out: list[IssueInfo] = []
        for raw in self._pages(f"/repos/{full_name}/issues", params, what):
            info = _issue(raw)
            if info.number <= above:
                break
            if info.number < below and not info.is_pull:
                out.append(info)
        return out

    def search_issues(self, query: str, *, max_items: int = 300) -> list[IssueInfo]:
        """Issues found by GitHub search (eventually consistent: new issues may be missing)."""
        out: list[IssueInfo] = []
        for raw in self._pages("/search/issues", {"q": query}, "issue search"):
            info = _issue(raw)
            if not info.is_pull:
                out.append(info)
            if len(out) >= max_items:
                break
        return out

    def get_issue(self, full_name: str, number: int) -> IssueInfo:
        path = f"/repos/{full_name}/issues/{int(number)}"
        return _issue(self._call("GET", path, f"issue #{number} of {full_name}"))

    def create_issue(
        self,
        full_name: str,
        title: str,
        body: str,
        labels: list[str],
        assignees: list[str] | None = None,
    ) -> IssueInfo:
        fields: dict[str, Any] = {"title": title, "body": body, "labels": labels}
        if assignees:
            fields["assignees"] = assignees
        data = self._call(
            "POST",
            f"/repos/{full_name}/issues",
            f"creating an issue in {full_name}",
            input=fields,
        )
        return _issue(data)

    def edit_issue(self, full_name: str, number: int, **fields: Any) -> IssueInfo:
        """PATCH the issue with ``fields`` (title, body, state)."""
        data = self._call(
            "PATCH",
            f"/repos/{full_name}/issues/{int(number)}",
            f"updating issue #{number} of {full_name}",
            input=fields,
        )
        return _issue(data)

    # -- comments -------------------------------------------------------------------------

    def comments(self, full_name: str, number: int) -> list[CommentInfo]:
        path = f"/repos/{full_name}/issues/{int(number)}/comments"
        return [_comment(raw) for raw in self._pages(path, {}, f"comments of #{number}")]

    def create_comment(self, full_name: str, number: int, body: str) -> CommentInfo:
        data = self._call(
            "POST",
            f"/repos/{full_name}/issues/{int(number)}/comments",
            f"commenting on #{number} of {full_name}",
            input={"body": body},
        )
        return _comment(data)

    def edit_comment(self, full_name: str, comment_id: int, body: str) -> CommentInfo:
        data = self._call(
            "PATCH",
            f"/repos/{full_name}/issues/comments/{int(comment_id)}",
            f"updating a comment in {full_name}",
            input={"body": body},
        )
        return _comment(data)
