"""Outcome integrity: a conclusion becomes a verdict only if the ledger backs it. Pure.

- ``affected`` needs hit ids that a search returned in this run (in the checkout, not
  all inside comments or strings) and breaking changes that cite sections
  ``fetch_changelog`` returned for this very package;
- ``not_affected`` for an update that may break (major, 0.x minor, pre-release) needs
  the changelog to have been read: without the facts the honest answer is ``unknown``;
- the verdict is assembled from the ledger: quotes are the changelog's own lines,
  hits are the search results, never the model's words.
"""

from __future__ import annotations

import re
from typing import Any

from .fence import strip_invisible
from .ledger import HitFact, Ledger, SectionFact
from .updates import Update
from .verdicts import BreakingChange, Hit, Verdict

MAX_REASON = 600
MAX_SUMMARY = 300
MAX_FIX = 1500
MAX_QUOTE_LINES = 6


class Rejected(Exception):
    """The conclusion is refused; the message tells the model why and what would be accepted."""


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


def _quote(section: SectionFact, symbols: list[str], summary: str) -> str:
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


def check_conclusion(args: dict[str, Any], *, update: Update, ledger: Ledger) -> Verdict:
    """Turn validated ``conclude`` arguments into a Verdict, or raise ``Rejected``."""
    verdict = str(args.get("verdict"))
    reason = _text(args.get("reason"), MAX_REASON)
    if not reason:
        raise Rejected("give a reason: one or two sentences saying why")
    pkg = update.package.lower()
    changelog = ledger.changelog(pkg)
    changes: list[BreakingChange] = []
    for i, bc in enumerate(args.get("breaking_changes") or []):
        ref = str(bc.get("source_ref") or "")
        section = ledger.sections.get(ref)
        if section is None:
            raise Rejected(
                f"breaking_changes[{i}].source_ref {ref!r} is not a section fetch_changelog "
                "returned in this run; cite a ref like 'c1.s2' from its result"
            )
        if section.package != pkg:
            raise Rejected(
                f"breaking_changes[{i}].source_ref {ref!r} belongs to {section.package}, "
                f"not {update.package}"
            )
        symbols = [_text(s, 120) for s in (bc.get("symbols") or []) if str(s).strip()][:10]
        summary = _text(bc.get("summary"), MAX_SUMMARY)
        if not summary:
            raise Rejected(f"breaking_changes[{i}].summary is empty")
        changes.append(
            BreakingChange(
                summary=summary,
                symbols=tuple(symbols),
                source=section.source,
                quote=_quote(section, symbols, summary),
                version=section.version,
                section_ref=ref,
            )
        )
    hits: list[HitFact] = []
    for hid in args.get("hit_ids") or []:
        fact = ledger.hits.get(str(hid))
        if fact is None:
            raise Rejected(
                f"hit id {hid!r} was never returned by a search in this run; "
                "cite ids from search_symbol, search_code or where_imported results"
            )
        if fact not in hits:
            hits.append(fact)

    if verdict == "affected":
        if not hits:
            raise Rejected(
                "affected needs at least one hit id returned by a search in this run; "
                "search first, or conclude not_affected / unknown"
            )
        if all(h.context in ("comment", "string") for h in hits):
            raise Rejected(
                "every cited hit sits in a comment or a string literal, which breaks nothing; "
                "cite code hits or conclude not_affected"
            )
        if not changes:
            raise Rejected(
                "affected needs breaking_changes citing the changelog section (source_ref) "
                "that describes the break"
            )
    elif verdict == "not_affected":
        if update.may_break and not (changelog and changelog.get("found")):
            raise Rejected(
                f"{update.package} {update.from_version} → {update.to_version} may break "
                f"({update.update_type}) and its changelog was not read in this run; "
                "fetch it, or conclude unknown and say why"
            )
        hits = []  # a not-affected verdict cites no call sites
    elif verdict != "unknown":
        raise Rejected("verdict must be one of affected, not_affected, unknown")
    return Verdict(
        update=update,
        verdict=verdict,
        reason=reason,
        breaking_changes=changes,
        hits=[Hit(id=h.id, path=h.path, line=h.line, text=h.text, col=h.col) for h in hits],
        suggested_fix=_text(args.get("suggested_fix"), MAX_FIX) if verdict == "affected" else "",
    )
