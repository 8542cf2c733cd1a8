"""What a search must find for one breaking changelog item to matter in the client code. Pure.

``extract_candidates`` reads an item sentence by sentence: a rename list, a dropped
configuration file or key, a name moved to another package, a newly required argument,
a change of the calls' form (keyword-only, callbacks to promises, async, a literal no longer
understood), and otherwise each code span by its role (a removed import, sub-path,
parameter, call form or name); an item that is about the whole package (ES-module-only,
no default export) yields the package itself. ``breaking.analyze_section`` calls it for
every breaking item.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from depbot.changelogs.callforms import (
    call_form_candidates,
    required_arg_candidates,
    value_kind_candidates,
)
from depbot.changelogs.commands import command_candidates
from depbot.changelogs.events import event_candidates
from depbot.changelogs.floors import floor_candidates
from depbot.changelogs.items import (
    EXPLICIT_BREAKING,
    FUTURE_REMOVAL,
    IF_YOU_USED,
    REMOVAL_CONTEXT,
    REMOVAL_PHRASE,
    deprecates_only,
    is_gone_no_longer,
    sentences,
)
from depbot.changelogs.renames import renamed
from depbot.changelogs.returned import returned_member_candidates
from depbot.changelogs.spans import (
    CALL,
    FILE_LIKE,
    IDENT,
    IMPORT,
    IMPORT_FROM,
    JS_IMPORT,
    KWARG,
    QUOTED,
    REQUIRE,
    SIDE_IMPORT,
    SUBPATH,
    UPPER,
    UPPER_SNAKE,
    Span,
    callee,
    plain_dotted,
    roles,
    span_positions,
)
from depbot.changelogs.values import string_value_candidates
from depbot.changelogs.wording import (
    IF_CONDITION,
    SAID_BREAKING,
    VARIADIC,
    Candidate,
    behaviour_candidates,
    behaviour_change,
    build_file,
    conditional_candidates,
    config_candidates,
    generic,
    moved_candidates,
    moved_out,
    not_an_api_name,
    searchable_name,
)

__all__ = ["extract_candidates"]

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
    r"\bno\s+(?:more\s+|longer\s+an?\s+)?default\s+export\b|there\s+is\s+no\s+default\s+export"
    r"|\b(remov(e|ed|es)|drop(s|ped)?|delet(e|ed|es))\s+(the\s+)?(callable\s+|module\s+)?default\s+export"
    r"|\b(module|package|export)\s+(itself\s+)?(is\s+)?no\s+longer\s+callable\b",
    re.I,
)
# "remove deep requires", "deep imports are no longer supported": every `pkg/sub` import
_DEEP_IMPORTS_GONE = re.compile(
    r"\b(?:remov(?:e|ed|es|ing)|drop(?:s|ped)?|delet(?:e|ed|es))\s+(?:the\s+|support\s+for\s+)?"
    r"deep\s+(?:requires?|imports?|requiring|importing)\b"
    r"|\bdeep\s+(?:requires?|imports?|requiring|importing)\s+(?:\w+\s+){0,4}?"
    r"(?:(?:is|are|were|has\s+been|have\s+been)\s+)?(?:removed|dropped|no\s+longer\s+"
    r"(?:supported|work|possible|allowed)|not\s+supported)\b",
    re.I,
)
# "feat(x): explicit import <pkg> (BREAKING CHANGE)": the package must be imported by name
_EXPLICIT_IMPORT = re.compile(r"\bexplicit\s+(named\s+)?imports?\b", re.I)
# "move less-specific options to the `lessOptions` option", "options are now validated": the
# package's options as a whole were reshaped or checked, no one of them named
_OPTIONS_RESHAPED = re.compile(
    r"\b(?:mov(?:e|ed|es)|renam(?:e|ed|es)|restructur\w*|reorgani[sz]\w*|group(?:ed|s)?|nest(?:ed|s)?)"
    r"\b[^.;]{0,50}?\boptions\b"
    r"|\boptions\b[^.;]{0,40}?\b(?:are|were|is|have\s+been|has\s+been)\s+(?:now\s+)?"
    r"(?:moved|renamed|restructured|nested|grouped|validated|checked)\b"
    r"|\b(?:validat(?:e|es|ed|ion\s+of)|strict(?:er)?\s+validation\s+of)\s+(?:the\s+|all\s+|its\s+)?"
    r"(?:loader\s+|plugin\s+)?options\b|\boptions\s+(?:schema|validation)\b",
    re.I,
)
# "the `options` argument is now required": code that gives none is what breaks
_OPTIONS_DEMANDED = re.compile(r"\brequired\b|\bmandatory\b|\bmust\b|\bnew\s+options?\b", re.I)
_SIGNATURE_CUE = re.compile(
    r"\bsignatures?\b|\bthe\s+form\b|\bargument\s+order\b|\bcalling\s+convention\b|\boverload", re.I
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
    config_ctx: bool = False  # ... and that they were rules or options ("Removed rules")

    def calls_itself(self, name: str) -> bool:
        """Whether ``name`` is the package's own name in any spelling (``bodyParser`` of
        body-parser): a call of it is the module called."""
        return _squashed(name) in {_squashed(n) for n in self.own_names}


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
        config_ctx=bool(REMOVAL_CONTEXT.search(context) and _CONFIG_NOUN.search(context)),
    )
    table = removal_table(text)
    if table is not None:  # | Removed in v5 | Official Alternative |: the first column only
        removed, replacements = table
        return _unique([Candidate(n, "name") for n in removed]), replacements
    if IF_YOU_USED.match(text) and len(text) < 120:  # "If you were using `a.b()`"
        return _used_before(text, old_code), []
    cands = _package_candidates(text, package)
    news: list[str] = []
    for sentence in sentences(text):
        rest = _unmarked(sentence)  # a leading "[BREAKING]" says what "(breaking change)" does
        cands.extend(_scoped_candidates(rest, scope, news, marked=rest != sentence))
    cands.extend(_old_code_subpaths(old_code))
    if (
        not cands
        and package
        and _OPTIONS_RESHAPED.search(text)
        and not _OPTIONS_DEMANDED.search(text)
    ):
        # "move less-specific options to the `lessOptions` option": code that gives the package
        # no options at all is not reached; the options it gives are each to verify
        cands.append(Candidate(package, "options_given"))
    # "`f` passes self to its key function. A custom `key` given to `f` …": the item says
    # which calls of `f` it reaches; its other sentences about `f` do not widen that
    narrowed = {c.symbol for c in cands if c.kind == "behaviour" and c.arg}
    cands = [c for c in cands if not (c.kind == "behaviour" and not c.arg and c.symbol in narrowed)]
    # "singleton usage of yargs (`yargs.foo`, `yargs().argv`) has been removed": the package's
    # own module is not a name it removed (the notes of a package do not remove the package)
    cands = [c for c in cands if not (c.kind in ("name", "config_key")
                                      and c.symbol.lower() in scope.own_names)]  # fmt: skip
    # "Remove DEBUG_FD": a name in upper snake case is an environment variable or a setting
    # (or a constant): set in scripts, .env files and strings too, which a name search skips
    cands = [Candidate(c.symbol, "config_key") if c.kind == "name" and _UPPER_SNAKE.fullmatch(c.symbol)
             else c for c in cands]  # fmt: skip
    return _unique(cands), news


_UPPER_SNAKE = re.compile(UPPER_SNAKE)


def _without_spans(sentence: str) -> str:
    """The sentence's words without its code spans."""
    return re.sub(r"`[^`]*`", " ", sentence)


# a key of a configuration (a rule, an option) spelled in kebab case, which no code name is
_KEBAB = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+")
_CONFIG_NOUN = re.compile(r"\b(?:rules?|options?|settings?|keys?|config(?:uration)?)\b", re.I)
_TABLE_SEPARATOR = re.compile(r":?-{3,}:?")
_REMOVED_HEAD = re.compile(r"\b(?:removed|deprecated|old|before|previous|dropped|gone)\b", re.I)
_NEW_HEAD = re.compile(
    r"\b(?:alternative|replacement|new|after|instead|use|now|official|equivalent)\b", re.I
)


def removal_table(text: str) -> tuple[list[str], list[str]] | None:
    """A Markdown table whose first column lists what was removed and the second what to use
    ("| Removed in v5 | Official Alternative |"): (the removed names, the replacements), the
    names of a cell split at commas; None for any other text."""
    cells = [c.strip() for c in text.split("|")]
    cells = [c for c in cells if c]
    seps = [i for i, c in enumerate(cells) if _TABLE_SEPARATOR.fullmatch(c)]
    if len(seps) < 2 or seps != list(range(seps[0], seps[0] + len(seps))) or seps[0] < 2:
        return None
    width = len(seps)
    head = cells[seps[0] - width : seps[0]]
    if not (_REMOVED_HEAD.search(head[0]) and _NEW_HEAD.search(head[1])):
        return None
    removed: list[str] = []
    replacements: list[str] = []
    body = cells[seps[-1] + 1 :]
    for start in range(0, len(body) - width + 1, width):
        row = body[start : start + width]
        for cell, out in ((row[0], removed), (row[1], replacements)):
            for part in cell.split(","):
                name = searchable_name(part.strip().strip("`"))
                plain = name is not None and re.fullmatch(r"[a-z]{1,5}", name) is not None
                if name and not generic(name) and not plain and name not in out:
                    out.append(name)  # `all`, `hook`: words too common to search for alone
    return removed, replacements


# a sentence's leading "this breaks" marker (`**[BREAKING]**`, `*Breaking:*`, `BREAKING
# CHANGE:`): the item's label, not its words; what follows is read as if it began the sentence
_MARKER = re.compile(r"^[\s*_\[(]*breaking(?:[\s-]+changes?)?[\])*_]*\s*[:\u2013-]?[\s*_]*", re.I)


def _unmarked(sentence: str) -> str:
    rest = _MARKER.sub("", sentence, count=1)
    return rest if rest.strip() else sentence


def _package_candidates(text: str, package: str) -> list[Candidate]:
    """The package as a whole: ES-module-only now, or its default export gone."""
    cands: list[Candidate] = []
    if _ESM_ONLY.search(text):
        cands.append(Candidate(package, "module"))
    if _DEFAULT_EXPORT_GONE.search(text) or (
        _EXPLICIT_IMPORT.search(text) and EXPLICIT_BREAKING.search(text)
    ):
        cands.append(Candidate(package, "default_import"))
    if package and _DEEP_IMPORTS_GONE.search(text):
        cands.append(Candidate(package, "subpath"))  # any `pkg/…` entry point
    return cands


# a conventional changelog's scope: "**MongoServer:** deprecate "getUri"" is about getUri
_SCOPE_TAG = re.compile(r"^\W{0,3}\*\*[A-Za-z_$][\w$.:-]{0,80}:?\*\*:?\s+")


def _used_before(heading: str, old_code: tuple[str, ...]) -> list[Candidate]:
    """A guide's "If you were using `tippy.setDefaults()`": the names it gives that the old
    lines of its diff (``- tippy.setDefaults({})``) still call; the step changes those."""
    old = "\n".join(old_code)
    out = []
    for s in span_positions(heading):
        name = searchable_name(callee(s.text))
        if (
            name
            and not generic(name)
            and re.search(rf"(?<![\w$]){re.escape(name.rsplit('.', 1)[-1])}\b", old)
        ):
            out.append(Candidate(name, "name"))
    return out


def _scoped_candidates(
    sentence: str, scope: _Scope, news: list[str], *, marked: bool = False
) -> list[Candidate]:
    """A sentence's candidates, read past its leading scope (``**Server:**``) first: the
    scope names where the change is, not what it removes, when the rest names something."""
    rest = _SCOPE_TAG.sub("", sentence, count=1)
    if rest != sentence:
        found = _sentence_candidates(rest, scope, news, marked=marked)
        if found:
            return found
    return _sentence_candidates(sentence, scope, news, marked=marked)


def _sentence_candidates(
    sentence: str, scope: _Scope, news: list[str], *, marked: bool = False
) -> list[Candidate]:
    """The candidates of one sentence; the replacement names it mentions go to ``news``.

    A rename list, a dropped configuration or a name moved to another package is read
    whole; so is a change of the calls' form (positional, async, a literal argument).
    Otherwise every code span is read by its role, and a sentence that yields nothing
    that way but says a named API behaves differently yields that API's calls."""
    removal, names_allowed = _removal_reading(sentence, scope.removal_ctx)
    cands: list[Candidate] = []
    # "the `string-quotes` rule was removed"; "- `string-quotes`" under "Removed rules"
    # the config noun said in words, not inside a name (`eslint-config-prettier`)
    if (removal and _CONFIG_NOUN.search(_without_spans(sentence))) or scope.config_ctx:
        spans = span_positions(sentence)
        cands += [Candidate(s.text, "config_key")
                  for s, (role, _) in zip(spans, roles(sentence, spans), strict=True)
                  if _KEBAB.fullmatch(s.text) and role != "new"
                  and s.text.lower() not in scope.own_names]  # fmt: skip
    elif re.search(r"\brenamed\b", sentence, re.I):  # "renamed `valid-describe` to `…-callback`"
        spans = span_positions(sentence)
        cands += [Candidate(s.text, "config_key") for s, (role, _) in zip(spans, roles(sentence, spans), strict=True)
                  if role == "old" and _KEBAB.fullmatch(s.text)]  # fmt: skip
    events, replaced = event_candidates(sentence)
    if events:  # "emit a "connect_error" event instead of "error"": the "error" listeners
        news.extend(replaced)
        return cands + events
    floors = floor_candidates(sentence, scope.package)
    if floors:  # "Dropped support for versions of `graphql` prior to 15.3.0"
        return cands + floors
    spans = [s for s in span_positions(sentence) if not not_an_api_name(s.text)]
    gone = removal or _NO_LONGER_PUBLISHED.search(sentence)
    others = _other_packages(sentence, spans, scope.package) if gone else []
    if others:  # "`@scope/hub` has been removed and will no longer be published"
        return cands + [Candidate(s.text, "other_package") for s in others]
    values = string_value_candidates(sentence)
    if values:  # "`horizontalBar` chart type was removed": the string literals passing it
        return cands + values
    members = returned_member_candidates(sentence) if removal else []
    if members:  # "The `remove` method has been removed from useQuery": of what it returns
        return cands + members
    commands = command_candidates(spans, scope.package) if removal else []
    if commands:  # "Remove the `python -m pkg.serving` CLI": the lines that run it
        return cands + commands
    if _renamed_config_or_moved(sentence, spans, scope, cands, news):
        return cands
    spans = [s for s in spans if not build_file(s.text)]  # files, not names, from here on
    required = required_arg_candidates(sentence, spans)
    if required:
        cands.extend(required)
        names_allowed = False  # the names are the callables that now need an argument
    call_form = call_form_candidates(sentence, spans, scope.package)
    if call_form is not None:
        return cands + call_form
    if not removal and not required and _ADDED.search(sentence) and not behaviour_change(sentence):
        return cands  # "`background` options added to `resize`": what is new, nothing gone
    kinds = value_kind_candidates(sentence, spans)  # the calls' arguments decide, not a name
    weighed = {c.symbol for c in kinds}
    found = _callables(sentence, spans, _span_candidates(sentence, spans, scope, removal,
                                                          names_allowed, news))  # fmt: skip
    if removal and spans and not found and not kinds:  # its code spans all say what replaces
        found = [Candidate(s.text, "name") for s in plain_dotted(sentence)]  # the dotted name
    cands += [c for c in found if not (c.kind == "name" and c.symbol in weighed)] + kinds
    if not cands:  # "a custom `key` given to `f` is now …": only the calls passing it
        cands.extend(conditional_candidates(sentence))
    if not cands and removal:  # "remove collection insert, update, remove methods"
        cands.extend(_listed_names(sentence))
    if not cands and (behaviour_change(sentence) or marked or SAID_BREAKING.search(sentence)):
        cands.extend(behaviour_candidates(sentence, spans))
    if not cands and removal:  # "The variadic argument signature of the `.listen()` method
        # has been removed": a way of calling the callable is gone, not the callable. Only the
        # calls made that way break, which no search tells: each call is one to verify (never
        # a confirmed break), and code that makes none is not reached
        calls = [s for s in spans if CALL.match(s.text.strip().lstrip("."))]
        found = behaviour_candidates(sentence, calls) if calls else []
        form = VARIADIC if re.search(r"\bvariadic\b", sentence, re.I) else IF_CONDITION
        cands.extend(replace(c, arg=form) for c in found)
    return cands


_ADDED = re.compile(
    r"\b(?:added|introduced)\b|\bnew\s+(?:options?|parameters?|arguments?|methods?|functions?)\b",
    re.I,
)
# "remove collection insert, update, remove methods", "dropped the foo and bar options": plain
# words listed (two or more) right before the kind of API they are
_LISTED = re.compile(
    r"\b(?:remov\w*|dropp?\w*|delet\w*)\s+(?:the\s+)?(?:(?:deprecated|legacy|old)\s+)?"
    r"(?:([a-z]\w*)\s+)??"
    r"((?:[a-z]\w*,\s*)+(?:(?:and|or)\s+)?[a-z]\w*|[a-z]\w*\s+(?:and|or)\s+[a-z]\w*)\s+"
    r"(methods|functions|helpers|options|properties|hooks|events|commands|exports|aliases)\b",
    re.I,
)


_CALLABLE_NOUN = re.compile(r"\b(?:functions?|methods?)\b", re.I)
_VALUE_NOUN = re.compile(r"\b(?:options?|parameters?|arguments?|props?|keys?|settings?)\b", re.I)


def _callables(sentence: str, spans: list[Span], found: list[Candidate]) -> list[Candidate]:
    """Names the sentence calls functions or methods ("Remove functions …: `a`, `b`", "the
    `a` function") are called, never an option key of the same name: ``arg`` "call"."""
    if not spans:
        return found
    head = sentence[: spans[0].start]
    said = _CALLABLE_NOUN.search(head) and not _VALUE_NOUN.search(head)
    called = {
        s.text.strip().removesuffix("()")
        for s in spans
        if said or _CALLABLE_NOUN.match(sentence[s.end : s.end + 12].strip())
    }
    return [
        replace(c, arg="call") if c.kind == "name" and not c.arg and c.symbol in called else c
        for c in found
    ]


# "remove deprecated compress option", "remove unref method": one plain word before the kind
# of API it is, singular (before a plural, "logger functions", the word is a group's name)
_ONE = re.compile(
    r"\b(?:[Rr]emov\w*|[Dd]ropp?\w*|[Dd]elet\w*)\s+(?:the\s+)?(?:(?:deprecated|legacy|old)\s+)?"
    r"(?:([a-z]\w*)\s+)??([a-z][a-z0-9]*(?:[A-Z_]\w*)?)\s+"
    r"(method|function|helper|option|property|hook|event|command|alias)\b(?!-)"
)
_NO_NAME = frozenset(
    "a an the this that these those all any some each every other unused extra default custom "
    "obsolete internal undocumented experimental global old legacy deprecated redundant "
    "duplicate unnecessary broken invalid unknown new same".split()
)


def _listed_names(sentence: str) -> list[Candidate]:
    m = _LISTED.search(sentence)
    if m is None:
        one = _ONE.search(sentence)
        if one is None or one.group(2).lower() in _NO_NAME or (one.group(1) or "") in _NO_NAME:
            return []
        kind = "parameter" if one.group(3).startswith("option") else "name"
        return [Candidate(one.group(2), kind, of=one.group(1) or "" if kind == "parameter" else "")]
    words = [w for w in re.split(r",\s*|\s+(?:and|or)\s+|\s+", m.group(2)) if w]
    words = [w for w in words if w.lower() not in ("and", "or")]
    kind = "parameter" if m.group(3).lower() == "options" else "name"
    return [Candidate(w, kind, of=m.group(1) or "" if kind == "parameter" else "") for w in words]


# "we no longer support passing `x`", "dropped support for using `y`": that use is gone
_USE_DROPPED = re.compile(
    r"\b(?:no\s+longer\s+supports?|(?:dropped|removed)\s+(?:the\s+)?support\s+for)\s+"
    r"(?:passing|using|calling|setting|providing)\b",
    re.I,
)


# an npm package's name: scoped, or lower case with a dash or a dot (`graphql-upload`)
_NPM_NAME = re.compile(r"@[a-z0-9][\w.-]*/[a-z0-9][\w.-]*|[a-z][a-z0-9]*(?:[-.][a-z0-9]+)+")
_PACKAGE_WORD = re.compile(r"^\W{0,3}(?:packages?|modules?|library|libraries)\b", re.I)
_NO_LONGER_PUBLISHED = re.compile(r"\bno\s+longer\s+(?:be\s+)?published\b", re.I)
_PACKAGE_NOUN = re.compile(r"\bpackages?\b", re.I)


def _other_packages(sentence: str, spans: list[Span], package: str) -> list[Span]:
    """The spans of a removal that name other npm packages, each followed by "package" or in
    a sentence that says they are no longer published (``@scope/hub``, ``graphql-upload``);
    [] when any span of the sentence is something else (an API name to read as before)."""
    if not spans or not (_NO_LONGER_PUBLISHED.search(sentence) or _PACKAGE_NOUN.search(sentence)):
        return []
    published = re.search(r"published", sentence, re.I) is not None
    found = []
    for s in spans:
        text = s.text.strip()
        if text == package or not _NPM_NAME.fullmatch(text):
            return []
        followed = _PACKAGE_WORD.match(sentence[s.end : s.end + 20]) is not None
        if followed or text.startswith("@") or published:
            found.append(s)
    return found


def _removal_reading(sentence: str, removal_ctx: bool) -> tuple[bool, bool]:
    """``(removal, names_allowed)``: whether the sentence says something is gone, and whether
    the plain names it mentions are (not when it only deprecates them, changes their
    behaviour or their types, or announces a future removal)."""
    gone = is_gone_no_longer(sentence)
    removal = bool(REMOVAL_PHRASE.search(sentence) or _USE_DROPPED.search(sentence)) or gone is True
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
    if renamed(sentence, spans, cands, news):
        return True
    if config_candidates(sentence, spans, cands, news):
        return True
    moved = moved_out(sentence)
    if moved >= 0:
        moved_candidates(spans, moved, scope.own_names, scope.import_names, cands, news)
        return True
    return False


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
        return [Candidate(spec, "subpath")] if _deep(spec) else []
    m_from = IMPORT_FROM.match(raw) or IMPORT.match(raw)
    if m_from:
        if names_allowed and m_from.group(1).lower() not in own_names:
            return [Candidate(m_from.group(1), "module_path")]
        return []
    if JS_IMPORT.match(raw):
        return []
    side = SIDE_IMPORT.match(raw)
    if side:  # `import 'pkg'` as the old way: the root loaded for its side effects, or a subpath
        spec = side.group(1)
        if not names_allowed:
            return []
        if spec.lower() in own_names:
            return [Candidate(spec, "side_effect_import")]
        return [Candidate(spec, "subpath")] if _deep(spec) else []
    if SUBPATH.match(raw) and not FILE_LIKE.search(raw):
        return [Candidate(raw, "subpath")] if names_allowed else []
    if QUOTED.match(raw):
        return []
    return None


def _deep(spec: str) -> bool:
    """Whether a module specifier names more than a package: ``pkg/sub``, ``@scope/pkg/sub``
    (a specifier with a slash after a scope's, or any slash without a scope)."""
    return "/" in spec.lstrip("@").split("/", 1)[-1] or (not spec.startswith("@") and "/" in spec)


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
    span = spans[i]  # a code span of its own, not the head of a chain (`x().argv`)
    whole = sentence[span.start] == "`" and not sentence[span.end :].startswith(".")
    if call and whole and "." not in name and scope.calls_itself(name):
        # "Remove deprecated `bodyParser()` middleware" of body-parser: the module called (a
        # code span of its own; "usage like yargs().argv" in words is an example, not this)
        return [Candidate(scope.package, "default_import")]
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
    # "Remove `app.use(validator())`": the call passed in is the package's as much as the
    # host it is passed to (`app.use` may well be another package's)
    inner = CALL.match(call.group(2).strip()) if call else None
    inner_name = searchable_name(inner.group(1)) if inner else None
    if inner_name and scope.calls_itself(inner_name):
        cands.append(Candidate(scope.package, "default_import"))  # the package, called
    elif inner_name and not generic(inner_name) and inner_name != name:
        cands.append(Candidate(inner_name, "name"))
    return cands


def _squashed(name: str) -> str:
    """``expressValidator``, ``express-validator`` and ``express_validator`` alike."""
    return re.sub(r"[\W_]+", "", name.split("/")[-1]).lower()


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


def _reuses_callee(callee: str, i: int, spans: list[Span]) -> bool:
    """``res.json(status, obj)``, use ``res.status(status).json(obj)``: the same method lives on."""
    leaf = callee.rsplit(".", 1)[-1]
    for s in spans[i + 1 :]:
        if re.search(rf"\b{re.escape(leaf)}\s*\(", s.text):
            return True
    return False
