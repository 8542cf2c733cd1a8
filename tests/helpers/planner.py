"""The planner's conversation for tests: updates, a ``Convo`` that plans and answers, notes."""

from __future__ import annotations

import json

from depbot.agent.prompts import initial_messages
from depbot.planner import plan
from depbot.records.update import Update

MAJOR = Update("pip", "oldlib", "1.5.0", "2.0.0")


class Convo:
    def __init__(self, *updates: Update) -> None:
        self.messages = initial_messages("repo", list(updates))

    def step(self) -> list[tuple[str, dict]]:
        msg = plan(self.messages)
        self.messages.append(msg)
        return [
            (c["function"]["name"], json.loads(c["function"]["arguments"]))
            for c in msg.get("tool_calls", [])
        ]

    def answer(self, *results: dict) -> None:
        calls = self.messages[-1]["tool_calls"]
        assert len(calls) == len(results)
        for call, res in zip(calls, results, strict=True):
            self.messages.append(
                {"role": "tool", "tool_call_id": call["id"], "content": json.dumps(res)}
            )


def changelog(pkg: str, breaking=(), found=True, **extra) -> dict:
    return {"id": "c1", "package": pkg, "found": found, "note": "n", "sections": [{"ref": "c1.s1", "version": "2.0.0"}],
            "breaking": list(breaking), **extra}  # fmt: skip


def item(*cands, ref="c1.s1", version="2.0.0", **extra):
    return {"ref": ref, "version": version, "item": "x", "candidates": list(cands), **extra}
