"""A changelog's headings, and the version each announces. Pure: no I/O.

``read_headings`` finds every heading, whatever its style, with the version it carries
(``Upgrading to 2.0`` carries none, nor does another package's ``name@1.2.3`` when the
package is known), whether it is an "Unreleased" one, and its level; ``sections.parse_sections``
cuts the text into sections at them. The styles:

- Markdown ATX (``## 2.0.0``, ``## [2.0.0](https://…) (2023-04-26)``, ``# v3.3.3``) and setext;
- reStructuredText titles underlined (and optionally overlined) with any punctuation
  (``Version 2.0.0`` / ``-------------``, ``v5.3.3 (2024-02-26)`` / ``===``);
- bare lines that hold only a version and maybe a date, between blank lines
  (PyYAML's ``6.0 (2021-10-13)``);
- ``[2.0.0] - 2023-04-26``, ``2.0.0 / 2023-04-26``, ``Version 2.0.0``, ``v2.0.0 (2023-04-26)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from depbot.changelogs.markup import ATX as _ATX
from depbot.changelogs.markup import BULLET as _BULLET
from depbot.changelogs.markup import FENCE as _FENCE
from depbot.changelogs.markup import closes_fence
from depbot.changelogs.markup import is_punct_run as _is_punct_run
from depbot.records.names import normalize

__all__ = ["DATE", "VER", "Heading", "heading_version", "read_headings"]

# A version token: two or more numbers, an optional pre/post/dev or semver suffix, no digit
# or dot-number on either side (so 1.2.3 is never read out of 1.2.30 or 11.2.3).
VER = (
    r"(?P<ver>\d+(?:\.\d+)+"
    r"(?:(?:[-.]?(?:a|b|c|rc|alpha|beta|pre|preview|dev|post|next|canary)[-.]?\d*)"
    r"|(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z-]+)*))?"
    r"(?:\+[0-9A-Za-z.-]+)?)"
    r"(?![0-9A-Za-z])(?!\.(?:\d|[xX*]))"
)
_VERSION_TOKEN = re.compile(r"(?<![\w.])v?" + VER, re.IGNORECASE)

# Words in front of a version that make a heading about something else ("Upgrading to 2.0").
_NOT_A_RELEASE = re.compile(
    r"\b(?:to|from|since|before|after|until|prior|upgrad\w*|migrat\w*|deprecat\w*|remov\w*"
    r"|breaking|compat\w*|vs|versus|compared|requires?|python|node|node\.js|django|php)\b",
    re.IGNORECASE,
)
_UNRELEASED = re.compile(
    r"\W*(?:unreleased|upcoming|main|master|dev|develop|development|next|head|in progress"
    r"|work in progress|tbd|tba|not yet released|pending)(?:\s+(?:release|version|changes))?"
    r"(?:\s*[-:(\u2013\u2014/].*)?\W*",
    re.IGNORECASE,
)
# What may stand before a heading's version: a few words (Version, Release, Flask, pkg@).
_PREFIX_OK = re.compile(r"[\w\s@/'\u2019.:\-\[(#*~]*")
DATE = (
    r"(?:\d{4}-\d{1,2}-\d{1,2}|\d{4}/\d{1,2}/\d{1,2}|\d{4}\.\d{1,2}\.\d{1,2}"
    r"|\d{1,2}\s+[A-Za-z]{3,9}\.?,?\s+\d{4}|[A-Za-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
    r"|unreleased|tbd|tba|not yet released|in development)"
)
# A line that is nothing but a version (and a date): PyYAML's "6.0 (2021-10-13)".
_BARE = re.compile(
    r"^(?:\*\*|__)?(?:(?:version|release|rel\.?)\s+)?\[?v?"
    + VER
    + r"\]?(?:\*\*|__)?"
    + r"(?:\s*(?:[-\u2013\u2014/:,]\s*)?(?:\(\s*)?(?:released\s+(?:on\s+)?)?"
    + DATE
    + r"\s*\)?)?\s*:?\s*$",
    re.IGNORECASE,
)
_LINK = re.compile(r"!?\[([^\[\]]{0,500})\]\([^()\s]{0,2048}\)")  # bounded: linear
_LEADING_DATE = re.compile(r"^\s*(?:" + DATE + r")\s*[,:\-\u2013\u2014]?\s*", re.I)
_HTML_TAG = re.compile(r"<[^>]{0,200}>")

_MARKDOWN_EXTS = (".md", ".markdown", ".mdx", ".mkd")


# -- headings ---------------------------------------------------------------------------------


def _clean_heading(text: str) -> str:
    text = _HTML_TAG.sub("", text)
    text = _LINK.sub(r"\1", text)
    return text.replace("**", "").replace("__", "").replace("`", "").strip()


def heading_version(text: str) -> str | None:
    """The version a heading announces, or None (``Upgrading to 2.0`` announces none)."""
    found = _heading_version(text)
    return found[0] if found else None


_PLAIN_PREFIX = re.compile(r"[\s\[(#*~:\-]*(?:(?:version|release|rel\.?|v)[\s:]*)?", re.IGNORECASE)


def _heading_version(text: str) -> tuple[str, bool] | None:
    """``(version, weak)``: weak when words other than "Version"/"Release" precede it."""
    clean = _clean_heading(text)
    m = _VERSION_TOKEN.search(clean)
    if not m:
        return None
    before = _LEADING_DATE.sub("", clean[: m.start()])  # "2020-11-02, version 7.6.0"
    # a number before it ("Python 3 and 2.0") is about something else; a digit inside a
    # name is not ("Changes in D3 6.0", "Vue3 2.1.0")
    if (
        re.search(r"(?<![A-Za-z])\d", before)
        or len(before.split()) > 4
        or _NOT_A_RELEASE.search(before)
    ):
        return None
    if not _PREFIX_OK.fullmatch(before):
        return None
    return m.group("ver"), not _PLAIN_PREFIX.fullmatch(before)


def _names_package(heading: str, package: str) -> bool:
    """False when the heading is ``other-name@1.2.3``: a version of another package."""
    m = re.match(r"^[\s\[#*]*(@?[\w.-]+(?:/[\w.-]+)?)@v?\d", _clean_heading(heading))
    if not m:
        return True
    name = _norm_name(m.group(1))
    return name in (_norm_name(package), _norm_name(package.rsplit("/", 1)[-1]))


def _is_underline(title: str, under: str) -> bool:
    """``under`` underlines ``title``: a punctuation run (a ``~`` run at least as long as the
    title, since a short one is a Markdown code fence)."""
    if not _is_punct_run(under):
        return False
    u = under.rstrip()
    return u[0] != "~" or len(u) >= len(title.rstrip())


@dataclass
class Heading:
    """A heading of a changelog: where it is, its text and style, and what it announces."""

    start: int  # 0-based first line (overline or title)
    end: int  # 0-based last line (underline or title)
    text: str
    style: object  # int for ATX, ("=", False) for underlines, None for bare lines
    version: str | None
    unreleased: bool
    level: int | None = None
    weak: bool = False  # "Fix for 1.2.3": a boundary only at the version headings' level


# Lines worth a closer look: ATX headings and fences, punctuation runs (under/overlines; the
# line above one may be a title), and lines that start with a version (bare headings).
_CANDIDATE = re.compile(
    r"^(?: {0,3}[#`~]"
    r"|(?P<run>[=\-~^*+#\"':._!$%&,/;<>?@\\|])(?P=run){2,}[ \t]*$"
    r"|(?:\*\*|__|\[)?(?:v|version\s+|release\s+|rel\.?\s*)?\d)",
    re.MULTILINE | re.IGNORECASE,
)


def _candidates(text: str) -> list[int]:
    """Sorted 0-based indices of the lines of ``text`` that may start a heading or a fence."""
    out: set[int] = set()
    line, pos = 0, 0
    for m in _CANDIDATE.finditer(text):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        out.add(line)
        if m.group("run") and line:
            out.add(line - 1)  # the title above an underline
    return sorted(out)


def _find_headings(text: str, lines: list[str]) -> list[Heading]:
    out: list[Heading] = []
    n = len(lines)
    fence: str | None = None
    taken = -1  # the last line a heading used
    for i in _candidates(text):
        if i <= taken or i >= n:
            continue
        line = lines[i]
        fm = _FENCE.match(line)
        if fence is not None:
            if fm and closes_fence(fence, fm.group(1)):
                fence = None
            continue
        if not line.strip():
            continue
        # a title underlined (checked first: an rst "~~~~" underline is not a fence)
        if (
            i + 1 < n
            and (i == 0 or not lines[i - 1].strip())
            and not line[0].isspace()
            and not _is_punct_run(line)
            and not fm
            and _is_underline(line, lines[i + 1])
            and not _BULLET.match(line)
        ):
            style = (lines[i + 1].strip()[0], False)
            out.append(Heading(i, i + 1, line.strip(), style, None, False))
            taken = i + 1
            continue
        if fm:
            fence = fm.group(1)
            continue
        if line.lstrip()[:1] == "#":
            m = _ATX.match(line)
            if m:
                out.append(Heading(i, i, (m.group(2) or "").strip(), len(m.group(1)), None, False))
                continue
        # overline + title + underline
        if i + 2 < n and _is_punct_run(line) and lines[i + 1].strip():
            under = lines[i + 2].rstrip()
            if _is_punct_run(under) and under[0] == line.rstrip()[0]:
                out.append(Heading(i, i + 2, lines[i + 1].strip(), (under[0], True), None, False))
                taken = i + 2
                continue
        if (
            (i == 0 or not lines[i - 1].strip())
            and (i + 1 >= n or not lines[i + 1].strip())
            and not line[0].isspace()
        ):
            m = _BARE.match(line.strip()) or _BARE.match(_bare_text(line))
            if m:
                out.append(Heading(i, i, line.strip(), None, m.group("ver"), False))
    return out


_EMPHASIS = re.compile(r"(?<![\w*])[_*]([^_*\n]{1,60})[_*](?![\w*])")


def _bare_text(line: str) -> str:
    """A bare heading's line without its decoration: ``**1.2.0** <small>_Jun 07, 2020_</small>
    - [Diff](…)`` is ``**1.2.0** Jun 07, 2020`` (a link that is no version goes whole)."""
    text = _HTML_TAG.sub("", line)
    text = _LINK.sub(lambda m: m.group(1) if _VERSION_TOKEN.search(m.group(1)) else "", text)
    text = _EMPHASIS.sub(r"\1", text)
    return re.sub(r"[\s\-\u2013\u2014|]+$", "", text.strip())


def _assign_levels(headings: list[Heading], markdown: bool) -> None:
    order: dict[object, int] = {}
    for h in headings:
        if isinstance(h.style, tuple) and h.style not in order:
            order[h.style] = len(order) + 1
    for h in headings:
        if isinstance(h.style, int):
            h.level = h.style
        elif isinstance(h.style, tuple):
            if markdown and h.style == ("=", False):
                h.level = 1
            elif markdown and h.style == ("-", False):
                h.level = 2
            else:
                h.level = order[h.style] + (2 if markdown else 0)
        else:
            h.level = None


def read_headings(
    text: str, lines: list[str], source: str, kind: str, package: str | None
) -> list[Heading]:
    """Every heading of ``text`` (``lines``, its lines) with its version and level.

    Underline levels are read as Markdown's (``=`` 1, ``-`` 2) in a Markdown file, in a
    release's or description's body, and in any text with an ATX heading."""
    headings = _find_headings(text, lines)
    _read_versions(headings, package)
    markdown = (
        source.lower().split("?")[0].endswith(_MARKDOWN_EXTS)
        or kind != "file"
        or any(isinstance(h.style, int) for h in headings)
    )
    _assign_levels(headings, markdown)
    return headings


def _read_versions(headings: list[Heading], package: str | None) -> None:
    """Set each heading's version (None for another package's), and whether it is weak or
    an "Unreleased" one."""
    for h in headings:
        if h.version is None:
            found = _heading_version(h.text)
            if found:
                h.version, h.weak = found
                if package and not _names_package(h.text, package):
                    h.version, h.weak = None, False  # a boundary, not ours
            h.unreleased = h.version is None and (
                bool(found) or bool(_UNRELEASED.fullmatch(_clean_heading(h.text)))
            )


def _norm_name(name: str) -> str:
    return normalize(name.strip())
