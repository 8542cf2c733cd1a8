"""A stateful fake of the GitHub REST endpoints publish uses, on a loopback server.

Served under ``/github`` (as ``conftest.loopback_settings`` expects): repository, labels
(get/create), issues (list with ``state``/``labels`` filters, ``direction`` and ``Link``
pagination, create, get, edit), issue comments (list/create/get/edit) and issue search. Pull
requests are issues with a ``pull_request`` key, sharing the numbering, as on GitHub.

Who is who: each token has a user (``users``: token → login; ``token`` is
``depbot-tester``'s), ``GET /user`` answers its login, and what a token creates carries it as
``user.login``. ``add_token(..., app=True)`` makes a token like an app installation token or
the Actions ``GITHUB_TOKEN``: ``GET /user`` answers 403 "Resource not accessible by
integration", its issues are opened by the ``<slug>[bot]`` login given. ``add_issue(...,
author=)`` opens one as anyone. Search understands ``author:`` (``app/<slug>`` for bots).
``create_barrier = threading.Barrier(n)`` holds each issue-creating POST until ``n`` have
arrived (two publishes that both listed before either created). Served from many threads;
issue numbers only increase.

Knobs for tests: ``per_page_cap`` (force pagination), ``forbid_writes`` (403 on writes,
like a read-only token), ``search_lag`` (search sees only issues indexed by ``reindex()``,
like GitHub's eventually consistent index), and ``fail(...)`` rules that answer a matching
request with an error status or drop the connection, before or after acting on it.
"""

from __future__ import annotations

import re
import threading
from typing import Any
from urllib.parse import unquote, urlencode

from depbot.fakes.loopback import LoopbackServer, Reply, Request
from tests.helpers.fake_github_rules import Fault, first_fault, search, user_reply

WRITE_METHODS = ("POST", "PATCH", "PUT", "DELETE")


class FakeGitHub:
    def __init__(
        self,
        repo: str = "acme/app",
        *,
        token: str = "ghp_fake_token_for_tests",
        login: str = "depbot-tester",
    ) -> None:
        self.repo = repo
        self.token = token
        self.login = login
        self.users: dict[str, str] = {token: login}  # token -> the login it acts as
        self.app_tokens: set[str] = set()  # GET /user answers 403 for these
        self.create_barrier: threading.Barrier | None = None
        self.repo_delay = 0.0  # seconds GET /repos/{repo} takes (keeps a publish busy)
        self.search_checks_author = True  # False: search ignores ``author:`` (sloppy index)
        self.has_issues = True
        self.per_page_cap = 100
        self.forbid_writes = False
        self.search_lag = False
        self.search_broken = False
        self.issues: dict[int, dict[str, Any]] = {}
        self.labels: dict[str, dict[str, Any]] = {}
        self.comments: dict[int, dict[str, Any]] = {}
        self.indexed: set[int] = set()
        self.faults: list[Fault] = []
        self._next_number = 1
        self._next_comment = 9001
        self._lock = threading.RLock()
        self.server = LoopbackServer(self.handle)

    # -- lifecycle ------------------------------------------------------------------------

    def __enter__(self) -> FakeGitHub:
        self.server.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.stop()

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def api(self) -> str:
        return self.server.url + "/github"

    # -- test helpers -----------------------------------------------------------------------

    def add_issue(
        self,
        title: str,
        body: str = "",
        *,
        labels: tuple[str, ...] = (),
        state: str = "open",
        pull: bool = False,
        author: str = "",
    ) -> dict[str, Any]:
        with self._lock:
            number = self._next_number
            self._next_number += 1
            kind = "pull" if pull else "issues"
            issue: dict[str, Any] = {
                "number": number,
                "id": 100000 + number,
                "title": title,
                "body": body,
                "state": state,
                "labels": [self._label_json(n) for n in labels],
                "html_url": f"https://github.example/{self.repo}/{kind}/{number}",
                "url": f"{self.api}/repos/{self.repo}/issues/{number}",
                "user": {"login": author or ("dependabot[bot]" if pull else "someone")},
            }
            if pull:
                issue["pull_request"] = {"url": f"{self.api}/repos/{self.repo}/pulls/{number}"}
            self.issues[number] = issue
            return issue

    def add_token(self, token: str, login: str, *, app: bool = False) -> str:
        """Another token, acting as ``login`` (``app``: no ``GET /user``, as for an app)."""
        self.users[token] = login
        if app:
            self.app_tokens.add(token)
        return token

    def add_comment(self, number: int, body: str, *, author: str = "someone") -> dict[str, Any]:
        with self._lock:
            reply = self._create_comment(number, {"body": body}, author)
        assert isinstance(reply.body, dict)
        return reply.body

    def add_pull(self, title: str = "Bump something") -> int:
        return self.add_issue(title, "Dependabot PR", labels=("dependencies",), pull=True)["number"]

    def fail(
        self,
        method: str,
        pattern: str,
        *,
        status: int = 500,
        drop: bool = False,
        after: bool = False,
        skip: int = 0,
        times: int = 1,
        message: str = "fake failure",
        headers: dict[str, str] | None = None,
    ) -> Fault:
        fault = Fault(
            method,
            re.compile(pattern),
            status,
            drop,
            after,
            skip,
            times,
            message,
            dict(headers or {}),
        )
        self.faults.append(fault)
        return fault

    def reindex(self) -> None:
        with self._lock:
            self.indexed = set(self.issues)

    def real_issues(self) -> list[dict[str, Any]]:
        return [i for i in self.issues.values() if "pull_request" not in i]

    def issues_with_marker(self, key: str) -> list[dict[str, Any]]:
        marker = f"<!-- depbot: {key} -->"
        return [i for i in self.real_issues() if marker in (i["body"] or "")]

    def writes(self) -> list[Request]:
        return [r for r in self.server.log if r.method in WRITE_METHODS]

    def count(self, method: str, pattern: str) -> int:
        rx = re.compile(pattern)
        return sum(1 for r in self.server.log if r.method == method and rx.search(r.path))

    # -- HTTP ---------------------------------------------------------------------------------

    def handle(self, req: Request) -> Reply:
        path = req.path[len("/github") :] if req.path.startswith("/github") else req.path
        fault = self._fault_for(req.method, path)
        if fault is not None and not fault.after:
            return Reply(fault.status, {"message": fault.message}, fault.headers, drop=fault.drop)
        reply = self._route(req, path)
        if fault is not None:  # acted already; now the caller loses the answer
            return Reply(fault.status, {"message": fault.message}, drop=fault.drop)
        return reply

    def _fault_for(self, method: str, path: str) -> Fault | None:
        with self._lock:
            return first_fault(self.faults, method, path)

    def _token(self, req: Request) -> str | None:
        """The known token a request carries, if any."""
        auth = req.headers.get("authorization", "")
        scheme, _, token = auth.partition(" ")
        if scheme.lower() in ("token", "bearer") and token in self.users:
            return token
        return None

    def _authorized(self, req: Request) -> bool:
        return self._token(req) is not None

    def _author(self, req: Request) -> str:
        token = self._token(req)
        return self.users[token] if token else "ghost"

    def _user(self, req: Request) -> Reply:
        token = self._token(req)
        return user_reply(self.users.get(token or ""), app=token in self.app_tokens)

    def _route(self, req: Request, path: str) -> Reply:
        m = req.method
        write = m in WRITE_METHODS
        if write and not self._authorized(req):
            return Reply(401, {"message": "Requires authentication"})
        if write and self.forbid_writes:
            return Reply(403, {"message": "Resource not accessible by integration"})
        base = f"/repos/{self.repo}"
        if path == "/user" and m == "GET":
            return self._user(req)
        if path == f"{base}/issues" and m == "POST" and self.create_barrier is not None:
            try:  # outside the lock: the other creating requests must get this far too
                self.create_barrier.wait(timeout=5)
            except threading.BrokenBarrierError:
                pass
        with self._lock:
            if path == "/search/issues" and m == "GET":
                return self._search(req)
            if not path.startswith(base):
                return _not_found()
            rest = path[len(base) :]
            if rest == "" and m == "GET":
                return Reply(200, self._repo_json(), delay=self.repo_delay)
            if rest == "/labels" and m == "POST":
                return self._create_label(req.json())
            lm = re.fullmatch(r"/labels/([^/]+)", rest)
            if lm and m == "GET":
                name = unquote(lm.group(1))
                return Reply(200, self.labels[name]) if name in self.labels else _not_found()
            if rest == "/issues" and m == "GET":
                return self._list_issues(req)
            if rest == "/issues" and m == "POST":
                return self._create_issue(req.json(), self._author(req))
            im = re.fullmatch(r"/issues/(\d+)", rest)
            if im:
                issue = self.issues.get(int(im.group(1)))
                if issue is None:
                    return _not_found()
                if m == "GET":
                    return Reply(200, issue)
                if m == "PATCH":
                    return self._edit_issue(issue, req.json())
            cm = re.fullmatch(r"/issues/(\d+)/comments", rest)
            if cm:
                number = int(cm.group(1))
                if number not in self.issues:
                    return _not_found()
                if m == "GET":
                    items = [c for c in self.comments.values() if c["issue"] == number]
                    return self._page(req, items, f"{base}/issues/{number}/comments")
                if m == "POST":
                    return self._create_comment(number, req.json(), self._author(req))
            km = re.fullmatch(r"/issues/comments/(\d+)", rest)
            if km:
                comment = self.comments.get(int(km.group(1)))
                if comment is None:
                    return _not_found()
                if m == "GET":
                    return Reply(200, comment)
                if m == "PATCH":
                    comment["body"] = req.json()["body"]
                    return Reply(200, comment)
        return _not_found()

    # -- resources --------------------------------------------------------------------------

    def _repo_json(self) -> dict[str, Any]:
        owner, name = self.repo.split("/")
        return {
            "id": 1,
            "name": name,
            "full_name": self.repo,
            "owner": {"login": owner},
            "has_issues": self.has_issues,
            "default_branch": "main",
            "html_url": f"https://github.example/{self.repo}",
            "url": f"{self.api}/repos/{self.repo}",
        }

    def _label_json(self, name: str) -> dict[str, Any]:
        return self.labels.get(name) or {"name": name, "color": "ededed", "description": ""}

    def _create_label(self, data: dict[str, Any]) -> Reply:
        name = data["name"]
        if name in self.labels:
            return Reply(
                422, {"message": "Validation Failed", "errors": [{"code": "already_exists"}]}
            )
        self.labels[name] = {
            "name": name,
            "color": data.get("color", "ededed"),
            "description": data.get("description", ""),
            "url": f"{self.api}/repos/{self.repo}/labels/{name}",
        }
        return Reply(201, self.labels[name])

    def _create_issue(self, data: dict[str, Any], author: str) -> Reply:
        for name in data.get("labels") or []:
            self.labels.setdefault(name, self._label_json(name))
        issue = self.add_issue(
            data["title"],
            data.get("body") or "",
            labels=tuple(data.get("labels") or []),
            author=author,
        )
        return Reply(201, issue)

    def _edit_issue(self, issue: dict[str, Any], data: dict[str, Any]) -> Reply:
        for field in ("title", "body", "state", "state_reason"):
            if field in data:
                issue[field] = data[field]
        if "labels" in data:
            issue["labels"] = [self._label_json(n) for n in data["labels"]]
        return Reply(200, issue)

    def _create_comment(self, number: int, data: dict[str, Any], author: str) -> Reply:
        cid = self._next_comment
        self._next_comment += 1
        comment = {
            "id": cid,
            "issue": number,
            "body": data["body"],
            "html_url": f"https://github.example/{self.repo}/pull/{number}#issuecomment-{cid}",
            "url": f"{self.api}/repos/{self.repo}/issues/comments/{cid}",
            "user": {"login": author},
        }
        self.comments[cid] = comment
        return Reply(201, comment)

    def _list_issues(self, req: Request) -> Reply:
        state = req.query.get("state", "open")
        wanted = [x for x in req.query.get("labels", "").split(",") if x]
        items = []
        newest_first = req.query.get("direction", "desc") == "desc"  # GitHub's default
        ordered = sorted(self.issues.values(), key=lambda i: i["number"], reverse=newest_first)
        for issue in ordered:
            if state != "all" and issue["state"] != state:
                continue
            names = {lab["name"] for lab in issue["labels"]}
            if any(w not in names for w in wanted):
                continue
            creator = req.query.get("creator")
            if creator and issue["user"]["login"].lower() != creator.lower():
                continue
            items.append(issue)
        return self._page(req, items, f"/repos/{self.repo}/issues")

    def _search(self, req: Request) -> Reply:
        if self.search_broken:
            return Reply(422, {"message": "Validation Failed"})
        q = req.query.get("q", "")
        visible = [
            i
            for i in sorted(self.issues.values(), key=lambda i: i["number"])
            if not self.search_lag or i["number"] in self.indexed
        ]
        items = search(visible, q, self.repo, with_author=self.search_checks_author)
        return self._page(req, items, "/search/issues", search=True)

    def _page(
        self, req: Request, items: list[dict[str, Any]], path: str, *, search: bool = False
    ) -> Reply:
        per_page = min(int(req.query.get("per_page", "30")), self.per_page_cap, 100)
        page = int(req.query.get("page", "1"))
        chunk = items[(page - 1) * per_page : page * per_page]
        last = max(1, -(-len(items) // per_page))
        headers = {}
        links = []
        params = {k: v for k, v in req.query.items() if k != "page"}
        if page < last:
            links.append(
                f'<{self.api}{path}?{urlencode({**params, "page": page + 1})}>; rel="next"'
            )
            links.append(f'<{self.api}{path}?{urlencode({**params, "page": last})}>; rel="last"')
        if links:
            headers["Link"] = ", ".join(links)
        body: Any = chunk
        if search:
            body = {"total_count": len(items), "incomplete_results": False, "items": chunk}
        return Reply(200, body, headers=headers)


def _not_found() -> Reply:
    return Reply(404, {"message": "Not Found", "documentation_url": "https://docs.github.com"})
