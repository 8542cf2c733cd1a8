"""The tools a model may call, with every boundary enforced in code.

``Toolbox`` belongs to one conversation (one batch of updates). It validates arguments
against the schemas (``specs``), refuses unknown tools and packages outside the batch,
guards against repeated calls, fences untrusted text, records facts in the shared
``Ledger`` and turns conclusions into verdicts through ``integrity.check_conclusion``.
The backends sit behind ``services.Services``; what the model reads back is shaped in
``observations`` (compact JSON; errors as one short sentence).
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn

from depbot import ecosystems
from depbot.agent.integrity import Rejected, check_conclusion
from depbot.agent.ledger import ApiFact, HitFact, Ledger, SearchFact, SectionFact
from depbot.agent.observations import (
    Observation,
    Outcome,
    ReadSection,
    api_observation,
    changelog_observation,
    changelog_summary,
    conclusion_observation,
    dump,
    failure,
    hit_context,
    hit_entry,
    hit_evidence,
    hit_lines,
    reach_observation,
    removes_deprecated,
    repeat,
    search_observation,
    success,
)
from depbot.agent.schema import validate
from depbot.agent.services import Hit, Services, checked_uses
from depbot.agent.specs import MAX_CALLS_PER_REPLY, SCHEMAS, SEARCH_TOOLS, tool_specs
from depbot.apidiff.fates import fates
from depbot.apidiff.join import Finding, fate_findings, join, weaken_unloaded
from depbot.changelogs.breaking import analyze_section, deprecated_names
from depbot.changelogs.deprecated import fill_removed_deprecations
from depbot.changelogs.sections import version_key
from depbot.core.errors import DepbotError, ToolError, UpstreamError
from depbot.core.fence import fence, strip_invisible
from depbot.core.redact import KEY_BLOCK_LINE, redact
from depbot.ecosystems import normalize_ecosystem
from depbot.records.names import normalize
from depbot.records.update import Update
from depbot.records.verdict import Verdict
from depbot.search.oversized import size_text
from depbot.symbols.facts import SymbolQuery

# the names other modules import from here (the specs and the seam moved out of this file)
__all__ = [
    "MAX_ARGUMENT_BYTES",
    "MAX_CALLS_PER_REPLY",
    "NOTHING_NEW_LIMIT",
    "SCHEMAS",
    "SEARCH_TOOLS",
    "Outcome",
    "Services",
    "Toolbox",
    "tool_specs",
]

MAX_ARGUMENT_BYTES = 20_000
MAX_IMPORT_SITES = 60  # where_imported lists at most this many sites (a 50,000-file checkout
MAX_FILES_LISTED = 50  # returned 5.1 MB before), and the first files with their counts


def first_per_file(hits: list[Hit], limit: int) -> list[Hit]:
    """At most ``limit`` hits: each file's first hit (in order), then the rest in order."""
    seen: set[str] = set()
    firsts = [h for h in hits if h.path not in seen and not seen.add(h.path)]
    picked = set(map(id, firsts[:limit]))
    rest = [h for h in hits if id(h) not in picked]
    chosen = set(map(id, firsts[:limit] + rest[: max(0, limit - len(firsts))]))
    return [h for h in hits if id(h) in chosen]


NOTHING_NEW_LIMIT = 3


def _norm(name: str) -> str:
    return normalize(name.strip())


class _Answered(Exception):
    """The call is answered without running its tool: a refusal, an error or a repeat."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.content)
        self.outcome = outcome


@dataclass
class Toolbox:
    updates: list[Update]
    ledger: Ledger
    services: Services
    nonce: str
    secrets: tuple[str, ...] = ()
    on_verdict: Callable[[Verdict], None] | None = None
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

    def _in_batch(self, package: str) -> Update:
        update = self.find_update(package)
        if update is None:
            names = ", ".join(u.package for u in self.updates)
            raise ToolError(
                f"unknown package {strip_invisible(package)[:80]!r}; the updates in this "
                f"conversation are: {names}"
            )
        return update

    # -- entry points ------------------------------------------------------------------------

    def execute_call(self, call: Mapping[str, Any], position: int) -> Outcome:
        """Run one tool call of a reply (OpenAI shape), the ``position``-th (from 0).

        Calls past ``MAX_CALLS_PER_REPLY`` in one reply are refused unread."""
        if position >= MAX_CALLS_PER_REPLY:
            return failure(
                f"refused: too many tool calls in one reply (limit {MAX_CALLS_PER_REPLY})",
                "refused",
            )
        fn = call.get("function") or {}
        args = fn.get("arguments")
        if not isinstance(args, str):
            args = json.dumps(args)
        t0 = time.monotonic()
        outcome = self.execute(str(fn.get("name") or ""), args)
        outcome.seconds = round(time.monotonic() - t0, 3)
        return outcome

    def execute(self, name: str, raw_args: str) -> Outcome:
        """Run one tool call. Never raises: every failure becomes a short message."""
        try:
            args = self._arguments(name, raw_args)
            key = f"{name}:{dump(sorted(args.items()))}"
            self._check_repeat(name, key)
            obs = self._run(name, args, key)
        except _Answered as answered:
            return answered.outcome
        if name in SEARCH_TOOLS:
            with self._lock:
                self._nothing_new = 0 if obs.new_facts else self._nothing_new + 1
                if self._nothing_new >= NOTHING_NEW_LIMIT:
                    obs.body["note_from_depbot"] = (
                        f"your last {self._nothing_new} searches found nothing new; "
                        "conclude with what you have"
                    )
        with self._lock:
            self._calls[key] = (1, obs.result_id)
        return success(obs)

    # -- guards --------------------------------------------------------------------------------

    def _arguments(self, name: str, raw_args: str) -> dict[str, Any]:
        """The call's arguments, parsed and checked against its schema."""
        if name not in SCHEMAS:
            tools = ", ".join(SCHEMAS)
            self._refuse(f"unknown tool {strip_invisible(str(name))[:40]!r}; valid tools: {tools}")
        if len(raw_args or "") > MAX_ARGUMENT_BYTES:
            self._refuse(
                f"arguments of {name} are too large ({len(raw_args)} bytes; "
                f"limit {MAX_ARGUMENT_BYTES})"
            )
        try:
            args = json.loads(raw_args or "{}")
        except json.JSONDecodeError as exc:
            self._refuse(
                f"arguments of {name} are not valid JSON ({exc.msg} at position {exc.pos}); "
                "send a JSON object"
            )
        except RecursionError:  # "[[[[…" thousands deep: valid JSON, but no tool takes it
            self._refuse(f"arguments of {name} are nested too deeply; send a flat JSON object")
        problems = validate(args, SCHEMAS[name]["parameters"])
        if problems:
            self._refuse(f"{name}: " + "; ".join(problems[:4]))
        return args

    @staticmethod
    def _refuse(message: str, guard: str = "invalid") -> NoReturn:
        raise _Answered(failure(message, guard))

    def _check_repeat(self, name: str, key: str) -> None:
        """A second identical call gets a pointer to the first result; a third is refused."""
        with self._lock:
            count, first_id = self._calls.get(key, (0, ""))
            if count >= 2:
                self._refuse(
                    f"refused: this exact {name} call was already made twice (result {first_id}); "
                    "use that result or try something else",
                    "refused",
                )
            if count == 1:
                self._calls[key] = (2, first_id)
                raise _Answered(repeat(first_id))
            if self._errors.get(key, 0) >= 3:
                self._refuse(f"refused: {name} failed three times with these arguments", "refused")

    def _run(self, name: str, args: dict[str, Any], key: str) -> Observation:
        tools: dict[str, Callable[[dict[str, Any]], Observation]] = {
            "fetch_changelog": self._fetch_changelog,
            "search_code": self._search_code,
            "where_imported": self._where_imported,
            "search_symbol": self._search_symbol,
            "api_diff": self._api_diff,
            "who_loads": self._who_loads,
            "conclude": self._conclude,
        }
        try:
            return tools[name](args)
        except Rejected as exc:
            self.ledger.reject()
            why = failure(f"conclusion rejected: {exc}", "rejected", for_people=exc.plain)
            raise _Answered(why) from None
        except (ToolError, UpstreamError) as exc:
            with self._lock:
                self._errors[key] = self._errors.get(key, 0) + 1
            self._refuse(redact(str(exc), self.secrets), "error")
        except DepbotError as exc:
            self._refuse(redact(str(exc), self.secrets), "error")
        except Exception as exc:  # noqa: BLE001 - the model gets a sentence, the trace the detail
            detail = redact(f"{type(exc).__name__}: {exc}", self.secrets)
            message = f"{name} failed unexpectedly; try another approach"
            raise _Answered(failure(message, "error", detail=detail)) from None

    # -- fetch_changelog -----------------------------------------------------------------------

    def _fence(self, text: str, source: str, limit: int = 0) -> str:
        return fence(text, source=source, nonce=self.nonce, limit=limit)

    def _record_section(self, update: Update, read: ReadSection, *, breaking: bool) -> None:
        sec = read.section
        fact = SectionFact(
            read.ref,
            update.package.lower(),
            sec.version,
            sec.heading,
            sec.body,
            sec.source,
            sec.kind,
        )
        self.ledger.add_section(fact)
        symbols = tuple(dict.fromkeys(c.symbol for it in read.items for c in it.candidates))
        self.ledger.note_section(read.ref, breaking=breaking, symbols=symbols)

    def _fetch_changelog(self, args: dict[str, Any]) -> Observation:
        update = self._in_batch(args["package"])
        result = self.services.fetch_changelog(update)
        cid = self.ledger.next_id("c")
        names = tuple(self.services.import_names(update.ecosystem, update.package))
        whole = {s.version: s for s in result.analysed}  # read beyond the display's budget
        texts = [whole.get(sec.version, sec) for sec in result.sections]
        analyzed = [
            (sec.version, analyze_section(sec.body, package=update.package, import_names=names))
            for sec in texts
        ]  # "Removed: the rules deprecated in 15.0.0" searches for the rules 15.0.0 named
        eco = update.ecosystem
        filled = fill_removed_deprecations(analyzed, lambda v: version_key(eco, v))
        read = []
        for i, (sec, text, items) in enumerate(zip(result.sections, texts, filled, strict=True), 1):
            read.append(ReadSection(f"{cid}.s{i}", sec, items))
            breaking = any(it.category == "breaking" for it in items)
            self._record_section(update, ReadSection(read[-1].ref, text, items), breaking=breaking)
        before = []
        if removes_deprecated(read):
            for j, sec in enumerate(result.context, 1):
                items = deprecated_names(sec.body, package=update.package, import_names=names)
                before.append(ReadSection(f"{cid}.d{j}", sec, items))
                self._record_section(update, before[-1], breaking=True)
        obs = changelog_observation(cid, update, result, read, before, self._fence)
        self.ledger.record_changelog(update.package, changelog_summary(result, obs.body, read))
        return obs

    # -- searches ----------------------------------------------------------------------------

    def _record_hits(
        self, hits: list[Hit], *, search_id: str, tool: str, symbol: str = "", package: str = ""
    ) -> tuple[list[dict[str, Any]], str, int]:
        """Give each hit an id (reusing ids of places seen before); the hit list, a fenced
        block of their lines and how many places are new."""
        listed, lines, new = [], [], 0
        for h in hits:
            hid, fresh = self.ledger.place_id(h.path, h.line, h.col)
            text = redact(strip_invisible(h.text), self.secrets, filename=h.path)
            if self._in_secret_block(h.path, h.line):
                text = KEY_BLOCK_LINE
            if fresh:
                new += 1
                evidence, why = hit_evidence(h)
                fact = HitFact(
                    id=hid, path=h.path, line=h.line, col=h.col, text=text, context=hit_context(h),
                    evidence=evidence, why=why, search_id=search_id, tool=tool, symbol=symbol,
                )  # fmt: skip
                self.ledger.add_hit(fact)
            if package:
                self.ledger.tag_hit(hid, package, symbol)
            listed.append(hit_entry(hid, h))
            lines.append(f"{hid} {h.path}:{h.line}: {text}")
        return listed, hit_lines(lines, self._fence), new

    def _in_secret_block(self, path: str, line: int) -> bool:
        try:
            return bool(self.services.in_secret_block(path, line))
        except DepbotError:
            return False

    def _searched(
        self,
        hits: list[Hit],
        sid: str,
        tool: str,
        symbol: str = "",
        package: str = "",
        **shape: Any,
    ) -> Observation:
        """Record a search and its hits; the observation in the searches' common shape."""
        listed, block, new = self._record_hits(
            hits, search_id=sid, tool=tool, symbol=symbol, package=package
        )
        self.ledger.record_search(SearchFact(tool, package.lower(), symbol, len(listed)))
        return search_observation(sid, listed, block, new_facts=new, **shape)

    def _search_code(self, args: dict[str, Any]) -> Observation:
        result = self.services.search_code(
            args["pattern"],
            regex=bool(args.get("regex", False)),
            path_glob=args.get("path_glob"),
            word=bool(args.get("word", False)),
        )
        sid = self.ledger.next_id("s")
        obs = self._searched(
            list(result.hits),
            sid,
            "search_code",
            args["pattern"],
            total=result.total,
            truncated=result.truncated,
            note=result.note,
        )
        obs.body["pattern"] = args["pattern"]
        return obs

    def _ecosystem_for(self, package: str, given: str | None) -> tuple[str, str]:
        if given:
            update = self.find_update(package)
            return normalize_ecosystem(given), update.package if update else package
        update = self._in_batch(package)
        return update.ecosystem, update.package

    def _where_imported(self, args: dict[str, Any]) -> Observation:
        eco, package = self._ecosystem_for(args["package"], args.get("ecosystem"))
        report = self.services.where_imported(eco, package)
        sid = self.ledger.next_id("w")
        sites: list[Hit] = list(report.sites)
        shown = first_per_file(sites, MAX_IMPORT_SITES)
        note = str(report.note)
        per_file = Counter(s.path for s in sites)
        if len(shown) < len(sites):
            note = (
                f"{len(sites)} import sites in {len(per_file)} files; {len(shown)} shown "
                f"(each file's first, then in order); `files` counts them per file. {note}"
            ).strip()
        obs = self._searched(
            shown,
            sid,
            "where_imported",
            package,
            package,
            total=len(sites),
            truncated=len(shown) < len(sites),
            note=note,
        )
        obs.body["package"] = package
        obs.body["import_names"] = list(report.import_names)
        if report.skipped:
            obs.body["not_searched"] = self._note_unsearched(package, report.skipped)
        files = list(report.files)
        obs.body["files"] = files[:MAX_FILES_LISTED]
        if len(shown) < len(sites):
            obs.body["sites_per_file"] = {f: per_file[f] for f in files[:MAX_FILES_LISTED]}
        if len(files) > MAX_FILES_LISTED:
            obs.body["files_total"] = len(files)
        return obs

    def _search_symbol(self, args: dict[str, Any]) -> Observation:
        update = self._in_batch(args["package"])
        given = {k: args[k] for k in ("kind", "of", "arg", "max_positional") if k in args}
        query = SymbolQuery(update.ecosystem, update.package, args["symbol"], **given)
        result = self.services.search_symbol(query)
        sid = self.ledger.next_id("s")
        obs = self._searched(
            list(result.hits),
            sid,
            "search_symbol",
            args["symbol"],
            update.package,
            total=result.total,
            truncated=result.truncated,
            note=result.note,
            excluded=result.excluded,
        )
        obs.body["symbol"] = args["symbol"]
        obs.body["kind"] = query.kind
        try:  # the files every search skips: where_imported lists them (cached)
            skipped = self.services.where_imported(update.ecosystem, update.package).skipped
        except ToolError:
            skipped = []
        if skipped:
            obs.body["not_searched"] = self._note_unsearched(update.package, skipped)
        return obs

    def _note_unsearched(self, package: str, skipped: list[tuple[str, int]]) -> list[str]:
        """Record (and list, for the model) the files too big to search that may use it."""
        files = [f"{path} ({size_text(size)})" for path, size in skipped]
        self.ledger.note_unsearched(package, files)
        return files[:MAX_FILES_LISTED]

    # -- api_diff ------------------------------------------------------------------------------

    def _api_diff(self, args: dict[str, Any]) -> Observation:
        """The released code's API changes that touch this checkout's uses (never the raw diff)."""
        update = self._in_batch(args["package"])
        got = self.services.api_diff(update)
        did = self.ledger.next_id("d")
        if got.diff is None:
            self.ledger.record_api_diff(update.package, had=False)
            return api_observation(did, update, got, [], list(got.problems), self._fence)
        # a clean diff needs both releases compared whole (a cut or unloadable one is not)
        # and every name this code takes from the package found in the old release's API
        used = fates(
            got.diff,
            self.services.used_names(update.ecosystem, update.package),
            whole=ecosystems.get(update.ecosystem).whole_interface,
        )
        whole = not got.diff.stats.get("incomplete") and used.complete
        self.ledger.record_api_diff(update.package, had=whole, fates=used)
        report, answers, notes = checked_uses(self.services, update, got.diff)
        for q, result in answers.items():
            self.ledger.record_search(
                SearchFact("api_diff", update.package.lower(), q.symbol, len(result.hits))
            )
        joined = join(got.diff, report, answers, got.artifact)
        joined.findings += fate_findings(got.diff, used, joined, got.artifact)
        joined.findings = [weaken_unloaded(f, self.services.unloaded) for f in joined.findings]
        found = [self._finding(update, did, f) for f in joined.findings + joined.deprecated]
        notes = notes + joined.notes + list(got.problems)
        return api_observation(did, update, got, found, notes, self._fence, used)

    def _finding(self, update: Update, did: str, f: Finding) -> tuple[ApiFact, list[dict], str]:
        """Register a finding and its uses (hit ids, tagged with its symbols) in the ledger."""
        sym = f.symbols[0] if f.symbols else f.path
        listed, block, _ = self._record_hits(
            list(f.hits), search_id=did, tool="api_diff", symbol=sym, package=update.package
        )
        for entry in listed:
            for other in f.symbols[1:]:
                self.ledger.tag_hit(entry["id"], update.package, other)
        fact = ApiFact(
            self.ledger.next_id("a"), update.package.lower(), update.to_version, f.kind, f.path,
            f.summary, f.where, f.source, f.symbols, tuple(e["id"] for e in listed), f.strength,
        )  # fmt: skip
        self.ledger.add_api_finding(fact)
        return fact, listed, block

    # -- who_loads -----------------------------------------------------------------------------

    def _who_loads(self, args: dict[str, Any]) -> Observation:
        """What may load a package besides an import (the checkout's files and the declared
        packages' releases): ``unreached`` backs a ``not_affected`` whatever the notes say."""
        update = self._in_batch(args["package"])
        reach = self.services.who_loads(update)
        self.ledger.record_reach(update.package, reach)
        return reach_observation(self.ledger.next_id("w"), update, reach, self._fence)

    # -- conclude ------------------------------------------------------------------------------

    def _conclude(self, args: dict[str, Any]) -> Observation:
        update = self._in_batch(args["package"])
        with self._lock:
            existing = self.ledger.verdict(update.key)
            if existing is not None:
                raise Rejected(
                    f"{update.package} is already concluded as {existing.verdict}; "
                    "conclusions are final"
                )
            try:
                verdict = check_conclusion(args, update=update, ledger=self.ledger)
            except Rejected as exc:  # kept for the report: what was refused, and why
                self.ledger.refuse(update.package, f"{args.get('verdict')}: {exc.plain}")
                raise
            self.ledger.add_verdict(update.key, verdict)
        if self.on_verdict is not None:
            self.on_verdict(verdict)
        return conclusion_observation(update, verdict, [u.package for u in self.open_updates()])
