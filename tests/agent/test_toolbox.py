"""The toolbox against an in-memory fake of its services: guards, errors and results."""

from __future__ import annotations

import json
from typing import Any

import pytest

from depbot.agent.ledger import Ledger
from depbot.agent.toolbox import (
    MAX_ARGUMENT_BYTES,
    MAX_CALLS_PER_REPLY,
    NOTHING_NEW_LIMIT,
    Outcome,
    Toolbox,
)
from depbot.core.errors import ToolError, UpstreamError
from depbot.records.update import Update
from depbot.records.verdict import Verdict
from depbot.symbols.facts import SymbolHit
from tests.helpers.fake_services import FakeServices, import_site, section

NONCE = "0123456789ab"
OLDLIB = Update("pip", "oldlib", "1.4.0", "2.0.0")
OTHERLIB = Update("pip", "otherlib", "3.1.0", "3.1.1")
APP = "import oldlib\n\n\ndef main():\n    # legacy is gone in 2.0\n    return oldlib.legacy()\n"
CHANGES = "- `oldlib.legacy()` was removed; use `oldlib.modern()`.\n"


def make(services: FakeServices | None = None, **kw: Any) -> tuple[Toolbox, FakeServices]:
    services = services or FakeServices(
        changelogs={"oldlib": [section("2.0.0", CHANGES), section("1.5.0", "- Faster.\n")]},
        files={"app/main.py": APP},
        imports={"oldlib": [import_site("app/main.py", 1, "oldlib")]},
        symbols={
            "oldlib.legacy": [
                SymbolHit("app/main.py", 6, 12, APP.splitlines()[5], "code", "strong", "call")
            ]
        },
    )
    return Toolbox([OLDLIB, OTHERLIB], Ledger(), services, NONCE, **kw), services


def run(box: Toolbox, name: str, args: dict[str, Any] | str) -> tuple[Outcome, dict[str, Any]]:
    outcome = box.execute(name, args if isinstance(args, str) else json.dumps(args))
    return outcome, json.loads(outcome.content)


# -- validation ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "raw", "says"),
    [
        ("search_symbol", {"symbol": "x"}, "missing the required field 'package'"),
        ("fetch_changelog", {"package": "oldlib", "path": "/"}, "path"),
        ("search_symbol", {"package": "oldlib", "symbol": "x", "kind": "magic"}, "kind"),
        ("fetch_changelog", "{not json", "not valid JSON"),
        ("fetch_changelog", "[" * 50_00 + "]" * 50_00, "nested too deeply"),
    ],
)
def test_invalid_arguments_get_a_sentence_and_no_service_call(name, raw, says):
    box, services = make()
    outcome, body = run(box, name, raw)
    assert (outcome.ok, outcome.guard) == (False, "invalid")
    assert says in body["error"] and body["error"] == outcome.error_detail
    assert services.calls == []


def test_unknown_tool_lists_the_valid_ones():
    box, services = make()
    outcome, body = run(box, "delete_repository", {"path": "/"})
    assert outcome.guard == "invalid"
    assert body["error"] == (
        "unknown tool 'delete_repository'; valid tools: fetch_changelog, search_code, "
        "where_imported, search_symbol, api_diff, who_loads, conclude"
    )
    assert services.calls == []


def test_oversized_arguments_are_refused_before_parsing():
    box, services = make()
    raw = json.dumps({"pattern": "x" * MAX_ARGUMENT_BYTES})
    outcome, body = run(box, "search_code", raw)
    assert outcome.guard == "invalid"
    assert f"({len(raw)} bytes; limit {MAX_ARGUMENT_BYTES})" in body["error"]
    assert services.calls == []


def test_a_package_outside_the_batch_is_refused_for_every_tool_that_names_one():
    box, services = make()
    for name, args in [
        ("fetch_changelog", {"package": "left-pad"}),
        ("where_imported", {"package": "left-pad"}),
        ("search_symbol", {"package": "left-pad", "symbol": "pad"}),
        ("conclude", {"package": "left-pad", "verdict": "affected", "reason": "said so"}),
    ]:
        outcome, body = run(box, name, args)
        assert (outcome.ok, outcome.guard) == (False, "error"), name
        assert body["error"] == (
            "unknown package 'left-pad'; the updates in this conversation are: oldlib, otherlib"
        )
    assert services.calls == []
    assert box.ledger.verdicts == {}


def test_package_names_match_as_pep_503_spells_them():
    box, _ = make()
    assert box.find_update(" OldLib ") is OLDLIB
    assert box.find_update("old_lib") is None  # a different name, not a spelling of oldlib
    box.updates.append(Update("pip", "ruamel.yaml", "0.17.0", "0.18.0"))
    assert box.find_update("Ruamel_YAML").package == "ruamel.yaml"


# -- repeat guard ---------------------------------------------------------------------------------


def test_second_identical_call_points_to_the_first_result_and_the_third_is_refused():
    box, services = make()
    first, body = run(box, "search_code", {"pattern": "legacy"})
    assert first.ok and first.guard == "" and body["id"] == "s1"
    second, body = run(box, "search_code", {"pattern": "legacy"})
    assert (second.ok, second.guard) == (True, "repeat")
    assert body == {"repeat_of": "s1", "note": "same call as s1; its result is above"}
    third, body = run(box, "search_code", {"pattern": "legacy"})
    assert (third.ok, third.guard) == (False, "refused")
    assert "already made twice (result s1)" in body["error"]
    assert services.calls == [("search_code", "legacy")]  # the backend ran once
    other, _ = run(box, "search_code", {"pattern": "legacy", "word": True})
    assert other.ok and other.guard == ""  # other arguments: another call


def test_argument_order_does_not_make_a_new_call():
    box, services = make()
    run(box, "search_code", '{"pattern": "legacy", "word": true}')
    again, _ = run(box, "search_code", '{"word": true, "pattern": "legacy"}')
    assert again.guard == "repeat" and len(services.calls) == 1


def test_a_call_failing_three_times_is_refused_the_fourth():
    services = FakeServices(fail={"search_code": ToolError("the pattern is too short")})
    box, _ = make(services)
    for _ in range(3):
        outcome, body = run(box, "search_code", {"pattern": "x"})
        assert (outcome.guard, body["error"]) == ("error", "the pattern is too short")
    outcome, body = run(box, "search_code", {"pattern": "x"})
    assert (outcome.guard, body["error"]) == (
        "refused",
        "refused: search_code failed three times with these arguments",
    )
    assert len(services.calls) == 3


# -- the per-reply cap ----------------------------------------------------------------------------


def test_calls_past_the_cap_of_one_reply_are_refused_unread():
    box, services = make()
    call = {"id": "c", "function": {"name": "search_code", "arguments": '{"pattern": "legacy"}'}}
    last = box.execute_call(call, MAX_CALLS_PER_REPLY - 1)
    assert last.ok and last.seconds >= 0
    over = box.execute_call(call, MAX_CALLS_PER_REPLY)
    assert (over.ok, over.guard) == (False, "refused")
    assert json.loads(over.content)["error"] == (
        f"refused: too many tool calls in one reply (limit {MAX_CALLS_PER_REPLY})"
    )
    assert services.calls == [("search_code", "legacy")]


def test_arguments_given_as_an_object_are_accepted():
    box, _ = make()
    call = {"id": "c", "function": {"name": "search_code", "arguments": {"pattern": "legacy"}}}
    assert box.execute_call(call, 0).ok


# -- errors ---------------------------------------------------------------------------------------


def test_upstream_error_is_a_redacted_sentence():
    secret = "ghp_canary0000000000000000000000000000"
    services = FakeServices(
        fail={"fetch_changelog": UpstreamError("refused", f"GitHub said no to {secret}")}
    )
    box, _ = make(services, secrets=(secret,))
    outcome, body = run(box, "fetch_changelog", {"package": "oldlib"})
    assert outcome.guard == "error" and secret not in outcome.content
    assert body["error"].startswith("GitHub said no to ")


def test_a_crashing_backend_gives_the_model_a_sentence_and_the_trace_the_detail():
    services = FakeServices(fail={"search_code": KeyError("boom")})
    box, _ = make(services)
    outcome, body = run(box, "search_code", {"pattern": "x"})
    assert body == {"error": "search_code failed unexpectedly; try another approach"}
    assert outcome.error_detail == "KeyError: 'boom'"


# -- successful calls -----------------------------------------------------------------------------


def test_fetch_changelog_gives_fenced_sections_with_refs_and_records_them():
    box, _ = make()
    outcome, body = run(box, "fetch_changelog", {"package": "OldLib"})
    assert outcome.ok and outcome.new_facts == 2
    assert body["id"] == "c1" and body["package"] == "oldlib" and body["found"] is True
    assert [(s["ref"], s["version"]) for s in body["sections"]] == [
        ("c1.s1", "2.0.0"),
        ("c1.s2", "1.5.0"),
    ]
    assert body["sections"][0]["text"].startswith(f"<<<UNTRUSTED-{NONCE} source=CHANGELOG.md>>>")
    assert {"symbol": "oldlib.legacy", "kind": "name"} in body["breaking"][0]["candidates"]
    assert body["sources_tried"] == ["CHANGELOG.md"]
    assert set(box.ledger.sections) == {"c1.s1", "c1.s2"}
    assert box.ledger.section_breaking == {"c1.s1": True, "c1.s2": False}
    assert "oldlib.legacy" in box.ledger.changelog("oldlib")["candidates"]
    compact = json.loads(outcome.compact)
    assert compact["compacted"] is True
    assert compact["sections"] == [
        {"ref": "c1.s1", "version": "2.0.0"},
        {"ref": "c1.s2", "version": "1.5.0"},
    ]
    assert "text" not in json.dumps(compact["sections"])


def test_search_code_hits_get_ids_that_stay_the_same_for_the_same_place():
    box, _ = make()
    outcome, body = run(box, "search_code", {"pattern": "legacy"})
    assert [(h["id"], h["path"], h["line"]) for h in body["hits"]] == [
        ("h1", "app/main.py", 5),
        ("h2", "app/main.py", 6),
    ]
    assert body["pattern"] == "legacy" and body["total"] == 2
    assert "h2 app/main.py:6:     return oldlib.legacy()" in body["lines"]
    assert "lines" not in json.loads(outcome.compact)
    again, body = run(box, "search_code", {"pattern": "legacy", "word": True})
    assert [h["id"] for h in body["hits"]] == ["h1", "h2"]  # the same places, the same ids
    assert again.new_facts == 0


def test_search_symbol_carries_evidence_and_where_imported_the_import_style():
    box, _ = make()
    _, sym = run(box, "search_symbol", {"package": "oldlib", "symbol": "oldlib.legacy"})
    assert sym["hits"] == [
        {"id": "h1", "path": "app/main.py", "line": 6, "context": "code", "evidence": "strong",
         "why": "call"}
    ]  # fmt: skip
    assert (sym["symbol"], sym["kind"], sym["excluded"]) == (
        "oldlib.legacy",
        "name",
        {"in a comment": 1},
    )
    assert box.ledger.hit_tags["h1"] == {("oldlib", "oldlib.legacy")}
    _, imp = run(box, "where_imported", {"package": "oldlib"})
    assert imp["hits"] == [
        {"id": "h2", "path": "app/main.py", "line": 1, "context": "code", "style": "import"}
    ]
    assert (imp["import_names"], imp["files"]) == (["oldlib"], ["app/main.py"])


def test_a_line_of_a_private_key_block_is_never_shown():
    services = FakeServices(files={"deploy/key.pem": "-----BEGIN KEY-----\nMIIsecret\n"})
    services.secret_lines.add(("deploy/key.pem", 2))
    box, _ = make(services)
    outcome, body = run(box, "search_code", {"pattern": "MII"})
    assert "MIIsecret" not in outcome.content
    assert "[REDACTED: a line of a private key block]" in body["lines"]
    assert box.ledger.hits["h1"].text == "[REDACTED: a line of a private key block]"


def test_searches_that_find_nothing_new_get_told_to_conclude():
    box, _ = make()
    for i in range(NOTHING_NEW_LIMIT):
        _, body = run(box, "search_code", {"pattern": f"nothing{i}"})
        assert ("note_from_depbot" in body) == (i == NOTHING_NEW_LIMIT - 1)
    assert "searches found nothing new" in body["note_from_depbot"]


def test_conclude_records_the_verdict_once():
    seen: list[Verdict] = []
    box, _ = make(on_verdict=seen.append)
    outcome, body = run(
        box, "conclude", {"package": "otherlib", "verdict": "not_affected", "reason": "a patch"}
    )
    assert outcome.ok and body == {
        "accepted": True,
        "package": "otherlib",
        "verdict": "not_affected",
        "still_open": ["oldlib"],
    }
    assert [v.update for v in seen] == [OTHERLIB] and not box.all_concluded()
    again, body = run(
        box, "conclude", {"package": "otherlib", "verdict": "unknown", "reason": "changed my mind"}
    )
    assert again.guard == "rejected" and "already concluded as not_affected" in body["error"]
    assert box.ledger.rejections == 1 and len(seen) == 1


def test_affected_without_a_search_is_rejected():
    box, _ = make()
    outcome, body = run(
        box, "conclude", {"package": "oldlib", "verdict": "affected", "reason": "surely"}
    )
    assert outcome.guard == "rejected" and body["error"].startswith("conclusion rejected: ")
    assert box.ledger.verdict(OLDLIB.key) is None
    (refused,) = box.ledger.refused["oldlib"]  # kept for the report's accounting
    assert refused.startswith("affected: affected needs at least one hit id")
