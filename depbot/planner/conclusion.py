"""The conclusion the notes and the searches support, before the released code is weighed. Pure.

In order: a rejected conclusion is ``unknown``; notes that could not be read or were not
found leave only the semver promise; strong uses of what the notes say breaks make an
update ``affected``; otherwise it is ``unknown`` when the notes announce a break they do
not name, a search failed or calls have the broken shape on objects of unknown type, and
``not_affected`` with what was searched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from depbot.changelogs.wording import issue_report
from depbot.core.fence import unfence
from depbot.planner.notes import (
    deprecated,
    describe,
    fix,
    found_candidates,
    spread,
    symbols,
    verify_note,
    verify_only,
)
from depbot.planner.records import (
    JSON,
    MAX_HITS_CITED,
    Candidate,
    Change,
    Changelog,
    CodeHit,
    Conclusion,
    Entry,
    Pair,
    Search,
    SearchResult,
    State,
    UpdateEntry,
)
from depbot.planner.released import clean_diff
from depbot.planner.searches import unasked_note
from depbot.planner.unnamed import module_format_item, unnamed_breaks
from depbot.symbols.match import SHAPE_KINDS, WEAK_USE

_SHIM_WORDS = re.compile(r"compatibility|version check|feature check", re.I)


def notes_conclusion(st: State) -> Conclusion:
    """What the notes and the searches of one update conclude."""
    if st.rejections:
        return Conclusion(st.update.package, "unknown",
                          f"not settled: {st.rejections[-1][:300]}")  # fmt: skip
    cl = st.changelog
    if cl is None:
        return _unread(st.update, st.fetch_errors[-1] if st.fetch_errors else "no result")
    if not cl.found:
        return _not_found(st.update, (cl.note or "no release notes in range")[:300])
    tally = _tally(st, cl)
    if tally.hits:
        return _affected(st.update, cl, tally)
    if not tally.cands:
        return _nothing_to_search(st, cl)
    failed = [
        (s.symbol, s.result.error)
        for s in st.searches
        if s.result is not None and s.result.error is not None and s.args in tally.main_args
    ]
    if failed:  # a search that did not answer is not a search that found nothing
        return _search_failed(st.update, failed)
    if tally.shaped:  # calls made the way the notes say breaks, on objects of unknown type
        return _untyped_calls(st.update, tally.shaped)
    searched = _searched(st, tally)
    announced, shape = _announced(st, cl)
    if shape:
        searched = replace(searched, reason=f"{searched.reason}; {shape}"[:600])
    if announced:  # the names searched are not all it breaks: no search can clear the rest
        first = announced[0][:200]
        return Conclusion(st.update.package, "unknown",
                          f"{searched.reason}; but {len(announced)} more breaking item(s) name no "
                          f"API to search for (\u201c{first}\u201d): whether this code is "
                          "affected by them is not known; read them against your code")  # fmt: skip
    return searched


# --- no notes: the semver promise ------------------------------------------------------------


def _why_not_promised(u: UpdateEntry) -> str:
    return "may break" if u.may_break else "is not covered by the semver promise"


def _unread(u: UpdateEntry, err: str) -> Conclusion:
    if not u.promised:
        return Conclusion(u.package, "unknown",
                          f"{u.update_type} update {u.frm} → {u.to} {_why_not_promised(u)} and its "
                          f"changelog could not be read: {err[:300]}")  # fmt: skip
    return Conclusion(u.package, "not_affected",
                      f"{u.update_type} update of a stable version; its notes could not be read "
                      f"({err[:200]}), and semver promises compatibility")  # fmt: skip


def _not_found(u: UpdateEntry, note: str) -> Conclusion:
    if not u.promised:
        return Conclusion(u.package, "unknown",
                          f"{u.update_type} update {u.frm} → {u.to} {_why_not_promised(u)}, but no "
                          f"release notes were found for it: {note}")  # fmt: skip
    return Conclusion(u.package, "not_affected",
                      f"{u.update_type} update of a stable version with no release notes found "
                      f"({note}); semver promises compatibility")  # fmt: skip


# --- what the searches found -----------------------------------------------------------------


@dataclass
class _Tally:
    """The searches of one update read against the candidates of its notes."""

    cands: list[Pair]  # the notes' candidates, wildcards expanded
    main_args: list[JSON]  # the search arguments of each candidate
    kept: list[Pair]  # deprecated names that still work: "also deprecated", never affected
    hits: list[str] = field(default_factory=list)  # the ids cited
    hit_cands: list[Pair] = field(default_factory=list)  # the candidates of those hits
    paths: dict[str, str] = field(default_factory=dict)  # hit id → file
    also: list[tuple[Candidate, Entry, list[str]]] = field(default_factory=list)
    verify: list[tuple[Candidate, Entry, int]] = field(default_factory=list)  # calls to verify
    shaped: list[CodeHit] = field(default_factory=list)  # weak hits with the broken call shape
    excluded: int = 0  # matches set aside (comments, strings, unrelated code)
    shims: dict[str, int] = field(default_factory=dict)  # compatibility shims set aside, by why


def _a_use(hit: CodeHit, args: JSON) -> bool:
    """A strong hit in code; for a configuration key, also in a string: settings are set
    by name (``conf['KEY'] = ...``), so the string is the use."""
    if hit.evidence != "strong":
        return False
    return hit.context == "code" or (hit.context == "string" and args.get("kind") == "config_key")


def _tally(st: State, cl: Changelog) -> _Tally:
    package = st.update.package
    cands = found_candidates(st)
    main_args = [c.search_args(package) for c, _ in cands]
    kept = [(c, e) for c, e in deprecated(cl) if c.search_args(package) not in main_args]
    t = _Tally(cands, main_args, kept)
    for search in st.searches:
        res = search.result or SearchResult()
        strong = [h for h in res.hits if _a_use(h, search.args)]
        for h in strong:
            t.paths[h.id] = h.path
        if search.args in main_args:
            _count(t, search, res, strong, package)
        else:  # a deprecated name: never a reason to be affected
            dep = next((ce for ce in kept if ce[0].search_args(package) == search.args), None)
            if dep is not None and strong:
                t.also.append((*dep, [h.id for h in strong]))
    return t


def _count(
    t: _Tally, search: Search, res: SearchResult, strong: list[CodeHit], package: str
) -> None:
    """One search of a candidate: its strong uses, the calls of the broken shape on objects
    of unknown type (weak hits of a call-shape search), what it set aside."""
    weak_shaped = [
        h for h in res.hits if h.evidence == "weak" and h.context == "code"
        and (search.kind in SHAPE_KINDS or WEAK_USE in h.why)
    ]  # fmt: skip
    t.shaped.extend(weak_shaped)
    t.excluded += len(res.hits) - len(strong) + sum(res.excluded.values())
    for why, n in res.excluded.items():
        if _SHIM_WORDS.search(why):
            t.shims[why] = t.shims.get(why, 0) + int(n or 0)
    if not strong:
        return
    pairs = [(c, e) for c, e in t.cands if c.search_args(package) == search.args]
    if pairs and all(verify_only(c, e) for c, e in pairs):
        t.verify.append((*pairs[0], len(strong)))  # a weak "verify", never affected alone
        return
    for h in strong:
        if h.id not in t.hits:
            t.hits.append(h.id)
    for h in weak_shaped:  # cited too, for the reviewer to check
        if h.id not in t.hits:
            t.paths[h.id] = h.path
            t.hits.append(h.id)
    if pairs:
        t.hit_cands.append(pairs[0])


# --- affected --------------------------------------------------------------------------------


def _affected(u: UpdateEntry, cl: Changelog, t: _Tally) -> Conclusion:
    package, to = u.package, u.to
    changes = [c for cand, entry in t.hit_cands for c in _changes(cand, entry, cl, u)]
    what = "; ".join(dict.fromkeys(_removed(c, e, u) for c, e in t.hit_cands[:3]))
    more = f" (and {len(t.hit_cands) - 3} more)" if len(t.hit_cands) > 3 else ""
    n_main = len(t.hits)
    absent = all(c.kind == "required_use" for c, _e in t.hit_cands)  # a use lacking a name
    relies = f"uses {package} without it" if absent else "relies on it"
    hits = list(t.hits)
    for cand, entry, ids in t.also:
        changes.append(Change(f"Also deprecated (still works in {to}): `{cand.symbol}`, "
                              f"deprecated in {entry.version_or(to)}",
                              symbols(cand, package), entry.ref))  # fmt: skip
        hits.extend(i for i in ids if i not in hits)
    return Conclusion(
        package,
        "affected",
        f"{what}{more}; this code {relies} in {n_main} place{'s' if n_main != 1 else ''}.",
        tuple(changes[:20]),
        tuple(spread(hits, t.paths, MAX_HITS_CITED)),
        fix(t.hit_cands, package, to),
    )


def _removed(cand: Candidate, entry: Entry, u: UpdateEntry) -> str:
    """What changed of a candidate this code uses, for the reason."""
    if entry.from_deprecation:
        return f"`{cand.symbol}` (deprecated in {entry.version}) was removed"
    return describe(cand, u.package, entry.version_or(u.to), entry)


def _changes(cand: Candidate, entry: Entry, cl: Changelog, u: UpdateEntry) -> list[Change]:
    """The breaking changes a used candidate names: for an old deprecation now removed, the
    removal (when the notes say so) and the deprecation."""
    refs = [entry.ref]
    if entry.from_deprecation:
        removal = next(
            (b.ref for b in cl.breaking if re.search(r"deprecat", unfence(b.item), re.I)), None
        )
        refs = [removal, entry.ref] if removal else refs
    return [Change(_summary(cand, entry, ref, u), symbols(cand, u.package), ref) for ref in refs]


def _summary(cand: Candidate, entry: Entry, ref: str, u: UpdateEntry) -> str:
    if not entry.from_deprecation:
        return describe(cand, u.package, entry.version_or(u.to), entry)
    if ref == entry.ref:
        return f"`{cand.symbol}` was deprecated in {entry.version}"
    return f"{u.package} {u.to} removes previously deprecated code, `{cand.symbol}` among it"


# --- not affected, or not known --------------------------------------------------------------


def _announced(st: State, cl: Changelog) -> tuple[list[str], str]:
    """The items no search can clear, and what the released code's comparison says of those
    it accounts for: items about the package's module format or entry points, when both
    releases were compared whole, every name this code imports was found, and no break the
    comparison shows is used here ("" when none)."""
    announced = unnamed_breaks(cl)
    api = st.api
    if api is None or not clean_diff(api) or api.names_resolved != api.names_total:
        return announced, ""
    shaped = [a for a in announced if module_format_item(a)]
    if not shaped:
        return announced, ""
    said = (f"{len(shaped)} breaking item(s) change its module format or entry points "
            f"(\u201c{shaped[0][:120]}\u201d): the released code of both versions was compared "
            f"and every module this code imports from it is in {st.update.to}")  # fmt: skip
    return [a for a in announced if not module_format_item(a)], said


def _nothing_to_search(st: State, cl: Changelog) -> Conclusion:
    u = st.update
    frm, to, n_breaking = u.frm, u.to, len(cl.breaking)
    announced, shape = _announced(st, cl)
    if announced:
        # an update that may break, whose notes announce a break (or a change of behaviour)
        # without naming what it breaks: that is not a fact that this code is safe
        first = announced[0][:200]
        return Conclusion(u.package, "unknown",
                          f"the notes {frm} → {to} list {n_breaking} breaking item(s) that name "
                          f"no API to search for (\u201c{first}\u201d): whether this code is "
                          "affected is not known from them; read them against your calls")  # fmt: skip
    if n_breaking:
        reports = sum(issue_report(unfence(e.item)) for e in cl.breaking if not e.candidates)
        kinds = (
            f"{reports} of them closed issues' titles" if reports else "runtime or build changes"
        )
        reason = (f"the notes {frm} → {to} list {n_breaking} breaking item(s), none naming an API "
                  f"this code could call or announcing a break ({kinds}); nothing to search")  # fmt: skip
    else:
        reason = f"no breaking changes in the release notes between {frm} and {to}"
    if shape:  # the items left are runtime or build changes, or reports
        reason = (f"the notes {frm} → {to} list {n_breaking} breaking item(s), none naming an API "
                  f"this code could call; {shape}")  # fmt: skip
    return Conclusion(u.package, "not_affected", reason[:600])


def _search_failed(u: UpdateEntry, failed: list[tuple[str, str]]) -> Conclusion:
    """``failed``: (symbol, error) of each search that did not answer."""
    what = ", ".join(f"`{symbol}`" for symbol, _ in failed[:4])
    err = unfence(failed[0][1])[:160]
    return Conclusion(u.package, "unknown",
                      f"the search for {what} failed ({err}): whether this code uses what "
                      f"{u.frm} → {u.to} breaks is not known")  # fmt: skip


def _untyped_calls(u: UpdateEntry, shaped: list[CodeHit]) -> Conclusion:
    where = ", ".join(f"{h.path}:{h.line}" for h in shaped[:4])
    why = unfence(shaped[0].why)[:200]
    if WEAK_USE in why:
        return Conclusion(u.package, "unknown",
                          f"{len(shaped)} place(s) in this code may use what {u.frm} → {u.to} "
                          f"breaks ({where}: {why}); whether they do is not known; check them")  # fmt: skip
    return Conclusion(u.package, "unknown",
                      f"{len(shaped)} call(s) in this code have the shape {u.frm} → {u.to} breaks, "
                      f"on objects whose type the code does not say ({where}: {why}): whether "
                      f"they are {u.package}'s is not known; check them")  # fmt: skip


def _shown(c: Candidate) -> str:
    """A candidate as the reason names it, in code quotes: `` `useQuery().remove` `` for a
    returned member; in words, the options given the package when its options were reshaped."""
    if c.kind == "options_given":
        return f"the options given {c.symbol}"
    return f"`{c.symbol}().{c.arg}`" if c.kind == "returned_member" and c.arg else f"`{c.symbol}`"


def _searched(st: State, t: _Tally) -> Conclusion:
    """``not_affected``, with what was searched, what was set aside and what is to verify."""
    u = st.update
    asked = {s.symbol for s in st.searches}
    named = list(dict.fromkeys(_shown(c) for c, _ in t.cands if c.symbol in asked))
    unasked = len({c.symbol for c, _ in t.cands} - asked)
    searched = ", ".join(named[:8]) + (" …" if len(named) > 8 else "")
    extra = (
        f"; {t.excluded} match(es) only in comments, strings or unrelated code were set aside"
        + "".join(f" ({n} {unfence(why)[:120]})" for why, n in list(t.shims.items())[:3])
        if t.excluded
        else ""
    )
    return Conclusion(
        u.package,
        "not_affected",
        f"searched for what {u.frm} → {u.to} breaks ({searched}): no use in this code{extra}"
        + (unasked_note(unasked, st.code) if unasked else "")
        + "".join(verify_note(c, e, n) for c, e, n in t.verify[:3]),
    )
