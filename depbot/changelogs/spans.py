"""The code spans of a changelog sentence, and the role each plays. Pure.

In "`Retry` keyword `method_whitelist` was removed; use `allowed_methods`" the spans are
`Retry` (its owner), `method_whitelist` (the removed parameter) and `allowed_methods`
(the replacement). ``roles`` reads the words around each span to tell them apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from depbot.changelogs.items import CODE_SPAN, RST_ROLE, role_target

# UPPER_SNAKE: an environment variable or a setting (``DEBUG_FD``), a constant
UPPER_SNAKE = r"[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]"
_PLAIN_SYMBOL = re.compile(
    r"(?<![\w./-])("
    r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?"  # dotted.name or dotted.call()
    r"|[A-Za-z_]\w*\(\)"  # call()
    r"|[a-z]+_[a-z0-9_]+"  # snake_case
    r"|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+"  # CamelCase
    r"|[a-z]+(?:[A-Z][a-z0-9]+)+"  # lowerCamelCase ("remove mapReduce collection helper")
    rf"|{UPPER_SNAKE}"  # an environment variable, a setting
    r")(?![\w/-])"
)
FILE_LIKE = re.compile(
    r"\.(py|pyi|js|mjs|cjs|ts|tsx|jsx|json|md|rst|txt|toml|cfg|ini|ya?ml|lock|html|css|sh|exe)$",
    re.I,
)
_PROSE = re.compile(
    r"^(GitHub|GitLab|BitBucket|JavaScript|TypeScript|CoffeeScript|CamelCase|PascalCase|OpenSSL|"
    r"LibreSSL|PostgreSQL|MySQL|MariaDB|SQLite|MongoDB|NodeJS|WebAssembly|WebKit|YouTube|"
    r"WordPress|DevTools|VSCode|PyCharm|IntelliJ|MacOS|CPython|PyPy|RedHat|FreeBSD|OpenBSD|"
    r"NetBSD|DockerHub|ReadTheDocs|JetBrains|PyPI|iPhone|iPad|iCloud|iTunes|jQuery|eBay)$",
)
IDENT = re.compile(r"^[A-Za-z_$][\w$]*$")
DOTTED = re.compile(r"^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$")
CALL = re.compile(r"^(@?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\((.*)\)$", re.S)
KWARG = re.compile(r"^([A-Za-z_]\w*)\s*=\s*(.*)$")
QUOTED = re.compile(r"""^(['"])([^'"]{1,40})\1$""")
SUBPATH = re.compile(r"^(@[\w.-]+/)?[\w.-]+/[\w./-]+$")
REQUIRE = re.compile(r"""^require\(\s*['"]([^'"]+)['"]\s*\)$""")
IMPORT_FROM = re.compile(r"^from\s+([\w.]+)\s+import\s+(.+)$")
IMPORT = re.compile(r"^import\s+([\w.]+)(?:\s+as\s+\w+)?$")
JS_IMPORT = re.compile(r"""^import\s+.*\s+from\s+['"]([^'"]+)['"];?$""")
# `import 'pkg/setup'`, `require('pkg')` as a statement: a module loaded for its side effects
SIDE_IMPORT = re.compile(r"""^(?:import\s+|require\(\s*)['"]([^'"]+)['"]\s*\)?;?$""")
UPPER = re.compile(r"^[A-Z][A-Z0-9_]{2,}$")


@dataclass
class Span:
    text: str
    start: int
    end: int


def span_positions(sentence: str) -> list[Span]:
    spans = [Span(role_target(m.group(1)), m.start(), m.end()) for m in RST_ROLE.finditer(sentence)]
    masked = RST_ROLE.sub(lambda m: " " * len(m.group(0)), sentence)
    for m in CODE_SPAN.finditer(masked):  # `scales.[x/y]Axes`: `scales.xAxes`, `scales.yAxes`
        spans += [Span(t, m.start(), m.end()) for t in _alternatives(m.group(2).strip())]
    if not spans:
        spans = plain_spans(masked)
    for m in _MEMBER_REF.finditer(CODE_SPAN.sub(lambda m: " " * len(m.group(0)), masked)):
        spans.append(Span(f"{m.group(1)}.{m.group(2)}", m.start(), m.end()))
    spans.sort(key=lambda s: s.start)
    return spans


# "the default for Model#fetch": a member written the JSDoc way, outside code spans
_MEMBER_REF = re.compile(r"(?<![\w$#./-])([A-Z][\w$]*)#([A-Za-z_$][\w$]*)(?:\(\))?(?![\w$/-])")


# `[x/y]Axes`, `{get,set}Value`: one name per alternative, written as one span
_ALTERNATIVES = re.compile(r"\[(\w+(?:/\w+)+)\]|\{(\w+(?:,\s?\w+)+)\}")


def _alternatives(text: str) -> list[str]:
    """The names a span spells with alternatives (at most one group), else the span."""
    m = _ALTERNATIVES.search(text)
    if m is None or _ALTERNATIVES.search(text, m.end()):
        return [text]
    parts = re.split(r"[/,]\s?", m.group(1) or m.group(2))
    return [text[: m.start()] + p + text[m.end() :] for p in parts]


def plain_dotted(sentence: str) -> list[Span]:
    """The dotted names written outside code spans (``Removed the Form.create method,
    `form` is now …``): what a removal names when its code spans are all replacements."""
    blank = lambda m: " " * len(m.group(0))  # noqa: E731
    masked = CODE_SPAN.sub(blank, RST_ROLE.sub(blank, sentence))
    return [s for s in plain_spans(masked) if DOTTED.match(s.text)]


# "rename 'type' param to 'icon'": an identifier in quotes, where the notes use no code spans
_QUOTED_NAME = re.compile(r"""(?<![\w'"])(['"])([A-Za-z_$][\w$]{1,39})\1(?![\w'"])""")


def plain_spans(masked: str) -> list[Span]:
    """The code-like words of a sentence without code spans (dotted names, calls, quoted
    identifiers, …)."""
    spans = [Span(m.group(2), m.start(), m.end()) for m in _QUOTED_NAME.finditer(masked)]
    for m in _PLAIN_SYMBOL.finditer(masked):
        tok = m.group(1)
        if FILE_LIKE.search(tok.rstrip("()")) or re.search(r"\.(com|org|io|net|dev)\b", tok):
            continue
        if _PROSE.match(tok) or ("." in tok and min(len(p) for p in tok.split(".")) < 2):
            continue  # "e.g", "i.e", product names written in CamelCase
        if not any(s.start <= m.start() < s.end for s in spans):
            spans.append(Span(tok, m.start(), m.end()))
    spans.sort(key=lambda s: s.start)
    return spans


_NEW_BEFORE = re.compile(
    r"(\buse|\busing|\bcall(ing)?|\bpass(ing)?|\bby|\bto|\bbecomes?|\bcalled|\bnamed|\bprefer|"
    r"\bfavou?r\s+of|\breplaced\s+(by|with)|\binstead:?|\bexported\s+as|\bavailable\s+as|"
    r"\bthe\s+named(\s+export)?|\bread\s+the\s+value\s+from|\bimport\s+(them|it)\s+from|"
    r"\bmigrate\s+to|\bswitch\s+to|\bmove\s+to|\bconvert\b.*\bto|\bintroduc(?:es|ed|e|ing)\s+a\s+new)"
    r"\s*[:,]?\s*(the\s+|a\s+|an\s+|new\s+|just\s+|simply\s+)*$",
    re.I,
)
# "`embed('north')` is now `resize(…)`": the form that replaces it (a value is no name)
_IS_NOW_BEFORE = re.compile(r"^\s*(?:is|are)\s+now\s*$", re.I)
_LITERAL = re.compile(r"""^(?:-?\d[\w.]*|None|null|undefined|true|false|True|False|(['"]).*\1)$""")
_CONTEXT_BEFORE = re.compile(
    r"(\bwith|\bvia|\bin|\binto|\bfrom|\bof|\bon|\bfor|\bthan|\brather\s+than|\bunless|\bset|"
    r"\bwhen|\blike|\bso\s+that|\bso|\bwhich\s+means|\bmeaning|\bwhere|\bgiven\s+to|\bthrough|"
    r"\bcalls?\s+to|\binside|\bwithin|\bunder|\bafter|\bbefore|\bif)\s*[:,]?\s*"
    r"(the\s+|a\s+|an\s+|its\s+|their\s+|this\s+|that\s+|various\s+|several\s+|some\s+"
    r"|many\s+|other\s+|all\s+)*$",
    re.I,
)
_OLD_BEFORE = re.compile(
    r"\binstead\s+of\s*(the\s+)?$|\bsuch\s+as\s*$|\be\.g\.\s*$"
    r"|\b(removal|deletion|dropping|removing)\s+of\s*(the\s+)?$"  # "Removal of `x`": what goes
    # "Change any instance of `env.get(target, default)` to …": a migration's old form
    r"|\b(change|replace|rewrite|update|convert)\s+(any|every|all|each)\s+(instances?|uses?"
    r"|usages?|calls?|occurrences?)\s+of\s*$"
    # "Users who are using `import 'pkg'` should change to …", "if you use `x`, …"
    r"|\bwho\s+(are|were)\s+using\s*$|\bif\s+you\s+(are\s+|were\s+)?(use|used|using)\s*$",
    re.I,
)
# "Dropped support for passing the `x` option": what the code may no longer pass or use
_GONE_USE_BEFORE = re.compile(
    r"\b(?:support\s+for|no\s+longer(?:\s+supports?)?|stop(?:ped)?)\s+(?:passing|using|calling|"
    r"setting|providing)\s+(?:the\s+|a\s+|an\s+)?$",
    re.I,
)
# "Dropped support for `onLimitReached` method", "Removed support for `referencesKey`": the
# name after "support for" is what went (a runtime, "support for `Node 10`", is no name)
_SUPPORT_GONE_BEFORE = re.compile(
    r"\b(?:drop(?:s|ped)?|remov(?:e|es|ed)|delet(?:e|es|ed))\s+(?:the\s+)?(?:built-?in\s+)?"
    r"support\s+for\s+(?:the\s+)?$",
    re.I,
)
# language words a notes item puts in backticks ("support for `async` functions"): no API
_LANGUAGE_WORDS = frozenset(
    "async await class const function import export let new null this var yield lambda".split()
)
_NEW_AFTER = re.compile(
    r"^\s*(is|are)\s+(used|recommended|preferred)\s+instead|^\s*instead\b(?!\s+of)"
    # "removed the X method, `form` is now available in `Form.useForm`": what takes its place
    r"|^\s*(is|are)\s+now\s+(available|accessible|exposed|provided)\b",
    re.I,
)
_ROLE_WORD = r"(parameters?|params?|arguments?(?!\s+order)|args?|options?|keywords?|kwargs?|flags?|props?|keyword\s+arguments?)"
_PARAM_AFTER = re.compile(rf"^\s*(/\s*\w+\s+)?{_ROLE_WORD}\b", re.I)
_PARAM_BEFORE = re.compile(rf"\b({_ROLE_WORD}|accepts?|takes?|supports?)\s*$", re.I)
_OWNER_AFTER = re.compile(
    rf"^\s*(/\s*\w+\s+)?{_ROLE_WORD}\s+(of|to|for|in|from)\s*(the\s+)?$", re.I
)  # "`timeout` option of `connect`", "removed `classMethods` options from `define`"
# "`Knex.raw` support dropped": the noun, and the span is what went
_NOT_GONE = r"(?!\s+(?:(?:is|was|has\s+been|have\s+been)\s+)?(?:dropped|removed|deleted)\b)"
_OWNER_VERB_AFTER = re.compile(
    rf"^\s*(no\s+longer\s+|now\s+|only\s+)?(accepts?|takes?|supports?)\b{_NOT_GONE}"
    rf"|^\s*{_ROLE_WORD}\s*$",
    re.I,
)
_CLAUSE_AFTER = re.compile(r"^\s*(is|are|was|were|has|have|can|could|no\s+longer|now|will)\b", re.I)
_KIND_AFTER = re.compile(
    r"^\s*(attributes?|property|properties|methods?|functions?|class(es)?|constants?|modules?)\b",
    re.I,
)
_OTHER_VERB_AFTER = re.compile(
    r"^\s*(now\s+|still\s+|also\s+)?(renders|returns|uses|calls|works|stays|keeps|remains|behaves|"
    r"runs|creates|reads|writes|expects|handles|wraps|emits|stays|is\s+still|are\s+still|still)\b",
    re.I,
)
_CONJUNCTION = re.compile(r"^\s*(,|/|&|\+)?\s*(and|or|nor)?\s*(,)?\s*(the\s+)?$", re.I)


def roles(sentence: str, spans: list[Span]) -> list[tuple[str, str]]:
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
        if _GONE_USE_BEFORE.search(before):
            if _PARAM_AFTER.search(after) and "." not in s.text:
                role, owner = "param", _owner_of_param(sentence, spans, i)
        elif _OLD_BEFORE.search(before):
            role = "old"
        elif (
            _SUPPORT_GONE_BEFORE.search(before)
            and (IDENT.match(s.text) or DOTTED.match(s.text))
            and s.text not in _LANGUAGE_WORDS
        ):
            role = "param" if _PARAM_AFTER.search(after) and "." not in s.text else "old"
            owner = _owner_of_param(sentence, spans, i) if role == "param" else ""
        elif _NEW_AFTER.search(after):
            role = "new"
        elif (
            i > 0
            and _CONJUNCTION.match(sentence[prev_end : s.start])
            and not _CLAUSE_AFTER.match(after)
        ):
            role, owner = out[-1]  # "`a`, `b` and `c` ..." share a role
            if role == "old" and _PARAM_AFTER.search(after) and "." not in s.text:
                role, owner = "param", _owner_of_param(sentence, spans, i)
            if role == "param" and ("." in s.text or _KIND_AFTER.match(after)):
                role, owner = "old", ""
        elif _NEW_BEFORE.search(before) or (
            _IS_NOW_BEFORE.match(before) and not _LITERAL.match(s.text)
        ):
            role = "new"
        elif _CONTEXT_BEFORE.search(before) and not _PARAM_BEFORE.search(before):
            role = "context"
        elif i + 1 < len(spans) and _OWNER_VERB_AFTER.search(after):
            role = "context"  # "`f` no longer accepts `a`", "the `Retry` keyword `x`"
        elif _PARAM_AFTER.search(after) or _PARAM_BEFORE.search(before):
            role = "param"
            owner = _owner_of_param(sentence, spans, i)
        elif s.text.endswith("=") and IDENT.match(s.text[:-1]):
            role = "param"
        elif re.search(r"\(\s*which\s+was\s*$", before, re.I) or _OTHER_VERB_AFTER.match(after):
            role = "context"  # "(which was `x`)", "`<Route>` renders the ...": not what is removed
        out.append((role, owner))
    # "the `x` option to the `Server` constructor": the owner named after a parameter is
    # where it goes, not a replacement
    for i in range(1, len(spans)):
        if out[i - 1][0] == "param" and out[i - 1][1] and out[i - 1][1] == callee(spans[i].text):
            out[i] = ("context", "")
    _owned_by_component(sentence, spans, out)
    # "the `a`, `b` and `c` options were removed": the role word after the last of a list
    # names them all
    for i in range(len(spans) - 2, -1, -1):
        between = sentence[spans[i].end : spans[i + 1].start]
        if out[i + 1][0] == "param" and out[i][0] == "old" and _CONJUNCTION.match(between):
            if "." not in spans[i].text and not _KIND_AFTER.match(between):
                out[i] = out[i + 1]
    return out


# "Remove DatePicker legacy className": a component (or class) named right before a lower-case
# name is its owner, with at most qualifiers between; other words between ("legacy cell
# className") make the name something inside it, which no search of the owner can tell
_QUALIFIERS = frozenset(
    "legacy deprecated old obsolete unused redundant internal undocumented default".split()
)
_PASCAL = re.compile(r"^[A-Z][a-z]\w*$")
_LOWER_IDENT = re.compile(r"^[a-z_$][\w$]*[A-Z][\w$]*$|^[a-z_$][\w$]*$")


def _owned_by_component(sentence: str, spans: list[Span], out: list[tuple[str, str]]) -> None:
    """``Owner [qualifiers] name``: the name is a parameter (a prop) of the owner, and the
    owner (a span, or a capitalized word that does not start the sentence) is context; with
    other words between, both are context."""
    for i, b in enumerate(spans):
        if out[i][0] != "old" or not _LOWER_IDENT.match(b.text):
            continue
        a = spans[i - 1] if i > 0 else None
        if a is not None and out[i - 1][0] == "old" and _PASCAL.match(a.text):
            owner, words = a.text, sentence[a.end : b.start].replace("`", " ").split()
        elif CODE_SPAN.search(sentence):
            continue  # notes that mark code would have marked an owner that is code
        else:
            m = _PLAIN_OWNER.search(sentence[a.end if a else 0 : b.start])
            if m is None:
                continue
            owner, words = m.group(1), m.group(2).split()
        if len(words) > 3 or not all(w.isalpha() and w.islower() for w in words):
            continue
        if any(w in _NOT_QUALIFYING for w in words):
            continue
        if a is not None and owner == a.text:
            out[i - 1] = ("context", "")
        out[i] = ("param", owner) if all(w in _QUALIFIERS for w in words) else ("context", "")


# "Remove Tooltip legacy ": a capitalized word after another word, then lower-case words
_PLAIN_OWNER = re.compile(r"(?<=[a-z] )([A-Z][a-z]\w*)\s+((?:[a-z]+\s+){0,3})`?$")
_NOT_QUALIFYING = frozenset("and or nor to with by in from of for the a an".split())


def _owner_of_param(sentence: str, spans: list[Span], i: int) -> str:
    """For a parameter span, the callable it belongs to (``the `a` argument of `f` ``)."""
    after = sentence[spans[i].end : spans[i + 1].start] if i + 1 < len(spans) else ""
    if i + 1 < len(spans) and _OWNER_AFTER.search(after):
        return callee(spans[i + 1].text)
    if i > 0:
        between = sentence[spans[i - 1].end : spans[i].start]
        if _OWNER_VERB_AFTER.search(between):
            return callee(spans[i - 1].text)
    return ""


_INNER_CALL = re.compile(r"\([^()]{0,80}\)(?=\.)")


def callee(text: str) -> str:
    """The callable a span names: ``f(x)`` → ``f``; ``Schema().load`` → ``Schema.load`` (a
    method of the object a call makes)."""
    text = _INNER_CALL.sub("", text.strip())
    m = CALL.match(text)
    name = m.group(1) if m else text
    return name.lstrip("@")
