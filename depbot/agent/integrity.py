"""Outcome integrity: a conclusion becomes a verdict only if the ledger backs it. Pure.

- ``affected`` needs hit ids that a search returned in this run (in the checkout, not
  all inside comments or strings) and breaking changes that cite sections
  ``fetch_changelog`` returned for this very package; a cited section must describe a
  breaking change, and a cited code hit must use what it says breaks (its line names
  it, or a ``search_symbol`` for it returned the hit): a conclusion cannot borrow
  another package's evidence, whatever text asked for it; a change may instead cite a
  strong ``api_diff`` finding (``a1``: seen in the released code, its source the artifact
  and the place in it) with one of its uses among the cited hits; a weak one never suffices;
- ``not_affected`` for an update the semver promise does not cover (anything but a patch
  of a 1.x+ version) needs the notes of every release of the range that may break (the
  ``coverage`` of ``fetch_changelog``: each new major, each 0.x minor, releases announcing
  removals; ``to`` itself when no notes were read at all), or a clean ``api_diff`` (both
  releases compared, no strong finding; the reason then says the notes were missing):
  without the facts the honest answer is ``unknown``; when the notes name what breaks, the code must have been searched for it (or the
  package found not imported at all) first; a package ``who_loads`` found unreached (no
  import, no file naming it or its commands, no convention, no declared package needing
  it) needs neither the notes nor the searches: nothing here can meet what it breaks;
- the verdict is assembled from the ledger: quotes are the changelog's own lines,
  hits are the search results, never the model's words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from depbot.agent.accounting import (
    account,
    clean_api_diff,
    leaves,
    names_in,
    not_imported,
    searches_for_terms,
)
from depbot.agent.ledger import ApiFact, HitFact, Ledger, SectionFact
from depbot.core.fence import strip_invisible
from depbot.records.accounting import Accounting
from depbot.records.update import Update
from depbot.records.verdict import BreakingChange, Hit, Verdict
from depbot.records.versions import semver_promise
from depbot.symbols.match import SHAPE_WHY, WEAK_USE

MAX_REASON = 600
MAX_SUMMARY = 300
MAX_FIX = 1500
MAX_QUOTE_LINES = 6


class Rejected(Exception):
    """The conclusion is refused. The message tells the model why and what would be accepted;
    ``plain``, where given, says why to a person (a report reason, the accounting), without
    the instructions meant for the model."""

    def __init__(self, message: str, *, plain: str = "") -> None:
        super().__init__(message)
        self.plain = plain or message


def _text(value: Any, limit: int) -> str:
    text = strip_invisible(str(value or "")).strip()
    text = re.sub(r"[ \t]+", " ", text)
    return text[:limit]


_BULLET = re.compile(r"^\s*([-*+•]|\d+[.)])\s")
_REMOVED_DEPRECATED = re.compile(r"remov\w*.{0,60}deprecat|deprecat\w*.{0,60}remov", re.I)
_BREAKING = re.compile(r"breaking|remov|renam|no longer|dropped|deprecat|gone|require", re.I)


def _item_span(lines: list[str], i: int) -> tuple[int, int]:
    """The whole bullet (or paragraph) that line ``i`` belongs to: [start, end)."""
    start = i
    while start > 0 and not _BULLET.match(lines[start]) and lines[start - 1].strip():
        start -= 1
    end = i + 1
    while end < len(lines) and lines[end].strip() and not _BULLET.match(lines[end]):
        end += 1
    return start, end


def _quote(section: SectionFact, symbols: list[str]) -> str:
    """The section's own items that carry the change.

    Items naming the change's symbols come first; then an item saying deprecated code
    was removed; then items with breaking words. Whole bullets, never half a sentence.
    """
    lines = [ln.rstrip() for ln in section.body.splitlines()]
    leaves = {s.rsplit(".", 1)[-1].strip("()`'\" ") for s in symbols if s}
    leaves |= {s.strip("()`'\" ") for s in symbols if s}
    leaves.discard("")

    def names_symbol(ln: str) -> bool:
        return any(re.search(rf"(?<![\w]){re.escape(leaf)}(?![\w])", ln) for leaf in leaves)

    for test in (
        names_symbol,
        _REMOVED_DEPRECATED.search,
        _BREAKING.search,
        lambda ln: bool(ln.strip()),
    ):
        picked = [i for i, ln in enumerate(lines) if test(ln)]
        if picked:
            break
    out: list[str] = []
    for i in picked:
        start, end = _item_span(lines, i)
        out.extend(ln.strip() for ln in lines[start:end])
        if len(dict.fromkeys(out)) >= MAX_QUOTE_LINES:
            break
    return strip_invisible("\n".join(list(dict.fromkeys(out))[:MAX_QUOTE_LINES]))


def _inert(h: HitFact) -> bool:
    """A hit in a comment, or in a string that no search judged a strong use (a search
    for a configuration key judges the string that names it a use)."""
    return h.context == "comment" or (h.context == "string" and h.evidence != "strong")


def _check_evidence(
    changes: list[BreakingChange], hits: list[HitFact], pkg: str, ledger: Ledger
) -> None:
    """``affected``: a cited section says something breaks, and a cited hit uses it; or a
    cited strong ``api_diff`` finding has a cited hit among its uses."""
    if _api_backed(changes, hits, ledger):
        return
    refs = [c.section_ref for c in changes if c.section_ref in ledger.sections]
    if not refs:
        raise Rejected(
            "the cited api_diff findings are weak (a method name on an object of unknown "
            "type) or none of their uses is cited; cite a strong finding with its hit ids, "
            "or a changelog section that describes the break"
        )
    if not any(
        ledger.section_breaking.get(r) or _BREAKING.search(ledger.sections[r].body) for r in refs
    ):
        raise Rejected(
            "none of the cited sections describes a breaking change (nothing removed, renamed "
            "or changed); cite the section that does, or conclude not_affected"
        )
    said: set[str] = set()
    for r in refs:
        for symbol in ledger.section_symbols.get(r, ()):
            said |= leaves(symbol)
    if not said:  # the notes name no API: the conclusion's symbols, as far as the notes name them
        for c in changes:
            body = ledger.sections[c.section_ref].body
            said |= {n for s in c.symbols for n in leaves(s) if names_in(body, {n})}
    cited = {(h.path, h.line) for h in hits if not _inert(h)}
    tags: set[tuple[str, str]] = set()  # the searches that found a cited line, under any id
    for hid, fact in list(ledger.hits.items()):
        if (fact.path, fact.line) in cited:
            tags |= ledger.hit_tags.get(hid, set())
    wild = {n for n in said if n.endswith("*")}
    if any(p == pkg and (leaves(s) & said or names_in(s, wild)) for p, s in tags):
        return
    if any(names_in(h.text, said) for h in hits if (h.path, h.line) in cited):
        return
    what = ", ".join(sorted(said)[:6]) or "the notes name no API"
    raise Rejected(
        f"none of the cited code hits uses what the cited sections say breaks ({what}); "
        "cite hits of a search for it, or conclude not_affected"
    )


def _api_backed(changes: list[BreakingChange], hits: list[HitFact], ledger: Ledger) -> bool:
    """Whether a cited strong api_diff finding has one of the cited code hits among its uses."""
    cited = {(h.path, h.line) for h in hits if not _inert(h)}
    for change in changes:
        fact = ledger.api_findings.get(change.section_ref)
        if fact is None or fact.strength != "strong":
            continue
        uses = {
            (ledger.hits[i].path, ledger.hits[i].line) for i in fact.hit_ids if i in ledger.hits
        }
        if cited & uses:
            return True
    return False


def _searched(pkg: str, candidates: list[str], ledger: Ledger) -> bool:
    """Whether a search looked for one of ``candidates``, or found ``pkg`` not imported at all."""
    searches = ledger.searches_for(pkg)
    return not_imported(pkg, searches) or bool(searches_for_terms(candidates, searches))


def _unreached(pkg: str, ledger: Ledger) -> bool:
    """``who_loads`` found nothing that reaches ``pkg`` and looked at all; imports whose
    names are never read still resolve the module, so those also need a clean API diff."""
    got = ledger.reach.get(pkg.lower())
    if got is None or not got.unreached:
        return False
    return not got.unread or clean_api_diff(pkg.lower(), ledger)


def _missing(update: Update, changelog: dict[str, Any] | None) -> list[str]:
    """The releases of the range that may break whose notes this run did not read."""
    if semver_promise(update.ecosystem, update.from_version, update.to_version):
        return []
    if changelog is None:
        return [update.to_version]
    return [str(v) for v in (changelog.get("coverage") or {}).get("missing") or []]


_SAYS_MISSING = re.compile(
    r"\b(missing|not found|no (release )?notes|could not be (read|found))", re.I
)


def _check_coverage(
    update: Update, changelog: dict[str, Any] | None, ledger: Ledger, reason: str
) -> str:
    """``not_affected`` needs the notes of every release that may break, or a clean API diff
    (then the reason must say the notes were missing); the reason, completed if need be."""
    missing = _missing(update, changelog)
    if not missing:
        return reason
    if _unreached(update.package, ledger):  # who_loads: nothing here loads it, all looked at
        return reason
    shown = ", ".join(missing[:8]) + (", …" if len(missing) > 8 else "")
    if clean_api_diff(update.package.lower(), ledger) and update.update_type == "major":
        raise Rejected(
            f"the notes of {shown} were not found, and a clean api_diff cannot show what a "
            "major changes in behaviour (a call that now throws, an option required at run "
            "time): conclude unknown, naming the releases whose notes are missing",
            plain=f"the release notes of {shown} were not found, and comparing the released "
            "code cannot show a change of behaviour (a call that now throws, an option now "
            "required at run time)",
        )
    if clean_api_diff(update.package.lower(), ledger):
        if _SAYS_MISSING.search(reason):
            return reason
        note = f"; the notes of {shown} were missing, the released code shows no change used here"
        return (reason[: MAX_REASON - len(note)] + note)[:MAX_REASON]
    what = f"{update.package} {update.from_version} → {update.to_version} ({update.update_type})"
    if changelog is None:
        why = "may break" if update.may_break else "is not covered by the semver promise"
        raise Rejected(
            f"{what} {why} and its changelog was not read in this run; "
            "fetch it, or call api_diff, or conclude unknown and say why",
            plain=f"{what} {why}, and neither its release notes nor its released code were read",
        )
    raise Rejected(
        f"notes for {shown} were not found: conclude unknown (say which releases are missing "
        f"and what was tried), or call api_diff to compare the released code of {what}",
        plain=f"the release notes of {shown} were not found, and the released code was not "
        "compared",
    )


def _tagged_code_hits(
    ledger: Ledger, pkg: str, keep: Callable[[HitFact, str], bool]
) -> list[HitFact]:
    """The code hits a search tagged with ``pkg`` and a symbol that ``keep`` accepts."""
    return [
        h for h in ledger.hits.values()
        if h.context == "code"
        and any(p == pkg and keep(h, s) for p, s in ledger.hit_tags.get(h.id, ()))
    ]  # fmt: skip


def _places(hits: list[HitFact]) -> str:
    return ", ".join(f"{h.id} {h.path}:{h.line}" for h in hits[:4])


def _check_shaped(update: Update, ledger: Ledger) -> None:
    """Calls made the way the notes say breaks, on objects whose type the code does not say
    (weak hits of a call-shape search), are not facts that the code is safe."""
    pkg = update.package.lower()
    shaped = _tagged_code_hits(
        ledger,
        pkg,
        lambda h, _s: h.evidence == "weak" and (SHAPE_WHY in h.why or WEAK_USE in h.why),
    )
    if shaped:
        raise Rejected(
            f"{len(shaped)} place(s) may use what the notes of {update.package} say breaks "
            f"(calls of the broken shape on objects of unknown type, or option keys passed to "
            f"its calls: {_places(shaped)}): conclude unknown naming them, or affected citing "
            "them if the code shows they are the package's",
            plain=f"{len(shaped)} place(s) may use what the notes of {update.package} say "
            f"breaks, but depbot cannot tell that the object there is the package's "
            f"({_places(shaped)}): check them",
        )


def _breaking_change(
    i: int, bc: dict[str, Any], *, update: Update, pkg: str, ledger: Ledger
) -> BreakingChange:
    """``breaking_changes[i]`` of the arguments, its source a section or api_diff finding of
    ``pkg`` from this run and its quote taken from that fact, or ``Rejected``."""
    ref = str(bc.get("source_ref") or "")
    fact: SectionFact | ApiFact | None = ledger.sections.get(ref) or ledger.api_findings.get(ref)
    if fact is None:
        raise Rejected(
            f"breaking_changes[{i}].source_ref {ref!r} is not a section fetch_changelog "
            "returned in this run (nor an api_diff finding); cite a ref like 'c1.s2' or 'a1'"
        )
    if fact.package != pkg:
        raise Rejected(
            f"breaking_changes[{i}].source_ref {ref!r} belongs to {fact.package}, "
            f"not {update.package}"
        )
    symbols = [_text(s, 120) for s in (bc.get("symbols") or []) if str(s).strip()][:10]
    summary = _text(bc.get("summary"), MAX_SUMMARY)
    if not summary:
        raise Rejected(f"breaking_changes[{i}].summary is empty")
    if isinstance(fact, ApiFact):
        quote = strip_invisible(fact.where)
    else:
        quote = _quote(fact, symbols)
    return BreakingChange(
        summary=summary,
        symbols=tuple(symbols),
        source=fact.source,
        quote=quote,
        version=fact.version,
        section_ref=ref,
    )


def _cited_hits(hit_ids: list[Any], ledger: Ledger) -> list[HitFact]:
    """The hits the ids name, each a search result of this run, one per cited line."""
    hits: list[HitFact] = []
    for hid in hit_ids:
        fact = ledger.hits.get(str(hid))
        if fact is None:
            raise Rejected(
                f"hit id {hid!r} was never returned by a search in this run; "
                "cite ids from search_symbol, search_code or where_imported results"
            )
        if all((h.path, h.line) != (fact.path, fact.line) for h in hits):
            hits.append(fact)  # one line cited once, whichever search found it
    return hits


def _check_affected(
    changes: list[BreakingChange], hits: list[HitFact], pkg: str, ledger: Ledger
) -> None:
    """``affected`` needs code hits and breaking changes the ledger backs."""
    if not hits:
        raise Rejected(
            "affected needs at least one hit id returned by a search in this run; "
            "search first, or conclude not_affected / unknown"
        )
    if all(_inert(h) for h in hits):
        raise Rejected(
            "every cited hit sits in a comment or a string literal, which breaks nothing; "
            "cite code hits or conclude not_affected"
        )
    if not changes:
        raise Rejected(
            "affected needs breaking_changes citing the changelog section (source_ref) "
            "that describes the break"
        )
    _check_evidence(changes, hits, pkg, ledger)


def _check_not_affected(
    update: Update, changelog: dict[str, Any] | None, ledger: Ledger, reason: str
) -> str:
    """``not_affected`` needs the notes (or a clean API diff), a search for what the notes
    say breaks, and no call of the breaking shape on an unknown object; the reason,
    completed if need be."""
    pkg = update.package.lower()
    reason = _check_coverage(update, changelog, ledger, reason)
    named = [str(c) for c in (changelog or {}).get("candidates") or []]
    if named and not _searched(pkg, named, ledger) and not _unreached(pkg, ledger):
        raise Rejected(
            f"the notes of {update.package} say what breaks ({', '.join(named[:5])}); "
            "search the code for it (search_symbol or search_code) before concluding "
            "not_affected, or conclude unknown",
            plain=f"the notes of {update.package} say what breaks ({', '.join(named[:5])}), "
            "and the code was not searched for it",
        )
    _check_unsearched(update, changelog, ledger)
    _check_shaped(update, ledger)
    accounted = account(update, ledger)
    _check_items(update, accounted, ledger)
    _check_announced(update, accounted, ledger)
    _check_strong_hits(update, changelog, ledger)
    _check_silent_and_blind(update, changelog, ledger)
    return reason


def _check_unsearched(update: Update, changelog: dict[str, Any] | None, ledger: Ledger) -> None:
    """A source file too big for any search to read may hold the use that breaks."""
    files = ledger.unsearched.get(update.package.lower())
    if not files or not (update.may_break or _names_a_break(changelog)):
        return
    shown = _first_five(files, ", ")
    raise Rejected(
        f"{len(files)} source file(s) that may use {update.package} are too big to search "
        f"({shown}): conclude unknown naming them",
        plain=f"{len(files)} source file(s) that may use {update.package} are too big to "
        f"search ({shown}): check them",
    )


def _names_a_break(changelog: dict[str, Any] | None) -> bool:
    """Whether the notes read list a breaking item."""
    return any(i.get("category") == "breaking" for i in (changelog or {}).get("items") or [])


def _first_five(texts: list[str] | tuple[str, ...], sep: str) -> str:
    """The first five of ``texts`` joined by ``sep``, and how many more there are."""
    more = f" and {len(texts) - 5} more" if len(texts) > 5 else ""
    return sep.join(texts[:5]) + more


def _check_silent_and_blind(
    update: Update, changelog: dict[str, Any] | None, ledger: Ledger
) -> None:
    """Notes that name breaking items vouch for the members of what the diff found (the
    items are the accounting), but not for a name imported from the package itself that the
    diff could not find in the old release, unless an item speaks of it: nothing read gave
    that name a fate, so the update stays unknown."""
    fates = ledger.api_fates.get(update.package.lower())
    if fates is None or fates.complete or not update.may_break:
        return
    if _names_a_break(changelog):
        spoken = set().union(*(leaves(str(t)) for t in _item_terms(changelog)))
        blind = [
            f.name
            for f in fates.unresolved
            if _imported_itself(f.name) and not leaves(_leaf(f.name)) & spoken
        ]
        if not blind:
            return
        shown = _first_five(blind, ", ")
        raise Rejected(
            f"api_diff could not see {shown} in the old release of {update.package}, and no "
            "breaking item of its notes speaks of it: conclude unknown naming those names",
            plain=f"comparing the released code could not see {shown}, which this code uses, "
            f"and the notes of {update.package} do not say what became of it",
        )
    raise Rejected(
        f"the notes of {update.package} name no breaking change and api_diff could not see "
        f"what this code uses ({fates.summary()}): conclude unknown naming those names",
        plain=f"the notes of {update.package} name no breaking change, and comparing the "
        f"released code could not see everything this code uses ({fates.summary()})",
    )


def _item_terms(changelog: dict[str, Any] | None) -> list[str]:
    """The search terms of the breaking items of the notes read."""
    items = (changelog or {}).get("items") or []
    return [str(t) for i in items if i.get("category") == "breaking" for t in i.get("terms", [])]


def _imported_itself(name: str) -> bool:
    """``pkg``, ``pkg/sub``, ``pkg:default``, ``pkg:f``: a module or a name imported from one,
    not a member of one (``pkg:default.level``)."""
    return ":" not in name or "." not in _leaf(name)


def _leaf(name: str) -> str:
    """``pkg/sub:Class.method`` → ``Class.method``; ``pkg:default`` → ``default``."""
    return name.rsplit(":", 1)[-1]


def _check_items(update: Update, accounted: Accounting, ledger: Ledger) -> None:
    """Every breaking item that names something this code could use was searched for: a
    search that stopped before the end (a cap, a budget) leaves the update unknown."""
    left = accounted.open_items
    if left and not _unreached(update.package, ledger):
        shown = _first_five([f"{i.version}: {', '.join(i.terms[:3])}" for i in left], "; ")
        raise Rejected(
            f"{len(left)} breaking item(s) of the notes of {update.package} were never searched "
            f"for ({shown}); search them, or conclude unknown naming what was left",
            plain=f"{len(left)} breaking item(s) of the notes of {update.package} were not "
            f"searched for ({shown})",
        )


def _check_announced(update: Update, accounted: Accounting, ledger: Ledger) -> None:
    """A breaking item that announces a break, a change of behaviour or a removal without a
    name to search for ("Remove Tooltip legacy placement") was cleared by no search: the
    update stays unknown, unless nothing in this checkout reaches the package."""
    left = accounted.announced
    if left and not _unreached(update.package, ledger):
        first = " ".join(left[0].text.split())[:160]
        raise Rejected(
            f"{len(left)} breaking item(s) of the notes of {update.package} announce a break "
            f"no search can clear (\u201c{first}\u201d): conclude unknown quoting them",
            plain=f"{len(left)} breaking item(s) of the notes of {update.package} announce a "
            f"break that no search can clear (\u201c{first}\u201d): read them against the code",
        )


def _check_strong_hits(update: Update, changelog: dict[str, Any] | None, ledger: Ledger) -> None:
    """No strong use of what the notes say breaks stands against a ``not_affected``."""
    pkg = update.package.lower()
    named: set[str] = set()
    for entry in (changelog or {}).get("items") or []:
        named.update(str(t) for t in entry.get("breaks", []))
    strong = _tagged_code_hits(
        ledger,
        pkg,
        lambda h, s: h.evidence == "strong" and h.tool == "search_symbol" and s in named,
    )
    if strong:
        raise Rejected(
            f"{len(strong)} strong use(s) of what the notes of {update.package} say breaks "
            f"stand ({_places(strong)}): conclude affected citing them, or unknown saying why "
            "they are not uses",
            plain=f"{len(strong)} use(s) of what the notes of {update.package} say breaks were "
            f"found ({_places(strong)}) and not shown to be safe",
        )


def check_conclusion(args: dict[str, Any], *, update: Update, ledger: Ledger) -> Verdict:
    """Turn validated ``conclude`` arguments into a Verdict, or raise ``Rejected``."""
    verdict = str(args.get("verdict"))
    reason = _text(args.get("reason"), MAX_REASON)
    if not reason:
        raise Rejected("give a reason: one or two sentences saying why")
    pkg = update.package.lower()
    changelog = ledger.changelog(pkg)
    changes = [
        _breaking_change(i, bc, update=update, pkg=pkg, ledger=ledger)
        for i, bc in enumerate(args.get("breaking_changes") or [])
    ]
    hits = _cited_hits(args.get("hit_ids") or [], ledger)
    if verdict == "affected":
        _check_affected(changes, hits, pkg, ledger)
    elif verdict == "not_affected":
        reason = _check_not_affected(update, changelog, ledger, reason)
        hits = []  # a not-affected verdict cites no call sites
    elif verdict != "unknown":
        raise Rejected("verdict must be one of affected, not_affected, unknown")
    return Verdict(
        update=update,
        verdict=verdict,
        reason=reason,
        breaking_changes=changes,
        hits=[
            Hit(
                id=h.id, path=h.path, line=h.line, text=h.text, col=h.col, weak=h.evidence == "weak"
            )
            for h in hits
        ],
        suggested_fix=_text(args.get("suggested_fix"), MAX_FIX) if verdict == "affected" else "",
    )
