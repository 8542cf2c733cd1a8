"""What the planner reads of a conversation, and what it answers: typed records. Pure.

The tool results arrive as JSON objects (shaped by ``agent.observations``, in full or in
their compact form); each record's ``read`` takes one apart with the defaults the planner
reads them with (a missing list is empty, a hit without ``context`` is in code). The
answers go back as tool calls (``Call``): a ``Conclusion`` becomes ``conclude``'s arguments.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from depbot.records.versions import semver_promise

JSON = dict[str, Any]  # a tool call's arguments, a tool's result

MAX_HITS_CITED = 50  # the hit ids one conclusion cites (as many as `conclude` takes)


# --- the conversation ------------------------------------------------------------------------


@dataclass(frozen=True)
class UpdateEntry:
    """One update of the user message (``agent.prompts.update_entry``)."""

    package: str
    ecosystem: str = "pip"
    frm: str = "?"
    to: str = "?"
    update_type: str = ""
    may_break: bool = False

    @classmethod
    def read(cls, d: JSON) -> UpdateEntry:
        return cls(
            package=str(d["package"]),
            ecosystem=str(d.get("ecosystem") or "pip"),
            frm=str(d.get("from", "?")),
            to=str(d.get("to", "?")),
            update_type=str(d.get("update_type", "")),
            may_break=bool(d.get("may_break")),
        )

    @property
    def promised(self) -> bool:
        """A patch bump of a 1.x+ version, which semver promises to be compatible."""
        return semver_promise(self.ecosystem, self.frm, self.to)


@dataclass(frozen=True)
class Candidate:
    """Something the notes name to look for in the code (``changelogs.wording.Candidate``);
    a field the result leaves out is None."""

    symbol: str
    kind: str = "name"
    of: str | None = None  # owning callable / class, for parameter-like kinds
    arg: str | None = None  # required_arg: the argument; literal_arg: the literal
    max_positional: int | None = None  # positional: how many a call may pass

    @classmethod
    def read(cls, d: JSON) -> Candidate:
        return cls(
            str(d.get("symbol", "")),
            str(d.get("kind", "name")),
            d.get("of"),
            d.get("arg"),
            d.get("max_positional"),
        )

    def search_args(self, package: str) -> JSON:
        """The arguments of the ``search_symbol`` call that looks for it."""
        args: JSON = {"package": package, "symbol": self.symbol, "kind": self.kind}
        for k, v in (("of", self.of), ("arg", self.arg), ("max_positional", self.max_positional)):
            if v not in (None, ""):
                args[k] = v
        return args


@dataclass(frozen=True)
class Entry:
    """One item of the notes: a breaking change, a deprecation, or (``from_deprecation``) a
    deprecation note from before the range, read when the range removes deprecated code."""

    ref: str
    version: str | None = None  # None: the entry does not say
    item: str = ""  # the item's text, fenced
    candidates: tuple[Candidate, ...] = ()
    replacements: tuple[str, ...] = ()
    deprecates: tuple[Candidate, ...] = ()  # a deprecation: the names it deprecates
    from_deprecation: bool = False
    declared: bool = False  # listed under a generator's "BREAKING CHANGES" heading

    @classmethod
    def read(cls, d: JSON, *, from_deprecation: bool = False) -> Entry:
        return cls(
            ref=str(d.get("ref", "")),
            version=None if d.get("version") is None else str(d["version"]),
            item=str(d.get("item", "")),
            candidates=tuple(Candidate.read(c) for c in d.get("candidates") or []),
            replacements=tuple(str(r) for r in d.get("replacements") or []),
            deprecates=tuple(Candidate.read(c) for c in d.get("deprecates") or []),
            from_deprecation=from_deprecation,
            declared=bool(d.get("declared")),
        )

    def version_or(self, default: str) -> str:
        return default if self.version is None else self.version


Pair = tuple[Candidate, Entry]  # a candidate and the entry of the notes it came from


@dataclass(frozen=True)
class Coverage:
    """Which releases of the range that may break have notes (``agent.coverage``)."""

    needed: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()

    @classmethod
    def read(cls, d: JSON) -> Coverage:
        return cls(
            tuple(str(v) for v in d.get("needed") or []),
            tuple(str(v) for v in d.get("missing") or []),
        )


@dataclass(frozen=True)
class Changelog:
    """A ``fetch_changelog`` result."""

    found: bool = False
    note: str = ""
    breaking: tuple[Entry, ...] = ()
    deprecations: tuple[Entry, ...] = ()
    deprecated_before: tuple[Entry, ...] = ()  # read with ``from_deprecation``
    removes_deprecated_code: bool = False
    missing_versions: tuple[str, ...] = ()
    sources_tried: tuple[str, ...] = ()
    coverage: Coverage | None = None  # None: the result has none
    breaking_lines_cut: bool = False  # lines about breaking changes cut to fit the budget
    # breaking items left out of a result over its limit that announce a break no search can
    # clear (the first few, fenced), and how many there are
    announced_not_shown: tuple[str, ...] = ()
    announced_not_shown_count: int = 0

    @classmethod
    def read(cls, d: JSON) -> Changelog:
        def entries(key: str, **kw: bool) -> tuple[Entry, ...]:
            return tuple(Entry.read(e, **kw) for e in d.get(key) or [])

        return cls(
            found=bool(d.get("found")),
            note=str(d.get("note") or ""),
            breaking=entries("breaking"),
            deprecations=entries("deprecations"),
            deprecated_before=entries("deprecated_before", from_deprecation=True),
            removes_deprecated_code=bool(d.get("removes_deprecated_code")),
            missing_versions=tuple(str(v) for v in d.get("missing_versions") or []),
            sources_tried=tuple(str(t) for t in d.get("sources_tried") or []),
            coverage=Coverage.read(d["coverage"] or {}) if "coverage" in d else None,
            breaking_lines_cut=bool(d.get("breaking_lines_cut")),
            announced_not_shown=tuple(str(t) for t in d.get("announced_not_shown") or []),
            announced_not_shown_count=int(d.get("announced_not_shown_count") or 0),
        )


@dataclass(frozen=True)
class CodeHit:
    """A place in the checkout a search (or a finding of the released code) returned."""

    id: str
    path: str = ""
    line: int | None = None
    context: str = "code"  # code | comment | string
    evidence: str | None = None  # strong | weak; None: the hit does not say
    why: str = ""

    @classmethod
    def read(cls, d: JSON) -> CodeHit:
        return cls(
            str(d["id"]),
            str(d.get("path", "")),
            d.get("line"),
            str(d.get("context", "code")),
            d.get("evidence"),
            str(d.get("why", "")),
        )


@dataclass(frozen=True)
class SearchResult:
    """A ``search_symbol``, ``search_code`` or ``where_imported`` result."""

    hits: tuple[CodeHit, ...] = ()
    excluded: dict[str, int] = field(default_factory=dict)  # matches set aside, by reason
    total: int = 0
    truncated: bool = False
    compacted: bool = False  # read back in its compact form, without its lines
    lines: str = ""  # the hits' lines, fenced
    error: str | None = None
    blank: bool = False  # an empty object: it answers nothing

    @classmethod
    def read(cls, d: JSON) -> SearchResult:
        return cls(
            hits=tuple(CodeHit.read(h) for h in d.get("hits") or []),
            excluded={str(k): v for k, v in (d.get("excluded") or {}).items()},
            total=int(d.get("total") or 0),
            truncated=bool(d.get("truncated")),
            compacted=bool(d.get("compacted")),
            lines=str(d.get("lines") or ""),
            error=str(d["error"]) if "error" in d else None,
            blank=not d,
        )


NO_ANSWER = SearchResult(blank=True)
Code = dict[str, SearchResult | None]  # search_code results by pattern (None: pending)


@dataclass
class Search:
    """A ``search_symbol`` call and its result (None: pending)."""

    args: JSON
    result: SearchResult | None = None

    @property
    def symbol(self) -> str:
        return str(self.args.get("symbol", ""))

    @property
    def kind(self) -> Any:
        return self.args.get("kind")


@dataclass(frozen=True)
class Finding:
    """A change of the released code that this code uses (one ``api_diff`` finding)."""

    id: str
    strength: str = ""  # strong | ...
    symbols: tuple[str, ...] = ()
    where: str = ""  # fenced
    hits: tuple[CodeHit, ...] = ()
    kind: str = ""  # the change's kind (records/api.py: removed, param_now_required, …)

    @classmethod
    def read(cls, d: JSON) -> Finding:
        return cls(
            str(d["id"]),
            str(d.get("strength", "")),
            tuple(str(s) for s in d.get("symbols") or []),
            str(d.get("where", "")),
            tuple(CodeHit.read(h) for h in d.get("hits") or []),
            str(d.get("kind", "")),
        )


@dataclass(frozen=True)
class ApiResult:
    """An ``api_diff`` result (an error reads as not compared)."""

    compared: bool = False
    incomplete: bool = False  # part of the code was not compared
    changes_in_diff: int = 0
    findings: tuple[Finding, ...] = ()
    names_total: int = 0  # the names this code takes from the package
    names_resolved: int = 0  # of those, the ones found in the old release's API
    why_not: str = ""  # why the released code could not be compared (fenced)
    deprecated: tuple[Finding, ...] = ()  # deprecations (a runtime moved) this code meets
    undeclared: str = ""  # the used names neither release declares (fenced lines), if any

    @classmethod
    def read(cls, d: JSON) -> ApiResult:
        used = d.get("used_names") or {}
        return cls(
            bool(d.get("compared")),
            bool(d.get("incomplete")),
            d.get("changes_in_diff", 0),
            tuple(Finding.read(f) for f in d.get("findings") or []),
            int(used.get("total", 0)),
            int(used.get("resolved", 0)),
            str(d.get("not_compared") or ""),
            tuple(Finding.read(f) for f in d.get("deprecated") or []),
            str(used.get("undeclared") or ""),
        )


@dataclass
class State:
    """What the conversation says of one update: what was asked, what came back."""

    update: UpdateEntry
    fetched: int = 0  # fetch_changelog calls made
    fetch_pending: bool = False
    fetch_errors: list[str] = field(default_factory=list)
    changelog: Changelog | None = None
    imported: SearchResult | None = None  # the where_imported result
    imported_asked: bool = False
    imported_pending: bool = False
    code: Code = field(default_factory=dict)  # shared by the updates of the conversation
    searches: list[Search] = field(default_factory=list)
    api_asked: bool = False
    api: ApiResult | None = None  # the api_diff result (None: not asked, or pending)
    concluded: bool = False
    rejections: list[str] = field(default_factory=list)
    reach_asked: bool = False
    reach: JSON | None = None  # the who_loads result (None: not asked, or pending)

    @property
    def searching(self) -> bool:
        """A search_symbol call is still unanswered."""
        return any(s.result is None for s in self.searches)


# --- the answers -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """A tool call to make."""

    name: str
    args: JSON


@dataclass(frozen=True)
class Change:
    """A breaking change a conclusion names."""

    summary: str
    symbols: tuple[str, ...]
    source_ref: str

    def to_args(self) -> JSON:
        return {
            "summary": self.summary,
            "symbols": list(self.symbols),
            "source_ref": self.source_ref,
        }


@dataclass(frozen=True)
class Conclusion:
    """A verdict with its reason; an ``affected`` one also names the changes, the hits it
    cites and a fix."""

    package: str
    verdict: str  # affected | not_affected | unknown
    reason: str
    breaking_changes: tuple[Change, ...] = ()
    hit_ids: tuple[str, ...] = ()
    suggested_fix: str = ""

    def to_args(self) -> JSON:
        args: JSON = {"package": self.package, "verdict": self.verdict, "reason": self.reason}
        if self.verdict == "affected":
            args["breaking_changes"] = [c.to_args() for c in self.breaking_changes]
            args["hit_ids"] = list(self.hit_ids)
            args["suggested_fix"] = self.suggested_fix
        return args

    def call(self) -> Call:
        return Call("conclude", self.to_args())
