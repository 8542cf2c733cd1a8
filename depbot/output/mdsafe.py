"""Make text written by others safe to quote in a GitHub issue body. Pure.

Upstream changelog text (and anything a model wrote, which may echo it) is quoted into
issue drafts. On GitHub such text could ping people (``@name``), link or cross-reference
unrelated issues (``#123``, ``GH-123``, ``owner/repo#123``, issue URLs create a back-link
on the target issue), load images, hide content or forge depbot's own hidden marker
(``<!-- depbot: … -->``). ``neutralize`` keeps the words and removes those effects:

- invisible and control characters are removed, HTML entities decoded first (so
  ``&#64;name`` cannot smuggle a mention);
- HTML comments and tags are removed; any ``<`` left is escaped;
- images become their alt text, links their text, bare URLs a code span (not autolinked);
- ``@`` before a name, ``#`` before a number and ``GH-`` before a number get a zero-width
  space after them, which GitHub's autolinkers do not match.

Code is kept as written (GitHub interprets nothing inside it), apart from invisible
characters and HTML comments, but only where CommonMark sees code: a code span within one
line, a fenced block at the top level (closed if left open), never across a list item,
heading, quote or fence. Everything else is prose, with its backslashes, backticks, brackets
and tilde fences escaped so it can open no code, link or fence of its own. A real CommonMark
parser (markdown-it-py) finds the fences and checks the result; should anything live be
left, every line is escaped as prose instead. Text placed inside a paragraph (after
``**Why:**``, in a heading, a table cell) goes through ``neutralize_inline``, where no fence
is a fence.
"""

from __future__ import annotations

import html
import re

from markdown_it import MarkdownIt

from depbot.core.fence import strip_invisible

ZWSP = "\u200b"

_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
# Link and image patterns stop at the next bracket or parenthesis and are bounded, so a text of
# a thousand unclosed "![" or "[a](" costs one short attempt each, not a scan to the end.
_DEST = r"\((?:[^()\s]|\([^()\s]{0,200}\)){0,2048}(?:[ \t]+\"[^\"\n]{0,300}\")?\)"  # (url "title")
_IMAGE = re.compile(r"!\[([^\[\]\n]{0,500})\]" + _DEST)
_LINK = re.compile(r"\[([^\[\]\n]{1,500})\]" + _DEST)
_REF_LINK = re.compile(r"\[([^\[\]\n]{1,500})\]\[[^\[\]\n]{0,200}\]")
_LINK_DEF = re.compile(r"^ {0,3}\[[^\]\n]+\]:[ \t]*\S+.*$", re.M)
_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^<>\s]+)>", re.I)
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9:-]*(?:\s[^<>]*)?/?>")
# GitHub links ``www.`` and schemes after ``_``, ``*``, ``~`` or ``(`` too: no word boundary
_URL = re.compile(r"(?:(?:https?|ftp)://|www\.)[^\s<>`]+[^\s<>`.,;:!?'\")\]]", re.I)
_MENTION = re.compile(r"@(?=[A-Za-z0-9_])")
_ISSUE_REF = re.compile(r"#(?=\d)")
_GH_REF = re.compile(r"(GH-)(?=\d)", re.I)
_ENTITY_LIKE = re.compile(r"&(?=#?[A-Za-z0-9]+;)")


def clean_line(text: str) -> str:
    """One line of plain text: invisible characters gone, newlines and tabs made spaces."""
    text = strip_invisible(text.replace("\r", " ").replace("\n", " ").replace("\t", " "))
    return re.sub(r" {2,}", " ", text).strip()


def code_span(text: str) -> str:
    """``text`` as one Markdown code span, whatever backticks it holds."""
    text = clean_line(text)
    if not text:
        return "` `"
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _prose(text: str) -> str:
    """Neutralize text that holds no code (the caller split code out)."""
    text = strip_invisible(html.unescape(text))
    text = _IMAGE.sub(lambda m: m.group(1).strip() or "image", text)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = _REF_LINK.sub(lambda m: m.group(1), text)
    text = _LINK_DEF.sub("", text)
    text = _AUTOLINK.sub(lambda m: m.group(1), text)
    text = _TAG.sub("", text)
    text = text.replace("](", "]" + ZWSP + "(")  # whatever link syntax is left stays text
    out: list[str] = []
    pos = 0
    for m in _URL.finditer(text):
        out.append(_words(text[pos : m.start()]))
        out.append(code_span(m.group(0)))
        pos = m.end()
    out.append(_words(text[pos:]))
    return "".join(out)


def _words(text: str) -> str:
    text = _escape(text)
    text = _MENTION.sub("@" + ZWSP, text)
    text = _ISSUE_REF.sub("#" + ZWSP, text)
    text = _GH_REF.sub(lambda m: m.group(1) + ZWSP, text)
    text = _ENTITY_LIKE.sub("&amp;", text)
    return text.replace("<", "&lt;")


_TILDES = re.compile(r"~{3,}")
_SPAN_IN_LINE = re.compile(r"(?<![`\\])(`+)(?!`)(.+?)(?<!`)\1(?!`)")
# what GitHub links in text: mentions, references, URLs (``<`` in text is an entity, inert)
_LIVE_TEXT = re.compile(
    r"@[A-Za-z0-9_]|#\d|GH-\d|(?:https?|ftp)://[^\s<]*[A-Za-z0-9]|www\.[A-Za-z0-9]", re.I
)
_LIVE_TOKENS = frozenset({"html_block", "html_inline", "link_open", "image"})
_SENTINEL = "depbotsentinelparagraph"
# CommonMark as GitHub reads it (tables and strikethrough of GFM on): which lines are code
_MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def _escape(text: str) -> str:
    """Backslashes, backticks, brackets and fence-long tilde runs as literal characters, so
    prose can open no code span, fence, link or link reference of its own."""
    text = text.replace("\\", "\\\\").replace("`", "\\`")
    text = text.replace("[", "\\[").replace("]", "\\]")
    return _TILDES.sub(lambda m: "\\" + m.group(0), text)


def _line(line: str, spans: bool = True) -> str:
    """One line of prose neutralized; with ``spans``, its one-line code spans kept."""
    if not spans:
        return _prose(line)
    out: list[str] = []
    pos = 0
    for m in _SPAN_IN_LINE.finditer(line):
        out.append(_prose(line[pos : m.start()]))
        out.append(m.group(0))
        pos = m.end()
    out.append(_prose(line[pos:]))
    return "".join(out)


def _prepared(text: str) -> str:
    text = strip_invisible(text.replace("\r\n", "\n").replace("\r", "\n"))
    return _COMMENT.sub("", text).replace("<!--", "")


def _top_fences(lines: list[str]) -> list[tuple[int, int, str]]:
    """The fenced code blocks CommonMark sees outside any list or quote: (start, end, fence)."""
    found = []
    for tok in _MD.parse("\n".join(lines)):
        if tok.type == "fence" and tok.level == 0 and tok.map:
            found.append((tok.map[0], tok.map[1], tok.markup))
    return found


def _closes(line: str, fence: str) -> bool:
    return re.fullmatch(rf" {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*", line) is not None


def inert(markdown: str, *, prefix: str = "") -> bool:
    """Whether ``markdown`` (after ``prefix``, as where it lands) holds nothing GitHub acts on
    (no HTML, link, image, mention, reference or bare URL outside code) and closes every
    block it opens (a paragraph after it stays a paragraph of its own)."""
    tokens = _MD.parse(f"{prefix}{markdown}\n\n{_SENTINEL}\n")
    stack = list(tokens)
    while stack:
        tok = stack.pop()
        if tok.type in _LIVE_TOKENS:
            return False
        if tok.type == "text" and _LIVE_TEXT.search(tok.content):
            return False
        stack.extend(tok.children or ())
    last = tokens[-3:] if len(tokens) >= 3 else []
    return (
        [t.type for t in last] == ["paragraph_open", "inline", "paragraph_close"]
        and last[0].level == 0
        and last[1].content == _SENTINEL
    )


def neutralize(text: str) -> str:
    """Upstream (or model) Markdown made safe to quote as a block of its own in a GitHub body
    (see the module doc): the fenced code blocks CommonMark sees at the top level are kept as
    written (and closed if left open), every other line is prose with its one-line code
    spans kept. Should the result still hold anything live, every line is escaped instead."""
    lines = _prepared(text).split("\n")
    out: list[str] = []
    pos = 0
    for start, end, fence in _top_fences(lines):
        out += [_line(line) for line in lines[pos:start]]
        block = lines[start:end]
        if len(block) < 2 or not _closes(block[-1], fence):
            block.append(fence[0] * len(fence))
        out += block
        pos = end
    out += [_line(line) for line in lines[pos:]]
    result = "\n".join(out).strip("\n")
    return result if inert(result) else _all_prose(lines)


def neutralize_inline(text: str) -> str:
    """``neutralize`` for text placed inside a paragraph (after ``**Why:** ``), where no
    fence is a fence: every line is prose, with its one-line code spans kept."""
    lines = _prepared(text).split("\n")
    result = "\n".join(_line(line) for line in lines).strip("\n")
    return result if inert(result, prefix="x ") else _all_prose(lines)


def _all_prose(lines: list[str]) -> str:
    """Every line escaped as prose, no code kept: what a result found live falls back to."""
    return "\n".join(_line(line, spans=False) for line in lines).strip("\n")


def neutralize_line(text: str) -> str:
    """``neutralize`` for text that must stay on one line (titles, table cells, headings)."""
    return neutralize_inline(clean_line(text))


def blockquote(text: str) -> str:
    """Each line of ``text`` prefixed as a Markdown blockquote."""
    return "\n".join(f"> {line}".rstrip() for line in text.split("\n"))
