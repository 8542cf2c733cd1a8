"""A cheap lexical scan: does a (line, column) of a file sit in code, a comment or a string?

Pure: text in, tables out; no I/O. One scan per file yields a ``LexMap`` (for each line,
the column spans that are comment or string), so many hits in one file cost one scan.

Languages (``language_for`` picks one from the file name):

- ``python``: ``#`` comments; ``'…'``, ``"…"``, triple-quoted strings (docstrings are
  strings), any prefix (``r``, ``b``, ``u``, ``f``, ``rb``, ``fr``…); an f-string counts
  as a string as a whole, replacement fields included.
- ``javascript`` (also TypeScript and JSX): parsed with tree-sitter (``jsparse``; the
  grammar follows ``path``: JavaScript, TypeScript or TSX): ``//``, ``/* */``, ``<!--`` and
  ``#!`` comments; string literals, regular-expression literals and JSX text are strings;
  template literals are strings whose ``${…}`` expressions are code (nested to any depth).
  Texts over ``jsparse.MAX_PARSE_BYTES`` and ``.vue``/``.svelte`` files get the linear
  regex scan of ``jsregex`` instead (a regex told from a division by the token before it).
- ``json``: strings; ``//`` and ``/* */`` comments as JSONC / ``.eslintrc`` allow.
- ``yaml``, ``toml``, ``ini`` (``.cfg``, ``.ini``, ``setup.cfg``, ``tox.ini``…): ``#``
  comments (``;`` too in INI) at line start or after whitespace; quoted strings that start
  a value; TOML's triple-quoted strings.

Anything else is all code: the scan cannot tell, and saying "code" errs on the side of
showing a hit.

In config languages (``CONFIG_LANGUAGES``) a quoted value *is* the configuration; callers
that judge "does this file use X" should treat strings there as code (``search/code.py`` does).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from depbot.search import jsparse
from depbot.search.jsregex import QUOTED, scan_js

CODE, COMMENT, STRING = "code", "comment", "string"
LANGUAGES = ("python", "javascript", "json", "yaml", "toml", "ini")
CONFIG_LANGUAGES = frozenset({"json", "yaml", "toml", "ini"})

_EXT = {
    ".py": "python",
    ".pyi": "python",
    ".pyw": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "javascript",
    ".tsx": "javascript",
    ".mts": "javascript",
    ".cts": "javascript",
    ".vue": "javascript",
    ".svelte": "javascript",
    ".css": "javascript",  # stylesheets: the same `/* */` (and Sass/Less `//`) comments and
    ".scss": "javascript",  # quoted strings, for an `@import` of a file in node_modules
    ".sass": "javascript",
    ".less": "javascript",
    ".json": "json",
    ".jsonc": "json",
    ".json5": "json",
    ".yml": "yaml",
    ".yaml": "yaml",
    ".toml": "toml",
    ".ini": "ini",
    ".cfg": "ini",
    ".conf": "ini",
}
_NAMES = {
    "pipfile": "toml",
    ".editorconfig": "ini",
    ".flake8": "ini",
    ".pylintrc": "ini",
    "pylintrc": "ini",
    ".coveragerc": "ini",
    ".gitmodules": "ini",
}
# extensionless rc files that hold JSON or YAML (sniffed from the text)
_RC_JSON_OR_YAML = (".eslintrc", ".babelrc", ".prettierrc", ".stylelintrc", ".swcrc", ".mocharc")
_CONFIG_NAME_RE = re.compile(
    r"^(\.eslintrc.*|eslint\.config\..*|\.babelrc.*|babel\.config\..*|\.prettierrc.*"
    r"|prettier\.config\..*|.*\.config\.(js|cjs|mjs|ts|cts|mts)|setup\.cfg|tox\.ini"
    r"|pyproject\.toml|\.pre-commit-config\.ya?ml|package\.json|tsconfig.*\.json)$",
    re.IGNORECASE,
)


def language_for(path: str, text: str | None = None) -> str | None:
    """The scanner language for a file name (POSIX or native), or None when unknown.

    Extensionless rc files (``.eslintrc``, ``.babelrc``…) are JSON when ``text`` starts with
    ``{`` or ``[`` and YAML otherwise.
    """
    name = PurePosixPath(path.replace("\\", "/")).name
    lname = name.lower()
    if lname in _NAMES:
        return _NAMES[lname]
    if lname in _RC_JSON_OR_YAML:
        head = (text or "").lstrip()[:1]
        return "json" if head in ("{", "[", "") else "yaml"
    suffix = PurePosixPath(lname).suffix
    return _EXT.get(suffix)


def is_config_file(path: str) -> bool:
    """Whether a file is tool configuration (lint, bundler, build, packaging), which counts
    as code for "does this checkout use X": ``.eslintrc*``, ``babel.config.*``,
    ``*.config.js``, ``setup.cfg``, ``tox.ini``, ``pyproject.toml``, any JSON/YAML/TOML/INI."""
    name = PurePosixPath(path.replace("\\", "/")).name
    return bool(_CONFIG_NAME_RE.match(name)) or language_for(path) in CONFIG_LANGUAGES


@dataclass
class LexMap:
    """For each 1-based line, the 0-based ``[start, end)`` column spans that are comments or
    strings (code everywhere else). Build with ``scan``."""

    language: str | None
    lines: dict[int, list[tuple[int, int, str]]] = field(default_factory=dict)

    def kind_at(self, line: int, col: int) -> str:
        """``"code"``, ``"comment"`` or ``"string"`` at a 1-based line and column."""
        spans = self.lines.get(line)
        if not spans:
            return CODE
        c = col - 1
        i = bisect_right(spans, (c, float("inf"), "")) - 1
        if i >= 0:
            start, end, kind = spans[i]
            if start <= c < end:
                return kind
        return CODE

    def spans(self, line: int) -> list[tuple[int, int, str]]:
        """The non-code spans of a 1-based line (empty when it is all code)."""
        return list(self.lines.get(line, ()))


_SFC_RE = re.compile(r"\s*(?:<!--.*?-->\s*)*<(?:template|script|style)\b", re.S)


def scan(text: str, language: str | None, *, path: str | None = None) -> LexMap:
    """Classify every comment and string of ``text`` (lines split on ``\\n`` only, as
    ripgrep and Python's tokenizer count them). ``path`` (the file's name) picks the
    JavaScript grammar; without it the grammar is guessed (``jsparse.parse``)."""
    if language == "python":
        regions = _scan_python(text)
    elif language == "javascript":
        regions = _scan_javascript(text, path)
    elif language == "json":
        regions = _scan_json(text)
    elif language in ("yaml", "toml", "ini"):
        regions = _scan_conf(text, language)
    else:
        regions = []
    return _to_lines(text, regions, language)


def context_at(text: str, language: str | None, line: int, col: int) -> str:
    """One-off lookup; prefer ``scan`` once and ``LexMap.kind_at`` for many positions."""
    return scan(text, language).kind_at(line, col)


def _to_lines(text: str, regions: list[tuple[int, int, str]], language: str | None) -> LexMap:
    starts = [0]
    find = text.find
    pos = find("\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = find("\n", pos + 1)
    table: dict[int, list[tuple[int, int, str]]] = {}
    for start, end, kind in regions:
        if end <= start:
            continue
        li = bisect_right(starts, start) - 1
        while li < len(starts) and starts[li] < end:
            ls = starts[li]
            le = starts[li + 1] - 1 if li + 1 < len(starts) else len(text)
            s = max(start, ls) - ls
            e = min(end, le) - ls
            if e > s:
                table.setdefault(li + 1, []).append((s, max(e, s), kind))
            li += 1
    for spans in table.values():
        spans.sort()
    return LexMap(language, table)


# -- Python --------------------------------------------------------------------------------

_PY_NEXT = re.compile(r"""#|(?P<prefix>(?<![\w])[rRbBuUfF]{1,2})?(?P<q>'''|\"\"\"|'|")""")
_PY_END = {
    "'": re.compile(r"(?:[^'\\\n]|\\.)*('|\n|\Z)", re.S),
    '"': re.compile(r'(?:[^"\\\n]|\\.)*("|\n|\Z)', re.S),
    "'''": re.compile(r"(?:[^'\\]|\\.|'(?!''))*('''|\Z)", re.S),
    '"""': re.compile(r'(?:[^"\\]|\\.|"(?!""))*("""|\Z)', re.S),
}


def _scan_python(text: str) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    i, n = 0, len(text)
    while i < n:
        m = _PY_NEXT.search(text, i)
        if not m:
            break
        if m.group() == "#":
            end = text.find("\n", m.start())
            end = n if end == -1 else end
            out.append((m.start(), end, COMMENT))
            i = end
            continue
        q = m.group("q")
        body = _PY_END[q].match(text, m.end())
        end = body.end() if body else n
        if end > 0 and text[end - 1 : end] == "\n" and len(q) == 1:
            end -= 1  # unterminated single-line string stops before the newline
        out.append((m.start(), end, STRING))
        i = max(end, m.end())
    return out


# -- JavaScript / TypeScript ---------------------------------------------------------------

# -- JavaScript / TypeScript ---------------------------------------------------------------


def _scan_javascript(text: str, path: str | None) -> list[tuple[int, int, str]]:
    """The parsed regions (``jsparse``), else (over the size cap, ``.vue``/``.svelte``,
    markup first) the regex scan."""
    tree = None
    if path is not None:
        tree = jsparse.parse(text, path=path)
    elif not _SFC_RE.match(text):
        tree = jsparse.parse(text)
    return tree.regions() if tree is not None else scan_js(text)


# -- JSON(C) -------------------------------------------------------------------------------

_JSON_NEXT = re.compile(r"""//|/\*|["']""")


def _scan_json(text: str) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    i, n = 0, len(text)
    while i < n:
        m = _JSON_NEXT.search(text, i)
        if not m:
            break
        j, tok = m.start(), m.group()
        if tok == "//":
            end = text.find("\n", j)
            end = n if end == -1 else end
            out.append((j, end, COMMENT))
        elif tok == "/*":
            end = text.find("*/", j + 2)
            end = n if end == -1 else end + 2
            out.append((j, end, COMMENT))
        else:
            body = QUOTED[tok].match(text, j + 1)
            end = body.end() if body else n
            if text[end - 1 : end] == "\n":
                end -= 1
            out.append((j, end, STRING))
        i = max(end, j + 1)
    return out


# -- YAML / TOML / INI ---------------------------------------------------------------------

_CONF_NEXT = {
    "yaml": re.compile(r"""#|'|\""""),
    "toml": re.compile(r"""#|'''|\"\"\"|'|\""""),
    "ini": re.compile(r"""#|;|'|\""""),
}
_CONF_END = {
    ("yaml", "'"): re.compile(r"(?:[^']|'')*('|\Z)", re.S),
    ("yaml", '"'): re.compile(r'(?:[^"\\]|\\.)*("|\Z)', re.S),
    ("toml", "'"): re.compile(r"[^'\n]*('|\n|\Z)"),
    ("toml", '"'): re.compile(r'(?:[^"\\\n]|\\.)*("|\n|\Z)'),
    ("toml", "'''"): re.compile(r"(?:[^']|'(?!''))*('''|\Z)", re.S),
    ("toml", '"""'): re.compile(r'(?:[^"\\]|\\.|"(?!""))*("""|\Z)', re.S),
    ("ini", "'"): re.compile(r"[^'\n]*('|\n|\Z)"),
    ("ini", '"'): re.compile(r'[^"\n]*("|\n|\Z)'),
}
_VALUE_START = " \t\n:=[{,("


def _scan_conf(text: str, language: str) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    nxt = _CONF_NEXT[language]
    i, n = 0, len(text)
    while i < n:
        m = nxt.search(text, i)
        if not m:
            break
        j, tok = m.start(), m.group()
        prev = text[j - 1] if j > 0 else "\n"
        if tok in "#;":
            # a comment starts a line or follows whitespace (TOML: anywhere outside strings)
            if language == "toml" or prev in " \t\n":
                end = text.find("\n", j)
                end = n if end == -1 else end
                out.append((j, end, COMMENT))
                i = end
            else:
                i = j + 1
            continue
        if prev not in _VALUE_START and not (language == "toml" and len(tok) == 3):
            i = j + 1  # an apostrophe inside a plain word ("don't"), not a string
            continue
        body = _CONF_END[(language, tok)].match(text, m.end())
        end = body.end() if body else n
        if text[end - 1 : end] == "\n":
            end -= 1
        out.append((j, end, STRING))
        i = max(end, j + 1)
    return out
