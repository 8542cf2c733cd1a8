"""What a module of the checkout exports that the package made. Pure: one file's text in.

``export const Rules = struct([Rule])``, ``module.exports = new I18n({…})``, ``export default
createMiddleware(root)``, or a variable that holds what the package made and is exported
afterwards (``export { store }``, ``module.exports = store``, ``exports.store = store``): a
module that imports that export holds what the package made (TAPIR's values followed
through module exports, one module on). ``search.SymbolSearch`` finds the importers.
"""

from __future__ import annotations

import re

from depbot.symbols.used import MADE, member_calls, own_calls

WHOLE = "="  # `module.exports = <made>`: the module itself is what the package made

# right before a call: the statement exports what it makes
_HEAD = re.compile(
    r"(?:(?<![\w$.])export\s+(?:const|let|var)\s+(?P<named>[A-Za-z_$][\w$]*)\s*="
    r"|(?<![\w$.])export\s+default(?P<default>)"
    r"|(?<![\w$.])module\.exports(?:\.(?P<cjs>[A-Za-z_$][\w$]*))?\s*="
    r"|(?<![\w$.])exports\.(?P<member>[A-Za-z_$][\w$]*)\s*=)\s*(?:await\s+)?$"
)
_LISTED = re.compile(r"(?<![\w$.])export\s*\{([^{}]{0,2000})\}(?!\s*from\b)")
_OBJECT = re.compile(r"(?<![\w$.])module\.exports\s*=\s*\{([^{}]{0,2000})\}")


def exported_made(text: str, local: str, imported: str) -> list[tuple[str, str]]:
    """``(export, made)`` for each value a call of ``local`` made that the module exports.
    ``local`` is bound to the package's ``imported``: a name (``struct(…)`` makes
    ``struct()``), ``default`` (``new default()``) or ``*``, the module object
    (``lib.create(…)`` makes ``create()``). ``export`` is the name it is exported as,
    ``default``, or ``WHOLE`` for ``module.exports = …``."""
    if imported == "*":
        calls = [(at, f"{made}()") for at, made in member_calls(text, local)]
    else:
        calls = [(at, f"{'new ' if new else ''}{imported}()") for at, new in own_calls(text, local)]
    out: list[tuple[str, str]] = []
    for at, made in calls:
        start = max(0, at - 120)
        head = _HEAD.search(text, start, at)
        if head is not None:
            out.append((_export_name(head), made))
            continue
        held = MADE.search(text, start, at)  # `const store = create(…)`, exported later
        if held is not None:
            out += [(name, made) for name in exported_as(text, held.group(1))]
    return list(dict.fromkeys(out))


def _export_name(head: re.Match[str]) -> str:
    if head.group("default") is not None:
        return "default"
    return head.group("named") or head.group("cjs") or head.group("member") or WHOLE


def exported_as(text: str, var: str) -> list[str]:
    """The names the module exports the variable ``var`` as: ``export default var``,
    ``module.exports = var`` (``WHOLE``), ``exports.x = var``, ``export { var as x }``,
    ``module.exports = { x: var }``."""
    v = re.escape(var)
    out = []
    if re.search(rf"(?<![\w$.])export\s+default\s+{v}\s*(?:;|$)", text, re.M):
        out.append("default")
    if re.search(rf"(?<![\w$.])module\.exports\s*=\s*{v}\s*(?:;|$)", text, re.M):
        out.append(WHOLE)
    member = rf"(?<![\w$.])(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=\s*{v}\s*(?:;|$)"
    out += [m.group(1) for m in re.finditer(member, text, re.M)]
    for m in _LISTED.finditer(text):
        for part in m.group(1).split(","):
            name, _, alias = part.strip().partition(" as ")
            if name.strip() == var:
                out.append((alias or name).strip())
    for m in _OBJECT.finditer(text):
        for part in m.group(1).split(","):
            key, _, value = part.partition(":")
            if (value or key).strip() == var and re.fullmatch(r"\s*[A-Za-z_$][\w$]*\s*", key):
                out.append(key.strip())
    return list(dict.fromkeys(out))


def bound(export: str, made: str, names: dict[str, str]) -> dict[str, str]:
    """What an import of the exporting module (``names``: local → imported) binds to what
    the package made: the value itself (``{Rules: "struct()"}``) or, when the module is the
    value (``WHOLE``), a member of it (``const { t } = require('./i18n')``: ``new
    default().t``)."""
    out = {}
    for local, imported in names.items():
        if imported == export or (export == WHOLE and imported in ("*", "default")):
            out[local] = made
        elif export == WHOLE and imported not in ("*", "default"):
            out[local] = f"{made}.{imported}"
    return out
