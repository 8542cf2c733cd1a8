"""The tools a model may call, with every boundary enforced in code.

``Toolbox`` belongs to one conversation (one batch of updates). It validates arguments
against the schemas, refuses unknown tools and packages outside the batch, guards
against repeated calls, fences untrusted text, records facts in the shared ``Ledger``
and turns conclusions into verdicts through ``integrity.check_conclusion``. Results go
back to the model as compact JSON; errors as one short sentence.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from depbot.agent.integrity import Rejected, check_conclusion
from depbot.agent.ledger import HitFact, Ledger, SearchFact, SectionFact
from depbot.agent.schema import validate
from depbot.changelogs.breaking import CANDIDATE_KINDS, analyze_section, deprecated_names
from depbot.core.errors import DepbotError, ToolError, UpstreamError
from depbot.core.fence import fence, redact, strip_invisible
from depbot.records.update import Update
from depbot.records.versions import normalize_ecosystem

MAX_CALLS_PER_REPLY = 40
MAX_ARGUMENT_BYTES = 20_000
SEARCH_TOOLS = ("search_code", "search_symbol", "where_imported")
NOTHING_NEW_LIMIT = 3


class Services(Protocol):
    """The backends the tools call (see triage.py for the real ones)."""

    def fetch_changelog(self, update: Update) -> Any: ...
    def search_code(self, pattern: str, **kw: Any) -> Any: ...
    def where_imported(self, ecosystem: str, package: str) -> Any: ...
    def search_symbol(self, ecosystem: str, package: str, symbol: str, **kw: Any) -> Any: ...
    def import_names(self, ecosystem: str, package: str) -> list[str]: ...


_STR = {"type": "string", "maxLength": 200}
SCHEMAS: dict[str, dict[str, Any]] = {
    "fetch_changelog": {
        "description": (
            "Read the release notes of one update of the list: every section between the "
            "installed and the new version, newest first, with refs to cite. Also lists the "
            "breaking items found in them with candidate symbols to search for, and, when "
            "the update removes previously deprecated code, the older deprecation notes."
        ),
        "parameters": {
            "type": "object",
            "properties": {"package": {"type": "string", "maxLength": 214}},
            "required": ["package"],
            "additionalProperties": False,
        },
    },
    "search_code": {
        "description": (
            "Plain text or regex search of the checkout (ripgrep). Literal by default. Each hit "
            "has an id, path, line and whether it sits in code, a comment or a string."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "pattern": _STR,
                "regex": {"type": "boolean"},
                "path_glob": _STR,
                "word": {"type": "boolean"},
            },
            "required": ["pattern"],
            "additionalProperties": False,
        },
    },
    "where_imported": {
        "description": (
            "Where a package is imported or required in the checkout, under which names, and "
            "whether each importing file is an ES module. Import sites are hits with ids."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "package": {"type": "string", "maxLength": 214},
                "ecosystem": {"type": "string", "enum": ["pip", "npm"]},
            },
            "required": ["package"],
            "additionalProperties": False,
        },
    },
    "search_symbol": {
        "description": (
            "Find uses of a package's API that a breaking change affects, resolving import "
            "aliases and receivers. kind: name (removed function/class/attribute), parameter "
            "(removed keyword/option; of = its function), required_arg (calls of symbol that "
            "do not pass arg), positional (calls of symbol with more than max_positional "
            "positional arguments), signature (calls shaped like symbol, e.g. 'res.send(status)'), "
            "literal_arg (calls of symbol passing the literal arg), module (require() of an "
            "ES-module-only package from CommonJS), default_import, subpath ('pkg/sub' entry "
            "point), module_path ('pkg.sub' module), config_key, async (calls not awaited). "
            "Hits say how strong the evidence is and why."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "package": {"type": "string", "maxLength": 214},
                "symbol": _STR,
                "kind": {"type": "string", "enum": list(CANDIDATE_KINDS)},
                "of": {"type": "string", "maxLength": 120},
                "arg": {"type": "string", "maxLength": 120},
                "max_positional": {"type": "integer", "minimum": 0, "maximum": 20},
            },
            "required": ["package", "symbol"],
            "additionalProperties": False,
        },
    },
    "conclude": {
        "description": (
            "Give the verdict for one update. affected: cite hit_ids from searches of this run "
            "and breaking_changes with the source_ref of the changelog section. not_affected: "
            "the breaking changes do not touch the code (or nothing breaks). unknown: the facts "
            "could not be had; say why in reason."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "package": {"type": "string", "maxLength": 214},
                "verdict": {"type": "string", "enum": ["affected", "not_affected", "unknown"]},
                "reason": {"type": "string", "maxLength": 1000},
                "breaking_changes": {
                    "type": "array",
                    "maxItems": 20,
                    "items": {
                        "type": "object",
                        "properties": {
                            "summary": {"type": "string", "maxLength": 400},
                            "symbols": {"type": "array", "maxItems": 10, "items": _STR},
                            "source_ref": {"type": "string", "maxLength": 40},
                        },
                        "required": ["summary", "source_ref"],
                        "additionalProperties": False,
                    },
                },
                "hit_ids": {
                    "type": "array",
                    "maxItems": 50,
                    "items": {"type": "string", "maxLength": 20},
                },
                "suggested_fix": {"type": "string", "maxLength": 2000},
            },
            "required": ["package", "verdict", "reason"],
            "additionalProperties": False,
        },
    },
}


def tool_specs() -> list[dict[str, Any]]:
    """The tools in the OpenAI chat-completions format."""
    return [
        {"type": "function", "function": {"name": name, **spec}} for name, spec in SCHEMAS.items()
    ]


@dataclass
class Outcome:
    """What one tool call produced."""

    content: str  # sent to the model
    ok: bool
    compact: str = ""  # shorter form for later rounds ("" = keep content)
    guard: str = ""  # repeat | refused | invalid | rejected | error
    error_detail: str = ""  # for the trace only
    new_facts: int = 0
    seconds: float = 0.0


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name.strip().lower())


@dataclass
class Toolbox:
    updates: list[Update]
    ledger: Ledger
    services: Services
    nonce: str
    secrets: tuple[str, ...] = ()
    on_verdict: Callable[[Any], None] | None = None
    _calls: dict[str, tuple[int, str]] = field(default_factory=dict)  # key -> (count, first id)
    _errors: dict[str, int] = field(default_factory=dict)
    _nothing_new: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    # -- the batch -------------------------------------------------------------------------

    def find_update(self, package: str) -> Update | None:
        want = _norm(package)
        for u in self.updates:
            if _norm(u.package) == want:
                return u
        return None

    def open_updates(self) -> list[Update]:
        return [u for u in self.updates if self.ledger.verdict(u.key) is None]

    def all_concluded(self) -> bool:
        return not self.open_updates()

    def _unknown_package(self, package: str) -> ToolError:
        names = ", ".join(u.package for u in self.updates)
        return ToolError(
            f"unknown package {strip_invisible(package)[:80]!r}; the updates in this "
            f"conversation are: {names}"
        )

    # -- entry point ---------------------------------------------------------------------------

    def execute(self, name: str, raw_args: str) -> Outcome:
        """Run one tool call. Never raises: every failure becomes a short message."""
        if name not in SCHEMAS:
            return self._fail(
                f"unknown tool {strip_invisible(str(name))[:40]!r}; valid tools: {', '.join(SCHEMAS)}",
                "invalid",
            )
        if len(raw_args or "") > MAX_ARGUMENT_BYTES:
            return self._fail(
                f"arguments of {name} are too large ({len(raw_args)} bytes; limit {MAX_ARGUMENT_BYTES})",
                "invalid",
            )
        try:
            args = json.loads(raw_args or "{}")
        except json.JSONDecodeError as exc:
            return self._fail(
                f"arguments of {name} are not valid JSON ({exc.msg} at position {exc.pos}); "
                "send a JSON object",
                "invalid",
            )
        except RecursionError:  # "[[[[…" thousands deep: valid JSON, but no tool takes it
            return self._fail(
                f"arguments of {name} are nested too deeply; send a flat JSON object", "invalid"
            )
        problems = validate(args, SCHEMAS[name]["parameters"])
        if problems:
            return self._fail(f"{name}: " + "; ".join(problems[:4]), "invalid")
        key = f"{name}:{_dump(sorted(args.items()))}"
        with self._lock:
            count, first_id = self._calls.get(key, (0, ""))
            if count >= 2:
                return self._fail(
                    f"refused: this exact {name} call was already made twice (result {first_id}); "
                    "use that result or try something else",
                    "refused",
                )
            if count == 1:
                self._calls[key] = (2, first_id)
                note = {
                    "repeat_of": first_id,
                    "note": f"same call as {first_id}; its result is above",
                }
                return Outcome(_dump(note), True, guard="repeat")
            if self._errors.get(key, 0) >= 3:
                return self._fail(
                    f"refused: {name} failed three times with these arguments", "refused"
                )
        try:
            outcome = getattr(self, f"_tool_{name}")(args)
        except Rejected as exc:
            self.ledger.reject()
            return self._fail(f"conclusion rejected: {exc}", "rejected")
        except (ToolError, UpstreamError) as exc:
            with self._lock:
                self._errors[key] = self._errors.get(key, 0) + 1
            return self._fail(redact(str(exc), self.secrets), "error")
        except DepbotError as exc:
            return self._fail(redact(str(exc), self.secrets), "error")
        except Exception as exc:  # noqa: BLE001 - the model gets a sentence, the trace the detail
            return self._fail(
                f"{name} failed unexpectedly; try another approach",
                "error",
                detail=redact(f"{type(exc).__name__}: {exc}", self.secrets),
            )
        result_id = outcome.pop("_id", "")
        compact = outcome.pop("_compact", None)
        new_facts = int(outcome.pop("_new", 0))
        if name in SEARCH_TOOLS:
            with self._lock:
                self._nothing_new = 0 if new_facts else self._nothing_new + 1
                if self._nothing_new >= NOTHING_NEW_LIMIT:
                    outcome["note_from_depbot"] = (
                        f"your last {self._nothing_new} searches found nothing new; "
                        "conclude with what you have"
                    )
        with self._lock:
            self._calls[key] = (1, result_id)
        return Outcome(
            _dump(outcome),
            True,
            compact=_dump(compact) if compact is not None else "",
            new_facts=new_facts,
        )

    def _fail(self, message: str, guard: str, detail: str = "") -> Outcome:
        return Outcome(
            _dump({"error": message}), False, guard=guard, error_detail=detail or message
        )

    # -- fetch_changelog -----------------------------------------------------------------------

    def _fence(self, text: str, source: str, limit: int = 0) -> str:
        return fence(text, source=source, nonce=self.nonce, limit=limit)

    def _record_section(self, ref: str, update: Update, sec: Any) -> None:
        fact = SectionFact(
            ref, update.package.lower(), sec.version, sec.heading, sec.body, sec.source, sec.kind
        )
        self.ledger.add_section(fact)

    def _note_section(self, ref: str, items: Any, *, breaking: bool) -> None:
        symbols = tuple(dict.fromkeys(c.symbol for it in items for c in it.candidates))
        self.ledger.note_section(ref, breaking=breaking, symbols=symbols)

    def _tool_fetch_changelog(self, args: dict[str, Any]) -> dict[str, Any]:
        update = self.find_update(args["package"])
        if update is None:
            raise self._unknown_package(args["package"])
        result = self.services.fetch_changelog(update)
        cid = self.ledger.next_id("c")
        names = tuple(self.services.import_names(update.ecosystem, update.package))
        sections, breaking, deprecations, versions = [], [], [], []
        removes_deprecated = False
        for i, sec in enumerate(result.sections, 1):
            ref = f"{cid}.s{i}"
            self._record_section(ref, update, sec)
            versions.append(sec.version)
            sections.append(
                {
                    "ref": ref,
                    "version": sec.version,
                    "source": sec.source,
                    "text": self._fence(sec.body, sec.source, limit=6000),
                }  # fmt: skip
            )
            items = analyze_section(sec.body, package=update.package, import_names=names)
            self._note_section(ref, items, breaking=any(it.category == "breaking" for it in items))
            for item in items:
                removes_deprecated |= item.removes_deprecated
                entry = {
                    "ref": ref,
                    "version": sec.version,
                    "item": self._fence(item.text, sec.source, 400),
                }
                if item.category == "breaking":
                    entry["candidates"] = [c.to_dict() for c in item.candidates]
                    if item.replacements:
                        entry["replacements"] = list(item.replacements)[:8]
                    breaking.append(entry)
                elif item.category == "deprecation":
                    deprecations.append(entry)
        context = []
        if removes_deprecated:
            for j, sec in enumerate(getattr(result, "context", []) or [], 1):
                ref = f"{cid}.d{j}"
                self._record_section(ref, update, sec)
                items = deprecated_names(sec.body, package=update.package, import_names=names)
                self._note_section(ref, items, breaking=True)
                entry = {
                    "ref": ref,
                    "version": sec.version,
                    "text": self._fence(sec.body, sec.source, 1500),
                    "candidates": [c.to_dict() for it in items for c in it.candidates],
                }
                replacements = list(dict.fromkeys(r for it in items for r in it.replacements))[:8]
                if replacements:
                    entry["replacements"] = replacements
                context.append(entry)
        found = bool(result.sections)
        named = [c["symbol"] for e in breaking + context for c in e.get("candidates", [])]
        summary = {"found": found, "versions": versions, "note": result.note,
                   "candidates": list(dict.fromkeys(named))}  # fmt: skip
        self.ledger.record_changelog(update.package, summary)
        out: dict[str, Any] = {
            "id": cid,
            "package": update.package,
            "from": update.from_version,
            "to": update.to_version,
            "update_type": update.update_type,
            "found": found,
            "note": strip_invisible(result.note)[:600],
            "sections": sections,
            "breaking": breaking,
        }
        if deprecations:
            out["deprecations"] = deprecations[:20]
        if removes_deprecated:
            out["removes_deprecated_code"] = True
        if context:
            out["deprecated_before"] = context
        for key in ("sources_tried", "missing_versions", "errors"):
            value = getattr(result, key, None)
            if value:
                out[key] = [strip_invisible(str(v))[:300] for v in value][:12]
        if getattr(result, "trimmed", None):
            out["trimmed"] = strip_invisible(str(result.trimmed))[:300]
        compact = {
            k: v
            for k, v in out.items()
            if k not in ("sections", "deprecations", "deprecated_before")
        }
        compact["sections"] = [{"ref": s["ref"], "version": s["version"]} for s in sections]
        compact["breaking"] = breaking  # already short: fenced items with their candidates
        if context:
            compact["deprecated_before"] = [
                {k: v for k, v in c.items() if k != "text"} for c in context
            ]
        compact["compacted"] = True
        out["_id"], out["_compact"], out["_new"] = cid, compact, len(sections)
        return out

    # -- searches ----------------------------------------------------------------------------

    def _record_hits(
        self, hits: list[Any], *, search_id: str, tool: str, symbol: str = "", package: str = ""
    ) -> tuple[list[dict], str, int]:
        """Give each hit an id (reusing ids of places seen before); the hit list and a fenced block of lines."""
        listed, lines, new = [], [], 0
        for h in hits:
            hid = self.ledger.hit_id_for(h.path, h.line, h.col)
            text = redact(strip_invisible(h.text), self.secrets)
            if self._in_secret_block(h.path, h.line):
                text = "[REDACTED: a line of a private key block]"
            if hid is None:
                hid = self.ledger.next_id("h")
                new += 1
                self.ledger.add_hit(
                    HitFact(
                        id=hid,
                        path=h.path,
                        line=h.line,
                        col=h.col,
                        text=text,
                        context=getattr(h, "context", "code"),
                        evidence=getattr(h, "evidence", ""),
                        why=getattr(h, "why", ""),
                        search_id=search_id,
                        tool=tool,
                        symbol=symbol,
                    )  # fmt: skip
                )
            if package:
                self.ledger.tag_hit(hid, package, symbol)
            entry = {
                "id": hid,
                "path": h.path,
                "line": h.line,
                "context": getattr(h, "context", "code"),
            }
            for attr in ("evidence", "why", "style", "esm"):
                value = getattr(h, attr, None)
                if value not in (None, ""):
                    entry[attr] = value
            listed.append(entry)
            lines.append(f"{hid} {h.path}:{h.line}: {text}")
        block = self._fence("\n".join(lines), "checkout", 8000) if lines else ""
        return listed, block, new

    def _in_secret_block(self, path: str, line: int) -> bool:
        check = getattr(self.services, "in_secret_block", None)
        try:
            return bool(check(path, line)) if check else False
        except DepbotError:
            return False

    def _search_result(
        self, result: Any, sid: str, tool: str, symbol: str = "", package: str = ""
    ) -> dict[str, Any]:
        hits, block, new = self._record_hits(
            list(result.hits), search_id=sid, tool=tool, symbol=symbol, package=package
        )
        self.ledger.record_search(SearchFact(tool, package.lower(), symbol, len(hits)))
        out: dict[str, Any] = {
            "id": sid,
            "hits": hits,
            "total": getattr(result, "total", len(hits)),
        }
        if getattr(result, "truncated", False):
            out["truncated"] = True
        if block:
            out["lines"] = block
        note = getattr(result, "note", "")
        if note:
            out["note"] = strip_invisible(note)[:400]
        excluded = getattr(result, "excluded", None)
        if excluded:
            out["excluded"] = dict(excluded)
        compact = {k: v for k, v in out.items() if k != "lines"}
        compact["compacted"] = True
        out["_id"], out["_compact"], out["_new"] = sid, compact, new
        return out

    def _tool_search_code(self, args: dict[str, Any]) -> dict[str, Any]:
        result = self.services.search_code(
            args["pattern"],
            regex=bool(args.get("regex", False)),
            path_glob=args.get("path_glob"),
            word=bool(args.get("word", False)),
        )
        out = self._search_result(result, self.ledger.next_id("s"), "search_code", args["pattern"])
        out["pattern"] = args["pattern"]
        return out

    def _ecosystem_for(self, package: str, given: str | None) -> tuple[str, str]:
        update = self.find_update(package)
        if given:
            return normalize_ecosystem(given), update.package if update else package
        if update is None:
            raise self._unknown_package(package)
        return update.ecosystem, update.package

    def _tool_where_imported(self, args: dict[str, Any]) -> dict[str, Any]:
        eco, package = self._ecosystem_for(args["package"], args.get("ecosystem"))
        report = self.services.where_imported(eco, package)
        sid = self.ledger.next_id("w")
        out = self._search_result(_Sites(report), sid, "where_imported", package, package)
        out["package"] = package
        out["import_names"] = list(getattr(report, "import_names", []))
        out["files"] = list(getattr(report, "files", []))[:50]
        return out

    def _tool_search_symbol(self, args: dict[str, Any]) -> dict[str, Any]:
        update = self.find_update(args["package"])
        if update is None:
            raise self._unknown_package(args["package"])
        kw = {k: args[k] for k in ("kind", "of", "arg", "max_positional") if k in args}
        result = self.services.search_symbol(update.ecosystem, update.package, args["symbol"], **kw)
        out = self._search_result(
            result, self.ledger.next_id("s"), "search_symbol", args["symbol"], update.package
        )
        out["symbol"] = args["symbol"]
        out["kind"] = args.get("kind", "name")
        return out

    # -- conclude ------------------------------------------------------------------------------

    def _tool_conclude(self, args: dict[str, Any]) -> dict[str, Any]:
        update = self.find_update(args["package"])
        if update is None:
            raise self._unknown_package(args["package"])
        with self._lock:
            existing = self.ledger.verdict(update.key)
            if existing is not None:
                raise Rejected(
                    f"{update.package} is already concluded as {existing.verdict}; conclusions are final"
                )
            verdict = check_conclusion(args, update=update, ledger=self.ledger)
            self.ledger.add_verdict(update.key, verdict)
        if self.on_verdict is not None:
            self.on_verdict(verdict)
        left = [u.package for u in self.open_updates()]
        out = {
            "accepted": True,
            "package": update.package,
            "verdict": verdict.verdict,
            "still_open": left,
        }
        out["_id"] = ""
        return out


@dataclass
class _Sites:
    """Adapts an import report to the search-result shape (sites are hits)."""

    report: Any

    @property
    def hits(self) -> list[Any]:
        return list(getattr(self.report, "sites", []))

    @property
    def total(self) -> int:
        return len(self.hits)

    @property
    def note(self) -> str:
        return str(getattr(self.report, "note", ""))
