"""The ledger: every fact a tool really returned in this run, under the id the model saw.

Drafts and the report are built from the ledger, never from the model's prose: a hit
id names a real line of the checkout that a search returned, a section ref names a
real changelog section that ``fetch_changelog`` returned. Thread-safe; ids are unique
for the whole run (several conversations share one ledger).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from depbot.apidiff.fates import Fates
from depbot.records.reach import Reach
from depbot.records.verdict import Verdict


@dataclass(frozen=True)
class SectionFact:
    ref: str  # "c3.s1" (in range) or "c3.d1" (deprecation context before `from`)
    package: str  # the update's package, lower-cased
    version: str
    heading: str
    body: str
    source: str
    kind: str = "file"


@dataclass(frozen=True)
class HitFact:
    id: str  # "h12"
    path: str
    line: int
    col: int
    text: str
    context: str = "code"  # code | comment | string
    evidence: str = ""  # strong | weak | "" (plain text search)
    why: str = ""
    search_id: str = ""
    tool: str = ""
    symbol: str = ""


@dataclass(frozen=True)
class ApiFact:
    """A use-checked API change that ``api_diff`` returned: citable like a section."""

    id: str  # "a2"
    package: str  # lower-cased
    version: str  # the new release's version
    kind: str
    path: str
    summary: str
    where: str  # "urllib3-2.0.7 wheel · urllib3/util/retry.py · Retry.__init__ has no …"
    source: str  # "urllib3-2.0.7 wheel: urllib3/util/retry.py"
    symbols: tuple[str, ...]
    hit_ids: tuple[str, ...]
    strength: str  # strong | weak | deprecated


@dataclass(frozen=True)
class SearchFact:
    tool: str  # search_code | search_symbol | where_imported
    package: str  # lower-cased; "" for search_code
    text: str  # the pattern or symbol searched for
    hits: int


@dataclass
class Ledger:
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _counters: dict[str, int] = field(default_factory=dict)
    sections: dict[str, SectionFact] = field(default_factory=dict)
    hits: dict[str, HitFact] = field(default_factory=dict)
    _by_place: dict[tuple[str, int, int], str] = field(default_factory=dict, repr=False)
    changelogs: dict[str, dict[str, Any]] = field(default_factory=dict)  # package -> summary
    verdicts: dict[str, Verdict] = field(default_factory=dict)  # update key -> verdict
    rejections: int = 0
    # what the evidence checks of integrity.py read: per section ref, whether it has a
    # breaking item and the symbols its breaking items name; per hit id, the (package,
    # symbol) of every search_symbol / where_imported that returned it; every search made
    section_breaking: dict[str, bool] = field(default_factory=dict)
    section_symbols: dict[str, tuple[str, ...]] = field(default_factory=dict)
    hit_tags: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    searches: list[SearchFact] = field(default_factory=list)
    unsearched: dict[str, tuple[str, ...]] = field(default_factory=dict)  # package -> files
    api_findings: dict[str, ApiFact] = field(default_factory=dict)  # "a1" -> finding
    api_checked: dict[str, bool] = field(
        default_factory=dict
    )  # package -> both releases compared whole, every used name found in the old one
    api_fates: dict[str, Fates] = field(default_factory=dict)  # package -> used names' fates
    refused: dict[str, list[str]] = field(default_factory=dict)  # package -> refused conclusions
    reach: dict[str, Reach] = field(default_factory=dict)  # package -> what who_loads found

    def next_id(self, prefix: str) -> str:
        with self._lock:
            n = self._counters.get(prefix, 0) + 1
            self._counters[prefix] = n
            return f"{prefix}{n}"

    def add_section(self, fact: SectionFact) -> None:
        with self._lock:
            self.sections[fact.ref] = fact

    def add_hit(self, fact: HitFact) -> None:
        with self._lock:
            self.hits[fact.id] = fact
            self._by_place.setdefault((fact.path, fact.line, fact.col), fact.id)

    def note_section(self, ref: str, *, breaking: bool, symbols: tuple[str, ...]) -> None:
        with self._lock:
            self.section_breaking[ref] = breaking
            self.section_symbols[ref] = symbols

    def tag_hit(self, hit_id: str, package: str, symbol: str) -> None:
        with self._lock:
            self.hit_tags.setdefault(hit_id, set()).add((package.lower(), symbol))

    def add_api_finding(self, fact: ApiFact) -> None:
        with self._lock:
            self.api_findings[fact.id] = fact

    def record_api_diff(self, package: str, *, had: bool, fates: Fates | None = None) -> None:
        with self._lock:
            self.api_checked[package.lower()] = had
            if fates is not None:
                self.api_fates[package.lower()] = fates

    def record_reach(self, package: str, reach: Reach) -> None:
        with self._lock:
            self.reach[package.lower()] = reach

    def unreached(self, package: str) -> bool:
        """Whether ``who_loads`` found that nothing reaches ``package``, having looked at all."""
        got = self.reach.get(package.lower())
        return got is not None and got.unreached

    def note_unsearched(self, package: str, files: list[str]) -> None:
        """Source files every search skipped (over ``max_filesize``) that may use ``package``."""
        if files:
            with self._lock:
                self.unsearched[package.lower()] = tuple(files)

    def record_search(self, fact: SearchFact) -> None:
        with self._lock:
            self.searches.append(fact)

    def searches_for(self, package: str) -> list[SearchFact]:
        """The searches that may concern ``package``: its own, and every plain text search."""
        with self._lock:
            return [s for s in self.searches if s.package in ("", package.lower())]

    def place_id(self, path: str, line: int, col: int) -> tuple[str, bool]:
        """The id of this exact place and whether it is new: the one given before, else a new
        one reserved for it, in one step, so two searches running at once that find the same
        place cite it by one id (a reason then counts places right)."""
        with self._lock:
            known = self._by_place.get((path, line, col))
            if known is not None:
                return known, False
            n = self._counters.get("h", 0) + 1
            self._counters["h"] = n
            self._by_place[(path, line, col)] = f"h{n}"
            return f"h{n}", True

    def record_changelog(self, package: str, summary: dict[str, Any]) -> None:
        with self._lock:
            self.changelogs[package.lower()] = summary

    def changelog(self, package: str) -> dict[str, Any] | None:
        with self._lock:
            return self.changelogs.get(package.lower())

    def add_verdict(self, key: str, verdict: Verdict) -> None:
        with self._lock:
            self.verdicts[key] = verdict

    def verdict(self, key: str) -> Verdict | None:
        with self._lock:
            return self.verdicts.get(key)

    def refuse(self, package: str, why: str) -> None:
        with self._lock:
            self.refused.setdefault(package.lower(), []).append(why[:600])

    def reject(self) -> None:
        with self._lock:
            self.rejections += 1
