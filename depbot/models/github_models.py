"""Which endpoint a chat model name runs on, and what a rate-limit answer says. Pure.

A name in GitHub Models form (``openai/gpt-4.1-mini``: ``<publisher>/<model>``) with no
``OPENAI_BASE_URL`` runs on GitHub Models (``settings.github_models_url``), with
``OPENAI_API_KEY`` or else ``GITHUB_TOKEN`` as the key: in GitHub Actions the job's own
token works when the job has ``permissions: models: read``. Any other name keeps using
``OPENAI_BASE_URL`` / ``OPENAI_API_KEY``.

``rate_limit`` reads a 429's headers: ``retry-after`` (seconds or an HTTP date),
``retry-after-ms``, OpenAI's ``x-ratelimit-reset-requests`` / ``x-ratelimit-reset-tokens``
(``1s``, ``6m0s``, ``20ms``), GitHub's ``x-ratelimit-reset`` (epoch seconds) and
``x-ratelimit-type`` (``UserByDay``, ``UserByModelByMinute``, ...), and says when it resets.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any

from depbot.core.errors import ConfigError
from depbot.core.settings import Settings

# GitHub Models' free tier takes 8000 input tokens a request; depbot's estimate (about four
# characters a token) undercounts JSON and code, so its default leaves a quarter for that
GITHUB_MODELS_INPUT_TOKENS = 6000
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.:-]*$")
_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)")
NEEDS_TOKEN = (
    "model {name!r} runs on GitHub Models ({url}) and needs a token: in a workflow give the "
    "job `permissions: models: read` and pass GITHUB_TOKEN (the action's github-token input "
    "does); elsewhere set GITHUB_TOKEN (a token with the models scope) or OPENAI_API_KEY; "
    "use --model rules to run offline"
)


def is_github_models_name(name: str) -> bool:
    """``publisher/model``, as the GitHub Models catalog names its models."""
    return bool(_NAME.match(name or ""))


@dataclass(frozen=True)
class Endpoint:
    """Where a chat model runs: the base URL (None: the openai library's default), the key,
    which setting the key came from (for error messages), and its input-token limit."""

    url: str | None
    key: str | None
    key_name: str
    github_models: bool
    max_input_tokens: int | None

    @property
    def service(self) -> str:
        return "GitHub Models" if self.github_models else "the model endpoint"


def endpoint_for(name: str, settings: Settings) -> Endpoint:
    """The endpoint of model ``name``; ``ConfigError`` (one line) when its key is missing."""
    limit = settings.max_input_tokens
    if settings.openai_base_url is None and is_github_models_name(name):
        key, key_name = settings.openai_api_key, "OPENAI_API_KEY"
        if not key:
            key, key_name = settings.github_token, "GITHUB_TOKEN"
        if not key:
            raise ConfigError(NEEDS_TOKEN.format(name=name, url=settings.github_models_url))
        default = GITHUB_MODELS_INPUT_TOKENS
        return Endpoint(settings.github_models_url, key, key_name, True, _limit(limit, default))
    return Endpoint(
        settings.openai_base_url,
        settings.openai_api_key,
        "OPENAI_API_KEY",
        False,
        _limit(limit, None),
    )


def _limit(value: int | None, default: int | None) -> int | None:
    if value is None:
        return default
    return value if value > 0 else None  # 0: no limit


# --- rate limits -------------------------------------------------------------------------


@dataclass(frozen=True)
class RateLimit:
    """A 429 in depbot's terms: seconds until it resets (None: unknown) and which limit."""

    wait: float | None
    kind: str  # "requests per day", "tokens per minute", "requests", ... ("" unknown)
    reset_at: float | None  # epoch seconds

    def line(self, service: str) -> str:
        """``GitHub Models rate limit reached (requests per day); resets at … UTC``, or for
        another endpoint ``the model endpoint is rate limiting (HTTP 429: requests); …``."""
        if service == "GitHub Models":
            what = f"{service} rate limit reached" + (f" ({self.kind})" if self.kind else "")
        else:
            what = "the model endpoint is rate limiting (HTTP 429" + (
                f": {self.kind})" if self.kind else ")"
            )
        if self.reset_at is None:
            return f"{what}; it did not say when it resets"
        return f"{what}; resets at {reset_text(self.reset_at)}"


def reset_text(epoch: float) -> str:
    """``2026-12-02 00:00 UTC`` (rounded up to the minute: never earlier than the reset)."""
    minute = math.ceil(epoch / 60.0) * 60
    return datetime.fromtimestamp(minute, tz=timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def _seconds(text: str) -> float | None:
    """``1s``, ``6m0s``, ``20ms``, ``1h2m``, or a bare number of seconds."""
    text = text.strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    parts = _DURATION.findall(text)
    if not parts or "".join(n + u for n, u in parts) != text:
        return None
    scale = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
    return sum(float(n) * scale[u] for n, u in parts)


def _retry_after(value: str, now: float) -> float | None:
    wait = _seconds(value)
    if wait is not None:
        return wait
    try:  # an HTTP date
        return max(0.0, parsedate_to_datetime(value).timestamp() - now)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def _kind(headers: Mapping[str, str], body: Any) -> str:
    """Which limit was reached, in words."""
    kind = headers.get("x-ratelimit-type", "")
    if not kind and isinstance(body, Mapping):  # "... exceeded for UserByDay. Please wait ..."
        m = re.search(r"exceeded for (\w+)", str(body.get("message") or ""))
        kind = m.group(1) if m else ""
    if kind:
        what = "tokens" if "token" in kind.lower() else "requests"
        if "concurrent" in kind.lower():
            return "concurrent requests"
        for unit in ("Day", "Hour", "Minute", "Second"):
            if unit.lower() in kind.lower():
                return f"{what} per {unit.lower()}"
        return what
    spent = [w for w in ("requests", "tokens") if headers.get(f"x-ratelimit-remaining-{w}") == "0"]
    return spent[0] if len(spent) == 1 else ""


def rate_limit(
    headers: Mapping[str, str], body: Any = None, *, now: float | None = None
) -> RateLimit:
    """What a 429 says about its reset (header names in any case)."""
    now = time.time() if now is None else now
    h = {str(k).lower(): str(v) for k, v in headers.items()}
    waits: list[float] = []
    if h.get("retry-after-ms"):
        ms = _seconds(h["retry-after-ms"])
        if ms is not None:
            waits.append(ms / 1000.0)
    if not waits and h.get("retry-after"):
        w = _retry_after(h["retry-after"], now)
        if w is not None:
            waits.append(w)
    if not waits:  # the longest reset among the limits that are spent (or all, if none says)
        resets = {w: _seconds(h.get(f"x-ratelimit-reset-{w}", "")) for w in ("requests", "tokens")}
        spent = [w for w in resets if h.get(f"x-ratelimit-remaining-{w}") == "0"] or list(resets)
        waits += [resets[w] for w in spent if resets[w] is not None]  # type: ignore[misc]
    if not waits and h.get("x-ratelimit-reset"):
        try:
            waits.append(max(0.0, float(h["x-ratelimit-reset"]) - now))
        except ValueError:
            pass
    wait = max(waits) if waits else None
    return RateLimit(wait, _kind(h, body), None if wait is None else now + wait)
