"""The use-check: which changes of an API diff touch what this checkout really uses. Pure.

Two steps, so the searches stay with the caller: ``queries`` says which ``search_symbol``
calls the join needs (only for changes under a module the checkout imports, whose name
the importing files use at all), ``join`` keeps the changes a returned use or an import
site touches. A finding is ``strong`` when one of its uses is (an import of a removed
name, a call resolved to the package); ``weak`` when only a method name matched on an
object of unknown type. Deprecated names in use are reported apart: never a break.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

from depbot import ecosystems
from depbot.apidiff.fates import Fates
from depbot.records.api import BUNDLED_DEFAULT, DEFAULT_KEPT, ApiChange, ApiDiff, Deprecation
from depbot.search.import_sites import ImportReport, ImportSite
from depbot.symbols.facts import SymbolHit, SymbolResult
from depbot.symbols.loaded import weakened

MAX_QUERIES = 16  # symbol searches per update; the rest are counted in a note
PARAM_GONE = ("param_removed", "param_renamed")
PARAM_NEEDED = ("param_now_required", "param_added_required")
UseHit = SymbolHit | ImportSite
INDIRECT = ("re-export", "served by __getattr__")  # details of names no `def`/`class` defines


# an npm change of an options object → the search_symbol kind that checks the calls
OPTION_KINDS = {
    "option_now_required": "required_option",
    "option_values_narrowed": "option_value",
    "option_removed": "passed_option",
    "positional_reduced": "positional",  # calls passing more than it takes now
}


@dataclass(frozen=True)
class Query:
    """One ``search_symbol`` call the join needs."""

    symbol: str
    kind: str
    of: str = ""
    arg: str = ""
    max_positional: int = 1


@dataclass
class Finding:
    """One API change that touches a use of the checkout."""

    kind: str
    path: str
    detail: str
    where: str  # "urllib3-2.0.7 wheel · urllib3/util/retry.py · Retry.__init__ has no …"
    source: str  # "urllib3-2.0.7 wheel: urllib3/util/retry.py"
    summary: str
    symbols: tuple[str, ...]
    hits: list[UseHit] = field(default_factory=list)
    strength: str = "strong"  # strong | weak | deprecated


@dataclass
class ReleaseDiff:
    """The API diff of an update's two releases, or why it could not be had."""

    diff: ApiDiff | None
    artifact: str = ""  # the new release's label ("urllib3-2.0.7 wheel")
    problems: list[str] = field(default_factory=list)  # one line each
    # when an upstream failed (no diff for want of it): its kind and the problem's line
    failed: tuple[str, str] | None = None
    # seconds by stage: registry, download, unpack, model (the diff, or reading a stored
    # one), wait (for another update's diff in this run)
    stages: dict[str, float] = field(default_factory=dict)


@dataclass
class JoinResult:
    findings: list[Finding]
    deprecated: list[Finding]
    notes: list[str]


def _javascript(diff: ApiDiff) -> bool:
    """Whether the diff is of a JavaScript package (its places and uses read as such)."""
    return ecosystems.get(diff.ecosystem).language == "javascript"


def _workflow(diff: ApiDiff) -> bool:
    """Whether the diff is of a GitHub action (its uses are workflow steps)."""
    return ecosystems.get(diff.ecosystem).language == "github-workflow"


def _leaf(path: str) -> str:
    return path.replace("/", ".").rsplit(".", 1)[-1]


def _callable(path: str) -> str:
    """``a.B.__init__`` is called as ``a.B(...)``."""
    return path.removesuffix(".__init__").removesuffix(".__new__")


def _old_param(change: ApiChange) -> str:
    return change.detail.split("→")[0].strip() if change.kind == "param_renamed" else change.detail


def used_paths(report: ImportReport) -> list[tuple[str, ImportSite]]:
    """The dotted paths the checkout imports (``from a.b import C`` → ``a.b.C``), per site."""
    out: list[tuple[str, ImportSite]] = []
    for site in report.sites:
        if site.type_only:
            continue
        for imported in site.names.values() or ("*",):
            out.append((site.module if imported == "*" else f"{site.module}.{imported}", site))
    return out


def _query(change: ApiChange) -> Query | None:
    if change.kind == "removed" and change.detail == "re-export":
        return None  # the name lives on where it is defined: only an import of this path breaks
    if change.kind == "removed":
        return Query(change.path, "name")
    if change.kind in PARAM_GONE:
        return Query(_old_param(change), "parameter", of=change.path)
    if change.kind in PARAM_NEEDED:
        return Query(_callable(change.path), "required_arg", arg=change.detail)
    if _now_keyword_only(change):  # a call passing more positional arguments passes it so
        return Query(_callable(change.path), "positional", max_positional=change.position)
    return None


def _now_keyword_only(change: ApiChange) -> bool:
    return (
        change.kind == "param_kind_changed"
        and change.detail.endswith("→ keyword-only")
        and change.position >= 0
    )


def _word(change: ApiChange) -> str:
    """The identifier a use of the change must contain."""
    if change.kind in PARAM_GONE:
        return _old_param(change)
    if change.kind in PARAM_NEEDED or _now_keyword_only(change):
        return _leaf(_callable(change.path))
    return _leaf(change.path)


def _imported_directly(path: str, used: list[tuple[str, ImportSite]]) -> list[ImportSite]:
    """The sites importing ``path`` or a name under it, each statement once."""
    sites = [s for u, s in used if u == path or u.startswith(path + ".")]
    return [s for i, s in enumerate(sites) if all(s is not t for t in sites[:i])]


def queries(diff: ApiDiff, report: ImportReport, names: set[str]) -> tuple[list[Query], list[str]]:
    """The symbol searches the join needs; ``names``: identifiers the importing files use."""
    if _javascript(diff):  # a loader's options: named in a build configuration, no import
        return (_npm_queries(diff, report) if report.sites else _schema_queries(diff)), []
    if not report.sites or _workflow(diff):  # a workflow's sites are its uses: no search
        return [], []
    tops = {s.module.split(".")[0] for s in report.sites}
    used = used_paths(report)
    wanted: list[Query] = []
    # names a module only imported or served lazily come last: the cap keeps the defined ones
    ordered = sorted(
        _first_keyword_only(diff.changes),
        key=lambda c: c.kind == "removed" and c.detail in INDIRECT,
    )
    for change in ordered:
        query = _query(change)
        if query is None or change.path.split(".")[0] not in tops or _word(change) not in names:
            continue
        if change.kind == "removed" and any(
            not s.guarded for s in _imported_directly(change.path, used)
        ):
            continue  # the import site itself is the use
        if query not in wanted:
            wanted.append(query)
    notes = []
    if len(wanted) > MAX_QUERIES:
        notes.append(
            f"{len(wanted) - MAX_QUERIES} more changed names this code mentions not checked"
        )
    return wanted[:MAX_QUERIES], notes


def _first_keyword_only(changes: list[ApiChange]) -> list[ApiChange]:
    """The changes, with only the earliest parameter of each callable made keyword-only:
    a call that passes it positionally is the one that breaks first."""
    first: dict[str, ApiChange] = {}
    for change in changes:
        if _now_keyword_only(change):
            kept = first.get(change.path)
            if kept is None or change.position < kept.position:
                first[change.path] = change
    return [c for c in changes if not _now_keyword_only(c) or first[c.path] is c]


# a change of what the module object is → how a use makes it (``default_import``'s arg)
SHAPE_KINDS = {"not_constructible": "new", "now_class": "call", "not_callable": "made"}


def shape_arg(change: ApiChange) -> str:
    """How a use makes the module object for a change of its shape (``default_import``'s
    arg); ``made_required``: only through ``require`` or a namespace import."""
    arg = SHAPE_KINDS[change.kind]
    return "made_required" if arg == "made" and change.detail.endswith(DEFAULT_KEPT) else arg


def _npm_queries(diff: ApiDiff, report: ImportReport) -> list[Query]:
    """A root default export gone: does a ``require`` of the module object call it?"""
    module_objects = [
        s
        for s in report.sites
        if s.style == "require" and not s.subpath and {"*", "default"} & set(s.names.values())
    ]
    gone = any(c.kind == "default_removed" and c.path == report.package for c in diff.changes)
    wanted = [Query(report.package, "default_import")] if gone and module_objects else []
    for change in diff.changes:  # `new Lib(…)` of an arrow function, `Lib(…)` of a class
        if change.kind in SHAPE_KINDS and change.path == report.package:
            wanted.append(Query(report.package, "default_import", arg=shape_arg(change)))
    for change in diff.changes:
        if change.kind in OPTION_KINDS:
            wanted += [q for q in _option_queries(change, report.sites) if q not in wanted]
    for change in diff.changes:
        if change.kind in TYPE_KINDS:
            wanted += [q for q in _type_queries(change, report.sites) if q not in wanted]
    wanted += [q for q in _schema_queries(diff) if q not in wanted]
    return wanted[:MAX_QUERIES]


# changes met by the type-position uses of a name: a generic type now needing more type
# arguments, a name that is no longer a type at all
TYPE_KINDS = ("type_args_required", "no_longer_type")


def _type_queries(change: ApiChange, sites: Iterable[ImportSite]) -> list[Query]:
    """The type-position uses of a name whose type changed (a generic type that now needs
    more type arguments, a type that is a value only now), by each local name it is imported
    under (``import { Match as M }``, ``import Knex from 'knex'``)."""
    module, _, name = change.path.partition(":")
    needed = "any" if change.kind == "no_longer_type" else change.detail.rpartition("→")[2].strip()
    locals_ = {
        local
        for s in sites
        if s.module == module
        for local, imported in s.names.items()
        if imported == name
    }
    return [Query(local, "bare_type", arg=needed) for local in sorted(locals_)]


def _outside(change: ApiChange) -> Query | None:
    """The options the checkout passes the package (beside its name in a configuration, or
    to its module object) that a closed options schema refuses now: any it does not list
    (``options_closed``), or the one it no longer lists (``option_removed`` of the package)."""
    if change.kind == "options_closed":
        return Query(change.path, "options_outside", arg=f"only={change.detail}")
    if change.kind == "option_removed" and ":" not in change.path and "/" not in change.path:
        return Query(change.path, "options_outside", arg=f"not={change.detail}")
    return None


def _schema_queries(diff: ApiDiff) -> list[Query]:
    found = [q for q in map(_outside, diff.changes) if q is not None]
    return list(dict.fromkeys(found))[:MAX_QUERIES]


def _option_queries(change: ApiChange, sites: Iterable[ImportSite]) -> list[Query]:
    """The calls that must pass the option: a named function by its name (``pkg.f(…)`` too),
    the default export by each local name it is imported under."""
    _, _, function = change.path.partition(":")
    if function:
        names = {function}
    else:
        names = {
            local
            for s in sites
            if s.module == change.path and not s.type_only
            for local, imported in s.names.items()
            if imported == "default" or (imported == "*" and s.style == "require")
        }
    kind = OPTION_KINDS[change.kind]
    arg = "" if kind == "positional" else change.detail
    return [Query(name, kind, arg=arg, max_positional=change.position) for name in sorted(names)]


# -- the join -----------------------------------------------------------------------------------


def _narrowed(change: ApiChange) -> str:
    option, _, values = change.detail.partition("=")
    allowed = ", ".join(f"'{v}'" for v in values.split("|") if v)
    return f"the {option} option of {change.path} allows only the strings {allowed}"


def _sentence(change: ApiChange) -> str:
    made, _, member = change.detail.rpartition("().")
    if change.kind == "export_removed" and made and member:  # `new Pool().query`
        return f"what `{made}()` makes in {change.path} has no `{member}` any more"
    short = ".".join(_callable(change.path).split(".")[-2:])
    if change.path.endswith(".__init__"):
        short = change.path.split(".")[-2] + ".__init__"
    return {
        "removed": f"{change.path} is gone",
        "kind_changed": f"{change.path} changed kind ({change.detail})",
        "param_removed": f"{short} has no parameter {change.detail}",
        "param_renamed": f"{short} renamed parameter {change.detail}",
        "param_now_required": f"{short} now requires {change.detail}",
        "param_added_required": f"{short} takes a new required parameter {change.detail}",
        "param_kind_changed": f"{short} parameter {change.detail}",
        "became_esm_only": f"{change.path} is an ES module only ({change.detail})",
        "subpath_closed": f"{change.path} is no longer an entry point (exports)",
        "subpath_removed": f"{change.path} is gone from the package (no such file)",
        "default_removed": f"{change.path} has no default export"
        + (
            " for an `import` (the file bundlers load exports it by name only; `require` still "
            "gets the module object)"
            if change.detail == BUNDLED_DEFAULT
            else ""
        ),
        "not_constructible": f"{change.path}'s module object is no constructor now "
        f"({change.detail}): `new` of it throws",
        "not_callable": f"{change.path}'s module object is no function now ({change.detail}):"
        " calling it, or `new` of it, throws",
        "now_class": f"{change.path}'s module object is a class now ({change.detail}): "
        "calling it without `new` throws",
        "export_removed": f"{change.path} no longer exports {change.detail}",
        "option_now_required": f"{change.path} now requires the {change.detail} option",
        "option_removed": f"{change.path} no longer takes the {change.detail} option",
        "no_longer_type": f"`{change.path.partition(':')[2]}` of {change.path.partition(':')[0]}"
        " is a value only now, no longer a type: code that writes it as a type does not compile",
        "type_args_required": f"the type {change.path} needs more type arguments "
        f"({change.detail.replace(' → ', ' before, ')} now)",
        "options_closed": f"{change.path} validates its options now and refuses any but "
        f"{', '.join(change.detail.split('|'))}",
        "option_values_narrowed": _narrowed(change),
        "positional_reduced": f"{change.path} takes at most {change.position} positional "
        f"argument(s) (was {change.detail.split(' → ')[0]})",
        "input_removed": f"the input {_leaf(change.path)} is gone",
        "input_now_required": f"the input {_leaf(change.path)} is now required (no default)",
        "output_removed": f"the output {_leaf(change.path)} is gone",
    }.get(change.kind, f"{change.kind}: {change.path}")


def _place(diff: ApiDiff, change: ApiChange, artifact: str) -> tuple[str, str]:
    """(the ``where`` line, the ``source``: artifact and file)."""
    if _javascript(diff):  # npm places already start with the release's label
        file = change.where.split(" · ")[1] if " · " in change.where else "package.json"
        return f"{change.where} · {_sentence(change)}", f"{artifact}: {file}"
    file = change.where or change.path.replace(".", "/")
    return f"{artifact} · {file} · {_sentence(change)}", f"{artifact}: {file}"


def _symbols(change: ApiChange) -> tuple[str, ...]:
    if change.kind in PARAM_GONE:
        return (_old_param(change), _callable(change.path))
    if change.kind in PARAM_NEEDED:
        return (_callable(change.path), change.detail)
    if change.kind == "positional_reduced":
        return (change.path.partition(":")[2] or change.path,)
    if change.kind in OPTION_KINDS:
        return (change.detail.partition("=")[0], change.path)
    return (change.path,)


def _all_weak(hits: list[UseHit]) -> bool:
    """Whether no use is strong (an import site always is)."""
    return all(isinstance(h, SymbolHit) and h.evidence != "strong" for h in hits)


def _finding(diff: ApiDiff, change: ApiChange, artifact: str, hits: list[UseHit]) -> Finding:
    where, source = _place(diff, change, artifact)
    weak = _all_weak(hits)
    return Finding(
        change.kind, change.path, change.detail, where, source, _sentence(change),
        _symbols(change), list(hits), "weak" if weak else "strong",
    )  # fmt: skip


def _npm_uses(
    change: ApiChange, sites: Iterable[ImportSite], answers: Mapping[Query, SymbolResult]
) -> list[UseHit]:
    live = [s for s in sites if not s.type_only]
    path = change.path
    if change.kind == "became_esm_only":
        return [s for s in live if (s.style == "require" or s.compiled_require) and not s.esm]
    if change.kind == "subpath_closed":  # what `require` and `import` reach; a file loaded
        resolved = [s for s in live if s.style != "path"]  # by its path is still there
        if path.count("/") == (1 if path.startswith("@") else 0):  # the package's root
            return [s for s in resolved if s.module == path]
        deep = (path, f"{path}.js", f"{path}/index.js")
        return [s for s in resolved if s.module in deep or s.module.startswith(path + "/")]
    if change.kind == "subpath_removed":  # each file is a change of its own
        return [s for s in live if s.module in (path, f"{path}.js", f"{path}/index.js")]
    named = [s for s in live if s.module == path and s.style in ("import", "export-from")]
    if change.kind == "default_removed":
        hits: list[UseHit] = [s for s in named if "default" in s.names.values()]
        if change.detail == BUNDLED_DEFAULT:  # `require` still gets the module object
            return hits
        seen = {(h.path, h.line) for h in hits}
        called = answers.get(Query(path, "default_import"))
        for h in called.hits if called is not None else []:
            if h.context == "code" and (h.path, h.line) not in seen:
                hits.append(h)  # `const x = require('pkg'); x(...)`: the module object called
        return hits
    if change.kind in SHAPE_KINDS:
        made = answers.get(Query(path, "default_import", arg=shape_arg(change)))
        return [h for h in (made.hits if made is not None else []) if h.context == "code"]
    if change.kind == "export_removed":  # a type's import too: erased at run time, but the
        mine = [s for s in sites if s.module == path]  # compiler stops at a name gone
        return [s for s in mine if change.detail in s.names.values()]
    if change.kind in TYPE_KINDS:
        results = [answers.get(q) for q in _type_queries(change, sites)]
        return [h for r in results if r is not None for h in r.hits if h.context == "code"]
    outside = _outside(change)
    if change.kind in OPTION_KINDS or outside is not None:
        wanted = _option_queries(change, live) if change.kind in OPTION_KINDS else []
        results = [answers.get(q) for q in [*wanted, *([outside] if outside else [])]]
        hits = [h for r in results if r is not None for h in r.hits if h.context == "code"]
        return list({(h.path, h.line): h for h in hits}.values())
    return []


def _python_uses(
    change: ApiChange,
    used: list[tuple[str, ImportSite]],
    answers: Mapping[Query, SymbolResult],
) -> list[UseHit]:
    hits: list[UseHit] = []
    if change.kind == "removed":  # `try: from new import X except ImportError: …` copes
        hits.extend(s for s in _imported_directly(change.path, used) if not s.guarded)
    query = _query(change)
    result = answers.get(query) if query is not None else None
    if result is not None:
        hits.extend(h for h in result.hits if h.context == "code")
    return hits


def _workflow_uses(change: ApiChange, sites: Iterable[ImportSite]) -> list[UseHit]:
    """The steps an action's change breaks: a removed input given (at its ``with:`` key), a
    required one left out (at the step), a removed output read (at the read)."""
    name = change.path.partition(".")[2]  # inputs.<name>, outputs.<name>
    if change.kind == "input_removed":
        return [s for s in sites if s.style == "with" and s.subpath == name]
    if change.kind == "input_now_required":
        return [s for s in sites if s.style == "uses" and name not in s.names]
    if change.kind == "output_removed":
        return [s for s in sites if s.style == "output" and s.subpath == name]
    return []


def _workflow_deprecated(dep: Deprecation, sites: Iterable[ImportSite]) -> list[ImportSite]:
    """The steps a deprecation of an action concerns: every step for its runtime or entry
    point, the steps that give a deprecated input, those that leave a changed default."""
    steps = [s for s in sites if s.style == "uses"]
    name = dep.path.partition(".")[2]
    if dep.path.startswith("runs."):
        return steps
    if dep.category == "default changed":
        return [s for s in steps if name not in s.names]
    return [s for s in sites if s.style == "with" and s.subpath == name]


def _workflow_label(dep: Deprecation) -> str:
    if dep.category == "runtime":
        return f"the action's runtime changed ({dep.message})"
    if dep.path.startswith("runs."):
        return f"{dep.path} changed ({dep.message})"
    if dep.category == "default changed":
        return f"the input {_leaf(dep.path)} changed its {dep.message}; this step leaves it out"
    return f"the input {_leaf(dep.path)} is deprecated"


def join(
    diff: ApiDiff,
    report: ImportReport,
    answers: Mapping[Query, SymbolResult],
    artifact: str,
) -> JoinResult:
    """The changes of ``diff`` that touch a use; ``artifact`` labels the new release."""
    used = used_paths(report)
    findings: list[Finding] = []
    for change in _first_keyword_only(diff.changes):
        if _workflow(diff):
            hits: list[UseHit] = _workflow_uses(change, report.sites)
        elif _javascript(diff):
            hits = _npm_uses(change, report.sites, answers)
        else:
            hits = _python_uses(change, used, answers)
        if hits:
            findings.append(_finding(diff, change, artifact, hits))
    deprecated = []
    for dep in diff.deprecated:
        sites = (_workflow_deprecated(dep, report.sites) if _workflow(diff)
                 else _imported_directly(dep.path, used))  # fmt: skip
        if sites:
            label = (_workflow_label(dep) if _workflow(diff)
                     else f"{dep.path} is deprecated ({dep.category})")  # fmt: skip
            where = f"{artifact} · {dep.where or dep.path} · {label}"
            source = f"{artifact}: {dep.where or dep.path}"
            deprecated.append(
                Finding(
                    "deprecated",
                    dep.path,
                    dep.message[:200],
                    where,
                    source,
                    label,
                    (dep.path,),
                    list(sites),
                    "deprecated",
                )  # fmt: skip
            )
    return JoinResult(findings, deprecated, list(diff.notes))


def weaken_unloaded(finding: Finding, unloaded: Callable[[str], str | None]) -> Finding:
    """``finding`` with each use in a file nothing in the checkout loads (``unloaded`` says
    why) made weak (``symbols.loaded``): a finding whose uses are all such is weak."""
    hits, made_weak = weakened(finding.hits, unloaded)
    if not made_weak:
        return finding
    return replace(finding, hits=hits, strength="weak" if _all_weak(hits) else finding.strength)


def fate_findings(diff: ApiDiff, used: Fates, joined: JoinResult, artifact: str) -> list[Finding]:
    """Used names the new release removes whose uses no finding holds (a member reached
    through the module object, ``pkg.gone()``): each a strong finding with that use. The
    uses of what a removed maker made (``pkg:new default().t`` in another module, when the
    default export is gone) are places that change reaches too: they join its finding when
    the join already holds it (``joined`` is extended so)."""
    seen = {(h.path, h.line) for f in joined.findings for h in f.hits}
    found = {(f.kind, f.path, f.detail): f for f in joined.findings}
    by_change: dict[ApiChange, list[UseHit]] = {}
    for fate in used.fates:
        u, change = fate.use, fate.change
        if fate.fate not in ("removed", "moved") or u is None or change is None or u.guarded:
            continue
        held = found.get((change.kind, change.path, change.detail))
        if (u.path, u.line) in seen or (held is not None and "()" not in fate.name):
            continue  # that change is a finding already, with the uses the join saw
        why = (
            f"this code augments {fate.name} (declare module); the new release no longer has "
            "it, so the augmentation reaches nothing"
            if u.how == "augments"
            else f"{fate.name} is used here; the new release removes it"
        )
        for path, line, col, text in ((u.path, u.line, u.col, u.text), *u.also):
            if (path, line) not in seen:  # each use of it, the first and the others
                hits = held.hits if held is not None else by_change.setdefault(change, [])
                if all((h.path, h.line) != (path, line) for h in hits):
                    hits.append(SymbolHit(path, line, col, text, "code", "strong", why))
    return [_finding(diff, c, artifact, hits) for c, hits in by_change.items()]
