"""A string value the release no longer accepts (``string_value``): "`horizontalBar` chart
type was removed", "the `legacy` mode is no longer supported". Code passes such a value as a
string literal, often far from any import of the package (a chart's config object in a data
module, a setting in a config file), so the literal is the use: each whole string literal
equal to the value is a hit. The value's distinctiveness is the confidence: a camelCase,
kebab-, snake-, dotted or slashed value of six characters or more is a strong use; a plain word
(`bar`, `line`) is weak: one to check (the update stays unknown), never a break on its own
and never set aside. Comments are set aside.
"""

from __future__ import annotations

import re
from typing import Any

from depbot.core.errors import ToolError
from depbot.symbols.callshape import WEAK_USE
from depbot.symbols.facts import SymbolHit, SymbolResult

_MAX_HITS = 20
_VALUE = re.compile(r"[A-Za-z@][\w.:/@-]{1,100}")  # `prettier/@typescript-eslint` too


def distinctive(value: str) -> bool:
    """Whether a string value is unlikely to mean anything else: six characters or more,
    with an inner capital or a separator (``horizontalBar``, ``ip-address``, ``v1.legacy``)."""
    return len(value) >= 6 and bool(re.search(r"[a-z][A-Z]|[A-Za-z0-9][-_.:/]@?[A-Za-z0-9]", value))


def string_value_uses(code: Any, value: str) -> SymbolResult:
    """The checkout's string literals whose whole text is ``value``."""
    if not _VALUE.fullmatch(value):
        raise ToolError(f"{value!r} is not a string value to look for (e.g. 'horizontalBar')")
    pattern = rf"""(['"`]){re.escape(value)}\1"""
    found = code.search_code(rf"""['"`]{re.escape(value)}['"`]""", regex=True,
                             max_hits=_MAX_HITS * 2)  # fmt: skip
    strong = distinctive(value)
    hits: list[SymbolHit] = []
    excluded: dict[str, int] = {}
    for h in found.hits:
        if h.context == "comment" or not re.search(pattern, h.text):
            why = "a comment" if h.context == "comment" else "not the whole string"
            excluded[why] = excluded.get(why, 0) + 1
            continue
        why = (  # a plain word may mean something else here: a use to check, never set aside
            f"passes the string '{value}'"
            if strong
            else f"{WEAK_USE}: passes the string '{value}', a plain word that may mean another thing"
        )
        hits.append(SymbolHit(h.path, h.line, h.col, h.text, "code",
                              "strong" if strong else "weak", why))  # fmt: skip
    return SymbolResult(
        value, "string_value", hits[:_MAX_HITS], len(hits), len(hits) > _MAX_HITS, excluded,
        "" if hits else f"no string literal '{value}' in the checkout",
    )  # fmt: skip
