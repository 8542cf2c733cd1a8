"""Changelog text to version sections, and the slice of them an update brings. Pure: no I/O.

``parse_sections`` cuts a changelog at every heading that carries a version, whatever its
style (``headings.read_headings`` finds them; its docstring lists the styles).

A version heading ends the previous section whatever its level; "Unreleased" / "main" /
"dev" headings end it too without starting one; a non-version heading of a higher level
(``# 2.x release`` above ``## v2.6.0``) ends it, while sub-headings (``### Breaking``,
``Removed`` / ``-------``) stay in the body. Versions are matched on token boundaries and
compared with PEP 440 (pip) or semver (npm), so ``1.2.3`` never stands for ``1.2.30`` and
``1.0`` equals ``1.0.0``.

``slice_range`` picks the sections an update ``old -> new`` brings (``old < v <= new``),
newest first, whatever order the file used (``trim.trim_to_budget`` then cuts them down to
a size budget).
``tag_version`` reads a release tag (``v1.2.3``, ``@scope/pkg@1.2.3``, ``pkg-v1.2.3``, …).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from depbot import ecosystems
from depbot.changelogs.headings import DATE as _DATE
from depbot.changelogs.headings import VER as _VER
from depbot.changelogs.headings import Heading, heading_version, read_headings
from depbot.records.names import normalize
from depbot.records.versions import Version, parse_version

__all__ = [
    "Section",
    "describe_versions",
    "heading_version",
    "parse_sections",
    "pick_tags",
    "slice_range",
    "tag_version",
    "version_key",
]


@dataclass(frozen=True)
class Section:
    """One version's notes, with the exact place they were read from."""

    version: str  # as written, without a leading "v"
    heading: str  # the heading line as written
    body: str  # the text under the heading (no heading line, no underline)
    source: str  # URL of the file at its ref / of the release, or "owner/repo:path@ref"
    line_start: int  # 1-based span of heading + body in the source (0/0 for release bodies)
    line_end: int
    kind: str = "file"  # "file" | "release" | "description"


_LINK_REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*\S+")
_ANCHOR_LINE = re.compile(r"^\s*(?:<a\s[^>]*>\s*</a>|<a\s[^>]*/>|<!--.*-->)\s*$", re.IGNORECASE)


# -- versions ---------------------------------------------------------------------------------


@lru_cache(maxsize=65536)
def version_key(ecosystem: str, text: str) -> Version | None:
    """Parse a version as a changelog writes it, as its ecosystem forgives (npm: "1.02", "rc1")."""
    v = parse_version(ecosystem, text)
    if v is not None:
        return v
    fixed = ecosystems.get(ecosystem).forgiving_version(text)
    return parse_version(ecosystem, fixed) if fixed is not None else None


def describe_versions(ecosystem: str, versions: list[str], *, newest: int = 0) -> str:
    """``versions 0.1–3.0.0`` (or the newest few), for notes about what a source contained."""
    parsed = sorted(
        {k: t for t in versions if (k := version_key(ecosystem, t)) is not None}.items(),
        key=lambda kv: kv[0],
    )
    if not parsed:
        return "no version headings"
    texts = [t for _, t in parsed]
    if newest and len(texts) > newest:
        return "versions " + ", ".join(reversed(texts[-newest:])) + ", …"
    if len(texts) == 1:
        return f"version {texts[0]}"
    return f"versions {texts[0]}\u2013{texts[-1]}"


def parse_sections(
    text: str, source: str, *, ecosystem: str, kind: str = "file", package: str | None = None
) -> list[Section]:
    """Every section whose heading carries a version, in file order; duplicates merged.

    With ``package``, a ``name@1.2.3`` heading of another package (a monorepo's shared
    changelog) ends the section before it but starts none.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    headings = read_headings(text, lines, source, kind, package)
    spans = _heading_spans(_section_ends(headings, len(lines)), lines) or _list_items(lines)
    return _merge_duplicates([_section(span, source, kind) for span in spans], ecosystem)


def _section_ends(headings: list[Heading], n_lines: int) -> list[tuple[Heading, int]]:
    """Every version heading with the index of its section's last line.

    A version or "Unreleased" heading ends the open section, and so does a heading of a
    higher level; a weak version heading below the open one's level is a sub-heading."""
    raw: list[tuple[Heading, int]] = []  # (version heading, last line index)
    current: Heading | None = None
    for h in headings:
        if (
            h.weak
            and current is not None
            and current.level is not None
            and h.level is not None
            and h.level > current.level
        ):
            continue  # a sub-heading that happens to name a version
        if h.version or h.unreleased:
            if current is not None:
                raw.append((current, h.start - 1))
            current = h if h.version else None
        elif current is not None:
            # a bare version line has no level: a title (# or ##) ends its section, while its
            # own sub-headings ("#### Breaking changes" under "**1.0.0** Sep 13, 2019") stay
            bare_ends = current.level is None and (h.level is None or h.level <= 2)
            if bare_ends or (
                current.level is not None and h.level is not None and h.level < current.level
            ):
                raw.append((current, h.start - 1))
                current = None
    if current is not None:
        raw.append((current, n_lines - 1))
    return raw


# (first line, version, heading text, body lines, index of the body's first line)
_Span = tuple[int, str, str, list[str], int]


def _heading_spans(raw: list[tuple[Heading, int]], lines: list[str]) -> list[_Span]:
    """The span of each version heading's section (an underlined title's heading is its text)."""
    return [
        (
            h.start,
            h.version or "",
            lines[h.start].strip() if h.start == h.end else h.text,
            lines[h.end + 1 : end + 1],
            h.end + 1,
        )
        for h, end in raw
    ]


def _section(span: _Span, source: str, kind: str) -> Section:
    """The section of a span, its body without the blank lines around it nor the link
    definitions and anchors at its end."""
    start, version, heading, body_lines, body_at = span
    while body_lines and (
        not body_lines[-1].strip()
        or _LINK_REF_DEF.match(body_lines[-1])
        or _ANCHOR_LINE.match(body_lines[-1])
    ):
        body_lines.pop()
    last = body_at + len(body_lines) - 1 if body_lines else start
    while body_lines and not body_lines[0].strip():
        body_lines.pop(0)
    return Section(
        version=version,
        heading=heading,
        body="\n".join(body_lines),
        source=source,
        line_start=start + 1,
        line_end=last + 1,
        kind=kind,
    )


def _merge_duplicates(sections: list[Section], ecosystem: str) -> list[Section]:
    """One section per version (``1.0`` and ``1.0.0`` are one): later bodies join the first."""
    merged: dict[object, int] = {}
    out: list[Section] = []
    for sec in sections:
        key: object = version_key(ecosystem, sec.version) or sec.version
        if key in merged:
            first = out[merged[key]]
            out[merged[key]] = replace(
                first,
                body=(first.body + "\n\n" + sec.body).strip("\n"),
                line_start=min(first.line_start, sec.line_start),
                line_end=max(first.line_end, sec.line_end),
            )
        else:
            merged[key] = len(out)
            out.append(sec)
    return out


_LIST_ITEM = re.compile(
    r"^[-*+\u2022][ \t]+(?:\*\*|__)?\[?v?" + _VER + r"\]?(?:\*\*|__)?"
    r"(?:[ \t]*\(" + _DATE + r"\))?[ \t]*(?:[:\u2013\u2014]|[ \t]-[ \t]|$)[ \t]*(?P<rest>.*)$",
    re.IGNORECASE,
)


def _list_items(lines: list[str]) -> list[tuple[int, str, str, list[str], int]]:
    """A changelog that is one bullet per version (tabulate: ``- 0.9.0: Drop support…``).

    Only used when a file has no version headings: in other files such bullets are notes.
    The body is the rest of the bullet's first line and its continuation lines.
    """
    items: list[tuple[int, str, str, list[str], int]] = []
    n = len(lines)
    i = 0
    while i < n:
        m = _LIST_ITEM.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < n and (
            lines[j][:1].isspace()
            or (not lines[j].strip() and j + 1 < n and lines[j + 1][:1].isspace())
        ):
            j += 1
        body = ([m.group("rest")] if m.group("rest").strip() else []) + lines[i + 1 : j]
        items.append(
            (i, m.group("ver"), lines[i].strip(), body, i if m.group("rest").strip() else i + 1)
        )
        i = j
    return items


# -- slicing ----------------------------------------------------------------------------------


def slice_range(sections: list[Section], ecosystem: str, old: str, new: str) -> list[Section]:
    """Every section with ``old < version <= new``, newest first, whatever the file's order."""
    lo, hi = version_key(ecosystem, old), version_key(ecosystem, new)
    if lo is None or hi is None:
        return []
    picked: list[tuple[Version, int, Section]] = []
    for i, s in enumerate(sections):
        v = version_key(ecosystem, s.version)
        if v is not None and lo < v <= hi:
            picked.append((v, i, s))
    picked.sort(key=lambda t: (t[0], -t[1]), reverse=True)
    return [s for _, _, s in picked]


# -- release tags -----------------------------------------------------------------------------

_TAG = re.compile(r"(?:^|(?<=[-_/@]))v?" + _VER + r"$", re.IGNORECASE)
_GENERIC_PREFIXES = frozenset({"release", "releases", "rel", "version", "ver", "v", "tag"})


def _norm_name(name: str) -> str:
    return normalize(name.strip())


def tag_version(tag: str, package: str) -> tuple[str, str] | None:
    """``(version, kind)`` for a release tag; kind is ``bare``, ``package``, ``generic`` or ``other``.

    ``v1.2.3``/``1.2.3`` are bare; ``name@1.2.3``, ``@scope/name@1.2.3``, ``name-v1.2.3``,
    ``name_1.2.3``, ``name/1.2.3`` are the package's own when ``name`` is the package;
    ``release-1.2.3`` is generic; any other prefix belongs to another package of a monorepo.
    """
    tag = tag.strip()
    m = _TAG.search(tag)
    if not m:
        return None
    prefix = tag[: m.start()].rstrip("-_/@").strip()
    version = m.group("ver")
    if not prefix:
        return version, "bare"
    p = _norm_name(prefix)
    full = _norm_name(package)
    unscoped = _norm_name(package.rsplit("/", 1)[-1])
    if p in (full, unscoped, _norm_name(package.lstrip("@"))):
        return version, "package"
    if p in _GENERIC_PREFIXES:
        return version, "generic"
    return version, "other"


def pick_tags(tags: list[str], package: str) -> dict[str, str]:
    """The tags that belong to ``package``, as ``{tag: version}``.

    A monorepo's tags that start with the package name win; otherwise bare and generic tags
    count; a repo whose tags all share one foreign prefix (``projectname-1.2.3``) is taken as
    a single-package repo that names its tags its own way.
    """
    read = {t: tv for t in tags if (tv := tag_version(t, package)) is not None}
    own = {t: v for t, (v, k) in read.items() if k == "package"}
    if own:
        return own
    plain = {t: v for t, (v, k) in read.items() if k in ("bare", "generic")}
    if plain:
        return plain
    prefixes = {_norm_name(t[: t.rfind(v)].rstrip("-_/@vV")) for t, (v, _) in read.items()}
    if len(prefixes) == 1:
        return {t: v for t, (v, _) in read.items()}
    return {}
