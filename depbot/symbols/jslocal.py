"""What a module of the checkout exports, for a value to be followed one module on.

``models/user.js`` does ``module.exports = db.model('User', schema)``; ``routes.js`` does
``const User = require('../models/user')`` and calls ``User.findByIdAndRemove()``: the
binding of ``User`` is what ``models/user.js`` exported. Pure: text in, names out; the file
reading stays with the caller.
"""

from __future__ import annotations

import posixpath
import re

SUFFIXES = ("", ".js", ".ts", ".tsx", ".jsx", ".mjs", ".cjs", "/index.js", "/index.ts")
_DEFAULT = (
    re.compile(r"(?<![\w$.])module\.exports\s*=\s*([^;\n]{1,200})"),
    re.compile(r"(?<![\w$.])export\s+default\s+([^;\n]{1,200})"),
)


def candidates(importer: str, specifier: str) -> list[str]:
    """The checkout paths a relative ``specifier`` imported from ``importer`` may be."""
    if not specifier.startswith("."):
        return []
    base = posixpath.normpath(posixpath.join(posixpath.dirname(importer), specifier))
    if base.startswith(".."):
        return []
    return [base + suffix for suffix in SUFFIXES]


def rooted(files: frozenset[str], specifier: str) -> list[str]:
    """The checkout paths a bare ``specifier`` names when a module root of the project's own
    (webpack's ``resolve.modules``, a babel module resolver, ``NODE_PATH``) holds it:
    ``components/common/box`` → ``dev/components/common/box.js``, when exactly one folder
    of the checkout has that file."""
    if specifier.startswith((".", "/", "@")) or "/" not in specifier:
        return []  # a scoped or one-segment name is a package's
    found = {
        f[: len(f) - len(specifier + suffix)]
        for suffix in SUFFIXES
        if suffix
        for f in files
        if f.endswith("/" + specifier + suffix) or f == specifier + suffix
    }
    if len(found) != 1:
        return []
    root = found.pop()
    return [root + specifier + suffix for suffix in SUFFIXES]


def exported(text: str, imported: str) -> str | None:
    """The expression a module exports as ``imported`` (``default``/``*``: its
    ``module.exports`` or ``export default``; a name: ``exports.name = …``), or the name
    itself when it declares it (``export const name = …``), or None."""
    if imported in ("default", "*"):
        for pattern in _DEFAULT:
            found = pattern.search(text)
            if found and not found.group(1).lstrip().startswith("{"):
                return found.group(1).strip()
        return None
    member = re.search(
        rf"(?<![\w$.])(?:module\.)?exports\.{re.escape(imported)}\s*=\s*([^;\n]{{1,200}})", text
    )
    if member:
        return member.group(1).strip()
    declared = rf"\bexport\s+(?:const|let|var|function|class)\s+{re.escape(imported)}\b"
    listed = rf"\bexport\s*\{{[^}}]*\b{re.escape(imported)}\b"
    if re.search(declared, text) or re.search(listed, text):
        return imported
    return None


_STAR_FROM = re.compile(r"""(?<![\w$.])export\s*\*\s*from\s*(['"])([^'"\s]{1,214})\1""")


_NAMED_FROM = re.compile(
    r"""(?<![\w$.])export\s*\{([^{}]{1,2000})\}\s*from\s*(['"])([^'"\s]{1,214})\2"""
)


def reexported_from(text: str, name: str) -> list[str]:
    """The relative specifiers a barrel may re-export ``name`` from: each ``export * from
    './x'``, and an ``export { name } from './x'`` that lists it."""
    out = [m.group(2) for m in _STAR_FROM.finditer(text) if m.group(2).startswith(".")]
    for m in _NAMED_FROM.finditer(text):
        listed = {part.split(" as ")[-1].strip() for part in m.group(1).split(",")}
        if name in listed and m.group(3).startswith("."):
            out.append(m.group(3))
    return out


def star_sources(text: str) -> list[str]:
    """The bare specifiers a module re-exports whole: ``export * from 'pkg'`` → ``pkg``."""
    return [m.group(2) for m in _STAR_FROM.finditer(text) if not m.group(2).startswith(".")]


_IDENT = r"[A-Za-z_$][\w$]*"
_CALL = re.compile(rf"(?<![\w$.])({_IDENT})\s*\(([^()]{{0,400}})\)")
_EXPORTED_FUNCTION = (
    re.compile(r"(?<![\w$.])module\.exports\s*=\s*(?:async\s+)?function\b[^(]{0,80}\(([^)]*)\)"),
    re.compile(r"(?<![\w$.])module\.exports\s*=\s*(?:async\s*)?\(([^)]*)\)\s*(?::[^=]{0,80})?=>"),
    re.compile(r"(?<![\w$.])export\s+default\s+(?:async\s+)?function\b[^(]{0,80}\(([^)]*)\)"),
)


def passed_to(text: str, local: str) -> list[tuple[str, int]]:
    """The calls that hand the value ``local`` to a function: ``setup(server, lib)`` →
    ``("setup", 1)`` (the callee's name and the argument's position; flat calls only)."""
    out = []
    for m in _CALL.finditer(text):
        args = [a.strip() for a in m.group(2).split(",")]
        if m.group(1) not in ("require", "function", "if", "while", "for", "switch", "catch"):
            out += [(m.group(1), i) for i, a in enumerate(args) if a == local]
    return list(dict.fromkeys(out))


def parameter(text: str, position: int) -> tuple[str, int] | None:
    """The name and offset of parameter ``position`` of the function a module exports
    (``module.exports = function (server, lib) {``, an arrow, ``export default function``)."""
    for pattern in _EXPORTED_FUNCTION:
        found = pattern.search(text)
        if found is None:
            continue
        params = found.group(1).split(",")
        if position >= len(params):
            return None
        name = re.match(rf"\s*({_IDENT})\s*(?:[:=?]|$)", params[position])
        if name is None:
            return None
        offset = found.start(1) + sum(len(p) + 1 for p in params[:position]) + name.start(1)
        return name.group(1), offset
    return None
