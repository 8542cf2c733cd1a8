"""The models depbot can talk to, by name (like mini-swe-agent's ``models/__init__.py``).

``MODELS`` maps the built-in names to their classes; any other name is a chat model behind
an OpenAI-compatible endpoint: ``OPENAI_BASE_URL``, or GitHub Models for a ``publisher/model``
name such as ``openai/gpt-4.1-mini`` (``github_models.endpoint_for``). ``make_model`` is the
one place that picks.
"""

from __future__ import annotations

from depbot.core.settings import Settings
from depbot.models.base import Model
from depbot.models.openai_chat import OpenAIChatModel
from depbot.models.rules import RulesModel

MODELS: dict[str, type[RulesModel]] = {"rules": RulesModel}


def make_model(name: str | None, settings: Settings) -> Model:
    """``rules`` (the default) or a chat model behind an OpenAI-compatible endpoint."""
    name = (name or settings.model or "rules").strip()
    if name in MODELS:
        return MODELS[name]()
    return OpenAIChatModel(name, settings)


__all__ = ["MODELS", "Model", "OpenAIChatModel", "RulesModel", "make_model"]
