"""The sentences that turn upstream failures into words a model can act on, without a stack
trace, a token or a response body. Pure: no I/O.
"""

from __future__ import annotations

from depbot import ecosystems
from depbot.core.breaker import failure_reason
from depbot.core.errors import CONNECTION_FAILURES, UpstreamError

__all__ = ["github_problem", "registry_problem"]


# dns, tls, proxy: in the words of the breaker's stderr line (timeouts and connection failures
# here say "after retries", which the breaker's line does not)
_BREAKER_WORDS = CONNECTION_FAILURES - {"timeout", "connection"}


def _kind_words(exc: UpstreamError) -> str:
    status = f" (HTTP {exc.status})" if exc.status else ""
    if exc.kind in _BREAKER_WORDS:
        return failure_reason(exc.kind)
    if exc.kind == "deadline" and "tool call" in str(exc):
        return f"{exc}, not asked"  # this call's share of time, not the whole run's
    return {
        "rate_limited": "rate limit reached",
        "server_error": f"server error{status} after retries",
        "timeout": "no answer in time after retries",
        "connection": "connection failed after retries",
        "not_found": f"not found{status}",
        "unauthorized": f"access refused{status}",
        "bad_response": "unreadable answer (not the JSON expected)",
        "too_large": "answer too large",
        "refused": "address refused (not a configured host)",
        "unreachable": "unreachable (marked down for this run)",
        "deadline": "run deadline passed, not asked",
    }.get(exc.kind, exc.kind)


def github_problem(exc: UpstreamError, what: str, hint: str = "") -> str:
    """One sentence about a GitHub failure, e.g. 'GitHub rate limit reached for releases of o/r'."""
    if exc.kind == "rate_limited":
        text = f"GitHub rate limit reached for {what}"
        if not hint:
            hint = "set GITHUB_TOKEN for a higher limit, or try again later"
    elif exc.kind == "not_found":
        text = f"{what} not found on GitHub"
    elif exc.kind == "unauthorized":
        text = f"GitHub refused access to {what}"
        hint = hint or "check GITHUB_TOKEN"
    else:
        text = f"GitHub: {_kind_words(exc)} for {what}"
    return f"{text}; {hint}" if hint else text


def registry_problem(exc: UpstreamError, eco: str, package: str) -> UpstreamError:
    """The error ``fetch`` raises when the registry metadata itself could not be read."""
    where = f"the {ecosystems.get(eco).registry_label}"
    if exc.kind == "not_found":
        msg = f"{package} was not found on {where}; check the package name"
    elif exc.kind in ("rate_limited", "server_error", "timeout", "connection", "bad_response"):
        msg = (
            f"could not read {package}'s metadata from {where}: {_kind_words(exc)}; "
            "no changelog source can be found without it, try again later"
        )
    else:
        msg = f"could not read {package}'s metadata from {where}: {_kind_words(exc)}"
    return UpstreamError(exc.kind, msg, status=exc.status, retry_after=exc.retry_after)
