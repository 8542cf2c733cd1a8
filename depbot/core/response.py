"""What the HTTP seam hands back, and the sentences for what a response means (pure)."""

from __future__ import annotations

import email.utils
import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from depbot.core.errors import UpstreamError


@dataclass
class Response:
    """What callers get back: status, headers and the (size-capped) body."""

    url: str
    status: int
    headers: dict[str, str]
    content: bytes
    from_cache: bool = False
    sent: bool = True  # False: the cache answered and nothing went to the host

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")

    def header(self, name: str) -> str | None:
        lname = name.lower()
        for k, v in self.headers.items():
            if k.lower() == lname:
                return v
        return None


def retry_after_seconds(value: str | None) -> float | None:
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


def rate_limited(resp: Response) -> bool:
    """The server said "too many requests" (and so did not act on this one)."""
    return resp.status == 429 or (
        resp.status == 403 and resp.header("x-ratelimit-remaining") == "0"
    )


def looks_like_html(body: bytes) -> bool:
    head = body[:512].lstrip().lower()
    return head.startswith((b"<!doctype", b"<html", b"<?xml", b"<head", b"<body"))


def parse_json(resp: Response, what: str) -> Any:
    if looks_like_html(resp.content):
        raise UpstreamError("bad_response", f"{what}: got an HTML page instead of JSON")
    try:
        return json.loads(resp.content.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise UpstreamError("bad_response", f"{what}: the answer was not valid JSON") from None


def status_error(resp: Response, what: str) -> UpstreamError:
    """The ``UpstreamError`` for a non-success status, in words a model can act on."""
    status = resp.status
    host = urlsplit(resp.url).hostname or "the server"
    retry_after = retry_after_seconds(resp.header("retry-after"))
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
