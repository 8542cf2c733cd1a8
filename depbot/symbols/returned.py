"""The reads of a member on what a function returns (``returned_member``). Pure: the names
the checkout uses (``symbols.used``) and the importing files' text in, hits out.

``const { remove } = useQuery(…)`` and ``const q = useQuery(…)`` then ``q.remove`` are
uses (strong): the names ``pkg:useQuery().remove`` say so. Where the result goes on
(``return useQuery(…)`` from a custom hook, ``<Child query={q} />``, ``save(q)``, ``...q``),
the reads may happen elsewhere: a weak hit there to verify, never a silent clear.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from depbot.records.api import UsedName
from depbot.symbols.facts import SymbolHit, SymbolResult
from depbot.symbols.used import line_col, line_of

WEAK_WHY = "what `{maker}()` returns goes on from here; a read of `{member}` may follow"


def _passed_on(text: str, maker: str) -> list[int]:
    """Offsets where a result of ``maker()`` leaves the view of the names: returned, or a
    variable holding it used other than by a member read."""
    call = rf"{re.escape(maker)}\s*(?:<[^;()]*>)?\("
    out = [m.start() for m in re.finditer(rf"(?:\breturn\s+|=>\s*\(?\s*)(?:await\s+)?{call}", text)]
    for m in re.finditer(
        rf"(?<![\w$.])(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:await\s+)?{call}", text
    ):
        local = m.group(1)
        for use in re.finditer(rf"(?<![\w$.]){re.escape(local)}(?![\w$])", text[m.end() :]):
            at = m.end() + use.start()
            after = text[at + len(local) : at + len(local) + 3]
            if not re.match(r"\s*\??\.|\s*=(?!=)", after):  # not `q.x`, not `q = …`
                out.append(at)
    return out


def returned_member_uses(
    used: list[UsedName], texts: Mapping[str, str], maker: str, member: str
) -> SymbolResult:
    """The places that read ``member`` on what ``maker()`` returns (strong), and those where
    such a result goes on (weak)."""
    wanted = (f"{maker}().{member}", f"new {maker}().{member}")
    hits: list[SymbolHit] = []
    why = f"reads `{member}` of what `{maker}()` returns"
    for u in used:
        tail = u.name.split(":", 1)[-1]
        if tail in wanted or tail.endswith(tuple("." + w for w in wanted)):
            for path, line, col, text in [(u.path, u.line, u.col, u.text), *u.also]:
                text = text or line_of(texts.get(path, "").splitlines(), line)
                hits.append(SymbolHit(path, line, col, text, "code", "strong", why))
    seen = {(h.path, h.line) for h in hits}
    weak = WEAK_WHY.format(maker=maker, member=member)
    for path, text in sorted(texts.items()):
        for at in _passed_on(text, maker):
            line, col = line_col(text, at)
            if (path, line) not in seen:
                seen.add((path, line))
                hits.append(
                    SymbolHit(
                        path, line, col, line_of(text.splitlines(), line), "code", "weak", weak
                    )
                )
    note = "" if hits else f"no read of `{member}` on what `{maker}()` returns"
    return SymbolResult(maker, "returned_member", hits, len(hits), False, {}, note)
