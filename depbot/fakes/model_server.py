"""A loopback server that speaks the OpenAI chat-completions wire format.

It answers each ``POST /v1/chat/completions`` with whatever ``responder(request_json)``
returns: an assistant message (dict) or a ``loopback.Reply`` for errors (429, 500, ...).
Tests script it step by step; the benchmark puts the ``rules`` planner behind it
(``models.rules.rules_responder``) with a fixed latency, so the real ``openai`` client
path runs with realistic decisions.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from typing import Any

from depbot.core.tokens import estimate_tokens
from depbot.fakes.loopback import LoopbackServer, Reply, Request

Responder = Callable[[dict[str, Any]], "dict[str, Any] | Reply"]


def completion(message: dict[str, Any], request: dict[str, Any], n: int) -> dict[str, Any]:
    """A chat.completion response body for ``message``, with usage estimated deterministically."""
    msg = {"role": "assistant", "content": message.get("content")}
    if message.get("tool_calls"):
        msg["tool_calls"] = message["tool_calls"]
    prompt = estimate_tokens(request.get("messages", [])) + estimate_tokens(
        request.get("tools", [])
    )
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

    def __init__(self, responder: Responder, *, latency: float = 0.0) -> None:
        self.responder = responder
        self.latency = latency
        self.requests: list[dict[str, Any]] = []
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
        self.requests.append(body)
        if self.latency:
            time.sleep(self.latency)
        answer = self.responder(body)
        if isinstance(answer, Reply):
            return answer
        return Reply(200, completion(answer, body, next(self._n)))

    @property
    def base_url(self) -> str:
        return f"{self.server.url}/v1"

    def __enter__(self) -> ModelServer:
        self.server.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.stop()
