"""Untrusted text handling: fencing, invisible Unicode, head/tail cuts, secret redaction. Pure.

Text written by strangers (changelogs, release notes) and text from the checkout (code
lines) reaches the model only inside a fence whose delimiters carry a random nonce, so
nothing inside can pretend to close it.
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


# --- secrets ------------------------------------------------------------------------------

_SECRET_PATTERNS = [
    re.compile(
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|\Z)", re.S
    ),
    re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),  # AWS access key id
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}\b"),  # GitHub tokens
    re.compile(r"\bgithub_pat_[A-Za-z0-9_]{20,}\b"),
    re.compile(r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}\b"),  # OpenAI / Anthropic style keys
    re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}\b"),  # Slack
    re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"),  # Google API key
    re.compile(r"\b(?:npm_[A-Za-z0-9]{36}|pypi-[A-Za-z0-9_-]{40,})\b"),
    re.compile(r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b"),  # JWT
]
# the key word may sit anywhere in a name (DB_PASSWORD, app.secret); the pattern starts at the
# key word itself: a leading "[\w.-]*" would try every start of a long run of word characters
# (quadratic: seconds for one line of a hostile changelog). An unquoted value that is code
# (``token = self.token``, ``password = get_password()``, ``os.environ[...]``) is kept.
_ASSIGNMENT = re.compile(
    r"""(?ix)
    ((?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|auth)\b
     \s*["']?\s*[:=]\s*)
    (["']?)(?!\d+\b)(?:(?<=["'])|(?!(?:[A-Za-z_]\w*\.)+[A-Za-z_]|[A-Za-z_][\w.]*[(\[]))
    ([^\s"',;]{4,})(\2)
    """
)


_KEY_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
_KEY_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
# inside a block: base64 lines (maybe quoted, maybe with a "\n"), header lines, blank lines
_KEY_BODY = re.compile(r"""^[\s"'`+(]*(?:[A-Za-z0-9+/=]{8,}|[A-Za-z-]+:.*)?(?:\\n)?[\s"'`,;+)]*$""")


def private_key_lines(lines: list[str]) -> set[int]:
    """1-based numbers of the lines that belong to a PEM private key block in ``lines``.

    The redactor sees one line at a time, so the body of a key embedded in a source file
    (a string literal) looks like any other text; a search hit on it is still key material.
    A block runs from its BEGIN line over key-looking lines to its END line.
    """
    out: set[int] = set()
    block: list[int] = []
    for i, line in enumerate(lines, 1):
        if not block:
            if _KEY_BEGIN.search(line):
                block = [i]
                if _KEY_END.search(line[_KEY_BEGIN.search(line).end() :]):  # type: ignore[union-attr]
                    out.update(block)
                    block = []
            continue
        if _KEY_END.search(line):
            out.update(block + [i])
            block = []
        elif _KEY_BODY.match(line):
            block.append(i)
        else:  # not key material after all (code that mentions the marker)
            out.add(block[0])
            block = []
    out.update(block)  # a block cut off at the end of the file
    return out


def redact(text: str, extra: list[str] | tuple[str, ...] = ()) -> str:
    """Replace secret-shaped strings and the given secret values with ``[REDACTED]``."""
    for value in extra:
        if value and len(value) >= 4:
            text = text.replace(value, "[REDACTED]")
    for pattern in _SECRET_PATTERNS:
        text = pattern.sub("[REDACTED]", text)
    return _ASSIGNMENT.sub(lambda m: f"{m.group(1)}{m.group(2)}[REDACTED]{m.group(4)}", text)
