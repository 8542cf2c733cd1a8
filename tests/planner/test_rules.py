"""The rules planner as a pure function of the conversation."""

from __future__ import annotations

import json

from depbot.records.update import Update
from tests.helpers.planner import MAJOR, Convo, changelog, item

PATCH = Update("pip", "otherlib", "1.2.0", "1.2.1")


def test_fetches_everything_first_in_one_reply():
    c = Convo(MAJOR, PATCH)
    assert c.step() == [
        ("fetch_changelog", {"package": "oldlib"}),
        ("fetch_changelog", {"package": "otherlib"}),
    ]


def test_patch_without_breaking_notes_is_concluded_without_a_search():
    c = Convo(PATCH)
    c.step()
    c.answer(changelog("otherlib"))
    ((name, args),) = c.step()
    assert name == "conclude" and args["verdict"] == "not_affected"
    assert "no breaking changes" in args["reason"]


def test_breaking_candidates_are_searched_then_hits_make_it_affected():
    c = Convo(MAJOR)
    c.step()
    c.answer(
        changelog(
            "oldlib",
            [item({"symbol": "oldlib.legacy", "kind": "name"}, replacements=["oldlib.modern"])],
        )
    )
    assert c.step() == [
        ("where_imported", {"package": "oldlib"}),
        ("search_symbol", {"package": "oldlib", "symbol": "oldlib.legacy", "kind": "name"}),
    ]
    c.answer(
        {"id": "w1", "hits": []},
        {"id": "s1", "hits": [{"id": "h3", "path": "a.py", "line": 2, "context": "code", "evidence": "strong"},
                              {"id": "h4", "path": "b.py", "line": 9, "context": "code", "evidence": "weak"}]},
    )  # fmt: skip
    ((name, args),) = c.step()
    assert name == "conclude" and args["verdict"] == "affected"
    assert args["hit_ids"] == ["h3"]  # weak evidence is not cited
    assert args["breaking_changes"] == [
        {
            "summary": "`oldlib.legacy` was removed or renamed in 2.0.0",
            "symbols": ["oldlib.legacy"],
            "source_ref": "c1.s1",
        }
    ]
    assert "`oldlib.modern`" in args["suggested_fix"]


def test_no_strong_hits_means_not_affected_with_what_was_searched():
    c = Convo(MAJOR)
    c.step()
    c.answer(changelog("oldlib", [item({"symbol": "gone_fn", "kind": "name"})]))
    c.step()
    c.answer({"id": "w1", "hits": []}, {"id": "s1", "hits": [], "excluded": {"in comments": 2}})
    ((_, args),) = c.step()
    assert args["verdict"] == "not_affected"
    assert "`gone_fn`" in args["reason"] and "2 match(es) only in comments" in args["reason"]


def test_a_search_that_failed_or_could_not_be_read_is_unknown_not_safe():
    for broken in ("not json {", json.dumps({"error": "the search timed out"})):
        c = Convo(MAJOR)
        c.step()
        c.answer(changelog("oldlib", [item({"symbol": "gone_fn", "kind": "name"})]))
        c.step()
        calls = c.messages[-1]["tool_calls"]
        c.messages.append({"role": "tool", "tool_call_id": calls[0]["id"], "content": "{}"})
        c.messages.append({"role": "tool", "tool_call_id": calls[1]["id"], "content": broken})
        ((_, args),) = c.step()
        assert args["verdict"] == "unknown", broken
        assert "`gone_fn`" in args["reason"] and "not known" in args["reason"]


def test_a_failed_fetch_is_retried_once_then_unknown_for_a_major_and_semver_for_a_patch():
    c = Convo(MAJOR, PATCH)
    c.step()
    err_major = {"error": "package index entry for oldlib: pypi.org rate limit reached (HTTP 429)"}
    err_patch = {"error": "package index entry for otherlib: not found on pypi.org"}
    c.answer(err_major, err_patch)
    assert c.step() == [
        ("fetch_changelog", {"package": "oldlib"}),
        ("fetch_changelog", {"package": "otherlib"}),
    ]
    c.answer(err_major, err_patch)
    (major, patch) = c.step()
    assert (
        major[0] == "conclude"
        and major[1]["verdict"] == "unknown"
        and "rate limit" in major[1]["reason"]
    )
    assert patch[1]["verdict"] == "not_affected" and "semver" in patch[1]["reason"]


def test_notes_not_found_for_a_major_is_unknown():
    c = Convo(MAJOR)
    c.step()
    c.answer(
        changelog(
            "oldlib",
            found=False,
            note="no section between 1.5.0 and 2.0.0 found; tried CHANGELOG.md",
        )
    )
    ((_, args),) = c.step()
    assert args["verdict"] == "unknown" and "tried CHANGELOG.md" in args["reason"]


def test_a_rejected_conclusion_falls_back_to_unknown():
    c = Convo(PATCH)
    c.step()
    c.answer(changelog("otherlib"))
    c.step()
    c.answer({"error": "conclusion rejected: something", "for_people": "a use stands"})
    ((_, args),) = c.step()
    # #29: the reason a person reads is the refusal's words for people, not the instruction
    assert (args["verdict"], args["reason"]) == ("unknown", "not settled: a use stands")


def test_removed_deprecations_from_before_the_range_are_searched_and_cited_twice():
    removal = item(ref="c1.s1", version="2.0.0")
    removal["item"] = "<<<UNTRUSTED-x source=s>>>\nDeprecated code is removed.\n<<<END-x>>>"
    cl = changelog("oldlib", [removal], removes_deprecated_code=True,
                   deprecated_before=[{"ref": "c1.d1", "version": "1.4.0",
                                       "candidates": [{"symbol": "old_helper", "kind": "name"}]}])  # fmt: skip
    c = Convo(MAJOR)
    c.step()
    c.answer(cl)
    step = c.step()
    assert ("search_symbol", {"package": "oldlib", "symbol": "old_helper", "kind": "name"}) in step
    c.answer({"id": "w1", "hits": []},
             {"id": "s1", "hits": [{"id": "h1", "path": "a.py", "line": 1, "context": "code", "evidence": "strong"}]})  # fmt: skip
    ((_, args),) = c.step()
    assert [b["source_ref"] for b in args["breaking_changes"]] == ["c1.s1", "c1.d1"]


def test_final_message_has_no_tool_calls():
    c = Convo(PATCH)
    c.step()
    c.answer(changelog("otherlib"))
    c.step()
    c.answer({"accepted": True, "package": "otherlib", "verdict": "not_affected"})
    assert c.step() == []
    assert c.messages[-1]["content"] == "All updates have a verdict."


def test_at_most_forty_calls_per_reply():
    updates = [Update("npm", f"p{i}", "1.0.0", "1.0.1") for i in range(50)]
    c = Convo(*updates)
    assert len(c.step()) == 40


def test_calls_with_the_broken_shape_on_untyped_objects_make_it_unknown_not_safe():
    c = Convo(MAJOR)
    c.step()
    kwonly = {"symbol": "Query.fetch_page", "kind": "positional", "max_positional": 1}
    c.answer(changelog("oldlib", [item(kwonly)]))
    c.step()
    weak = {"id": "h3", "path": "app/views.py", "line": 9, "context": "code", "evidence": "weak",
            "why": "q.fetch_page: receiver of unknown type, called the way Query.fetch_page no longer allows"}  # fmt: skip
    c.answer({"id": "w1", "hits": []}, {"id": "s1", "hits": [weak]})
    ((_, args),) = c.step()
    assert args["verdict"] == "unknown"
    assert "app/views.py:9" in args["reason"] and "check them" in args["reason"]


def test_an_option_key_passed_to_the_packages_call_makes_it_unknown_with_the_place():
    c = Convo(MAJOR)
    c.step()
    c.answer(changelog("oldlib", [item({"symbol": "keepAlive", "kind": "name"})]))
    c.step()
    weak = {"id": "h3", "path": "src/db.js", "line": 2, "context": "code", "evidence": "weak",
            "why": "may be a use: the keepAlive key of an object passed to db.connect, a call of oldlib"}  # fmt: skip
    c.answer({"id": "w1", "hits": []}, {"id": "s1", "hits": [weak]})
    ((_, args),) = c.step()
    assert args["verdict"] == "unknown"
    assert args["reason"].startswith("1 place(s) in this code may use what")
    assert "src/db.js:2" in args["reason"]


def test_a_keyword_only_break_is_described_in_those_words_and_weak_calls_are_cited_too():
    c = Convo(MAJOR)
    c.step()
    kwonly = {"symbol": "Query.fetch_page", "kind": "positional", "max_positional": 1}
    c.answer(
        changelog(
            "oldlib", [item(kwonly, item="``Query.fetch_page`` parameters are keyword-only.")]
        )
    )
    c.step()
    strong = {
        "id": "h3",
        "path": "app/views.py",
        "line": 9,
        "context": "code",
        "evidence": "strong",
    }
    weak = {"id": "h4", "path": "app/models.py", "line": 4, "context": "code", "evidence": "weak",
            "why": "q.fetch_page: receiver of unknown type, called the way Query.fetch_page no longer allows"}  # fmt: skip
    c.answer({"id": "w1", "hits": []}, {"id": "s1", "hits": [strong, weak]})
    ((_, args),) = c.step()
    assert args["verdict"] == "affected" and args["hit_ids"] == ["h3", "h4"]
    assert args["breaking_changes"][0]["summary"] == (
        "`Query.fetch_page()` takes its parameters by keyword only since 2.0.0"
    )
