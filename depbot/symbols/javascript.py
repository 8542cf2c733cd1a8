"""Facts about one JavaScript/TypeScript use site for symbol search. Pure, scanner-based.

Given a file's text and the position of a name, ``use_at`` tells whether it is a member
access (``res.send``) with its receiver chain, an object property (``{ timeout: 5 }``)
with the call it is passed to, or a plain name, plus the shape of the call when it is
called and whether the call is awaited. ``assignments`` tells what local names were
bound to (``const app = express()`` vs ``const items = []``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from depbot.symbols.python import CallShape

_IDENT_CHAR = re.compile(r"[\w$]")


@dataclass(frozen=True)
class JsUse:
    line: int
    col: int
    kind: str  # member | name | property
    leaf: str
    chain: tuple[str, ...]  # receiver chain + leaf; "()" marks a call result
    call: CallShape | None = None
    awaited: bool = False
    func_chain: tuple[str, ...] = ()  # property: the callee the object is passed to
    keys: tuple[str, ...] = ()  # property: keys of the enclosing objects, innermost first

    @property
    def root(self) -> str:
        return self.chain[0] if self.chain else ""


def offsets(text: str) -> list[int]:
    """Start offset of every line (index 0 = line 1)."""
    out = [0]
    for m in re.finditer(r"\n", text):
        out.append(m.end())
    return out


def skip_string_back(text: str, i: int) -> int:
    """``text[i]`` closes a string; return the index of its opening quote."""
    q = text[i]
    j = i - 1
    while j >= 0:
        if text[j] == q and (j == 0 or text[j - 1] != "\\"):
            return j
        j -= 1
    return 0


def _match_back(text: str, i: int, open_ch: str, close_ch: str) -> int:
    """``text[i]`` is ``close_ch``; return the index of its matching ``open_ch`` (or -1)."""
    depth = 0
    j = i
    while j >= 0:
        c = text[j]
        if c in "'\"`":
            j = skip_string_back(text, j) - 1
            continue
        if c == close_ch:
            depth += 1
        elif c == open_ch:
            depth -= 1
            if depth == 0:
                return j
        j -= 1
    return -1


def _receiver(text: str, start: int) -> tuple[tuple[str, ...], int]:
    """The member chain before ``text[start]`` (where the leaf begins) and where it starts."""
    parts: list[str] = []
    i = start - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    if i < 0 or text[i] != ".":
        return (), start
    i -= 1
    if i >= 0 and text[i] == "?":
        i -= 1
    chain_start = start
    while i >= 0:
        while i >= 0 and text[i] in " \t\n":
            i -= 1
        if i < 0:
            break
        c = text[i]
        if c == ")":
            j = _match_back(text, i, "(", ")")
            if j < 0:
                break
            parts.append("()")
            i = j - 1
            continue
        if c == "]":
            j = _match_back(text, i, "[", "]")
            if j < 0:
                break
            parts.append("[]")
            i = j - 1
            continue
        if _IDENT_CHAR.match(c):
            j = i
            while j >= 0 and _IDENT_CHAR.match(text[j]):
                j -= 1
            parts.append(text[j + 1 : i + 1])
            chain_start = j + 1
            i = j
            k = i
            while k >= 0 and text[k] in " \t\n":
                k -= 1
            if k >= 0 and text[k] == "." and not (k > 0 and text[k - 1] == "."):
                i = k - 1
                if i >= 0 and text[i] == "?":
                    i -= 1
                continue
            break
        break
    return tuple(reversed(parts)), chain_start


def _scan_args(text: str, open_paren: int) -> tuple[list[str], int]:
    """Top-level argument texts of the call whose ``(`` is at ``open_paren``; and the close index."""
    args: list[str] = []
    depth = 0
    cur_start = open_paren + 1
    i = open_paren
    n = len(text)
    while i < n:
        c = text[i]
        if c in "'\"`":
            q = c
            i += 1
            while i < n and text[i] != q:
                i += 2 if text[i] == "\\" else 1
        elif c == "/" and i + 1 < n and text[i + 1] == "/":
            while i < n and text[i] != "\n":
                i += 1
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 1
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                last = text[cur_start:i].strip()
                if last:
                    args.append(last)
                return args, i
        elif c == "," and depth == 1:
            args.append(text[cur_start:i].strip())
            cur_start = i + 1
        i += 1
    return args, n


_TS_CAST = re.compile(r"(?:\s+as\s+[\w$.<>\[\]| ]+|!)$")  # `callback as any`, `cb!`
_TYPED_ARROW = re.compile(
    r"^(?:async\s*)?\(?[\w$,\s{}\[\]=:<>|?.]*\)?\s*(?::\s*[\w$<>\[\]|. ]+)?\s*=>"
)


def arg_kind(arg: str) -> str:
    a = _TS_CAST.sub("", arg.strip())
    if re.fullmatch(r"-?\d[\d_.eExX]*n?", a):
        return "number"
    if a[:1] in "'\"`":  # a template literal, interpolated or not, makes a string
        return "string"
    if a.startswith(("function", "async")) or _TYPED_ARROW.match(a):  # `(err: Error) =>` too
        return "function"
    if a.startswith("{"):
        return "object"
    if a.startswith("["):
        return "array"
    if re.fullmatch(r"[\w$.]+", a):
        return "name"
    return "other"


def call_shape(args: list[str]) -> CallShape:
    literals = tuple(
        a.strip()[1:-1] for a in args if arg_kind(a) == "string" and "${" not in a
    )  # the value of an interpolated template is not known
    return CallShape(
        positional=len(args),
        keywords=(),
        star=any(a.startswith("...") for a in args),
        arg_kinds=tuple(arg_kind(a) for a in args),
        literals=literals,
        objects=tuple(object_keys(a) for a in args),
        object_strings=tuple(object_strings(a) for a in args),
        last_arg=_TS_CAST.sub("", args[-1].strip())[:60] if args else "",
    )


_LEADING_COMMENTS = re.compile(r"^(?:\s*(?://[^\n]*(?:\n|$)|/\*.*?\*/))*\s*", re.S)
_KEY = re.compile(r"""^(?:async\s+|get\s+|set\s+)?\*?\s*(?:(['"])(.+?)\1|([\w$]+))\s*(?=[:(,]|$)""")


def literal_parts(text: str, opener: int) -> list[tuple[str, int]]:
    """(text, offset) of each top-level part of the call or literal whose bracket is at
    ``opener`` (leading comments left out)."""
    out = []
    cursor = opener + 1
    for part in _scan_args(text, opener)[0]:
        at = text.find(part, cursor)
        if at < 0:
            break
        cursor = at + len(part)
        body = _LEADING_COMMENTS.sub("", part)
        if body:
            out.append((body, at + len(part) - len(body)))
    return out


def key_of(body: str) -> tuple[str, str]:
    """The key of one part of an object literal ("..." for a spread or a computed key), and
    the text after it."""
    found = _KEY.match(body)
    if not found or body.startswith("..."):
        return "...", ""
    return found.group(2) or found.group(3), body[found.end() :].lstrip()


def keys_at(text: str, brace: int) -> tuple[tuple[str, int], ...] | None:
    """(key, its offset) for each top-level key of the object literal whose ``{`` is at
    ``brace`` (``...`` for a spread or a computed key); None when none opens there."""
    if not 0 <= brace < len(text) or text[brace] != "{":
        return None
    return tuple((key_of(body)[0], at) for body, at in literal_parts(text, brace))


def key_value(text: str, at: int) -> str:
    """The value the object literal around offset ``at`` gives the key written there
    (``{ a: 1, waitMs: 500 // note\n}`` → ``500``); "" for a shorthand key or a name outside
    an object literal."""
    brace = unclosed_before(text, at, "{")
    for body, offset in literal_parts(text, brace) if brace >= 0 else []:
        if offset <= at < offset + len(body):
            rest = key_of(body)[1]
            return without_line_comments(rest[1:]).strip() if rest.startswith(":") else ""
    return ""


def _object_parts(arg: str) -> list[tuple[str, str]] | None:
    """(key, the text after it) for each top-level part of an object literal argument, the
    key "..." for a spread or a computed key; None when the argument is not an object literal."""
    text = arg.strip()
    if not text.startswith("{"):
        return None
    return [key_of(body) for body, _ in literal_parts(text, 0)]


def object_strings(arg: str) -> tuple[tuple[str, str], ...] | None:
    """(key, value) for each top-level key of an object literal argument whose value is a
    string literal (``{ mode: 'x', n: 1 }`` → (mode, x)); None when not an object literal."""
    parts = _object_parts(arg)
    if parts is None:
        return None
    return tuple(
        (key, rest[1:].strip()[1:-1])
        for key, rest in parts
        if key != "..." and rest.startswith(":") and arg_kind(rest[1:]) == "string"
    )


def object_keys(arg: str) -> tuple[str, ...] | None:
    """The top-level keys of an object literal argument (``{ a, b: 1, ...c }`` → a, b, ...);
    None when the argument is not an object literal."""
    parts = _object_parts(arg)
    return None if parts is None else tuple(key for key, _ in parts)


def _awaited(text: str, chain_start: int, close: int) -> bool:
    before = text[max(0, chain_start - 12) : chain_start].rstrip()
    after = text[close + 1 : close + 12].lstrip()
    return before.endswith("await") or after.startswith(".then")


def unclosed_before(text: str, i: int, stop: str = "([{", halt: str = "") -> int:
    """Index of the nearest bracket of ``stop`` before ``i`` still open at ``i`` (unclosed
    openers not in ``stop`` are climbed past), or -1; strings are skipped whole, and a
    ``halt`` character at the top level (``;``) ends the climb."""
    depth = 0
    j = i - 1
    while j >= 0:
        c = text[j]
        if c in "'\"`":
            j = skip_string_back(text, j) - 1
            continue
        if c in ")]}":
            depth += 1
        elif c in "([{":
            if depth == 0:
                if c in stop:
                    return j
            else:
                depth -= 1
        elif c in halt and depth == 0:
            return -1
        j -= 1
    return -1


def _enclosing_call(text: str, pos: int) -> tuple[tuple[str, ...], int]:
    """The callee chain of the call whose argument list contains ``pos`` (innermost), or ()."""
    paren = unclosed_before(text, pos, "(", ";")  # object and array literals are climbed past
    return _receiver_or_name(text, paren) if paren >= 0 else ((), -1)


MAX_KEYS = 8
MAX_CLIMB = 20_000  # characters walked back from a property to find its enclosing keys


def _key_before(text: str, brace: int) -> str:
    """``devServer`` of ``devServer: {`` (or ``'devServer': {``) for the ``{`` at ``brace``."""
    j = brace - 1
    while j >= 0 and text[j] in " \t\n\r":
        j -= 1
    if j < 0 or text[j] != ":":
        return ""
    j -= 1
    while j >= 0 and text[j] in " \t":
        j -= 1
    end = j + 1
    if j >= 0 and text[j] in "'\"":
        quote, end = text[j], j
        j -= 1
        while j >= 0 and text[j] != quote and text[j] != "\n":
            j -= 1
        return text[j + 1 : end] if j >= 0 and text[j] == quote else ""
    while j >= 0 and _IDENT_CHAR.match(text[j]):
        j -= 1
    return text[j + 1 : end]


def without_line_comments(text: str) -> str:
    """``text`` with each ``// comment`` blanked (same length, so offsets hold)."""
    lines = text.split("\n")
    for n, line in enumerate(lines):
        cut = _comment_start(line)
        if cut >= 0:
            lines[n] = line[:cut] + " " * (len(line) - cut)
    return "\n".join(lines)


def enclosing_keys(text: str, pos: int) -> tuple[str, ...]:
    """The keys whose object values hold ``pos``, innermost first (``{ a: { b: { pos } } }`` →
    ``("b", "a")``); an object that is no key's value (a call argument) adds nothing."""
    text = without_line_comments(text[max(0, pos - MAX_CLIMB) : pos])
    keys: list[str] = []
    depth = 0
    i = len(text) - 1
    while i >= 0 and len(keys) < MAX_KEYS:
        c = text[i]
        if c in "'\"`":
            i = skip_string_back(text, i) - 1
            continue
        if c in ")]}":
            depth += 1
        elif c in "([{":
            if depth:
                depth -= 1
            elif c == "{":
                key = _key_before(text, i)
                if key:
                    keys.append(key)
        i -= 1
    return tuple(keys)


def _receiver_or_name(text: str, paren: int) -> tuple[tuple[str, ...], int]:
    j = paren - 1
    while j >= 0 and text[j] in " \t":
        j -= 1
    k = j
    while k >= 0 and _IDENT_CHAR.match(text[k]):
        k -= 1
    name = text[k + 1 : j + 1]
    if not name:
        return (), -1
    chain, start = _receiver(text, k + 1)
    return (*chain, name) if chain else (name,), start if chain else k + 1


def _before_token(text: str, start: int) -> int:
    """The index of the last code character before ``start``, over blanks and over a
    ``// comment`` ending the previous line (``a: 1, // note`` then ``b: 2``)."""
    k = start - 1
    while k >= 0:
        while k >= 0 and text[k] in " \t\r\n":
            k -= 1
        line_start = text.rfind("\n", 0, k + 1) + 1
        line = text[line_start : k + 1]
        cut = _comment_start(line)
        if cut < 0:
            return k
        k = line_start + cut - 1
    return k


def _comment_start(line: str) -> int:
    """Where a ``//`` comment starts in one line of code (outside quotes), or -1."""
    quote = ""
    i = 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "'\"`":
            quote = c
        elif line.startswith("//", i):
            return i
        i += 1
    return -1


def use_at(text: str, line_starts: list[int], line: int, col: int, leaf: str) -> JsUse | None:
    """What the name ``leaf`` at (1-based) ``line``/``col`` is."""
    if line < 1 or line > len(line_starts):
        return None
    start = line_starts[line - 1] + col - 1
    if text[start : start + len(leaf)] != leaf:
        found = text.find(
            leaf, line_starts[line - 1], line_starts[line] if line < len(line_starts) else len(text)
        )
        if found < 0:
            return None
        start = found
    end = start + len(leaf)
    receiver, chain_start = _receiver(text, start)
    j = end
    while j < len(text) and text[j] in " \t":
        j += 1
    call = None
    awaited = False
    if j < len(text) and text[j] == "(":
        args, close = _scan_args(text, j)
        call = call_shape(args)
        awaited = _awaited(text, chain_start, close)
    elif j == end and j < len(text) and text[j] == "`":  # keyframes`…`, gql`…`: a tagged template
        call = call_shape(["``"])
    if receiver:
        return JsUse(line, col, "member", leaf, (*receiver, leaf), call, awaited)
    k = _before_token(text, start)
    is_prop = j < len(text) and text[j] == ":" and k >= 0 and text[k] in "{,"
    after = j  # a shorthand key may end its line: `{\n  a,\n  leaf\n}`
    while after < len(text) and text[after] in " \t\r\n":
        after += 1
    is_short = k >= 0 and text[k] in "{," and after < len(text) and text[after] in ",}"
    if is_prop or is_short:
        source = _destructured_from(text, start)
        if source:  # `const { inflateRaw: raw } = Z`: a read of Z.inflateRaw
            return JsUse(line, col, "member", leaf, (*source, leaf), None, False)
        func, _ = _enclosing_call(text, start)
        keys = enclosing_keys(text, start)
        return JsUse(line, col, "property", leaf, (leaf,), None, False, func, keys)
    element = _jsx_element(text, start, j)
    if element:  # <Route component={Home} />: a prop of the element, like an option of a call
        return JsUse(line, col, "property", leaf, (leaf,), None, False, (element,))
    return JsUse(line, col, "name", leaf, (leaf,), call, awaited)


# `const {` / `let {` / `var {` opening a destructuring pattern, and `} = value;` closing it
_PATTERN_OPENS = re.compile(r"(?<![\w$.])(?:const|let|var)\s*$")
_PATTERN_SOURCE = re.compile(
    r"\s*=\s*(?:await\s+)?([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*){0,6})\s*(?:;|\n|$)"
)


def _destructured_from(text: str, start: int) -> tuple[str, ...]:
    """The value a declaration's object pattern takes the key at ``start`` from
    (``const { a: b } = lib.sub`` → ``("lib", "sub")``), or () when the key is no such
    pattern's (an object literal, a nested pattern, a call's result)."""
    brace = unclosed_before(text, start, "{", ";")
    if brace < 0 or not _PATTERN_OPENS.search(text[max(0, brace - 12) : brace]):
        return ()
    close = _match_forward(text, brace)
    found = _PATTERN_SOURCE.match(text, close + 1) if close >= 0 else None
    return tuple(p.strip() for p in found.group(1).split(".")) if found else ()


_BOUND_TO = re.compile(
    r"(?<![\w$.])(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;{]{1,80})?=\s*$"
)


def passing_calls(text: str, start: int) -> list[tuple[tuple[str, ...], str]]:
    """When the key at ``start`` is a top-level key of an object literal a declaration binds
    (``const options = { useLegacy: true }``): the callee chain of each call of the module that
    passes that name as an argument (``db.connect(url, options)``), with the name; else []."""
    brace = unclosed_before(text, start, "{", ";")
    bound = _BOUND_TO.search(text, max(0, brace - 120), brace) if brace >= 0 else None
    if bound is None:
        return []
    name = bound.group(1)
    out = []
    for m in re.finditer(rf"(?<![\w$.]){re.escape(name)}(?![\w$])", text):
        k = _before_token(text, m.start())
        after = text[m.end() : m.end() + 40].lstrip()
        if k < 0 or text[k] not in "(," or after[:1] not in (",", ")"):
            continue
        chain, _ = _enclosing_call(text, m.start())
        if chain:
            out.append((chain, name))
    return out


def _match_forward(text: str, brace: int) -> int:
    """The index of the ``}`` that closes the ``{`` at ``brace`` (strings skipped), or -1."""
    depth = 0
    i = brace
    while i < len(text) and i - brace < 2000:
        c = text[i]
        if c in "'\"`":
            end = text.find(c, i + 1)
            if end < 0:
                return -1
            i = end + 1
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _jsx_element(text: str, start: int, after: int) -> str:
    """The element name when ``text[start:after]`` is an attribute of a JSX tag (``name=``)."""
    if not (after < len(text) and text[after] == "=" and text[after + 1 : after + 2] != "="):
        return ""
    window = text[max(0, start - 400) : start]
    lt = window.rfind("<")
    if lt < 0 or ">" in window[lt:]:
        return ""
    m = re.match(r"<\s*([A-Za-z_$][\w$.]*)\s", window[lt:])
    return m.group(1) if m else ""


_ASSIGN = re.compile(r"(?<![\w$.])(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*([^;\n]{1,200})")
# `let a;`, `let a, b;`: declared with no value (given one later, at a statement's start)
_DECLARED_BARE = re.compile(
    r"(?<![\w$.])(?:let|var)\s+([A-Za-z_$][\w$]*(?:\s*,\s*[A-Za-z_$][\w$]*)*)\s*;"
)
_LATER_ASSIGN = r"(?:^|[;{{}})]|\n)\s*{}\s*=(?![=>])\s*([^;\n]{{1,200}})"


def _names_of(declared: str) -> list[str]:
    return [n.strip() for n in declared.split(",") if n.strip()]


_PARAMS = re.compile(
    r"(?:function\s*[\w$]*\s*\(([^)]*)\)|\(([^()]*)\)\s*=>|(?<![\w$])([A-Za-z_$][\w$]*)\s*=>)"
)


_REQUIRE = r"""require\s*\(\s*(['"])([^'"\s]{1,214})\1\s*\)"""  # `require('pkg')`
_REQUIRE_BARE = re.compile(_REQUIRE)
_REQUIRE_MADE = re.compile(_REQUIRE + r"\s*(?:\(|\.)")


def js_origin(expr: str) -> str:
    e = expr.strip()
    if e.startswith("["):
        return "literal:list"
    if e.startswith("{"):
        return "literal:dict"
    if e[:1] in "'\"`" or re.match(r"^-?\d", e):
        return "literal:str"
    if re.match(r"^new\s+(Array|Map|Set|WeakMap|Object|String|URLSearchParams)\b", e):
        return "literal:list"
    e = re.sub(r"^(await|new)\s+", "", e)
    m = re.match(r"^([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)\s*(\()?", e)
    if m:
        chain = re.sub(r"\s+", "", m.group(1))
        if m.group(1) == "require" or chain == "require":
            made = _REQUIRE_MADE.match(e)  # `require('pkg')(session)`: what its export makes
            if made:
                return f"made:{made.group(2)}"
            bare = _REQUIRE_BARE.fullmatch(e)  # `{ zk: require('pkg') }`: the module itself
            return f"require:{bare.group(2)}" if bare else "other"
        return "chain:" + chain + ("()" if m.group(2) else "")
    return "other"


_CLASS_BASE = re.compile(
    r"\bclass\s+[A-Za-z_$][\w$]*\s+extends\s+([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*){0,4})"
)


def class_bases(text: str) -> list[str]:
    """The base of each ``class X extends base`` of the text, in order."""
    return [m.group(1) for m in _CLASS_BASE.finditer(text)]


def declares(text: str, name: str) -> bool:
    """Whether ``text`` declares ``name`` as a function or a class of its own."""
    return re.search(rf"\b(?:function\s*\*?\s*|class\s+){re.escape(name)}\b", text) is not None


# `const { a, b: c = 1, ...rest } = lib.sub;`: each name taken from a value's members
_DESTRUCTURE = re.compile(
    r"(?<![\w$.])(?:const|let|var)\s*\{([^{}=;]{1,300})\}\s*=\s*(?:await\s+)?"
    r"([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*){0,6})\s*(?:<[^;\n()]{0,120}>\s*)?"
    r"(\([^;\n]{0,200}\))?\s*(?:;|\n|$)"
)
_MEMBER = re.compile(r"\s*([A-Za-z_$][\w$]*)\s*(?::\s*([A-Za-z_$][\w$]*))?\s*$")
# `const { data, revalidate: again } = useThing<T>(…)`: the call's arguments may span lines
_DESTRUCTURED_CALL = re.compile(
    r"(?<![\w$.])(?:const|let|var)\s*\{([^{}=;]{1,300})\}\s*=\s*(?:await\s+)?"
    r"([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)?)\s*(?:<[^;()]{0,120}>\s*)?\("
)


def _pattern_keys(body: str, start: int) -> Iterator[tuple[int, re.Match[str]]]:
    """Each plain entry of an object pattern's body found at offset ``start``: the entry's
    offset and the match of its key and alias; ``...rest`` and the like are left out."""
    offset = start
    for entry in body.split(","):
        member = _MEMBER.match(entry.split("=", 1)[0])
        if member:
            yield offset, member
        offset += len(entry) + 1


# `function unpack(lib, buf)`, `const unpack = async (lib, buf) =>`, `unpack = function (lib)`
# a function expression or an arrow called where it is written: `(function (zk) {`,
# `((zk) => {`; its call follows the body: `})(args)` or `}(args))`
_IIFE = re.compile(
    r"\(\s*(?:async\s*)?(?:function\s*\*?\s*[\w$]*\s*\(([^()]{0,300})\)|\(([^()]{0,300})\)\s*=>)\s*\{"
)
_IIFE_CALL = re.compile(r"\s*\)?\s*\(")
_FUNCTION_PARAMS = re.compile(
    r"(?<![\w$.])function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(([^()]{0,300})\)"
    r"|(?<![\w$.])(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?"
    r"(?:function\s*\*?\s*[\w$]*\s*)?\(([^()]{0,300})\)\s*(?:=>|\{)"
)
MAX_CALLERS = 20  # calls of one function read for what they pass


# a function literal's parameter list: `(a, b) =>`, `a =>`, `function name(a, b)`
_LITERAL_PARAMS = re.compile(
    r"(?:\bfunction\s*[\w$]*\s*\(([^()]*)\)|\(([^()]*)\)\s*(?::\s*[\w$<>\[\]|. ]+)?=>"
    r"|(?<![\w$.])([A-Za-z_$][\w$]*)\s*=>)"
)
# methods whose callbacks get the elements of a list, not what the receiver's package gives
_ITERATING = frozenset(("map", "forEach", "filter", "reduce", "some", "every", "find", "flatMap",
                        "sort", "findIndex", "reduceRight"))  # fmt: skip


def callback_receivers(text: str, param: str) -> list[str]:
    """For each function literal of ``text`` that declares ``param``, the receiver of the
    method call it is passed to (``wss.on('connection', (ws) => …)`` → ``wss``), or ``?``
    when it is passed to none (a declaration, a plain call, an iterating method)."""
    out: list[str] = []
    for m in _LITERAL_PARAMS.finditer(text):
        raw = next((g for g in m.groups() if g is not None), "")
        params = [
            re.split(r"[\s=:?]", p.strip().lstrip("."), maxsplit=1)[0] for p in raw.split(",")
        ]
        if param not in params:
            continue
        opened = _open_paren(text, m.start())
        chain = _callee_before(text, opened) if opened > 0 else []
        if len(chain) < 2:  # not a method call: a plain call, a declaration, a group
            out.append("?")
            continue
        out.append("?" if chain[-1] in _ITERATING else ".".join(chain[:-1]))
        if len(out) > MAX_CALLERS:
            break
    return out


def _callee_before(text: str, opened: int) -> list[str]:
    """The dotted callee written right before the '(' at ``opened`` (``wss.on`` → [wss, on];
    a type argument list between them skipped), read backwards one character at a time."""
    i = opened - 1
    while i >= 0 and text[i].isspace():
        i -= 1
    if i >= 0 and text[i] == ">":  # `emitter.on<Socket>(`
        i = text.rfind("<", max(0, i - 120), i) - 1
    parts: list[str] = []
    while i >= 0 and len(parts) < 8:
        end = i + 1
        while i >= 0 and (text[i].isalnum() or text[i] in "_$"):
            i -= 1
        word = text[i + 1 : end]
        if not word or word[0].isdigit():
            return []
        parts.append(word)
        while i >= 0 and text[i].isspace():
            i -= 1
        if i < 0 or text[i] != ".":
            break
        i -= 1
        while i >= 0 and text[i].isspace():
            i -= 1
    return parts[::-1]


def _open_paren(text: str, at: int) -> int:
    """The index of the '(' whose argument list holds ``at`` (-1: none within 3000
    characters); brackets of other kinds and strings are skipped roughly."""
    depth = 0
    i = at - 1
    stop = max(0, at - 3000)
    while i >= stop:
        c = text[i]
        if c in ")]}":
            depth += 1
        elif c in "([{":
            if depth == 0:
                return i if c == "(" else -1
            depth -= 1
        i -= 1
    return -1


def _param_names(raw: str) -> list[str]:
    """The names of a parameter list (``lib, b = 2, opts: Options`` → lib, b, opts)."""
    return [re.split(r"[\s=:]", p.strip(), maxsplit=1)[0] for p in raw.split(",")]


def passed_as(text: str, param: str) -> list[str]:
    """What the calls in ``text`` pass for ``param`` of the functions that declare it
    (``function unpack(lib, b)`` with ``unpack(require('zipkit'), x)`` → ``["require('zipkit')"]``):
    a value followed into a function of the same module, by position."""
    found: list[str] = []
    for m in _FUNCTION_PARAMS.finditer(text):
        name, raw = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        params = _param_names(raw)
        if param not in params:
            continue
        index = params.index(param)
        calls = re.finditer(rf"(?<![\w$.]){re.escape(name)}\s*\(", text)
        for call in list(calls)[:MAX_CALLERS]:
            if call.start() == m.start(1 if m.group(1) else 3):
                continue  # the declaration itself
            if text[max(0, call.start() - 9) : call.start()].rstrip().endswith("function"):
                continue
            args, _ = _scan_args(text, call.end() - 1)
            if index < len(args):
                found.append(args[index].strip())
    for m in _IIFE.finditer(text):  # `(function (zk) { … })(require('zipkit'))`
        raw = m.group(1) if m.group(1) is not None else m.group(2)
        params = _param_names(raw)
        if param not in params:
            continue
        _, close = _scan_args(text, m.end() - 1)  # the body's closing brace
        call = _IIFE_CALL.match(text, close + 1)
        if call is not None:
            args, _ = _scan_args(text, call.end() - 1)
            if params.index(param) < len(args):
                found.append(args[params.index(param)].strip())
    return found


def destructured(text: str) -> list[tuple[int, str, str]]:
    """``(offset, value, key)`` for each key a declaration's object pattern takes from a
    plain value: ``const { a, b: c } = lib`` → ``(…, "lib", "a")``, ``(…, "lib", "b")``
    (not from a call's result: that is what the call made)."""
    found = []
    for m in _DESTRUCTURE.finditer(text):
        if m.group(3):
            continue
        for offset, member in _pattern_keys(m.group(1), m.start(1)):
            found.append((offset, m.group(2), member.group(1)))
    return found


def destructured_calls(text: str) -> list[tuple[int, str, str]]:
    """``(offset of the key, callee, key)`` for each key an object pattern takes from what a
    call returned: ``const { data, revalidate: r } = await useThing<T>(…)`` →
    ``(…, "useThing", "data")``, ``(…, "useThing", "revalidate")``."""
    return [
        (offset + member.start(1), m.group(2), member.group(1))
        for m in _DESTRUCTURED_CALL.finditer(text)
        for offset, member in _pattern_keys(m.group(1), m.start(1))
    ]


def _ternary_branches(value: str) -> list[str]:
    """The two values of a top-level conditional expression (``c ? a : b`` → ``[a, b]``);
    the value itself when it is none (``a?.b``, ``a ?? b`` and nested brackets are not)."""
    depth, quote, question = 0, "", -1
    for i, c in enumerate(value):
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"`":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif (
            depth == 0
            and c == "?"
            and value[i + 1 : i + 2] not in (".", "?")
            and (value[i - 1 : i] != "?")
        ):
            question = i
        elif depth == 0 and c == ":" and question >= 0:
            return [value[question + 1 : i].strip(), value[i + 1 :].strip()]
    return [value]


def field_values(text: str, field: str) -> list[str]:
    """What a class body initialises ``field`` to (``zk = require('zipkit');``, ``static zk
    = …``, ``private client: Client = make();``), and what an object literal's key
    ``field:`` holds (``{ zk: require('zipkit'), unpack() { this.zk… } }``): the values
    ``this.field`` may have."""
    name = re.escape(field)
    found = [
        m.group(1)
        for m in re.finditer(
            rf"^[ \t]+(?:(?:static|private|public|protected|readonly)\s+)*{name}[!?]?"
            rf"\s*(?::[^=;\n]{{1,80}})?=(?![=>])\s*([^;\n]{{1,200}})",
            text,
            re.M,
        )
    ]
    found += [
        m.group(1)
        for m in re.finditer(
            rf"(?<![\w$.?]){name}\s*:\s*(require\s*\([^()\n]{{1,220}}\)|[A-Za-z_$][\w$.]*)\s*[,}}\n]",
            text,
        )
    ]
    return found


def typed_field(text: str, field: str) -> list[str]:
    """The TypeScript types a class gives ``field`` without a value in sight: a constructor's
    parameter property (``constructor(private readonly api: HttpClient)``, the framework
    injects it) or a declared field (``private client!: Client;``)."""
    name = re.escape(field)
    found = re.findall(
        rf"\b(?:private|public|protected|readonly)\s+(?:readonly\s+)?{name}\s*[?!]?\s*:\s*"
        r"([A-Za-z_$][\w$]*)(?:<[^>\n]*>)?\s*[,)]",
        text,
    )
    found += re.findall(
        rf"^[ \t]+(?:(?:private|public|protected|readonly|declare)\s+)*{name}\s*[?!]?\s*:\s*"
        r"([A-Za-z_$][\w$]*)(?:<[^;\n]*>)?\s*;",
        text,
        re.M,
    )
    return list(dict.fromkeys(found))


def _object_literal(text: str, name: str, brace: int, assigned: dict[str, list[str]]) -> None:
    """``const deps = { zk: require('zipkit'), other }``: ``deps.zk`` and ``deps.other`` get
    their values' origins; ``const api = { ...zk }`` makes ``api`` what ``zk`` is (its keys
    written out still win, as ``api.x`` looks them up first); else a plain object."""
    entries, _ = _scan_args(text, brace)
    spreads = []
    for entry in entries[:100]:
        if entry.startswith("..."):
            if re.fullmatch(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*", entry[3:].strip()):
                spreads.append("chain:" + entry[3:].strip())
            continue
        key, colon, value = entry.partition(":")
        key = key.strip().strip("'\"")
        if not re.fullmatch(r"[A-Za-z_$][\w$]*", key):
            continue
        origin = js_origin(value) if colon else f"chain:{key}"  # `{ zk }` is `{ zk: zk }`
        assigned.setdefault(f"{name}.{key}", []).append(origin)
    assigned.setdefault(name, []).extend(spreads or ["literal:dict"])


def assignments(text: str) -> tuple[dict[str, list[str]], set[str]]:
    """Local names → what they were assigned; and the names that are function parameters.
    A destructured member is ``member:<value>.<name>``."""
    assigned: dict[str, list[str]] = {}
    for m in _ASSIGN.finditer(text):
        if m.group(2).startswith("{"):
            _object_literal(text, m.group(1), m.start(2), assigned)
        else:
            branches = _ternary_branches(m.group(2))  # `cond ? null : require('pkg')`
            origins = [js_origin(b) for b in branches if b.strip() not in ("null", "undefined")]
            assigned.setdefault(m.group(1), []).extend(origins or [js_origin(m.group(2))])
    # `let sequelize;` then `sequelize = new Sequelize(…)` in each branch: what it is given
    for name in {n for m in _DECLARED_BARE.finditer(text) for n in _names_of(m.group(1))}:
        if name in assigned:
            continue
        for m in re.finditer(_LATER_ASSIGN.format(re.escape(name)), text):
            assigned.setdefault(name, []).append(js_origin(m.group(1)))
    for m in _DESTRUCTURE.finditer(text):
        for _offset, member in _pattern_keys(m.group(1), m.start(1)):
            local = member.group(2) or member.group(1)
            if m.group(3):  # `const { a } = make()`: a member of what the call returns
                origin = f"chain:{m.group(2)}().{member.group(1)}"
            else:
                origin = f"member:{m.group(2)}.{member.group(1)}"
            assigned.setdefault(local, []).append(origin)
    params: set[str] = set()
    for m in _PARAMS.finditer(text):
        raw = m.group(1) or m.group(2) or m.group(3) or ""
        for p in re.split(r"[,{}\[\]\s=]+", raw):
            if re.fullmatch(r"[A-Za-z_$][\w$]*", p or ""):
                params.add(p)
    return assigned, params


def closing_brace(text: str, at: int) -> int:
    """The offset of the brace that closes the one at ``at`` (the text's end if none); braces
    in strings and comments are counted too, which a class or block body rarely holds."""
    depth = 0
    for i in range(at, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return len(text)
