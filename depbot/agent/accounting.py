"""The accounting of one update, read off the ledger: basis, items, used names. Pure.

- basis: ``notes`` when release notes were read for it, ``api-diff`` when its two released
  artifacts were compared, both, or ``none``;
- each breaking (and runtime) item of the notes read: ``searched`` (a search looked for one of
  the terms it names; the hits it got), ``no-api`` (it names nothing this code can call:
  runtime support, build changes), ``announced`` (it announces a break, a change of behaviour
  or a removal, naming nothing to search for: no search clears it), ``compared`` (it changes
  the package's module format or entry points, and the released code's diff, clean and whole,
  looked at them) or ``not-searched``;
- each name the code takes from the package, with its fate in the new release (from the diff);
- the conclusions integrity refused for it;
- the source files too big for any search that may use it (they leave it ``unknown``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from depbot.agent.ledger import Ledger, SearchFact
from depbot.changelogs.wording import issue_report
from depbot.planner.unnamed import module_format_item
from depbot.records.accounting import Accounting, ItemAccount, NameAccount
from depbot.records.update import Update

_IDENT = "A-Za-z0-9_$"
# an item that announces a break, a change of behaviour or a removal without a name to search
UNCLEARABLE = "announces a break no search can clear: read it against this code"
# an item about the package's module format or entry points, which a clean diff read whole
COMPARED = ("changes the module format or entry points: both releases' code was compared, "
            "every module this code imports found, and no use of a change it shows")  # fmt: skip


def leaves(symbol: str) -> set[str]:
    """The names a symbol appears under in code: itself and its last component."""
    s = str(symbol).strip().strip("`'\"()[] ")
    return {x for x in (s, re.split(r"[./:#]", s)[-1]) if len(x) >= 2}


def names_in(text: str, names: set[str]) -> bool:
    """Whether ``text`` holds one of ``names`` as a whole identifier (``safe*``: any
    identifier with that prefix, as "removed `safe*` functions" names a family)."""
    return any(
        re.search(rf"(?<![{_IDENT}]){re.escape(n[:-1])}[{_IDENT}]*(?![{_IDENT}])", text)
        if n.endswith("*") and len(n) > 3
        else re.search(rf"(?<![{_IDENT}]){re.escape(n)}(?![{_IDENT}])", text)
        for n in names
    )


def searches_for_terms(terms: list[str], searches: list[SearchFact]) -> list[SearchFact]:
    """The searches that looked for one of ``terms`` (by any of the names it appears under)."""
    wanted = set().union(*(leaves(t) for t in terms)) if terms else set()
    return [
        s
        for s in searches
        if s.tool != "where_imported" and (leaves(s.text) & wanted or names_in(s.text, wanted))
    ]


def _basis(pkg: str, ledger: Ledger) -> str:
    notes = bool((ledger.changelog(pkg) or {}).get("found"))
    diff = pkg in ledger.api_fates
    return {(True, True): "notes+api-diff", (True, False): "notes",
            (False, True): "api-diff"}.get((notes, diff), "none")  # fmt: skip


def not_imported(pkg: str, searches: list[SearchFact]) -> bool:
    """Whether a ``where_imported`` search found ``pkg`` imported nowhere."""
    return any(s.tool == "where_imported" and s.package == pkg and s.hits == 0 for s in searches)


def _unreached(item: ItemAccount) -> ItemAccount:
    """An item no search settled, disposed of by ``who_loads``: nothing here reaches it."""
    if item.disposition == "searched":
        return item
    why = "; ".join(w for w in (item.why, "nothing in this checkout reaches the package") if w)
    return replace(item, why=why)


def clean_api_diff(pkg: str, ledger: Ledger) -> bool:
    """Both releases' code was compared for ``pkg`` whole (every used name found in the old
    release) and no strong use-checked finding came up."""
    if not ledger.api_checked.get(pkg):
        return False
    return not any(
        f.package == pkg and f.strength == "strong" for f in ledger.api_findings.values()
    )


def _item(entry: dict, searches: list[SearchFact], absent: bool, compared: bool) -> ItemAccount:
    version, text = str(entry.get("version", "")), str(entry.get("text", ""))
    terms = [str(t) for t in entry.get("terms", [])]
    if entry.get("category") == "runtime":
        return ItemAccount(version, text, "no-api", (), why="runtime support or build change")
    if entry.get("unclearable") and compared and module_format_item(text):
        return ItemAccount(version, text, "compared", (), why=COMPARED)
    if entry.get("unclearable"):
        return ItemAccount(version, text, "announced", (), why=UNCLEARABLE)
    if not terms:
        why = (
            "a closed issue's title: a report"
            if issue_report(text)
            else "names no API this code could call"
        )
        return ItemAccount(version, text, "no-api", (), why=why)
    found = searches_for_terms(terms, searches)
    if absent and not found:
        return ItemAccount(version, text, "searched", tuple(terms), 0,
                           why="the package is not imported anywhere")  # fmt: skip
    if not found:
        return ItemAccount(version, text, "not-searched", tuple(terms))
    return ItemAccount(version, text, "searched", tuple(terms), sum(s.hits for s in found))


def account(update: Update, ledger: Ledger) -> Accounting:
    pkg = update.package.lower()
    searches = ledger.searches_for(pkg)
    absent = not_imported(pkg, searches)
    entries = (ledger.changelog(pkg) or {}).get("items") or []
    compared = clean_api_diff(pkg, ledger)
    items = tuple(_item(e, searches, absent, compared) for e in entries)
    reach = ledger.reach.get(pkg)
    if reach is not None and reach.unreached:  # who_loads: no item can meet this code
        items = tuple(_unreached(i) for i in items)
    fates = ledger.api_fates.get(pkg)
    names = tuple(
        NameAccount(f.name, f.fate, f.detail[:200], f.place) for f in (fates.fates if fates else ())
    )
    return Accounting(
        _basis(pkg, ledger),
        items,
        names,
        tuple(ledger.refused.get(pkg, ())),
        ledger.unsearched.get(pkg, ()),
        ledger.reach.get(pkg),
    )
