"""The model interface: anything that answers a conversation with a message (and maybe tool calls).

Two kinds sit behind it: ``OpenAIChatModel`` (any OpenAI-compatible endpoint) and
``RulesModel`` (the built-in deterministic planner); ``depbot.models.make_model`` picks one
by name. ``estimate_tokens`` (from ``core.tokens``) is the usage a model reports when its
server tells none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from depbot.core.tokens import estimate_tokens

__all__ = ["Model", "ModelReply", "Usage", "estimate_tokens", "spends_tokens"]


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass
class ModelReply:
    message: dict[str, Any]  # an assistant message: content and/or tool_calls (OpenAI shape)
    usage: Usage


class Model(Protocol):
    name: str
    # a model without ``spends_tokens = False`` is held to the run's token budget

    def complete(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
    ) -> ModelReply: ...


def spends_tokens(model: object) -> bool:
    """Whether ``model``'s calls cost tokens a budget must hold (the offline planner's do not)."""
    return bool(getattr(model, "spends_tokens", True))
