"""What the model sees of each tool call: compact JSON, and a shorter form for later rounds.

Pure. The toolbox runs a tool, records its facts in the ledger and hands the results
here; these functions shape the JSON objects (their key order is part of the output)
and the ``Outcome`` that goes back to the loop. Untrusted text is fenced with the
caller's ``Fence`` (it carries the run's nonce); errors are one short sentence.

Every ``Outcome`` is made here (``success``, ``failure``, ``repeat``), and every string in
it has secret-shaped values replaced by ``[REDACTED]`` (``core.redact``, detect-secrets'
plugins): this is the one place all tool results pass through on their way to the model
and the trace.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from depbot.agent.coverage import Coverage, coverage
from depbot.agent.ledger import ApiFact
from depbot.agent.services import Hit
from depbot.apidiff.fates import Fates
from depbot.apidiff.join import ReleaseDiff
from depbot.changelogs.breaking import CANDIDATE_KINDS, Item
from depbot.changelogs.items import DECLARED_BREAKS
from depbot.changelogs.result import ChangelogResult
from depbot.changelogs.sections import Section
from depbot.changelogs.trim import breaking_lines_cut
from depbot.core.fence import shown, strip_invisible
from depbot.core.redact import redact, redact_value
from depbot.planner.records import Changelog
from depbot.planner.unnamed import unnamed_indices
from depbot.records.reach import Reach
from depbot.records.update import Update
from depbot.records.verdict import Verdict
from depbot.search.import_sites import ImportSite
from depbot.symbols.facts import SymbolHit

Fence = Callable[[str, str, int], str]  # (text, source, limit) -> fenced text


@dataclass
class Outcome:
    """What one tool call produced."""

    content: str  # sent to the model
    ok: bool
    compact: str = ""  # shorter form for later rounds ("" = keep content)
    guard: str = ""  # repeat | refused | invalid | rejected | error
    error_detail: str = ""  # for the trace only
    new_facts: int = 0
    seconds: float = 0.0


@dataclass
class Observation:
    """A tool's answer before it is sent: the body, its compact form, its id, new facts."""

    body: dict[str, Any]
    compact: dict[str, Any] | None = None
    result_id: str = ""
    new_facts: int = 0


def dump(obj: Any) -> str:
    return shown(json.dumps(obj, ensure_ascii=False, separators=(",", ":")), json_text=True)


def sent(obj: Any) -> str:
    """``dump`` of a tool result with every string in it redacted (``core.redact``)."""
    return dump(redact_value(obj))


def failure(message: str, guard: str, detail: str = "", for_people: str = "") -> Outcome:
    """A refused or failed call; ``for_people`` says why to a person, where the message is an
    instruction to the model (a rejected conclusion)."""
    detail = redact(detail or message, patterns=False)
    body = {"error": message} | ({"for_people": for_people} if for_people else {})
    return Outcome(sent(body), False, guard=guard, error_detail=detail)


def repeat(first_id: str) -> Outcome:
    note = {"repeat_of": first_id, "note": f"same call as {first_id}; its result is above"}
    return Outcome(sent(note), True, guard="repeat")


MAX_RESULT_CHARS = 48_000  # no tool result is sent larger: past it, its compact form goes


def success(obs: Observation) -> Outcome:
    compact = sent(obs.compact) if obs.compact is not None else ""
    content = sent(obs.body)
    if len(content) > MAX_RESULT_CHARS:
        short = dict(obs.compact or {"id": obs.result_id})
        short["note_from_depbot"] = (
            f"the full result ({len(content)} characters) is over the {MAX_RESULT_CHARS}-character "
            "limit of a tool result: its summary is shown; narrow the call to see lines"
        )
        content = sent(short)
        if len(content) > MAX_RESULT_CHARS:
            content = sent({"id": obs.result_id, "note_from_depbot": short["note_from_depbot"]})
        compact = ""
    return Outcome(content, True, compact=compact, new_facts=obs.new_facts)


# -- fetch_changelog ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ReadSection:
    """One changelog section as read: the ref the model cites, the section, its items."""

    ref: str
    section: Section
    items: list[Item]


def removes_deprecated(read: list[ReadSection]) -> bool:
    return any(item.removes_deprecated for r in read for item in r.items)


def _section_entry(r: ReadSection, fence: Fence) -> dict[str, Any]:
    sec = r.section
    text = fence(sec.body, sec.source, 6000)
    return {"ref": r.ref, "version": sec.version, "source": sec.source, "text": text}


def _item_entries(
    read: list[ReadSection], fence: Fence, width: int = 400
) -> tuple[list[dict], list[dict]]:
    """The breaking items (with candidate symbols) and the deprecations, in reading order;
    each item's text cut to ``width`` characters."""
    breaking, deprecations = [], []
    for r in read:
        for item in r.items:
            entry = {
                "ref": r.ref,
                "version": r.section.version,
                "item": fence(item.text, r.section.source, width),
            }
            if item.category == "breaking":
                entry["candidates"] = [c.to_dict() for c in item.candidates]
                if DECLARED_BREAKS.match(item.context):
                    entry["declared"] = True  # listed under the generator's BREAKING CHANGES
                if item.replacements:
                    entry["replacements"] = list(item.replacements)[:8]
                breaking.append(entry)
            elif item.category == "deprecation":
                if item.deprecates:  # still working: only "also deprecated" in a draft
                    entry["deprecates"] = [c.to_dict() for c in item.deprecates]
                deprecations.append(entry)
    return breaking, deprecations


_BREAKING_BUDGET = MAX_RESULT_CHARS * 3 // 4  # of a compact result, for its breaking items
_ANNOUNCED_SHOWN = 5  # items not shown that announce a break no search can clear: quoted


def _fit_breaking(
    read: list[ReadSection], fence: Fence, breaking: list[dict]
) -> tuple[list[dict], int]:
    """The breaking items of a compact result, under ``_BREAKING_BUDGET``: their texts cut
    shorter; then only those naming something to search for (and how many were left out),
    at last without their texts. Every name to search for is shown."""
    entries = breaking
    for width in (200, 120, 60):
        if len(dump(entries)) <= _BREAKING_BUDGET:
            return entries, 0
        entries = _item_entries(read, fence, width)[0]
    named = [e for e in entries if e.get("candidates") or e.get("replacements")]
    if len(dump(named)) > _BREAKING_BUDGET:
        named = [{k: v for k, v in e.items() if k != "item"} for e in named]
    return named, len(entries) - len(named)


def _before_entry(r: ReadSection, fence: Fence) -> dict[str, Any]:
    """A deprecation note from before the installed version, with the names it deprecates."""
    entry = {
        "ref": r.ref,
        "version": r.section.version,
        "text": fence(r.section.body, r.section.source, 1500),
        "candidates": [c.to_dict() for it in r.items for c in it.candidates],
    }
    replacements = list(dict.fromkeys(x for it in r.items for x in it.replacements))[:8]
    if replacements:
        entry["replacements"] = replacements
    return entry


def _announces_removal(r: ReadSection) -> bool:
    return any(
        it.removes_deprecated or (it.category == "breaking" and "remov" in it.text.lower())
        for it in r.items
    )


def range_coverage(update: Update, result: ChangelogResult, read: list[ReadSection]) -> Coverage:
    """Which releases of the range that may break have notes (see ``coverage``)."""
    shown = [r.section.version for r in read]
    published = result.published or [*shown, *result.missing_versions]
    # only what was read counts: a release whose section was found but left out (over the
    # result's budget: a major's first release among a hundred fix releases) is not covered
    removals = [r.section.version for r in read if _announces_removal(r)]
    return coverage(
        update.ecosystem, update.from_version, update.to_version, published, shown, removals
    )


def _problems(result: ChangelogResult) -> dict[str, Any]:
    out: dict[str, Any] = {}
    lists = (
        ("sources_tried", result.sources_tried),
        ("missing_versions", result.missing_versions),
        ("errors", result.errors),
    )
    for key, value in lists:
        if value:
            out[key] = [strip_invisible(str(v))[:300] for v in value][:12]
    if result.trimmed:
        out["trimmed"] = strip_invisible(str(result.trimmed))[:300]
        read_note = result.analysed_trimmed if result.analysed else result.trimmed
        if breaking_lines_cut(read_note):  # what the cut breaking lines said is unread
            out["breaking_lines_cut"] = True
    return out


def changelog_observation(
    cid: str,
    update: Update,
    result: ChangelogResult,
    read: list[ReadSection],
    before: list[ReadSection],
    fence: Fence,
) -> Observation:
    """``read``: the sections in range; ``before``: deprecation notes older than ``from``."""
    sections = [_section_entry(r, fence) for r in read]
    breaking, deprecations = _item_entries(read, fence)
    context = [_before_entry(r, fence) for r in before]
    out: dict[str, Any] = {
        "id": cid,
        "package": update.package,
        "from": update.from_version,
        "to": update.to_version,
        "update_type": update.update_type,
        "found": bool(result.sections),
        "coverage": range_coverage(update, result, read).to_dict(),
        "note": strip_invisible(result.note)[:600],
        "sections": sections,
        "breaking": breaking,
    }
    if deprecations:
        out["deprecations"] = deprecations[:20]
    if removes_deprecated(read):
        out["removes_deprecated_code"] = True
    if context:
        out["deprecated_before"] = context
    out.update(_problems(result))
    compact = {
        k: v for k, v in out.items() if k not in ("sections", "deprecations", "deprecated_before")
    }
    compact["sections"] = [{"ref": s["ref"], "version": s["version"]} for s in sections]
    compact["breaking"], left_out = _fit_breaking(read, fence, breaking)
    if left_out:
        compact["breaking_not_shown"] = left_out
        unclearable = unnamed_indices(Changelog.read(out))  # what the full reading announces
        if unclearable:  # shown, as they keep not_affected unproven (a few, cut short)
            short = _item_entries(read, fence, 160)[0]
            compact["announced_not_shown"] = [
                short[i]["item"] for i in unclearable[:_ANNOUNCED_SHOWN]
            ]
            compact["announced_not_shown_count"] = len(unclearable)
        compact["breaking_note"] = (
            f"{left_out} breaking item(s) that name nothing to search for are not shown: the "
            "list is over the limit of a result; they stay in the accounting of this update"
        )
    if any(d.get("deprecates") for d in deprecations):  # the names "also deprecated" needs
        compact["deprecations"] = [d for d in deprecations[:20] if d.get("deprecates")]
    if context:
        compact["deprecated_before"] = [
            {k: v for k, v in c.items() if k != "text"} for c in context
        ]
    compact["compacted"] = True
    return Observation(out, compact, cid, len(sections))


# candidate kinds whose strong use is a break: all but a behaviour change (it breaks some uses)
BREAKS = tuple(k for k in CANDIDATE_KINDS if k != "behaviour")


def changelog_summary(
    result: ChangelogResult, body: dict[str, Any], read: list[ReadSection] | None = None
) -> dict[str, Any]:
    """What the ledger keeps of a fetch: found, versions, note, the candidate symbols, and
    each breaking (or runtime) item with the terms it names: what the accounting disposes of."""
    entries = body["breaking"] + body.get("deprecated_before", [])
    named = [c["symbol"] for e in entries for c in e.get("candidates", [])]
    unnamed = set(unnamed_indices(Changelog.read(body)))  # breaks no search can clear
    pairs = [
        (r, it) for r in read or [] for it in r.items if it.category in ("breaking", "runtime")
    ]
    n = 0  # the index of a breaking item among ``body["breaking"]`` (same order)
    items = []
    for r, it in pairs:
        item = {"version": r.section.version, "text": strip_invisible(it.text)[:240],
                "category": it.category, "terms": list(dict.fromkeys(c.symbol for c in it.candidates)),
                "breaks": list(dict.fromkeys(c.symbol for c in it.candidates if c.kind in BREAKS))}  # fmt: skip
        if it.category == "breaking":
            if n in unnamed:
                item["unclearable"] = True
            n += 1
        items.append(item)
    items = _once(items)
    return {
        "found": body["found"],
        "versions": [s["version"] for s in body["sections"]],
        "note": result.note,
        "candidates": list(dict.fromkeys(named)),
        "coverage": body["coverage"],
        "items": items,
    }


def _once(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each item once per release: notes that repeat a release's section (a generator that
    lists each pre-release again under every later one) name the same item several times."""
    kept: dict[tuple[str, str, str], dict[str, Any]] = {}
    for item in items:
        key = (item["version"], item["text"], item["category"])
        if key in kept:  # one reading of it announces what no search clears: so does the item
            if item.get("unclearable"):
                kept[key]["unclearable"] = True
            continue
        kept[key] = item
    return list(kept.values())


# -- searches ----------------------------------------------------------------------------------


def hit_context(hit: Hit) -> str:
    """``code`` | ``comment`` | ``string``; an import site is code."""
    return "code" if isinstance(hit, ImportSite) else hit.context


def hit_evidence(hit: Hit) -> tuple[str, str]:
    """How strong a symbol search's evidence is, and why; ("", "") for other hits."""
    return (hit.evidence, hit.why) if isinstance(hit, SymbolHit) else ("", "")


def hit_entry(hit_id: str, hit: Hit) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": hit_id,
        "path": hit.path,
        "line": hit.line,
        "context": hit_context(hit),
    }
    extra: tuple[tuple[str, Any], ...] = ()
    if isinstance(hit, SymbolHit):
        extra = (("evidence", hit.evidence), ("why", hit.why))
    elif isinstance(hit, ImportSite):
        extra = (("style", hit.style), ("esm", hit.esm))
    entry.update((k, v) for k, v in extra if v not in (None, ""))
    return entry


def hit_lines(lines: list[str], fence: Fence) -> str:
    """The hits' lines (``h3 path:line: text``) as one fenced block."""
    return fence("\n".join(lines), "checkout", 8000) if lines else ""


def search_observation(
    search_id: str,
    hits: list[dict[str, Any]],
    lines: str,
    *,
    total: int,
    truncated: bool,
    note: str,
    excluded: dict[str, int] | None = None,
    new_facts: int = 0,
) -> Observation:
    """The common shape of the three searches; each tool adds its own keys to ``body``."""
    out: dict[str, Any] = {"id": search_id, "hits": hits, "total": total}
    if truncated:
        out["truncated"] = True
    if lines:
        out["lines"] = lines
    if note:
        out["note"] = strip_invisible(note)[:400]
    if excluded:
        out["excluded"] = dict(excluded)
    compact = {k: v for k, v in out.items() if k != "lines"}
    compact["compacted"] = True
    return Observation(out, compact, search_id, new_facts)


# -- api_diff ----------------------------------------------------------------------------------


def api_observation(
    diff_id: str,
    update: Update,
    got: ReleaseDiff,
    found: list[tuple[ApiFact, list[dict[str, Any]], str]],
    notes: list[str],
    fence: Fence,
    used: Fates | None = None,
) -> Observation:
    """The use-checked findings (each with its id and hits), the size of the raw diff, the
    fate of every name this code takes from the package (``used_names``), notes.

    ``found``: per finding, its ledger fact, its hit entries and the fenced lines of its uses.
    Upstream strings (the artifact's places, the notes) are fenced."""
    changes = len(got.diff.changes) if got.diff is not None else 0
    out: dict[str, Any] = {
        "id": diff_id,
        "package": update.package,
        "from": update.from_version,
        "to": update.to_version,
        "compared": got.diff is not None and not got.diff.stats.get("unread"),
        "changes_in_diff": changes,
        "findings": [],
    }
    if got.diff is not None and got.diff.stats.get("incomplete"):
        out["incomplete"] = True  # part of the code was not compared: never a clean diff
    if used is not None:
        out["used_names"] = used_names_entry(used, fence, got.artifact)
        if not used.complete:
            out["incomplete"] = True  # the diff cannot see part of what this code uses
    if got.artifact:
        out["artifact"] = fence(got.artifact, "registry", 200)
    for fact, listed, block in found[:40]:
        entry: dict[str, Any] = {
            "id": fact.id,
            "kind": fact.kind,
            "strength": fact.strength,
            "symbols": [strip_invisible(s)[:120] for s in fact.symbols],
            "where": fence(fact.where, got.artifact or "artifact", 400),
            "hits": listed[:20],
        }
        if block:
            entry["lines"] = block
        key = "deprecated" if fact.strength == "deprecated" else "findings"
        out.setdefault(key, []).append(entry)
    if notes:
        text = "\n".join(strip_invisible(str(n))[:300] for n in notes[:12])
        out["notes"] = fence(text, got.artifact or "artifacts", 4000)
    if got.diff is None:
        out["fallback"] = "the released code could not be compared; rely on the release notes"
        if got.problems:  # why, for the reason a person reads ("… refused to contact …")
            out["not_compared"] = fence(got.problems[0], "artifacts", 400)
    elif used is not None and not used.complete:
        out["note"] = (
            f"the diff cannot see all of this package: {used.summary()}; it backs no "
            "not_affected (read the notes, or conclude unknown naming these names)"
        )
    elif not out["findings"]:
        out["note"] = f"none of the {changes} API change(s) touches a use in this code"
    compact = {k: v for k, v in out.items() if k != "notes"}
    compact["findings"] = [{k: v for k, v in f.items() if k != "lines"} for f in out["findings"]]
    compact["compacted"] = True
    return Observation(out, compact, diff_id, sum(len(listed) for _, listed, _ in found))


def used_names_entry(used: Fates, fence: Fence, artifact: str) -> dict[str, Any]:
    """``{"resolved": 11, "total": 11, "fates": {...}, "unresolved": [...]}`` (names fenced:
    they are the checkout's words, and the artifact's)."""
    entry: dict[str, Any] = {
        "resolved": used.total - len(used.unresolved),
        "total": used.total,
        "fates": used.counts(),
    }
    if used.unresolved:
        text = "\n".join(f.line() for f in used.unresolved[:12])
        entry["unresolved"] = fence(text, artifact or "artifact", 2000)
    if used.undeclared:
        text = "\n".join(f.line() for f in used.undeclared[:12])
        entry["undeclared"] = fence(text, artifact or "artifact", 2000)
    return entry


# -- who_loads ---------------------------------------------------------------------------------


def reach_observation(rid: str, update: Update, reach: Reach, fence: Fence) -> Observation:
    """What may load the package besides an import (the checkout's paths and the packages'
    words are fenced: they are not instructions)."""
    out: dict[str, Any] = {"id": rid, "package": update.package, "unreached": reach.unreached}
    for key, attr in (("reached", "reached"), ("unseen", "unseen"), ("looked", "looked"),
                      ("unread_imports", "unread")):  # fmt: skip
        lines = getattr(reach, attr)
        if lines:
            out[key] = fence(
                "\n".join(strip_invisible(x)[:300] for x in lines[:8]), "checkout", 2400
            )
    return Observation(out, out, rid, 0)


# -- conclude ----------------------------------------------------------------------------------


def conclusion_observation(update: Update, verdict: Verdict, still_open: list[str]) -> Observation:
    body = {
        "accepted": True,
        "package": update.package,
        "verdict": verdict.verdict,
        "still_open": still_open,
    }
    return Observation(body)
