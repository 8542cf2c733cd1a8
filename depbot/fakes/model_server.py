"""A loopback server that speaks the OpenAI chat-completions wire format.

It answers each ``POST /v1/chat/completions`` with whatever ``responder(request_json)``
returns: an assistant message (dict) or a ``loopback.Reply`` for errors (429, 500, ...).
Tests script it step by step; the benchmark puts the ``rules`` planner behind it
(``models.rules.rules_responder``) with a fixed latency, so the real ``openai`` client
path runs with realistic decisions.

It can also stand in for GitHub Models' free tier: ``token`` answers any other bearer token
with 401 (GitHub's ``unauthorized`` body), ``max_input_tokens`` answers a larger request with
413 ``tokens_limit_reached``, and ``rate_limited`` / ``openai_rate_limited`` build the 429s
of GitHub Models and OpenAI with their real headers. ``prompt_sizes`` keeps the estimate
(``core.tokens.estimate_tokens`` of messages and tools) of every request received.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable
from typing import Any

from depbot.core.tokens import estimate_tokens
from depbot.fakes.loopback import LoopbackServer, Reply, Request

Responder = Callable[[dict[str, Any]], "dict[str, Any] | Reply"]


def prompt_size(request: dict[str, Any]) -> int:
    """A request's input tokens, estimated as the fake's usage counts them."""
    return estimate_tokens(request.get("messages", [])) + estimate_tokens(request.get("tools", []))


def rate_limited(
    retry_after: float, *, kind: str = "UserByDay", limit: int = 150, window: int = 86400
) -> Reply:
    """GitHub Models' 429: ``retry-after`` seconds, ``x-ratelimit-type`` and its error body."""
    wait = max(0, math.ceil(retry_after))
    message = (
        f"Rate limit of {limit} per {window}s exceeded for {kind}. "
        f"Please wait {wait} seconds before retrying."
    )
    return Reply(
        429,
        {"error": {"code": "RateLimitReached", "message": message, "details": message}},
        headers={"retry-after": str(wait), "x-ratelimit-type": kind},
    )


def openai_rate_limited(reset_requests: str = "1s", reset_tokens: str = "6m0s") -> Reply:
    """OpenAI's 429 for spent requests: ``x-ratelimit-*`` headers, no ``retry-after``."""
    return Reply(
        429,
        {"error": {"message": "Rate limit reached for requests", "type": "requests",
                   "code": "rate_limit_exceeded"}},
        headers={
            "x-ratelimit-limit-requests": "60",
            "x-ratelimit-remaining-requests": "0",
            "x-ratelimit-reset-requests": reset_requests,
            "x-ratelimit-remaining-tokens": "15000",
            "x-ratelimit-reset-tokens": reset_tokens,
        },
    )  # fmt: skip


def too_large(model: str, limit: int) -> Reply:
    """GitHub Models' answer to a request over the model's input limit."""
    message = f"Request body too large for {model} model. Max size: {limit} tokens."
    return Reply(
        413, {"error": {"code": "tokens_limit_reached", "message": message, "details": message}}
    )


UNAUTHORIZED = Reply(
    401,
    {"error": {"code": "unauthorized", "message": "Bad credentials", "details": "Bad credentials"}},
)


def completion(message: dict[str, Any], request: dict[str, Any], n: int) -> dict[str, Any]:
    """A chat.completion response body for ``message``, with usage estimated deterministically."""
    msg = {"role": "assistant", "content": message.get("content")}
    if message.get("tool_calls"):
        msg["tool_calls"] = message["tool_calls"]
    prompt = prompt_size(request)
    done = estimate_tokens(message)
    return {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": 0,
        "model": str(request.get("model", "stub")),
        "choices": [
            {
                "index": 0,
                "message": msg,
                "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": done,
            "total_tokens": prompt + done,
        },
    }


class ModelServer:
    """``with ModelServer(responder) as srv: OpenAI(base_url=srv.base_url, ...)``"""

    def __init__(
        self,
        responder: Responder,
        *,
        latency: float = 0.0,
        token: str | None = None,
        max_input_tokens: int | None = None,
    ) -> None:
        self.responder = responder
        self.latency = latency
        self.token = token  # the only bearer token accepted (None: any)
        self.max_input_tokens = max_input_tokens
        self.requests: list[dict[str, Any]] = []
        self.prompt_sizes: list[int] = []
        self._n = itertools.count(1)
        self.server = LoopbackServer(self._handle)

    def _handle(self, req: Request) -> Reply:
        if req.method != "POST" or not req.path.rstrip("/").endswith("/chat/completions"):
            return Reply(
                404, {"error": {"message": f"no route {req.path}", "type": "invalid_request_error"}}
            )
        try:
            body = req.json()
        except ValueError:
            return Reply(
                400, {"error": {"message": "invalid JSON", "type": "invalid_request_error"}}
            )
        if self.token is not None and req.headers.get("authorization") != f"Bearer {self.token}":
            return UNAUTHORIZED
        self.requests.append(body)
        self.prompt_sizes.append(prompt_size(body))
        if self.max_input_tokens is not None and self.prompt_sizes[-1] > self.max_input_tokens:
            return too_large(str(body.get("model", "")), self.max_input_tokens)
        if self.latency:
            time.sleep(self.latency)
        answer = self.responder(body)
        if isinstance(answer, Reply):
            return answer
        return Reply(200, completion(answer, body, next(self._n)))

    @property
    def base_url(self) -> str:
        return f"{self.server.url}/v1"

    @property
    def github_models_url(self) -> str:
        """Where GitHub Models' endpoint would be (``…/inference``), on this server."""
        return f"{self.server.url}/inference"

    def __enter__(self) -> ModelServer:
        self.server.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.stop()
