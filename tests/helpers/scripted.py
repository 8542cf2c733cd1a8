"""A scripted model for loop tests: replies step by step, failing on extra calls or unused steps."""

from __future__ import annotations

import json
from typing import Any

from depbot.fakes.loopback import Reply


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
