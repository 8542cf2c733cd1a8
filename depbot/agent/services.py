"""The one seam between the tools and the world: the backends ``Toolbox`` calls.

``Services`` is a protocol with real return types, the result records of the stages
below: ``LiveServices`` in ``depbot.pipeline`` puts the registries, GitHub and ripgrep
behind it; tests put a small in-memory fake behind it (``tests/helpers/fake_services.py``).
A method may raise ``ToolError`` (bad input: the model gets the sentence) or
``UpstreamError`` (a backend failed); the toolbox turns both into a short message.
"""

from __future__ import annotations

from typing import Protocol

from depbot.apidiff.join import Query, ReleaseDiff, queries
from depbot.changelogs.result import ChangelogResult
from depbot.core.errors import ToolError
from depbot.records.api import ApiDiff, UsedName
from depbot.records.reach import Reach
from depbot.records.update import Update
from depbot.search.code import CodeHit, CodeSearchResult
from depbot.search.import_sites import ImportReport, ImportSite
from depbot.symbols.facts import SymbolHit, SymbolQuery, SymbolResult

# a place in the checkout that a search returned
Hit = CodeHit | SymbolHit | ImportSite


class Services(Protocol):
    """The backends of the tools, for one checkout."""

    def fetch_changelog(self, update: Update) -> ChangelogResult:
        """The release notes between the update's two versions (maybe none, with a note)."""
        ...

    def search_code(
        self, pattern: str, *, regex: bool = False, path_glob: str | None = None, word: bool = False
    ) -> CodeSearchResult:
        """Lines of the checkout matching ``pattern`` (literal unless ``regex``)."""
        ...

    def where_imported(self, ecosystem: str, package: str) -> ImportReport:
        """Where ``package`` is imported in the checkout, and under which names."""
        ...

    def search_symbol(self, query: SymbolQuery) -> SymbolResult:
        """Uses of the query's symbol of its package that a breaking change of its kind affects."""
        ...

    def import_names(self, ecosystem: str, package: str) -> list[str]:
        """The names code imports ``package`` under (``PyYAML`` → ``yaml``)."""
        ...

    def in_secret_block(self, path: str, line: int) -> bool:
        """Whether ``line`` of ``path`` sits inside a private key block."""
        ...

    def api_diff(self, update: Update) -> ReleaseDiff:
        """The API diff of the update's two released artifacts, or the problems met."""
        ...

    def names_used(self, ecosystem: str, package: str) -> set[str]:
        """The identifiers used in the files that import ``package`` (Python; npm: empty)."""
        ...

    def used_names(self, ecosystem: str, package: str) -> list[UsedName]:
        """The names the checkout takes from ``package``: what a diff must give a fate."""
        ...

    def who_loads(self, update: Update) -> Reach:
        """What may load the update's package besides an import (``pipeline/reach.py``)."""
        ...

    def unloaded(self, path: str) -> str | None:
        """Why nothing in the checkout may load the JS/TS file ``path`` (``symbols.loaded``);
        None when something may."""
        ...


def checked_uses(
    services: Services, update: Update, diff: ApiDiff
) -> tuple[ImportReport, dict[Query, SymbolResult], list[str]]:
    """The imports of the update's package and the symbol searches the join of ``diff``
    needs, run through ``services``; a search refused for its input becomes a note."""
    eco, pkg = update.ecosystem, update.package
    report = services.where_imported(eco, pkg)
    wanted, notes = queries(diff, report, services.names_used(eco, pkg))
    answers: dict[Query, SymbolResult] = {}
    for q in wanted:
        try:
            answers[q] = services.search_symbol(
                SymbolQuery(eco, pkg, q.symbol, q.kind, q.of, q.arg, q.max_positional, exact=True)
            )
        except ToolError as exc:
            notes.append(f"{q.kind} search for {q.symbol}: {exc}")
    return report, answers, notes
