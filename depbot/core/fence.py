"""Untrusted text handling: fencing, invisible Unicode, head/tail cuts. Pure.

Text written by strangers (changelogs, release notes) and text from the checkout (code
lines) reaches the model only inside a fence whose delimiters carry a random nonce, so
nothing inside can pretend to close it. Secrets are taken out of text by ``core.redact``.
"""

from __future__ import annotations

import codecs
import re
import secrets

# zero-width and bidi controls, soft hyphen, word joiners, BOM, Unicode tag characters,
# variation selectors: characters that hide text from a human reader
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb"
    "\U000e0000-\U000e007f\U000e0100-\U000e01ef]"
)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def strip_invisible(text: str) -> str:
    """Remove characters a reader cannot see (and control characters but tab/newline)."""
    return _CONTROL.sub("", _INVISIBLE.sub("", text))


def _json_escape(err: UnicodeError) -> tuple[str, int]:
    bad = err.object[err.start : err.end]  # type: ignore[attr-defined]
    return "".join(f"\\\\x{b:02x}" for b in bad), err.end  # type: ignore[attr-defined]


codecs.register_error("depbot-json-x", _json_escape)


def shown(text: str, *, json_text: bool = False) -> str:
    """``text`` safe to write as UTF-8: bytes that were not UTF-8 (file names read with
    ``surrogateescape``) appear as ``\\xNN`` instead of failing the write. ``json_text``:
    ``text`` is JSON, and the escape is written so that it stays valid JSON (``\\\\xNN``)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raw = text.encode("utf-8", "surrogateescape")
        return raw.decode("utf-8", "depbot-json-x" if json_text else "backslashreplace")
    return text


def head_tail(text: str, limit: int) -> str:
    """Cut ``text`` to about ``limit`` characters: head and tail with the elided count between."""
    if limit <= 0 or len(text) <= limit:
        return text
    keep = max(1, limit - 40)
    head = keep * 2 // 3
    tail = keep - head
    elided = len(text) - head - tail
    return f"{text[:head]}\n[… {elided} characters elided …]\n{text[-tail:]}"


def new_nonce() -> str:
    return secrets.token_hex(6)


def fence(text: str, *, source: str, nonce: str, limit: int = 0) -> str:
    """Wrap untrusted ``text`` in delimiters carrying ``nonce`` and its ``source``."""
    body = strip_invisible(text)
    if limit:
        body = head_tail(body, limit)
    # the nonce is secret to this run; drop any attempt to spell a delimiter anyway
    body = body.replace(f"UNTRUSTED-{nonce}", "UNTRUSTED-xxxx").replace(f"END-{nonce}", "END-xxxx")
    src = strip_invisible(source).replace("\n", " ")[:200]
    return f"<<<UNTRUSTED-{nonce} source={src}>>>\n{body}\n<<<END-{nonce}>>>"


_FENCE_RE = re.compile(r"<<<UNTRUSTED-(\w+) source=[^\n]*>>>\n(.*?)\n<<<END-\1>>>", re.DOTALL)


def unfence(text: str) -> str:
    """The text inside the first fence of ``text`` (or ``text`` itself when it has none)."""
    m = _FENCE_RE.search(text)
    return m.group(2) if m else text
