"""A package named by a string in a config object, with its options beside the name.

webpack's ``{ loader: 'css-loader', options: { modules: true } }``, ``loader:
require.resolve('x-loader')``, Babel's and ESLint's ``['some-plugin', { option: 1 }]``: the
keys of the object beside the name are that package's own options, though no call of the
package is in sight. Pure text reading, on a window around the key (comments blanked).
"""

from __future__ import annotations

import re

from depbot.symbols.javascript import (
    key_of,
    keys_at,
    literal_parts,
    unclosed_before,
    without_line_comments,
)

WINDOW = 20_000  # characters read each side of the key
MAX_LEVELS = 3  # objects climbed from the key's own object to the one that names the package
_RESOLVE = re.compile(r"require\s*\.\s*resolve\s*$")
# a string that names a package by its role in a tool (`css-loader`, `some-plugin`) or by
# its scope (`@babel/preset-env`); a plain value (`'production'`) names none
PACKAGE_NAME = re.compile(
    r"@[a-z0-9][\w.-]*/[a-z0-9][\w./-]*(?:\?.*)?"
    r"|(?:[a-z0-9][\w.-]*[-.])?(?:loader|plugin|preset|transformer|middleware)s?(?:[-.][\w.-]+)?"
    r"(?:/[\w./-]+)?(?:\?.*)?"
)


def _top_strings(text: str, opener: int) -> list[str]:
    """The string literals at the top level of the object or array opening at ``opener``
    (a key's own name left out), and those passed to ``require.resolve(…)`` there."""
    out: list[str] = []
    depth, resolve_at = 0, -1
    j = opener + 1
    while j < len(text):
        c = text[j]
        if c in "'\"`":
            end = j + 1
            while end < len(text) and (text[end] != c or text[end - 1] == "\\"):
                end += 1
            after = text[end + 1 : end + 40].lstrip()
            if (depth == 0 or depth == resolve_at) and not after.startswith(":"):
                out.append(text[j + 1 : end])
            j = end + 1
            continue
        if c in "([{":
            depth += 1
            if c == "(" and _RESOLVE.search(text[max(0, j - 40) : j]):
                resolve_at = depth
        elif c in ")]}":
            if depth == 0:
                break
            if depth == resolve_at:
                resolve_at = -1
            depth -= 1
        j += 1
    return out


def names(text: str, pos: int) -> list[str]:
    """The strings that name what the key at ``pos`` configures: the top-level strings of the
    nearest object or array that holds the key's object through object values (an object in
    a call's arguments names nothing: the call does)."""
    lo = max(0, pos - WINDOW)
    window = without_line_comments(text[lo : pos + WINDOW])
    at = unclosed_before(window, pos - lo)
    for _ in range(MAX_LEVELS):
        if at < 0 or window[at] != "{":
            return []
        holder = unclosed_before(window, at)
        if holder < 0 or window[holder] == "(":
            return []
        found = _top_strings(window, holder)
        if found or window[holder] == "[":
            return found
        at = holder
    return []


def names_package(strings: list[str], package: str) -> bool:
    """Whether one of ``strings`` names ``package`` (``'pkg'``, ``'pkg/sub'``, ``'pkg?opts'``,
    webpack 1's chained ``'a-loader!pkg?x'``)."""
    for s in strings:
        for part in s.split("!"):
            name = part.split("?", 1)[0].strip()
            if name == package or name.startswith(package + "/"):
                return True
    return False


# the key an entry gives the options of the package it names under (`{ loader: 'x', options:
# {…} }`; webpack 1's `query`)
_OPTIONS_KEYS = ("options", "query")


def options_beside(text: str, at: int) -> tuple[tuple[str, int], ...] | None:
    """The options given beside the string literal at ``at`` that names a package: the keys
    of the ``options`` object of the object the string is a value in, or of the object after
    it in an array (``['plugin', { key }]``); () when the options are not an object literal
    (a variable, a call: any key may be in them); None when no options are given there."""
    holder = unclosed_before(text, at)
    if holder >= 0 and text[holder] == "(" and _RESOLVE.search(text[max(0, holder - 40) : holder]):
        holder = unclosed_before(text, holder)  # `loader: require.resolve('x-loader')`
    if holder < 0 or text[holder] not in "{[":
        return None
    parts = literal_parts(text, holder)
    if text[holder] == "[":
        mine = [i for i, (body, start) in enumerate(parts) if start <= at < start + len(body)]
        if not mine or mine[0] + 1 >= len(parts):
            return None
        body, start = parts[mine[0] + 1]
        return keys_at(text, start) if body.startswith("{") else None
    for body, start in parts:
        key, value = key_of(body)
        if key not in _OPTIONS_KEYS:
            continue
        if not value.startswith(":"):
            return ()  # `{ loader: 'x', options }`: a variable's
        value = value[1:].lstrip()
        return keys_at(text, start + len(body) - len(value)) if value.startswith("{") else ()
    return None
