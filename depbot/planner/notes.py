"""What the notes ask the planner to search, and the words of its conclusions.

The candidates of the breaking items (and, when the range removes deprecated code, of
the older deprecations), the names the range deprecates and keeps working ("also
deprecated" in a draft that is affected for another reason), the hit ids a draft cites
(one per file first), and the sentences that describe a change and suggest a fix.
"""

from __future__ import annotations

import json
import re
from typing import Any

from depbot.changelogs.wording import narrows_input
from depbot.core.fence import unfence


def candidates(changelog: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(candidate, the breaking entry it came from), in changelog order, without duplicates."""
    seen: set[str] = set()
    out = []
    entries = list(changelog.get("breaking") or [])
    if changelog.get("removes_deprecated_code"):
        for ctx in changelog.get("deprecated_before") or []:
            entries.append({**ctx, "from_deprecation": True})
    leaves: set[str] = set()
    for entry in entries:
        for cand in entry.get("candidates") or []:
            key = json.dumps(cand, sort_keys=True)
            leaf = str(cand.get("symbol", "")).rsplit(".", 1)[-1]
            if key in seen or (entry.get("from_deprecation") and leaf in leaves):
                continue  # an old deprecation the range's own notes already name
            seen.add(key)
            if not entry.get("from_deprecation"):
                leaves.add(leaf)
            out.append((cand, entry))
    return out


def deprecated(changelog: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(candidate, deprecation entry) for names the range deprecates and keeps working: never
    a reason to call an update affected, only "also deprecated" in a draft that is."""
    if not changelog.get("breaking"):
        return []
    known = {json.dumps(c, sort_keys=True) for c, _ in candidates(changelog)}
    out = []
    for entry in changelog.get("deprecations") or []:
        for cand in entry.get("deprecates") or []:
            key = json.dumps(cand, sort_keys=True)
            if key not in known:
                known.add(key)
                out.append((cand, entry))
    return out


def spread(ids: list[str], paths: dict[str, str], cap: int) -> list[str]:
    """At most ``cap`` ids, one per file first: the draft cites every file that uses any
    broken API, not only the first search's many hits."""
    first: dict[str, str] = {}
    for i in ids:
        first.setdefault(paths.get(i, i), i)
    picked = list(first.values())[:cap]
    rest = [i for i in ids if i not in picked]
    return picked + rest[: max(0, cap - len(picked))]


def search_args(package: str, cand: dict[str, Any]) -> dict[str, Any]:
    args = {"package": package, "symbol": cand["symbol"], "kind": cand.get("kind", "name")}
    for k in ("of", "arg", "max_positional"):
        if cand.get(k) not in (None, ""):
            args[k] = cand[k]
    return args


_MOVED = re.compile(
    r"\b(moved|migrated|relocated|extracted|split\s+out|spun\s+off|now\s+lives?\s+in)\b", re.I
)


_KEYWORD_ONLY = re.compile(r"\bkeyword[- ]only\b", re.I)


def _moved(entry: dict[str, Any]) -> bool:
    """The item says the name moved to another distribution (its words, not a package's)."""
    return bool(_MOVED.search(unfence(str(entry.get("item", "")))))


def _quoted(entry: dict[str, Any], limit: int = 160) -> str:
    """The item's own words, one line, for a summary that says what changed."""
    text = re.sub(r"\s+", " ", unfence(str(entry.get("item", "")))).strip().replace("``", "`")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def describe(
    cand: dict[str, Any], package: str, version: str, entry: dict[str, Any] | None = None
) -> str:
    s, kind = cand["symbol"], cand.get("kind", "name")
    of = f" of `{cand['of']}`" if cand.get("of") else ""
    if entry is not None and kind in ("name", "module_path") and _moved(entry):
        return f"`{s}` moved out of {package} into another distribution in {version}"
    if kind == "behaviour" and entry is not None:
        return f'`{s}()` behaves differently since {version}: "{_quoted(entry)}"'
    if kind == "positional" and entry is not None and _KEYWORD_ONLY.search(str(entry.get("item"))):
        return f"`{s}()` takes its parameters by keyword only since {version}"
    return {
        "name": f"`{s}` was removed or renamed in {version}",
        "parameter": f"the `{s}` argument{of} was removed in {version}",
        "required_arg": f"`{s}()` now requires the `{cand.get('arg')}` argument ({version})",
        "positional": f"`{s}()` takes at most {cand.get('max_positional', 1)} positional argument(s) since {version}",
        "signature": f"the `{s}` call form was removed in {version}",
        "literal_arg": f"`{s}()` no longer understands the value '{cand.get('arg')}' ({version})",
        "module": f"{package} {version} is an ES module only (ESM): `require('{package}')` from CommonJS no longer works",
        "default_import": f"{package} {version} has no default export any more",
        "subpath": f"the `{s}` entry point was removed in {version} (deep require)",
        "module_path": f"the `{s}` module was removed in {version}",
        "config_key": f"the `{s}` setting{' in `' + cand['of'] + '`' if cand.get('of') else ''} is no longer read ({version})",
        "config_file": f"{package} {version} no longer reads `{s}` configuration files",
        "behaviour": f"`{s}()` behaves differently since {version}",
        "async": f"`{s}()` is asynchronous since {version}",
    }.get(kind, f"`{s}` changed in {version}")


def symbols(cand: dict[str, Any], package: str) -> list[str]:
    kind = cand.get("kind")
    if kind == "module":
        return [f"require('{package}')", "ESM"]
    if kind == "required_arg" and cand.get("arg") not in (None, "", "*"):
        return [cand["symbol"], cand["arg"]]
    return [cand["symbol"]]


def fix(cands: list[tuple[dict[str, Any], dict[str, Any]]], package: str, to: str) -> str:
    parts = []
    for cand, entry in cands:
        kind, s = cand.get("kind"), cand["symbol"]
        repl = entry.get("replacements") or []
        if kind == "module":
            parts.append(
                f"Load {package} with `import` from an ES module, or with a dynamic `import('{package}')` "
                f"from CommonJS; or stay on the last CommonJS major."
            )
        elif kind == "required_arg":
            parts.append(f"Pass `{cand.get('arg')}` explicitly in every call of `{s}()`.")
        elif kind == "subpath":
            parts.append(f"Replace `require('{s}')` with the named export of the package root.")
        elif kind == "positional":
            parts.append(f"Pass the extra arguments of `{s}()` by keyword.")
        elif kind == "behaviour":
            parts.append(
                f"Verify every call of `{s}()` listed above against the changed behaviour "
                f'quoted above ("{_quoted(entry, 120)}") and adapt the code that relies on the old one.'
            )
        elif kind == "config_file":
            parts.append(
                f"Move the configuration in `{s}` to a format {package} {to} reads (see the quote)."
            )
        elif kind == "config_key":
            where = f" in `{cand['of']}`" if cand.get("of") else ""
            parts.append(f"Replace or remove the `{s}` setting{where} (see the quote).")
        elif kind in ("name", "module_path") and _moved(entry):
            parts.append(
                f"Add the distribution `{s}` moved to (the changelog quote names it) to the "
                f"dependencies and import it from there."
            )
        elif repl:
            parts.append(
                f"Replace `{s}` with {', '.join(f'`{r}`' for r in repl[:3])} (see the changelog quote)."
            )
        else:
            parts.append(f"Stop using `{s}`; the changelog quote says what replaces it.")
    parts.append(f"Then run the tests against {package} {to}.")
    return " ".join(dict.fromkeys(parts))


# --- wildcards: "removed `safe*` functions" ----------------------------------------------------

WILDCARD = re.compile(r"^[A-Za-z_$][\w$]{2,40}\*$")
_HIT_LINE = re.compile(r"^(h\d+) [^\n]{1,500}?:\d+: ([^\n]*)$", re.M)
MAX_EXPANDED = 12


def wildcard_pattern(symbol: str) -> str:
    """The ``search_code`` regex for the names a wildcard candidate stands for."""
    return rf"\b{re.escape(symbol[:-1])}[A-Za-z0-9_$]*"


def _names_like(symbol: str, results: list[dict[str, Any]]) -> list[str]:
    """The identifiers starting with the wildcard's prefix on the code lines of the results
    (import sites, a text search): the names of the family this checkout uses."""
    prefix = re.escape(symbol[:-1])
    word = re.compile(rf"(?<![\w$]){prefix}[\w$]*")
    out: list[str] = []
    for res in results:
        code = {h.get("id") for h in res.get("hits") or [] if h.get("context", "code") == "code"}
        for m in _HIT_LINE.finditer(unfence(str(res.get("lines") or ""))):
            if m.group(1) in code:
                out.extend(w.group(0) for w in word.finditer(m.group(2)))
    return list(dict.fromkeys(n for n in out if n != symbol[:-1]))[:MAX_EXPANDED]


def expand_wildcards(
    cands: list[tuple[dict[str, Any], dict[str, Any]]],
    results: dict[str, dict[str, Any] | None],
    asked: tuple[str, ...] = (),
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each wildcard candidate replaced by the names of its family found in ``results``
    (``search_code`` results by pattern, and ``""``: the ``where_imported`` result) or
    already searched (``asked``: a result read in later rounds is compact, without lines)."""
    out: list[tuple[dict[str, Any], dict[str, Any]]] = []
    seen = {json.dumps(c, sort_keys=True) for c, _ in cands}
    for cand, entry in cands:
        sym = str(cand.get("symbol", ""))
        if not WILDCARD.match(sym):
            out.append((cand, entry))
            continue
        got = [r for r in (results.get(""), results.get(wildcard_pattern(sym))) if r]
        family = [a for a in asked if a.startswith(sym[:-1]) and a != sym[:-1]]
        for name in dict.fromkeys([*family, *_names_like(sym, got)]):
            c = {"symbol": name, "kind": cand.get("kind", "name"), "wildcard": sym}
            key = json.dumps({"symbol": name, "kind": c["kind"]}, sort_keys=True)
            if key not in seen:
                seen.add(key)
                out.append((c, entry))
    return out


# --- behaviour changes that narrow what an API takes ----------------------------------------


def verify_only(cand: dict[str, Any], entry: dict[str, Any]) -> bool:
    """A behaviour change that narrows the values a call takes ("`f()` no longer accepts
    unsigned tokens by default"): its calls are to verify, but a call is a break only
    when it passes such a value, which a search cannot tell; never affected on its own."""
    return cand.get("kind") == "behaviour" and narrows_input(unfence(str(entry.get("item", ""))))


def verify_note(cand: dict[str, Any], entry: dict[str, Any], n: int) -> str:
    return (
        f"; to verify: {n} call(s) of `{cand['symbol']}()`, whose accepted values narrowed "
        f'("{_quoted(entry, 120)}"); whether this code passes such a value the code does not say'
    )
