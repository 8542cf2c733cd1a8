"""A release's ``exports`` map: its conditions flattened, what it lets through, and the
targets of its ``*`` patterns. Pure: the map in, answers out.

``{"./*": {"types": "./*.d.ts", "default": "./*.js"}}`` lets ``pkg/react`` through, to
``./react.d.ts`` and ``./react.js`` (Node's rules: the longest pattern head wins; a key ending
in ``/`` opens a folder).
"""

from __future__ import annotations

JS_SUFFIXES = (".js", ".cjs", ".mjs")


def _flatten(value: object, path: str = "") -> dict[str, str | None]:
    """Nested conditions as `node.require` → target (a string target is `default`)."""
    if value is None or isinstance(value, str):
        return {path or "default": value}
    if isinstance(value, list):  # fallbacks: the first one a modern resolver takes
        return _flatten(value[0], path) if value else {}
    flat: dict[str, str | None] = {}
    if isinstance(value, dict):
        for key, inner in value.items():
            flat.update(_flatten(inner, f"{path}.{key}" if path else key))
    return flat


def normalise_exports(exports: object) -> dict[str, dict[str, str | None]] | None:
    if exports is None:
        return None
    if isinstance(exports, dict) and any(str(k).startswith(".") for k in exports):
        return {str(k): _flatten(v) for k, v in exports.items() if str(k).startswith(".")}
    return {".": _flatten(exports)}


def subpath_allowed(exports: dict[str, dict[str, str | None]], subpath: str) -> bool:
    """Whether the `exports` map lets `pkg/<subpath>` through (exact, `*` pattern, `./dir/`)."""
    candidates = (subpath, subpath + ".js") if not subpath.endswith(JS_SUFFIXES) else (subpath,)
    for key, conditions in exports.items():
        open_target = any(target is not None for target in conditions.values())
        for wanted in candidates:
            if key == wanted or (key.endswith("/") and wanted.startswith(key)):
                return open_target
            if "*" in key:
                head, _, tail = key.partition("*")
                if (
                    wanted.startswith(head)
                    and wanted.endswith(tail)
                    and len(wanted) >= len(key) - 1
                ):
                    return open_target
    return False


def pattern_conditions(
    exports: dict[str, dict[str, str | None]], subpath: str
) -> dict[str, str | None]:
    """The conditions of the ``exports`` pattern (``"./*": "./*.d.ts"``) that ``subpath``
    matches, its ``*`` filled in; the longest pattern head wins, as in Node."""
    best: tuple[int, dict[str, str | None]] = (-1, {})
    for key, conditions in exports.items():
        head, star, tail = key.partition("*")
        if not star or not subpath.startswith(head) or not subpath.endswith(tail):
            continue
        if len(subpath) < len(head) + len(tail) or len(head) <= best[0]:
            continue
        part = subpath[len(head) : len(subpath) - len(tail)]
        best = (len(head), {c: t.replace("*", part) if t else t for c, t in conditions.items()})
    return best[1]
