"""JavaScript, TypeScript and TSX parsed with tree-sitter: one parse per file text, shared by
the lexical scan (``lexical.scan``), import reading (``imports.js_imports``) and use-site facts.

The grammar follows the file name (``dialect_for``): ``.js``/``.mjs``/``.cjs``/``.jsx`` →
``javascript`` (which parses JSX), ``.ts``/``.mts``/``.cts`` → ``typescript``, ``.tsx`` →
``tsx``. Without a name the text is parsed as TSX (TypeScript plus JSX, the widest of the
three) and, when that tree has errors, as TypeScript then JavaScript, keeping the first
clean tree (the TSX one when none is).

Bounds: texts over ``MAX_PARSE_BYTES`` (UTF-8) are not parsed (``parse`` returns None and
callers fall back to the linear regex scan of ``jsregex``): tree-sitter reads about 2–3 MB/s
of minified code, so a 5 MB bundle would cost seconds. ``.vue``/``.svelte`` files (HTML around
the script) have no grammar here: None too. Parses are cached per text (``CACHE_TREES``
most recent), so a file whose hits are classified and whose imports are read parses once.
``parse`` never raises: tree-sitter recovers from syntax errors (``JsTree.has_error``).

Positions: tree-sitter counts bytes; ``JsTree`` converts to the character offsets and
1-based (line, character column) the rest of depbot uses (lines split on ``\\n``).
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import PurePosixPath

import tree_sitter
import tree_sitter_javascript
import tree_sitter_typescript

__all__ = ["DIALECTS", "MAX_PARSE_BYTES", "JsTree", "dialect_for", "language", "parse", "query"]

DIALECTS = ("javascript", "typescript", "tsx")
MAX_PARSE_BYTES = 1_000_000
CACHE_TREES = 64
_COMMENT, _STRING = "comment", "string"  # lexical.COMMENT / lexical.STRING
_EXT = {
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
}
# node types that are wholly comment or string; template strings are cut around ${…}
_LEX_QUERY = (
    "[(comment) (html_comment) (hash_bang_line) (string) (regex) (jsx_text)"
    ' (template_string)] @node (ERROR (string_fragment) @broken) (ERROR "`" @tick)'
)
_COMMENT_TYPES = frozenset({"comment", "html_comment", "hash_bang_line"})


def dialect_for(path: str) -> str | None:
    """The grammar for a file name (``javascript``, ``typescript``, ``tsx``), or None."""
    return _EXT.get(PurePosixPath(path.replace("\\", "/").lower()).suffix)


@cache
def language(dialect: str) -> tree_sitter.Language:
    """The tree-sitter ``Language`` of a dialect (``DIALECTS``)."""
    if dialect == "typescript":
        return tree_sitter.Language(tree_sitter_typescript.language_typescript())
    if dialect == "tsx":
        return tree_sitter.Language(tree_sitter_typescript.language_tsx())
    return tree_sitter.Language(tree_sitter_javascript.language())


@lru_cache(maxsize=256)
def query(dialect: str, source: str) -> tree_sitter.Query:
    """A compiled (and cached) tree-sitter query for a dialect's grammar."""
    return tree_sitter.Query(language(dialect), source)


_local = threading.local()  # a Parser is not safe to share between threads


def _parser(dialect: str) -> tree_sitter.Parser:
    parsers = _local.__dict__.setdefault("parsers", {})
    if dialect not in parsers:
        parsers[dialect] = tree_sitter.Parser(language(dialect))
    return parsers[dialect]


@dataclass
class JsTree:
    """A parsed JS/TS/TSX text. ``root`` is the tree-sitter ``program`` node; offsets of
    nodes are bytes of ``data`` (the text in UTF-8); use ``char_offset``/``position``."""

    text: str
    data: bytes
    dialect: str
    tree: tree_sitter.Tree
    _b2c: list[int] | None = field(default=None, repr=False)  # line starts in bytes
    _line_starts: list[int] | None = field(default=None, repr=False)
    _regions: list[tuple[int, int, str]] | None = field(default=None, repr=False)

    @property
    def root(self) -> tree_sitter.Node:
        return self.tree.root_node

    @property
    def has_error(self) -> bool:
        """Whether tree-sitter had to recover from a syntax error somewhere."""
        return self.root.has_error

    def _tables(self) -> tuple[list[int], list[int]]:
        """Start of every line: (character offsets in ``text``, byte offsets in ``data``)."""
        if self._line_starts is None or self._b2c is None:
            chars, find = [0], self.text.find
            pos = find("\n")
            while pos != -1:
                chars.append(pos + 1)
                pos = find("\n", pos + 1)
            if len(self.data) == len(self.text):
                byts = chars
            else:
                byts, bfind = [0], self.data.find
                pos = bfind(b"\n")
                while pos != -1:
                    byts.append(pos + 1)
                    pos = bfind(b"\n", pos + 1)
            self._line_starts, self._b2c = chars, byts
        return self._line_starts, self._b2c

    def char_offset(self, byte: int) -> int:
        """The character offset in ``text`` of a byte offset in ``data``."""
        if len(self.data) == len(self.text):
            return byte
        chars, byts = self._tables()
        li = bisect_right(byts, byte) - 1
        piece = self.data[byts[li] : byte]
        try:
            return chars[li] + len(piece.decode("utf-8", "surrogatepass"))
        except UnicodeDecodeError:  # not on a character boundary
            return chars[li] + len(piece.decode("utf-8", "ignore"))

    def byte_offset(self, char: int) -> int:
        """The byte offset in ``data`` of a character offset in ``text``."""
        if len(self.data) == len(self.text):
            return char
        chars, byts = self._tables()
        li = bisect_right(chars, char) - 1
        return byts[li] + len(self.text[chars[li] : char].encode("utf-8", "surrogatepass"))

    def position(self, byte: int) -> tuple[int, int]:
        """1-based (line, character column) of a byte offset."""
        chars, byts = self._tables()
        li = bisect_right(byts, byte) - 1
        return li + 1, self.char_offset(byte) - chars[li] + 1

    def offset_of(self, line: int, col: int) -> int:
        """The byte offset of a 1-based line and character column (clamped to the text)."""
        starts, _ = self._tables()
        li = min(max(line, 1), len(starts)) - 1
        return self.byte_offset(min(starts[li] + max(col, 1) - 1, len(self.text)))

    def node_at(self, line: int, col: int, *, named: bool = True) -> tree_sitter.Node | None:
        """The smallest (named) node covering the character at a 1-based line/column."""
        b = self.offset_of(line, col)
        if named:
            return self.root.named_descendant_for_byte_range(b, b + 1)
        return self.root.descendant_for_byte_range(b, b + 1)

    def node_text(self, node: tree_sitter.Node | None) -> str:
        """The source text of a node ("" for None)."""
        if node is None:
            return ""
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def chain(self, node: tree_sitter.Node | None) -> tuple[str, ...]:
        """The member chain an expression reads, as ``symbols.javascript.JsUse.chain``
        spells it: ``a.b().c[0].d`` → ``("a", "b", "()", "c", "[]", "d")``; ``()`` when
        it does not start at a name (``this`` counts as one)."""
        parts: list[str] = []
        while node is not None:
            t = node.type
            if t in ("member_expression", "subscript_expression"):
                if t == "member_expression":
                    parts.append(self.node_text(node.child_by_field_name("property")))
                else:
                    parts.append("[]")
                node = node.child_by_field_name("object")
            elif t == "call_expression":
                parts.append("()")
                node = node.child_by_field_name("function")
            elif t in ("parenthesized_expression", "non_null_expression"):
                node = node.named_children[0] if node.named_children else None
            elif t in (
                "identifier",
                "this",
                "property_identifier",
                "shorthand_property_identifier",
            ):
                parts.append(self.node_text(node))
                return tuple(reversed(parts))
            else:
                return ()
        return ()

    @staticmethod
    def enclosing(node: tree_sitter.Node | None, *types: str) -> tree_sitter.Node | None:
        """The nearest ancestor of ``node`` (itself excluded) of one of ``types``."""
        node = node.parent if node is not None else None
        while node is not None and node.type not in types:
            node = node.parent
        return node

    def captures(self, source: str, node: tree_sitter.Node | None = None) -> dict:
        """``{capture name: [nodes]}`` of a tree-sitter query over ``node`` (the root)."""
        cursor = tree_sitter.QueryCursor(query(self.dialect, source))
        return cursor.captures(self.root if node is None else node)

    def regions(self) -> list[tuple[int, int, str]]:
        """Every comment and string as ``(start, end, kind)`` character offsets in ``text``,
        sorted, not overlapping: comments (``//``, ``/* */``, ``<!--``, ``#!``), string
        literals, regular-expression literals and JSX text (``"string"``), template
        literals whose ``${…}`` insides are left as code (``${`` and ``}`` count as string,
        nested templates are strings again), and what a syntax error left unterminated: a
        quoted string (from its quote) or a template (from its backtick to the end)."""
        if self._regions is None:
            self._regions = self._lex()
        return self._regions

    def _lex(self) -> list[tuple[int, int, str]]:
        caps = self.captures(_LEX_QUERY)
        raw: list[tuple[int, int, str]] = []
        data = self.data
        for node in caps.get("node", ()):
            s, e, t = node.start_byte, node.end_byte, node.type
            if t in _COMMENT_TYPES:
                raw.append((s, e, _COMMENT))
            elif t != "template_string":
                raw.append((s, e, _STRING))
            else:
                at = s
                for sub in node.named_children:
                    if sub.type != "template_substitution":
                        continue
                    raw.append((at, sub.start_byte + 2, _STRING))
                    close = sub.end_byte
                    at = close - 1 if data[close - 1 : close] == b"}" else close
                raw.append((at, e, _STRING))
        for frag in caps.get("broken", ()):
            s = frag.start_byte
            if data[s - 1 : s] in (b"'", b'"'):
                s -= 1
            raw.append((s, frag.end_byte, _STRING))
        for tick in caps.get("tick", ()):  # an unterminated template runs to the end
            raw.append((tick.start_byte, len(data), _STRING))
        raw.sort()
        out: list[tuple[int, int, str]] = []
        end = 0
        for s, e, kind in raw:
            if e <= s or e <= end:
                continue
            s = max(s, end)
            out.append((self.char_offset(s), self.char_offset(e), kind))
            end = e
        return out


_cache: OrderedDict[tuple[str, str], JsTree] = OrderedDict()
_cache_lock = threading.Lock()


def _parse_as(text: str, data: bytes, dialect: str) -> JsTree | None:
    try:
        tree = _parser(dialect).parse(data)
    except (ValueError, RuntimeError, MemoryError):
        return None
    return JsTree(text, data, dialect, tree) if tree is not None else None


def parse(text: str, dialect: str | None = None, *, path: str | None = None) -> JsTree | None:
    """The tree of a JS/TS text, or None when it is not parsed (over ``MAX_PARSE_BYTES``,
    a ``path`` with no grammar such as ``.vue``, an unknown ``dialect``). The grammar is
    ``dialect``, else the one of ``path``, else guessed (see the module doc)."""
    if dialect is None and path is not None:
        dialect = dialect_for(path)
        if dialect is None:
            return None
    if dialect is not None and dialect not in DIALECTS:
        return None
    key = (dialect or "", text)
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
    if len(text) > MAX_PARSE_BYTES:
        return None
    data = text.encode("utf-8", "surrogatepass")
    if len(data) > MAX_PARSE_BYTES:
        return None
    if dialect is not None:
        tree = _parse_as(text, data, dialect)
    else:
        tree = first = _parse_as(text, data, "tsx")
        for other in ("typescript", "javascript"):
            if tree is None or not tree.has_error:
                break
            tree = _parse_as(text, data, other)
        if tree is None or tree.has_error:
            tree = first
    if tree is not None:
        with _cache_lock:
            _cache[key] = tree
            while len(_cache) > CACHE_TREES:
                _cache.popitem(last=False)
    return tree
