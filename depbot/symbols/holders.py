"""What a module of the checkout hands on from the package through a class of its own. A
service holds what the package made (``const pubsub = new PubSub()`` and ``get pubsub() {
return pubsub; }``, or ``readonly client = new Client()``, in ``export class PubsubService``);
the modules that take the service read that member's members
(``this.pubsubService.pubsub.asyncIterator(…)``, with ``pubsubService: PubsubService``
typed or ``new PubsubService()`` made). TAPIR's values followed through properties, one
module on. ``returned_by`` reads what a service's method hands out (``swalCustom = () => {
return sweet; }``), for a receiver ``this.alertService.swalCustom()``. Pure: text in, names out.
"""

from __future__ import annotations

import re

from depbot.symbols.javascript import closing_brace

__all__ = ["held", "reads", "returned_by"]

_ID = r"[A-Za-z_$][\w$]*"
_MODS = r"(?:(?:public|private|protected|readonly|static|declare)\s+)*"


def held(text: str, makers: dict[str, str]) -> dict[tuple[str, str], str]:
    """(exported class, member) → maker (``pkg:new PubSub``) for each member of a class
    ``text`` exports that holds what one of ``makers`` (local name → maker) made: a getter
    returning a module-level const so made, a property or a ``this.x`` so assigned."""
    consts = {
        m.group(1): makers[m.group(2)]
        for m in re.finditer(rf"(?<![\w$.])(?:const|let|var)\s+({_ID})\s*(?::[^=;]+)?=\s*new\s+({_ID})\s*[(<]", text)
        if m.group(2) in makers
    }  # fmt: skip
    out: dict[tuple[str, str], str] = {}
    for c in re.finditer(rf"\bexport\s+(?:default\s+)?class\s+({_ID})[^{{;]*\{{", text):
        body = text[c.end() : closing_brace(text, c.end() - 1)]
        fields: dict[str, str] = {}
        for f in re.finditer(
            rf"(?:^|[;{{}}\s]){_MODS}({_ID})\s*(?::[^=;()]+)?=\s*new\s+({_ID})\s*[(<]", body
        ):
            if f.group(2) in makers:
                fields[f.group(1)] = makers[f.group(2)]
        for f in re.finditer(rf"\bthis\.({_ID})\s*=\s*new\s+({_ID})\s*[(<]", body):
            if f.group(2) in makers:
                fields[f.group(1)] = makers[f.group(2)]
        for f in re.finditer(
            rf"(?:^|[;{{}}\s]){_MODS}({_ID})\s*(?::[^=;()]+)?=\s*({_ID})\s*;", body
        ):
            if f.group(2) in consts:
                fields[f.group(1)] = consts[f.group(2)]
        for g in re.finditer(
            rf"\bget\s+({_ID})\s*\(\s*\)\s*(?::[^{{]+)?\{{\s*return\s+(this\.)?({_ID})\s*;?\s*\}}",
            body,
        ):
            maker = fields.get(g.group(3)) if g.group(2) else consts.get(g.group(3))
            if maker:
                fields[g.group(1)] = maker
        for member, maker in fields.items():
            out[(c.group(1), member)] = maker
    return out


def reads(text: str, cls: str, member: str) -> list[tuple[int, str]]:
    """(offset, name) of each ``<holder>.<member>.<name>`` in ``text``, a holder being a name
    typed ``cls`` (a constructor's parameter property, a field, a variable) or made by
    ``new cls()``."""
    name = re.escape(cls)
    holders = {
        m.group(1) for m in re.finditer(rf"({_ID})\s*[?!]?\s*:\s*{name}\b(?!\s*[.<\[])", text)
    }
    holders |= {m.group(1) for m in re.finditer(rf"({_ID})\s*=\s*new\s+{name}\s*\(", text)}
    out = []
    for h in sorted(holders):
        pattern = rf"(?<![\w$.])(?:this\.)?{re.escape(h)}\??\.{re.escape(member)}\??\.({_ID})"
        out += [(m.start(), m.group(1)) for m in re.finditer(pattern, text)]
    return sorted(out)


def returned_by(text: str, cls: str, member: str) -> str | None:
    """What the method ``member`` of class ``cls`` in ``text`` returns, as written (``sweet``
    of ``swalCustom = () => { return sweet; }``, of ``swalCustom() { return sweet; }``, of a
    getter, or of an arrow with an expression body); None when the class or the member is not
    found, or the method returns more than one thing."""
    c = re.search(rf"\bclass\s+{re.escape(cls)}\b[^{{;]*\{{", text)
    if c is None:
        return None
    body = text[c.end() : closing_brace(text, c.end() - 1)]
    name = re.escape(member)
    pattern = (
        rf"(?:^|[;{{}}\s]){_MODS}(?:async\s+)?(?:get\s+)?{name}\s*(?:=\s*(?:async\s*)?)?"
        rf"\([^()]*\)\s*(?::[^{{=;]+)?(=>)?\s*(\{{)?"
    )
    # the definition: a header with a body or an arrow (a call of it, `name();`, has neither)
    m = next((d for d in re.finditer(pattern, body) if d.group(1) or d.group(2)), None)
    if m is None:
        return None
    if m.group(2) is None:  # `name = () => sweet;`: an expression body
        expr = re.match(r"\s*([^;\n]+)", body[m.end() :])
        return expr.group(1).strip() if expr and _balanced(expr.group(1)) else None
    block = body[m.end() : closing_brace(body, m.end() - 1)]
    returns = re.findall(r"\breturn\s+([^;\n]+?)\s*;?\s*(?:\n|$)", block)
    if len(set(returns)) != 1 or not _balanced(returns[0]):
        return None  # several values, or one written over lines (`return sweet.fire({`)
    return returns[0].strip()


def _balanced(expr: str) -> bool:
    return all(expr.count(a) == expr.count(b) for a, b in ("()", "[]", "{}"))
