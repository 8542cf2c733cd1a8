"""Which searches the planner asks for one update, beyond one per candidate. Pure.

- A wildcard of the notes ("removed `safe*` functions") is expanded into the names of its
  family this checkout uses: those on its import sites and on the lines of one text search
  for the prefix (``notes.expand_wildcards``).
- When the notes name more candidates than the search budget holds (a major with a long
  list of rc and beta sections), one text search for all their names first (a few
  ``search_code`` calls of an alternation): a name that occurs nowhere in the checkout's
  text has no use there, so the budget goes to those that do, removals before
  behaviour changes, instead of to the first ones in changelog order.
"""

from __future__ import annotations

import re

from depbot.core.fence import unfence
from depbot.planner.notes import WILDCARD, wildcard_pattern
from depbot.planner.records import JSON, Candidate, Code, Pair, SearchResult
from depbot.symbols.match import SHAPE_KINDS

# kinds a search finds by the text of their name (the others: import sites, files)
TEXT_KINDS = frozenset(
    {"name", "parameter", "config_key", "positional", "behaviour", "required_arg",
     "literal_arg", "arg_kind", "signature", "async", "string_value"}
)  # fmt: skip
PATTERN_CHARS = 200  # search_code's pattern limit
_HIT_LINE = re.compile(r"^(h\d+) [^\n]{1,500}?:\d+: ([^\n]*)$", re.M)
_IDENT = re.compile(r"[A-Za-z_$][\w$]*(?:-[A-Za-z0-9_$]+)*")  # a name, kebab-case too


def leaf(cand: Candidate) -> str:
    """The name a text search for the candidate looks for: ``a.b(x)`` → ``b``."""
    return cand.symbol.split("(", 1)[0].rsplit(".", 1)[-1].strip()


def prefilter_patterns(cands: list[Pair]) -> list[str]:
    """Regexes (alternations of whole names) that together find every text candidate."""
    leaves = list(
        dict.fromkeys(
            leaf(c) for c, _ in cands if c.kind in TEXT_KINDS and _IDENT.fullmatch(leaf(c))
        )
    )
    out, part = [], []  # type: ignore[var-annotated]
    for name in leaves:
        trial = [*part, _literal(name)]
        if part and len(r"\b(?:" + "|".join(trial) + r")\b") > PATTERN_CHARS:
            out.append(r"\b(?:" + "|".join(part) + r")\b")
            trial = [_literal(name)]
        part = trial
    if part:
        out.append(r"\b(?:" + "|".join(part) + r")\b")
    return out


def _literal(name: str) -> str:
    """A name as a regex; a hyphen stays bare (literal outside a class), so the pattern's text
    still names a kebab-case key for the accounting (``agent.accounting.names_in``)."""
    return re.escape(name).replace("\\-", "-")


def words_in(results: list[SearchResult]) -> set[str] | None:
    """The identifiers on the lines the text searches found; None when a result cannot say
    (cut short, or read back in its compact form without its lines)."""
    words: set[str] = set()
    for res in results:
        if res.blank or res.compacted or res.truncated:
            return None
        if res.total > len(res.hits):
            return None
        for m in _HIT_LINE.finditer(unfence(res.lines)):
            for word in _IDENT.findall(m.group(2)):  # `a-b` in code is two names too
                words.update((word, *word.split("-")))
    return words


def _rank(cands: list[Pair], first: frozenset[str] = frozenset()) -> list[Pair]:
    """Removals first (a name, an argument, a key gone), behaviour changes last; within each,
    the items of the releases in ``first`` (each new major, the target) before the rest, and
    among those a call's shape (its arguments, its await) before a bare name: a guide lists
    many names, and a shape is the one test of a call the code may well make."""
    wanted = {_short(v) for v in first}
    return sorted(
        cands,
        key=lambda ce: (
            ce[0].kind == "behaviour",
            _short(ce[1].version) not in wanted,
            ce[0].kind not in _SHAPE_FIRST,
        ),
    )


# the search's shape kinds, an await among them; a parameter is a key of an options object,
# searched as a name is
_SHAPE_FIRST = (SHAPE_KINDS - {"parameter"}) | {"async"}


def _short(version: str | None) -> str:
    """``v6.0.0`` and ``6.0`` alike: a heading's version and a published one compare."""
    text = (version or "").strip().lstrip("vV")
    while text.endswith(".0"):
        text = text[:-2]
    return text


def within_budget(
    cands: list[Pair],
    code: Code,
    done: list[JSON],
    package: str,
    cap: int,
    can_search_text: bool,
    first: frozenset[str] = frozenset(),
) -> tuple[list[Pair], list[JSON], bool]:
    """(the candidates to search, the text searches to ask first, whether one is pending);
    over the cap, the items of the releases in ``first`` are searched before the others."""
    if len(cands) <= cap:
        return cands, [], False
    if not can_search_text:
        return _rank(cands, first)[:cap], [], False
    pats = prefilter_patterns(cands)
    asks = [{"pattern": p, "regex": True} for p in pats if p not in code]
    got = [code.get(p) for p in pats]
    answered = [r for r in got if r is not None]
    if asks or len(answered) < len(got):
        return [], asks, not asks
    words = words_in(answered)
    if words is None:
        if any(r.compacted for r in answered) and done:
            # read back compact: the choice was made when the lines were there
            return [ce for ce in cands if ce[0].search_args(package) in done], [], False
        return _rank(cands, first)[:cap], [], False
    # a name the prefilter could not look for stays to be searched
    kept = [ce for ce in cands if ce[0].kind not in TEXT_KINDS or leaf(ce[0]) in words
            or not _IDENT.fullmatch(leaf(ce[0]))]  # fmt: skip
    return _rank(kept, first)[:cap], [], False


def wildcard_asks(
    cands: list[Pair], code: Code, imported_asked: bool, imported_pending: bool,
    can_search_text: bool,
) -> tuple[list[JSON], bool]:  # fmt: skip
    """The text searches the wildcards of the notes still need, and whether an answer the
    expansion waits for is pending."""
    wild = list(dict.fromkeys(c.symbol for c, _ in cands if WILDCARD.match(c.symbol)))
    if not wild:
        return [], False
    asks = []
    if can_search_text:
        asks = [
            {"pattern": wildcard_pattern(w), "regex": True}
            for w in wild
            if wildcard_pattern(w) not in code
        ]
    pending = (
        not imported_asked
        or imported_pending
        or any(wildcard_pattern(w) in code and code[wildcard_pattern(w)] is None for w in wild)
    )
    return asks, pending


def unasked_note(n: int, code: Code) -> str:
    """What the reason says of the candidates not searched."""
    if any(p.startswith(r"\b(?:") for p in code):
        return f"; {n} other name(s) the notes list occur nowhere in this checkout's text"
    return f"; {n} other name(s) the notes list were past the search budget and not searched"
