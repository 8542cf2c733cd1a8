"""The options the checkout passes a package whose new release refuses them
(``options_outside``): the keys of the options object beside a string that names the
package in a build configuration (``{ loader: 'less-loader', options: { modifyVars } }``,
``['some-plugin', { key }]``), or passed to its module object (``new Plugin({ key })``),
that the new release's options schema does not list (``only=a|b|c``) or that it removed
(``not=x|y``). A spread or a variable for the options may hold any: a weak hit.

``any`` (the notes reshape the options as a whole, ``options_given``): every option given is
one to verify (weak), as is a query string (``'pkg?opt'``) and an import in code whose names
are used otherwise than called with nothing; code that gives the package no options at all
has no hit. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from depbot.core.errors import ToolError
from depbot.search.lexical import STRING
from depbot.search.sites import ImportReport
from depbot.symbols.facts import SymbolHit, SymbolResult
from depbot.symbols.javascript import keys_at, offsets
from depbot.symbols.jsnamed import options_beside
from depbot.symbols.required import one_glob, spec_pattern
from depbot.symbols.used import line_of

__all__ = ["outside_options"]

_MAX_HITS = 20


def _refused(arg: str) -> Callable[[str], bool]:
    if arg == "any":
        return lambda key: True
    how, _, names = arg.partition("=")
    listed = {n for n in names.split("|") if n}
    if how == "only" and listed:
        return lambda key: key not in listed
    if how == "not" and listed:
        return lambda key: key in listed
    raise ToolError("options_outside needs arg only=a|b|c or not=x|y")


def outside_options(
    code: Any, rep: ImportReport, package: str, arg: str, globs: tuple[str, ...],
    text_of: Callable[[str], str],
) -> SymbolResult:  # fmt: skip
    """Hits at each option key the checkout passes ``package`` that ``arg`` refuses."""
    refused = _refused(arg)
    verify = arg == "any"  # options reshaped: every option given is to verify, none a break
    rule = "its options schema does not list" if arg.startswith("only") else "it no longer takes"
    if verify:
        rule = "its notes reshape: verify them"
    hits: list[SymbolHit] = []
    queries: list[tuple[str, int]] = []
    objects: list[tuple[str, int, tuple[tuple[str, int], ...] | None]] = []  # path, at, keys
    for g in one_glob(globs):
        found = code.search_code(spec_pattern(package), regex=True, path_glob=g, max_hits=50)
        for h in found.hits:
            if h.context != STRING:
                continue
            text = text_of(h.path)
            at = offsets(text)[h.line - 1] + max(h.col - 1, 0)
            keys = options_beside(text, at)
            if keys is not None:
                objects.append((h.path, at, keys))
            if verify and re.match(rf"""['"`]{re.escape(package)}\?""", text[at:]):
                queries.append((h.path, h.line))  # 'pkg?opt': options in a query string
    for site in rep.sites:
        if site.type_only:
            continue
        text = text_of(site.path)
        for local, imported in site.names.items():
            if imported in ("default", "*") and re.fullmatch(r"[A-Za-z_$][\w$]*", local):
                objects += [(site.path, at, keys) for at, keys in _passed_to(text, local)]
        if verify and site.style != "config" and _may_give(text, site.names):
            queries.append((site.path, site.line))
    refused_at: dict[tuple[str, int], list[str]] = {}

    def hit(path: str, line: int, evidence: str, why: str) -> SymbolHit:
        return SymbolHit(path, line, 1, line_of(text_of(path).split("\n"), line), "code",
                         evidence, why)  # fmt: skip

    for path, at, keys in objects:
        text = text_of(path)
        if keys == ():  # the options are a variable or a call: any key may be in them
            why = f"may be a use: options given to {package} are built elsewhere; {rule} some"
            hits.append(hit(path, text.count("\n", 0, at) + 1, "weak", why))
            continue
        for key, offset in keys:
            line = text.count("\n", 0, offset) + 1
            if key == "...":
                why = f"may be a use: options spread into {package}'s from elsewhere"
                hits.append(hit(path, line, "weak", why))
            elif refused(key):
                refused_at.setdefault((path, line), []).append(key)
    for (path, line), keys in refused_at.items():
        names = ", ".join(dict.fromkeys(keys))
        said = f"passes {package} the option(s) {names}, which {rule}"
        if verify:
            hits.append(hit(path, line, "weak", f"may be a use: {said}"))
        else:
            hits.append(hit(path, line, "strong", said))
    for path, line in queries:
        hits.append(hit(path, line, "weak", f"may be a use: {package} is used here in a way "
                        f"that may give it options, which {rule}"))  # fmt: skip
    hits = sorted(
        {(h.path, h.line, h.evidence): h for h in hits}.values(), key=lambda h: (h.path, h.line)
    )
    strong = sum(h.evidence == "strong" for h in hits)
    given = f"{len(objects)} options object(s) given to it"
    note = (f"{len(hits)} place(s) that give {package} options to verify, among {given}"
            if verify else f"{strong} option(s) {package} refuses now, among {given}")  # fmt: skip
    kind = "options_given" if verify else "options_outside"
    return SymbolResult(package, kind, hits[:_MAX_HITS], len(hits), len(hits) > _MAX_HITS, {},
                        note)  # fmt: skip


def _passed_to(text: str, local: str) -> list[tuple[int, tuple[tuple[str, int], ...]]]:
    """The options object literals given to ``local(…)`` / ``new local(…)`` first."""
    out = []
    for m in re.finditer(rf"(?<![\w$.])(?:new\s+)?{re.escape(local)}\s*\(\s*(?=\{{)", text):
        keys = keys_at(text, m.end())
        if keys is not None:
            out.append((m.end(), keys))
    return out


def _may_give(text: str, names: dict[str, str]) -> bool:
    """Whether an import binds names its file uses otherwise than called or constructed with
    nothing (``new Plugin()``): any other use may give the package options."""
    if not names or "*" in names:
        return True
    for local in names:
        uses = len(re.findall(rf"(?<![\w$.]){re.escape(local)}(?![\w$])", text))
        bare = len(re.findall(rf"(?<![\w$.])(?:new\s+)?{re.escape(local)}\s*\(\s*\)", text))
        if uses - bare > 1:  # the import itself names it once
            return True
    return False
