"""What may load an npm package that no file of the checkout imports. Pure: no I/O.

A package the code never imports can still be loaded: a script runs one of its commands
(``bin``), a tool loads it by a short name or a prefix (``eslint-plugin-x`` as ``x``,
``karma-*`` found by its prefix, ``@types/*`` read by the compiler), a config file names it,
another dependency needs it (a peer, or a dependency whose range takes the new version, so
that npm hands it this copy). ``pipeline/reach.py`` looks for each of these with these rules.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from depbot.ecosystems.npm.ranges import in_ranges
from depbot.records.versions import parse_version

# the sections of a package.json that declare dependencies: naming the package there is
# the declaration itself, not a use
DECLARING = (
    "dependencies",
    "devDependencies",
    "peerDependencies",
    "optionalDependencies",
    "peerDependenciesMeta",
    "bundleDependencies",
    "bundledDependencies",
    "resolutions",
    "overrides",
    "name",
    "version",
)
# words of a package name that say a tool loads it by a short name (``eslint-plugin-react``
# as ``react``, ``@babel/preset-env`` as ``@babel/env``, ``jest-environment-jsdom`` as
# ``jsdom``): the code may load it without ever writing its name
KIND_WORDS = frozenset(
    "plugin plugins preset presets config environment reporter launcher framework adapter "
    "transformer transform resolver formatter theme addon".split()
)
# files that hold prose or what a lock resolved, never a loader
_PROSE = re.compile(
    r"\.(md|markdown|rst|adoc|txt)$|(^|/)(LICEN[CS]E|CHANGELOG|AUTHORS)[^/]*$", re.I
)
_LOCKS = re.compile(
    r"(^|/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?)$"
)


def bins(manifest: dict[str, Any]) -> list[str]:
    """The commands a release installs (its ``bin``: a string means its own unscoped name)."""
    raw = manifest.get("bin")
    if isinstance(raw, str) and raw.strip():
        return [str(manifest.get("name", "")).rsplit("/", 1)[-1]]
    if isinstance(raw, dict):
        return [str(k) for k in raw if str(k).strip()]
    return []


def skipped_file(path: str) -> bool:
    """A file that cannot load a package: prose, or a lock file."""
    return bool(_PROSE.search(path) or _LOCKS.search(path))


def manifest_rest(text: str) -> str | None:
    """A package.json's text without what declares dependencies (None: not a JSON object)."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    return json.dumps({k: v for k, v in data.items() if k not in DECLARING}, indent=1)


def word(name: str) -> re.Pattern[str]:
    """``name`` as a word of code, a command line or a config value (``views/x.ejs`` names
    ``ejs``; ``@types/ejs`` and ``ejs-lint`` do not)."""
    return re.compile(rf"(?<![\w@/$-]){re.escape(name)}(?![\w$-])")


def never_read(style: str, names: dict[str, str], text: str, module: str = "") -> bool:
    """Whether an import (``style``, local name → imported name) binds only names its
    file's ``text`` never mentions again: each local occurs once, in the import itself. A
    side-effect import, a re-export, a dynamic import or a star binds nothing checkable and
    is read; any other mention (code, a comment, a string, a template) counts as a read,
    but the quoted ``module`` specifier the import names."""
    if style not in ("import", "require") or not names or "*" in names:
        return False
    if module:
        text = re.sub(rf"""(['"`]){re.escape(module)}\1""", "''", text)
    return all(
        len(re.findall(rf"(?<![\w$]){re.escape(local)}(?![\w$])", text)) == 1 for local in names
    )


def extends(package: str, other: str) -> bool:
    """Whether ``package``'s name is ``other``'s followed by a dash (``karma-x``, ``@s/lint-x``
    of ``@s/lint``): what a tool named ``other`` that finds plugins by prefix would load."""
    scope, _, bare = package.rpartition("/")
    return (
        other != package
        and bare.startswith(f"{other.rpartition('/')[2]}-")
        and (not scope or other.startswith(f"{scope}/"))
    )


def by_convention(package: str, declared: Iterable[str]) -> str:
    """Why a tool may load ``package`` without its name being written ("" when no rule
    says so): a type package, a kind word in its name, or a prefix that is the name of a
    declared tool (``declared``: the packages that may find plugins by prefix; the caller
    leaves out those that install no command, such as a UI library)."""
    scope, _, bare = package.rpartition("/")
    if scope == "@types":
        return "the TypeScript compiler reads @types packages without an import"
    words = bare.lower().split("-")
    # the short name is what follows the kind word (`eslint-plugin-react` as `react`), or the
    # scope (`@scope/eslint-plugin` as `@scope`); `x-webpack-plugin` has none to be loaded by
    named = words if scope or len(words) == 1 else words[:-1]
    kind = sorted(set(named) & KIND_WORDS)
    if kind:
        return f"its name says a tool loads it by a short name (“{kind[0]}”)"
    for other in declared:
        if extends(package, other):
            return f"its name extends {other}'s, which may find it by that prefix"
    return ""


def needs(manifest: dict[str, Any], package: str, takes: Callable[[str], bool]) -> str:
    """How a dependency's released ``manifest`` needs ``package`` ("" when it does not or
    keeps its own copy): a peer, whatever its range; a dependency whose range ``takes`` the
    new version (npm then gives it the one this manifest declares)."""
    for section in ("peerDependencies",):
        spec = _spec(manifest, section, package)
        if spec is not None:
            return f"as a peer (`{spec}`)"
    for section in ("dependencies", "optionalDependencies"):
        spec = _spec(manifest, section, package)
        if spec is not None and takes(spec):
            return f"as a dependency whose range `{spec}` takes the new version"
    return ""


def newest_taken(versions: Iterable[str], spec: str) -> str | None:
    """The newest stable release of ``versions`` the range ``spec`` takes (what an install
    without a lock picks), or None."""
    taken = [
        (v, parsed)
        for v in versions
        if (parsed := parse_version("npm", v)) is not None
        and not parsed.is_prerelease
        and in_ranges(v, (spec,))
    ]
    return max(taken, key=lambda t: t[1])[0] if taken else None


def _spec(manifest: dict[str, Any], section: str, package: str) -> str | None:
    deps = manifest.get(section)
    if not isinstance(deps, dict) or package not in deps:
        return None
    return str(deps[package])[:60]
