"""The built-in ``rules`` model: the planner (``depbot.planner``) behind the model interface.

The planner decides; this adapter only puts its reply in a ``ModelReply`` with the
deterministic token estimate as usage, or serves it as a chat-completions responder.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from depbot.models.base import ModelReply, Usage, estimate_tokens
from depbot.planner import offered, plan


class RulesModel:
    """The planner behind the model interface; usage is the deterministic token estimate."""

    name = "rules"
    spends_tokens = False  # offline: its usage is an estimate for the stats, never a budget

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> ModelReply:
        message = plan(messages, offered(tools))
        return ModelReply(
            message=message,
            usage=Usage(
                prompt_tokens=estimate_tokens(messages) + estimate_tokens(tools),
                completion_tokens=estimate_tokens(message),
            ),
        )


def rules_responder(*, max_calls: int | None = None) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The planner as a chat-completions responder (a request body in, a message out), so a
    fake server (``fakes.model_server``) can put it behind the real ``openai`` client path.

    ``max_calls=1`` makes it a one-tool-call-per-round model (the classic naive loop):
    the planner re-reads the conversation every time, so the calls it could not make in
    one reply come back in the next.
    """

    def respond(body: dict[str, Any]) -> dict[str, Any]:
        message = plan(body.get("messages", []), offered(body.get("tools")))
        if max_calls is not None and message.get("tool_calls"):
            message = {**message, "tool_calls": message["tool_calls"][:max_calls]}
        return message

    return respond
