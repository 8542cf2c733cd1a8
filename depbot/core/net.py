"""The one seam where bytes leave the process.

Every HTTP request depbot makes (registries, GitHub through PyGithub, nothing else)
goes through ``Http.send``, which enforces:

- only the configured upstream hosts, only http(s), no private or loopback
  addresses unless the settings allow them (tests and ``eval`` do);
- redirects followed by hand, and only to allowed hosts;
- bounded retries with backoff on 429 / 5xx / timeouts / connection resets,
  honouring ``Retry-After`` up to a cap;
- a cap on response size;
- an on-disk cache (requests-cache) that revalidates with ETag / Last-Modified,
  so a warm rerun downloads no body it already has.

Failures become ``UpstreamError`` with a short sentence: no stack trace, no token,
no response body.
"""

from __future__ import annotations

import email.utils
import ipaddress
import json
import random
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

import requests

from depbot.core.errors import UpstreamError
from depbot.core.settings import Settings

USER_AGENT = "depbot/0.1 (+https://github.com/depbot/depbot)"
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_MAX_REDIRECTS = 5


@dataclass
class Response:
    """What callers get back: status, headers and the (size-capped) body."""

    url: str
    status: int
    headers: dict[str, str]
    content: bytes
    from_cache: bool = False

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")

    def header(self, name: str) -> str | None:
        lname = name.lower()
        for k, v in self.headers.items():
            if k.lower() == lname:
                return v
        return None


def _retry_after_seconds(value: str | None) -> float | None:
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _rate_limited(resp: Response) -> bool:
    """The server said "too many requests" (and so did not act on this one)."""
    return resp.status == 429 or (
        resp.status == 403 and resp.header("x-ratelimit-remaining") == "0"
    )


def _revalidatable(response: requests.Response) -> bool:
    headers = response.headers
    return bool(headers.get("ETag") or headers.get("Last-Modified"))


def _looks_like_html(body: bytes) -> bool:
    head = body[:512].lstrip().lower()
    return head.startswith((b"<!doctype", b"<html", b"<?xml", b"<head", b"<body"))


class Http:
    """A shared, thread-safe HTTP client bound to one ``Settings``."""

    def __init__(self, settings: Settings, *, sleep: Any = time.sleep) -> None:
        self.settings = settings
        self._sleep = sleep
        self._lock = threading.Lock()
        self._host_ok: dict[str, bool] = {}
        self.stats: Counter[str] = Counter()
        # called with {"what", "method", "url", "reason", "attempt", "wait"} before each retry
        # (triage writes these to the trace); a failing listener never breaks a request
        self.on_retry: Callable[[dict[str, Any]], None] | None = None
        self.session = self._make_session()

    # -- construction -----------------------------------------------------------------

    def _make_session(self) -> requests.Session:
        s = self.settings
        if s.cache_dir is not None:
            import requests_cache

            s.cache_dir.mkdir(parents=True, exist_ok=True)
            session: requests.Session = requests_cache.CachedSession(
                str(s.cache_dir / "http_cache"),
                backend="sqlite",
                expire_after=requests_cache.NEVER_EXPIRE,
                always_revalidate=True,  # conditional request every time; 304 keeps the body
                stale_if_error=False,
                allowable_methods=("GET",),
                allowable_codes=(200,),
                # only answers that can be revalidated: one without ETag or Last-Modified
                # would otherwise be served from the cache forever, never asked again
                filter_fn=_revalidatable,
            )
        else:
            session = requests.Session()
        session.headers["User-Agent"] = USER_AGENT
        session.trust_env = False  # no proxies or .netrc credentials from the environment
        return session

    def close(self) -> None:
        self.session.close()

    # -- policy -------------------------------------------------------------------------

    def check_url(self, url: str) -> None:
        """Refuse anything but http(s) to a configured host (and no private address)."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https"):
            raise UpstreamError("refused", f"refused a non-HTTP address ({parts.scheme or 'none'})")
        host = (parts.netloc or "").lower()
        if "@" in host:
            raise UpstreamError("refused", "refused an address with credentials in it")
        if host not in self.settings.upstream_hosts:
            raise UpstreamError(
                "refused",
                f"refused to contact {parts.hostname or host!s}: not a configured registry or GitHub host",
            )
        if not self.settings.allow_private_hosts and not self._public(parts.hostname or ""):
            raise UpstreamError(
                "refused", f"refused to contact {parts.hostname}: private or loopback address"
            )

    def _public(self, hostname: str) -> bool:
        with self._lock:
            if hostname in self._host_ok:
                return self._host_ok[hostname]
        try:
            infos = socket.getaddrinfo(hostname, None)
            addrs = {info[4][0] for info in infos}
            ok = bool(addrs) and all(ipaddress.ip_address(a.split("%")[0]).is_global for a in addrs)
        except (OSError, ValueError):
            ok = True  # resolution failure surfaces later as a connection error
        with self._lock:
            self._host_ok[hostname] = ok
        return ok

    def _count(self, key: str, n: int = 1) -> None:
        with self._lock:
            self.stats[key] += n

    # -- the request --------------------------------------------------------------------

    def send(
        self,
        method: str,
        url: str,
        *,
        headers: dict[str, str] | None = None,
        data: Any = None,
        what: str = "request",
        category: str = "other",
        timeout: float | None = None,
        idempotent: bool = True,
    ) -> Response:
        """Send one request with retries; return the final response whatever its status.

        Raises ``UpstreamError`` when no response could be had (refused, timeout,
        connection failure after retries, body too large). ``idempotent=False`` (a POST
        that creates something) is never repeated once it may have reached the server:
        only an explicit rate-limit answer (429, or 403 with no quota left) is retried.
        """
        s = self.settings
        attempts = max(1, s.http_retries + 1)
        last_error: UpstreamError | None = None
        for attempt in range(attempts):
            try:
                resp = self._send_following_redirects(
                    method, url, headers or {}, data, timeout or s.http_timeout, category
                )
            except UpstreamError as exc:
                if not exc.transient or attempt == attempts - 1 or not idempotent:
                    raise UpstreamError(exc.kind, f"{what}: {exc}") from None
                last_error = exc
                wait = self._backoff(attempt, None)
                self._retrying(what, method, url, exc.kind, attempt, wait)
                self._sleep(wait)
                continue
            wait = self._retry_wait(resp, attempt)
            if wait is None or attempt == attempts - 1:
                return resp
            if wait > s.max_retry_wait:
                return resp  # the server asks for longer than we wait; let the caller say so
            if not idempotent and not _rate_limited(resp):
                return resp  # a 5xx may come after the server acted: do not act twice
            self._retrying(what, method, url, f"HTTP {resp.status}", attempt, wait)
            self._sleep(wait)
        assert last_error is not None  # pragma: no cover
        raise last_error  # pragma: no cover

    def _retrying(
        self, what: str, method: str, url: str, reason: str, attempt: int, wait: float
    ) -> None:
        self._count("retries")
        listener = self.on_retry
        if listener is None:
            return
        event = {"what": what, "method": method, "url": url.split("?", 1)[0],
                 "reason": reason, "attempt": attempt + 1, "wait": round(wait, 3)}  # fmt: skip
        try:
            listener(event)
        except Exception:  # noqa: BLE001 - observing must not change the request's fate
            pass

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.settings.max_retry_wait)
        base = self.settings.retry_backoff * (2**attempt)
        return min(base + random.uniform(0, base / 2), self.settings.max_retry_wait)

    def _retry_wait(self, resp: Response, attempt: int) -> float | None:
        """Seconds to wait before retrying this response, or None when it is final."""
        status = resp.status
        rate_limited = _rate_limited(resp)
        if status not in RETRY_STATUSES and not rate_limited:
            return None
        retry_after = _retry_after_seconds(resp.header("retry-after"))
        if retry_after is None and rate_limited:
            reset = resp.header("x-ratelimit-reset")
            if reset and reset.isdigit():
                retry_after = max(0.0, int(reset) - time.time())
        if retry_after is not None and retry_after > self.settings.max_retry_wait:
            return retry_after  # longer than we are willing to wait: send() gives up
        return self._backoff(attempt, retry_after)

    def _send_following_redirects(
        self,
        method: str,
        url: str,
        headers: dict[str, str],
        data: Any,
        timeout: float,
        category: str,
    ) -> Response:
        for _ in range(_MAX_REDIRECTS + 1):
            self.check_url(url)
            resp = self._send_once(method, url, headers, data, timeout, category)
            if resp.status in (301, 302, 303, 307, 308) and resp.header("location"):
                target = urljoin(url, resp.header("location") or "")
                if urlsplit(target).netloc.lower() != urlsplit(url).netloc.lower():
                    # a redirect to another host: only to a configured one, never with our headers
                    self.check_url(target)
                    headers = {k: v for k, v in headers.items() if k.lower() != "authorization"}
                url = target
                if resp.status == 303:
                    method, data = "GET", None
                continue
            return resp
        raise UpstreamError("bad_response", "too many redirects")

    def _send_once(
        self,
        method: str,
        url: str,
        headers: dict[str, str],
        data: Any,
        timeout: float,
        category: str,
    ) -> Response:
        host = urlsplit(url).hostname or "the server"
        cap = self.settings.max_response_bytes
        self._count("requests")
        try:
            raw = self.session.request(
                method,
                url,
                headers=headers,
                data=data,
                timeout=timeout,
                allow_redirects=False,
                stream=True,
            )
        except requests.Timeout:
            raise UpstreamError("timeout", f"{host} did not answer in time") from None
        except requests.ConnectionError:
            raise UpstreamError("connection", f"could not connect to {host}") from None
        except requests.RequestException:
            raise UpstreamError("connection", f"request to {host} failed") from None
        try:
            length = int(raw.headers.get("content-length") or 0)
        except ValueError:
            length = 0
        if length > cap:
            raw.close()
            raise UpstreamError("too_large", f"{host} sent {length} bytes (limit {cap})")
        chunks: list[bytes] = []
        size = 0
        try:
            for chunk in raw.iter_content(64 * 1024):
                size += len(chunk)
                if size > cap:
                    raw.close()
                    raise UpstreamError("too_large", f"{host} sent more than {cap} bytes")
                chunks.append(chunk)
        except (requests.exceptions.ChunkedEncodingError, requests.ConnectionError):
            raise UpstreamError("connection", f"{host} cut the response short") from None
        except requests.Timeout:
            raise UpstreamError("timeout", f"{host} stopped sending") from None
        body = b"".join(chunks)
        from_cache = bool(getattr(raw, "from_cache", False))
        if from_cache:
            self._count("revalidated" if getattr(raw, "revalidated", False) else "cache_hits")
            self._count(f"{category}:cached")
        else:
            self._count("bytes", len(body))
            if raw.status_code == 200:
                self._count(f"{category}:downloads")
        return Response(
            url=url,
            status=raw.status_code,
            headers=dict(raw.headers),
            content=body,
            from_cache=from_cache,
        )

    # -- conveniences for JSON and text ---------------------------------------------------

    def get(self, url: str, *, what: str, category: str = "other", **kw: Any) -> Response:
        """GET that raises ``UpstreamError`` for any non-200 answer."""
        resp = self.send("GET", url, what=what, category=category, **kw)
        if resp.status != 200:
            raise status_error(resp, what)
        return resp

    def get_json(self, url: str, *, what: str, category: str = "other", **kw: Any) -> Any:
        resp = self.get(url, what=what, category=category, **kw)
        return parse_json(resp, what)


def parse_json(resp: Response, what: str) -> Any:
    if _looks_like_html(resp.content):
        raise UpstreamError("bad_response", f"{what}: got an HTML page instead of JSON")
    try:
        return json.loads(resp.content.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise UpstreamError("bad_response", f"{what}: the answer was not valid JSON") from None


def status_error(resp: Response, what: str) -> UpstreamError:
    """The ``UpstreamError`` for a non-success status, in words a model can act on."""
    status = resp.status
    host = urlsplit(resp.url).hostname or "the server"
    retry_after = _retry_after_seconds(resp.header("retry-after"))
    if status == 429 or (status == 403 and resp.header("x-ratelimit-remaining") == "0"):
        return UpstreamError(
            "rate_limited",
            f"{what}: {host} rate limit reached (HTTP {status})",
            status=status,
            retry_after=retry_after,
        )
    if status in (401, 403):
        return UpstreamError(
            "unauthorized", f"{what}: {host} refused access (HTTP {status})", status=status
        )
    if status in (404, 410):
        return UpstreamError("not_found", f"{what}: not found on {host}", status=status)
    if status >= 500:
        return UpstreamError(
            "server_error", f"{what}: {host} had a server error (HTTP {status})", status=status
        )
    return UpstreamError(
        "bad_response", f"{what}: unexpected HTTP {status} from {host}", status=status
    )
