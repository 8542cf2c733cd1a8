"""The rules planner: config keys in strings, search order (the read2 fixes)."""

from __future__ import annotations

import json

from depbot.planner import plan
from tests.helpers.planner import MAJOR, Convo, changelog, item


def test_a_config_key_found_in_a_string_is_a_use():
    c = Convo(MAJOR)
    c.step()
    c.answer(changelog("oldlib", [item({"symbol": "LEGACY_MODE", "kind": "config_key"})]))
    c.step()
    c.answer(
        {"id": "w1", "hits": []},
        {"id": "s1", "hits": [{"id": "h1", "path": "conf.py", "line": 3, "context": "string",
                               "evidence": "strong", "why": "mentions the setting LEGACY_MODE"}]},
    )  # fmt: skip
    ((name, args),) = c.step()
    assert name == "conclude" and args["verdict"] == "affected"
    assert args["hit_ids"] == ["h1"]


def test_a_name_found_only_in_a_string_is_still_not_a_use():
    c = Convo(MAJOR)
    c.step()
    c.answer(changelog("oldlib", [item({"symbol": "legacy_call", "kind": "name"})]))
    c.step()
    c.answer(
        {"id": "w1", "hits": []},
        {"id": "s1", "hits": [{"id": "h1", "path": "a.py", "line": 3, "context": "string",
                               "evidence": "strong"}]},
    )  # fmt: skip
    ((name, args),) = c.step()
    assert name == "conclude" and args["verdict"] == "not_affected"


def test_a_wildcard_is_expanded_against_the_names_the_checkout_uses():
    c = Convo(MAJOR)
    c.step()
    c.answer(changelog("oldlib", [item({"symbol": "lax*", "kind": "name"})]))
    msg = plan(c.messages, frozenset({"search_code", "search_symbol", "where_imported"}))
    c.messages.append(msg)
    names = [call["function"]["name"] for call in msg["tool_calls"]]
    assert names == ["where_imported", "search_code"]
    fence = "<<<UNTRUSTED-ab source=checkout>>>\n{}\n<<<END-ab>>>"
    c.answer(
        {"id": "w1", "hits": [{"id": "h1", "path": "a.js", "line": 1, "context": "code"}],
         "lines": fence.format("h1 a.js:1: const { laxParse, strictParse } = require('oldlib')")},
        {"id": "t1", "hits": [{"id": "h2", "path": "b.js", "line": 4, "context": "code"},
                              {"id": "h3", "path": "b.js", "line": 5, "context": "comment"}],
         "lines": fence.format("h2 b.js:4: y.laxDump(doc)\nh3 b.js:5: // laxOld was here")},
    )  # fmt: skip
    msg = plan(c.messages, frozenset({"search_code", "search_symbol", "where_imported"}))
    searched = [json.loads(call["function"]["arguments"])["symbol"] for call in msg["tool_calls"]]
    assert searched == ["laxParse", "laxDump"]
    c.messages.append(msg)
    c.answer(
        {"id": "s1", "hits": [{"id": "h1", "path": "a.js", "line": 1, "context": "code",
                               "evidence": "strong"}]},
        {"id": "s2", "hits": []},
    )  # fmt: skip
    msg = plan(c.messages, frozenset({"search_code", "search_symbol", "where_imported"}))
    ((call,),) = [msg["tool_calls"]]
    args = json.loads(call["function"]["arguments"])
    assert args["verdict"] == "affected" and args["hit_ids"] == ["h1"]
    assert "laxParse" in args["reason"]


TOOLS = frozenset({"search_code", "search_symbol", "where_imported"})


def test_more_candidates_than_the_budget_are_filtered_by_one_text_search_first():
    early = [item({"symbol": f"rcOption{i}", "kind": "parameter"}) for i in range(34)]
    late = [item({"symbol": "legacyBase", "kind": "name"}, version="2.0.0-beta.0")]
    c = Convo(MAJOR)
    c.step()
    c.answer(changelog("oldlib", early + late))
    msg = plan(c.messages, TOOLS)
    c.messages.append(msg)
    calls = [
        (x["function"]["name"], json.loads(x["function"]["arguments"])) for x in msg["tool_calls"]
    ]
    texts = [a["pattern"] for n, a in calls if n == "search_code"]
    assert [n for n, _ in calls if n != "search_code"] == ["where_imported"]
    assert all(len(p) <= 200 for p in texts) and any("legacyBase" in p for p in texts)
    fence = "<<<UNTRUSTED-ab source=checkout>>>\n{}\n<<<END-ab>>>"
    found = {"id": "t9", "total": 1, "hits": [{"id": "h5", "path": "dev.js", "line": 3, "context": "code"}],
             "lines": fence.format("h5 dev.js:3:   legacyBase: path.join(__dirname, 'dist'),")}  # fmt: skip
    c.answer(
        {"id": "w1", "hits": []},
        *[
            found if "legacyBase" in p else {"id": "t", "total": 0, "hits": [], "lines": ""}
            for p in texts
        ],
    )
    msg = plan(c.messages, TOOLS)
    searched = [json.loads(x["function"]["arguments"])["symbol"] for x in msg["tool_calls"]]
    assert searched == ["legacyBase"]
    c.messages.append(msg)
    c.answer({"id": "s1", "hits": []})
    # the text results come back compact (no lines): the choice stands, nothing more is asked
    for m in c.messages:
        if m.get("role") == "tool" and '"lines"' in m["content"] and '"t' in m["content"]:
            body = json.loads(m["content"])
            body.pop("lines", None)
            m["content"] = json.dumps({**body, "compacted": True})
    msg = plan(c.messages, TOOLS)
    ((call,),) = [msg["tool_calls"]]
    args = json.loads(call["function"]["arguments"])
    assert call["function"]["name"] == "conclude" and args["verdict"] == "not_affected"
    assert "34 other name(s)" in args["reason"]


def test_a_narrowed_input_is_a_verify_note_never_affected_alone():
    c = Convo(MAJOR)
    c.step()
    entry = item({"symbol": "check", "kind": "behaviour"},
                 item="The check() function no longer accepts unsigned tickets by default.")  # fmt: skip
    c.answer(changelog("oldlib", [entry]))
    c.step()
    c.answer(
        {"id": "w1", "hits": []},
        {"id": "s1", "hits": [{"id": "h1", "path": "a.py", "line": 3, "context": "code",
                               "evidence": "strong"}]},
    )  # fmt: skip
    ((name, args),) = c.step()
    assert name == "conclude" and args["verdict"] == "not_affected"
    assert "to verify: 1 call(s) of `check()`" in args["reason"]
