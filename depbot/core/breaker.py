"""A per-host circuit breaker for the HTTP seam, and the words that say a host is down.

After ``threshold`` consecutive connection failures to a host (DNS, refused, TLS, proxy,
connect or read timeouts; never an HTTP status), the host is down for the rest of the
run. The count is shared by every thread, so N failures in total trip it, not N per
thread; any answer from the host resets it. ``Breaker`` keeps only that state (no I/O);
``Http`` (``core/net.py``) records the outcomes, refuses calls to a down host and writes
the one line per host that ``announcement`` words. What counts as a connection failure
is ``errors.CONNECTION_FAILURES``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from urllib.parse import urlsplit

from depbot.core.settings import Settings

_REASONS = {
    "dns": "DNS lookup failed",
    "tls": "TLS handshake failed",
    "proxy": "the proxy failed",
    "timeout": "no answer in time",
    "connection": "could not connect",
}

# (label, the Settings field with its URL, the ecosystem it serves; None for GitHub)
_ENDPOINTS = (
    ("PyPI", "pypi_url", "pip"),
    ("npm registry", "npm_url", "npm"),
    ("GitHub API", "github_api_url", None),
    ("GitHub raw files", "raw_url", None),
)
WITHOUT_GITHUB = (
    "continuing with registry metadata"  # + "and released artifacts" once #14 reads them
)


def failure_reason(kind: str) -> str:
    """A few words for a connection failure of ``kind``, e.g. 'DNS lookup failed'."""
    return _REASONS.get(kind, kind)


@dataclass(frozen=True)
class Endpoint:
    """What a host is to this run: its label, where it is and what the run does without it."""

    label: str  # "GitHub API", "PyPI", "PyPI and GitHub API", or the host name
    where: str  # the configured URL, or scheme://host when several endpoints share it
    without: str  # the tail of the line: what the run continues with


def endpoint_of(settings: Settings, url: str) -> Endpoint:
    """Which configured endpoint(s) the host of ``url`` is."""
    parts = urlsplit(url)
    netloc = parts.netloc.lower()
    endpoints = [(label, getattr(settings, name, None), eco) for label, name, eco in _ENDPOINTS]
    # an ecosystem's registry set by name (DEPBOT_REGISTRY_URLS) before any of the fields
    extra = getattr(settings, "registry_urls", {})
    endpoints[:0] = [(f"{eco} registry", url, eco) for eco, url in extra.items()]
    found = [
        (label, base, eco)
        for label, base, eco in endpoints
        if base and urlsplit(base).netloc.lower() == netloc
    ]
    if not found:
        files = netloc in {h.lower() for h in getattr(settings, "artifact_hosts", ())}
        without = "continuing without the released artifacts it holds" if files else ""
        return Endpoint(
            parts.hostname or netloc,
            f"{parts.scheme}://{netloc}",
            without or "continuing without it",
        )
    labels = [label for label, _, _ in found]
    label = labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]
    where = found[0][1] if len(found) == 1 else f"{parts.scheme}://{netloc}"
    return Endpoint(label, where, _without([eco for _, _, eco in found], len(found)))


def _without(ecosystems: list[str | None], endpoints: int) -> str:
    """What the run continues with once these endpoints (of one host) are gone."""
    registries = [e for e in ecosystems if e]
    if not registries:
        return WITHOUT_GITHUB
    them = "it" if endpoints == 1 else "them"
    return (
        f"continuing without {them}: {' and '.join(registries)} updates that may break stay unknown"
    )


def announcement(endpoint: Endpoint, reason: str) -> str:
    """The one stderr line for a host marked down."""
    return f"depbot: {endpoint.label} ({endpoint.where}) unreachable: {reason}; {endpoint.without}"


class Breaker:
    """Consecutive connection failures per host; thread-safe."""

    def __init__(self, threshold: int) -> None:
        self.threshold = max(1, threshold)
        self._cond = threading.Condition()
        self._failures: dict[str, int] = {}
        self._down: dict[str, str] = {}  # host → reason

    def down(self, host: str) -> str | None:
        """The reason ``host`` is down, or None while it is up."""
        with self._cond:
            return self._down.get(host)

    def failed(self, host: str, reason: str) -> bool:
        """Count one failure; True for the one call that marks ``host`` down."""
        with self._cond:
            if host in self._down:
                return False
            self._failures[host] = self._failures.get(host, 0) + 1
            if self._failures[host] < self.threshold:
                return False
            self._down[host] = reason
            self._cond.notify_all()
            return True

    def mark(self, host: str, reason: str) -> None:
        """Take ``host`` as down from the start (found down by a run a few minutes ago)."""
        with self._cond:
            self._down.setdefault(host, reason)
            self._cond.notify_all()

    def succeeded(self, host: str) -> None:
        """The host answered: its count starts again (a down host stays down)."""
        with self._cond:
            self._failures.pop(host, None)

    def wait(self, host: str, seconds: float) -> None:
        """Sleep ``seconds``, waking at once if ``host`` goes down meanwhile."""
        with self._cond:
            self._cond.wait_for(lambda: host in self._down, timeout=max(0.0, seconds))

    def all_down(self) -> dict[str, str]:
        """Every host marked down → its reason."""
        with self._cond:
            return dict(self._down)
