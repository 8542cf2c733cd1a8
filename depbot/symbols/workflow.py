"""A name searched in the workflows that use an action: the ``script:`` of its steps is code.

An action like ``actions/github-script`` runs the JavaScript a step gives in ``with:
script:``. A name the notes say is gone (``github.issues.createComment``) is searched there,
dots with any spacing, each match a strong hit at its workflow line; anywhere else in those
workflows (a comment, another step's shell) it is only text, counted apart. Nothing runs.
"""

from __future__ import annotations

import re

from depbot.ecosystems.github_actions.workflows import uses_in
from depbot.search.sites import ImportReport
from depbot.symbols.facts import SymbolHit, SymbolQuery, SymbolResult

MAX_HITS = 50


def name_pattern(symbol: str) -> re.Pattern[str]:
    """``a.b(...)`` → a regex of ``a . b`` as a whole dotted name."""
    core = re.sub(r"\((?:\.\.\.|…)?\)$", "", symbol.strip())
    parts = [re.escape(p) for p in core.split(".") if p]
    return re.compile(r"(?<![\w$.])" + r"\s*\.\s*".join(parts) + r"(?![\w$])")


def script_uses(report: ImportReport, texts: dict[str, str], query: SymbolQuery) -> SymbolResult:
    """The uses of ``query.symbol`` in the scripts of the steps that use the action."""
    rx = name_pattern(query.symbol)
    hits: list[SymbolHit] = []
    elsewhere = 0
    want = query.package.lower()
    for path in report.files:
        text = texts.get(path, "")
        try:
            steps, _ = uses_in(text)
        except ValueError:
            continue
        lines = text.splitlines()
        script_lines: set[int] = set()
        for step in steps:
            first, body = step.script
            if step.action.lower() == want and first:
                script_lines.update(range(first, first + body.rstrip("\n").count("\n") + 1))
        for i, line in enumerate(lines, start=1):
            for m in rx.finditer(line):
                if i not in script_lines:
                    elsewhere += 1
                    continue
                why = f"in the script of a step that uses {query.package}"
                hits.append(SymbolHit(path, i, m.start() + 1, line.strip()[:200], "code",
                                      "strong", why))  # fmt: skip
    excluded = {"outside a step's script": elsewhere} if elsewhere else {}
    return SymbolResult(query.symbol, query.kind, hits[:MAX_HITS], len(hits),
                        len(hits) > MAX_HITS, excluded)  # fmt: skip
