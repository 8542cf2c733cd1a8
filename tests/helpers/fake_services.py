"""A small in-memory ``Services`` for toolbox and loop tests (no network, no ripgrep).

Changelogs are given per package, the checkout as a dict of files (``search_code`` is a
literal substring scan), imports and symbol hits as canned results. Every call is
recorded in ``calls``; ``fail`` makes a method raise the exception given for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from depbot import ecosystems
from depbot.apidiff.join import ReleaseDiff
from depbot.changelogs.result import ChangelogResult
from depbot.changelogs.sections import Section
from depbot.records.api import UsedName
from depbot.records.reach import Reach
from depbot.records.update import Update
from depbot.search.code import CodeHit, CodeSearchResult
from depbot.search.import_sites import ImportReport, ImportSite
from depbot.symbols.facts import SymbolHit, SymbolQuery, SymbolResult
from depbot.symbols.python import analyze
from depbot.symbols.used import js_used, python_used


def section(version: str, body: str, source: str = "CHANGELOG.md") -> Section:
    return Section(version, f"## {version}", body, source, 1, body.count("\n") + 2)


def import_site(path: str, line: int, package: str, *, style: str = "import") -> ImportSite:
    text = f"import {package}"
    return ImportSite(path, line, 1, text, package, package, "", {package: "*"}, style, None, False)


@dataclass
class FakeServices:
    """Implements ``depbot.agent.services.Services`` from canned data."""

    changelogs: dict[str, list[Section]] = field(default_factory=dict)  # package -> sections
    files: dict[str, str] = field(default_factory=dict)  # path -> text
    imports: dict[str, list[ImportSite]] = field(default_factory=dict)  # package -> sites
    symbols: dict[str, list[SymbolHit]] = field(default_factory=dict)  # symbol -> hits
    secret_lines: set[tuple[str, int]] = field(default_factory=set)
    diffs: dict[str, ReleaseDiff] = field(default_factory=dict)  # package -> diff (or problems)
    # (symbol, kind) -> hits for that kind only; falls back to ``symbols`` by symbol
    kinded: dict[tuple[str, str], list[SymbolHit]] = field(default_factory=dict)
    fail: dict[str, Exception] = field(default_factory=dict)  # method name -> what it raises
    calls: list[tuple[str, ...]] = field(default_factory=list)
    reach: dict[str, Reach] = field(default_factory=dict)  # package -> what who_loads says

    def _called(self, method: str, *args: str) -> None:
        self.calls.append((method, *args))
        if method in self.fail:
            raise self.fail[method]

    def fetch_changelog(self, update: Update) -> ChangelogResult:
        self._called("fetch_changelog", update.package)
        sections = self.changelogs.get(update.package, [])
        note = f"found {len(sections)} section(s)" if sections else "no changelog found"
        return ChangelogResult(
            update.ecosystem, update.package, update.from_version, update.to_version,
            sections, note=note, sources_tried=["CHANGELOG.md"],
        )  # fmt: skip

    def search_code(
        self, pattern: str, *, regex: bool = False, path_glob: str | None = None, word: bool = False
    ) -> CodeSearchResult:
        self._called("search_code", pattern)
        hits = [
            CodeHit(path, n, text.index(pattern) + 1, text, "code")
            for path, body in sorted(self.files.items())
            for n, text in enumerate(body.splitlines(), 1)
            if pattern in text
        ]
        files = len({h.path for h in hits})
        return CodeSearchResult(pattern, hits, len(hits), False, files, f"{len(hits)} hit(s)")

    def where_imported(self, ecosystem: str, package: str) -> ImportReport:
        self._called("where_imported", package)
        sites = self.imports.get(package, [])
        files = sorted({s.path for s in sites})
        note = f"{len(sites)} import site(s)" if sites else f"{package} is not imported"
        return ImportReport(ecosystem, package, [package], sites, files, note)

    def search_symbol(self, query: SymbolQuery) -> SymbolResult:
        symbol, kind = query.symbol, query.kind
        self._called("search_symbol", query.package, symbol)
        hits = self.kinded.get((symbol, kind), self.symbols.get(symbol, []))
        note = f"{len(hits)} strong hit(s)"
        return SymbolResult(symbol, kind, hits, len(hits), False, {"in a comment": 1}, note)

    def import_names(self, ecosystem: str, package: str) -> list[str]:
        return [package]

    def in_secret_block(self, path: str, line: int) -> bool:
        return (path, line) in self.secret_lines

    def api_diff(self, update: Update) -> ReleaseDiff:
        self._called("api_diff", update.package)
        found = self.diffs.get(update.package)
        return found or ReleaseDiff(None, "", [f"{update.package}: no files in the registry"])

    def used_names(self, ecosystem: str, package: str) -> list[UsedName]:
        report = self.where_imported(ecosystem, package)
        if ecosystems.get(ecosystem).language == "python":
            texts = {p: self.files.get(p, "") for p in report.files}
            return python_used(report, {p: analyze(t) for p, t in texts.items()}, texts)
        return js_used(report, {p: self.files.get(p, "") for p in report.files})

    def who_loads(self, update: Update) -> Reach:
        self._called("who_loads", update.package)
        return self.reach.get(update.package, Reach(unseen=("not in this fake",)))

    def unloaded(self, path: str) -> str | None:
        return None  # every file is loaded: the fake has no checkout to read

    def names_used(self, ecosystem: str, package: str) -> set[str]:
        return {w for body in self.files.values() for w in re.findall(r"[A-Za-z_]\w*", body)}
