"""Outcome integrity: conclusions only become verdicts when the ledger backs them (pure)."""

import pytest

from depbot.agent.integrity import Rejected, check_conclusion
from depbot.agent.ledger import ApiFact, HitFact, Ledger, SearchFact, SectionFact
from depbot.records.update import Update

MAJOR = Update("pip", "oldlib", "1.5.0", "2.0.0")
PATCH = Update("pip", "oldlib", "1.5.0", "1.5.1")
BODY = "- `oldlib.legacy()` was removed; use `oldlib.modern()` instead.\n- Python 3.7 is no longer supported.\n"


def ledger(read=True):
    led = Ledger()
    led.add_section(
        SectionFact(
            "c1.s1",
            "oldlib",
            "2.0.0",
            "## 2.0.0",
            BODY,
            "https://github.com/o/r/blob/main/CHANGELOG.md",
        )
    )
    led.add_section(SectionFact("c2.s1", "otherlib", "1.0.0", "## 1.0.0", "x", "src"))
    led.add_hit(HitFact("h1", "app/main.py", 6, 12, "return oldlib.legacy(x)", "code", "strong"))
    led.add_hit(HitFact("h2", "app/notes.py", 1, 3, "# oldlib.legacy()", "comment"))
    if read:
        led.record_changelog("oldlib", {"found": True})
    return led


def affected(**over):
    args = {"package": "oldlib", "verdict": "affected", "reason": "calls legacy()",
            "breaking_changes": [{"summary": "legacy() removed", "symbols": ["oldlib.legacy"], "source_ref": "c1.s1"}],
            "hit_ids": ["h1"], "suggested_fix": "use modern()"}  # fmt: skip
    args.update(over)
    return args


def test_affected_is_built_from_the_ledger():
    v = check_conclusion(affected(), update=MAJOR, ledger=ledger())
    assert v.verdict == "affected"
    assert [(h.path, h.line, h.text) for h in v.hits] == [
        ("app/main.py", 6, "return oldlib.legacy(x)")
    ]
    bc = v.breaking_changes[0]
    assert bc.source == "https://github.com/o/r/blob/main/CHANGELOG.md" and bc.version == "2.0.0"
    assert bc.quote == "- `oldlib.legacy()` was removed; use `oldlib.modern()` instead."


@pytest.mark.parametrize(
    ("over", "message"),
    [
        ({"hit_ids": ["h9"]}, "never returned by a search"),
        ({"hit_ids": []}, "needs at least one hit id"),
        ({"hit_ids": ["h2"]}, "comment or a string"),
        ({"breaking_changes": []}, "needs breaking_changes"),
        (
            {"breaking_changes": [{"summary": "x", "source_ref": "c7.s1"}]},
            "not a section fetch_changelog returned",
        ),
        ({"breaking_changes": [{"summary": "x", "source_ref": "c2.s1"}]}, "belongs to otherlib"),
        ({"reason": "   "}, "give a reason"),
    ],
)
def test_affected_without_backing_is_rejected(over, message):
    with pytest.raises(Rejected, match=message):
        check_conclusion(affected(**over), update=MAJOR, ledger=ledger())


def test_not_affected_for_a_major_needs_the_notes_read():
    with pytest.raises(Rejected, match="may break"):
        check_conclusion(
            {"package": "oldlib", "verdict": "not_affected", "reason": "fine"},
            update=MAJOR,
            ledger=ledger(read=False),
        )
    v = check_conclusion(
        {"package": "oldlib", "verdict": "not_affected", "reason": "fine"},
        update=PATCH,
        ledger=ledger(read=False),
    )
    assert v.verdict == "not_affected" and v.hits == []
    v = check_conclusion(
        {"package": "oldlib", "verdict": "unknown", "reason": "rate limited"},
        update=MAJOR,
        ledger=ledger(read=False),
    )
    assert v.verdict == "unknown"


def test_model_prose_is_cleaned_and_bounded():
    v = check_conclusion(
        affected(reason="calls\u200b legacy() " + "x" * 5000), update=MAJOR, ledger=ledger()
    )
    assert "\u200b" not in v.reason and len(v.reason) <= 600


# -- coverage: the notes of every release of the range that may break ---------------------------

BIG = Update("pip", "oldlib", "1.9.0", "3.1.0")
MINOR = Update("pip", "oldlib", "1.5.0", "1.6.0")
CALM = {"package": "oldlib", "verdict": "not_affected", "reason": "the 3.x notes break nothing"}


def covered(missing, *, found=True, diff=None, strong=False):
    led = Ledger()
    cov = {"needed": ["2.0.0", "3.0.0"], "covered": ["3.0.0"], "missing": missing}
    led.record_changelog("oldlib", {"found": found, "candidates": [], "coverage": cov})
    if diff is not None:
        led.record_api_diff("oldlib", had=diff)
    if strong:
        led.add_api_finding(ApiFact("a1", "oldlib", "3.1.0", "removed", "oldlib.x", "gone",
                                    "w", "src", ("oldlib.x",), (), "strong"))  # fmt: skip
    return led


def test_not_affected_with_a_missing_major_is_rejected_naming_it():
    with pytest.raises(Rejected, match=r"notes for 2\.0\.0 were not found: conclude unknown"):
        check_conclusion(CALM, update=BIG, ledger=covered(["2.0.0"]))
    with pytest.raises(Rejected, match="call api_diff"):
        check_conclusion(CALM, update=BIG, ledger=covered(["2.0.0"], diff=False))
    with pytest.raises(Rejected, match="2.0.0"):  # a strong finding is no clean diff
        check_conclusion(CALM, update=BIG, ledger=covered(["2.0.0"], diff=True, strong=True))
    assert check_conclusion(CALM, update=BIG, ledger=covered([])).reason == CALM["reason"]


def test_a_clean_api_diff_backs_no_not_affected_for_a_major_whose_notes_are_missing():
    # what a major changes in behaviour (a call that now throws) does not show in its API
    with pytest.raises(Rejected, match="notes of 2.0.0 were not found.*conclude unknown"):
        check_conclusion(CALM, update=BIG, ledger=covered(["2.0.0"], diff=True))
    assert (
        check_conclusion(
            {**CALM, "verdict": "unknown"}, update=BIG, ledger=covered(["2.0.0"], diff=True)
        ).verdict
        == "unknown"
    )


def test_a_clean_api_diff_backs_not_affected_of_a_minor_and_the_reason_says_the_notes_were_missing():
    v = check_conclusion(CALM, update=MINOR, ledger=covered(["1.6.0"], diff=True))
    assert v.verdict == "not_affected"
    assert v.reason.startswith(CALM["reason"]) and "notes of 1.6.0 were missing" in v.reason
    said = {**CALM, "reason": "notes of 1.6.0 missing; the released code changes nothing used"}
    assert (
        check_conclusion(said, update=MINOR, ledger=covered(["1.6.0"], diff=True)).reason
        == (said["reason"])
    )


def test_a_minor_without_notes_needs_the_released_code_and_a_patch_keeps_the_promise():
    calm = {**CALM, "reason": "a minor release"}
    for led in (Ledger(), covered(["1.6.0"], found=False)):
        with pytest.raises(Rejected, match="1.6.0"):
            check_conclusion(calm, update=MINOR, ledger=led)
    assert check_conclusion(calm, update=MINOR, ledger=covered(["1.6.0"], diff=True)).verdict == (
        "not_affected"
    )
    assert check_conclusion(calm, update=PATCH, ledger=Ledger()).verdict == "not_affected"


def test_not_affected_is_refused_while_calls_with_the_broken_shape_are_untyped():
    led = ledger()
    led.add_hit(HitFact(
        "h7", "app/views.py", 9, 4, "rows = q.order_by(x).fetch_page(1, 20, False)", "code", "weak",
        "q.order_by.fetch_page: receiver of unknown type, called the way Query.fetch_page no longer allows",
    ))  # fmt: skip
    led.tag_hit("h7", "oldlib", "Query.fetch_page")
    conclusion = {"package": "oldlib", "verdict": "not_affected", "reason": "no use found"}
    with pytest.raises(
        Rejected, match=r"unknown type, or option keys passed to its calls: h7 app/views.py:9"
    ):
        check_conclusion(conclusion, update=MAJOR, ledger=led)
    other = ledger()  # the same weak hit of another package's search is not this one's concern
    other.add_hit(led.hits["h7"])
    other.tag_hit("h7", "otherlib", "Query.fetch_page")
    assert check_conclusion(conclusion, update=MAJOR, ledger=other).verdict == "not_affected"
    unknown = {**conclusion, "verdict": "unknown", "reason": "h7 may be a Query"}
    assert check_conclusion(unknown, update=MAJOR, ledger=led).verdict == "unknown"


def _noted(items: list[dict]) -> Ledger:
    led = covered([])
    summary = led.changelog("oldlib")
    led.record_changelog("oldlib", {**summary, "items": items,
                                    "candidates": [t for i in items for t in i["terms"]]})  # fmt: skip
    return led


ITEMS = [
    {"version": "3.0.0", "text": "`load()` requires `Loader`", "category": "breaking",
     "terms": ["oldlib.load"], "breaks": ["oldlib.load"]},
    {"version": "2.0.0", "text": "`dump_all` removed", "category": "breaking",
     "terms": ["oldlib.dump_all"], "breaks": ["oldlib.dump_all"]},
    {"version": "3.0.0", "text": "`check()` is stricter", "category": "breaking",
     "terms": ["oldlib.check"], "breaks": []},
]  # fmt: skip


def test_not_affected_needs_every_breaking_item_searched_not_only_one():
    led = _noted(ITEMS)
    led.record_search(SearchFact("search_symbol", "oldlib", "oldlib.load", 0))
    with pytest.raises(
        Rejected, match=r"2 breaking item\(s\).*never searched.*2.0.0: oldlib.dump_all"
    ):
        check_conclusion(CALM, update=BIG, ledger=led)
    led.record_search(SearchFact("search_symbol", "oldlib", "oldlib.dump_all", 0))
    led.record_search(SearchFact("search_symbol", "oldlib", "oldlib.check", 1))
    assert check_conclusion(CALM, update=BIG, ledger=led).verdict == "not_affected"


def test_not_affected_is_refused_while_an_item_announces_a_break_no_search_can_clear():
    announced = {"version": "3.0.0", "text": "Remove Tooltip legacy placement",
                 "category": "breaking", "terms": [], "unclearable": True}  # fmt: skip
    led = _noted([ITEMS[0], announced])
    led.record_search(SearchFact("search_symbol", "oldlib", "oldlib.load", 0))
    with pytest.raises(Rejected, match=r"1 breaking item\(s\).*announce a break no search can "
                       r"clear \(\u201cRemove Tooltip legacy placement\u201d\)"):  # fmt: skip
        check_conclusion(CALM, update=BIG, ledger=led)
    unknown = {**CALM, "verdict": "unknown", "reason": "the placement item is unread"}
    assert check_conclusion(unknown, update=BIG, ledger=led).verdict == "unknown"
    plain = _noted([ITEMS[0], {**announced, "unclearable": False}])
    plain.record_search(SearchFact("search_symbol", "oldlib", "oldlib.load", 0))
    assert check_conclusion(CALM, update=BIG, ledger=plain).verdict == "not_affected"


def _hit(led: Ledger, hid: str, symbol: str, evidence: str = "strong") -> None:
    led.add_hit(HitFact(hid, "app.py", 3, 1, "oldlib.dump_all(x)", "code", evidence, "",
                        "s1", "search_symbol", symbol))  # fmt: skip
    led.tag_hit(hid, "oldlib", symbol)


def test_not_affected_is_refused_while_a_strong_use_of_a_break_stands():
    led = _noted(ITEMS)
    for term in ("oldlib.load", "oldlib.dump_all", "oldlib.check"):
        led.record_search(SearchFact("search_symbol", "oldlib", term, 1))
    _hit(led, "h1", "oldlib.check")  # a behaviour change: a strong call is not yet a break
    _hit(led, "h2", "oldlib.load", "weak")
    assert check_conclusion(CALM, update=BIG, ledger=led).verdict == "not_affected"
    _hit(led, "h3", "oldlib.dump_all")
    with pytest.raises(Rejected, match=r"1 strong use\(s\) .* stand \(h3 app.py:3\)"):
        check_conclusion(CALM, update=BIG, ledger=led)


def test_notes_naming_no_break_do_not_vouch_for_names_a_diff_could_not_see():
    from depbot.apidiff.fates import Fate, Fates

    zero = Update("npm", "oldlib", "0.5.3", "0.6.0")
    led = Ledger()
    cov = {"needed": ["0.6.0"], "covered": ["0.6.0"], "missing": []}
    led.record_changelog("oldlib", {"found": True, "candidates": [], "coverage": cov, "items": []})
    blind = Fates((Fate("oldlib:use", "unresolved", "", "not exported", "app.js:3"),))
    led.record_api_diff("oldlib", had=False, fates=blind)
    with pytest.raises(Rejected, match="name no breaking change and api_diff could not see"):
        check_conclusion(CALM, update=zero, ledger=led)
    led.record_api_diff("oldlib", had=True, fates=Fates((Fate("oldlib:use", "present"),)))
    assert check_conclusion(CALM, update=zero, ledger=led).verdict == "not_affected"


def test_notes_naming_breaks_do_not_vouch_for_an_import_the_diff_could_not_find():
    from depbot.apidiff.fates import Fate, Fates

    led = _noted(ITEMS)
    for term in ("oldlib.load", "oldlib.dump_all", "oldlib.check"):
        led.record_search(SearchFact("search_symbol", "oldlib", term, 0))
    members = Fates((Fate("oldlib:default", "present"),
                     Fate("oldlib:default.level", "unresolved", "", "not found", "a.js:4")))  # fmt: skip
    led.record_api_diff("oldlib", had=False, fates=members)
    # a member of what the diff found: the notes' items are the accounting
    assert check_conclusion(CALM, update=BIG, ledger=led).verdict == "not_affected"
    imported = Fates((Fate("oldlib:default", "unresolved", "", "not found", "a.js:1"),))
    led.record_api_diff("oldlib", had=False, fates=imported)
    with pytest.raises(Rejected, match=r"could not see oldlib:default .* no breaking item"):
        check_conclusion(CALM, update=BIG, ledger=led)
    # an item that speaks of the name gives it a fate
    spoken = Fates((Fate("oldlib:dump_all", "unresolved", "", "not found", "a.js:1"),))
    led.record_api_diff("oldlib", had=False, fates=spoken)
    assert check_conclusion(CALM, update=BIG, ledger=led).verdict == "not_affected"


def test_a_package_nothing_reaches_needs_neither_its_notes_nor_a_clean_diff():
    from depbot.records.reach import Reach

    led = covered(["2.0.0"])
    with pytest.raises(Rejected, match="2.0.0"):
        check_conclusion(CALM, update=BIG, ledger=led)
    led.record_reach(BIG.package, Reach(unseen=("ui-kit 2.0.0: HTTP 500",)))
    with pytest.raises(Rejected, match="2.0.0"):  # not all looked at: no vouching
        check_conclusion(CALM, update=BIG, ledger=led)
    led.record_reach(BIG.package, Reach(looked=("no file imports it",)))
    assert check_conclusion(CALM, update=BIG, ledger=led).verdict == "not_affected"
