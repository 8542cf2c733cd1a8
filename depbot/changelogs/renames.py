"""Renames a changelog sentence states, and which side of each is the old name. Pure.

"`old` → `new`" (a rename list, and an item that is only "old -> new" with bare names);
"`github.issues.x` is now `github.rest.issues.x`" and "`resolvedLocaleOpts` is now
`resolvedLocaleOptions`" (a rename in words: API paths, or two names spelled alike, never a
value such as `30`); "`Query` is renamed from `BaseQuery`" and "`newName` (formerly
`oldName`)", where the old name comes second. The old names are the candidates (searched),
the new ones the replacements.
"""

from __future__ import annotations

import re

from depbot.changelogs.spans import Span, callee
from depbot.changelogs.wording import Candidate, declared_name, generic, searchable_name

__all__ = ["renamed"]


def renamed(sentence: str, spans: list[Span], cands: list[Candidate], news: list[str]) -> bool:
    """A rename the sentence states: its old names to ``cands``, new ones to ``news``, and
    True; False when it states none."""
    return (
        _renamed_bare(sentence, cands, news)
        or _renamed_pairs(sentence, spans, cands, news)
        or _renamed_one(sentence, spans, cands, news)
        or _renamed_from(sentence, spans, cands, news)
        or _renamed_by_arrow(sentence, spans, cands, news)
    )


# "Renamed function `typeof` to `typeOf`, `var` to `variance`, and `eval` to `evaluate`"
_RENAMED_WORD = re.compile(r"\brenam(?:e|ed|es|ing)\b", re.I)
_PAIR_TO = re.compile(r"^\s+to\s+$", re.I)


def _renamed_bare(sentence: str, cands: list[Candidate], news: list[str]) -> bool:
    """An item that says only "old -> new", both bare names: the first is gone (searched),
    the second replaces it."""
    m = _BARE_ARROW.match(sentence)
    if m is None or m.group(1) == m.group(2):
        return False
    name = searchable_name(callee(m.group(1)))
    if not name or generic(name):
        return False
    cands.append(Candidate(name, "name"))
    news.append(m.group(2))
    return True


def _renamed_pairs(
    sentence: str, spans: list[Span], cands: list[Candidate], news: list[str]
) -> bool:
    """A rename sentence listing two or more "`old` to `new`" pairs: each first span is gone,
    each second replaces it."""
    if not _RENAMED_WORD.search(sentence):
        return False
    pairs = [
        (a, b)
        for a, b in zip(spans, spans[1:], strict=False)
        if _PAIR_TO.match(sentence[a.end : b.start])
    ]
    if len(pairs) < 2:
        return False
    for old, new in pairs:
        news.append(declared_name(new.text))
        name = searchable_name(callee(old.text))
        if name and not generic(name):
            cands.append(Candidate(name, "name"))
    return True


# "rename `type` param to `icon`": the one after "to" is the new name, not an owner; a guide's
# "### Change `source` to `children`" says the same of a name that starts it
# (the imperative only: "Changed `a` to `b`" may set a value)
_CHANGED_TO = re.compile(r"^\W*change\s+(?=`)", re.I)
_ONE_TO = re.compile(
    r"^\s*(?P<role>params?|parameters?|options?|props?|arguments?|keys?|fields?|properties|"
    r"property)?\s*to\s+$",
    re.I,
)


def _renamed_one(sentence: str, spans: list[Span], cands: list[Candidate], news: list[str]) -> bool:
    """ "Rename `a` [param] to `b`" (or "Change `a` to `b`"): `a` is gone (a parameter when
    the sentence says so), `b` replaces it."""
    said = _RENAMED_WORD.search(sentence) or _CHANGED_TO.match(sentence)
    if not said:
        return False
    pairs = [(a, b, m) for a, b in zip(spans, spans[1:], strict=False)
             if a.start > said.start() and (m := _ONE_TO.match(sentence[a.end : b.start]))]  # fmt: skip
    if len(pairs) != 1:
        return False
    old, new, m = pairs[0]
    name = searchable_name(callee(old.text))
    if not name:
        return False
    news.append(declared_name(new.text))
    cands.append(Candidate(name, "parameter" if m.group("role") else "name"))
    return True


# "`old` → `new`", "`old` -> `new`" in a breaking item (a rename list under "functions renamed:")
_RENAME_ARROW = re.compile(r"(?<=`)\s*(→|-->|->|==>|=>|⇒|⟶)\s*(?=`)")
# an item that is only "old -> new", the names bare (a rename list: "getUniqueID -> getUniqueId")
_NAME = r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?"
_BARE_ARROW = re.compile(rf"^[\s*•-]*({_NAME})\s*(?:→|-->|->|==>|=>|⇒|⟶)\s*({_NAME})[\s.;,*]*$")
# "`github.issues.x(...)` is now `github.rest.issues.x(...)`": a rename in words, when what
# follows is itself an API path (not a value: "`timeout` is now `30`", "… `None`")
# ("`type WorkerPool` is called `type Pool` now": the same, "now" after the new name)
_IS_NOW = re.compile(
    r"(?<=`)\s+(?:is|are)\s+(?:now\s+(?:called\s+|named\s+)?"
    r"|(?:called|named)\s+(?=`[^`\n]{1,80}`\s+now\b))(?=`)",
    re.I,
)
_API_PATH = re.compile(r"^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:\((?:\.\.\.|…)?\))?$")


def _renamed_in_words(sentence: str, spans: list[Span]) -> re.Match[str] | None:
    """The "is now" of "`a.b` is now `a.c.b`" when the spans before it and the one after it
    are all API paths; None otherwise."""
    said = _IS_NOW.search(sentence)
    if said is None:
        return None
    before = [x for x in spans if x.start < said.start()]
    after = [x for x in spans if x.start >= said.end()][:1]
    if not (before and after):
        return None
    if all(_API_PATH.match(x.text.strip()) for x in before + after):
        return said
    # "`resolvedLocaleOpts` is now `resolvedLocaleOptions`", "`Zone#universal` is now
    # `Zone#isUniversal`": one name for another, spelled alike (a value is not: `30`, `true`)
    old, new = before[-1].text.strip(), after[0].text.strip()
    return said if len(before) == 1 and _respelled(old, new) else None


_MEMBER = re.compile(r"^(?:[A-Za-z_$][\w$]*[.#])?([A-Za-z_$][\w$]*)$")


def _respelled(old: str, new: str) -> bool:
    """Two identifiers (or ``Owner#member``s) of which one holds the other, or that share
    their first five letters: a rename, not a new value."""
    a, b = _MEMBER.match(declared_name(old)), _MEMBER.match(declared_name(new))
    if a is None or b is None or old == new:
        return False
    x, y = a.group(1).lower(), b.group(1).lower()
    if x in ("true", "false", "null", "undefined", "none") or y in (
        "true",
        "false",
        "null",
        "undefined",
        "none",
    ):
        return False
    return x in y or y in x or (len(x) >= 5 and x[:5] == y[:5])


# "`Query` is renamed from `BaseQuery`", "`Foo` (formerly `Bar`)": the name after the words
# is the old one, gone; the one before them is its replacement
_RENAMED_FROM = re.compile(
    r"(?<=`)\s*(?:(?:is|was|are|were|has\s+been|have\s+been)\s+(?:now\s+)?renamed\s+from"
    r"|\((?:formerly|previously|was)(?:\s+(?:called|named|known\s+as))?"
    r"|,\s*(?:formerly|previously)(?:\s+(?:called|named|known\s+as))?)\s+(?=`)",
    re.I,
)


def _renamed_from(
    sentence: str, spans: list[Span], cands: list[Candidate], news: list[str]
) -> bool:
    said = _RENAMED_FROM.search(sentence)
    if said is None:
        return False
    before = [x for x in spans if x.end <= said.start() + 1][-1:]
    after = [x for x in spans if x.start >= said.end()][:1]
    if not (before and after):
        return False
    name = searchable_name(callee(after[0].text))
    if not name or generic(name):
        return False
    cands.append(Candidate(name, "name"))
    if not _GONE_TOO.search(sentence):
        news.append(before[0].text)
        return True
    # "`a` and `b` (previously called `c`) were removed": every name goes
    for s in spans:
        other = searchable_name(callee(s.text))
        if other and other != name and not generic(other):
            cands.append(Candidate(other, "name"))
    return True


_GONE_TOO = re.compile(
    r"\b(?:were|was|been|is|are)\s+(?:now\s+)?(?:removed|dropped|deleted)\b", re.I
)


def _renamed_by_arrow(
    sentence: str, spans: list[Span], cands: list[Candidate], news: list[str]
) -> bool:
    """The names before a rename arrow are gone (searched), those after it replace them."""
    arrow = _RENAME_ARROW.search(sentence) or _renamed_in_words(sentence, spans)
    if not arrow or not spans or spans[0].start > arrow.start():
        return False
    if not any(s.start >= arrow.end() for s in spans):
        return False
    for s in spans:
        if s.start >= arrow.end():
            news.append(declared_name(s.text))
            continue
        name = searchable_name(callee(s.text))
        if name and not generic(name):
            cands.append(Candidate(name, "name"))
    return True
