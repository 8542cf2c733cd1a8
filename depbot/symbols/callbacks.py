"""The calls of a package's whole API that pass a callback (``callback_arg``).

"remove callback support" names no method: every call of the package's API, on the package
or on an object it made, that passes a callback breaks. The methods are those the code
calls with a callback on one line; ``Matcher`` then judges each at every call, by its
receiver's binding and the shape of its last argument (``callshape._callback_passed``).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from depbot import ecosystems
from depbot.core.errors import ToolError
from depbot.symbols.facts import SCAN_LIMIT, SymbolHit, SymbolQuery, SymbolResult
from depbot.symbols.match import Matcher

__all__ = ["callback_calls"]

MAX_CALLBACK_METHODS = 30  # methods judged for a package-wide callback removal
# `.findOne(q, (err, r) =>`, `.connect(function (err) {`, `.get(key, callback)`: a method called
# with a callback on its first line
_CALLBACK_CALL = re.compile(
    r"\.\s*([A-Za-z_$][\w$]*)\s*\((?:[^()]|\([^()]*\))*?(?:=>|\bfunction\b|\b(?:cb|callback)\b)"
)


def callback_calls(owner: Any, query: SymbolQuery) -> SymbolResult:
    """``callback_arg``: the calls of the package's API, on the package or on an object it
    made, that pass a function as their last argument ("remove callback support"). The
    methods are those the code calls with a callback on one line (``x.findOne(q, (err,
    r) => …``); each is then judged at every call, as ``search_symbol`` judges a name."""
    eco = ecosystems.get(query.ecosystem)
    if eco.language != "javascript":
        raise ToolError("callback_arg reads JavaScript and TypeScript code")
    leaves: dict[str, int] = {}
    for glob in eco.source_globs:
        try:
            res = owner.code.search_code(
                _CALLBACK_CALL.pattern, regex=True, path_glob=glob, max_hits=SCAN_LIMIT
            )
        except ToolError:
            continue
        for h in res.hits:
            for m in _CALLBACK_CALL.finditer(h.text):
                leaves[m.group(1)] = leaves.get(m.group(1), 0) + 1
    hits: list[SymbolHit] = []
    excluded: dict[str, int] = {}
    seen = 0
    names = sorted(leaves, key=lambda n: -leaves[n])[:MAX_CALLBACK_METHODS]
    for leaf in names:
        got = Matcher(owner, replace(query, symbol=leaf)).run()
        seen += got.total
        hits += [h for h in got.hits if h.evidence == "strong"]
        for why, n in got.excluded.items():
            excluded[why] = excluded.get(why, 0) + n
    hits.sort(key=lambda h: (h.path, h.line))
    methods = sorted({h.text.split("(")[0].rsplit(".", 1)[-1].strip() for h in hits})
    note = (
        f"{len(hits)} call(s) of {query.package}'s API passing a callback"
        + (f" ({', '.join(methods[:6])})" if methods else "")
        + f", among {seen} line(s) calling {len(names)} method(s) with one"
    )
    return SymbolResult(query.symbol, "callback_arg", hits, len(hits), False, excluded, note)
