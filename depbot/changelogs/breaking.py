"""Reading a changelog section like a reviewer: which items break, and what to search for. Pure.

``analyze_section`` splits a section body into items (a bullet with its continuation
lines, or a paragraph), decides whether each item is breaking, a deprecation, a runtime
requirement or just information, and for breaking items extracts *candidates*: what a
search must find in the client code for the item to matter there, and how to recognise
it (a removed name, a removed parameter, a newly required argument, an ES-module-only
package, a removed sub-path import, ...).

The rules are general: they read the language changelogs use ("X was removed; use Y",
"X no longer accepts `a`", "`f()` now requires the `Loader` argument") and never any
package's name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from depbot.changelogs.items import (
    DEPRECATION,
    EXPLICIT_BREAKING,
    FUTURE_REMOVAL,
    REMOVAL_CONTEXT,
    REMOVAL_PHRASE,
    categorize,
    clean,
    code_spans,
    deprecates_only,
    is_gone_no_longer,
    sentences,
    split_items,
)
from depbot.changelogs.spans import (
    CALL,
    DOTTED,
    FILE_LIKE,
    IDENT,
    IMPORT,
    IMPORT_FROM,
    JS_IMPORT,
    KWARG,
    QUOTED,
    REQUIRE,
    SUBPATH,
    UPPER,
    Span,
    callee,
    roles,
    span_positions,
)
from depbot.changelogs.wording import (
    REQUIRED_ARG_MORE,
    Candidate,
    behaviour_candidates,
    behaviour_change,
    config_candidates,
    generic,
    moved_candidates,
    moved_out,
    not_an_api_name,
    searchable_name,
)

# --- categories -----------------------------------------------------------------------------

CANDIDATE_KINDS = (
    "name",  # a removed or renamed function / class / attribute / constant
    "parameter",  # a removed keyword argument or option (of = the callable, when known)
    "required_arg",  # calls of `symbol` that do not pass `arg` now fail
    "positional",  # calls of `symbol` with more than `max_positional` positional arguments
    "signature",  # a removed call form `f(a, b)`: calls of f with that shape
    "literal_arg",  # calls of `symbol` that pass the literal `arg`
    "module",  # the package is ES-module-only: require() from CommonJS breaks
    "default_import",  # the default export is gone
    "subpath",  # a removed entry point such as `pkg/sub`
    "module_path",  # a removed (sub)module such as `pkg.sub`
    "config_key",  # a configuration key / environment variable no longer read
    "async",  # calls of `symbol` that are not awaited
    "behaviour",  # calls of `symbol`, whose behaviour changed: each must be verified
    "config_file",  # a configuration file (`.babelrc`, `setup.cfg`) the release no longer reads
)


@dataclass(frozen=True)
class Item:
    """One changelog item (a bullet with its continuation lines, or a paragraph)."""

    text: str
    category: str  # breaking | deprecation | runtime | info
    candidates: tuple[Candidate, ...] = ()
    replacements: tuple[str, ...] = ()
    removes_deprecated: bool = False
    old_code: tuple[str, ...] = field(default=())  # removed lines of a diff example
    deprecates: tuple[Candidate, ...] = ()  # a deprecation: the names it deprecates (still working)


_ESM_ONLY = re.compile(
    r"""(?ix)
    \bpure\s+ES\s?M(odule)?s?\b | \bES\s?M(odule)?s?[- ]only\b | \bES\s+modules?\s+only\b
    | \bnative\s+ES\s?M(odule)?s?\s+only\b | \bonly\s+(as\s+)?(an?\s+)?(native\s+)?ES\s?modules?\b
    | \bno\s+longer\s+(be\s+)?(loaded|used|imported|required)\s+(with|via|using|from)\s+`?require
    | `?require\(\s*['"](@[^'"/]+/)?[^'"/]+['"]\s*\)`?\s+(no\s+longer\s+works|is\s+no\s+longer\s+supported|fails|throws)
    | \bCommonJS\s+(build|version|support|entry(\s+point)?)\s+(is\s+|was\s+|has\s+been\s+)?(no\s+longer\s+shipped|removed|dropped|gone)
    | \b(dropped|removed)\s+(the\s+)?CommonJS\b | \bcan\s+no\s+longer\s+be\s+required\b
    """
)
_DEFAULT_EXPORT_GONE = re.compile(
    r"default\s+export\b.{0,200}?\b(removed|gone|no\s+longer|any\s*more|dropped)|"
    r"\bno\s+default\s+export\b|there\s+is\s+no\s+default\s+export"
    r"|\b(remov(e|ed|es)|drop(s|ped)?|delet(e|ed|es))\s+(the\s+)?(callable\s+|module\s+)?default\s+export"
    r"|\b(module|package|export)\s+(itself\s+)?(is\s+)?no\s+longer\s+callable\b",
    re.I,
)
# "feat(x): explicit import <pkg> (BREAKING CHANGE)": the package must be imported by name
_EXPLICIT_IMPORT = re.compile(r"\bexplicit\s+(named\s+)?imports?\b", re.I)
_REQUIRED_ARG = [
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
_SIGNATURE_CUE = re.compile(
    r"\bsignatures?\b|\bthe\s+form\b|\bargument\s+order\b|\bcalling\s+convention\b|\boverload", re.I
)
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
# a family of names by their prefix, "removed `legacy*` functions" (3+ characters before it)
WILDCARD = re.compile(r"^[A-Za-z_$][\w$]{2,40}\*$")
# a sentence about the static types of an API, not about the API itself
_TYPE_LEVEL = re.compile(
    r"\bgenerics?\b|\btype\s+(parameters?|arguments?|params?|inference)\b|\btypings?\b"
    r"|\btype[- ]level\b|\btype\s+definitions?\b",
    re.I,
)
_SUBMODULES = re.compile(r"\b(sub)?modules?\b|\bsubpackages?\b", re.I)
_CONFIGISH = re.compile(
    r"\bconfig(uration)?\b|\bsettings?\b|\benvironment\s+variables?\b|\benv\s+vars?\b|\bkeys?\b",
    re.I,
)


@dataclass(frozen=True)
class _Scope:
    """What the sentences of one breaking item are read against."""

    package: str
    import_names: tuple[str, ...]
    own_names: set[str]  # the package's and its import names, lower-cased
    removal_ctx: bool  # the item's heading or parent bullet says things were removed
    submodules: bool  # the item speaks of (sub)modules


def extract_candidates(
    text: str,
    *,
    context: str = "",
    package: str = "",
    import_names: tuple[str, ...] = (),
    old_code: tuple[str, ...] = (),
) -> tuple[list[Candidate], list[str]]:
    """Candidates to search for, and replacement names mentioned, for one breaking item."""
    scope = _Scope(
        package=package,
        import_names=import_names,
        own_names={package.lower(), *(n.lower() for n in import_names)},
        removal_ctx=bool(REMOVAL_CONTEXT.search(context)),
        submodules=bool(_SUBMODULES.search(text)),
    )
    cands = _package_candidates(text, package)
    news: list[str] = []
    for sentence in sentences(text):
        cands.extend(_sentence_candidates(sentence, scope, news))
    cands.extend(_old_code_subpaths(old_code))
    return _unique(cands), news


def _package_candidates(text: str, package: str) -> list[Candidate]:
    """The package as a whole: ES-module-only now, or its default export gone."""
    cands: list[Candidate] = []
    if _ESM_ONLY.search(text):
        cands.append(Candidate(package, "module"))
    if _DEFAULT_EXPORT_GONE.search(text) or (
        _EXPLICIT_IMPORT.search(text) and EXPLICIT_BREAKING.search(text)
    ):
        cands.append(Candidate(package, "default_import"))
    return cands


def _sentence_candidates(sentence: str, scope: _Scope, news: list[str]) -> list[Candidate]:
    """The candidates of one sentence; the replacement names it mentions go to ``news``.

    A rename list, a dropped configuration or a name moved to another package is read
    whole; so is a change of the calls' form (positional, async, a literal argument).
    Otherwise every code span is read by its role, and a sentence that yields nothing
    that way but says a named API behaves differently yields that API's calls."""
    removal, names_allowed = _removal_reading(sentence, scope.removal_ctx)
    spans = [s for s in span_positions(sentence) if not not_an_api_name(s.text)]
    cands: list[Candidate] = []
    if _renamed_config_or_moved(sentence, spans, scope, cands, news):
        return cands
    required = _required_arg_candidates(sentence, spans)
    if required:
        cands.extend(required)
        names_allowed = False  # the names are the callables that now need an argument
    call_form = _call_form_candidates(sentence, spans, scope.package)
    if call_form is not None:
        return cands + call_form
    cands.extend(_span_candidates(sentence, spans, scope, removal, names_allowed, news))
    if not cands and behaviour_change(sentence):
        cands.extend(behaviour_candidates(sentence, spans))
    return cands


def _removal_reading(sentence: str, removal_ctx: bool) -> tuple[bool, bool]:
    """``(removal, names_allowed)``: whether the sentence says something is gone, and whether
    the plain names it mentions are (not when it only deprecates them, changes their
    behaviour or their types, or announces a future removal)."""
    gone = is_gone_no_longer(sentence)
    removal = bool(REMOVAL_PHRASE.search(sentence)) or gone is True
    behaviour_only = gone is False and not REMOVAL_PHRASE.search(sentence)
    names_allowed = (removal or removal_ctx) and not behaviour_only
    if deprecates_only(sentence):
        names_allowed = False  # deprecated, still working: not a removal
    if _TYPE_LEVEL.search(sentence) and not removal:
        names_allowed = False  # "`f` takes an additional generic": the types changed
    if FUTURE_REMOVAL.search(sentence) and not re.search(
        r"\b(was|were|has been|have been|is|are)\s+removed\b", sentence, re.I
    ):
        names_allowed = False
    return removal, names_allowed


def _renamed_config_or_moved(
    sentence: str, spans: list[Span], scope: _Scope, cands: list[Candidate], news: list[str]
) -> bool:
    """A rename arrow, a dropped configuration file or key, or names moved to another
    package: the candidates (and replacements) of the whole sentence, and True; else False."""
    if _renamed_by_arrow(sentence, spans, cands, news):
        return True
    if config_candidates(sentence, spans, cands, news):
        return True
    moved = moved_out(sentence)
    if moved >= 0:
        moved_candidates(spans, moved, scope.own_names, scope.import_names, cands, news)
        return True
    return False


def _required_arg_candidates(sentence: str, spans: list[Span]) -> list[Candidate]:
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


def _call_form_candidates(sentence: str, spans: list[Span], package: str) -> list[Candidate] | None:
    """The calls' form changed (keyword-only arguments, callbacks to promises, async, a literal
    argument no longer understood): their candidates, or None when the sentence says none."""
    if _POSITIONAL.search(sentence):
        return _positional_candidates(sentence, spans)
    if _CALLBACK.search(sentence) and _CALLBACK_GONE.search(sentence):
        subjects = [s for s in spans if CALL.match(s.text) or DOTTED.match(s.text)] or spans
        names = [n for n in (searchable_name(s.text) for s in subjects) if n]
        # no name: the package's own export
        return [Candidate(name, "async") for name in names or ([package] if package else [])]
    if _ASYNC.search(sentence):
        names = [searchable_name(s.text) for s in spans]
        return [Candidate(name, "async") for name in names if name]
    if _LITERAL_GONE.search(sentence):
        return _literal_candidates(spans)
    return None


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


def _span_candidates(
    sentence: str,
    spans: list[Span],
    scope: _Scope,
    removal: bool,
    names_allowed: bool,
    news: list[str],
) -> list[Candidate]:
    """Each code span read by its role in the sentence: a replacement (to ``news``), the
    context, a removed parameter, import or name."""
    cands: list[Candidate] = []
    span_roles = roles(sentence, spans)
    for i, s in enumerate(spans):
        role, owner = span_roles[i]
        raw = s.text.strip()
        if role == "new":
            news.append(raw)
            continue
        if role == "context":
            continue
        if raw.startswith("[") or raw.lower() in scope.own_names:
            continue  # scope tags like [jest-cli], the package itself
        form = _import_form_candidates(raw, names_allowed, scope.own_names)
        if form is not None:
            cands.extend(form)
            continue
        if KWARG.match(raw) and role != "param":
            continue  # `ttl=0`, `format="mixed"`: an example value, not an API name
        if role == "param":
            cands.extend(_parameter_candidates(raw, owner, removal or scope.removal_ctx))
            continue
        if names_allowed:
            cands.extend(_removed_api_candidates(sentence, spans, i, raw, scope))
    return cands


def _import_form_candidates(
    raw: str, names_allowed: bool, own_names: set[str]
) -> list[Candidate] | None:
    """A span that is an import (``require('pkg/sub')``, ``from pkg.sub import x``, a
    sub-path, a quoted string): the removed module or entry point it names, if any; None
    for a span of another form."""
    m_req = REQUIRE.match(raw)
    if m_req and names_allowed:
        spec = m_req.group(1)
        if "/" in spec.lstrip("@").split("/", 1)[-1] or (not spec.startswith("@") and "/" in spec):
            return [Candidate(spec, "subpath")]
        return []
    m_from = IMPORT_FROM.match(raw) or IMPORT.match(raw)
    if m_from:
        if names_allowed and m_from.group(1).lower() not in own_names:
            return [Candidate(m_from.group(1), "module_path")]
        return []
    if JS_IMPORT.match(raw):
        return []
    if SUBPATH.match(raw) and not FILE_LIKE.search(raw):
        return [Candidate(raw, "subpath")] if names_allowed else []
    if QUOTED.match(raw):
        return []
    return None


def _parameter_candidates(raw: str, owner: str, removal: bool) -> list[Candidate]:
    """A span in a parameter's role (``timeout=``, ``opts.timeout``): the removed parameter."""
    name = raw[:-1] if raw.endswith("=") else (searchable_name(raw) or "")
    if name and IDENT.match(name.split(".")[-1]) and removal:
        return [Candidate(name.split(".")[-1], "parameter", of=owner)]
    return []


def _removed_api_candidates(
    sentence: str, spans: list[Span], i: int, raw: str, scope: _Scope
) -> list[Candidate]:
    """The ``i``-th span of a removal read as an API: a removed call form, a family of
    names, a configuration key, a submodule, or a name (and a module, for ``pkg.sub``)."""
    call = CALL.match(raw)
    if call and call.group(2).strip():
        params = call.group(2).strip()
        if _SIGNATURE_CUE.search(sentence) or _reuses_callee(call.group(1), i, spans):
            return [Candidate(f"{call.group(1).lstrip('@')}({params})", "signature")]
    if WILDCARD.match(raw):
        return [Candidate(raw, "name")]  # `safe*`: the planner expands it
    name = searchable_name(call.group(1) if call else raw)
    if not name:
        return []
    if UPPER.match(name) and _CONFIGISH.search(sentence):
        return [Candidate(name, "config_key")]
    if scope.submodules and IDENT.match(name) and name.islower() and scope.import_names:
        return [Candidate(f"{scope.import_names[0]}.{name}", "module_path")]
    if generic(name):
        return []
    cands: list[Candidate] = []
    if "." in name and name.islower() and name.split(".", 1)[0] in scope.own_names:
        cands.append(Candidate(name, "module_path"))  # `pkg.sub`: maybe a module
    cands.append(Candidate(name, "name"))
    return cands


def _old_code_subpaths(old_code: tuple[str, ...]) -> list[Candidate]:
    """The sub-paths the removed lines of a diff example ``require()``."""
    cands: list[Candidate] = []
    for line in old_code:
        m = re.search(r"""require\(\s*['"]([^'"]+/[^'"]+)['"]\s*\)""", line)
        if m:
            cands.append(Candidate(m.group(1), "subpath"))
    return cands


def _unique(cands: list[Candidate]) -> list[Candidate]:
    """The candidates without repeats, in first-seen order."""
    seen: set[tuple[str, str, str, str]] = set()
    out = []
    for c in cands:
        k = (c.symbol, c.kind, c.of, c.arg)
        if k not in seen:
            seen.add(k)
            out.append(c)
    return out


# "`old` → `new`", "`old` -> `new`" in a breaking item (a rename list under "functions renamed:")
_RENAME_ARROW = re.compile(r"(?<=`)\s*(→|->|=>|⇒|⟶)\s*(?=`)")


def _renamed_by_arrow(
    sentence: str, spans: list[Span], cands: list[Candidate], news: list[str]
) -> bool:
    """The names before a rename arrow are gone (searched), those after it replace them."""
    arrow = _RENAME_ARROW.search(sentence)
    if not arrow or not spans or spans[0].start > arrow.start():
        return False
    if not any(s.start >= arrow.end() for s in spans):
        return False
    for s in spans:
        if s.start >= arrow.end():
            news.append(s.text)
            continue
        name = searchable_name(callee(s.text))
        if name and not generic(name):
            cands.append(Candidate(name, "name"))
    return True


def _nearest_callable(spans: list[Span], pos: int) -> str:
    best = ""
    for s in spans:
        if s.start > pos:
            break
        raw = s.text.strip()
        if CALL.match(raw) or DOTTED.match(raw):
            best = callee(raw)
    if not best:
        for s in spans:
            if CALL.match(s.text.strip()) or DOTTED.match(s.text.strip()):
                return callee(s.text)
    return best


def _reuses_callee(callee: str, i: int, spans: list[Span]) -> bool:
    """``res.json(status, obj)``, use ``res.status(status).json(obj)``: the same method lives on."""
    leaf = callee.rsplit(".", 1)[-1]
    for s in spans[i + 1 :]:
        if re.search(rf"\b{re.escape(leaf)}\s*\(", s.text):
            return True
    return False


def analyze_section(
    body: str, *, package: str = "", import_names: tuple[str, ...] = ()
) -> list[Item]:
    """Every non-trivial item of a section with its category and search candidates."""
    out: list[Item] = []
    for raw in split_items(body):
        text = clean(raw.text)
        if not text:
            continue
        category = categorize(text, raw.context, clean(raw.parent))
        if category == "info" and _changes_named_api(text, f"{raw.context} {raw.parent}"):
            category = "breaking"
        removes_deprecated = bool(
            re.search(
                r"deprecat\w*.{0,40}\b(remov|gone|delet|dropp)|\bremov\w*.{0,40}deprecat",
                text,
                re.I,
            )
        )
        old_code = tuple(
            line.strip()[1:].strip()
            for line in raw.code
            if line.strip().startswith("-") and not line.strip().startswith("---")
        )
        cands: list[Candidate] = []
        news: list[str] = []
        if category == "breaking":
            cands, news = extract_candidates(
                text,
                context=f"{raw.context} {raw.parent}",
                package=package,
                import_names=import_names,
                old_code=old_code,
            )
        if category == "info" and not removes_deprecated:
            continue
        deprecates: list[Candidate] = []
        if category == "deprecation":
            deprecates = _as_removed(text, package, import_names)[0]
        out.append(
            Item(
                text=text,
                category=category,
                candidates=tuple(cands),
                replacements=tuple(dict.fromkeys(news)),
                removes_deprecated=removes_deprecated,
                old_code=old_code,
                deprecates=tuple(deprecates),
            )
        )
    return out


_NOT_A_BREAK_CTX = re.compile(
    r"\b(features?|added|new|improvements?|enhancements?|bug ?fix(es)?|fixe[sd]|docs?)\b", re.I
)


def _changes_named_api(text: str, context: str) -> bool:
    """A name moved to another distribution, or a named API behaves differently: breaking,
    though none of the removal words is there (outside feature and fix lists)."""
    if _NOT_A_BREAK_CTX.search(context) or deprecates_only(text):
        return False
    return any(
        moved_out(s) >= 0 or (behaviour_change(s) and _names_api(s)) for s in sentences(text)
    )


def _names_api(sentence: str) -> bool:
    """A code span, or a plain dotted name or call (``jwt.encode``, ``load()``) when the
    sentence has no code spans."""
    if code_spans(sentence):
        return True
    return any(DOTTED.match(s.text) or CALL.match(s.text) for s in span_positions(sentence))


def _as_removed(
    text: str, package: str, import_names: tuple[str, ...]
) -> tuple[list[Candidate], list[str]]:
    """A deprecation read as the removal it announces: the names it deprecates."""
    text = re.sub(r"\b(is|are)\s+(now\s+)?deprecated\b", "is removed", text, flags=re.I)
    text = re.sub(r"`*\b\w*DeprecationWarning\b`*", "a warning", text)
    text = re.sub(r"\bdeprecat\w*", "removed", text, flags=re.I)
    return extract_candidates(text, context="removed", package=package, import_names=import_names)


def deprecated_names(
    body: str, *, package: str = "", import_names: tuple[str, ...] = ()
) -> list[Item]:
    """Deprecation notes of a section read as removals: what a 'removed deprecated code' release drops."""
    out = []
    for raw in split_items(body):
        text = clean(raw.text)
        if not DEPRECATION.search(text + " " + raw.context):
            continue
        cands, news = _as_removed(text, package, import_names)
        if cands:
            out.append(
                Item(
                    text=text,
                    category="deprecation",
                    candidates=tuple(cands),
                    replacements=tuple(news),
                )
            )
    return out


__all__ = [
    "Candidate",
    "Item",
    "analyze_section",
    "categorize",
    "deprecated_names",
    "extract_candidates",
    "split_items",
]
