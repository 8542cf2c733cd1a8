"""Events a release stops emitting, named in quotes: the listeners that wait for them. Pure.

"The Socket instance will now emit a "connect_error" event instead of "error"" and "no
longer emits the "ready" event" leave ``socket.on("error", …)`` listening for nothing: each
is a call of a listener method (``on``, ``once``, ``addListener``) passing the old name, a
``literal_arg`` candidate of that method (the matcher keeps the calls on the package's
objects). The new name is the replacement.
"""

from __future__ import annotations

import re

from depbot.changelogs.wording import Candidate

LISTENERS = ("on", "once", "addListener")
_Q = r"""["'`\u201c\u201d]"""
_NAME = r"([\w:.-]{1,40})"
_INSTEAD = re.compile(
    rf"{_Q}{_NAME}{_Q}\s+events?\s+instead\s+of\s+(?:the\s+|an?\s+)?{_Q}{_NAME}{_Q}", re.I
)
_NO_LONGER = re.compile(
    r"\bno\s+longer\s+(?:emits?|fires?|triggers?|dispatch(?:es)?|forwards?)\s+(?:an?\s+|the\s+)?"
    rf"{_Q}{_NAME}{_Q}(?:\s+(?:or|and)\s+{_Q}{_NAME}{_Q})?\s+events?",
    re.I,
)
_GONE = re.compile(
    rf"\b(?:the\s+)?{_Q}{_NAME}{_Q}\s+event\s+(?:is|was|has\s+been)\s+"
    r"(?:no\s+longer\s+(?:emitted|fired)|removed|renamed)",
    re.I,
)


def event_candidates(sentence: str) -> tuple[list[Candidate], list[str]]:
    """The listener calls of each event the sentence says is no longer emitted, and the
    names of the events that replace them."""
    gone: list[str] = []
    new: list[str] = []
    for m in _INSTEAD.finditer(sentence):
        new.append(m.group(1))
        gone.append(m.group(2))
    for m in _NO_LONGER.finditer(sentence):
        gone.extend(g for g in m.groups() if g)
    for m in _GONE.finditer(sentence):
        gone.append(m.group(1))
    names = list(dict.fromkeys(g for g in gone if g not in new))
    return [Candidate(method, "literal_arg", arg=n) for n in names for method in LISTENERS], new
