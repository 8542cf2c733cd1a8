"""The one seam where bytes leave the process.

Every HTTP request depbot makes (registries, GitHub through PyGithub, nothing else)
goes through ``Http.send``, which enforces:

- only allowed hosts, only http(s): the configured endpoints wherever they resolve (a
  mirror on 10.x or 127.0.0.1), any other allowed host (named only by data or a
  redirect) on public addresses unless ``allow_private_hosts`` (tests and ``eval``);
- the CA bundle, trust store and proxies of the settings (``core/tls.py``), never
  ``.netrc``; a failed connection says which: ``dns``, ``tls``, ``proxy``, ``timeout``
  or ``connection``;
- redirects followed by hand, and only to allowed hosts;
- bounded retries with backoff on 429 / 5xx / timeouts / connection resets,
  honouring ``Retry-After`` up to a cap;
- a cap on response size;
- a per-host breaker (``core/breaker.py``): after ``breaker_failures`` connection failures
  in a row the host is down for the run, said once on stderr, and refused at once;
- (connect, read) timeouts, and the run's deadline (``set_deadline``): no request starts
  after it and none waits past it;
- an on-disk cache (requests-cache) with a policy per request (``core/cache.py``):
  mutable things revalidate with ETag / Last-Modified (a 304 keeps the body), registry
  metadata is fresh for ``registry_ttl``, what the caller marks immutable (a file at a
  release tag) is used with no request; ``stats`` counts as ``requests`` only those
  that left, and a cached answer used as is as ``cache_hits``.

Failures become ``UpstreamError`` with a short sentence: no stack trace, no token,
no response body.
"""

from __future__ import annotations

import ipaddress
import random
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import metadata
from typing import Any
from urllib.parse import urljoin, urlsplit

import requests

from depbot.core.breaker import Breaker, announcement, endpoint_of, failure_reason
from depbot.core.cache import (
    CACHE_NAME,
    LEGACY_CACHE_FILES,
    REVALIDATE,
    CachePolicy,
    vary_without,
)
from depbot.core.downhosts import remember, remembered
from depbot.core.errors import CONNECTION_FAILURES, UpstreamError
from depbot.core.peer import PRIVATE_PEER
from depbot.core.proxies import proxy_refused
from depbot.core.response import (  # re-exported: callers take these from the seam
    Response,
    parse_json,
    rate_limited,
    retry_after_seconds,
    status_error,
)
from depbot.core.settings import Settings
from depbot.core.tls import TLS_ADVICE, configure_session, settings_proxy, tls_failure

try:  # the installed version (depbot/__init__.py writes it; importing it here would be a cycle)
    _VERSION = metadata.version("depbot")
except metadata.PackageNotFoundError:  # run from a checkout that was never installed
    _VERSION = "dev"
USER_AGENT = f"depbot/{_VERSION} (+https://github.com/depbot/depbot)"
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_MAX_REDIRECTS = 5


def _storable_vary(response: requests.Response, *args: Any, **kwargs: Any) -> requests.Response:
    import requests_cache

    vary = response.headers.get("Vary")
    kept = vary_without(vary, requests_cache.DEFAULT_IGNORED_PARAMS)
    if kept != vary:
        if kept:
            response.headers["Vary"] = kept
        else:
            del response.headers["Vary"]
    return response


def _private_refusal(host: str, how: str = "") -> str:
    """The refusal of a guarded host that resolved (or connected) to a non-global address."""
    return f"refused to contact {host}: it resolves to a private, loopback or reserved address{how}"


def _dns_failed(exc: BaseException) -> bool:
    """Whether a failed connection began with a name that did not resolve."""
    seen: set[int] = set()
    todo: list[BaseException] = [exc]
    while todo:
        err = todo.pop()
        if id(err) in seen:
            continue
        seen.add(id(err))
        if isinstance(err, socket.gaierror):
            return True
        linked = (*err.args, getattr(err, "reason", None), err.__cause__, err.__context__)
        todo.extend(e for e in linked if isinstance(e, BaseException))
    return False


def _to_stderr(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


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
        self._init_guards()
        self.session = self._make_session()

    # -- construction -----------------------------------------------------------------

    def _make_session(self) -> requests.Session:
        s = self.settings
        if s.cache_dir is not None:
            import requests_cache

            s.cache_dir.mkdir(parents=True, exist_ok=True)
            for old in LEGACY_CACHE_FILES:  # stored as "never expires": not to be read as fresh
                (s.cache_dir / old).unlink(missing_ok=True)
            session: requests.Session = requests_cache.CachedSession(
                str(s.cache_dir / CACHE_NAME),
                backend="sqlite",
                # freshness comes with each request (CachePolicy.request_options: expire_after,
                # only_if_cached); a GET without one revalidates. always_revalidate stays off:
                # requests-cache 1.x then sends a conditional request for every stored answer
                # with a validator, whatever the request's expire_after (CacheActions.
                # _update_validation_headers), and nothing immutable could skip the network.
                # An answer without ETag/Last-Modified is stored only with a TTL (for the TTL).
                expire_after=requests_cache.EXPIRE_IMMEDIATELY,
                always_revalidate=False,
                stale_if_error=False,
                allowable_methods=("GET",),
                allowable_codes=(200,),
            )
            # before requests-cache stores (or merges a 304 into) an answer: no Vary on a
            # header it redacts, or a GitHub answer to a token is never reused (vary_without)
            session.hooks["response"].append(_storable_vary)
        else:
            session = requests.Session()
        session.headers["User-Agent"] = USER_AGENT
        # CA bundle, trust store and proxies from the settings (which read the standard
        # variables); trust_env stays off, so no .netrc credentials go to any host
        configure_session(session, s)
        return session

    def close(self) -> None:
        self.session.close()

    # -- policy -------------------------------------------------------------------------

    def check_url(self, url: str) -> None:
        """Refuse anything but http(s) to an allowed host.

        The endpoints the user configured (registries, GitHub API, raw files) are trusted
        wherever they resolve: an internal mirror on 10.x or 127.0.0.1 needs no flag. Any
        other allowed host, one only fetched data or a redirect names, must also resolve
        to public addresses unless ``allow_private_hosts``.
        """
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
        if host in self.settings.configured_hosts:
            return  # what the user configured, not what the data says
        if not self.settings.allow_private_hosts and not self._public(parts.hostname or ""):
            raise UpstreamError("refused", _private_refusal(parts.hostname or host))

    def _public(self, hostname: str) -> bool:
        with self._lock:
            if hostname in self._host_ok:
                return self._host_ok[hostname]
        try:
            infos = socket.getaddrinfo(hostname, None)
            addrs = {info[4][0] for info in infos}
            ok = bool(addrs) and all(ipaddress.ip_address(a.split("%")[0]).is_global for a in addrs)
        except (OSError, ValueError):
            ok = True  # resolution failure surfaces later as a "dns" error
        with self._lock:
            self._host_ok[hostname] = ok
        return ok

    def _no_answer(self, url: str, exc: requests.RequestException) -> UpstreamError:
        """The error for a request that got no answer, by what failed: the name, the
        certificate, the proxy, the clock or the connection (kinds in CONNECTION_FAILURES)."""
        host = urlsplit(url).hostname or "the server"
        if isinstance(exc, requests.exceptions.SSLError):
            return UpstreamError("tls", tls_failure(host))
        if isinstance(exc, requests.exceptions.ProxyError):
            proxy = settings_proxy(self.settings, url) or "unknown"
            return UpstreamError("proxy", proxy_refused(proxy, url))
        if isinstance(exc, requests.Timeout):
            return UpstreamError("timeout", f"{host} did not answer in time")
        if isinstance(exc, requests.ConnectionError) and PRIVATE_PEER in str(exc):
            return UpstreamError(
                "refused", _private_refusal(host, " (checked on the connection itself)")
            )
        if isinstance(exc, requests.ConnectionError) and _dns_failed(exc):
            return UpstreamError("dns", f"{host}: DNS lookup failed")
        if isinstance(exc, requests.ConnectionError):
            return UpstreamError("connection", f"could not connect to {host}")
        return UpstreamError("connection", f"request to {host} failed")

    def _count(self, key: str, n: int = 1) -> None:
        with self._lock:
            self.stats[key] += n

    # -- the breaker and the deadline ---------------------------------------------------

    def _init_guards(self) -> None:
        self.breaker = Breaker(self.settings.breaker_failures)
        # hosts an earlier run found down a few minutes ago: down now, said once when asked
        self._remembered = remembered(self.settings.cache_dir, self.settings.down_host_minutes)
        for host, reason in self._remembered.items():
            self.breaker.mark(host, reason)
        # writes the one line per host marked down (tests put a list's append here)
        self.stderr: Callable[[str], None] = _to_stderr
        self._deadline: float | None = None
        self._deadline_budget = 0.0
        self._call = threading.local()  # this thread's tool-call deadline: (at, seconds)

    @contextmanager
    def call_deadline(self, seconds: float | None) -> Iterator[None]:
        """Within the block, no request of this thread starts or waits past ``seconds`` from
        now (one tool call's share: a stalled package cannot hold its batch); None: no cap."""
        earlier = getattr(self._call, "at", None)
        self._call.at = None if seconds is None else (time.monotonic() + seconds, seconds)
        try:
            yield
        finally:
            self._call.at = earlier

    def set_deadline(self, at: float | None) -> None:
        """No request starts after ``at`` (a ``time.monotonic()`` time; None: no deadline),
        and none waits past it."""
        self._deadline = at
        self._deadline_budget = 0.0 if at is None else max(0.0, at - time.monotonic())

    @property
    def deadline(self) -> float | None:
        return self._deadline

    def unreachable(self) -> dict[str, str]:
        """Each endpoint marked down in this run (its label, e.g. "GitHub API") → why."""
        down = self.breaker.all_down()
        return {endpoint_of(self.settings, f"http://{h}").label: r for h, r in down.items()}

    def _time_left(self) -> float | None:
        now = time.monotonic()
        run = None if self._deadline is None else self._deadline - now
        call = getattr(self._call, "at", None)
        if call is None:
            return run
        return call[0] - now if run is None else min(run, call[0] - now)

    def _deadline_error(self) -> UpstreamError:
        call = getattr(self._call, "at", None)
        if call is not None and (self._deadline is None or call[0] < self._deadline):
            took = f"{round(call[1], 1):g}"
            return UpstreamError("deadline", f"this tool call's time limit ({took} s) passed")
        budget = f"{round(self._deadline_budget, 1):g}"
        return UpstreamError("deadline", f"the run's deadline ({budget} s) passed")

    def _unreachable_error(self, url: str, reason: str) -> UpstreamError:
        label = endpoint_of(self.settings, url).label
        n = self.breaker.threshold
        return UpstreamError(
            "unreachable", f"{label} unreachable: {reason} (marked down after {n} failures)"
        )

    def _admit(self, url: str) -> None:
        """Refuse, with no I/O, a request after the deadline or to a host marked down."""
        left = self._time_left()
        if left is not None and left <= 0:
            raise self._deadline_error()
        host = urlsplit(url).netloc.lower()
        reason = self.breaker.down(host)
        if reason is not None:
            if self._remembered.pop(host, None) is not None:  # the first refusal says why
                self._announce(announcement(endpoint_of(self.settings, url), reason))
            raise self._unreachable_error(url, reason)

    def _timeouts(self, read: float) -> tuple[float, float]:
        """(connect, read) seconds for one request, neither past the deadline."""
        connect = min(self.settings.connect_timeout, read)
        left = self._time_left()
        if left is not None:
            left = max(left, 0.001)
            connect, read = min(connect, left), min(read, left)
        return connect, read

    def _failed(self, url: str, exc: UpstreamError) -> UpstreamError:
        """Count a connection failure; the error to raise (``unreachable`` once the host
        is down, ``deadline`` when the request was cut short by it)."""
        left = self._time_left()
        if left is not None and left <= 0:
            return self._deadline_error()  # the deadline cut it short, not the host
        host = urlsplit(url).netloc.lower()
        reason = failure_reason(exc.kind)
        if exc.kind == "tls":  # the one line a user reads: what to set
            reason = f"{reason} ({TLS_ADVICE})"
        elif exc.kind == "proxy":
            reason = str(exc)  # names the proxy and the variable it came from
        if self.breaker.failed(host, reason):
            self._announce(announcement(endpoint_of(self.settings, url), reason))
            remember(self.settings.cache_dir, host, reason)  # the next run need not wait
        down = self.breaker.down(host)
        return exc if down is None else self._unreachable_error(url, down)

    def _announce(self, line: str) -> None:
        try:
            self.stderr(line)
        except Exception:  # noqa: BLE001 - saying so must not change the request's fate
            pass

    def _pause(self, url: str, seconds: float) -> None:
        """Wait before a retry: never past the deadline, and (with the real clock) no
        longer once the host is marked down."""
        left = self._time_left()
        if left is not None:
            seconds = max(0.0, min(seconds, left))
        if self._sleep is time.sleep:
            self.breaker.wait(urlsplit(url).netloc.lower(), seconds)
        else:
            self._sleep(seconds)

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
        cache: CachePolicy | None = None,
        max_bytes: int | None = None,
    ) -> Response:
        """Send one request with retries; return the final response whatever its status.

        Raises ``UpstreamError`` when no response could be had (refused, timeout,
        connection failure after retries, body too large, the host marked down by the
        breaker, the run's deadline passed). ``idempotent=False`` (a POST that creates
        something) is never repeated once it may have reached the server: only an
        explicit rate-limit answer (429, or 403 with no quota left) is retried.
        ``cache``: how a GET may be answered from the on-disk cache (``core/cache.py``;
        default revalidate); with ``CACHED_ONLY`` nothing is sent and a miss is a 504.
        ``max_bytes``: this answer's size cap instead of ``max_response_bytes`` (artifacts).
        """
        s = self.settings
        attempts = 1 if cache is not None and cache.cached_only else max(1, s.http_retries + 1)
        for attempt in range(attempts):
            try:
                resp = self._send_following_redirects(
                    method,
                    url,
                    headers or {},
                    data,
                    timeout or s.http_timeout,
                    category,
                    cache,
                    max_bytes,
                )
            except UpstreamError as exc:
                if not exc.transient or attempt == attempts - 1 or not idempotent:
                    raise UpstreamError(exc.kind, f"{what}: {exc}") from None
                wait = self._backoff(attempt, None)
                self._retrying(what, method, url, exc.kind, attempt, wait)
                self._pause(url, wait)
                continue
            wait = self._retry_wait(resp, attempt)
            if wait is None or attempt == attempts - 1:
                return resp
            if wait > s.max_retry_wait:
                return resp  # the server asks for longer than we wait; let the caller say so
            if not idempotent and not rate_limited(resp):
                return resp  # a 5xx may come after the server acted: do not act twice
            self._retrying(what, method, url, f"HTTP {resp.status}", attempt, wait)
            self._pause(url, wait)
        raise AssertionError("the last attempt always returns or raises")  # pragma: no cover

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
        limited = rate_limited(resp)
        if status not in RETRY_STATUSES and not limited:
            return None
        retry_after = retry_after_seconds(resp.header("retry-after"))
        if retry_after is None and limited:
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
        cache: CachePolicy | None = None,
        max_bytes: int | None = None,
    ) -> Response:
        for _ in range(_MAX_REDIRECTS + 1):
            self.check_url(url)
            resp = self._send_guarded(
                method, url, headers, data, timeout, category, cache, max_bytes
            )
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

    def _send_guarded(
        self,
        method: str,
        url: str,
        headers: dict[str, str],
        data: Any,
        timeout: float,
        category: str,
        cache: CachePolicy | None = None,
        max_bytes: int | None = None,
    ) -> Response:
        """``_send_once`` behind the breaker and the deadline, its outcome counted for the host."""
        self._admit(url)
        try:
            resp = self._send_once(
                method, url, headers, data, self._timeouts(timeout), category, cache, max_bytes
            )
        except UpstreamError as exc:
            if exc.kind in CONNECTION_FAILURES:
                raise self._failed(url, exc) from None
            self.breaker.succeeded(urlsplit(url).netloc.lower())  # it answered (too much)
            raise
        if resp.sent:  # a cached answer says nothing about the host
            self.breaker.succeeded(urlsplit(url).netloc.lower())
        return resp

    def _send_once(
        self,
        method: str,
        url: str,
        headers: dict[str, str],
        data: Any,
        timeout: float | tuple[float, float],  # (connect, read) from _send_guarded
        category: str,
        cache: CachePolicy | None = None,
        max_bytes: int | None = None,
    ) -> Response:
        host = urlsplit(url).hostname or "the server"
        cap = max_bytes or self.settings.max_response_bytes
        policy = cache or REVALIDATE
        if policy.cached_only and getattr(self.session, "cache", None) is None:
            return self._not_cached(url)  # no cache at all
        try:
            raw = self._request(method, url, headers, data, timeout, policy)
        except requests.RequestException as exc:
            raise self._no_answer(url, exc) from None
        if policy.cached_only and raw.status_code == 504 and getattr(raw, "from_cache", False):
            return self._not_cached(url)  # only-if-cached and not stored
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
            sent=not from_cache or bool(getattr(raw, "revalidated", False)),
        )

    def _not_cached(self, url: str) -> Response:
        """The answer to a cache-only GET the cache cannot give: 504, and nothing sent."""
        self._count("cache_misses")
        return Response(url=url, status=504, headers={}, content=b"", from_cache=True, sent=False)

    def _request(
        self,
        method: str,
        url: str,
        headers: dict[str, str],
        data: Any,
        timeout: float | tuple[float, float],
        policy: CachePolicy,
    ) -> requests.Response:
        """``session.request`` under the cache policy; counts ``requests`` only when one left
        (an answer the cache gives as is, or a cache-only miss, sent nothing)."""
        options: dict[str, Any] = {}
        if method.upper() == "GET" and getattr(self.session, "cache", None) is not None:
            options, extra = policy.request_options()
            headers = {**headers, **extra}
        try:
            raw = self.session.request(
                method,
                url,
                headers=headers,
                data=data,
                timeout=timeout,
                allow_redirects=False,
                stream=True,
                **options,
            )
        except BaseException:
            self._count("requests")
            raise
        if not getattr(raw, "from_cache", False) or getattr(raw, "revalidated", False):
            self._count("requests")
        return raw

    # -- conveniences for JSON and text ---------------------------------------------------

    def get(self, url: str, *, what: str, category: str = "other", **kw: Any) -> Response:
        """GET that raises ``UpstreamError`` for any non-200 answer."""
        resp = self.send("GET", url, what=what, category=category, **kw)
        if resp.status != 200:
            raise status_error(resp, what)
        return resp

    def get_json(self, url: str, *, what: str, category: str = "other", **kw: Any) -> Any:
        resp = self.get(url, what=what, category=category, **kw)
        try:
            return parse_json(resp, what)
        except UpstreamError:
            self.forget(resp.url)  # an error page with a 200 must not stay fresh for a TTL
            raise

    def forget(self, url: str) -> None:
        """Drop the cached answer to a GET of ``url`` (it proved unreadable): the next try
        asks the host again instead of taking it from the cache."""
        cache = getattr(self.session, "cache", None)
        if cache is None:
            return
        try:
            cache.delete(urls=[url])
        except Exception:  # noqa: BLE001 - forgetting is best effort; the answer was bad anyway
            pass


__all__ = ["Http", "Response", "parse_json", "status_error"]
