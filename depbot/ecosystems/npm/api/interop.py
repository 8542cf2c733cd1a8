"""What a default import of a CommonJS entry gets. Pure (reads one unpacked file).

``import tar from 'tar'`` compiled by TypeScript (``esModuleInterop``), Babel or a bundler
runs ``require('tar')`` and takes its ``default`` only when the module marks itself an ES
module (``exports.__esModule = true``, what a transpiler writes); otherwise the default is
the whole module object. So a release whose CommonJS entry had no such mark gave a default
import the module object, and a new one that marks itself without setting ``exports.default``
gives it ``undefined``: ``tar.c(…)`` throws, though every name is still exported.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["module_object_is_default"]

# the mark, however a transpiler writes it: `Object.defineProperty(exports, "__esModule", { value:
# true })`, esbuild's `__defProp({}, "__esModule", { value: true })`, `exports.__esModule = !0`
_MARK = re.compile(
    r"""['"]__esModule['"]\s*,\s*\{\s*value\s*:\s*(?:true|!0)"""
    r"""|\b__esModule\s*=\s*(?:true|!0)|\[\s*['"]__esModule['"]\s*\]\s*=\s*(?:true|!0)"""
)
_ESM_SYNTAX = re.compile(r"^\s*(?:export\s|import\s+[\w{*'\"])", re.M)
_COMMONJS = re.compile(r"\bmodule\.exports\b|(?<![\w$.])exports\.[A-Za-z_$]")
MAX_BYTES = 2_000_000


# `module.exports = require('./lib.cjs.production.min.js')`: the module object is that file's
_HANDED_ON = re.compile(r"""\bmodule\.exports\s*=\s*require\(\s*['"](\.{1,2}/[^'"]+)['"]\s*\)""")
MAX_DEPTH = 3


def module_object_is_default(entry: Path, depth: int = 0) -> bool:
    """Whether a default import of the CommonJS file ``entry`` gets its module object: the
    file writes CommonJS exports and never marks itself ``__esModule`` (nor does any file
    it hands its module object on from)."""
    try:
        if entry.stat().st_size > MAX_BYTES:
            return False
        text = entry.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    if _ESM_SYNTAX.search(text) or _MARK.search(text):
        return False
    handed = _HANDED_ON.findall(text)
    if handed:  # each file it may hand on decides; one not found: not known, so no
        targets = [_resolve(entry.parent, spec) for spec in handed]
        return depth < MAX_DEPTH and all(
            t is not None and module_object_is_default(t, depth + 1) for t in targets
        )
    return bool(_COMMONJS.search(text))


def _resolve(folder: Path, spec: str) -> Path | None:
    for candidate in (spec, f"{spec}.js", f"{spec}.cjs", f"{spec}/index.js"):
        path = folder / candidate
        if path.is_file():
            return path
    return None
