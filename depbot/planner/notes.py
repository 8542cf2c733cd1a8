"""What the notes ask the planner to search, and the words of its conclusions. Pure.

The candidates of the breaking items (and, when the range removes deprecated code, of
the older deprecations), the names the range deprecates and keeps working ("also
deprecated" in a draft that is affected for another reason), the hit ids a draft cites
(one per file first), and the sentences that describe a change and suggest a fix.
"""

from __future__ import annotations

import re

from depbot.changelogs.wording import narrows_input
from depbot.core.fence import unfence
from depbot.planner.records import Candidate, Changelog, Code, Entry, Pair, SearchResult, State


def candidates(changelog: Changelog) -> list[Pair]:
    """(candidate, the breaking entry it came from), in changelog order, without duplicates."""
    seen: set[Candidate] = set()
    out = []
    entries = list(changelog.breaking)
    if changelog.removes_deprecated_code:
        entries += changelog.deprecated_before
    leaves: set[str] = set()
    for entry in entries:
        for cand in entry.candidates:
            leaf = cand.symbol.rsplit(".", 1)[-1]
            if cand in seen or (entry.from_deprecation and leaf in leaves):
                continue  # an old deprecation the range's own notes already name
            seen.add(cand)
            if not entry.from_deprecation:
                leaves.add(leaf)
            out.append((cand, entry))
    return out


def deprecated(changelog: Changelog) -> list[Pair]:
    """(candidate, deprecation entry) for names the range deprecates and keeps working: never
    a reason to call an update affected, only "also deprecated" in a draft that is."""
    if not changelog.breaking:
        return []
    known = {c for c, _ in candidates(changelog)}
    out = []
    for entry in changelog.deprecations:
        for cand in entry.deprecates:
            if cand not in known:
                known.add(cand)
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


_MOVED = re.compile(
    r"\b(moved|migrated|relocated|extracted|split\s+out|spun\s+off|now\s+lives?\s+in)\b", re.I
)


_KEYWORD_ONLY = re.compile(r"\bkeyword[- ]only\b", re.I)


# "moved under the `modules` option", "moved to the `output` key": a new place in the same
# package's options, not another distribution
_WITHIN = re.compile(
    r"\b(moved|migrated|relocated)\s+(?:in)?(?:to|under|inside)\s+(?:the\s+)?`[^`]+`\s*"
    r"(option|argument|parameter|key|property|field|setting|section|object)s?\b",
    re.I,
)


def _moved(entry: Entry) -> bool:
    """The item says the name moved to another distribution (its words, not a package's)."""
    text = unfence(entry.item)
    return bool(_MOVED.search(text)) and not _WITHIN.search(text)


def _quoted(entry: Entry, limit: int = 160) -> str:
    """The item's own words, one line, for a summary that says what changed."""
    text = re.sub(r"\s+", " ", unfence(entry.item)).strip().replace("``", "`")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def describe(cand: Candidate, package: str, version: str, entry: Entry | None = None) -> str:
    """One line that says what changed of the candidate in ``version``."""
    s, kind = cand.symbol, cand.kind
    of = f" of `{cand.of}`" if cand.of else ""
    if entry is not None and kind in ("name", "module_path") and _moved(entry):
        return f"`{s}` moved out of {package} into another distribution in {version}"
    if kind == "behaviour" and entry is not None:
        return f'`{s}()` behaves differently since {version}: "{_quoted(entry)}"'
    if kind == "arg_kind" and (cand.arg or "").startswith("when-") and entry is not None:
        return (
            f'`{s}` given a {cand.arg[5:]} behaves differently since {version}: "{_quoted(entry)}"'
        )
    if kind == "arg_kind" and (cand.arg or "").startswith("non-"):
        return f"`{s}()` now throws unless given a {cand.arg[4:]} ({version})"
    if kind == "subpath" and s == package:
        return f"{package} {version} no longer serves deep imports (`{package}/…` entry points)"
    if kind == "positional" and cand.max_positional == 0:
        return f"`{s}()` takes no arguments since {version}"
    if kind == "positional" and entry is not None and _KEYWORD_ONLY.search(entry.item):
        return f"`{s}()` takes its parameters by keyword only since {version}"
    return {
        "name": f"`{s}` was removed or renamed in {version}",
        "parameter": f"the `{s}` argument{of} was removed in {version}",
        "required_arg": f"`{s}()` now requires the `{cand.arg}` argument ({version})",
        "positional": f"`{s}()` takes at most {1 if cand.max_positional is None else cand.max_positional} positional argument(s) since {version}",
        "signature": f"the `{s}` call form was removed in {version}",
        "literal_arg": f"`{s}()` no longer understands the value '{cand.arg}' ({version})",
        "arg_kind": f"`{s}()` no longer accepts a {cand.arg} argument ({version})",
        "module": f"{package} {version} is an ES module only (ESM): `require('{package}')` from CommonJS no longer works",
        "default_import": f"{package} {version} has no default export any more",
        "subpath": f"the `{s}` entry point was removed in {version} (deep require)",
        "module_path": f"the `{s}` module was removed in {version}",
        "config_key": f"the `{s}` setting{' in `' + cand.of + '`' if cand.of else ''} is no longer read ({version})",
        "config_file": f"{package} {version} no longer reads `{s}` configuration files",
        "required_use": f"{package} {version} requires `{s}`, which this code never uses",
        "callback_arg": f"{package} {version} no longer takes callbacks (promises only)",
        "other_package": f"{package} {version} drops `{s}` or stops publishing it (another package)",
        "version_floor": f"{package} {version} needs `{s}` {cand.arg} or newer",
        "optional_dependency": f"{package} {version} leaves {(cand.arg or 'a feature').replace('|', ' ')} to the optional dependency `{s}`, which this code does not install",
        "behaviour": f"`{s}()` behaves differently since {version}",
        "async": f"`{s}()` is asynchronous since {version}",
        "command": f"the command `{s}` was removed in {version}",
        "returned_member": f"what `{s}()` returns has no `{cand.arg}` since {version}",
        "string_value": f"the value '{s}' is no longer accepted since {version}",
        "options_given": f"the options {package} takes were reshaped in {version}",
        "side_effect_import": f"`import '{s}'` no longer sets anything up since {version}",
    }.get(kind, f"`{s}` changed in {version}")


def symbols(cand: Candidate, package: str) -> tuple[str, ...]:
    """The API names a change of the candidate breaks."""
    if cand.kind == "module":
        return (f"require('{package}')", "ESM")
    if cand.kind == "required_arg" and cand.arg not in (None, "", "*"):
        return (cand.symbol, cand.arg)
    if cand.kind in ("required_use", "optional_dependency"):
        return (cand.symbol, package)
    return (cand.symbol,)


def esm_only_fix(package: str) -> str:
    """The fix for a release that is an ES module only (the notes' or the released code's)."""
    return (
        f"Load {package} with `import` from an ES module, or with a dynamic `import('{package}')` "
        f"from CommonJS; or stay on the last CommonJS major."
    )


def fix(cands: list[Pair], package: str, to: str) -> str:
    """What to do about the candidates this code uses, one sentence each, then the tests."""
    parts = []
    for cand, entry in cands:
        kind, s = cand.kind, cand.symbol
        repl = entry.replacements
        if kind == "module":
            parts.append(esm_only_fix(package))
        elif kind == "required_arg":
            parts.append(f"Pass `{cand.arg}` explicitly in every call of `{s}()`.")
        elif kind == "version_floor":
            parts.append(f"Raise `{s}` to {cand.arg} or newer in the same change.")
        elif kind == "other_package":
            parts.append(
                f"Check this code's use of `{s}`: the changelog quote says what replaces it."
            )
        elif kind == "subpath" and s == package:
            parts.append(f"Import from `{package}` itself instead of its deep paths.")
        elif kind == "subpath":
            parts.append(f"Replace `require('{s}')` with the named export of the package root.")
        elif kind == "positional" and cand.max_positional == 0:
            parts.append(f"Call `{s}()` without arguments, the way the quote shows.")
        elif kind == "positional":
            parts.append(f"Pass the extra arguments of `{s}()` by keyword.")
        elif kind == "arg_kind" and (cand.arg or "").startswith("when-"):
            parts.append(
                f"Check each {cand.arg[5:]} given to `{s}` listed above against the changed "
                f'behaviour quoted above ("{_quoted(entry, 120)}") and adapt it.'
            )
        elif kind == "arg_kind" and (cand.arg or "").startswith("non-"):
            parts.append(f"Give every call of `{s}()` listed above a {cand.arg[4:]}.")
        elif kind == "behaviour":
            parts.append(
                f"Verify every call of `{s}()` listed above against the changed behaviour "
                f'quoted above ("{_quoted(entry, 120)}") and adapt the code that relies on the old one.'
            )
        elif kind == "config_file":
            parts.append(
                f"Move the configuration in `{s}` to a format {package} {to} reads (see the quote)."
            )
        elif kind == "required_use":
            parts.append(f"Add `{s}` where {package} is set up, as the quoted notes show.")
        elif kind == "callback_arg":
            parts.append(
                "Await the promise each call listed above returns instead of passing a callback."
            )
        elif kind == "optional_dependency":
            parts.append(f"Add `{s}` to the project's dependencies (see the quote).")
        elif kind == "config_key":
            where = f" in `{cand.of}`" if cand.of else ""
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


def _names_like(symbol: str, results: list[SearchResult]) -> list[str]:
    """The identifiers starting with the wildcard's prefix on the code lines of the results
    (import sites, a text search): the names of the family this checkout uses."""
    prefix = re.escape(symbol[:-1])
    word = re.compile(rf"(?<![\w$]){prefix}[\w$]*")
    out: list[str] = []
    for res in results:
        code = {h.id for h in res.hits if h.context == "code"}
        for m in _HIT_LINE.finditer(unfence(res.lines)):
            if m.group(1) in code:
                out.extend(w.group(0) for w in word.finditer(m.group(2)))
    return list(dict.fromkeys(n for n in out if n != symbol[:-1]))[:MAX_EXPANDED]


def expand_wildcards(cands: list[Pair], results: Code, asked: tuple[str, ...] = ()) -> list[Pair]:
    """Each wildcard candidate replaced by the names of its family found in ``results``
    (``search_code`` results by pattern, and ``""``: the ``where_imported`` result) or
    already searched (``asked``: a result read in later rounds is compact, without lines)."""
    out: list[Pair] = []
    seen = {c for c, _ in cands}
    for cand, entry in cands:
        sym = cand.symbol
        if not WILDCARD.match(sym):
            out.append((cand, entry))
            continue
        got = [
            r
            for r in (results.get(""), results.get(wildcard_pattern(sym)))
            if r is not None and not r.blank
        ]
        family = [a for a in asked if a.startswith(sym[:-1]) and a != sym[:-1]]
        for name in dict.fromkeys([*family, *_names_like(sym, got)]):
            named = Candidate(name, cand.kind)
            if named not in seen:
                seen.add(named)
                out.append((named, entry))
    return out


def found_candidates(st: State) -> list[Pair]:
    """The candidates of the notes, each wildcard (`safe*`) replaced by the names of its
    family this checkout uses (import sites and a text search for the prefix)."""
    asked = tuple(s.symbol for s in st.searches)
    return expand_wildcards(
        candidates(st.changelog or Changelog()), {**st.code, "": st.imported}, asked
    )


# --- behaviour changes that narrow what an API takes ----------------------------------------


def verify_only(cand: Candidate, entry: Entry) -> bool:
    """A behaviour change that narrows the values a call takes ("`f()` no longer accepts
    unsigned tokens by default"): its calls are to verify, but a call is a break only
    when it passes such a value, which a search cannot tell; never affected on its own."""
    return cand.kind == "behaviour" and narrows_input(unfence(entry.item))


def verify_note(cand: Candidate, entry: Entry, n: int) -> str:
    """What a reason says of the calls of a narrowed behaviour, to verify."""
    return (
        f"; to verify: {n} call(s) of `{cand.symbol}()`, whose accepted values narrowed "
        f'("{_quoted(entry, 120)}"); whether this code passes such a value the code does not say'
    )
