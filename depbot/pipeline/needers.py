"""Whether a declared package that needs the update's package is itself reached in this
checkout (``who_loads``): a peer of a package nothing here loads is never loaded either.
The I/O half of ``ecosystems/<name>/reach.py`` beside ``pipeline/reach.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from depbot.search.code import CodeSearch
from depbot.search.sites import ImportReport

__all__ = ["MAX_CHAIN", "Chain"]

MAX_CHAIN = 3  # needs of needs followed this deep; deeper, a needer counts as reached

NamedLines = Callable[[CodeSearch, Any, list[str], set[tuple[str, int]]], list[str]]
NeverRead = Callable[[CodeSearch, Any, Any], bool]


class Chain:
    """Whether something in the checkout reaches a declared package that needs the update's:
    an import whose names are read, a file naming it or one of its commands, a tool's
    convention, or another declared package that needs it and is reached in turn.
    ``named_lines`` and ``never_read`` are ``who_loads``' own looks (a file naming a word, an
    import whose names its file never reads)."""

    def __init__(
        self,
        code: CodeSearch,
        rules: Any,
        imported: Callable[[str], ImportReport] | None,
        docs: dict[str, dict[str, Any]],
        declared: list[str],
        named_lines: NamedLines,
        never_read: NeverRead,
    ) -> None:
        self.code, self.rules, self.imported, self.docs = code, rules, imported, docs
        self.declared = declared
        self.named_lines, self.never_read = named_lines, never_read
        self._looked: dict[str, str] = {}

    def reaches(self, name: str, seen: frozenset[str], depth: int = 1) -> str:
        """How ``name`` is reached here ("" when nothing reaches it, all looked at)."""
        if self.imported is None:
            return "what loads it was not looked for"
        report = self.imported(name)
        if report.skipped:
            return f"{len(report.skipped)} file(s) too big to search may import it"
        read = [s for s in report.sites if not self.never_read(self.code, self.rules, s)]
        if read:
            return f"it is imported at {read[0].path}:{read[0].line}"
        doc = self.docs.get(name) or {}
        words = [name, *self.rules.bins(doc)]
        named = self.named_lines(
            self.code, self.rules, words, {(s.path, s.line) for s in report.sites}
        )
        if named:
            return f"it is {named[0].lstrip('`').split('`', 1)[-1].strip()}"
        # a declared host whose release in use installs a command (not read: taken as one)
        hosts = [
            d
            for d in self.declared
            if self.rules.extends(name, d) and (d not in self.docs or self.rules.bins(self.docs[d]))
        ]
        convention = self.rules.by_convention(name, hosts)
        if convention:
            return f"a tool may load it: {convention}"
        if depth >= MAX_CHAIN:
            return "what needs it in turn was not followed further"
        for other, other_doc in self.docs.items():
            if other in seen or other == name or not self.rules.needs(other_doc, name, _any):
                continue
            how = self.reaches(other, seen | {name}, depth + 1)
            if how:
                return f"{other} needs it and {how}"
        self._looked[name] = (f"no file imports or names {', '.join(f'`{w}`' for w in words)}, "
                              "no tool loads it by convention, no declared package that needs it is "
                              "loaded")  # fmt: skip
        return ""

    def looked(self, name: str) -> str:
        return self._looked.get(name, "")


def _any(spec: str) -> bool:
    return True
