"""Keep every prompt under the model's input limit (``max_input_tokens``). Pure.

Free tiers (GitHub Models: 8000 input tokens a request) refuse a larger request outright,
so with a limit the loop fits the conversation before each call, in this order:

1. tool results the model has already answered go back in their compact form (oldest
   first), as ``compact_results`` does after each round;
2. the newest results too, oldest first, when that is still not enough;
3. the longest tool results are cut, with a note saying so (the facts stay in the ledger:
   a conclusion is checked against what the tools returned, never against the prompt).

The estimate is ``core.tokens.estimate_tokens`` of the messages and the tool specs, as
the request carries them. ``batch_size_for`` keeps batches small enough to start with.
"""

from __future__ import annotations

from typing import Any

from depbot.core.tokens import estimate_tokens

CUT_NOTE = " … [cut to fit the model's input limit: ask for less, e.g. one section or file]"
MIN_KEEP = 200  # characters of a cut result that stay
# what one update costs a conversation after compaction (its notes, searches and conclusion),
# and what every prompt carries besides (system prompt, the first user message)
PER_UPDATE_TOKENS = 1200
PROMPT_TOKENS = 900


def prompt_tokens(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> int:
    """The estimate of a request's input: its messages and its tool specs."""
    return estimate_tokens(messages) + estimate_tokens(tools)


def batch_size_for(batch_size: int, limit: int | None, tools: list[dict[str, Any]]) -> int:
    """Updates per conversation: ``batch_size``, fewer when a limit leaves room for fewer."""
    if not limit:
        return max(1, batch_size)
    room = limit - estimate_tokens(tools) - PROMPT_TOKENS
    return max(1, min(batch_size, room // PER_UPDATE_TOKENS))


def fit_prompt(
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    limit: int,
    compact_forms: dict[str, str],
) -> int:
    """Shrink ``messages`` in place until the prompt fits ``limit``; its estimate afterwards
    (still over ``limit`` when even cut results do not fit). ``compact_forms`` maps a tool
    call id to its result's compact form; a form used is taken out."""
    size = prompt_tokens(messages, tools)
    if size <= limit:
        return size
    for m in messages:  # answered and newest alike, oldest first
        cid = m.get("tool_call_id")
        if m.get("role") == "tool" and cid in compact_forms:
            m["content"] = compact_forms.pop(cid)
            size = prompt_tokens(messages, tools)
            if size <= limit:
                return size
    while size > limit:
        results = [
            m
            for m in messages
            if m.get("role") == "tool"
            and isinstance(m.get("content"), str)
            and len(m["content"]) > MIN_KEEP + len(CUT_NOTE)
        ]
        if not results:
            return size
        longest = max(results, key=lambda m: len(m["content"]))
        text = longest["content"].removesuffix(CUT_NOTE)  # a cut result may be cut again
        # about four characters a token; JSON escaping of the note and the text costs a little
        keep = max(MIN_KEEP, len(text) - (size - limit) * 4 - len(CUT_NOTE) - 16)
        longest["content"] = text[:keep] + CUT_NOTE
        size = prompt_tokens(messages, tools)
    return size
