"""Loopback fakes that answer like the package index, the npm registry and GitHub's PR list.

Wire formats follow the real services:

- ``GET /pypi/<name>/json``: ``{"info": {"name", "version", ...}, "releases": {v: [files]}}``
  with ``yanked`` on each file; names are matched after PEP 503 normalization;
- ``GET /npm/<name>`` (scoped names arrive as ``@scope%2Fname``): ``{"name", "dist-tags",
  "versions": {v: {"version", "deprecated"?}}}``;
- ``GET /github/repos/<o>/<r>/pulls?state=open&per_page=N&page=K``: a page of PR objects
  with ``Link`` headers (``rel="next"``, ``rel="last"``) like the GitHub REST API.

``faults`` maps a package name to a list of replies served before the real answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from depbot.fakes.loopback import Reply, Request
from depbot.records.names import normalize


@dataclass
class FakeRegistry:
    pypi: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> {version: {yanked}}
    npm: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> {version: {deprecated}}
    pulls: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # "o/r" -> PR objects
    faults: dict[str, list[Reply]] = field(default_factory=dict)
    per_page: int = 100
    base_url: str = ""  # set once the server runs; used in Link headers

    # -- building the data ------------------------------------------------------------------

    def add_pypi(self, name: str, *versions: str, yanked: tuple[str, ...] = ()) -> None:
        self.pypi[normalize(name)] = {
            "name": name,
            "releases": {v: {"yanked": v in yanked} for v in versions},
        }

    def add_npm(self, name: str, *versions: str, deprecated: tuple[str, ...] = ()) -> None:
        self.npm[name] = {"name": name, "versions": {v: v in deprecated for v in versions}}

    # -- answering ---------------------------------------------------------------------------

    def __call__(self, req: Request) -> Reply:
        path = req.path
        m = re.match(r"^/pypi/([^/]+)/json$", path)
        if m:
            return self._fault(unquote(m.group(1))) or self._pypi(unquote(m.group(1)))
        m = re.match(r"^/npm/(.+)$", path)
        if m:
            name = unquote(m.group(1))
            return self._fault(name) or self._npm(name)
        m = re.match(r"^/github/repos/([^/]+)/([^/]+)/pulls$", path)
        if m:
            return self._pulls(f"{m.group(1)}/{m.group(2)}", req)
        return Reply(404, {"message": "Not Found"})

    def _fault(self, name: str) -> Reply | None:
        queue = self.faults.get(name)
        return queue.pop(0) if queue else None

    def _pypi(self, name: str) -> Reply:
        entry = self.pypi.get(normalize(name))
        if entry is None:
            return Reply(404, {"message": "Not Found"})
        releases = {
            v: [{"filename": f"{entry['name']}-{v}.tar.gz", "yanked": meta["yanked"]}]
            for v, meta in entry["releases"].items()
        }
        stable = [v for v, meta in entry["releases"].items() if not meta["yanked"]]
        info = {
            "name": entry["name"],
            "version": stable[-1] if stable else "",
            "project_urls": {"Source": f"https://github.com/example/{entry['name']}"},
        }
        return Reply(200, {"info": info, "releases": releases})

    def _npm(self, name: str) -> Reply:
        entry = self.npm.get(name)
        if entry is None:
            return Reply(404, {"error": "Not found"})
        versions = {}
        for v, deprecated in entry["versions"].items():
            meta: dict[str, Any] = {"name": name, "version": v}
            if deprecated:
                meta["deprecated"] = "this version has a critical bug"
            versions[v] = meta
        latest = [v for v, dep in entry["versions"].items() if not dep and "-" not in v]
        body = {
            "name": name,
            "dist-tags": {"latest": latest[-1] if latest else ""},
            "versions": versions,
            "repository": {"type": "git", "url": f"git+https://github.com/example/{name}.git"},
        }
        return Reply(200, body)

    def _pulls(self, full_name: str, req: Request) -> Reply:
        prs = self.pulls.get(full_name)
        if prs is None:
            return Reply(404, {"message": "Not Found"})
        if req.query.get("state", "open") != "open":
            return Reply(422, {"message": "only open pulls are faked"})
        per_page = min(int(req.query.get("per_page", 30)), self.per_page)
        page = int(req.query.get("page", 1))
        chunk = prs[(page - 1) * per_page : page * per_page]
        last = max(1, -(-len(prs) // per_page))
        url = f"{self.base_url}/github/repos/{full_name}/pulls?state=open&per_page={per_page}"
        links = []
        if page < last:
            links.append(f'<{url}&page={page + 1}>; rel="next"')
            links.append(f'<{url}&page={last}>; rel="last"')
        if page > 1:
            links.append(f'<{url}&page=1>; rel="first"')
            links.append(f'<{url}&page={page - 1}>; rel="prev"')
        headers = {"Link": ", ".join(links)} if links else {}
        return Reply(200, chunk, headers)


def pull(
    number: int,
    title: str,
    body: str,
    head_ref: str,
    *,
    owner_repo: str = "acme/shop",
    author: str = "dependabot[bot]",
) -> dict[str, Any]:
    """A pull request object shaped like GitHub's REST answer (the fields PyGithub reads)."""
    api = f"https://api.github.com/repos/{owner_repo}"
    return {
        "url": f"{api}/pulls/{number}",
        "id": 1000 + number,
        "number": number,
        "state": "open",
        "title": title,
        "body": body,
        "html_url": f"https://github.com/{owner_repo}/pull/{number}",
        "user": {"login": author, "id": 49699333, "type": "Bot"},
        "head": {"ref": head_ref, "sha": f"{number:040d}", "label": f"acme:{head_ref}"},
        "base": {"ref": "main", "sha": "0" * 40, "label": "acme:main"},
        "labels": [{"name": "dependencies"}],
        "draft": False,
    }
