"""The rules planner: a deterministic triage of updates that works offline.

It sees only what a chat model would see (the messages and the tool results) and acts
only through the same tool calls, so it exercises the same boundaries. Each time it is
asked, it re-reads the conversation and decides, per open update:

1. no notes yet → ``fetch_changelog`` (all updates in one reply);
2. notes unreadable → retry a transient failure once, then ``not_affected`` only for a
   patch of a 1.x+ version (the semver promise); the others are decided by the released
   code (``api_diff``), ``unknown`` when it cannot be compared either; the same holds for
   notes missing for a release of the range that may break (the result's ``coverage``);
3. breaking items with candidate symbols → ``where_imported`` and one ``search_symbol``
   per candidate (all in one reply);
4. searches done → ``affected`` when a search returned strong evidence in code,
   ``not_affected`` otherwise, with a reason that says what was checked.

It is the ``rules`` model (``models.rules``), the default when no model is configured and
the baseline every model must beat.

``conversation`` reads the messages into typed ``records`` (one ``State`` per update);
``conclusion`` says what the notes and the searches support, ``released`` what the
released code and the missing notes change of it; this module picks the next calls.
"""

from __future__ import annotations

import json

from depbot.core.limits import MAX_CALLS_PER_REPLY
from depbot.planner.conclusion import notes_conclusion
from depbot.planner.conversation import read_state
from depbot.planner.notes import candidates, deprecated, found_candidates
from depbot.planner.reach import wants_reach, with_reach
from depbot.planner.records import JSON, Call, Changelog, State
from depbot.planner.released import covered, wants_api, with_api
from depbot.planner.searches import wildcard_asks, within_budget

MAX_SEARCHES_PER_UPDATE = 30


def offered(tools: list[JSON] | None) -> frozenset[str]:
    """The names of the tools offered (OpenAI shape)."""
    return frozenset(str((t.get("function") or {}).get("name")) for t in tools or [])


def plan(messages: list[JSON], tools: frozenset[str] = frozenset()) -> JSON:
    """The next assistant message for this conversation. ``tools``: the names offered; like
    any model the planner calls ``api_diff`` only when it is offered."""
    states, n_calls = read_state(messages)
    calls = [call for st in states if not st.concluded for call in next_calls(st, tools)]
    if not calls:
        open_ = [st.update.package for st in states if not st.concluded]
        text = "All updates have a verdict." if not open_ else f"Waiting on: {', '.join(open_)}."
        return {"role": "assistant", "content": text}
    return _message(calls[:MAX_CALLS_PER_REPLY], n_calls)


def _message(calls: list[Call], n_calls: int) -> JSON:
    """The calls as an assistant message, numbered after the ``n_calls`` made before."""
    return {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": f"call_{n_calls + i + 1}",
                "type": "function",
                "function": {"name": c.name, "arguments": json.dumps(c.args, ensure_ascii=False)},
            }
            for i, c in enumerate(calls)
        ],
    }


def next_calls(st: State, tools: frozenset[str]) -> list[Call]:
    """The calls one open update needs next; none while an answer it waits for is pending."""
    pkg = st.update.package
    if st.fetch_pending:
        return []
    if st.changelog is None and st.fetched < 2:
        # one more try after any failure: upstreams fail for a while, then answer
        return [Call("fetch_changelog", {"package": pkg})]
    asking = "api_diff" in tools and not st.api_asked and not st.rejections and wants_api(st)
    if not asking and st.api_asked and st.api is None:
        return []  # pending
    first = [Call("api_diff", {"package": pkg})] if asking else []
    if st.changelog is None:
        return first or _conclude(st, tools)
    if st.rejections and not st.searching:
        return [notes_conclusion(st).call()]
    return first + _search_or_conclude(st, st.changelog, tools, asking)


def _conclude(st: State, tools: frozenset[str]) -> list[Call]:
    """``conclude`` with what the notes, the searches and the released code support; for a
    package no file imports that would stay unknown, ``who_loads`` first (none: pending)."""
    base = covered(st, with_api(st, notes_conclusion(st)))
    if wants_reach(st, base, tools):
        return [Call("who_loads", {"package": st.update.package})]
    if st.reach_asked and st.reach is None:
        return []
    return [with_reach(st, base).call()]


def _search_or_conclude(
    st: State, cl: Changelog, tools: frozenset[str], asking: bool
) -> list[Call]:
    """The searches the notes still ask for, else (all answered) the conclusion."""
    pkg = st.update.package
    symbols, texts, waiting = _searches(st, cl, "search_code" in tools)
    if symbols or texts or (waiting and not st.imported_asked):
        where = [] if st.imported_asked else [Call("where_imported", {"package": pkg})]
        return [
            *where,
            *(Call("search_code", a) for a in texts),
            *(Call("search_symbol", a) for a in symbols),
        ]
    if asking or waiting or st.searching:
        return []
    return _conclude(st, tools)


def _searches(st: State, cl: Changelog, text_ok: bool) -> tuple[list[JSON], list[JSON], bool]:
    """(the ``search_symbol`` calls still to make, the ``search_code`` calls to make first,
    whether an answer those wait for is pending)."""
    pkg = st.update.package
    done = [s.args for s in st.searches]
    raw = candidates(cl) if cl.found else []
    texts, waiting = wildcard_asks(raw, st.code, st.imported_asked, st.imported_pending, text_ok)
    cands, pre_texts, pre_waiting = within_budget(
        found_candidates(st) if cl.found else [],
        st.code,
        done,
        pkg,
        MAX_SEARCHES_PER_UPDATE,
        text_ok,
        frozenset([*(cl.coverage.needed if cl.coverage else ()), st.update.to]),
    )
    texts += [a for a in pre_texts if a not in texts]
    if cands and cl.found:
        cands = (cands + deprecated(cl))[:MAX_SEARCHES_PER_UPDATE]
    symbols = [c.search_args(pkg) for c, _ in cands if c.search_args(pkg) not in done]
    return symbols, texts, waiting or pre_waiting
