"""GitHub through PyGithub, with every byte going through depbot's HTTP seam.

PyGithub lets a program replace the connection class its ``Requester`` uses
(``Requester.injectConnectionClasses``). depbot installs ``_SeamConnection``,
which hands each request to the ``Http`` registered for that host, so GitHub
traffic gets the same host policy, retries, size cap and on-disk cache as the
registries. PyGithub's own throttling and retries are switched off; ``Http``
does that work.

PyGithub knows nothing of depbot's cache policy (``core/cache.py``), so a method that knows
what it asks for (a file at a release tag is immutable; the release list read cache-only
first; the default-branch reads of an update by the age of its release, given as ``cache``)
sets the policy in a context variable around the PyGithub call that sends, and the
connection class hands it to ``Http.send``. Set per call and per thread, never across a
``yield``: a policy guessed from URL patterns could not tell ``ref=v2.0`` the tag from
``ref=v2.0`` the branch, the caller can.

Errors come out as ``UpstreamError`` with a short sentence naming what was asked.
"""

from __future__ import annotations

import base64
import contextvars
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import quote, urlsplit

import github
from github import Auth, Github, GithubException
from github.Requester import Requester

from depbot.core.cache import CACHED_ONLY, IMMUTABLE, CachePolicy
from depbot.core.errors import ConfigError, UpstreamError
from depbot.core.net import Http, Response, parse_json, status_error
from depbot.core.settings import Settings

_SEAMS: dict[str, Http] = {}
_SEAMS_LOCK = threading.Lock()
# the cache policy of the GitHub request being sent (None: Http's default, revalidate)
_POLICY: contextvars.ContextVar[CachePolicy | None] = contextvars.ContextVar(
    "depbot_github_cache_policy", default=None
)


@contextmanager
def _cache_policy(policy: CachePolicy | None) -> Iterator[None]:
    token = _POLICY.set(policy)
    try:
        yield
    finally:
        _POLICY.reset(token)


def _category(path: str) -> str:
    if "/releases" in path:
        return "changelog"
    if "/contents/" in path or "/git/trees/" in path:
        return "changelog"
    if "/issues" in path or "/labels" in path:
        return "issues"
    if "/pulls" in path:
        return "pulls"
    return "github"


class _PyGithubResponse:
    """Looks like the response object PyGithub's own connection classes return."""

    def __init__(self, resp: Response) -> None:
        self.status = resp.status
        self.headers = {k.lower(): v for k, v in resp.headers.items()}
        self._resp = resp

    def getheaders(self) -> Any:
        return self.headers.items()

    def read(self) -> str:
        return self._resp.text

    def iter_content(self, chunk_size: int | None = 1) -> Iterator[bytes]:
        yield self._resp.content

    def raise_for_status(self) -> None:
        if self.status >= 400:
            raise status_error(self._resp, "GitHub")


class _SeamConnection:
    """PyGithub connection class that sends through the registered ``Http``."""

    scheme = "https"

    def __init__(
        self,
        host: str,
        port: int | None = None,
        strict: bool = False,
        timeout: int | None = None,
        retry: Any = None,
        pool_size: int | None = None,
        **kwargs: Any,
    ) -> None:
        self.host = host
        self.port = port
        self.timeout = timeout
        # PyGithub's Requester hands out its last connection after releasing its lock, so two
        # threads can share one object: keep each thread's pending request apart.
        self._pending = threading.local()

    def request(
        self, verb: str, url: str, input: Any, headers: dict[str, str], stream: bool = False
    ) -> None:
        self._pending.request = (verb, url, input, headers)

    def getresponse(self) -> _PyGithubResponse:
        verb, path, data, headers = self._pending.request
        netloc = self.host if self.port is None else f"{self.host}:{self.port}"
        with _SEAMS_LOCK:
            http = _SEAMS.get(netloc.lower())
        if http is None:
            raise UpstreamError("refused", f"no configured GitHub API at {self.host}")
        url = f"{self.scheme}://{netloc}{path}"
        if isinstance(data, str):
            data = data.encode("utf-8")
        resp = http.send(
            verb,
            url,
            headers=dict(headers),
            data=data,
            what="GitHub API",
            category=_category(urlsplit(url).path),
            timeout=None,  # the seam's settings.http_timeout (PyGithub only knows whole seconds)
            idempotent=verb.upper() != "POST",  # never create an issue twice
            cache=_POLICY.get() if verb.upper() == "GET" else None,
        )
        if verb.upper() == "GET" and resp.status == 200:
            try:
                parse_json(resp, "GitHub API")
            except UpstreamError:
                http.forget(url)  # an error page with a 200: not to be reused from the cache
        return _PyGithubResponse(resp)

    def close(self) -> None:
        pass


class _SeamConnectionHTTP(_SeamConnection):
    scheme = "http"


Requester.injectConnectionClasses(_SeamConnectionHTTP, _SeamConnection)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Release:
    tag: str
    name: str
    body: str
    url: str
    prerelease: bool = False
    draft: bool = False
    published: datetime | None = None  # published_at (None: a draft, or not given)


@dataclass(frozen=True)
class Entry:
    """A file or folder of a repository listing."""

    name: str
    path: str
    type: str  # "file" | "dir" | ...
    size: int


@dataclass(frozen=True)
class PullRequest:
    number: int
    title: str
    body: str
    head_ref: str
    url: str
    author: str


def split_repo(full_name: str) -> tuple[str, str]:
    parts = full_name.strip().strip("/").split("/")
    if len(parts) != 2 or not all(parts):
        raise ConfigError(f"expected OWNER/REPO, got {full_name!r}")
    return parts[0], parts[1]


class GitHubClient:
    """The GitHub calls depbot makes, each returning plain values."""

    def __init__(
        self,
        settings: Settings,
        http: Http,
        *,
        require_token: bool = False,
        write_interval: float | None = 1.0,
    ) -> None:
        if require_token and not settings.github_token:
            raise ConfigError(
                "no GitHub token: set GITHUB_TOKEN (in Actions: env GITHUB_TOKEN: ${{ github.token }})"
            )
        self.settings = settings
        self.http = http
        netloc = urlsplit(settings.github_api_url).netloc.lower()
        with _SEAMS_LOCK:
            _SEAMS[netloc] = http
        auth = Auth.Token(settings.github_token) if settings.github_token else None
        self.gh = Github(
            auth=auth,
            base_url=settings.github_api_url,
            timeout=int(max(1, settings.http_timeout)),
            per_page=100,
            retry=None,
            seconds_between_requests=None,
            seconds_between_writes=write_interval,
            lazy=True,
        )

    # -- errors ---------------------------------------------------------------------------

    def _error(self, exc: Exception, what: str) -> UpstreamError:
        if isinstance(exc, UpstreamError):
            return UpstreamError(exc.kind, f"{what}: {exc}")
        if isinstance(exc, GithubException):
            headers = {k.lower(): v for k, v in (exc.headers or {}).items()}
            fake = Response(
                url=self.settings.github_api_url, status=exc.status, headers=headers, content=b""
            )
            return status_error(fake, what)
        return UpstreamError("bad_response", f"{what}: GitHub gave an answer depbot cannot read")

    def _repo(self, full_name: str) -> Any:
        return self.gh.get_repo(full_name)  # lazy: the client is built with lazy=True

    # -- reading ----------------------------------------------------------------------------

    def default_branch(self, full_name: str, *, cache: CachePolicy | None = None) -> str:
        """The default branch's name (``cache``: the policy of the repository read; None:
        revalidate)."""
        try:
            with _cache_policy(cache):  # the lazy repository is fetched by the attribute
                return str(self.gh.get_repo(full_name).default_branch)
        except Exception as exc:  # noqa: BLE001 - mapped to a short message
            raise self._error(exc, f"repository {full_name}") from None

    def releases(self, full_name: str, *, max_items: int = 300) -> list[Release]:
        """Published releases, newest first (at most ``max_items``, 100 a page)."""
        out: list[Release] = []
        for rel in self.iter_releases(full_name):
            out.append(rel)
            if len(out) >= max_items:
                break
        return out

    def iter_releases(self, full_name: str, *, cached_only: bool = False) -> Iterator[Release]:
        """Published releases, newest first, fetched lazily 100 a page (``Link`` pagination).

        The caller stops iterating when it has seen enough; no page is fetched before needed.
        ``cached_only``: the pages the on-disk cache holds, whatever their age, and no request;
        a page not stored ends it with an ``UpstreamError`` (a 504, "not cached").
        """
        policy = CACHED_ONLY if cached_only else None
        try:
            pages = iter(self._repo(full_name).get_releases())
            while True:
                with _cache_policy(policy):  # only while PyGithub may fetch a page
                    rel = next(pages, None)
                if rel is None:
                    return
                if rel.draft:
                    continue
                yield Release(
                    tag=rel.tag_name or "",
                    name=rel.name or "",
                    body=rel.body or "",
                    url=rel.html_url or "",
                    prerelease=bool(rel.prerelease),
                    published=rel.published_at,
                )
        except Exception as exc:  # noqa: BLE001
            raise self._error(exc, f"releases of {full_name}") from None

    def tags(
        self, full_name: str, *, max_items: int = 500, cache: CachePolicy | None = None
    ) -> list[str]:
        """Tag names of the repository (at most ``max_items``, 100 a page; ``cache``: the
        policy of the pages, None: revalidate)."""
        out: list[str] = []
        try:
            pages = iter(self._repo(full_name).get_tags())
            while True:
                with _cache_policy(cache):  # only while PyGithub may fetch a page
                    tag = next(pages, None)
                if tag is None:
                    break
                name = tag.name
                if isinstance(name, str) and name:
                    out.append(name)
                if len(out) >= max_items:
                    break
        except Exception as exc:  # noqa: BLE001
            raise self._error(exc, f"tags of {full_name}") from None
        return out

    def list_dir(
        self,
        full_name: str,
        path: str = "",
        ref: str | None = None,
        *,
        cache: CachePolicy | None = None,
    ) -> list[Entry]:
        try:
            kwargs = {"ref": ref} if ref else {}
            with _cache_policy(cache):
                items = self._repo(full_name).get_contents(path, **kwargs)
        except Exception as exc:  # noqa: BLE001
            raise self._error(exc, f"folder '{path or '/'}' of {full_name}") from None
        if not isinstance(items, list):
            raw_data = getattr(items, "raw_data", None)
            if not isinstance(raw_data, dict) or "type" not in raw_data:
                # an HTML page or other non-JSON answer: PyGithub wraps it in {"data": ...}
                raise UpstreamError(
                    "bad_response", f"folder '{path or '/'}' of {full_name}: unreadable answer"
                )
            items = [items]
        return [Entry(i.name, i.path, i.type, int(i.size or 0)) for i in items]

    def tree(self, full_name: str, ref: str, *, cache: CachePolicy | None = None) -> list[Entry]:
        """Every file and folder of the repository at ``ref`` (a branch or tag name), from the
        git trees API in one request (``recursive=1``); GitHub cuts very large trees short
        (the entries it sent are returned)."""
        try:
            with _cache_policy(cache):
                tree = self._repo(full_name).get_git_tree(ref, recursive=True)
                items = list(tree.tree)
        except Exception as exc:  # noqa: BLE001
            raise self._error(exc, f"the tree of {full_name} at {ref}") from None
        out: list[Entry] = []
        for i in items:
            path = i.path
            if not isinstance(path, str):
                continue
            kind = {"blob": "file", "tree": "dir"}.get(str(i.type), str(i.type))
            out.append(Entry(path.rsplit("/", 1)[-1], path, kind, int(i.size or 0)))
        return out

    def _raw(self, full_name: str, path: str, ref: str | None, policy: CachePolicy | None) -> str:
        """A file over the contents API's 1 MB limit, from the raw-file endpoint (``raw_url``)."""
        url = (
            f"{self.settings.raw_url.rstrip('/')}/{full_name}/{quote(ref or 'HEAD')}/{quote(path)}"
        )
        resp = self.http.get(
            url, what=f"file {path} of {full_name}", category="changelog", cache=policy
        )
        return resp.content.decode("utf-8", errors="replace")

    def read_file(
        self,
        full_name: str,
        path: str,
        ref: str | None = None,
        *,
        immutable: bool = False,
        cache: CachePolicy | None = None,
    ) -> tuple[str, str]:
        """The text of a file and its web URL.

        ``immutable``: the caller knows ``ref`` is a release tag, so a cached copy is used
        with no request; otherwise ``cache`` (None: a file at a branch, or at no ref, is
        revalidated each time).
        """
        policy = IMMUTABLE if immutable and ref else cache
        try:
            kwargs = {"ref": ref} if ref else {}
            with _cache_policy(policy):
                item = self._repo(full_name).get_contents(path, **kwargs)
        except Exception as exc:  # noqa: BLE001
            raise self._error(exc, f"file {path} of {full_name}") from None
        if isinstance(item, list):
            raise UpstreamError("not_found", f"{path} of {full_name} is a folder, not a file")
        raw_data = getattr(item, "raw_data", None)
        if not isinstance(raw_data, dict) or "content" not in raw_data:
            # an HTML page or other non-JSON answer: PyGithub wraps it in {"data": ...}
            raise UpstreamError(
                "bad_response", f"file {path} of {full_name}: GitHub sent no file content"
            )
        if raw_data.get("encoding") == "none" or (not raw_data["content"] and item.size):
            # over the contents API's limit: no content, the raw-file endpoint has it
            return self._raw(full_name, path, ref, policy), str(item.html_url or "")
        try:
            raw = base64.b64decode(item.content or "")
        except (ValueError, TypeError):
            raise UpstreamError(
                "bad_response", f"file {path} of {full_name}: unreadable content"
            ) from None
        return raw.decode("utf-8", errors="replace"), str(item.html_url or "")

    def open_pull_requests(self, full_name: str) -> list[PullRequest]:
        try:
            pulls = self._repo(full_name).get_pulls(state="open")
            return [
                PullRequest(
                    number=p.number,
                    title=p.title or "",
                    body=p.body or "",
                    head_ref=p.head.ref or "",
                    url=p.html_url or "",
                    author=(p.user.login if p.user else "") or "",
                )
                for p in pulls
            ]
        except Exception as exc:  # noqa: BLE001
            raise self._error(exc, f"pull requests of {full_name}") from None


__all__ = [
    "Entry",
    "GitHubClient",
    "PullRequest",
    "Release",
    "github",
    "split_repo",
]
