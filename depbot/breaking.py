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
)

_REMOVAL_CTX = re.compile(r"\b(remov(e|ed|al|als)|delet(e|ed|ions?)|drop(ped)?|gone)\b", re.I)
_BREAKING_CTX = re.compile(
    r"breaking|backwards?[- ]incompatible|\bincompatib|⚠|\bremov|\bdelet|\bdropped\b", re.I
)
_DEPRECATION_CTX = re.compile(r"deprecat", re.I)
_FIX_CTX = re.compile(r"\b(bug ?fix(es)?|fixe[sd]|fixed|security)\b", re.I)
_NEUTRAL_CTX = re.compile(
    r"\b(features?|added|adds?|new|improvements?|enhancements?|performance|docs?|documentation|"
    r"chores?|maintenance|build|internal|deps|dependencies|misc|other|highlights?|changed?)\b",
    re.I,
)

_BREAKING_WORDS = re.compile(
    r"""(?ix)
    \bbreaking\b | \bbackwards?[- ]incompatible | \bincompatible\b
    | \bremov(e|ed|es|al|als|ing)\b | \bdelet(e|ed|es)\b | \bdropped\b | \bdrop(s)?\s+support
    | \bno\s+longer\b | \bnot\s+longer\b | \brenamed\b | \b(is|are)\s+gone\b | \bno\s+more\b
    | \bmust\s+now\b | \bnow\s+requires?\b | \brequires?\s+the\b | \b(is|are)\s+now\s+required\b
    | \bmandatory\b | \bkeyword[- ]only\b | \bpositionally\b | \b(is|are)\s+now\s+called\b
    | \breplaced\s+(by|with)\b | \bmoved\s+(to|out|into)\b | \b(is|are)\s+now\s+private\b
    | \b(is|are)\s+now\s+async | \bnow\s+returns?\s+a\s+promise | \bES\s?M(odule)?s?[- ]only
    | \bpure\s+ES\s?M | \bES\s+module\s+only | \bdefault\s+export
    """
)
_FUTURE_REMOVAL = re.compile(
    r"\b(will|to)\s+be\s+removed|\bwill\s+go\s+away|\bgoes\s+away\s+in|\bscheduled\s+for\s+removal|"
    r"\bin\s+a\s+future\s+(release|version)|\bwill\s+be\s+dropped|\bwill\s+no\s+longer",
    re.I,
)
_RUNTIME = re.compile(
    r"\b(python|pypy|node(\.js)?|nodejs|npm|deno|bun|ie|internet explorer|safari|chrome|firefox|"
    r"openssl|libressl|windows|macos|linux)\b",
    re.I,
)
_EXPLICIT_BREAKING = re.compile(r"\(breaking( change)?\)|\*\*breaking\b|^breaking\b|BREAKING", re.I)

# "no longer <verb>" that says a thing is gone (rather than behaves differently)
_GONE_VERBS = (
    "exist", "exists", "available", "importable", "exported", "export", "exports", "supported",
    "support", "accepted", "accepts", "accept", "allowed", "provided", "provides", "works", "work",
    "usable", "part", "shipped", "included", "be", "read", "recognized", "recognised",
    "understood", "honoured", "honored", "has", "have", "takes", "take", "valid",
    "public", "documented", "there", "a", "an", "callable",
)  # fmt: skip
_NO_LONGER = re.compile(r"\bno\s+longer\s+(\w+)(?:\s+(\w+))?", re.I)
_REMOVAL_PHRASE = re.compile(
    r"""(?ix)
    \b(is|are|was|were|has\s+been|have\s+been|got|get)\s+(now\s+)?(removed|deleted|dropped|gone|renamed|
        moved|replaced|private|unexported)\b
    | \b(is|are)\s+gone\b | \blose(s)?\s+(their|its)\b | \brenamed\b | \breplaced\s+(by|with)\b
    | \b(is|are)\s+now\s+called\b | \bnow\s+(only\s+)?available\s+as\b | \bno\s+more\b
    | \bthere\s+is\s+no\b | ^\W*(\*\*\w+:?\*\*:?\s*)?(removed?|removes|deleted?|drop(ped)?|renamed?)\b
    | \b(and|also|we|has|have)\s+(removed|dropped|deleted)\b | \bremoval\s+of\b
    | \b(is|are)\s+now\s+(the\s+|a\s+)?(named\s+)?export(ed)?\b | \b(is|are)\s+(now\s+)?exported\s+as\b
    """
)

# --- spans ---------------------------------------------------------------------------------

_CODE_SPAN = re.compile(r"(?<![`\\])(``?)(?!`)(.+?)(?<!`)\1(?!`)")
_RST_ROLE = re.compile(
    r":(?:py:)?(?:func|meth|class|attr|data|mod|obj|exc|const|envvar):`~?\.?([^`]+)`"
)
_IGNORED_ROLE = re.compile(r":(?:issue|pr|ghsa|pep|user|bug|cve|gh|doc|ref|commit):`[^`]*`")
_URL = re.compile(r"https?://\S+|\bwww\.\S+")
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_PLAIN_SYMBOL = re.compile(
    r"(?<![\w./-])("
    r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?"  # dotted.name or dotted.call()
    r"|[A-Za-z_]\w*\(\)"  # call()
    r"|[a-z]+_[a-z0-9_]+"  # snake_case
    r"|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+"  # CamelCase
    r")(?![\w/-])"
)
_FILE_LIKE = re.compile(
    r"\.(py|pyi|js|mjs|cjs|ts|tsx|jsx|json|md|rst|txt|toml|cfg|ini|ya?ml|lock|html|css|sh|exe)$",
    re.I,
)
_IDENT = re.compile(r"^[A-Za-z_$][\w$]*$")
_DOTTED = re.compile(r"^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$")
_CALL = re.compile(r"^(@?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\((.*)\)$", re.S)
_KWARG = re.compile(r"^([A-Za-z_]\w*)\s*=\s*(.*)$")
_QUOTED = re.compile(r"""^(['"])([^'"]{1,40})\1$""")
_SUBPATH = re.compile(r"^(@[\w.-]+/)?[\w.-]+/[\w./-]+$")
_REQUIRE = re.compile(r"""^require\(\s*['"]([^'"]+)['"]\s*\)$""")
_IMPORT_FROM = re.compile(r"^from\s+([\w.]+)\s+import\s+(.+)$")
_IMPORT = re.compile(r"^import\s+([\w.]+)(?:\s+as\s+\w+)?$")
_JS_IMPORT = re.compile(r"""^import\s+.*\s+from\s+['"]([^'"]+)['"];?$""")
_UPPER = re.compile(r"^[A-Z][A-Z0-9_]{2,}$")

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


@dataclass(frozen=True)
class Item:
    """One changelog item (a bullet with its continuation lines, or a paragraph)."""

    text: str
    category: str  # breaking | deprecation | runtime | info
    candidates: tuple[Candidate, ...] = ()
    replacements: tuple[str, ...] = ()
    removes_deprecated: bool = False
    old_code: tuple[str, ...] = field(default=())  # removed lines of a diff example


@dataclass
class _Raw:
    text: str
    context: str  # the nearest sub-heading (or "remove:"-style parent) text
    parent: str  # the enclosing bullet's own text
    code: list[str] = field(default_factory=list)


_BULLET = re.compile(r"^(\s*)(?:[-*+•]|\d{1,3}[.)])\s+(.*)$")
_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_UNDERLINE = re.compile(r"^\s*([=\-~^*+#\"'`.:_])\1{2,}\s*$")
_BOLD_LINE = re.compile(r"^\s*\*\*([^*]+)\*\*:?\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def split_items(body: str) -> list[_Raw]:
    """Split a section body into items, remembering the sub-heading each sits under."""
    lines = body.splitlines()
    items: list[_Raw] = []
    context = ""
    stack: list[tuple[int, _Raw]] = []  # open bullets: (indent, item)
    para: _Raw | None = None
    in_code = False
    blank = True
    code_target: _Raw | None = None
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        nxt = lines[i + 1].rstrip() if i + 1 < len(lines) else ""
        if _FENCE.match(line):
            in_code = not in_code
            if in_code:
                code_target = stack[-1][1] if stack else para or (items[-1] if items else None)
            i += 1
            continue
        if in_code:
            if code_target is not None:
                code_target.code.append(line)
            i += 1
            continue
        if not line.strip():
            para, blank = None, True
            i += 1
            continue
        heading = None
        m = _MD_HEADING.match(line)
        if m:
            heading = m.group(1)
        elif nxt and _UNDERLINE.match(nxt) and not _BULLET.match(line) and len(line.strip()) > 1:
            heading = line.strip()
            i += 1
        elif _BOLD_LINE.match(line):
            heading = _BOLD_LINE.match(line).group(1)  # type: ignore[union-attr]
        elif (
            blank
            and not _BULLET.match(line)
            and line.strip().endswith(":")
            and len(line.strip()) <= 60
            and not line.startswith((" ", "\t"))
        ):
            heading = line.strip()  # "Selected fixes:"-style labels
        if heading is not None:
            context, stack, para, blank = heading, [], None, True
            i += 1
            continue
        b = _BULLET.match(line)
        if b:
            indent = len(b.group(1).expandtabs())
            text = b.group(2).strip()
            while stack and stack[-1][0] >= indent:
                stack.pop()
            parent = stack[-1][1] if stack else None
            ctx = context
            parent_text = ""
            if parent is not None:
                parent_text = parent.text
                if re.fullmatch(r"[\w ]{1,30}:", parent.text.strip()):
                    # express-style "* remove:" lists: the label is the context of its children
                    ctx = f"{parent.context} / {parent.text.strip()}".strip(" /")
                else:
                    ctx = parent.context
            item = _Raw(text=text, context=ctx, parent=parent_text)
            items.append(item)
            stack.append((indent, item))
            para, blank = None, False
            i += 1
            continue
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if stack and (indent > stack[-1][0] or not blank):
            # continuation of the open bullet (indented, or lazily right after it)
            stack[-1][1].text += " " + stripped
        elif para is not None:
            para.text += " " + stripped
        else:
            para = _Raw(text=stripped, context=context, parent="")
            items.append(para)
            stack = []
        blank = False
        i += 1
    return items


_RST_LINK = re.compile(r"`([^`<]*?)\s*<[^>]*>`__?")


def _clean(text: str) -> str:
    text = _IGNORED_ROLE.sub("", text)
    text = _RST_LINK.sub(lambda m: m.group(1), text)
    text = _MD_LINK.sub(lambda m: m.group(1), text)
    text = _URL.sub("", text)
    text = re.sub(r"\(\s*\[?#\d+\]?\s*\)|\(#\d+(,\s*#\d+)*\)", "", text)
    text = re.sub(r"\s+", " ", text)
    return text.strip()


def _is_gone_no_longer(sentence: str) -> bool | None:
    """True when a 'no longer X' says something is gone; False when behaviour changed; None: absent."""
    found = None
    for m in _NO_LONGER.finditer(sentence):
        verb = m.group(1).lower()
        nxt = (m.group(2) or "").lower()
        if verb == "be" and nxt in ("used", "loaded", "imported", "required", "called", "passed",
                                    "accessed", "set", "given", "found", "needed", "supported"):  # fmt: skip
            return True
        if verb in _GONE_VERBS and verb != "be":
            return True
        found = False
    return found


def _sentence_kind(sentence: str) -> str:
    """removal | future | deprecation | behaviour | other, for one sentence."""
    if _FUTURE_REMOVAL.search(sentence) and not re.search(
        r"\b(was|were|has been|have been)\s+removed\b", sentence, re.I
    ):
        return "future"
    gone = _is_gone_no_longer(sentence)
    if _REMOVAL_PHRASE.search(sentence) or gone is True:
        return "removal"
    if _DEPRECATION_CTX.search(sentence):
        return "deprecation"
    if gone is False:
        return "behaviour"
    return "other"


def categorize(text: str, context: str, parent: str) -> str:
    """breaking | deprecation | runtime | info for one item."""
    t = text
    ctx = f"{context} {parent}"
    explicit = bool(_EXPLICIT_BREAKING.search(t))
    kinds = {_sentence_kind(s) for s in _sentences(t)}
    words = bool(_BREAKING_WORDS.search(t))
    in_break_ctx = bool(_BREAKING_CTX.search(ctx)) and not _DEPRECATION_CTX.search(context)
    if re.search(r"\bremov", ctx, re.I) and _DEPRECATION_CTX.search(ctx):
        in_break_ctx = True  # "Removal of prior version deprecations", "deprecated code is removed"
    if not explicit and "removal" not in kinds and kinds & {"future", "deprecation"}:
        return "deprecation"
    if _DEPRECATION_CTX.search(context) and not explicit and "removal" not in kinds:
        return "deprecation"
    if not (explicit or words or in_break_ctx):
        return "info"
    if (
        _FIX_CTX.search(context)
        and not explicit
        and not re.search(r"\b(removed|deleted|renamed|drop(ped)? support)\b", t, re.I)
    ):
        return "info"
    spans = [s for s in _spans(t) if not re.fullmatch(r"[\d.x*]+", s)]
    if (
        _RUNTIME.search(t)
        and not spans
        and re.search(r"\d|support|required|minimum|older|newer|later", t, re.I)
    ):
        return "runtime"
    return "breaking"


def _role_target(target: str) -> str:
    """A Sphinx role's target as code names it: ``_engine.Engine.execute`` → ``Engine.execute``."""
    target = target.strip().lstrip("~.")
    target = re.sub(r"^(_\w+\.)+", "", target)  # private link prefixes some projects use
    return re.sub(r"\s*<.*>$", "", target)  # :meth:`title <target>` → title


def _spans(text: str) -> list[str]:
    found = [_role_target(m.group(1)) for m in _RST_ROLE.finditer(text)]
    stripped = _RST_ROLE.sub(" ", text)
    found += [m.group(2).strip() for m in _CODE_SPAN.finditer(stripped)]
    return [f for f in found if f]


@dataclass
class _Span:
    text: str
    start: int
    end: int


def _span_positions(sentence: str) -> list[_Span]:
    spans = [_Span(_role_target(m.group(1)), m.start(), m.end()) for m in _RST_ROLE.finditer(sentence)]
    masked = _RST_ROLE.sub(lambda m: " " * len(m.group(0)), sentence)
    spans += [_Span(m.group(2).strip(), m.start(), m.end()) for m in _CODE_SPAN.finditer(masked)]
    if not spans:
        for m in _PLAIN_SYMBOL.finditer(masked):
            tok = m.group(1)
            if _FILE_LIKE.search(tok.rstrip("()")) or re.search(r"\.(com|org|io|net|dev)\b", tok):
                continue
            spans.append(_Span(tok, m.start(), m.end()))
    spans.sort(key=lambda s: s.start)
    return spans


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`:*\"'(])")

_NEW_BEFORE = re.compile(
    r"(\buse|\busing|\bcall(ing)?|\bpass(ing)?|\bby|\bto|\bbecomes?|\bcalled|\bnamed|\bprefer|"
    r"\bfavou?r\s+of|\breplaced\s+(by|with)|\binstead:?|\bexported\s+as|\bavailable\s+as|"
    r"\bthe\s+named(\s+export)?|\bread\s+the\s+value\s+from|\bimport\s+(them|it)\s+from|"
    r"\bmigrate\s+to|\bswitch\s+to|\bmove\s+to|\bconvert\b.*\bto)\s*[:,]?\s*(the\s+|a\s+|an\s+|new\s+)*$",
    re.I,
)
_CONTEXT_BEFORE = re.compile(
    r"(\bwith|\bvia|\bin|\binto|\bfrom|\bof|\bon|\bfor|\bthan|\brather\s+than|\bunless|\bset|"
    r"\bwhen|\blike|\bso\s+that|\bso|\bwhich\s+means|\bmeaning|\bwhere|\bgiven\s+to|\bthrough|"
    r"\bcalls?\s+to|\binside|\bwithin|\bunder|\bafter|\bbefore|\bif)\s*[:,]?\s*"
    r"(the\s+|a\s+|an\s+|its\s+|their\s+|this\s+|that\s+)*$",
    re.I,
)
_OLD_BEFORE = re.compile(r"\binstead\s+of\s*(the\s+)?$|\bsuch\s+as\s*$|\be\.g\.\s*$", re.I)
_NEW_AFTER = re.compile(
    r"^\s*(is|are)\s+(used|recommended|preferred)\s+instead|^\s*instead\b(?!\s+of)", re.I
)
_ROLE_WORD = r"(parameters?|arguments?(?!\s+order)|args?|options?|keywords?|kwargs?|flags?|keyword\s+arguments?)"
_PARAM_AFTER = re.compile(rf"^\s*(/\s*\w+\s+)?{_ROLE_WORD}\b", re.I)
_PARAM_BEFORE = re.compile(rf"\b({_ROLE_WORD}|accepts?|takes?|supports?)\s*$", re.I)
_OWNER_AFTER = re.compile(rf"^\s*(/\s*\w+\s+)?{_ROLE_WORD}\s+(of|to|for|in)\s*(the\s+)?$", re.I)
_OWNER_VERB_AFTER = re.compile(
    rf"^\s*(no\s+longer\s+|now\s+|only\s+)?(accepts?|takes?|supports?)\b|^\s*{_ROLE_WORD}\s*$", re.I
)
_CLAUSE_AFTER = re.compile(r"^\s*(is|are|was|were|has|have|can|could|no\s+longer|now|will)\b", re.I)
_KIND_AFTER = re.compile(
    r"^\s*(attributes?|property|properties|methods?|functions?|class(es)?|constants?|modules?)\b",
    re.I,
)
_CONJUNCTION = re.compile(r"^\s*(,|/|&|\+)?\s*(and|or|nor)?\s*(,)?\s*(the\s+)?$", re.I)


def _roles(sentence: str, spans: list[_Span]) -> list[tuple[str, str]]:
    """(role, owner) per span: role is old | new | param | context."""
    out: list[tuple[str, str]] = []
    for i, s in enumerate(spans):
        prev_end = spans[i - 1].end if i > 0 else 0
        before = sentence[max(prev_end, s.start - 60) : s.start]
        after = (
            sentence[s.end : spans[i + 1].start]
            if i + 1 < len(spans)
            else sentence[s.end : s.end + 40]
        )
        role, owner = "old", ""
        if _OLD_BEFORE.search(before):
            role = "old"
        elif _NEW_AFTER.search(after):
            role = "new"
        elif (
            i > 0
            and _CONJUNCTION.match(sentence[prev_end : s.start])
            and not _CLAUSE_AFTER.match(after)
        ):
            role, owner = out[-1]  # "`a`, `b` and `c` ..." share a role
            if role == "param" and ("." in s.text or _KIND_AFTER.match(after)):
                role, owner = "old", ""
        elif _NEW_BEFORE.search(before):
            role = "new"
        elif _CONTEXT_BEFORE.search(before) and not _PARAM_BEFORE.search(before):
            role = "context"
        elif i + 1 < len(spans) and _OWNER_VERB_AFTER.search(after):
            role = "context"  # "`f` no longer accepts `a`", "the `Retry` keyword `x`"
        elif _PARAM_AFTER.search(after) or _PARAM_BEFORE.search(before):
            role = "param"
            owner = _owner_of_param(sentence, spans, i)
        elif s.text.endswith("=") and _IDENT.match(s.text[:-1]):
            role = "param"
        elif re.search(r"\(\s*which\s+was\s*$", before, re.I):
            role = "context"
        out.append((role, owner))
    return out


def _owner_of_param(sentence: str, spans: list[_Span], i: int) -> str:
    """For a parameter span, the callable it belongs to (``the `a` argument of `f` ``)."""
    after = sentence[spans[i].end : spans[i + 1].start] if i + 1 < len(spans) else ""
    if i + 1 < len(spans) and _OWNER_AFTER.search(after):
        return _callee(spans[i + 1].text)
    if i > 0:
        between = sentence[spans[i - 1].end : spans[i].start]
        if _OWNER_VERB_AFTER.search(between):
            return _callee(spans[i - 1].text)
    return ""


def _callee(text: str) -> str:
    m = _CALL.match(text.strip())
    name = m.group(1) if m else text.strip()
    return name.lstrip("@")


def _generic(symbol: str) -> bool:
    leaf = symbol.rsplit(".", 1)[-1].lstrip("@")
    if "." in symbol:
        return symbol.split(".", 1)[0] in JS_GLOBALS
    low = leaf.lower()
    return low in GENERIC_NAMES or low in _TECH_WORDS or leaf in BUILTINS or len(leaf) < 3


def _searchable_name(text: str) -> str | None:
    t = text.strip().lstrip("@").rstrip(";")
    if t.endswith("()"):
        t = t[:-2]
    if t.startswith("."):
        t = t[1:]
    t = t.replace("#", ".").replace("::", ".")  # AxiosError#status, Class::method
    if _IDENT.match(t) or _DOTTED.match(t):
        return t
    return None


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
    r"default\s+export\b.*\b(removed|gone|no\s+longer|any\s*more|dropped)|"
    r"\bno\s+default\s+export\b|there\s+is\s+no\s+default\s+export",
    re.I,
)
_REQUIRED_ARG = [
    re.compile(
        r"(now\s+)?(always\s+)?requires?\s+(the|a|an)\s+`*(?P<arg>[A-Za-z_]\w*)`*\s+"
        r"(argument|parameter|param|arg|keyword|option)",
        re.I,
    ),
    re.compile(
        r"`*(?P<arg>[A-Za-z_]\w*)`*\s+(argument|parameter|param|option)\s+is\s+(now\s+)?(required|mandatory)",
        re.I,
    ),
    re.compile(
        r"must\s+(now\s+)?(always\s+)?(pass|be\s+(called|given|passed)\s+with)\s+(the\s+|a\s+|an\s+)?"
        r"`*(?P<arg>[A-Za-z_]\w*)`*",
        re.I,
    ),
    re.compile(r"now\s+(needs|requires|takes)\s+a\s+(?P<arg>callback)\b", re.I),
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
_LITERAL_GONE = re.compile(
    r"no\s+longer\s+(understood|accepted|supported|recognized|recognised|allowed|valid)", re.I
)
_SUBMODULES = re.compile(r"\b(sub)?modules?\b|\bsubpackages?\b", re.I)
_CONFIGISH = re.compile(
    r"\bconfig(uration)?\b|\bsettings?\b|\benvironment\s+variables?\b|\benv\s+vars?\b|\bkeys?\b",
    re.I,
)


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text) if s.strip()]


def extract_candidates(
    text: str,
    *,
    context: str = "",
    package: str = "",
    import_names: tuple[str, ...] = (),
    old_code: tuple[str, ...] = (),
) -> tuple[list[Candidate], list[str]]:
    """Candidates to search for, and replacement names mentioned, for one breaking item."""
    cands: list[Candidate] = []
    news: list[str] = []
    own_names = {package.lower(), *(n.lower() for n in import_names)}
    removal_ctx = bool(_REMOVAL_CTX.search(context))

    if _ESM_ONLY.search(text):
        cands.append(Candidate(package, "module"))
    if _DEFAULT_EXPORT_GONE.search(text):
        cands.append(Candidate(package, "default_import"))

    submodules = bool(_SUBMODULES.search(text))
    for sentence in _sentences(text):
        spans = _span_positions(sentence)
        gone = _is_gone_no_longer(sentence)
        removal = bool(_REMOVAL_PHRASE.search(sentence)) or gone is True
        behaviour_only = gone is False and not _REMOVAL_PHRASE.search(sentence)
        names_allowed = (removal or removal_ctx) and not behaviour_only
        if _FUTURE_REMOVAL.search(sentence) and not re.search(
            r"\b(was|were|has been|have been|is|are)\s+removed\b", sentence, re.I
        ):
            names_allowed = False

        # patterns that work on the call shape rather than a removed name
        for pattern in _REQUIRED_ARG:
            m = pattern.search(sentence)
            if m:
                arg = m.group("arg")
                func = _nearest_callable(spans, m.start())
                if func and arg:
                    cands.append(Candidate(func, "required_arg", arg=arg))
                    names_allowed = False
                break
        if _WITHOUT_ARG.search(sentence):
            func = _nearest_callable(spans, len(sentence))
            if func:
                cands.append(Candidate(func, "required_arg", arg="*"))
                names_allowed = False
        if _POSITIONAL.search(sentence):
            exc = re.search(r"except\s+(.*?)(?:\b(?:are|is|can|must)\b|[;.]|$)", sentence, re.I)
            allowed = len(_spans(exc.group(1))) if exc else 1
            excluded = set(_spans(exc.group(1))) if exc else set()
            for s in spans:
                name = _searchable_name(s.text)
                if name and s.text not in excluded and not _generic(name):
                    cands.append(Candidate(name, "positional", max_positional=max(1, allowed)))
            continue
        if _ASYNC.search(sentence):
            for s in spans:
                name = _searchable_name(s.text)
                if name:
                    cands.append(Candidate(name, "async"))
            continue
        if _LITERAL_GONE.search(sentence):
            literals = [s for s in spans if _QUOTED.match(s.text)]
            funcs = [s for s in spans if _CALL.match(s.text) or _DOTTED.match(s.text)]
            if literals and funcs:
                for f in funcs:
                    for lit in literals:
                        cands.append(
                            Candidate(
                                _callee(f.text), "literal_arg", arg=_QUOTED.match(lit.text).group(2)
                            )  # type: ignore[union-attr]
                        )
                continue

        roles = _roles(sentence, spans)
        for i, s in enumerate(spans):
            role, owner = roles[i]
            raw = s.text.strip()
            if role == "new":
                news.append(raw)
                continue
            if role == "context":
                continue
            if raw.startswith("[") or raw.lower() in own_names:
                continue  # scope tags like [jest-cli], the package itself
            m_req = _REQUIRE.match(raw)
            if m_req and names_allowed:
                spec = m_req.group(1)
                if "/" in spec.lstrip("@").split("/", 1)[-1] or (
                    not spec.startswith("@") and "/" in spec
                ):
                    cands.append(Candidate(spec, "subpath"))
                continue
            m_from = _IMPORT_FROM.match(raw) or _IMPORT.match(raw)
            if m_from:
                if names_allowed and m_from.group(1).lower() not in own_names:
                    cands.append(Candidate(m_from.group(1), "module_path"))
                continue
            if _JS_IMPORT.match(raw):
                continue
            if _SUBPATH.match(raw) and not _FILE_LIKE.search(raw):
                if names_allowed:
                    cands.append(Candidate(raw, "subpath"))
                continue
            if _QUOTED.match(raw):
                continue
            kw = _KWARG.match(raw)
            if kw and role != "param":
                continue  # `ttl=0`, `format="mixed"`: an example value, not an API name
            call = _CALL.match(raw)
            if role == "param":
                name = raw[:-1] if raw.endswith("=") else (_searchable_name(raw) or "")
                if name and _IDENT.match(name.split(".")[-1]) and (removal or removal_ctx):
                    cands.append(Candidate(name.split(".")[-1], "parameter", of=owner))
                continue
            if call and call.group(2).strip() and names_allowed:
                params = call.group(2).strip()
                if _SIGNATURE_CUE.search(sentence) or _reuses_callee(
                    sentence, call.group(1), i, spans
                ):
                    cands.append(Candidate(f"{call.group(1).lstrip('@')}({params})", "signature"))
                    continue
            if not names_allowed:
                continue
            name = _searchable_name(call.group(1) if call else raw)
            if not name:
                continue
            if _UPPER.match(name) and _CONFIGISH.search(sentence):
                cands.append(Candidate(name, "config_key"))
                continue
            if submodules and _IDENT.match(name) and name.islower() and import_names:
                cands.append(Candidate(f"{import_names[0]}.{name}", "module_path"))
                continue
            if _generic(name):
                continue
            cands.append(Candidate(name, "name"))

    for line in old_code:
        m = re.search(r"""require\(\s*['"]([^'"]+/[^'"]+)['"]\s*\)""", line)
        if m:
            cands.append(Candidate(m.group(1), "subpath"))
    seen: set[tuple[str, str, str, str]] = set()
    out = []
    for c in cands:
        k = (c.symbol, c.kind, c.of, c.arg)
        if k not in seen:
            seen.add(k)
            out.append(c)
    return out, news


def _nearest_callable(spans: list[_Span], pos: int) -> str:
    best = ""
    for s in spans:
        if s.start > pos:
            break
        raw = s.text.strip()
        if _CALL.match(raw) or _DOTTED.match(raw):
            best = _callee(raw)
    if not best:
        for s in spans:
            if _CALL.match(s.text.strip()) or _DOTTED.match(s.text.strip()):
                return _callee(s.text)
    return best


def _reuses_callee(sentence: str, callee: str, i: int, spans: list[_Span]) -> bool:
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
        text = _clean(raw.text)
        if not text:
            continue
        category = categorize(text, raw.context, _clean(raw.parent))
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
        out.append(
            Item(
                text=text,
                category=category,
                candidates=tuple(cands),
                replacements=tuple(dict.fromkeys(news)),
                removes_deprecated=removes_deprecated,
                old_code=old_code,
            )
        )
    return out


def deprecated_names(
    body: str, *, package: str = "", import_names: tuple[str, ...] = ()
) -> list[Item]:
    """Deprecation notes of a section read as removals: what a 'removed deprecated code' release drops."""
    out = []
    for raw in split_items(body):
        text = _clean(raw.text)
        if not _DEPRECATION_CTX.search(text + " " + raw.context):
            continue
        cands, news = extract_candidates(
            re.sub(r"\b(is|are)\s+(now\s+)?deprecated\b", "is removed", text, flags=re.I),
            context="removed",
            package=package,
            import_names=import_names,
        )
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
