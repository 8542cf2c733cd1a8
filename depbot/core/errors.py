"""Every exception depbot raises on purpose, in one place.

    DepbotError                 base; ``str()`` is a one-line message fit for a user
    ├── InputError              bad input from the user (file, path, flag): exit code 2
    │   └── ConfigError         a missing or malformed setting (token, URL): exit code 2
    ├── UpstreamError           a remote service failed; ``kind`` says how
    ├── ToolError               a tool call could not be done; the message is for the model
    ├── ModelError              the model endpoint failed or answered nonsense
    └── PublishError            publishing to GitHub failed

Messages never carry a stack trace, a token or a raw response body.
"""

from __future__ import annotations


class DepbotError(Exception):
    """Base of all depbot errors."""

    exit_code = 1


class InputError(DepbotError):
    """The user gave depbot something it cannot use."""

    exit_code = 2


class ConfigError(InputError):
    """A setting is missing or malformed."""


# the ways a connection fails (core/net.py): no answer at all from the host
CONNECTION_FAILURES = frozenset({"connection", "timeout", "dns", "tls", "proxy"})
# kinds of upstream failure; the first four are worth retrying
TRANSIENT = frozenset({"rate_limited", "server_error", "timeout", "connection"})
UPSTREAM_KINDS = TRANSIENT | frozenset(
    {"not_found", "unauthorized", "bad_response", "refused", "too_large"}
    # a host the breaker marked down, and the run's deadline (core/breaker.py, never retried)
    | {"unreachable", "deadline"}
    # and "dns", "tls", "proxy", never retried: the name does not resolve, the certificate is
    # not trusted (a CA setting is missing), the proxy refused; a retry cannot fix them
    | CONNECTION_FAILURES
)


class UpstreamError(DepbotError):
    """A registry, GitHub or another remote answered badly or not at all."""

    def __init__(
        self,
        kind: str,
        message: str,
        *,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        if kind not in UPSTREAM_KINDS:
            raise ValueError(f"unknown upstream error kind {kind!r}")
        super().__init__(message)
        self.kind = kind
        self.status = status
        self.retry_after = retry_after

    @property
    def transient(self) -> bool:
        return self.kind in TRANSIENT


class ToolError(DepbotError):
    """A tool call failed; the message is short and tells the model what to do next."""


class ModelError(DepbotError):
    """The model could not be reached or gave an unusable answer."""

    def __init__(self, message: str, *, transient: bool = False) -> None:
        super().__init__(message)
        self.transient = transient


class PublishError(DepbotError):
    """Publishing drafts to GitHub failed."""
