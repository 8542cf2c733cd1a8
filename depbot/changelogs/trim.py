"""Cutting changelog sections down to a size budget, and reading their deprecation notes. Pure.

``trim_to_budget`` keeps whole every line that tells of a breaking change (``BREAKING_WORDS``)
with the continuation lines of its bullet, and every item under a sub-heading that does,
then fills what is left of the budget with the other lines in order, shared fairly between
the sections. ``deprecation_notes`` / ``removes_deprecated`` find what earlier releases
deprecated and whether a release says deprecated code is now gone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from depbot.changelogs.markup import ATX as _ATX
from depbot.changelogs.markup import BULLET as _BULLET
from depbot.changelogs.markup import FENCE as _FENCE
from depbot.changelogs.markup import is_punct_run as _is_punct_run
from depbot.changelogs.sections import Section

__all__ = [
    "BREAKING_WORDS",
    "TRIMMED_MARK",
    "breaking_lines_cut",
    "deprecation_notes",
    "removes_deprecated",
    "trim_to_budget",
]

# Lines that tell of something that may break a caller; ``trim_to_budget`` keeps them whole.
BREAKING_WORDS = re.compile(
    r"\b(?:break(?:s|ing)?|remov(?:e|ed|es|al|als|ing)|renam(?:e|ed|es|ing)|deprecat\w*"
    r"|no\s+longer|drop(?:s|ped|ping)?|migrat\w*|incompatib\w*|gone"
    r"|now\s+requir(?:e|es|ed))\b",  # "now requires a plugin", "A Plugin is Now Required"
    re.IGNORECASE,
)

_BOLD_LINE = re.compile(r"^\s*(?:\*\*|__)([^*_]{1,80})(?:\*\*|__):?\s*$")


# -- trimming ---------------------------------------------------------------------------------


@dataclass
class _Block:
    lines: list[str]
    important: bool
    heading: bool = False


def _blocks(body: str) -> list[_Block]:
    """Split a body into bullets (with their continuation lines), paragraphs and sub-headings."""
    lines = body.split("\n")
    out: list[_Block] = []
    under_breaking_heading = False
    under_breaking_lead_in = False  # the bullets after "We've removed these options:"
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if not line.strip():
            out.append(_Block([line], False))
            i += 1
            continue
        is_atx = bool(_ATX.match(line)) and line.lstrip().startswith("#")
        is_under = i + 1 < n and not line[0].isspace() and _is_punct_run(lines[i + 1])
        is_bold = bool(_BOLD_LINE.match(line))
        if is_atx or is_under or is_bold:
            take = lines[i : i + (2 if is_under else 1)]
            under_breaking_heading = bool(BREAKING_WORDS.search(line))
            under_breaking_lead_in = False
            out.append(_Block(take, False, heading=True))
            i += len(take)
            continue
        bullet = _BULLET.match(line)
        fm = _FENCE.match(line)
        j = i + 1
        if fm:
            while j < n and not (
                _FENCE.match(lines[j]) and lines[j].strip().startswith(fm.group(1)[0])
            ):
                j += 1
            j = min(j + 1, n)
        elif bullet:
            indent = len(bullet.group(1))
            while j < n:
                nxt = lines[j]
                if not nxt.strip():
                    k = j
                    while k < n and not lines[k].strip():
                        k += 1
                    if k < n and len(lines[k]) - len(lines[k].lstrip()) > indent:
                        j = k
                        continue
                    break
                nindent = len(nxt) - len(nxt.lstrip())
                if nindent > indent:
                    j += 1
                    continue
                if _BULLET.match(nxt) or _ATX.match(nxt) or _FENCE.match(nxt):
                    break
                if j + 1 < n and _is_punct_run(lines[j + 1]):
                    break
                if nindent == indent and nindent == 0 and not bullet.group(0).strip()[0].isdigit():
                    j += 1  # lazy continuation of a wrapped bullet
                    continue
                break
        else:
            while j < n and lines[j].strip() and not _BULLET.match(lines[j]):
                if _ATX.match(lines[j]) or _FENCE.match(lines[j]):
                    break
                if j + 1 < n and _is_punct_run(lines[j + 1]):
                    break
                j += 1
        chunk = lines[i:j]
        says = any(BREAKING_WORDS.search(x) for x in chunk)
        important = under_breaking_heading or says or (bool(bullet) and under_breaking_lead_in)
        if not bullet:
            under_breaking_lead_in = says and chunk[-1].rstrip().endswith(":")
        out.append(_Block(chunk, important))
        i = j
    return out


def _size(lines: list[str]) -> int:
    return sum(len(x) + 1 for x in lines)


_RELEASE = re.compile(r"^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?")


def release_rank(version: str) -> int:
    """0 for a major release (``4.0.0``, ``4.0.0-beta.1``; ``0.5.0`` below 1.0), 1 for a minor,
    2 for a fix release or a version not written that way."""
    m = _RELEASE.match(version)
    if m is None:
        return 2
    major, minor, micro = (int(g or 0) for g in m.groups())
    if minor == 0 and micro == 0 or major == 0 and micro == 0:
        return 0
    return 1 if micro == 0 else 2


# the least room one section gets: past budget // SECTION_SHARE sections, whole sections go
SECTION_SHARE = 200


def trim_to_budget(sections: list[Section], budget: int) -> tuple[list[Section], str | None]:
    """Fit the sections into ``budget`` characters; say what was cut, or None.

    At most ``budget // SECTION_SHARE`` sections are kept (a range of thousands of releases,
    or a file of nothing but version headings, would otherwise cost more in section
    headers than the budget holds): those whose text tells of a breaking change first,
    newest first, then the newest others; the note names the versions left out. Then the
    kept sections' text is cut as ``_trim_text`` says.
    """
    limit = max(1, budget // SECTION_SHARE)
    if len(sections) <= limit:
        return _trim_text(sections, budget)
    telling = [i for i, s in enumerate(sections) if BREAKING_WORDS.search(s.body)]
    # a major's own section (and its pre-releases) first, then minors', then fixes': semver
    # puts breaks in majors, and the fix releases of a long range often say "remove"
    telling.sort(key=lambda i: (release_rank(sections[i].version), i))
    keep = set(telling[:limit])
    for i in range(len(sections)):
        if len(keep) >= limit:
            break
        keep.add(i)
    left_out = [s.version for i, s in enumerate(sections) if i not in keep]
    kept, note = _trim_text([s for i, s in enumerate(sections) if i in keep], budget)
    shown = ", ".join(left_out[:4]) + (f", … {left_out[-1]}" if len(left_out) > 4 else "")
    what = "sections without a breaking-change line" if len(telling) <= limit else "sections"
    head = (
        f"{len(sections):,} sections are more than fit: left out {len(left_out):,} {what} "
        f"(versions {shown}); ask for a narrower version range to see them"
    )
    return kept, head + (f"; {note}" if note else "")


def _trim_text(sections: list[Section], budget: int) -> tuple[list[Section], str | None]:
    """Fit the sections' text into ``budget`` characters; say what was cut, or None.

    Every line that mentions breaking / removed / renamed / deprecated / no longer / dropped /
    migration (``BREAKING_WORDS``), with the continuation lines of its bullet, and every item
    under a sub-heading that does (``Removed``, ``BREAKING CHANGES``) or under a lead-in that
    does ("We've deprecated these rules:") is kept whole; the rest
    is kept in order while the budget lasts, shared fairly between the sections. Each run of
    cut lines is replaced by one ``[… N lines trimmed …]`` line.
    """
    total = sum(len(s.heading) + len(s.body) + 2 for s in sections)
    if total <= budget or not sections:
        return list(sections), None
    plans = [_blocks(s.body) for s in sections]
    fixed = sum(len(s.heading) + 2 for s in sections)
    # lines kept per block: 0 (cut) .. len(block.lines) (whole)
    kept, must = _must_keep(plans)
    important_cut = 0
    room = budget - fixed - must
    if room < 0:
        important_cut = _cut_important(plans, kept, budget - fixed)
        room = 0
    _fill(plans, kept, _shares(plans, kept, room))
    out: list[Section] = []
    cut_versions: list[str] = []
    for s, blocks, row in zip(sections, plans, kept, strict=True):
        text = _render(blocks, row)
        if text != s.body:
            cut_versions.append(s.version)
        out.append(replace(s, body=text))
    after = sum(len(s.heading) + len(s.body) + 2 for s in out)
    return out, _trim_note(total, after, budget, cut_versions, important_cut)


def _must_keep(plans: list[list[_Block]]) -> tuple[list[list[int]], int]:
    """Per section, the lines kept of each block at first (the sub-headings and the blocks
    that tell of a breaking change, whole; nothing of the others), and their size."""
    kept: list[list[int]] = []
    must = 0
    for blocks in plans:
        row = [len(b.lines) if (b.heading or b.important) else 0 for b in blocks]
        kept.append(row)
        must += sum(_size(b.lines) for b, k in zip(blocks, row, strict=True) if k)
    return kept, must


def _cut_important(plans: list[list[_Block]], kept: list[list[int]], room: int) -> int:
    """Even the breaking-change lines do not fit in ``room``: keep them in order while it
    lasts, but always the first one of every section; the number of lines cut."""
    important_cut = 0
    for blocks, row in zip(plans, kept, strict=True):
        first = True
        for idx, b in enumerate(blocks):
            if not row[idx] or b.heading:
                continue
            cost = _size(b.lines)
            if first or cost <= room:
                room -= cost
                first = False
            else:
                row[idx] = 0
                important_cut += len(b.lines)
    return important_cut


def _shares(plans: list[list[_Block]], kept: list[list[int]], room: int) -> list[int]:
    """The room each section gets for its other lines: shared fairly, and what a short
    section does not need goes to the longer ones (after the room the markers take)."""
    needs = [
        sum(
            _size(b.lines) for b, k in zip(blocks, row, strict=True) if not k and b.lines[0].strip()
        )
        for blocks, row in zip(plans, kept, strict=True)
    ]
    room = max(0, room - 2 * len("[… 9999 lines trimmed …]\n") * len(plans))  # the markers
    shares = [0] * len(plans)
    left = len(plans)
    for i in sorted(range(len(plans)), key=lambda i: needs[i]):
        shares[i] = min(needs[i], room // max(left, 1))
        room -= shares[i]
        left -= 1
    return shares


def _fill(plans: list[list[_Block]], kept: list[list[int]], shares: list[int]) -> None:
    """Keep each section's other lines in order while its share lasts (the first lines of
    the block that fits only in part, then no more)."""
    for blocks, row, share in zip(plans, kept, shares, strict=True):
        used = 0
        for idx, b in enumerate(blocks):
            if row[idx] or not b.lines[0].strip():
                continue
            cost = _size(b.lines)
            if used + cost <= share:
                row[idx] = len(b.lines)
                used += cost
                continue
            for x in b.lines:  # the first lines of a block that fits only in part
                if used + len(x) + 1 > share:
                    break
                row[idx] += 1
                used += len(x) + 1
            break


def _render(blocks: list[_Block], row: list[int]) -> str:
    """A section's body of the lines kept, each run of cut lines one marker line."""
    body: list[str] = []
    run = 0
    for b, k in zip(blocks, row, strict=True):
        if k == 0:
            if b.lines[0].strip():
                run += len(b.lines)
            elif not run and body and body[-1].strip():
                body.append("")  # keep the blank line between two kept blocks
            continue
        if run:
            body.append(_marker(run))
            run = 0
        body.extend(b.lines[:k])
        run = len(b.lines) - k
    if run:
        body.append(_marker(run))
    while body and not body[-1].strip():
        body.pop()
    return "\n".join(body)


_BREAKING_CUT = "even the breaking-change lines did not all fit"
TRIMMED_MARK = re.compile(r"\[\u2026 \d+ lines trimmed \u2026\]")  # what ``_marker`` writes


def _marker(run: int) -> str:
    """The line that stands for ``run`` cut lines."""
    return f"[\u2026 {run} lines trimmed \u2026]"


def breaking_lines_cut(note: str | None) -> bool:
    """Whether a trim note (``trim_to_budget``'s) says lines about breaking changes were cut:
    the only cut that leaves breaking items unread (the others are lines that say none)."""
    return bool(note) and _BREAKING_CUT in str(note)


def _trim_note(
    total: int, after: int, budget: int, cut_versions: list[str], important_cut: int
) -> str:
    """What the trimming did, for the reader of the notes."""
    shown = ", ".join(cut_versions[:6]) + (", …" if len(cut_versions) > 6 else "")
    note = (
        f"trimmed the notes from {total:,} to {after:,} characters (budget {budget:,}); "
        f"lines were cut from {shown}"
    )
    if important_cut:
        note += (
            f"; {_BREAKING_CUT} ({important_cut} of them were "
            "cut too): ask for a narrower version range to see them"
        )
    else:
        note += (
            "; every line about a breaking change, removal, rename, deprecation or migration "
            "was kept"
        )
    return note


# -- deprecation notes ------------------------------------------------------------------------

_DEPRECATED = re.compile(r"\bdeprecat\w*", re.IGNORECASE)
# "deprecated … removed" or "removed … deprecated" in one block: two linear searches each
# (a ``.*`` between them would backtrack from every "deprecat" and be quadratic)
_DEPRECAT_WORD = re.compile(r"\bdeprecat\w*\b", re.IGNORECASE)
_GONE_AFTER = re.compile(r"\b(?:remov\w*|gone|delet\w*|dropped|no\s+longer)\b", re.IGNORECASE)
_GONE_BEFORE = re.compile(r"\b(?:remov\w*|delet\w*|drop\w*)\b", re.IGNORECASE)


_FUTURE = re.compile(
    r"\b(?:will|to|going to|scheduled to|planned to)\s+(?:be\s+)?(?:remov\w*|deleted|dropped|go away)"
    r"|\bin a (?:future|later|coming) (?:release|version)",
    re.IGNORECASE,
)


def _says_removed_deprecated(text: str) -> bool:
    text = _FUTURE.sub(" ", text.replace("\n", " "))
    first = _DEPRECAT_WORD.search(text)
    if first is None:
        return False
    if _GONE_AFTER.search(text, first.end()):
        return True
    gone = _GONE_BEFORE.search(text)
    return gone is not None and _DEPRECAT_WORD.search(text, gone.end()) is not None


def deprecation_notes(body: str) -> list[str]:
    """The bullets/paragraphs of a body that deprecate something, whole, in order.

    Bullets that report the removal of deprecated code are not deprecation notes.
    """
    out: list[str] = []
    for b in _blocks(body):
        if b.heading or not b.lines[0].strip():
            continue
        text = "\n".join(b.lines)
        if _DEPRECATED.search(text) and not _says_removed_deprecated(text):
            out.append(text)
    return out


def removes_deprecated(sections: list[Section]) -> bool:
    """Whether any section says previously deprecated code is now removed (not "will be")."""
    return any(
        _says_removed_deprecated("\n".join(b.lines)) for s in sections for b in _blocks(s.body)
    )
