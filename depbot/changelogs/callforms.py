"""Changes of how an API must be called, as a changelog sentence words them. Pure.

A newly required argument ("`f()` now requires the `Loader` argument", "cannot be called
without a name"), keyword-only arguments, a callback API that became promises or async, a
literal argument no longer understood: the candidates name the calls to check, not a
removed name. ``candidates.extract_candidates`` asks these readers first.
"""

from __future__ import annotations

import re

from depbot.changelogs.items import code_spans
from depbot.changelogs.spans import CALL, DOTTED, QUOTED, Span, callee
from depbot.changelogs.wording import REQUIRED_ARG_MORE, Candidate, generic, searchable_name

__all__ = ["call_form_candidates", "required_arg_candidates", "value_kind_candidates"]

_REQUIRED_ARG = [
    # "`req#logout()` … requires a callback function as the last argument": calls with none
    re.compile(r"requires?\s+an?\s+(?P<arg>callback)(?:\s+function)?\b", re.I),
    re.compile(
        r"(now\s+)?(always\s+)?requires?\s+(the|a|an)\s+`*(?P<arg>[A-Za-z_]\w*)`*\s+"
        r"(argument|parameter|param|arg|keyword|option)",
        re.I,
    ),
    re.compile(
        r"(?<!\w)`*(?P<arg>[A-Za-z_]\w*)`*\s+(argument|parameter|param|option)\s+is\s+(now\s+)?"
        r"(required|mandatory)",
        re.I,
    ),
    re.compile(
        r"must\s+(now\s+)?(always\s+)?(pass|be\s+(called|given|passed)\s+with)\s+(the\s+|a\s+|an\s+)?"
        r"`*(?P<arg>[A-Za-z_]\w*)`*",
        re.I,
    ),
    re.compile(r"now\s+(needs|requires|takes)\s+a\s+(?P<arg>callback)\b", re.I),
    *REQUIRED_ARG_MORE,
]
_WITHOUT_ARG = re.compile(
    r"\bwithout\s+(a|an|the|any)\s+[\w ]{0,20}(name|argument|value|field)", re.I
)
_POSITIONAL = re.compile(
    r"no\s+longer\s+be\s+passed\s+positionally|keyword[- ]only|must\s+be\s+passed\s+(as|by)\s+keywords?",
    re.I,
)
# "Calling `stub` with three arguments will throw": calls with that many arguments or more
_ARG_COUNT = re.compile(
    r"\bcall(?:ing|s|ed)?\s+`(?P<f>[A-Za-z_$][\w$.]{0,60})(?:\([^`]{0,60}\))?`\s+with\s+"
    r"(?P<more>more\s+than\s+)?(?P<n>[1-9]|one|two|three|four|five|six)\s+(?:or\s+more\s+)?"
    r"(?:positional\s+)?(?:arguments?|args?|parameters?)\b",
    re.I,
)
_COUNT_FAILS = re.compile(
    r"\b(?:will\s+)?(?:throws?|raises?|fails?|errors?)\b|\bis\s+(?:no\s+longer\s+"
    r"(?:supported|allowed|possible)|not\s+supported|an\s+error)\b|\b(?:has\s+been|was)\s+removed\b",
    re.I,
)
# "remove arguments from `new Zip()`", "`init()` no longer takes any arguments": a call that
# still passes one breaks; a call without any is the kept form
_NO_ARGS_OF = re.compile(
    r"\bremov(?:e|es|ed|ing)\s+(?:the\s+|all\s+|any\s+)?(?:arguments|parameters|args)\s+"
    r"(?:from|of)\s+(?:the\s+)?$",
    re.I,
)
_NO_ARGS_AFTER = re.compile(
    r"^\s*(?:constructor\s+|function\s+|method\s+)?(?:(?:no\s+longer|does\s+not|doesn't)\s+"
    r"(?:accepts?|takes?)\s+(?:any\s+)?|(?:now\s+)?(?:accepts?|takes?)\s+no\s+)"
    r"(?:arguments|parameters|args)\b",
    re.I,
)
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_ASYNC = re.compile(
    r"\b(is|are)\s+now\s+async(hronous)?\b|\bnow\s+returns?\s+a\s+promise\b|\bnow\s+a\s+coroutine\b",
    re.I,
)
# the API moved from callbacks to promises: calls that are not awaited (those passing a
# callback among them) no longer get their result
_CALLBACK = re.compile(r"\bcall-?backs?\b", re.I)
_CALLBACK_GONE = re.compile(  # with "callback(s)" in the same sentence: the API's style changed
    r"\bpromises?\b|\basync\b|\binstead\s+of\b"
    r"|\bno\s+longer\s+(supports?|accepts?|takes?|supported|accepted)\b"
    r"|\bcall-?back[- ](api|style|interface|support)\b",
    re.I,
)
_LITERAL_GONE = re.compile(
    r"no\s+longer\s+(understood|accepted|supported|recognized|recognised|allowed|valid)", re.I
)
# a kind of value a call no longer accepts ("plain strings are no longer accepted by
# `execute()`", "`load()` no longer accepts a number"): the word → the argument kind
_VALUE_KINDS = (
    ("string", r"(?:strings?|str)"),
    ("number", r"(?:numbers?|integers?|ints|floats?|numeric)"),
    ("function", r"(?:callables?|functions?|lambdas?|callbacks?)"),
    ("object", r"(?:objects?|maps?|mappings?|dicts?|dictionary|dictionaries)"),
    ("array", r"(?:arrays?|lists?)"),
)
# the kind is the object of the verb: "no longer accepts (a) strings", "strings are no longer
# accepted", "passing a string … is no longer supported"; the words are read in a bounded
# window beside the verb (no pattern here scans back over a long word)
_ACTIVE = re.compile(r"\bno\s+longer\s+(?:accepts?|supports?|takes?)\s", re.I)
_PASSIVE = re.compile(
    r"\b(?:are|is)\s+(?:now\s+)?(?:no\s+longer|not)\s+(?:accepted|supported|allowed|valid)\b", re.I
)
_PASSING = re.compile(r"\bpassing\s+an?\s+", re.I)
_REFUSED = re.compile(r"\bno\s+longer\b|\bnot\s+(?:accepted|supported|allowed)\b|\braises?\b", re.I)
_AFTER = re.compile(r"\s*(?:an?\s+|the\s+)?((?:plain|raw|bare|literal)\s+)?(\w{1,30})")
_BEFORE = re.compile(r"(\w{1,30})\s+$")
# "Object syntax for `extraReducers` … removed": one way of passing it is gone, not the name
_SYNTAX = re.compile(r"\b(\w{1,20})[\"'`]?\s+(?:syntax|notation|form|shorthand)\b", re.I)
_REASON = re.compile(r"\b(?:as|because|since|so\s+that)\b", re.I)  # the why, after the what
_GONE = re.compile(r"\b(?:removed|dropped|no\s+longer)\b", re.I)
WINDOW = 40


def _kind_words(sentence: str) -> list[str]:
    """The words in the place of a dropped kind of value, beside each verb that drops one."""
    words = []
    for m in _ACTIVE.finditer(sentence):
        after = _AFTER.match(sentence, m.end(), m.end() + WINDOW)
        if after:
            words.append(after.group(2))
    for m in _PASSIVE.finditer(sentence):
        before = _BEFORE.search(sentence[max(0, m.start() - WINDOW) : m.start()])
        if before:
            words.append(before.group(1))
    if _GONE.search(sentence):
        reason = _REASON.search(sentence)
        end = reason.start() if reason else len(sentence)
        words += [m.group(1) for m in _SYNTAX.finditer(sentence, 0, end)]
    if _REFUSED.search(sentence):
        for m in _PASSING.finditer(sentence):
            after = _AFTER.match(sentence, m.end(), m.end() + WINDOW)
            if after:
                words.append(after.group(2))
    return words


def required_arg_candidates(sentence: str, spans: list[Span]) -> list[Candidate]:
    """Calls that no longer work without an argument: the one the sentence names (the first
    wording that matches), or any (``*``) for "without a name"."""
    cands: list[Candidate] = []
    for pattern in _REQUIRED_ARG:
        m = pattern.search(sentence)
        if m:
            arg = m.group("arg")
            func = _nearest_callable([s for s in spans if s.text != arg], m.start())
            if func and arg and func != arg:
                cands.append(Candidate(func, "required_arg", arg=arg))
            break
    if _WITHOUT_ARG.search(sentence):
        func = _nearest_callable(spans, len(sentence))
        if func:
            cands.append(Candidate(func, "required_arg", arg="*"))
    return cands


def call_form_candidates(sentence: str, spans: list[Span], package: str) -> list[Candidate] | None:
    """The calls' form changed (keyword-only arguments, callbacks to promises, async, a literal
    argument no longer understood): their candidates, or None when the sentence says none."""
    bare = _no_arguments(sentence, spans)
    if bare:
        return bare
    if _POSITIONAL.search(sentence):
        return _positional_candidates(sentence, spans)
    counted = _ARG_COUNT.search(sentence)
    if counted and _COUNT_FAILS.search(sentence, counted.end()):
        n = counted["n"].lower()
        count = int(n) if n.isdigit() else _NUMBERS[n]
        allowed = count if counted["more"] else count - 1
        name = searchable_name(counted["f"])
        if name and not generic(name):
            return [Candidate(name, "positional", max_positional=allowed)]
    if _CALLBACK.search(sentence) and _CALLBACK_GONE.search(sentence):
        subjects = [s for s in spans if CALL.match(s.text) or DOTTED.match(s.text)] or spans
        names = [n for n in (searchable_name(s.text) for s in subjects) if n]
        if names or not package:
            return [Candidate(name, "async") for name in names]
        # no name: the package's own export, and every call of the package's API (on the
        # package or an object it made) that passes a callback ("remove callback support")
        return [Candidate(package, "async"), Candidate(package, "callback_arg")]
    if _ASYNC.search(sentence):
        names = [searchable_name(s.text) for s in spans]
        return [Candidate(name, "async") for name in names if name]
    if _LITERAL_GONE.search(sentence):
        return _literal_candidates(spans)
    return None


_ADVICE = re.compile(r"\b(use|instead|in\s+favou?r\s+of|prefer|wrap)\b", re.I)


# "`send()` now throws if the body is not a string": only calls given another kind of value
_THROWS_UNLESS = re.compile(
    r"\b(?:now\s+)?(?:throws?|raises?|rejects?|errors?|fails?)\b[^.;]{0,40}?\b(?:if|when|unless)\s+"
    r"(?:the\s+|an?\s+|its\s+)?[\w`.]{1,30}\s+(?:is|are)\s+not\s+(?:an?\s+)?(\w{1,20})",
    re.I,
)


# "remove deprecated v4 string parameter": the callable named in plain words before the kind
_NAMED_KIND_PARAM = re.compile(
    r"\b(?:remov(?:e|ed|es)|drop(?:s|ped)?)\s+(?:the\s+)?(?:(?:deprecated|legacy|old)\s+)?"
    r"(?!(?:deprecated|legacy|old|unused|extra|optional|first|second|third|last|trailing|"
    r"positional|named|single|an?|the)\s)`?(?P<name>[A-Za-z_$][\w$]{1,40}(?:\.[A-Za-z_$][\w$]{0,40})?)(?:\(\))?`?(?:'s)?\s+"
    r"(?P<kind>\w{2,12})\s+(?:parameter|argument|param|arg)s?\b",
    re.I,
)


def _kind_named(word: str) -> str:
    """The kind of value a word names ("strings" → ``string``), or ""."""
    return next((k for k, pattern in _VALUE_KINDS if re.fullmatch(pattern, word, re.I)), "")


def _named_kind_parameter(sentence: str) -> list[Candidate]:
    """Calls of the callable a sentence names in plain words before the kind of argument it
    no longer takes ("remove deprecated `v4` string parameter")."""
    m = _NAMED_KIND_PARAM.search(sentence)
    if m is None:
        return []
    kind = _kind_named(m.group("kind"))
    name = searchable_name(m.group("name"))
    leaf = name.split(".")[-1] if name else ""
    if not kind or not name or (len(leaf) > 2 and generic(leaf)):
        return []  # a short name is one here: the sentence's shape says it is a callable
    return [Candidate(name, "arg_kind", arg=kind)]


# "Changed behavior of `delayMs` when set to a number": only the calls (or options) given a
# value of that kind meet the change; ``arg`` is ``when-<kind>``
_WHEN_KIND = re.compile(
    r"\b(?:behaviou?r|meaning|handling|semantics)\s+of\s+(`+)(?P<name>[A-Za-z_$][\w$.]{0,60}"
    r"(?:\(\))?)\1(?:\s+(?:option|parameter|argument|setting|prop))?\s+(?:when|if)\s+"
    r"(?:it\s+is\s+|it's\s+)?(?:set\s+to|given|passed)\s+(?:as\s+)?(?:an?\s+)?(?P<kind>\w{2,20})",
    re.I,
)


def _when_kind(sentence: str) -> list[Candidate]:
    m = _WHEN_KIND.search(sentence)
    kind = _kind_named(m["kind"]) if m else ""
    name = searchable_name(callee(m["name"])) if m and kind else ""
    return [Candidate(name, "arg_kind", arg=f"when-{kind}")] if name else []


def value_kind_candidates(sentence: str, spans: list[Span]) -> list[Candidate]:
    """Calls of each named callable that pass a value of the kind the sentence says is no
    longer accepted ("plain strings are no longer accepted by `execute()`"), or of any other
    kind than the one it now insists on ("`send()` now throws if the body is not a string":
    ``arg`` ``non-string``), or that behaves otherwise when given one ("Changed behavior of
    `delayMs` when set to a number": ``when-number``); [] when it names no such kind or no
    callable."""
    when = _when_kind(sentence)
    if when:
        return when
    insists = _THROWS_UNLESS.search(sentence)
    if insists is not None:
        wanted = _kind_named(insists.group(1))
        funcs = [s for s in spans if s.start < insists.start() and CALL.match(s.text)]
        if wanted and funcs:
            return [Candidate(callee(f.text), "arg_kind", arg=f"non-{wanted}") for f in funcs]
    kinds = {_kind_named(w.strip()) for w in _kind_words(sentence)} - {""}
    advice = _ADVICE.search(sentence)  # "…; use `text()`": the replacement is not the call
    end = advice.start() if advice else len(sentence)
    funcs = [s for s in spans if s.start < end and (CALL.match(s.text) or DOTTED.match(s.text))]
    if len(kinds) != 1 or not funcs:
        return _named_kind_parameter(sentence)
    kind = kinds.pop()
    return [Candidate(callee(f.text), "arg_kind", arg=kind) for f in funcs]


def _no_arguments(sentence: str, spans: list[Span]) -> list[Candidate]:
    """Calls of each callable the sentence says takes no arguments any more, with any."""
    out = []
    for i, s in enumerate(spans):
        text = re.sub(r"^new\s+", "", s.text.strip())
        before = sentence[max(spans[i - 1].end if i else 0, s.start - 60) : s.start]
        after = sentence[s.end : s.end + 60]
        if not CALL.match(text) or not (_NO_ARGS_OF.search(before) or _NO_ARGS_AFTER.match(after)):
            continue
        name = searchable_name(callee(text))
        if name:  # written as a call: a short or common name is one here
            out.append(Candidate(name, "positional", max_positional=0))
    return out


def _positional_candidates(sentence: str, spans: list[Span]) -> list[Candidate]:
    """Keyword-only now: calls of each named API with more positional arguments than the
    ones the sentence excepts ("except `a` and `b`"), at least one."""
    exc = re.search(r"except\s+(.*?)(?:\b(?:are|is|can|must)\b|[;.]|$)", sentence, re.I)
    allowed = len(code_spans(exc.group(1))) if exc else 1
    excluded = set(code_spans(exc.group(1))) if exc else set()
    cands: list[Candidate] = []
    for s in spans:
        name = searchable_name(s.text)
        if name and s.text not in excluded and not generic(name):
            cands.append(Candidate(name, "positional", max_positional=max(1, allowed)))
    return cands


def _literal_candidates(spans: list[Span]) -> list[Candidate] | None:
    """Calls of each named callable that pass one of the quoted literals, or None when the
    sentence names no literal or no callable."""
    literals = [s for s in spans if QUOTED.match(s.text)]
    funcs = [s for s in spans if CALL.match(s.text) or DOTTED.match(s.text)]
    if not (literals and funcs):
        return None
    cands: list[Candidate] = []
    for f in funcs:
        for lit in literals:
            literal = QUOTED.match(lit.text).group(2)  # type: ignore[union-attr]
            cands.append(Candidate(callee(f.text), "literal_arg", arg=literal))
    return cands


def _nearest_callable(spans: list[Span], pos: int) -> str:
    """The callee of the last call or dotted span at or before ``pos`` (else of the first
    one in the sentence), or ''."""
    best = ""
    for s in spans:
        if s.start > pos:
            break
        raw = _members(s.text)
        if CALL.match(raw) or DOTTED.match(raw):
            best = callee(raw)
    if not best:
        for s in spans:
            raw = _members(s.text)
            if CALL.match(raw) or DOTTED.match(raw):
                return callee(raw)
    return best


def _members(text: str) -> str:
    """A span as code names it: ``req#logout()`` (a method, in the docs' notation) → ``req.logout()``."""
    return re.sub(r"(?<=[\w$])#(?=[A-Za-z_$])", ".", text.strip())
