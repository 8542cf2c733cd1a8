"""The result of one fetch (``ChangelogResult``) from its state (``FetchState``): the sections
of the range, trimmed to the budget, the deprecation notes of older versions a major needs as
context, and the note of where every section came from. Pure: no I/O.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from depbot.changelogs.discovery import CONTEXT_LINES
from depbot.changelogs.result import ChangelogResult, FetchState
from depbot.changelogs.sections import Section, describe_versions, slice_range
from depbot.changelogs.trim import deprecation_notes, removes_deprecated, trim_to_budget
from depbot.records.versions import update_type

__all__ = ["ANALYSIS_FACTOR", "assemble", "context_of"]

ANALYSIS_FACTOR = 5  # the items are read from notes trimmed to this many times the budget


def context_of(run: FetchState, in_range: list[Section]) -> list[Section]:
    """Deprecation notes of versions <= old, when the range removes deprecated code."""
    kind = update_type(run.eco, run.old, run.new)
    zero_x = run.lo.major == 0 and kind in ("minor", "major", "other")
    if not (kind == "major" or zero_x or removes_deprecated(in_range)):
        return []
    older = sorted((v for v in run.seen if v <= run.lo), reverse=True)
    out: list[Section] = []
    budget = CONTEXT_LINES
    for v in older:
        notes = deprecation_notes(run.seen[v].body)
        kept: list[str] = []
        for note in notes:
            n = note.count("\n") + 1
            if n > budget:
                break
            kept.append(note)
            budget -= n
        if kept:
            out.append(replace(run.seen[v], body="\n".join(kept)))
        if budget <= 0 or len(kept) < len(notes):
            break
    return out


def assemble(run: FetchState, budget: int) -> ChangelogResult:
    """The ``ChangelogResult`` of a finished fetch: the sections of the range trimmed to
    ``budget``, the deprecation context, and a note of where each came from."""
    found = slice_range(list(run.found.values()), run.eco, run.old, run.new)
    context = context_of(run, found)
    sections, trimmed = trim_to_budget(found, budget)
    # the items are read from a larger budget than the model is shown: the breaking lines of
    # a long range (a major's alphas and betas) are read whole, and listed item by item
    analysed, analysed_trimmed = (
        trim_to_budget(found, budget * ANALYSIS_FACTOR) if trimmed else (sections, None)
    )
    missing = [text for v, text in sorted(run.needed.items(), reverse=True) if v not in run.found]
    if found:
        counts = Counter(run.labels[v] for v in run.found)
        span = describe_versions(run.eco, [s.version for s in found]).replace("versions ", "")
        where = ", ".join(f"{n} from {label}" for label, n in counts.items())
        note = f"found {len(found)} section{'s' if len(found) > 1 else ''} ({span}): {where}"
        if missing:
            shown = ", ".join(missing[:8]) + (", …" if len(missing) > 8 else "")
            note += f"; no notes found for {shown}, which the registry publishes"
        if run.no_file and not run.files_read:
            note += f"; {run.no_file.split(' (')[0]}"
    else:
        tried = ", ".join(run.tried) or "no source"
        note = f"no section between {run.old} and {run.new} found; tried {tried}"
        if run.errors:
            note += "; upstream problems: " + "; ".join(run.errors)
    return ChangelogResult(
        ecosystem=run.eco,
        package=run.package,
        from_version=run.old,
        to_version=run.new,
        sections=sections,
        context=context,
        sources_tried=run.tried,
        missing_versions=missing,
        note=note,
        errors=run.errors,
        trimmed=trimmed,
        published=[text for _, text in sorted(run.needed.items())],
        analysed=analysed,
        analysed_trimmed=analysed_trimmed,
    )
