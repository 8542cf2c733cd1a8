"""Whether the checkout installs a package at the lowest version a release now needs
(``version_floor``).

The notes say the release needs another package at a version or newer ("prior to 15.3.0 is
no longer supported"). Each manifest of the checkout that declares that package is read with
its lock (the locked version, else the pinned one, else the range's lowest): one below the
floor is a hit at its declaration; one at or above it meets the need. A package no manifest
declares is a hit where the code imports it (its version is not known), and no use at all
when the code does not import it either.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from depbot import ecosystems
from depbot.core.errors import InputError, ToolError
from depbot.search.sites import ImportReport
from depbot.symbols.facts import SymbolHit, SymbolResult

__all__ = ["floor_uses"]


def floor_uses(code: Any, ecosystem: str, package: str, dep: str, floor: str,
               imports: ImportReport) -> SymbolResult:  # fmt: skip
    """Hits where the checkout installs ``dep`` below ``floor`` (or imports it undeclared)."""
    eco = ecosystems.get(ecosystem)
    need = eco.parse_version(floor) or eco.parse_version(f"{floor}.0")
    if need is None:
        raise ToolError(f"version_floor needs arg: a version such as '15.3.0', not {floor!r}")
    wanted = eco.canonical_name(dep)
    hits: list[SymbolHit] = []
    met: list[str] = []
    for rel in code.files():
        if not eco.is_manifest(Path(rel)):
            continue
        try:
            declared, _ = eco.read_manifest(code.root / rel, code.root, rel, (), None)
        except (InputError, OSError, ValueError):
            continue
        for d in declared:
            if eco.canonical_name(d.name) != wanted:
                continue
            at = d.installed or d.pinned or eco.lower_bound(d.spec)
            version = eco.parse_version(at) if at else None
            shown = f"{d.name} {d.spec}" + (f" (at {at})" if at and at != d.spec else "")
            if version is not None and not version < need:
                met.append(f"{d.manifest}: {shown}")
                continue
            why = (f"{d.manifest} installs {shown}, below the {floor} {package} now needs"
                   if version is not None else
                   f"{d.manifest} declares {shown}: whether it is {floor} or newer is not known")  # fmt: skip
            text = f"{d.name}: {d.spec}"
            evidence = "strong" if version is not None else "weak"
            hits.append(SymbolHit(d.manifest, d.line or 1, 1, text, "code", evidence, why))
    if not hits and not met:
        for s in imports.sites:  # imported, declared nowhere: its version is not known
            why = f"imports {dep}, which no manifest declares: whether it is {floor} or newer is not known"
            hits.append(SymbolHit(s.path, s.line, s.col, s.text, "code", "weak", why))
    if hits:
        note = f"{len(hits)} place(s) where {dep} may be below {floor}"
    elif met:
        note = f"{dep} meets {floor}: " + "; ".join(met[:4])
    else:
        note = f"this code neither declares nor imports {dep}"
    return SymbolResult(dep, "version_floor", hits, len(hits), False, {}, note)
