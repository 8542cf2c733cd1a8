"""The model interface: anything that answers a conversation with a message (and maybe tool calls).

Two kinds sit behind it: ``OpenAIChatModel`` (any OpenAI-compatible endpoint) and
``RulesModel`` (the built-in deterministic planner). ``make_model`` picks one by name.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Protocol

from depbot.core.settings import Settings


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

    def complete(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
    ) -> ModelReply: ...


def estimate_tokens(obj: Any) -> int:
    """A deterministic token estimate (about four characters a token) for budgets and the rules model."""
    text = (
        obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    )
    return math.ceil(len(text) / 4)


def make_model(name: str | None, settings: Settings) -> Model:
    """``rules`` (the default) or a chat model behind an OpenAI-compatible endpoint."""
    name = (name or settings.model or "rules").strip()
    if name == "rules":
        from depbot.models.rules import RulesModel

        return RulesModel()
    from depbot.models.openai_chat import OpenAIChatModel

    return OpenAIChatModel(name, settings)
