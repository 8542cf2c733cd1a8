"""The regular-expression fallback for JavaScript/TypeScript: the lexical scan and the import
reader depbot used before ``jsparse`` (tree-sitter), kept for the texts that are not parsed:
over ``jsparse.MAX_PARSE_BYTES`` (bounded, linear time on a multi-megabyte bundle) and
``.vue``/``.svelte`` files (HTML around the script, no grammar here). Pure.

Approximate where the parser is exact: a ``/`` is told a regex from a division by the token
before it, JSX text is read as code, TypeScript generics as operators.
"""

from __future__ import annotations

import re
import threading
from bisect import bisect_right
from collections.abc import Iterator

from depbot.search.jsimports import JsImport, package_of

__all__ = ["QUOTED", "scan_js", "js_imports_regex"]

COMMENT, STRING = "comment", "string"  # lexical.COMMENT / lexical.STRING
QUOTED = {
    "'": re.compile(r"(?:[^'\\\n]|\\.)*('|\n|\Z)", re.S),
    '"': re.compile(r'(?:[^"\\\n]|\\.)*("|\n|\Z)', re.S),
}


_JS_NEXT = re.compile(r"\A#!|[/'\"`{}]")
_JS_TEMPLATE = re.compile(r"\\.|`|\$\{", re.S)
_JS_REGEX_BEFORE_WORDS = frozenset(
    "return typeof instanceof in of new delete void throw case do else yield await".split()
)
_MAX_TEMPLATE_DEPTH = 64


def _regex_allowed(text: str, pos: int) -> bool:
    """Whether a ``/`` at ``pos`` starts a regex literal (vs. a division), approximately."""
    j = pos - 1
    while j >= 0 and text[j] in " \t\r\n":
        j -= 1
    if j < 0:
        return True
    c = text[j]
    if c in ")]}":
        return False
    if c.isalnum() or c in "_$":
        k = j
        while k >= 0 and (text[k].isalnum() or text[k] in "_$"):
            k -= 1
        word = text[k + 1 : j + 1]
        return word in _JS_REGEX_BEFORE_WORDS
    if c in "+-" and j > 0 and text[j - 1] == c:  # a++ / b
        return False
    return True


def _scan_regex(text: str, pos: int) -> int | None:
    """End of a regex literal starting at ``pos`` (the ``/``), or None if it is not one."""
    i, n, in_class = pos + 1, len(text), False
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "\n":
            return None
        if in_class:
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
        elif c == "/":
            i += 1
            while i < n and (text[i].isalpha()):
                i += 1
            return i
        i += 1
    return None


def scan_js(text: str) -> list[tuple[int, int, str]]:
    """Comment and string regions (character offsets) of a JS/TS text, by regex scan; the
    last few texts are remembered (the lexical map and the import reader share a scan)."""
    with _lock:
        if text in _recent:
            return _recent[text]
    regions = _scan_js(text)
    with _lock:
        _recent[text] = regions
        while len(_recent) > 2:
            del _recent[next(iter(_recent))]
    return regions


_recent: dict[str, list[tuple[int, int, str]]] = {}
_lock = threading.Lock()


def _scan_js(text: str) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    n = len(text)
    stack: list[int] = []  # brace depth of the code around each open ${
    depth = 0
    i = 0

    def template(start: int, pos: int) -> int:
        """Scan template text from ``pos``; returns where code resumes."""
        nonlocal depth
        while True:
            m = _JS_TEMPLATE.search(text, pos)
            if not m:
                out.append((start, n, STRING))
                return n
            tok = m.group()
            if tok == "`":
                out.append((start, m.end(), STRING))
                return m.end()
            if tok == "${":
                out.append((start, m.end(), STRING))
                if len(stack) >= _MAX_TEMPLATE_DEPTH:  # pathological nesting: give up
                    out.append((m.end(), n, STRING))
                    return n
                stack.append(depth)
                depth = 0
                return m.end()
            pos = m.end()

    while i < n:
        m = _JS_NEXT.search(text, i)
        if not m:
            break
        j = m.start()
        c = m.group()
        if c == "#!":
            end = text.find("\n", j)
            end = n if end == -1 else end
            out.append((j, end, COMMENT))
            i = end
        elif c == "{":
            depth += 1
            i = j + 1
        elif c == "}":
            if stack and depth == 0:
                depth = stack.pop()
                i = template(j, j + 1)
            else:
                depth = max(0, depth - 1)
                i = j + 1
        elif c in "'\"":
            body = QUOTED[c].match(text, j + 1)
            end = body.end() if body else n
            if text[end - 1 : end] == "\n":
                end -= 1
            out.append((j, end, STRING))
            i = max(end, j + 1)
        elif c == "`":
            i = template(j, j + 1)
        else:  # "/"
            nxt = text[j + 1 : j + 2]
            if nxt == "/":
                end = text.find("\n", j)
                end = n if end == -1 else end
                out.append((j, end, COMMENT))
                i = end
            elif nxt == "*":
                end = text.find("*/", j + 2)
                end = n if end == -1 else end + 2
                out.append((j, end, COMMENT))
                i = end
            elif _regex_allowed(text, j) and (end := _scan_regex(text, j)) is not None:
                out.append((j, end, STRING))
                i = end
            else:
                i = j + 1
    return out


# -- imports ------------------------------------------------------------------------------

_Q = r"(?P<q>['\"])(?P<spec>[^'\"\n]+)(?P=q)"
_JS_IMPORT_FROM = re.compile(
    r"(?<![\w$.])import\s+(?P<type>type\s+)?(?P<clause>[^;'\"`()]{0,2000}?)\s*\bfrom\s*" + _Q
)
_JS_IMPORT_BARE = re.compile(r"(?<![\w$.])import\s*" + _Q)
_JS_EXPORT_FROM = re.compile(
    r"(?<![\w$.])export\s+(?P<type>type\s+)?(?P<clause>\*(?:\s+as\s+[\w$]+)?|\{[^}]{0,2000}\})"
    r"\s*from\s*" + _Q
)
_JS_REQUIRE = re.compile(r"(?<![\w$.])require\s*\(\s*(?P<q>['\"`])(?P<spec>[^'\"`\n$]+)(?P=q)\s*\)")
_JS_DYNAMIC = re.compile(
    r"(?<![\w$.])import\s*\(\s*(?P<q>['\"`])(?P<spec>[^'\"`\n$]+)(?P=q)\s*[,)]"
)
_JS_BIND = re.compile(
    r"(?:(?<![\w$])(?:const|let|var|import)\s+)?(?P<bind>\{[^{}]*\}|(?<![\w$.])[\w$]+)"
    r"\s*=\s*(?:await\s+)?\(?\s*\Z"
)
_JS_MEMBER = re.compile(r"\s*\)?\s*\.\s*(?P<m>[A-Za-z_$][\w$]*)")
_JS_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_IDENT = re.compile(r"[A-Za-z_$][\w$]*\Z")


def _split_top(text: str) -> list[str]:
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "{[(":
            depth += 1
        elif ch in "}])":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def _named(clause: str, sep: str) -> dict[str, str]:
    """``{a, b as c, type D, default as e}`` (sep "as") or ``{a, b: c, d = 1, ...r}``
    (sep ":") → ``{local: imported}``."""
    out: dict[str, str] = {}
    inner = clause.strip()
    if inner.startswith("{"):
        inner = inner[1:]
    if inner.endswith("}"):
        inner = inner[:-1]
    for part in _split_top(inner):
        part = re.sub(r"^type\s+", "", part)
        if part.startswith("..."):
            rest = part[3:].strip()
            if _IDENT.match(rest):
                out[rest] = "*"
            continue
        part = part.split("=")[0].strip()
        if sep == "as":
            m = re.match(r"^(['\"]?)([^'\"\s]+)\1\s+as\s+([\w$]+)$", part)
        else:
            m = re.match(r"^(['\"]?)([^'\"\s:]+)\1\s*:\s*([\w$]+)$", part)
        if m:
            out[m.group(3)] = m.group(2)
        elif _IDENT.match(part):
            out[part] = part
    return out


def _import_clause(clause: str) -> dict[str, str]:
    clause = _JS_COMMENTS.sub(" ", clause).strip()
    names: dict[str, str] = {}
    for part in _split_top(clause):
        if part.startswith("{"):
            names.update(_named(part, "as"))
        elif part.startswith("*"):
            m = re.match(r"^\*\s+as\s+([\w$]+)$", part)
            if m:
                names[m.group(1)] = "*"
        elif _IDENT.match(part):
            names[part] = "default"
    return names


class _ImportReader:
    """One read of a text: its comment/string regions, its line starts, the imports found so
    far and the offsets already taken (an import is recorded once, by its first reader)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.regions = scan_js(text)
        self.region_starts = [r[0] for r in self.regions]
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.out: list[JsImport] = []
        self.seen: set[int] = set()

    def pos(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset."""
        li = bisect_right(self.starts, offset) - 1
        return li + 1, offset - self.starts[li] + 1

    def _outside_code(self, rx: re.Pattern[str], m: re.Match[str]) -> bool:
        """Whether the match starts in a comment or string, or its clause holds an ``import``."""
        i = bisect_right(self.region_starts, m.start()) - 1
        return (i >= 0 and self.regions[i][0] <= m.start() < self.regions[i][1]) or (
            "clause" in rx.groupindex and re.search(r"\bimport\b", m.group("clause")) is not None
        )

    def code_matches(self, rx: re.Pattern[str], keyword: str) -> Iterator[re.Match[str]]:
        """Matches whose keyword sits in code; a match starting in a comment or string is
        retried one character later, so it cannot swallow a real import after it."""
        if keyword not in self.text:  # a multi-megabyte bundle: skip the searches that cannot hit
            return
        at = 0
        while True:
            m = rx.search(self.text, at)
            if m is None:
                return
            if self._outside_code(rx, m):
                at = m.start() + 1
                continue
            yield m
            at = m.end()

    def add(
        self, m: re.Match[str], style: str, names: dict[str, str], type_only: bool = False
    ) -> None:
        """Record the import of match ``m`` unless one was recorded at its offset already."""
        line, col = self.pos(m.start())
        if m.start() in self.seen:
            return
        self.seen.add(m.start())
        spec = m.group("spec").strip()
        pkg = package_of(spec)
        end_line, _ = self.pos(m.end())
        self.out.append(
            JsImport(
                line=line,
                col=col,
                specifier=spec,
                package=pkg[0] if pkg else "",
                subpath=pkg[1] if pkg else "",
                names=names,
                style=style,
                type_only=type_only,
                end_line=end_line,
            )
        )


def _export_from_names(clause: str) -> dict[str, str]:
    """Names of an ``export * [as ns] from`` / ``export {…} from`` clause."""
    clause = _JS_COMMENTS.sub(" ", clause).strip()
    if clause.startswith("*"):
        am = re.match(r"^\*\s+as\s+([\w$]+)$", clause)
        return {am.group(1): "*"} if am else {"*": "*"}
    return _named(clause, "as")


def _import_from_names(m: re.Match[str]) -> tuple[dict[str, str], bool]:
    """Names and type-only flag of an ``import [type] … from`` match."""
    clause = m.group("clause")
    type_only = bool(m.group("type"))
    if type_only and not clause.strip():  # `import type from 'x'`: a default named type
        clause, type_only = "type", False
    return _import_clause(clause), type_only


def _call_names(text: str, m: re.Match[str], style: str) -> dict[str, str]:
    """Names bound by a ``require()`` / ``import()`` call: the binding before it
    (``const {a: b} = require('x')``) and, for ``require``, a member read after it."""
    names: dict[str, str] = {}
    before = text[max(0, m.start() - 400) : m.start()]
    bm = _JS_BIND.search(before)
    # `require('x').y` binds a member; `import('x').then()` is a promise, not one
    after = _JS_MEMBER.match(text, m.end()) if style == "require" else None
    member = after.group("m") if after else None
    if bm:
        bind = _JS_COMMENTS.sub(" ", bm.group("bind")).strip()
        if bind.startswith("{"):
            sub = _named(bind, ":")
            prefix = f"{member}." if member else ""
            names = {k: (v if v == "*" and not prefix else prefix + v) for k, v in sub.items()}
        elif _IDENT.match(bind) and bind not in ("exports",):
            names = {bind: member or "*"}
    return names


def js_imports_regex(text: str) -> list[JsImport]:
    """Every import of a JS/TS text whose keyword sits in code, in source order."""
    if "import" not in text and "require" not in text and "export" not in text:
        return []
    reader = _ImportReader(text)
    for m in reader.code_matches(_JS_EXPORT_FROM, "export"):
        reader.add(m, "export-from", _export_from_names(m.group("clause")), bool(m.group("type")))
    for m in reader.code_matches(_JS_IMPORT_FROM, "import"):
        names, type_only = _import_from_names(m)
        reader.add(m, "import", names, type_only)
    for m in reader.code_matches(_JS_IMPORT_BARE, "import"):
        reader.add(m, "import", {})
    for style, rx, kw in (
        ("require", _JS_REQUIRE, "require"),
        ("dynamic-import", _JS_DYNAMIC, "import"),
    ):
        for m in reader.code_matches(rx, kw):
            reader.add(m, style, _call_names(text, m, style))
    reader.out.sort(key=lambda i: (i.line, i.col))
    return reader.out
