"""Whether the checkout installs a package at the lowest version a release now needs
(``version_floor``).

The notes say the release needs another package at a version or newer ("prior to 15.3.0 is
no longer supported"). Each manifest of the checkout that declares that package is read with
its lock (the locked version, else the pinned one, else the range's lowest): one below the
floor is a hit at its declaration; one at or above it meets the need; none below it and
one whose version cannot be told (``"latest"``, a tag), or a package no manifest declares that
the code imports, is a search that could not answer (``ToolError``: the update stays
unknown, never safe). A package no manifest declares may still be installed, brought by
another package: what the lock files install of it is read the same way. One the code
neither declares, imports nor has in a lock is no use at all.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from depbot import ecosystems
from depbot.core.confine import refusal
from depbot.core.errors import InputError, ToolError
from depbot.search.sites import ImportReport
from depbot.symbols.callshape import WEAK_USE
from depbot.symbols.facts import SymbolHit, SymbolResult

__all__ = ["floor_uses"]


def floor_uses(code: Any, ecosystem: str, package: str, dep: str, floor: str,
               imports: ImportReport, uses: ImportReport | None = None) -> SymbolResult:  # fmt: skip
    """Hits where the checkout installs ``dep`` below ``floor`` (or imports it undeclared);
    with such a hit, each place the code loads ``package`` (``uses``) is one too: there the
    release meets the ``dep`` it cannot work with (`app.use(logger())` on koa 1)."""
    eco = ecosystems.get(ecosystem)
    need = eco.parse_version(floor) or eco.parse_version(f"{floor}.0")
    if need is None:
        raise ToolError(f"version_floor needs arg: a version such as '15.3.0', not {floor!r}")
    wanted = eco.canonical_name(dep)
    secrets = tuple(code.settings.secret_files)
    hits: list[SymbolHit] = []
    met: list[str] = []
    untold: list[str] = []
    for rel in code.files():
        if not eco.is_manifest(Path(rel)) or refusal(code.root, rel, secrets):
            continue  # as the manifest scan: never a link out of the checkout or a secret
        try:
            declared, warnings = eco.read_manifest(code.root / rel, code.root, rel, secrets, None)
        except (InputError, OSError, ValueError):
            continue
        # a declaration the reader skipped ('latest', a git URL): declared, version untold
        untold += [w for w in warnings if re.search(rf"\bskipped {re.escape(dep)}\b", w, re.I)]
        for d in declared:
            if eco.canonical_name(d.name) != wanted:
                continue
            at = d.installed or d.pinned or eco.lower_bound(d.spec)
            version = eco.parse_version(at) if at else None
            shown = f"{d.name} {d.spec}" + (f" (at {at})" if at and at != d.spec else "")
            if version is None:
                untold.append(f"{d.manifest} declares {shown}")
            elif version < need:
                why = f"{d.manifest} installs {shown}, below the {floor} {package} now needs"
                hits.append(SymbolHit(d.manifest, d.line or 1, 1, f"{d.name}: {d.spec}", "code",
                                      "strong", why))  # fmt: skip
            else:
                met.append(f"{d.manifest}: {shown}")
    if not hits and not met and not untold:  # no manifest declares it: another package may
        for lock, version in _brought(code, eco, dep, secrets):  # bring it, as its lock says
            v = eco.parse_version(version)
            if v is None or v < need:  # the release may meet it: whether it does, not told
                untold.append(f"{lock} installs {dep} {version}, which another package brings")
            else:
                met.append(f"{lock}: {dep} {version}")
    if not hits and not met and not untold and imports.sites:
        site = imports.sites[0]
        untold.append(f"{site.path}:{site.line} imports {dep}, which no manifest declares")
    if untold and not hits:
        raise ToolError(f"whether {dep} is {floor} or newer cannot be told: {untold[0]}")
    if hits:
        note = f"{len(hits)} place(s) where {dep} may be below {floor}"
        live = [s for s in (uses.sites if uses is not None else []) if not s.type_only]
        why = f"loads {package}, which now needs {dep} {floor} or newer"
        if uses is not None and not live:  # nothing here loads the release (a commented-out
            # require, or a tool that loads it by name): whether it meets the old dep is open
            hits = [replace(h, evidence="weak", why=f"{WEAK_USE}: {h.why}; nothing in this "
                            f"checkout imports {package}") for h in hits]  # fmt: skip
        hits += [SymbolHit(s.path, s.line, s.col, s.text, "code", "strong", why) for s in live]
    elif met:
        note = f"{dep} meets {floor}: " + "; ".join(met[:4])
    else:
        note = f"this code neither declares nor imports {dep}"
    return SymbolResult(dep, "version_floor", hits, len(hits), False, {}, note)


def _brought(code: Any, eco: Any, dep: str, secrets: tuple[str, ...]) -> list[tuple[str, str]]:
    """(lock file, version) for each version of ``dep`` a lock of the checkout installs."""
    out = []
    for rel in code.files():
        if rel.rsplit("/", 1)[-1] not in eco.lock_files or refusal(code.root, rel, secrets):
            continue
        try:
            text = (code.root / rel).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        out += [(rel, v) for v in sorted(eco.locked(rel, text, dep))]
    return out
