"""The rules planner with api_diff offered: when it asks, and how the findings weigh."""

from __future__ import annotations

import json

from depbot.agent.prompts import initial_messages
from depbot.agent.specs import tool_specs
from depbot.planner import offered, plan
from depbot.records.update import Update

MAJOR = Update("pip", "oldlib", "1.5.0", "2.0.0")
PATCH = Update("pip", "otherlib", "1.2.0", "1.2.1")
TOOLS = offered(tool_specs())


class Convo:
    def __init__(self, *updates: Update) -> None:
        self.messages = initial_messages("repo", list(updates))

    def step(self) -> list[tuple[str, dict]]:
        msg = plan(self.messages, TOOLS)
        self.messages.append(msg)
        return [(c["function"]["name"], json.loads(c["function"]["arguments"]))
                for c in msg.get("tool_calls", [])]  # fmt: skip

    def answer(self, *results: dict) -> None:
        for call, res in zip(self.messages[-1]["tool_calls"], results, strict=True):
            self.messages.append({"role": "tool", "tool_call_id": call["id"], "content": json.dumps(res)})  # fmt: skip


def notes(pkg: str, breaking=(), found=True, **extra) -> dict:
    return {"id": "c1", "package": pkg, "found": found, "note": "n",
            "sections": [{"ref": "c1.s1", "version": "2.0.0"}], "breaking": list(breaking), **extra}  # fmt: skip


def finding(strength="strong", evidence="strong") -> dict:
    return {"id": "a1", "kind": "removed", "strength": strength, "symbols": ["oldlib.gone"],
            "where": "oldlib-2.0.0 wheel · oldlib/__init__.py · oldlib.gone is gone",
            "hits": [{"id": "h1", "path": "a.py", "line": 3, "context": "code", "evidence": evidence}]}  # fmt: skip


def api(*findings: dict, compared=True) -> dict:
    return {"id": "d1", "package": "oldlib", "compared": compared, "changes_in_diff": 7,
            "findings": list(findings)}  # fmt: skip


def test_a_major_without_breaking_notes_is_diffed_and_a_strong_finding_makes_it_affected():
    c = Convo(MAJOR)
    c.step()
    c.answer(notes("oldlib"))
    assert c.step() == [("api_diff", {"package": "oldlib"})]
    c.answer(api(finding()))
    ((name, args),) = c.step()
    assert name == "conclude" and args["verdict"] == "affected"
    assert args["hit_ids"] == ["h1"] and args["breaking_changes"][0]["source_ref"] == "a1"
    assert "do not mention" in args["reason"]


def test_weak_findings_keep_not_affected_and_a_patch_is_not_diffed():
    c = Convo(MAJOR, PATCH)
    c.step()
    c.answer(notes("oldlib"), notes("otherlib"))
    step = c.step()
    assert ("api_diff", {"package": "oldlib"}) in step
    assert ("api_diff", {"package": "otherlib"}) not in step
    c.answer(
        *[api(finding("weak", "weak")) if n == "api_diff" else {"accepted": True} for n, _ in step]
    )
    ((name, args),) = c.step()
    assert name == "conclude" and args["verdict"] == "not_affected"
    assert "7 API change(s)" in args["reason"]


def test_changelog_backed_affected_stays_and_gains_the_api_evidence():
    c = Convo(MAJOR)
    c.step()
    cand = {"symbol": "oldlib.gone", "kind": "name"}
    c.answer(
        notes("oldlib", [{"ref": "c1.s1", "version": "2.0.0", "item": "x", "candidates": [cand]}])
    )
    step = c.step()
    assert step[0] == ("api_diff", {"package": "oldlib"}) and len(step) == 3
    strong = {"id": "s1", "hits": [{"id": "h1", "path": "a.py", "line": 3, "context": "code", "evidence": "strong"}]}  # fmt: skip
    c.answer(api(finding()), {"id": "w1", "hits": []}, strong)
    ((name, args),) = c.step()
    refs = [b["source_ref"] for b in args["breaking_changes"]]
    assert args["verdict"] == "affected" and refs == ["c1.s1", "a1"]


def test_partial_notes_and_no_artifacts_make_unknown():
    c = Convo(MAJOR)
    c.step()
    c.answer(notes("oldlib", missing_versions=["1.9.0"]))
    c.step()
    c.answer(api(compared=False))
    ((name, args),) = c.step()
    assert args["verdict"] == "unknown" and "1.9.0" in args["reason"]


def test_without_the_tool_offered_the_planner_never_asks_for_it():
    c = Convo(MAJOR)
    c.messages.append(plan(c.messages))
    c.answer(notes("oldlib"))
    assert plan(c.messages)["tool_calls"][0]["function"]["name"] == "conclude"


BIG = Update("pip", "oldlib", "1.9.0", "3.1.0")
COVERAGE = {"needed": ["2.0.0", "3.0.0"], "covered": ["3.0.0"], "missing": ["2.0.0"]}


def _concluded(update: Update, result: dict, diff: dict) -> dict:
    c = Convo(update)
    c.step()
    c.answer(result)
    c.step()
    c.answer(diff)
    ((name, args),) = c.step()
    assert name == "conclude"
    return args


def test_a_missing_major_and_no_artifacts_make_unknown_naming_it_and_what_was_tried():
    tried = ["CHANGELOG.md of example/oldlib", "releases of example/oldlib (none)"]
    got = notes("oldlib", coverage=COVERAGE, sources_tried=tried, missing_versions=["2.0.0"])
    args = _concluded(BIG, got, api(compared=False))
    assert args["verdict"] == "unknown"
    assert (
        "2.0.0 were not found" in args["reason"] and "releases of example/oldlib" in args["reason"]
    )


def test_a_missing_major_with_a_clean_api_diff_is_unknown_saying_what_the_diff_cannot_see():
    got = notes("oldlib", coverage=COVERAGE, missing_versions=["2.0.0"])
    used = {"used_names": {"resolved": 2, "total": 2, "fates": {"present": 2}}}
    args = _concluded(BIG, got, {**api(finding(strength="weak")), **used})
    assert args["verdict"] == "unknown" and "notes of 2.0.0 were not found" in args["reason"]
    assert "7 API change(s) touch no use here" in args["reason"]
    assert "does not show in its API" in args["reason"]


def test_a_missing_major_nothing_imports_is_unknown_saying_so():
    got = notes("oldlib", coverage=COVERAGE, missing_versions=["2.0.0"])
    args = _concluded(BIG, got, api())  # no name taken from the package
    assert args["verdict"] == "unknown"
    assert args["reason"].startswith("nothing in this checkout imports oldlib")
    assert "check it is still needed, or remove it" in args["reason"]


def test_a_minor_without_notes_is_decided_by_the_released_code():
    minor = Update("pip", "oldlib", "1.5.0", "1.6.0")
    cov = {"needed": ["1.6.0"], "covered": [], "missing": ["1.6.0"]}
    empty = {**notes("oldlib", found=False, coverage=cov), "sections": []}
    assert _concluded(minor, empty, api(compared=False))["verdict"] == "unknown"
    assert _concluded(minor, empty, api())["verdict"] == "not_affected"


def test_an_incomplete_api_diff_is_never_a_clean_one():
    got = notes("oldlib", coverage=COVERAGE, missing_versions=["2.0.0"])
    assert _concluded(BIG, got, {**api(), "incomplete": True})["verdict"] == "unknown"


def test_notes_naming_no_break_do_not_vouch_for_names_the_diff_could_not_see():
    zero_minor = Update("npm", "oldlib", "0.5.3", "0.6.0")  # a 0.x minor may break
    quiet = notes("oldlib", coverage={"needed": ["0.6.0"], "covered": ["0.6.0"], "missing": []})
    blind = {**api(), "incomplete": True,
             "used_names": {"resolved": 1, "total": 5, "fates": {"present": 1, "unresolved": 4}}}  # fmt: skip
    args = _concluded(zero_minor, quiet, blind)
    assert args["verdict"] == "unknown"
    assert "cannot see 4 of the 5 name(s) this code takes from oldlib" in args["reason"]
    seen = {**api(), "used_names": {"resolved": 5, "total": 5, "fates": {"present": 5}}}
    assert _concluded(zero_minor, quiet, seen)["verdict"] == "not_affected"


def test_a_missing_npm_major_nothing_imports_asks_what_loads_it_and_follows_the_answer():
    big = Update("npm", "oldlib", "1.9.0", "3.1.0")
    got = notes("oldlib", coverage=COVERAGE, missing_versions=["2.0.0"])
    for answer, verdict, said in (
        ({"unreached": True, "looked": "no file imports oldlib\nno file names `oldlib`"},
         "not_affected", "no file names `oldlib`"),
        ({"unreached": False, "reached": "ui-kit 2.0.0 needs it as a peer (`>=1`)"},
         "unknown", "what may load it: ui-kit 2.0.0 needs it as a peer"),
        ({"error": "who_loads failed"}, "unknown", "what loads it could not be looked for"),
    ):  # fmt: skip
        c = Convo(big)
        c.step()
        c.answer(got)
        c.step()
        c.answer(api())
        ((name, args),) = c.step()
        assert name == "who_loads" and args == {"package": "oldlib"}
        c.answer(answer)
        ((name, args),) = c.step()
        assert name == "conclude" and args["verdict"] == verdict and said in args["reason"]
