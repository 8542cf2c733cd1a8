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

Code spans and fenced code blocks are kept as written (GitHub interprets nothing inside
them), apart from invisible characters and HTML comments.
"""

from __future__ import annotations

import html
import re

from depbot.core.fence import strip_invisible

ZWSP = "\u200b"

_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
# a backtick fence's info string may not hold a backtick (else the line is plain text)
_FENCE_OPEN = re.compile(r"^ {0,3}(?:(`{3,})(?!.*`)|(~{3,}))")
# a code span opens on a backtick run not escaped by a backslash and cannot cross a blank line
_CODE_SPAN = re.compile(r"(?<![`\\])(`+)(?!`)((?:(?!\n[ \t]*\n).)+?)(?<!`)\1(?!`)", re.S)
# Link and image patterns stop at the next bracket or parenthesis and are bounded, so a text of
# a thousand unclosed "![" or "[a](" costs one short attempt each, not a scan to the end.
_DEST = r"\((?:[^()\s]|\([^()\s]{0,200}\)){0,2048}(?:[ \t]+\"[^\"\n]{0,300}\")?\)"  # (url "title")
_IMAGE = re.compile(r"!\[([^\[\]\n]{0,500})\]" + _DEST)
_LINK = re.compile(r"\[([^\[\]\n]{1,500})\]" + _DEST)
_REF_LINK = re.compile(r"\[([^\[\]\n]{1,500})\]\[[^\[\]\n]{0,200}\]")
_LINK_DEF = re.compile(r"^ {0,3}\[[^\]\n]+\]:[ \t]*\S+.*$", re.M)
_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^<>\s]+)>", re.I)
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9:-]*(?:\s[^<>]*)?/?>")
_URL = re.compile(r"(?:\b(?:https?|ftp)://|\bwww\.)[^\s<>`]+[^\s<>`.,;:!?'\")\]]", re.I)
_MENTION = re.compile(r"@(?=[A-Za-z0-9_])")
_ISSUE_REF = re.compile(r"#(?=\d)")
_GH_REF = re.compile(r"\b(GH-)(?=\d)", re.I)
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
    text = _MENTION.sub("@" + ZWSP, text)
    text = _ISSUE_REF.sub("#" + ZWSP, text)
    text = _GH_REF.sub(lambda m: m.group(1) + ZWSP, text)
    text = _ENTITY_LIKE.sub("&amp;", text)
    return text.replace("<", "&lt;")


def _inline(text: str) -> str:
    """Neutralize a run of lines outside fenced blocks, keeping its code spans."""
    out: list[str] = []
    pos = 0
    for m in _CODE_SPAN.finditer(text):
        out.append(_prose(text[pos : m.start()]))
        out.append(m.group(0))
        pos = m.end()
    out.append(_prose(text[pos:]))
    return "".join(out)


def neutralize(text: str) -> str:
    """Upstream (or model) Markdown made safe to quote in a GitHub body; see the module doc."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = strip_invisible(text)
    text = _COMMENT.sub("", text).replace("<!--", "")
    lines = text.split("\n")
    out: list[str] = []
    prose: list[str] = []
    fence: str | None = None
    for line in lines:
        if fence is None:
            m = _FENCE_OPEN.match(line)
            if m:
                if prose:
                    out.append(_inline("\n".join(prose)))
                    prose = []
                fence = m.group(1) or m.group(2)
                out.append(line)
            else:
                prose.append(line)
        else:
            out.append(line)
            stripped = line.strip()
            if stripped.startswith(fence[0] * len(fence)) and not stripped.strip(fence[0]):
                fence = None
    if prose:
        out.append(_inline("\n".join(prose)))
    return "\n".join(out).strip("\n")


def neutralize_line(text: str) -> str:
    """``neutralize`` for text that must stay on one line (titles, table cells, headings)."""
    return neutralize(clean_line(text))


def blockquote(text: str) -> str:
    """Each line of ``text`` prefixed as a Markdown blockquote."""
    return "\n".join(f"> {line}".rstrip() for line in text.split("\n"))
