"""The accounting of an update, read off a ledger: basis, items' dispositions, names' fates."""

from __future__ import annotations

from depbot.agent.accounting import account
from depbot.agent.ledger import Ledger, SearchFact
from depbot.apidiff.fates import Fate, Fates
from depbot.records.update import Update
from depbot.records.verdict import Verdict

LIB = Update("pip", "Lib", "1.4.0", "2.0.0")


def _notes(ledger: Ledger, items: list[dict]) -> None:
    ledger.record_changelog("Lib", {"found": True, "items": items, "candidates": []})


def test_each_item_searched_set_aside_announced_or_left_open():
    ledger = Ledger()
    _notes(ledger, [
        {"version": "2.0.0", "text": "`load()` now requires `Loader`", "category": "breaking",
         "terms": ["lib.load"]},
        {"version": "2.0.0", "text": "Python 3.7 is no longer supported", "category": "runtime",
         "terms": []},
        {"version": "1.9.0", "text": "`dump_all` was removed", "category": "breaking",
         "terms": ["lib.dump_all"]},
        {"version": "2.0.0", "text": "floats resolve differently", "category": "breaking",
         "terms": []},
        {"version": "2.0.0", "text": "[**closed**] Lib breaking with strict mode #170",
         "category": "breaking", "terms": []},
        {"version": "2.0.0", "text": "Remove legacy placement", "category": "breaking",
         "terms": [], "unclearable": True},
    ])  # fmt: skip
    ledger.record_search(SearchFact("search_symbol", "lib", "lib.load", 3))
    ledger.record_search(SearchFact("search_code", "", "unrelated", 9))
    got = account(LIB, ledger)
    assert got.basis == "notes"
    assert [(i.disposition, i.hits, i.why) for i in got.items] == [
        ("searched", 3, ""),
        ("no-api", 0, "runtime support or build change"),
        ("not-searched", 0, ""),
        ("no-api", 0, "names no API this code could call"),
        ("no-api", 0, "a closed issue's title: a report"),
        ("announced", 0, "announces a break no search can clear: read it against this code"),
    ]
    assert [i.text for i in got.open_items] == ["`dump_all` was removed"]
    assert [i.text for i in got.announced] == ["Remove legacy placement"]
    assert got.items_line() == (
        "6 breaking item(s): 1 searched, 3 no-api, 1 announced, 1 not-searched"
    )


def test_a_package_not_imported_disposes_of_every_named_item():
    ledger = Ledger()
    _notes(ledger, [{"version": "2.0.0", "text": "x gone", "category": "breaking",
                     "terms": ["lib.x"]}])  # fmt: skip
    ledger.record_search(SearchFact("where_imported", "lib", "Lib", 0))
    item = account(LIB, ledger).items[0]
    assert (item.disposition, item.why) == ("searched", "the package is not imported anywhere")


def test_a_package_named_by_string_keeps_its_hits_though_imported_nowhere():
    # a webpack loader is never imported: its options beside `loader: 'lib'` are the hits
    ledger = Ledger()
    _notes(ledger, [{"version": "2.0.0", "text": "the `prefix` option moved", "category": "breaking",
                     "terms": ["prefix"]}])  # fmt: skip
    ledger.record_search(SearchFact("where_imported", "lib", "Lib", 0))
    ledger.record_search(SearchFact("search_symbol", "lib", "prefix", 2))
    item = account(LIB, ledger).items[0]
    assert (item.disposition, item.hits, item.why) == ("searched", 2, "")


def test_basis_names_and_refusals_reach_the_report_and_the_journal():
    ledger = Ledger()
    fates = Fates((Fate("lib.load", "changed", "lib.load", "param", "a.py:3"),
                   Fate("lib.magic", "unresolved", "", "not in the old release", "a.py:4")))  # fmt: skip
    ledger.record_api_diff("Lib", had=False, fates=fates)
    ledger.refuse("Lib", "not_affected: the notes say what breaks")
    got = account(LIB, ledger)
    assert (got.basis, got.names_line()) == ("api-diff", "1 of 2 used name(s) resolved")
    verdict = Verdict(LIB, "unknown", "the diff cannot see lib.magic", accounting=got)
    entry = verdict.to_report()
    assert entry["basis"] == "api-diff"
    assert entry["accounting"]["names_resolved"] == 1
    assert entry["accounting"]["refused"] == ["not_affected: the notes say what breaks"]
    again = Verdict.from_journal(verdict.to_journal())
    assert again.accounting == got
    assert Verdict(LIB, "unknown", "r").to_report()["basis"] == "none"


def test_an_item_naming_a_family_is_searched_by_a_search_for_one_of_its_members():
    ledger = Ledger()
    _notes(ledger, [{"version": "2.0.0", "text": "removed `legacy*` functions",
                     "category": "breaking", "terms": ["legacy*"]}])  # fmt: skip
    ledger.record_search(SearchFact("search_symbol", "lib", "legacyParse", 1))
    assert [i.disposition for i in account(LIB, ledger).items] == ["searched"]


def test_a_package_nothing_reaches_disposes_of_what_no_search_settled():
    from depbot.records.reach import Reach

    ledger = Ledger()
    _notes(ledger, [{"version": "2.0.0", "text": "now throws on bad input", "category": "breaking"},
                    {"version": "2.0.0", "text": "x gone", "category": "breaking",
                     "terms": ["lib.x"]}])  # fmt: skip
    ledger.record_reach("Lib", Reach(unseen=("ui-kit 2.0.0: HTTP 500",)))
    assert [i.why for i in account(LIB, ledger).items] == ["names no API this code could call", ""]
    ledger.record_reach("Lib", Reach(looked=("no file imports Lib",)))
    acc = account(LIB, ledger)
    assert all("nothing in this checkout reaches the package" in i.why for i in acc.items)
    assert acc.to_report()["reach"]["unreached"] is True


def test_an_item_about_the_module_format_is_compared_only_by_a_clean_whole_api_diff():
    from depbot.agent.ledger import ApiFact

    npm = Update("npm", "numkit", "2.4.0", "3.0.0")
    ledger = Ledger()
    ledger.record_changelog("numkit", {"found": True, "candidates": [], "items": [
        {"version": "3.0.0", "text": "Remove subpath exports from package.json",
         "category": "breaking", "terms": [], "unclearable": True},
        {"version": "3.0.0", "text": "Remove legacy placement", "category": "breaking",
         "terms": [], "unclearable": True},
    ]})  # fmt: skip
    assert [i.disposition for i in account(npm, ledger).items] == ["announced", "announced"]
    ledger.record_api_diff("numkit", had=False)  # not compared whole: still announced
    assert [i.disposition for i in account(npm, ledger).items] == ["announced", "announced"]
    ledger.record_api_diff("numkit", had=True)
    got = account(npm, ledger)
    assert [i.disposition for i in got.items] == ["compared", "announced"]
    assert [i.text for i in got.announced] == ["Remove legacy placement"]
    # a strong use of a change the diff shows: the comparison no longer clears the item
    ledger.add_api_finding(ApiFact("a1", "numkit", "3.0.0", "subpath_closed", "numkit/x", "",
                                   "", "", ("numkit/x",), ("h1",), "strong"))  # fmt: skip
    assert [i.disposition for i in account(npm, ledger).items] == ["announced", "announced"]
