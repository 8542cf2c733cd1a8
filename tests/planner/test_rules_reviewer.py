"""The rules planner reads like a reviewer (#15 §3): behaviour changes to verify, names
that moved out, deprecations that only go along, and every file cited."""

from __future__ import annotations

from tests.helpers.planner import MAJOR, Convo, changelog, item


def strong(hid: str, path: str, line: int = 1) -> dict:
    return {"id": hid, "path": path, "line": line, "context": "code", "evidence": "strong"}


def conclude_after(c: Convo, cl: dict, *search_results: dict) -> dict:
    c.step()
    c.answer(cl)
    calls = c.step()
    assert calls[0][0] == "where_imported"
    c.answer({"id": "w1", "hits": []}, *search_results)
    ((name, args),) = c.step()
    assert name == "conclude"
    return args


def test_a_behaviour_change_is_affected_with_the_change_quoted_and_verify():
    c = Convo(MAJOR)
    entry = item({"symbol": "read_blob", "kind": "behaviour"})
    entry["item"] = "`read_blob()` now returns `str` instead of `bytes`."
    args = conclude_after(
        c, changelog("oldlib", [entry]), {"id": "s1", "hits": [strong("h1", "a.py")]}
    )
    assert args["verdict"] == "affected"
    assert "instead of `bytes`" in args["breaking_changes"][0]["summary"]
    assert "Verify every call of `read_blob()`" in args["suggested_fix"]


def test_a_name_that_moved_out_says_so_and_how_to_fix():
    c = Convo(MAJOR)
    entry = item({"symbol": "S3Sink", "kind": "name"}, replacements=["oldlib-s3"])
    entry["item"] = "The `S3Sink` class has been extracted into the separate `oldlib-s3` package."
    args = conclude_after(
        c, changelog("oldlib", [entry]), {"id": "s1", "hits": [strong("h1", "a.py")]}
    )
    assert "moved out of oldlib" in args["breaking_changes"][0]["summary"]
    assert "distribution" in args["suggested_fix"]


def test_an_option_moved_under_another_option_is_no_distribution():
    c = Convo(MAJOR)
    entry = item({"symbol": "modules.localName", "kind": "name"})
    entry["item"] = "the `localName` option was moved under the `modules` option"
    args = conclude_after(
        c, changelog("oldlib", [entry]), {"id": "s1", "hits": [strong("h1", "a.js")]}
    )
    assert "moved out of" not in args["breaking_changes"][0]["summary"]
    assert "distribution" not in args["suggested_fix"]


def _with_deprecation() -> dict:
    dep = {"ref": "c1.s1", "version": "2.0.0", "item": "`old_total` is deprecated.",
           "deprecates": [{"symbol": "old_total", "kind": "name"}]}  # fmt: skip
    return changelog("oldlib", [item({"symbol": "gone", "kind": "name"})], deprecations=[dep])


def test_a_deprecation_alone_never_makes_it_affected():
    c = Convo(MAJOR)
    args = conclude_after(
        c,
        _with_deprecation(),
        {"id": "s1", "hits": []},
        {"id": "s2", "hits": [strong("h2", "b.py")]},
    )
    assert args["verdict"] == "not_affected"


def test_a_deprecation_goes_along_under_also_deprecated():
    c = Convo(MAJOR)
    args = conclude_after(
        c,
        _with_deprecation(),
        {"id": "s1", "hits": [strong("h1", "a.py")]},
        {"id": "s2", "hits": [strong("h2", "b.py")]},
    )
    assert args["verdict"] == "affected"
    assert args["breaking_changes"][-1]["summary"].startswith("Also deprecated")
    assert args["hit_ids"] == ["h1", "h2"]
    assert "old_total" not in args["reason"]  # the reason is the break, not the deprecation


def test_every_file_is_cited_though_the_first_search_has_many_hits():
    c = Convo(MAJOR)
    many = [strong(f"h{i}", "a.py", i) for i in range(1, 60)]
    args = conclude_after(
        c,
        changelog("oldlib", [item({"symbol": "one", "kind": "name"}), item({"symbol": "two", "kind": "name"})]),
        {"id": "s1", "hits": many},
        {"id": "s2", "hits": [strong("h99", "b.py")]},
    )  # fmt: skip
    assert "h99" in args["hit_ids"] and len(args["hit_ids"]) == 50  # as many as conclude takes
