"""Scripted models for loop tests: replies step by step, failing on extra calls or unused steps.

``Script`` answers behind the fake model server (the real ``openai`` client path);
``ScriptedModel`` is an in-process ``Model`` for the loop alone.
"""

from __future__ import annotations

import json
from typing import Any

from depbot.fakes.loopback import Reply
from depbot.models.base import ModelReply, Usage


class Script:
    """The model's replies, step by step; a step may be a function of the request body."""

    def __init__(self, *steps: Any) -> None:
        self.steps = list(steps)
        self.used = 0
        self.extra = 0
        self.failure: AssertionError | None = None

    def __call__(self, body: dict[str, Any]) -> Any:
        if self.used >= len(self.steps):
            self.extra += 1
            return Reply(500, {"error": {"message": "unexpected extra model call"}})
        step = self.steps[self.used]
        self.used += 1
        try:
            return step(body) if callable(step) else step
        except AssertionError as exc:  # a check inside a step: fail the test, not just the call
            self.failure = self.failure or exc
            return Reply(500, {"error": {"message": "a scripted check failed"}})

    def assert_done(self) -> None:
        if self.failure is not None:
            raise self.failure
        assert self.extra == 0, f"{self.extra} unexpected extra model call(s)"
        assert self.used == len(self.steps), f"{len(self.steps) - self.used} step(s) unused"


def section_ref(body: dict[str, Any], version: str) -> str:
    for m in body["messages"]:
        if m.get("role") == "tool":
            for s in json.loads(m["content"]).get("sections", []):
                if s.get("version") == version:
                    return s["ref"]
    raise AssertionError(f"no section {version} in the conversation")


class ScriptedModel:
    """An in-process ``Model`` for loop tests: each step is an assistant message, a
    ``ModelReply``, an exception to raise, or a function of the messages returning one."""

    name = "scripted"

    def __init__(self, *steps: Any, usage: Usage | None = None) -> None:
        self.steps = list(steps)
        self.usage = usage or Usage(100, 10)
        self.requests: list[list[dict[str, Any]]] = []  # a copy of the messages of each call

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> ModelReply:
        self.requests.append(json.loads(json.dumps(messages)))
        if len(self.requests) > len(self.steps):
            raise AssertionError("unexpected extra model call")
        step = self.steps[len(self.requests) - 1]
        if callable(step) and not isinstance(step, type):
            step = step(messages)
        if isinstance(step, BaseException):
            raise step
        return step if isinstance(step, ModelReply) else ModelReply(step, self.usage)

    def assert_done(self) -> None:
        assert len(self.requests) == len(self.steps), (
            f"{len(self.steps)} step(s), {len(self.requests)} model call(s)"
        )


def call(name: str, args: dict[str, Any], i: int) -> dict[str, Any]:
    """An assistant message calling one tool (for ``ScriptedModel`` steps)."""
    fn = {"name": name, "arguments": json.dumps(args)}
    return {"role": "assistant", "content": "",
            "tool_calls": [{"id": f"k{i}", "type": "function", "function": fn}]}  # fmt: skip


def last_tool(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The body of the last tool result in ``messages``."""
    return json.loads([m for m in messages if m.get("role") == "tool"][-1]["content"])
