"""The conversation read back into one ``State`` per update. Pure.

The planner keeps no memory between replies: each time, the updates come from the user
message, and what was asked and answered from the assistant's tool calls and their results.
"""

from __future__ import annotations

import json
import re
from typing import Any

from depbot.planner.records import (
    JSON,
    NO_ANSWER,
    ApiResult,
    Changelog,
    Code,
    Search,
    SearchResult,
    State,
    UpdateEntry,
)
from depbot.records.names import normalize


def updates_from(messages: list[JSON]) -> list[UpdateEntry]:
    """The updates of the first user message that lists them (a JSON block)."""
    for m in messages:
        if m.get("role") != "user":
            continue
        match = re.search(r"```json\s*(\[.*?\])\s*```", str(m.get("content") or ""), re.S)
        if match:
            try:
                data = json.loads(match.group(1))
            except json.JSONDecodeError:
                continue
            if isinstance(data, list):
                return [
                    UpdateEntry.read(d) for d in data if isinstance(d, dict) and d.get("package")
                ]
    return []


def parse(content: Any) -> JSON:
    """A tool call's arguments or a tool's result; an error when it is not a JSON object."""
    try:
        data = json.loads(content or "{}")
    except (TypeError, json.JSONDecodeError):
        return {"error": "unreadable result"}
    return data if isinstance(data, dict) else {"error": "unexpected result"}


def _key(name: str) -> str:
    return normalize(str(name))


def read_state(messages: list[JSON]) -> tuple[list[State], int]:
    """Rebuild per-update state from the conversation; also returns how many calls were made."""
    states = {_key(u.package): State(u) for u in updates_from(messages)}
    results = {
        m.get("tool_call_id"): parse(m.get("content")) for m in messages if m.get("role") == "tool"
    }
    code: Code = {}  # search_code results by pattern, shared
    for st in states.values():
        st.code = code
    calls = [c for m in messages if m.get("role") == "assistant" for c in m.get("tool_calls") or []]
    for call in calls:
        fn = call.get("function") or {}
        name, args = str(fn.get("name")), parse(fn.get("arguments"))
        res = results.get(call.get("id"))  # None: pending
        if name == "search_code":
            code[str(args.get("pattern", ""))] = _text_result(res)
            continue
        st = states.get(_key(args.get("package", "")))
        if st is not None:
            _record(st, name, args, res)
    return list(states.values()), len(calls)


def _text_result(res: JSON | None) -> SearchResult | None:
    """A search_code result; one that failed answers nothing."""
    if res is None:
        return None
    return NO_ANSWER if "error" in res else SearchResult.read(res)


def _record(st: State, name: str, args: JSON, res: JSON | None) -> None:
    """One call of the update's (and its result: None while pending) into its state."""
    if name == "fetch_changelog":
        _fetched(st, res)
    elif name == "where_imported":
        st.imported_asked = True
        st.imported_pending = res is None
        if res and "error" not in res:
            st.imported = SearchResult.read(res)
    elif name == "search_symbol":
        st.searches.append(Search(args, None if res is None else SearchResult.read(res)))
    elif name == "api_diff":
        st.api_asked, st.api = True, None if res is None else ApiResult.read(res)
    elif name == "who_loads":
        st.reach_asked, st.reach = True, res
    elif name == "conclude":
        _concluded(st, res)


def _fetched(st: State, res: JSON | None) -> None:
    st.fetched += 1
    if res is None:
        st.fetch_pending = True
    elif "error" in res:
        st.fetch_errors.append(str(res["error"]))
    else:
        st.changelog = Changelog.read(res)


def _concluded(st: State, res: JSON | None) -> None:
    if res and res.get("accepted"):
        st.concluded = True
    elif res and "error" in res:
        st.rejections.append(str(res.get("for_people") or res["error"]))
    elif res is None:
        st.concluded = True  # pending: do not conclude twice
