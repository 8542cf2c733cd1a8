"""A chat model behind an OpenAI-compatible endpoint (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp).

``OPENAI_BASE_URL`` picks the server, ``OPENAI_API_KEY`` the key, the model name comes from
``--model`` or ``DEPBOT_MODEL``. The client's own retries are off: the loop retries transient failures itself, a bounded
number of times (settings.model_retries), and records each in the trace. Failures become
``ModelError`` with a short message (never the key).
"""

from __future__ import annotations

from typing import Any

import openai

from .errors import ConfigError, ModelError
from .fence import redact
from .model import ModelReply, Usage
from .settings import Settings


def _plain(obj: Any) -> Any:
    if hasattr(obj, "model_dump"):
        return obj.model_dump(exclude_none=True)
    return obj


class OpenAIChatModel:
    def __init__(self, name: str, settings: Settings, *, client: Any = None) -> None:
        self.name = name
        self._secrets = settings.secrets()
        if client is None:
            key = settings.openai_api_key
            if not key:
                if settings.openai_base_url is None:
                    raise ConfigError(
                        f"model {name!r} needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local "
                        "server such as Ollama or vLLM); use --model rules to run offline"
                    )
                key = "not-needed"  # local servers accept any key
            client = openai.OpenAI(
                api_key=key,
                base_url=settings.openai_base_url,
                max_retries=0,  # the loop retries transient failures itself (bounded, traced)
                timeout=settings.model_timeout,
            )
        self.client = client

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> ModelReply:
        try:
            resp = self.client.chat.completions.create(
                model=self.name, messages=messages, tools=tools, tool_choice="auto"
            )
        except openai.AuthenticationError:
            raise ModelError("the model endpoint refused the API key (HTTP 401)") from None
        except openai.PermissionDeniedError:
            raise ModelError("the model endpoint denied access (HTTP 403)") from None
        except openai.NotFoundError:
            raise ModelError(
                f"the model endpoint does not know model {self.name!r} (HTTP 404)"
            ) from None
        except openai.RateLimitError:
            raise ModelError(
                "the model endpoint is rate limiting (HTTP 429)", transient=True
            ) from None
        except openai.APITimeoutError:
            raise ModelError("the model endpoint did not answer in time", transient=True) from None
        except openai.APIConnectionError:
            raise ModelError("could not connect to the model endpoint", transient=True) from None
        except openai.APIStatusError as exc:
            raise ModelError(
                f"the model endpoint failed (HTTP {exc.status_code})",
                transient=exc.status_code >= 500,
            ) from None
        except openai.OpenAIError as exc:
            raise ModelError(
                redact(f"the model client failed: {type(exc).__name__}", self._secrets)
            ) from None
        if not getattr(resp, "choices", None):
            raise ModelError("the model endpoint answered without a choice")
        msg = resp.choices[0].message
        message: dict[str, Any] = {"role": "assistant", "content": msg.content or ""}
        calls = [_plain(c) for c in (msg.tool_calls or [])]
        if calls:
            message["tool_calls"] = [
                {
                    "id": str(c.get("id") or f"call_{i}"),
                    "type": "function",
                    "function": {
                        "name": str((c.get("function") or {}).get("name") or ""),
                        "arguments": str((c.get("function") or {}).get("arguments") or ""),
                    },
                }
                for i, c in enumerate(calls)
            ]
        usage = getattr(resp, "usage", None)
        return ModelReply(
            message=message,
            usage=Usage(
                prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
                completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            ),
        )
