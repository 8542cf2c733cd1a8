"""Reading ``rg --json`` output: one matching line as an ``RgMatch`` (byte offsets made
character offsets, a long line cut to a window around its matches) and the paths of
``begin`` messages. Pure.
"""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass


@dataclass(frozen=True)
class RgMatch:
    """One matching line as ``rg --json`` reported it.

    ``path`` is relative to the directory searched, POSIX-style, without a leading ``./``.
    ``text`` is the line without its terminator; for a line longer than the window it is a
    slice of the line starting at character ``offset``. ``spans`` are 0-based
    ``[start, end)`` character offsets of every submatch in the *full* line (so
    ``text[s - offset:e - offset]`` is a match when it lies in the window).
    ``line_length`` is the full line's length in characters.
    """

    path: str
    line: int
    text: str
    offset: int
    line_length: int
    spans: tuple[tuple[int, int], ...]


def _text_of(obj: dict) -> tuple[str, bytes | None]:
    """Decode an rg JSON "arbitrary data" object: ``{"text": ...}`` or ``{"bytes": base64}``."""
    if "text" in obj:
        return obj["text"], None
    raw = base64.b64decode(obj.get("bytes", ""))
    return raw.decode("utf-8", errors="replace"), raw


def _path_of(obj: dict) -> str:
    if "text" in obj:
        path = obj["text"]
    else:
        path = os.fsdecode(base64.b64decode(obj.get("bytes", "")))
    path = path.replace(os.sep, "/") if os.sep != "/" else path
    while path.startswith("./"):
        path = path[2:]
    return path


_BEGIN_TEXT = b'{"type":"begin","data":{"path":{"text":"'
_BEGIN_END = b'"}}}'


def begin_path(raw: bytes) -> str:
    """The path of an rg ``begin`` message, sliced out when it needs no JSON decoding."""
    line = raw.rstrip(b"\r\n")
    if line.startswith(_BEGIN_TEXT) and line.endswith(_BEGIN_END):
        inner = line[len(_BEGIN_TEXT) : -len(_BEGIN_END)]
        if b"\\" not in inner and b'"' not in inner:
            return clean_path(inner.decode("utf-8"))
    return _path_of(json.loads(raw)["data"]["path"])


def parse_match(data: dict, window: int) -> RgMatch:
    """An ``RgMatch`` from the ``data`` of an rg ``{"type": "match"}`` message.

    Byte offsets become character offsets; a line longer than ``4 * window`` characters is
    cut to ``window`` characters either side of its submatches.
    """
    text, raw = _text_of(data["lines"])
    if raw is None:
        raw = text.encode("utf-8")
    ascii_only = len(raw) == len(text)  # one byte per character: offsets need no mapping
    text = text.rstrip("\n").rstrip("\r")
    spans: list[tuple[int, int]] = []
    for sub in data.get("submatches", ()):
        start, end = int(sub["start"]), int(sub["end"])
        if ascii_only:
            spans.append((start, end))
        else:
            cs = len(raw[:start].decode("utf-8", errors="replace"))
            ce = cs + len(raw[start:end].decode("utf-8", errors="replace"))
            spans.append((cs, ce))
    length = len(text)
    offset = 0
    if length > 4 * window and spans:
        lo = max(0, spans[0][0] - window)
        hi = min(length, spans[-1][1] + window)
        hi = min(hi, lo + 4 * window)
        text, offset = text[lo:hi], lo
    return RgMatch(
        path=_path_of(data["path"]),
        line=int(data["line_number"]),
        text=text,
        offset=offset,
        line_length=length,
        spans=tuple(spans),
    )


def clean_path(path: str) -> str:
    """A path rg printed, POSIX-style, without a leading ``./``."""
    if os.sep != "/":
        path = path.replace(os.sep, "/")
    while path.startswith("./"):
        path = path[2:]
    return path
