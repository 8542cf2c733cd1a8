"""The one seam between the tools and the world: the backends ``Toolbox`` calls.

``Services`` is a protocol with real return types, the result records of the stages
below: ``LiveServices`` in ``depbot.pipeline`` puts the registries, GitHub and ripgrep
behind it; tests put a small in-memory fake behind it (``tests/helpers/fake_services.py``).
A method may raise ``ToolError`` (bad input: the model gets the sentence) or
``UpstreamError`` (a backend failed); the toolbox turns both into a short message.
"""

from __future__ import annotations

from typing import Protocol

from depbot.changelogs.result import ChangelogResult
from depbot.records.update import Update
from depbot.search.code import CodeHit, CodeSearchResult
from depbot.search.import_sites import ImportReport, ImportSite
from depbot.symbols.facts import SymbolHit, SymbolResult

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

    def search_symbol(
        self,
        ecosystem: str,
        package: str,
        symbol: str,
        *,
        kind: str = "name",
        of: str = "",
        arg: str = "",
        max_positional: int = 1,
    ) -> SymbolResult:
        """Uses of ``symbol`` of ``package`` that a breaking change of ``kind`` affects."""
        ...

    def import_names(self, ecosystem: str, package: str) -> list[str]:
        """The names code imports ``package`` under (``PyYAML`` → ``yaml``)."""
        ...

    def in_secret_block(self, path: str, line: int) -> bool:
        """Whether ``line`` of ``path`` sits inside a private key block."""
        ...
