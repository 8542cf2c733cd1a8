"""The body of an issue draft: its sections (what broke, in upstream's own words; where our
code uses it; a suggested fix; a checklist; the footer) and the fitting under GitHub's
65,536-character limit, trimming quotes, then call sites, with a note that says what was
left out. Pure: no I/O. The draft around it (identity, title, files) is ``drafts.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from depbot.core.redact import redact
from depbot.output.links import RepoLink, safe_http_url, source_ref
from depbot.output.mdsafe import (
    blockquote,
    clean_line,
    code_span,
    neutralize,
    neutralize_inline,
    neutralize_line,
)
from depbot.records.accounting import named_in
from depbot.records.update import Update
from depbot.records.verdict import BreakingChange, Hit, Verdict

BODY_LIMIT = 65_536  # GitHub's cap on issue and comment bodies, in characters
HIT_TEXT_LIMIT = 200
FOOTER_PREFIX = "<sub>Drafted by depbot"


def plural(n: int, word: str) -> str:
    """``1 file``, ``2 files``, ``1,024 files``."""
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


def unique_hits(hits: Iterable[Hit]) -> list[Hit]:
    """The hits by path and line, one per line."""
    seen: set[tuple[str, int]] = set()
    out = []
    for h in sorted(hits, key=lambda h: (h.path, h.line)):
        if (h.path, h.line) in seen:
            continue
        seen.add((h.path, h.line))
        out.append(h)
    return out


def _every_file(hits: list[Hit], n: int) -> list[Hit]:
    """At most ``n`` hits: one per file first, so a trimmed draft cites every file."""
    first: dict[str, Hit] = {}
    for h in hits:
        first.setdefault(h.path, h)
    picked = list(first.values())[:n]
    chosen = {(h.path, h.line) for h in picked}
    rest = [h for h in hits if (h.path, h.line) not in chosen][: max(0, n - len(picked))]
    return sorted(picked + rest, key=lambda h: (h.path, h.line))


def impact(verdict: Verdict) -> str:
    """``breaks 2 call sites in 1 file`` (or a plain sentence when no line was cited); when
    a search found more places than the verdict cites (``conclude`` takes at most 50), it
    says so: the cited count is not the whole."""
    hits = unique_hits(verdict.hits)
    files = len({h.path for h in hits})
    if not hits:
        return "has breaking changes that affect this repository"
    said = f"breaks {plural(len(hits), 'call site')} in {plural(files, 'file')}"
    found = searched_most(verdict)
    return f"{said} cited, of {found} places found" if found > len(hits) else said


def searched_most(verdict: Verdict) -> int:
    """The most places one breaking item's searches found (0 without an accounting)."""
    acc = verdict.accounting
    items = acc.items if acc is not None else ()
    return max((i.hits for i in items if i.disposition == "searched"), default=0)


def _pr_link(u: Update) -> str | None:
    if u.source != "dependabot":
        return None
    url = safe_http_url(u.source_ref) if u.source_ref else None
    number = str(u.extra.get("pr", "")).strip()
    label = f"#{number}" if number.isdigit() else "the pull request"
    if url:
        return f"[Dependabot {label}]({url})"
    return f"Dependabot {label}" if number.isdigit() else None


def _cut_quote(text: str, cap: int | None) -> tuple[str, int]:
    """``text`` cut at a line end to at most ``cap`` characters, and how many were dropped."""
    if cap is None or len(text) <= cap:
        return text, 0
    if cap <= 0:
        return "", len(text)
    cut = text.rfind("\n", 0, cap)
    cut = cut if cut > cap // 2 else cap
    kept = text[:cut].rstrip()
    return kept + "\n…", len(text) - len(kept)


def _breaking_change(n: int, bc: BreakingChange, quote_cap: int | None) -> tuple[str, int]:
    head = f"### {n}. {neutralize_line(bc.summary) or 'Breaking change'}"
    facts = []
    if bc.version:
        facts.append(f"version {neutralize_line(bc.version)}")
    if bc.symbols:
        facts.append("breaks " + ", ".join(code_span(s) for s in bc.symbols))
    # cut before neutralizing: a cut inside a code span would free what it held
    kept, dropped = _cut_quote(bc.quote if bc.quote.strip() else "", quote_cap)
    kept = neutralize(kept) if kept.strip() else ""
    if kept:
        facts.append(f"quoted from {source_ref(bc.source)}:")
    elif dropped:
        facts.append(f"the quote is left out here; read it in {source_ref(bc.source)}")
    else:
        facts.append(f"read in {source_ref(bc.source)} (no changelog lines were recorded)")
    line = " · ".join(facts)
    parts = [head, line[0].upper() + line[1:]]
    if kept:
        parts.append(blockquote(kept))
    return "\n\n".join(parts), dropped


def from_code(bc: BreakingChange) -> bool:
    """Whether the change was seen in the released code (an ``api_diff`` finding, ``a3``)."""
    return re.fullmatch(r"a\d+", bc.section_ref) is not None


def _code_evidence(
    seen: list[BreakingChange], *, notes_say_it: bool, notes_read: bool, notes_name_it: bool
) -> str:
    """The API diff's findings: confirming the notes, or the only source of the break (and
    "the notes do not mention it" only when the notes were read and no item names it)."""
    if notes_say_it:
        head = "**Seen in the released code too** (the API of both versions compared):"
    elif notes_read and notes_name_it:
        head = (
            "**The release notes name this in an item no search of the code was made for**; "
            "the break was seen by comparing the released code of both versions:"
        )
    elif notes_read:
        head = (
            "**The release notes do not mention this break**; it was seen by comparing the "
            "released code of both versions:"
        )
    else:
        head = (
            "**The release notes could not be read in this run**; the break was seen by "
            "comparing the released code of both versions:"
        )
    lines = [
        f"- {neutralize_line(bc.summary)} · {code_span(bc.source)}"
        + (f" · {code_span(neutralize_line(bc.quote))}" if bc.quote.strip() else "")
        for bc in seen[:10]
    ]
    return "\n".join([head, "", *lines])


def _hit_line(h: Hit, repo: RepoLink | None) -> str:
    where = code_span(f"{h.path}:{h.line}")
    url = repo.permalink(h.path, h.line) if repo else None
    if url:
        where = f"[{where}]({url})"
    text = redact(clean_line(h.text), filename=h.path)
    if len(text) > HIT_TEXT_LIMIT:
        text = text[: HIT_TEXT_LIMIT - 1] + "…"
    check = " (the object's type is not known here: check it)" if h.weak else ""
    return f"- {where}: {code_span(text)}{check}"


def _fallback_fix(verdict: Verdict) -> str:
    u = verdict.update
    symbols = sorted({s for bc in verdict.breaking_changes for s in bc.symbols})
    named = ", ".join(code_span(s) for s in symbols[:8]) if symbols else "the removed APIs"
    return (
        f"Change the call sites above so they no longer rely on {named}, following the "
        f"changelog quoted above; until then keep {code_span(u.package)} at {neutralize_line(u.from_version)}."
    )


@dataclass
class _Limits:
    max_hits: int | None = None
    quote_cap: int | None = None
    text_cap: int | None = None


def _cap(text: str, cap: int | None) -> str:
    if cap is None or len(text) <= cap:
        return text
    return text[: cap - 1].rstrip() + "…"


def _summary(verdict: Verdict, pr: str | None, text_cap: int | None) -> list[str]:
    """The opening: the update and its impact, the pull request that proposed it, why."""
    u = verdict.update
    where = f", declared in {code_span(u.manifest)}" if u.manifest else ""
    parts = [
        f"**{code_span(u.package)} {neutralize_line(u.from_version)} → "
        f"{neutralize_line(u.to_version)}** "
        f"({u.update_type} update, {u.ecosystem}{where}) {impact(verdict)}"
        + (" in this repository." if verdict.hits else ".")
    ]
    if pr:
        parts.append(f"Proposed by {pr}.")
    if verdict.reason.strip():
        parts.append("**Why:** " + neutralize_inline(_cap(verdict.reason, text_cap)))
    return parts


def _what_broke(verdict: Verdict, quote_cap: int | None) -> tuple[list[str], int]:
    """The "What broke" section: the noted changes, then what the released code showed;
    also how many changelog characters were left out."""
    parts = ["## What broke"]
    dropped_chars = 0
    noted = [bc for bc in verdict.breaking_changes if not from_code(bc)]
    seen = [bc for bc in verdict.breaking_changes if from_code(bc)]
    for i, bc in enumerate(noted, 1):
        text, dropped = _breaking_change(i, bc, quote_cap)
        parts.append(text)
        dropped_chars += dropped
    if not verdict.breaking_changes:
        parts.append("No changelog section was recorded for this update.")
    if seen:
        acc = verdict.accounting
        read = acc is None or acc.basis.startswith("notes")
        items = [f"{i.text} {' '.join(i.terms)}" for i in acc.items] if acc else []
        named = named_in((s for bc in seen for s in bc.symbols[:1]), items)
        parts.append(
            _code_evidence(seen, notes_say_it=bool(noted), notes_read=read, notes_name_it=named)
        )
    return parts, dropped_chars


def _where_used(
    hits: list[Hit], shown: list[Hit], repo: RepoLink | None, found: int = 0
) -> list[str]:
    """The "Where our code uses it" section: the ``shown`` hits of ``hits`` (of ``found``
    places the searches found, when more)."""
    parts = ["## Where our code uses it"]
    omitted_hits = len(hits) - len(shown)
    if hits:
        files = len({h.path for h in hits})
        parts.append(f"{plural(len(hits), 'call site')} in {plural(files, 'file')}:")
        lines = [_hit_line(h, repo) for h in shown]
        if omitted_hits:
            lines.append(f"- … and {plural(omitted_hits, 'more call site')} (see report.json)")
        if found > len(hits):  # more than the verdict cites: the trace has every one
            lines.append(f"- … the searches found {found} places in all; the trace lists each")
        parts.append("\n".join(lines))
    else:
        parts.append("No line of this repository was cited; check where the package is used.")
    return parts


def _suggested_fix(verdict: Verdict, text_cap: int | None) -> list[str]:
    """The "Suggested fix" section: the model's fix, else one naming the broken APIs."""
    fix = verdict.suggested_fix
    fix = neutralize(_cap(fix, text_cap)) if fix.strip() else ""
    return ["## Suggested fix", fix or _fallback_fix(verdict)]


def _checklist(u: Update, hits: list[Hit], pr: str | None) -> list[str]:
    """The "Checklist" section: each file to update, the tests, the merge or the raise."""
    checks = []
    by_file: dict[str, int] = {}
    for h in hits:
        by_file[h.path] = by_file.get(h.path, 0) + 1
    for path, count in list(by_file.items())[:20]:
        checks.append(f"- [ ] Update {code_span(path)} ({plural(count, 'call site')})")
    if len(by_file) > 20:
        checks.append(f"- [ ] Update the other {plural(len(by_file) - 20, 'file')}")
    checks.append(
        f"- [ ] Run the tests with {code_span(u.package)} {neutralize_line(u.to_version)}"
    )
    if pr:
        checks.append(f"- [ ] Merge {pr}")
    else:
        target = f" in {code_span(u.manifest)}" if u.manifest else ""
        checks.append(
            f"- [ ] Raise {code_span(u.package)} to {neutralize_line(u.to_version)}{target}"
        )
    return ["## Checklist", "\n".join(checks)]


def _footer(generated_at: str | None) -> str:
    """The closing rule and line: what the draft was made from, and when."""
    footer = (
        f"{FOOTER_PREFIX} from the changelog text it fetched and a search of this repository"
        + (f" on {clean_line(generated_at)}" if generated_at else "")
        + ". Review before acting.</sub>"
    )
    return "---\n" + footer


def _trim_note(omitted_hits: int, dropped_chars: int) -> str:
    """The note saying what was left out to fit GitHub's limit."""
    left = []
    if omitted_hits:
        left.append(plural(omitted_hits, "more call site"))
    if dropped_chars:
        left.append(f"{dropped_chars:,} characters of changelog")
    return (
        f"_Trimmed to fit GitHub's {BODY_LIMIT:,}-character limit: "
        f"{' and '.join(left)} omitted. report.json lists every call site; the linked "
        "changelogs have the full text._"
    )


def _assemble(
    verdict: Verdict,
    repo: RepoLink | None,
    generated_at: str | None,
    marker: str,
    lim: _Limits,
) -> tuple[list[str], int, int]:
    """The body's parts under ``lim`` (joined by blank lines; the marker last); also how many
    hits and changelog characters were left out."""
    u = verdict.update
    hits = unique_hits(verdict.hits)
    shown = hits if lim.max_hits is None else _every_file(hits, lim.max_hits)
    omitted_hits = len(hits) - len(shown)
    pr = _pr_link(u)
    parts = _summary(verdict, pr, lim.text_cap)
    trim_at = len(parts)
    broke, dropped_chars = _what_broke(verdict, lim.quote_cap)
    parts += broke
    parts += _where_used(hits, shown, repo, searched_most(verdict))
    parts += _suggested_fix(verdict, lim.text_cap)
    parts += _checklist(u, hits, pr)
    parts.append(_footer(generated_at))
    if omitted_hits or dropped_chars:
        parts.insert(trim_at, _trim_note(omitted_hits, dropped_chars))
    parts.append(marker)
    return parts, omitted_hits, dropped_chars


def fit_body(
    verdict: Verdict, repo: RepoLink | None, generated_at: str | None, marker: str, limit: int
) -> str:
    """The fullest body that fits: trim quotes, then call sites, then free text."""
    n_hits = len(unique_hits(verdict.hits))

    def render(lim: _Limits) -> str:
        return "\n\n".join(_assemble(verdict, repo, generated_at, marker, lim)[0])

    body = render(_Limits())
    if len(body) <= limit:
        return body
    for quote_cap, text_cap in ((2000, None), (300, 2000), (0, 1000)):
        body = render(_Limits(None, quote_cap, text_cap))
        if len(body) <= limit:
            return body
        if len(render(_Limits(0, quote_cap, text_cap))) > limit:
            continue
        lo, hi = 0, n_hits  # the largest number of hits that fits
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if len(render(_Limits(mid, quote_cap, text_cap))) <= limit:
                lo = mid
            else:
                hi = mid - 1
        if lo > 0 or quote_cap == 0:
            return render(_Limits(lo, quote_cap, text_cap))
    # pathological input (thousands of breaking changes): keep whole parts while they fit
    # (a cut inside one could leave a code span or fence open), then the note and the marker
    parts = _assemble(verdict, repo, generated_at, marker, _Limits(0, 0, 200))[0][:-1]
    note = "_Trimmed hard to fit GitHub's limit; report.json has the details._"
    room = limit - len(note) - len(marker) - 4
    kept: list[str] = []
    for part in parts:
        if sum(len(k) + 2 for k in kept) + len(part) > room:
            break
        kept.append(part)
    return "\n\n".join([*kept, note, marker])
