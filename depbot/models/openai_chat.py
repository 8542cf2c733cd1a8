"""A chat model behind an OpenAI-compatible endpoint (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp).

``OPENAI_BASE_URL`` picks the server, ``OPENAI_API_KEY`` the key, the model name comes from
``--model`` or ``DEPBOT_MODEL``. The client's own retries are off: the loop retries transient failures itself, a bounded
number of times (settings.model_retries), and records each in the trace. Failures become
``ModelError`` with a short message (never the key).

A ``publisher/model`` name (``openai/gpt-4.1-mini``) with no ``OPENAI_BASE_URL`` runs on GitHub
Models with ``GITHUB_TOKEN`` as the key (``github_models.endpoint_for``). The client never sleeps:
no retries of its own, and no request waits past the run's deadline (``set_deadline``).

A rate limit (HTTP 429) becomes ``RateLimited`` with the seconds its headers give until the
reset (``retry_after``); the loop waits when that fits the run's deadline and otherwise ends
the conversation with the error's line (``GitHub Models rate limit reached (requests per
day); resets at … UTC``). Until that reset, every call raises it again without asking.

A refused key (HTTP 401 or 403) is for good: the first refusal is said on stderr at once
(``depbot: model endpoint … refused the key …``, once per model object, so once per run;
``said`` keeps the lines), and every later call raises the same error without asking the
endpoint again.
"""

from __future__ import annotations

import json
import ssl
import sys
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from depbot.core.errors import ConfigError, ModelError
from depbot.core.proxies import proxy_refused
from depbot.core.redact import redact
from depbot.core.settings import Settings
from depbot.core.tls import settings_proxy, ssl_context, tls_failure
from depbot.models.base import ModelReply, Usage
from depbot.models.github_models import Endpoint, RateLimit, endpoint_for, rate_limit

OPENAI_URL = "https://api.openai.com/v1"  # the openai library's default endpoint


def http_client(settings: Settings, url: str | None = None) -> Any:
    """The openai library's own httpx client, with the CA bundle, trust store and proxy of
    the settings. ``trust_env`` is off: httpx would read ``SSL_CERT_FILE`` and the proxy
    variables itself but not ``REQUESTS_CA_BUNDLE``, and would send ``.netrc`` credentials."""
    import openai

    context = ssl_context(settings)
    return openai.DefaultHttpxClient(
        verify=context if context is not None else True,
        proxy=settings_proxy(settings, url or settings.openai_base_url or OPENAI_URL),
        trust_env=False,
        timeout=settings.model_timeout,
    )


def _caused_by(exc: BaseException, kinds: tuple[type[BaseException], ...], *names: str) -> bool:
    """Whether ``exc`` or what caused it is one of ``kinds`` (or a class called one of ``names``,
    for the HTTP library's own errors)."""
    seen: set[int] = set()
    err: BaseException | None = exc
    while err is not None and id(err) not in seen:
        if isinstance(err, kinds) or type(err).__name__ in names:
            return True
        seen.add(id(err))
        err = err.__cause__ or err.__context__
    return False


def _to_stderr(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def _plain(obj: Any) -> Any:
    if hasattr(obj, "model_dump"):
        try:  # odd field types (a list for a name) come back as they are, without a warning
            return obj.model_dump(exclude_none=True, warnings=False)
        except TypeError:  # pragma: no cover - pydantic without the warnings flag
            return obj.model_dump(exclude_none=True)
    return obj


class OpenAIChatModel:
    def __init__(self, name: str, settings: Settings, *, client: Any = None) -> None:
        self.name = name
        self._secrets = settings.secrets()
        self.endpoint: Endpoint = endpoint_for(name, settings)
        self.max_input_tokens: int | None = self.endpoint.max_input_tokens
        self._url = self.endpoint.url or OPENAI_URL
        self._proxy = settings_proxy(settings, self._url)
        self._timeout = settings.model_timeout
        self.deadline: float | None = None  # time.monotonic() past which no request waits
        if client is None:
            import openai  # on first use: ``depbot.models`` loads without it for the rules model

            key = self.endpoint.key
            if not key:
                if self.endpoint.url is None:
                    raise ConfigError(
                        f"model {name!r} needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local "
                        "server such as Ollama or vLLM); use --model rules to run offline"
                    )
                key = "not-needed"  # local servers accept any key
            client = openai.OpenAI(
                api_key=key,
                base_url=self.endpoint.url,
                max_retries=0,  # the loop retries transient failures itself (bounded, traced)
                timeout=settings.model_timeout,
                http_client=http_client(settings, self._url),
            )
        self.client = client
        self.stderr: Callable[[str], None] = _to_stderr
        self.said: list[str] = []  # the lines said on stderr (the CLI does not repeat them)
        self._refusal: ModelError | None = None  # a 401/403: no call asks the endpoint again
        self._limited: RateLimit | None = None  # a 429: no call asks again before its reset
        self._lock = threading.Lock()

    def set_deadline(self, deadline: float | None) -> None:
        """The run's deadline (``time.monotonic()``): no request waits past it."""
        self.deadline = deadline

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> ModelReply:
        with self._lock:
            refusal, limited = self._refusal, self._limited
        if refusal is not None:
            raise KeyRefused(str(refusal))
        if limited is not None and limited.reset_at is not None:
            if limited.reset_at > time.time():
                raise self._rate_limited(limited)
            with self._lock:
                self._limited = None
        try:
            return self._complete(messages, tools)
        except ModelError as exc:
            if isinstance(exc, KeyRefused):
                self._refused(exc)
            raise

    def _rate_limited(self, limit: RateLimit) -> RateLimited:
        wait = None if limit.reset_at is None else max(0.0, limit.reset_at - time.time())
        return RateLimited(limit.line(self._service()), retry_after=wait)

    def _service(self) -> str:
        return "GitHub Models" if self.endpoint.github_models else "the model endpoint"

    def _request_timeout(self) -> float:
        """The client's timeout, cut to what is left before the run's deadline."""
        if self.deadline is None:
            return self._timeout
        return max(0.5, min(self._timeout, self.deadline - time.monotonic()))

    def _refused(self, exc: ModelError) -> None:
        """Keep the refusal and say it on stderr, the first time only."""
        with self._lock:
            first = self._refusal is None
            if first:
                self._refusal = exc
                self.said.append(f"depbot: {exc}")
        if first:
            try:
                self.stderr(f"depbot: {exc}")
            except Exception:  # noqa: BLE001 - saying so must not change the call's fate
                pass

    def _complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> ModelReply:
        import openai

        try:
            resp = self.client.chat.completions.create(
                model=self.name,
                messages=messages,
                tools=tools,
                tool_choice="auto",
                timeout=self._request_timeout(),
            )
        except openai.AuthenticationError:
            raise KeyRefused(
                f"model endpoint {self._where()} refused the key (HTTP 401): {self._check_key()}"
            ) from None
        except openai.PermissionDeniedError:
            raise KeyRefused(
                f"model endpoint {self._where()} denied access (HTTP 403): "
                + (
                    f"{self._check_key()}, and that the model is enabled for the account"
                    if self.endpoint.github_models
                    else f"check what {self.endpoint.key_name} may use"
                )
            ) from None
        except openai.NotFoundError:
            raise ModelError(
                f"model endpoint {self._where()} does not know model {self.name!r} (HTTP 404): "
                "check --model (DEPBOT_MODEL) and OPENAI_BASE_URL"
            ) from None
        except openai.RateLimitError as exc:
            limit = rate_limit(exc.response.headers, getattr(exc, "body", None))
            if limit.wait is None:
                raise ModelError(
                    "the model endpoint is rate limiting (HTTP 429)", transient=True
                ) from None
            with self._lock:
                self._limited = limit
            raise self._rate_limited(limit) from None
        except openai.APITimeoutError:
            raise ModelError(
                f"the model endpoint {self._where()} did not answer in time", transient=True
            ) from None
        except openai.APIConnectionError as exc:
            raise self._connection_error(exc) from None
        except openai.APIStatusError as exc:
            if exc.status_code == 413 or getattr(exc, "code", None) == "tokens_limit_reached":
                raise self._too_large(exc) from None
            raise ModelError(
                f"the model endpoint {self._where()} failed (HTTP {exc.status_code})",
                transient=exc.status_code >= 500,
            ) from None
        except openai.OpenAIError as exc:
            raise ModelError(
                redact(f"the model client failed: {type(exc).__name__}", self._secrets)
            ) from None
        except Exception:  # noqa: BLE001 - e.g. a 200 whose body is not JSON (a proxy's page)
            raise ModelError(
                "the model endpoint sent an answer depbot cannot read", transient=True
            ) from None
        if isinstance(resp, (str, bytes)):  # a 200 with a page that is not JSON
            raise ModelError(
                "the model endpoint sent a page instead of a chat completion", transient=True
            )
        if not getattr(resp, "choices", None):
            raise ModelError("the model endpoint answered without a choice")
        try:
            return _reply(resp)
        except (AttributeError, TypeError, ValueError, IndexError, KeyError):
            raise ModelError(
                "the model endpoint sent a reply depbot cannot read", transient=True
            ) from None

    def _check_key(self) -> str:
        if self.endpoint.github_models and self.endpoint.key_name == "GITHUB_TOKEN":
            return "check GITHUB_TOKEN and that the workflow job has `permissions: models: read`"
        return f"check {self.endpoint.key_name}"

    def _too_large(self, exc: Any) -> ModelError:
        """A request over the endpoint's input limit (GitHub Models: 413 tokens_limit_reached)."""
        body = getattr(exc, "body", None)
        said = str(body.get("message") or "") if isinstance(body, dict) else ""
        said = " ".join(said.split())[:160]
        code = getattr(exc, "code", None) or "too large"
        limit = self.max_input_tokens
        now = f" (now {limit})" if limit else ""
        return ModelError(
            redact(
                f"model endpoint {self._where()} refused a request as too large "
                f"(HTTP {exc.status_code} {code}{': ' + said if said else ''}): "
                f"set DEPBOT_MAX_INPUT_TOKENS below its limit{now}",
                self._secrets,
            )
        )

    def _where(self) -> str:
        """The endpoint as an error names it: no credentials, no query."""
        parts = urlsplit(str(getattr(self, "_url", "") or OPENAI_URL))
        host = parts.hostname or ""
        host = f"[{host}]" if ":" in host else host
        netloc = f"{host}:{parts.port}" if parts.port else host
        return redact(f"{parts.scheme}://{netloc}{parts.path}".rstrip("/"), self._secrets)

    def _connection_error(self, exc: BaseException) -> ModelError:
        """No answer from the model endpoint: an untrusted certificate and a proxy that
        refused are said as such (and not retried)."""
        if _caused_by(exc, (ssl.SSLError,)):
            return ModelError(tls_failure(urlsplit(self._url).hostname or "the model endpoint"))
        # through a proxy, a connection that fails is one to the proxy (the tunnel comes after)
        if self._proxy and _caused_by(exc, (), "ProxyError", "ConnectError"):
            return ModelError(proxy_refused(self._proxy, self._url))
        return ModelError(
            f"could not connect to the model endpoint {self._where()}", transient=True
        )


class KeyRefused(ModelError):
    """The endpoint refused the key (HTTP 401 / 403): for good, never retried."""


class RateLimited(ModelError):
    """HTTP 429: ``retry_after`` seconds until the reset its headers give (None: not said)."""

    def __init__(self, message: str, *, retry_after: float | None) -> None:
        super().__init__(message, transient=True)
        self.retry_after = retry_after


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(_plain(value), default=str)


def _count(usage: Any, name: str) -> int:
    try:
        return max(0, int(getattr(usage, name, 0) or 0))
    except (TypeError, ValueError):
        return 0


def _reply(resp: Any) -> ModelReply:
    """The assistant message of a chat completion, in plain OpenAI shape, whatever its oddities.

    Content that is not a string is kept as JSON text; a tool call that is not an object,
    or whose name or arguments are not strings, is kept as a call with text fields, so the
    toolbox answers it with its fixed message instead of the run failing.
    """
    msg = resp.choices[0].message
    if msg is None:
        raise ValueError("no message")
    message: dict[str, Any] = {"role": "assistant", "content": _text(msg.content)}
    raw_calls = msg.tool_calls or []
    if not isinstance(raw_calls, list):
        raw_calls = [raw_calls]
    calls = []
    for i, raw in enumerate(raw_calls):
        c = _plain(raw)
        c = c if isinstance(c, dict) else {}
        fn = _plain(c.get("function"))
        fn = fn if isinstance(fn, dict) else {}
        name, args = fn.get("name"), fn.get("arguments")
        calls.append(
            {
                "id": str(c.get("id") or f"call_{i}"),
                "type": "function",
                "function": {
                    "name": name if isinstance(name, str) else _text(name),
                    "arguments": args if isinstance(args, str) else _text(args),
                },
            }
        )
    if calls:
        message["tool_calls"] = calls
    usage = getattr(resp, "usage", None)
    return ModelReply(
        message=message,
        usage=Usage(
            prompt_tokens=_count(usage, "prompt_tokens"),
            completion_tokens=_count(usage, "completion_tokens"),
        ),
    )
