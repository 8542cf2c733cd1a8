"""A release that ships no type declarations: its types live in ``@types/<name>``.

DefinitelyTyped names the package of ``@scope/name`` ``@types/scope__name`` and follows the
package's major (and usually minor) in its own versions, so the declarations of release
``X.Y.Z`` are the newest ``@types`` version of major ``X`` (of ``X.Y`` when there is one).
"""

from __future__ import annotations

import re
from pathlib import Path

from depbot.ecosystems.npm.versions import parse

SKIP = frozenset({"node_modules"})
DECLARATION_SUFFIXES = (".d.ts", ".d.mts", ".d.cts")  # a TypeScript declaration file


def ships_declarations(root: Path) -> bool:
    """Whether the unpacked release has a ``types``/``typings`` entry or any ``.d.ts`` file."""
    for path in root.rglob("*.d.*ts"):
        if path.name.endswith(DECLARATION_SUFFIXES) and not SKIP & set(path.parts):
            return True
    return False


def types_companion(package: str, root: Path) -> str | None:
    """``@types/<name>`` for a release without declarations (None for ``@types`` itself)."""
    if package.startswith("@types/") or ships_declarations(root):
        return None
    name = package[1:].replace("/", "__") if package.startswith("@") else package
    return f"@types/{name}"


def matching_version(version: str, published: list[str], *, below: bool = False) -> str | None:
    """The newest published ``@types`` version of ``version``'s major.minor, else of its
    major; ``below``: else the newest of an older major (types that lagged behind the
    package); None when there is none."""
    target = parse(version)
    if target is None:
        return None
    parsed = [(v, p) for p in published if (v := parse(p)) is not None and not v.is_prerelease]
    same_minor = [v for v, _ in parsed if (v.major, v.minor) == (target.major, target.minor)]
    same_major = [v for v, _ in parsed if v.major == target.major]
    older = [v for v, _ in parsed if v.major < target.major] if below else []
    pick = max(same_minor or same_major or older, default=None)
    return next(p for v, p in parsed if v == pick) if pick is not None else None


# `export declare function Extract(…)`, `export class Parser`, `export const VERSION`: a
# value a declaration file says the module exports (an interface or a type alias is not one)
_DECLARED_VALUE = re.compile(
    r"^[ \t]*export\s+(?:declare\s+)?(?:abstract\s+)?(?:function\*?|class|const|let|var|enum)"
    r"\s+([A-Za-z_$][\w$]*)",
    re.M,
)


def declared_values(declaration: Path) -> set[str]:
    """The values the declaration file's top level exports by name (``export declare
    function x``); not its types, not what an ``export =`` namespace holds."""
    try:
        text = declaration.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    return set(_DECLARED_VALUE.findall(text))
