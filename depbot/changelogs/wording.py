"""More of the reviewer's reading: wordings ``candidates.extract_candidates`` builds on. Pure.

- a name that moved to another distribution ("`X` was moved to the separate package `y`",
  "has been extracted into", "now lives in the `y` package", "split out into");
- required arguments in any wording ("must now be passed", "is no longer optional",
  "`x` is now required", "`x` became mandatory");
- a behaviour change of a named API ("`f` now returns str instead of bytes", "`g` now
  raises ValueError on ...", "`h()` no longer accepts ...", "the default of `x` changed");
- dropped configuration: a config file format ("support for `setup.cfg` configuration
  was removed", "`.babelrc` files are no longer read") or a key of one ("the `foo` key in
  `pyproject.toml` is no longer read");
- what is never an API name: issue and PR numbers, commit hashes, versions, and files of
  the package's own source tree.

Every rule reads wording and layout, never a package's name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from depbot.changelogs.items import is_gone_no_longer
from depbot.changelogs.spans import CALL, DOTTED, IDENT, KWARG, QUOTED, Span, callee

# --- words that are never an API on their own ------------------------------------------------

# names too common to mean anything on their own (they need a qualifier or a call shape)
GENERIC_NAMES = frozenset(
    """
    a an the it is of to in on at by and or not as if for from with self this cls args kwargs
    append pop push get set put add remove delete clear copy update keys values items index
    count sort reverse insert extend find join split replace format strip lower upper map filter
    reduce some every slice splice shift unshift concat includes send json text data body status
    type name value id key main default run start stop close open read write load dump dumps loads
    call apply bind next then catch finally resolve reject error log info warn debug emit on off
    once listen render redirect query params param top end size length list dict str int float
    bool bytes object array string number function module require import export exports new
    init setup config options option settings env path url file files dir module window document
    true false none null undefined fn cb callback handler hidden browser field top level mode
    request response session client server app router model view user cache logger util utils
    helpers base core types api lib src test tests example examples package version
    """.split()
)
# words that name technologies, not APIs
_TECH_WORDS = frozenset(
    """
    commonjs cjs esm es es6 es2015 umd amd typescript javascript node nodejs python pypy deno bun
    webpack rollup babel jest npm yarn pnpm pip wheel sdist http https json yaml toml utf utf8
    """.split()
)
# JavaScript globals: never the package's API as a qualifier or a bare name
JS_GLOBALS = frozenset(
    """
    Math JSON Object Array Promise String Number Boolean Date RegExp Error TypeError SyntaxError
    process console window document global globalThis Buffer Symbol Map Set WeakMap Reflect Proxy
    Intl URL URLSearchParams setTimeout setInterval require module exports navigator
    """.split()
)
# Python builtins: never the package's API as a bare name
PY_BUILTINS = frozenset(
    """
    ImportError ValueError TypeError KeyError AttributeError RuntimeError Exception OSError IOError
    DeprecationWarning UserWarning Warning FutureWarning StopIteration NotImplementedError
    print len str int float dict list set tuple bytes object type isinstance super open
    """.split()
)
BUILTINS = JS_GLOBALS | PY_BUILTINS


# --- moved to another distribution ------------------------------------------------------------

MOVED_OUT = re.compile(
    r"""(?ix)
    \b(moved|migrated|relocated)\s+(out\s+)?(in)?to\s+(a|an|the|its)?\s*(own|new|separate|standalone|
        dedicated|external|independent)?\s*(package|distribution|project|library|repository|repo)\b
    | \b(moved|migrated|relocated)\s+(in)?to\s+(the\s+)?`[^`]+`\s+(package|distribution|project)\b
    | \b(extracted|split(\s+out)?|spun\s+off|broken\s+out)\s+(in)?to\b
    | \bnow\s+lives?\s+in\s+(the\s+|a\s+)?(separate\s+)?`?[\w.-]+`?\s+(package|distribution|project)\b
    | \bnow\s+(ships|is\s+shipped|is\s+distributed|is\s+published)\s+(separately|as\s+(a\s+)?separate)
    """
)


_DESTINATION = re.compile(
    r"\b(package|distribution|project|library|plugin|repository|repo)\b|`@?[\w.]+[-/][\w./-]+`",
    re.I,
)


def moved_out(sentence: str) -> int:
    """Where the sentence says a name left this distribution for another one (the offset
    of the verb, so the names before it moved), or -1."""
    m = MOVED_OUT.search(sentence)
    if m and _DESTINATION.search(sentence, m.start()):
        return m.start()
    return -1


# --- required arguments ----------------------------------------------------------------------

_ARG = r"`*(?P<arg>[A-Za-z_]\w*)`*"
REQUIRED_ARG_MORE = [
    re.compile(rf"must\s+(now\s+)?(always\s+)?be\s+(passed|given)\s+(a|an|the)\s+{_ARG}", re.I),
    re.compile(
        rf"(?<!\w)(the\s+)?{_ARG}\s+(argument|parameter|param|option|keyword)?\s*(of\s+`[^`]+`\s+)?"
        r"(is|are)\s+no\s+longer\s+optional",
        re.I,
    ),
    re.compile(
        rf"(?<!\w)(the\s+)?{_ARG}\s+(argument|parameter|param|option|keyword)?\s*(of\s+`[^`]+`\s+)?"
        r"(is\s+now\s+(required|mandatory)|became\s+(required|mandatory)|has\s+become\s+(required|mandatory))",
        re.I,
    ),
    re.compile(rf"(always\s+)?requires?\s+(the|a|an)\s+{_ARG}\s+(argument|parameter|option)", re.I),
]

# --- behaviour changes -------------------------------------------------------------------------

BEHAVIOUR = re.compile(
    r"""(?ix)
    \bnow\s+(returns?|raises?|throws?|yields?|emits?\s+(?!(an?\s+)?`?deprecation)|rejects?|resolves?|
        sorts?|orders?|encodes?|decodes?|escapes?|validates?|coerces?|converts?|defaults?\s+to)\b
    | \bno\s+longer\s+(accepts?|returns?|raises?|throws?|swallows?|ignores?|coerces?|converts?|
        allows?|takes?|sorts?|strips?|escapes?|follows?|retries?)\b
    | \bdefault\s+(value\s+)?(of|for)\s+`[^`]+`[^;]{0,40}?\b(changed|is\s+now|has\s+changed|was\s+changed)
    | `[^`]+`\s+now\s+defaults?\s+to\b | \bchanged\s+the\s+default\s+(value\s+)?of\b
    | \bmak(e|es|ing)\s+`[^`]+`\s+(the\s+)?default\b | `[^`]+`\s+is\s+now\s+(the\s+)?default\b
    | \breturns?\s+[\w`.\[\]]+\s+instead\s+of\b | \binstead\s+of\s+returning\b
    | \bis\s+now\s+(case[- ]sensitive|strict|lazy|keyword[- ]only)\b
    | \bchang(e|es|ed|ing)\s+(the\s+)?behaviou?rs?\s+of\s+`   # "Changed behavior of `delayMs` …"
    | \b(change|update|fix)(s|d)?\s+(the\s+)?return\s+type\s+(of|for)\b
    | \breturns?\s+[\w`.]+\s+as\s+[\w`.]+\s+(not|instead\s+of|rather\s+than)\b
    | \bto\s+(keep|preserve|restore|retain|get\s+back)\s+the\s+(old|previous|former|prior|legacy)
        \s+behaviou?r\b   # "set `x` to keep the old behaviour": what happens by default changed
    """
)


_NARROWED = re.compile(
    r"\bno\s+longer\s+(accepts?|takes?|supports?|allows?|permits?)\b(?!\s+((the|a|an|any)\s+)?(`|:\w+:`))"
    r"|\b(now\s+)?(rejects?|refuses?)\s+(?!`)\w",
    re.I,
)


def narrows_input(text: str) -> bool:
    """Whether the text says a named API takes fewer values than before, the values given
    in words ("no longer accepts unsigned tokens", "now rejects keys shorter than 2048 bits"),
    not a parameter that is gone ("no longer accepts `timeout`")."""
    return bool(_NARROWED.search(text))


def behaviour_change(sentence: str) -> bool:
    """Whether the sentence says a named API behaves differently (not that it is gone)."""
    return bool(BEHAVIOUR.search(sentence)) or is_gone_no_longer(sentence) is False


# "``Cache.__repr__()`` output is shorter (breaking change)": a break said outright of the
# API the sentence names, in words no other reading knows
# "[**closed**] MIME breaking with 'class' declaration #170": a changelog generator's list of
# the issues closed in a release; the title is what someone reported, not what changed
_ISSUE_REPORT = re.compile(r"^[\s*_>-]{0,8}\[[*_\s]{0,4}closed[*_\s]{0,4}\]", re.I)


def issue_report(text: str) -> bool:
    """Whether an item is the title of a closed issue (a report), not a change."""
    return bool(_ISSUE_REPORT.match(text))


SAID_BREAKING = re.compile(r"\(breaking(?:\s+change)?\)|\bbreaking\s+change\b", re.I)


# --- configuration files and keys -------------------------------------------------------------

CONFIG_FILE = re.compile(
    r"""(?x)^(
        \.?[\w.-]*rc(\.(json|ya?ml|js|cjs|mjs|toml))?         # .babelrc, .eslintrc.json
        | [\w.-]+\.(cfg|ini|toml|ya?ml|conf)                   # setup.cfg, tox.ini, foo.toml
        | [\w.-]+\.config\.(js|cjs|mjs|ts|json)                # babel.config.js
        | \.[\w-]+(\.json)?                                    # .coveragerc-like dotfiles
    )$""",
    re.I,
)
_CONFIG_DROPPED = re.compile(
    r"\b(support\s+for|reading\s+(of\s+)?|configuration\s+(via|from|in)|config(uration)?\s+files?)\b"
    r"|\b(no\s+longer|not|never)\s+(reads?|loads?|looks\s+(at|for)|picks\s+up)\s+`"
    r"|\b(files?|format|configuration|config|key|keys|section|option|setting)\b[^;]{0,60}?"
    r"\b(no\s+longer|removed|dropped|ignored|not\s+read|unsupported)\b",
    re.I,
)
_KEY_IN_FILE = re.compile(
    r"`(?P<key>[\w.-]+)`\s+(key|option|setting|section|field|entry)\s+(in|of|from)\s+(the\s+)?"
    r"`(?P<file>[^`]+)`",
    re.I,
)


def config_file_name(span: str) -> str:
    """``span`` as a configuration file name (``.babelrc``, ``setup.cfg``), or ''."""
    t = span.strip()
    if "/" in t or " " in t or not CONFIG_FILE.match(t) or len(t) < 4:
        return ""
    return t


def config_drops(sentence: str) -> bool:
    """Whether the sentence says a configuration file or key is no longer read."""
    return bool(_CONFIG_DROPPED.search(sentence))


def key_in_file(sentence: str) -> tuple[str, str] | None:
    """``(key, file)`` for "the `foo` key in `pyproject.toml`", else None."""
    m = _KEY_IN_FILE.search(sentence)
    if m and config_file_name(m.group("file")):
        return m.group("key"), m.group("file")
    return None


# --- never API names ----------------------------------------------------------------------------

_NOT_NAMES = re.compile(
    r"""(?ix)^(
        \#\d+ | gh-\d+ | pr\s*\#?\d+ | issue\s*\#?\d+       # #123, GH-45, PR 7
        | v?\d+(\.\d+)+([-.]?\w+)? | v\d+                  # 1.2.3, v2, 2.0.0rc1
    )$"""
)
_OWN_SOURCE = re.compile(
    r"^(\./)?(src|lib|dist|build|tests?|docs?|packages|scripts|bin)/[\w./-]+$|"
    r"^[\w.-]+(/[\w.-]+)+\.(py|pyi|js|mjs|cjs|ts|tsx|jsx|c|h|rs|go)$",
    re.I,
)


# wheel platform tags and build artifacts: never API names
_PLATFORM = re.compile(
    r"""(?ix)^(
        (many|musl)linux[\w.]* | macosx[\w.]* | win(32|_amd64|_arm64) | cp3\d{1,2}\w*
        | abi3 | py[23](\.py3)?-none-any | (s|bdist_)?dist | sdists? | wheels?
    )$"""
)
# a package's build and packaging files: a configuration file a tool stops reading is a use
# (``config_candidates``), never a name to search for
_BUILD_FILE = re.compile(
    r"""(?ix)^(
        setup\.(py|cfg) | pyproject\.toml | MANIFEST\.in | tox\.ini | Makefile
        | (poetry|Pipfile|uv|pdm)\.lock | Pipfile | CMakeLists\.txt | requirements[\w.-]*\.txt
    )$"""
)


def build_file(span: str) -> bool:
    """Whether ``span`` names a build or packaging file (``setup.cfg``, ``pyproject.toml``)."""
    return bool(_BUILD_FILE.match(span.strip()))


def not_an_api_name(span: str) -> bool:
    """Issue, PR or commit references, version strings, files of the package's own tree and
    wheel platform tags."""
    t = span.strip().strip("()[]")
    if _NOT_NAMES.match(t) or _PLATFORM.match(t):
        return True
    if re.fullmatch(r"[0-9a-f]{7,40}", t) and re.search(r"\d", t):
        return True
    return bool(_OWN_SOURCE.match(t))


@dataclass(frozen=True)
class Candidate:
    """Something to look for in the client code."""

    symbol: str
    kind: str = "name"
    of: str = ""  # owning callable / class, for parameter-like kinds
    arg: str = ""  # required_arg: the argument; literal_arg: the literal
    max_positional: int = 1

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"symbol": self.symbol, "kind": self.kind}
        if self.of:
            d["of"] = self.of
        if self.arg:
            d["arg"] = self.arg
        if self.kind == "positional":
            d["max_positional"] = self.max_positional
        return d


def generic(symbol: str) -> bool:
    """Too common, a technology word or a builtin: not a name to search for on its own."""
    leaf = symbol.rsplit(".", 1)[-1].lstrip("@")
    if "." in symbol:
        return symbol.split(".", 1)[0] in JS_GLOBALS
    low = leaf.lower()
    return low in GENERIC_NAMES or low in _TECH_WORDS or leaf in BUILTINS or len(leaf) < 3


# `type WorkerPool`, `interface Options<T>`, `class Foo`: a declaration, its keyword before the
# name the code writes
_DECLARATION = re.compile(
    r"(?:declare\s+)?(?:export\s+)?(?:type|interface|class|enum|function|namespace|const|let|var)"
    r"\s+([A-Za-z_$][\w$]*)(?:\s*<[^<>]{0,80}>)?"
)


def declared_name(text: str) -> str:
    """``type WorkerPool`` → ``WorkerPool``; any other text as it is."""
    found = _DECLARATION.fullmatch(text.strip())
    return found.group(1) if found else text


def searchable_name(text: str) -> str | None:
    """A span as the name code would use (``<Route />`` → ``Route``, ``A#b`` → ``A.b``), or None."""
    t = declared_name(text.strip().rstrip(";")).lstrip("@")
    jsx = re.fullmatch(r"</?\s*([A-Za-z_$][\w$.]*)[^<>]*/?>", t)  # `<Switch>`, `<Route />`
    if jsx:
        t = jsx.group(1)
    typed = re.fullmatch(  # `suspense: boolean`, `onError?: Function`: the property typed
        r"([A-Za-z_$][\w$]*)\??\s*:\s*(?:boolean|string|number|object|any|unknown|"
        r"[A-Z][\w$]*(?:<[^<>]*>)?)(?:\[\])?",
        t,
    )
    if typed:
        t = typed.group(1)
    if t.endswith("()"):
        t = t[:-2]
    if t.startswith("."):
        t = t[1:]
    t = t.replace("#", ".").replace("::", ".")  # AxiosError#status, Class::method
    if IDENT.match(t) or DOTTED.match(t):
        return t
    return None


def config_candidates(
    sentence: str, spans: list[Span], cands: list[Candidate], news: list[str]
) -> bool:
    """A dropped configuration file (``.babelrc``) or a key of one (the `foo` key in
    `pyproject.toml`): the checkout's matching files are uses too."""
    if not config_drops(sentence) or _NEW_FILE.search(sentence[: spans[0].start] if spans else ""):
        return False
    keyed = key_in_file(sentence)
    if keyed:
        cands.append(Candidate(keyed[0], "config_key", of=keyed[1]))
        return True
    files = [s for s in spans if config_file_name(s.text)]
    if _OWN_BUILD.search(sentence):  # the package's own build moved: not a file of the client's
        files = [s for s in files if not build_file(s.text)]
    if not files:
        return False
    cut = _REPLACEMENT.search(sentence)
    for s in files:
        if cut and s.start > cut.start():
            news.append(s.text)
        else:
            cands.append(Candidate(config_file_name(s.text), "config_file"))
    return True


_OWN_BUILD = re.compile(
    r"\b(build(ing)?|packag(ing|ed)|setuptools|wheels?|sdists?|metadata)\b", re.I
)
_NEW_FILE = re.compile(r"\b(add(ed)?|new|now\s+reads?)\b", re.I)
_REPLACEMENT = re.compile(r"\b(use|instead|in\s+favou?r\s+of|replaced\s+(by|with)|migrate)\b", re.I)


def moved_candidates(
    spans: list[Span],
    at: int,
    own_names: set[str],
    import_names: tuple[str, ...],
    cands: list[Candidate],
    news: list[str],
) -> None:
    """Names before the 'moved to another package' verb left the distribution: every
    import of them from the old package breaks; what follows is their new home."""
    for s in spans:
        raw = s.text.strip()
        if s.start >= at:
            news.append(raw)
            continue
        name = searchable_name(raw)
        if not name or name.lower() in own_names:
            continue
        root = name.split(".", 1)[0].lower()
        if "." in name and root in own_names:
            cands.append(Candidate(name, "module_path"))
            cands.append(Candidate(name, "name"))
        elif name.islower() and IDENT.match(name) and import_names and not generic(name):
            cands.append(Candidate(f"{import_names[0]}.{name}", "module_path"))
            cands.append(Candidate(name, "name"))
        elif not generic(name):
            cands.append(Candidate(name, "name"))


def behaviour_candidates(sentence: str, spans: list[Span]) -> list[Candidate]:
    """``f`` now returns / raises / no longer accepts / defaults to ...: the calls of ``f``
    must be verified. The subject is the callable before the verb (or, for "the default
    of `x` in `f()`", the callable the sentence names)."""
    named = [s for s in spans if not QUOTED.match(s.text.strip()) and not KWARG.match(s.text)]
    callables = [s for s in named if CALL.match(s.text.strip()) or DOTTED.match(callee(s.text))]
    verb = BEHAVIOUR.search(sentence)
    before = [s for s in callables if verb is not None and s.end <= verb.start()]
    subject = before[:3] or callables[:1] or named[:1]  # "`a()` and `b()` now return …": both
    out = []
    for s in subject:
        name = searchable_name(callee(s.text))
        if not name or name in BUILTINS:
            continue
        if generic(name) and not (CALL.match(s.text.strip().lstrip(".")) or "." in name):
            continue
        out.append(
            Candidate(name, "behaviour", arg=IF_CONDITION if _ONLY_IF.search(sentence) else None)
        )
    return out


# "`send()` now throws if the socket is closed": the change reaches only the calls that do that
# thing, which no search can tell; each call is one to verify, none a confirmed break
IF_CONDITION = "?if"
# "The variadic argument signature of `.listen()` has been removed": the calls that pass their
# arguments one by one break; a call whose first argument is an options object is the kept form
VARIADIC = "?variadic"
_ONLY_IF = re.compile(
    r"\b(?:now\s+)?(?:throws?|raises?|rejects?|errors?|fails?|warns?)\b[^.;]{0,60}?\b(?:if|when|unless|whenever)\b",
    re.I,
)


# "a custom `key` given to `@cachedmethod` is now called as …": a change that reaches only
# the calls of the callable that pass that argument (or option); the others keep working
_GIVEN_TO = re.compile(
    r"\b(?:custom|user[- ]supplied|explicit|own)\s+(`+)@?([A-Za-z_$][\w$]*)\1\s+"
    r"(?:(?:argument|option|parameter|function|callback)\s+)?(?:given|passed)\s+to\s+"
    r"(`+)@?([A-Za-z_$][\w$.]*)(?:\(\))?\3",
    re.I,
)


# "The `mocks` option of the `ApolloServer` constructor now uses …": calls passing it
_OPTION_OF_NOW = re.compile(
    r"(`+)@?([A-Za-z_$][\w$]*)\1\s+(?:option|argument|parameter|setting)\s+(?:of|to|for)\s+"
    r"(?:the\s+)?(`+)@?([A-Za-z_$][\w$.]*)(?:\(\))?\3(?:\s+(?:constructor|function|method|call))?"
    r"\s+(?:now|no\s+longer)\b",
    re.I,
)


def conditional_candidates(sentence: str) -> list[Candidate]:
    """``behaviour`` of a callable, ``arg`` the argument whose calls alone it reaches."""
    m = _GIVEN_TO.search(sentence) or _OPTION_OF_NOW.search(sentence)
    if m is None:
        return []
    name = searchable_name(callee(m.group(4)))
    if not name or name in BUILTINS or generic(name) and "." not in name:
        return []
    return [Candidate(name, "behaviour", arg=m.group(2))]


__all__ = [
    "Candidate",
    "conditional_candidates",
    "SAID_BREAKING",
    "BUILTINS",
    "GENERIC_NAMES",
    "JS_GLOBALS",
    "PY_BUILTINS",
    "REQUIRED_ARG_MORE",
    "behaviour_candidates",
    "behaviour_change",
    "config_candidates",
    "config_drops",
    "config_file_name",
    "generic",
    "key_in_file",
    "moved_candidates",
    "moved_out",
    "narrows_input",
    "build_file",
    "not_an_api_name",
    "searchable_name",
]
