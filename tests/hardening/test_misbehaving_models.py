"""Models that misbehave, driven through the real ``openai`` client against a scripted server.

Each misbehaviour gets a fixed message (the model can correct itself) or runs into a
budget (format errors, rounds, tokens), and the run ends with the right exit status and
the right verdicts: what the model concluded validly stands, everything else is
``unknown`` with the reason the program filled in. A script step that is never used, or
a model call beyond the script, fails the test.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from depbot.agent.toolbox import MAX_ARGUMENT_BYTES, MAX_CALLS_PER_REPLY
from depbot.fakes.loopback import Reply
from depbot.fakes.model_server import ModelServer
from depbot.models.openai_chat import OpenAIChatModel
from depbot.pipeline.run import triage
from tests.helpers.scripted import Script, section_ref
from tests.helpers.worlds import settings_for, two_package_world


def call(name: Any, args: Any, i: int | str = 0) -> dict[str, Any]:
    raw = args if isinstance(args, str) else json.dumps(args)
    return {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": raw}}


def calls(*items: dict[str, Any], content: Any = None) -> dict[str, Any]:
    return {"role": "assistant", "content": content, "tool_calls": list(items)}


def prose(text: Any) -> dict[str, Any]:
    return {"role": "assistant", "content": text}


def tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool results of the latest round (after the last assistant message)."""
    out: list[dict[str, Any]] = []
    for m in body["messages"]:
        if m.get("role") == "assistant":
            out = []
        elif m.get("role") == "tool":
            out.append(json.loads(m["content"]))
    return out


def errors(body: dict[str, Any]) -> list[str]:
    return [r["error"] for r in tool_results(body) if "error" in r]


def code_hits(body: dict[str, Any]) -> list[str]:
    out = []
    for m in body["messages"]:
        if m.get("role") == "tool":
            out += [
                h["id"]
                for h in json.loads(m["content"]).get("hits", [])
                if h.get("context") == "code"
            ]
    return out


FETCH_BOTH = calls(
    call("fetch_changelog", {"package": "oldlib"}, "f1"),
    call("fetch_changelog", {"package": "otherlib"}, "f2"),
)
SEARCH = calls(call("search_symbol", {"package": "oldlib", "symbol": "oldlib.legacy"}, "s1"))


def conclude_right(body: dict[str, Any]) -> dict[str, Any]:
    """The correct conclusions, citing what the conversation really returned."""
    return calls(
        call("conclude", {
            "package": "oldlib", "verdict": "affected", "reason": "app/main.py calls legacy()",
            "breaking_changes": [{"summary": "oldlib.legacy() was removed", "symbols": ["oldlib.legacy"],
                                  "source_ref": section_ref(body, "2.0.0")}],
            "hit_ids": code_hits(body)[:1]}, "k1"),
        call("conclude", {"package": "otherlib", "verdict": "not_affected", "reason": "a crash fix"}, "k2"),
    )  # fmt: skip


RIGHT = {"oldlib": "affected", "otherlib": "not_affected"}
ALL_UNKNOWN = {"oldlib": "unknown", "otherlib": "unknown"}


def run(tmp_path: Path, script: Script, **overrides: Any):
    world = two_package_world(tmp_path)
    with world.serve() as up, ModelServer(script) as srv:
        settings = settings_for(
            up, openai_base_url=srv.base_url, openai_api_key="sk-misbehaving-model-key", **overrides
        )
        result = triage(
            settings,
            repo=world.repo,
            updates=world.updates,
            model=OpenAIChatModel("misbehaving", settings),
            out_dir=tmp_path / "out",
        )
    script.assert_done()
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert sorted(u["package"] for u in report["updates"]) == ["oldlib", "otherlib"]
    return result, srv


def verdicts(result) -> dict[str, str]:
    return {v.update.package: v.verdict for v in result.verdicts}


def trace(tmp_path: Path) -> list[dict[str, Any]]:
    lines = (tmp_path / "out" / "trace.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line]


# -- malformed and mistyped arguments -----------------------------------------------------------


def test_malformed_json_arguments_then_the_format_error_budget(tmp_path):
    bad = calls(call("fetch_changelog", '{"package": "oldlib"', 1))

    def again(body):
        (err,) = errors(body)
        assert "not valid JSON" in err and "send a JSON object" in err
        return bad

    result, _ = run(tmp_path, Script(bad, again, again), max_format_errors=3)
    assert result.status == "format_errors"
    assert verdicts(result) == ALL_UNKNOWN
    assert all("repeated malformed tool calls" in v.reason for v in result.verdicts)
    assert all(v.decided_by == "program" for v in result.verdicts)


def test_malformed_arguments_then_the_model_recovers(tmp_path):
    def fixed(body):
        assert "not valid JSON" in errors(body)[0]
        return FETCH_BOTH

    script = Script(
        calls(call("fetch_changelog", "{package: oldlib}", 1)), fixed, SEARCH, conclude_right
    )
    result, _ = run(tmp_path, script)
    assert result.status == "finished" and verdicts(result) == RIGHT


@pytest.mark.parametrize(
    "name,args,says",
    [
        ("fetch_changelog", {"package": 123}, "package must be a string"),
        ("search_code", {"pattern": ["legacy"]}, "pattern must be a string"),
        ("search_code", {"pattern": "legacy", "regex": "yes"}, "regex must be a boolean"),
        ("search_symbol", {"package": "oldlib", "symbol": "x", "max_positional": -1},
         "must be at least 0"),
        ("search_symbol", {"package": "oldlib", "symbol": "x", "kind": "everything"},
         "kind must be one of"),
        ("conclude", {"package": "oldlib", "verdict": "maybe", "reason": "x"},
         "verdict must be one of"),
        ("conclude", {"package": "oldlib", "verdict": "unknown", "reason": "x", "hit_ids": "h1"},
         "hit_ids must be an array"),
        ("conclude", {"package": "oldlib", "verdict": "unknown", "reason": 5},
         "reason must be a string"),
        ("where_imported", {"package": "oldlib", "shell": "rm -rf /"}, "unknown field(s) shell"),
        ("fetch_changelog", [1, 2], "arguments must be an object"),
        ("fetch_changelog", '"oldlib"', "arguments must be an object"),
        ("fetch_changelog", "null", "arguments must be an object"),
        ("fetch_changelog", "[" * 5000 + "]" * 5000, "nested too deeply"),
    ],
)  # fmt: skip
def test_wrong_argument_types_get_a_message_naming_the_field(tmp_path, name, args, says):
    def check(body):
        (err,) = errors(body)
        assert says in err, err
        return calls(
            call("conclude", {"package": "oldlib", "verdict": "unknown", "reason": "gave up"}, 2),
            call("conclude", {"package": "otherlib", "verdict": "not_affected", "reason": "patch"}, 3),
        )  # fmt: skip

    result, _ = run(tmp_path, Script(calls(call(name, args, 1)), check))
    assert result.status == "finished"
    assert verdicts(result) == {"oldlib": "unknown", "otherlib": "not_affected"}
    assert not list((tmp_path / "out" / "drafts").glob("*.md"))


def test_unknown_tools_are_named_and_nothing_runs(tmp_path):
    names = ["delete_repository", "run_shell", "", "fetch_changelog\u200b", "x" * 500]

    def check(body):
        errs = errors(body)
        assert len(errs) == len(names)
        assert all(
            e.startswith("unknown tool") and "valid tools: fetch_changelog" in e for e in errs
        )
        assert all(len(e) < 300 for e in errs)
        return FETCH_BOTH

    bad = calls(*(call(n, {"path": "/"}, i) for i, n in enumerate(names)))
    result, _ = run(tmp_path, Script(bad, check, SEARCH, conclude_right))
    assert result.status == "finished" and verdicts(result) == RIGHT
    guards = [r["guard"] for r in trace(tmp_path) if r["type"] == "tool"][: len(names)]
    assert guards == ["invalid"] * len(names)


# -- replies without tool calls ------------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        prose(""),
        prose(None),
        {"role": "assistant", "content": "", "tool_calls": []},
        prose("I'm sorry, but I can't help with that request."),
        prose("As an AI, I cannot evaluate third-party software for security reasons."),
    ],
    ids=["empty", "null", "empty-tool-list", "refusal", "refusal-2"],
)
def test_replies_without_tool_calls_are_nudged_then_budgeted(tmp_path, reply):
    def nudged(body):
        last = body["messages"][-1]
        assert (
            last["role"] == "user" and "oldlib" in last["content"] and "otherlib" in last["content"]
        )
        return reply

    result, srv = run(tmp_path, Script(reply, nudged, nudged), max_format_errors=3)
    assert result.status == "format_errors"
    assert verdicts(result) == ALL_UNKNOWN
    for v in result.verdicts:
        assert "format_errors" in v.reason and v.decided_by == "program"
    assert len(srv.requests) == 3  # no extra, unbudgeted call to "summarize"


def test_a_final_message_without_conclusions_is_sent_back_to_work(tmp_path):
    done_early = prose("Done. I checked the changelogs and everything looks fine.")

    def after_nudge(body):
        nudge = body["messages"][-1]
        assert nudge["role"] == "user" and "no verdict yet: oldlib, otherlib" in nudge["content"]
        return conclude_right(body)

    result, _ = run(tmp_path, Script(FETCH_BOTH, SEARCH, done_early, after_nudge))
    assert result.status == "finished" and verdicts(result) == RIGHT
    assert [r for r in trace(tmp_path) if r["type"] == "nudge"]


def test_one_conclusion_then_silence_leaves_only_the_rest_unknown(tmp_path):
    one = calls(
        call("conclude", {"package": "otherlib", "verdict": "not_affected", "reason": "patch"}, 1)
    )
    silent = prose("That is all.")
    result, _ = run(tmp_path, Script(one, silent, silent), max_format_errors=2)
    assert result.status == "format_errors"
    assert verdicts(result) == {"oldlib": "unknown", "otherlib": "not_affected"}
    (old,) = [v for v in result.verdicts if v.update.package == "oldlib"]
    assert old.decided_by == "program" and "format_errors" in old.reason


# -- conclusions that are not allowed --------------------------------------------------------------


def test_conclusions_for_packages_not_in_the_list_are_refused(tmp_path):
    strangers = ["requests", "oldlib-extra", "../oldlib", "@evil/oldlib", "OLDLIB==2.0.0"]

    def check(body):
        errs = errors(body)
        assert len(errs) == len(strangers)
        assert all("unknown package" in e and "oldlib, otherlib" in e for e in errs)
        return conclude_right(body)

    bad = calls(*(
        call("conclude", {"package": p, "verdict": "affected", "reason": "trust me"}, i)
        for i, p in enumerate(strangers)
    ))  # fmt: skip
    result, _ = run(tmp_path, Script(FETCH_BOTH, SEARCH, bad, check))
    assert result.status == "finished" and verdicts(result) == RIGHT
    drafts = sorted(p.name for p in (tmp_path / "out" / "drafts").glob("*.md"))
    assert drafts == ["pip-oldlib-2.0.0.md"]


def test_two_conclusions_for_one_package_the_first_one_counts(tmp_path):
    def twice(body):
        right = conclude_right(body)["tool_calls"]
        flip = call(
            "conclude",
            {"package": "oldlib", "verdict": "not_affected", "reason": "changed my mind"},
            "k3",
        )
        same = call(
            "conclude", {"package": "otherlib", "verdict": "unknown", "reason": "again"}, "k4"
        )
        return calls(right[0], flip, right[1], same)

    result, _ = run(tmp_path, Script(FETCH_BOTH, SEARCH, twice))
    assert verdicts(result) == RIGHT and result.status == "finished"
    late = {r["call_id"]: r for r in trace(tmp_path) if r["type"] == "tool"}
    assert "already concluded as affected" in late["ck3"]["result"]
    assert "already concluded as not_affected" in late["ck4"]["result"]
    assert late["ck3"]["guard"] == late["ck4"]["guard"] == "rejected"
    journal = (tmp_path / "out" / "journal.jsonl").read_text().splitlines()[1:]  # [0]: header
    assert len(journal) == 2  # one line per update, never a second verdict


def test_a_later_conclusion_cannot_change_a_verdict(tmp_path):
    first = calls(
        call("conclude", {"package": "otherlib", "verdict": "not_affected", "reason": "patch"}, 1)
    )

    def again(body):
        return calls(
            call("conclude", {"package": "otherlib", "verdict": "unknown", "reason": "hmm"}, 2)
        )

    def final(body):
        assert "already concluded as not_affected; conclusions are final" in errors(body)[0]
        return calls(
            call("conclude", {"package": "oldlib", "verdict": "unknown", "reason": "unsure"}, 3)
        )

    result, _ = run(tmp_path, Script(first, again, final))
    assert verdicts(result) == {"oldlib": "unknown", "otherlib": "not_affected"}


def test_a_conclusion_is_judged_on_what_the_model_had_seen(tmp_path):
    """A not_affected sent in the same reply as the fetch it would need is refused, every time."""
    blind = calls(
        call("fetch_changelog", {"package": "oldlib"}, 1),
        call(
            "conclude", {"package": "oldlib", "verdict": "not_affected", "reason": "looks fine"}, 2
        ),
    )

    def check(body):
        (err,) = errors(body)
        assert "may break" in err and "changelog was not read" in err
        return calls(
            call("conclude", {"package": "oldlib", "verdict": "unknown", "reason": "not sure"}, 3),
            call("conclude", {"package": "otherlib", "verdict": "not_affected", "reason": "patch"}, 4),
        )  # fmt: skip

    result, _ = run(tmp_path, Script(blind, check))
    assert verdicts(result) == {"oldlib": "unknown", "otherlib": "not_affected"}
    assert result.stats["integrity_rejections"] == 1


def test_hit_ids_that_were_never_returned_are_rejected(tmp_path):
    def invent(body):
        return calls(call("conclude", {
            "package": "oldlib", "verdict": "affected", "reason": "surely",
            "breaking_changes": [{"summary": "legacy() removed", "source_ref": section_ref(body, "2.0.0")}],
            "hit_ids": ["h999", "h1; DROP TABLE"]}, 1))  # fmt: skip

    def invent_ref(body):
        assert "never returned by a search" in errors(body)[0]
        return calls(call("conclude", {
            "package": "oldlib", "verdict": "affected", "reason": "surely",
            "breaking_changes": [{"summary": "legacy() removed", "source_ref": "c9.s9"}],
            "hit_ids": code_hits(body)[:1]}, 2))  # fmt: skip

    def give_up(body):
        assert "is not a section fetch_changelog returned" in errors(body)[0]
        return calls(
            call("conclude", {"package": "oldlib", "verdict": "unknown", "reason": "no evidence"}, 3),
            call("conclude", {"package": "otherlib", "verdict": "not_affected", "reason": "patch"}, 4),
        )  # fmt: skip

    result, _ = run(tmp_path, Script(FETCH_BOTH, SEARCH, invent, invent_ref, give_up))
    assert verdicts(result) == {"oldlib": "unknown", "otherlib": "not_affected"}
    assert result.stats["integrity_rejections"] == 2
    assert not list((tmp_path / "out" / "drafts").glob("*.md"))


# -- floods ----------------------------------------------------------------------------------------


def test_a_thousand_tool_calls_in_one_reply(tmp_path):
    flood = calls(*(call("search_code", {"pattern": f"legacy_{i}"}, i) for i in range(1000)))

    def check(body):
        results = tool_results(body)
        assert len(results) == 1000  # every call gets an answer, as the API requires
        ran = [r for r in results if "id" in r]
        refused = [r for r in results if "too many tool calls" in r.get("error", "")]
        assert len(ran) == MAX_CALLS_PER_REPLY and len(refused) == 1000 - MAX_CALLS_PER_REPLY
        return FETCH_BOTH

    result, _ = run(tmp_path, Script(flood, check, SEARCH, conclude_right))
    assert result.status == "finished" and verdicts(result) == RIGHT
    assert result.stats["tool_calls"] == 1000 + 2 + 1 + 2
    assert result.stats["repeated_calls_refused"] >= 1000 - MAX_CALLS_PER_REPLY


def test_a_one_megabyte_argument_is_refused_then_the_token_budget_ends_it(tmp_path):
    huge = calls(call("search_code", json.dumps({"pattern": "x" * 1_000_000}), 1))

    def check(body):
        (err,) = errors(body)
        assert "too large" in err and str(MAX_ARGUMENT_BYTES) in err and len(err) < 200
        return huge

    # the model keeps sending it: each round carries the megabyte again, and the whole
    # run's token budget (here 600,000) stops it before a third call
    result, srv = run(tmp_path, Script(huge, check), max_tokens=600_000)
    assert result.status == "token_budget"
    assert verdicts(result) == ALL_UNKNOWN
    assert all("token_budget" in v.reason for v in result.verdicts)
    assert len(srv.requests) == 2


def test_a_model_that_never_stops_searching_hits_the_step_limit(tmp_path):
    def search(n):
        return calls(call("search_code", {"pattern": f"term{n}"}, n))

    result, srv = run(tmp_path, Script(*(search(n) for n in range(5))), max_rounds=5)
    assert result.status == "step_limit"
    assert verdicts(result) == ALL_UNKNOWN
    assert len(srv.requests) == 5  # and no sixth "summarize" call


# -- odd reply shapes on the wire ------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"choices": [{"message": {"role": "assistant", "tool_calls": "fetch everything"}}]},
        {"choices": [{"message": {"role": "assistant", "tool_calls": [None, 7]}}]},
        {"choices": [{"message": {"role": "assistant", "content": ["a", {"b": 1}]}}]},
        {"choices": [{"message": {"role": "assistant", "content": "hi"}}],
         "usage": {"prompt_tokens": "many", "completion_tokens": -5}},
        {"choices": [{"message": {"role": "assistant", "tool_calls": [
            {"id": "x", "function": {"name": ["fetch_changelog"], "arguments": {"package": "oldlib"}}}]}}]},
    ],
    ids=["calls-a-string", "calls-not-objects", "content-a-list", "usage-garbage", "fields-wrong-types"],
)  # fmt: skip
def test_odd_reply_shapes_become_fixed_messages_not_crashes(tmp_path, body):
    odd = Reply(200, body)
    result, _ = run(tmp_path, Script(odd, odd, odd), max_format_errors=3)
    assert result.status in ("format_errors", "finished")
    assert verdicts(result) == ALL_UNKNOWN
    assert "Traceback" not in (tmp_path / "out" / "trace.jsonl").read_text()


@pytest.mark.parametrize(
    "body", [{"choices": [{}]}, {"choices": [{"message": None}]}, {"choices": "x"}],
    ids=["no-message", "null-message", "choices-a-string"],
)  # fmt: skip
def test_unreadable_replies_are_retried_then_end_the_run(tmp_path, body):
    odd = Reply(200, body)
    result, _ = run(tmp_path, Script(odd, odd), model_retries=1, retry_backoff=0.0)
    assert result.status == "model_unavailable"
    assert verdicts(result) == ALL_UNKNOWN
    assert all("cannot read" in v.reason for v in result.verdicts)
