"""The conclusion the notes and the searches support, before the released code is weighed. Pure.

In order: a rejected conclusion is ``unknown``; notes that could not be read or were not
found leave only the semver promise; strong uses of what the notes say breaks make an
update ``affected``; otherwise it is ``unknown`` when the notes announce a break they do
not name, a search failed or calls have the broken shape on objects of unknown type, and
``not_affected`` with what was searched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from depbot.changelogs.items import REWRITE
from depbot.changelogs.trim import TRIMMED_MARK
from depbot.changelogs.wording import behaviour_change, issue_report
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
from depbot.planner.searches import unasked_note
from depbot.symbols.match import SHAPE_KINDS, WEAK_USE

# "[BREAKING CHANGE]", "BREAKING:", "(breaking)", "breaking change": a break said outright;
# "now requires React 18", "must now be wrapped in a <Provider>", "a plugin is now required":
# a requirement the code may not meet, which no name search can clear
_ANNOUNCED_BREAK = re.compile(
    r"\bBREAKING\b|\(breaking(?: change)?\)|\bbreaking changes?\b|\bbackwards?[- ]incompatible\b|"
    r"\bnow\s+(?:requires?|required|must|has\s+to|have\s+to|needs?\s+to)\b|"
    r"\b(?:is|are)\s+now\s+(?:required|mandatory)\b|\bmust\s+now\b|" + REWRITE,
    re.I,
)
# "breaking:", "**Removed:**": a heading the notes wrote as a list item, not an item
_LABEL = re.compile(r"[\W_]*[\w -]{1,30}:[\W_]*")
# "Please note the breaking changes detailed below", "What's changed in X 2.0, including
# breaking changes": words about the items that follow (and are read), not an item
_POINTS_BELOW = re.compile(
    r"\b(?:detailed|listed|described|explained)\s+below\b|^\W*what'?s\s+(?:changed|new)\b"
    r"|^\W*this\s+(?:release|version)\s+(?:contains|includes|has|introduces)\s+"
    r"(?:some\s+|several\s+|a\s+few\s+)?(?:(?:significant|major|notable)\s+(?:or|and|/)\s+)?"
    r"breaking\s+changes\W*$"  # "This release contains significant or breaking changes."
    r"|^\W*this\s+(?:page|document|guide|section|file)\s+(?:lists|describes|covers|documents|"
    r"explains|summari[sz]es)\b"
    # "most of the \"breaking\" changes should not have an actual effect": the items as a group
    r"|\b(?:most|many|all|none|some)\s+of\s+(?:the|these|those)\s+\W{0,2}breaking\W{0,2}\s+changes\b"
    r"|[\"\u201c']breaking[\"\u201d']"  # the word in quotes: talk about it, not a break
    r"|\bcode\s?mods?\b",  # a note on the codemod that migrates the breaks, not one of them
    re.I,
)
# "We've gone 4 years without any breaking changes", "does not mention breaking changes":
# "non-breaking change": the words deny a break; they announce none
_NO_BREAKS = re.compile(
    r"\bnon-?breaking\b|"
    r"\b(?:without|no|never|not\s+mention|does\s+not\s+mention|doesn't\s+mention)\s+"
    r"(?:any\s+)?breaking\s+changes?\b|"
    r"\b(?:is|are|was|were)(?:\s+not|n't)\s+(?:an?\s+)?(?:actual\s+)?breaking(?:\s+changes?)?\b",
    re.I,
)
# "the ones earlier in the chain that would no longer apply": a hypothesis (why a change was
# made, what would happen otherwise), not what the release does
_HYPOTHETICAL = re.compile(r"\b(?:would|could|might)\s+(?:not\s+)?(?:no\s+longer|now)\s+\w+", re.I)
_GENERIC_BREAKS = re.compile(
    r"\b(?:(?:some|a\s+few|several|a\s+number\s+of|the\s+following|these|few)\s+)?"
    r"(?:potentially\s+)?breaking\s+changes?\b",
    re.I,
)
# "Removed: 76 rules deprecated in 15.0.0", "dropped support for processors": things the code
# may use are gone, and the item does not say which; a fix that removes something is no break
_REMOVED_UNNAMED = re.compile(
    r"(?<!the )(?<!any )\b(?:remov(?:e|ed|es|al\s+of)|dropp?(?:ed|s)?|delet(?:e|ed|es))\b[^.;]{0,40}?"
    r"\b(?:rules?|options?|methods?|functions?|apis?|propert(?:y|ies)|exports?|class(?:es)?|"
    r"components?|commands?|flags?|arguments?|parameters?|hooks?|events?|aliases?|helpers?|"
    r"settings?|support\s+for(?!\s+(?:python|node|nodejs|node\.js|ie\b|internet|older|old|"
    r"legacy\s+(?:browsers|node|python)|browsers|java|ruby|php|deno|bun|pypy|cpython|windows|"
    r"macos|linux|v?\d)))\b",
    re.I,
)
# "Remove Tooltip legacy placement", "Removed the old sizing": an item that leads with a
# removal but names nothing to search for. What it removed may be something the code uses, so
# it is a break no search cleared; removals of the package's own housekeeping are not
_REMOVAL_LEAD = re.compile(
    r"^\W*(?:\[[^\]]{1,30}\]\s*|[\w-]{1,20}(?:\([^)]{0,30}\))?!?:\s*)?"  # "[Button] ", "feat(x): "
    r"(?:remov(?:e|ed|es)|drop(?:ped|s)?|delet(?:e|ed|es))\s",
    re.I,
)
# "`global` was removed from the defaults namespace", "`x` is no longer exported": the
# subject is code; "Named groups are no longer available by position" says how, not what
_REMOVED_AFTER = re.compile(
    r"`[^`]+`\W{0,3}\s+(?:\w+\s+){0,3}?(?:was|were|is|are|been|has\s+been|have\s+been)\s+"
    r"(?:now\s+)?(?:removed|dropped|deleted)\b"
    r"|`[^`]+`\W{0,3}\s+(?:is|are)\s+no\s+longer\s+(?:re-?exported|exported|available|provided)\b"
    r"|\bno\s+longer\s+(?:re-?exports?|exports?)\b",
    re.I,
)
# what a package removes from itself: its dependencies, files, builds, warnings, dead code;
# "previously deprecated code", "deprecations for 10.0" have the released code's diff to
# account for them (``wants_api``); "error stubs" only threw
_HOUSEKEEPING = re.compile(
    r"^\W*(?:perf|pref|build|ci|style|deps?|meta|readme|lint|chore|refactor|tests?|docs?)\b|\bdependenc|\bdeps\b|\bdevdep|\btarball\b|"
    r"\bfiles?\s+from\b|\bfrom\s+(?:the\s+)?(?:package|bundle|npm|published|dist)\b|\bbuilds?\b|"
    r"\bwarnings?\b|\busage\b|\b(?:remov|dropp?|delet)\w*\s+(?:\w+\s+){0,2}?"
    r"(?:temporary|unused|unnecessary|redundant|extraneous)\b|\bdead\s+code\b|\bdeprecated\s+code\b|\bdeprecations\b|\berror\s+stubs?\b|\btests?\b|\bdocs?\b|\bdocumentation\b|"
    r"\bcomments?\b|\btypos?\b|\blog(?:s|ging)?\b|\bconsole\b|\bduplicat|\binternal(?:ly)?\b|"
    r"\bpolyfills?\b|\bsupport\s+for\b|\b(?:node|nodejs|python|ie)\s*v?\d",
    re.I,
)
_A_FIX = re.compile(
    r"^\W*(?:fix(?:ed|es)?|bug\s*fix(?:es)?|docs?|chore|refactor|perf|test)\b", re.I
)
_EMPHASIS = re.compile(r"(?<![A-Za-z0-9])[*_]+|[*_]+(?![A-Za-z0-9])")  # markdown emphasis
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
        return _nothing_to_search(st.update, cl)
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
    announced = unnamed_breaks(cl)
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


def unnamed_breaks(cl: Changelog) -> list[str]:
    """The breaking items of an update that may break (coverage needed) that announce a break
    or a change of behaviour without naming an API to search for: no search can clear them."""
    if not (cl.coverage and cl.coverage.needed):
        return []
    entries = list(cl.breaking)
    out = []
    for i, e in enumerate(entries):
        t = " ".join(unfence(e.item).split())
        plain = _EMPHASIS.sub("", t)  # "**this is _not_ a breaking change**"
        if cl.breaking_lines_cut and TRIMMED_MARK.search(t):  # breaking lines cut to fit the
            out.append(t)  # budget: what they said was never read, so no search cleared it
            continue
        if (
            e.candidates
            or _LABEL.fullmatch(t)
            or _POINTS_BELOW.search(plain)
            or issue_report(t)
            or _leads_in(e, plain, entries[i + 1 : i + 2])
        ):
            continue
        rest = _HYPOTHETICAL.sub("", _NO_BREAKS.sub("", plain))
        if _ANNOUNCED_BREAK.search(rest) or behaviour_change(rest) or _removes_unnamed(rest):
            out.append(t)
    return out


def _removes_unnamed(text: str) -> bool:
    """The item says a kind of thing the code may use was removed, without names."""
    if _A_FIX.search(text):
        return False
    if _REMOVED_UNNAMED.search(text):
        return True
    # a removal ("Remove deprecated `.extend` API", "`global` was removed from the defaults")
    # whose reading gave no search: what it names may be used here, and nothing looked
    said = _REMOVAL_LEAD.search(text) or _REMOVED_AFTER.search(text)
    return bool(said) and not _HOUSEKEEPING.search(text)


def _leads_in(e: Entry, plain: str, after: list[Entry]) -> bool:
    """Whether an item is a lead-in ("This change does include some breaking changes, but
    …:") to the items read right after it in the same section: they are the breaks it
    announces. With nothing read after it, it stays an item (the list may be lost)."""
    if not (plain.rstrip().endswith(":") and after and after[0].ref == e.ref):
        return False
    rest = _GENERIC_BREAKS.sub("", plain)  # what it says beyond "some breaking changes"
    return not (_ANNOUNCED_BREAK.search(rest) or behaviour_change(rest))


def _nothing_to_search(u: UpdateEntry, cl: Changelog) -> Conclusion:
    frm, to, n_breaking = u.frm, u.to, len(cl.breaking)
    announced = unnamed_breaks(cl)
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
    return Conclusion(u.package, "not_affected", reason)


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
    """A candidate as the reason names it: ``useQuery().remove`` for a returned member."""
    return f"{c.symbol}().{c.arg}" if c.kind == "returned_member" and c.arg else c.symbol


def _searched(st: State, t: _Tally) -> Conclusion:
    """``not_affected``, with what was searched, what was set aside and what is to verify."""
    u = st.update
    asked = {s.symbol for s in st.searches}
    named = list(dict.fromkeys(_shown(c) for c, _ in t.cands if c.symbol in asked))
    unasked = len({c.symbol for c, _ in t.cands} - asked)
    searched = ", ".join(f"`{n}`" for n in named[:8]) + (" …" if len(named) > 8 else "")
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
