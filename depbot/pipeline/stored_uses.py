"""The use-check kept on disk (#30): what the checkout's code does with a package, looked up
once per tree.

``where_imported``, ``used_names`` and the exact ``search_symbol`` calls of an API diff's
findings depend only on the checkout's files, depbot's search code and the search scope. For
a git checkout with nothing changed or untracked (``git status --porcelain`` empty: a CI
checkout), the tree's hash names those files, so each answer is kept under
``uses/<key>.json`` of the cache folder, the key hashing the tree, the source of the search
and symbols code, the scope's flags and the question. A checkout with local changes, or no
git, is never served from here. An entry that cannot be read is a miss, never an error.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from collections.abc import Callable
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from depbot.core.atomicio import atomic_write_json
from depbot.core.sourcehash import source_hash
from depbot.records.api import UsedName
from depbot.search.sites import ImportReport, ImportSite
from depbot.symbols.facts import SymbolHit, SymbolResult

FOLDER = "uses"
T = TypeVar("T")
_PACKAGE = Path(__file__).resolve().parents[1]


def tree_hash(repo: Path) -> str | None:
    """The hash of the checkout's tree when it is a git checkout with no change and no
    untracked file (None otherwise: its files are not what any commit names)."""

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True,
                                  text=True, timeout=30)  # fmt: skip
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout if done.returncode == 0 else None

    top = git("rev-parse", "--show-toplevel")
    if top is None or Path(top.strip()).resolve() != Path(repo).resolve():
        return None  # a folder inside another repository: its tree is not this checkout
    tree = git("rev-parse", "HEAD^{tree}")
    status = git("status", "--porcelain", "--untracked-files=normal")
    if not tree or status is None or status.strip():
        return None
    return tree.strip()


@lru_cache(maxsize=1)
def code_version() -> str:
    """A hash of the code that answers these questions (search, symbols, the ecosystems)."""
    return source_hash(_PACKAGE, [*(_PACKAGE / "search").glob("*.py"),
                                  *(_PACKAGE / "symbols").glob("*.py"),
                                  *(_PACKAGE / "ecosystems").rglob("*.py")])  # fmt: skip


class StoredUses:
    """Answers of one checkout's tree kept in ``cache_dir``; ``salt``: the search scope."""

    def __init__(self, cache_dir: Path, tree: str, salt: str) -> None:
        self.folder = Path(cache_dir) / FOLDER
        self.base = "\n".join([tree, code_version(), salt])

    def _kept(
        self,
        question: tuple[str, ...],
        make: Callable[[], T],
        encode: Callable[[T], Any],
        decode: Callable[[Any], T],
    ) -> T:
        """The kept answer to ``question`` (``decode`` of its JSON), else ``make()`` kept as
        ``encode`` gives it; an entry that does not decode is a miss."""
        key = hashlib.sha256("\n".join([self.base, *question]).encode()).hexdigest()
        path = self.folder / f"{key}.json"
        try:
            answer = decode(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, RecursionError, TypeError, KeyError, AttributeError):
            pass
        else:
            try:
                path.touch()  # its last use, for the cache's eviction
            except OSError:
                pass
            return answer
        answer = make()
        try:
            atomic_write_json(path, encode(answer))
        except OSError:
            pass  # a cache that cannot be written is no cache
        return answer

    def report(self, question: tuple[str, ...], make: Callable[[], ImportReport]) -> ImportReport:
        return self._kept(("report", *question), make, asdict, _report)

    def symbols(self, question: tuple[str, ...], make: Callable[[], SymbolResult]) -> SymbolResult:
        return self._kept(("symbol", *question), make, asdict, _symbols)

    def used(self, question: tuple[str, ...], make: Callable[[], list[UsedName]]) -> list[UsedName]:
        return self._kept(("used", *question), make, lambda got: [asdict(u) for u in got],
                          lambda data: [_used(u) for u in data])  # fmt: skip

    def names(self, question: tuple[str, ...], make: Callable[[], set[str]]) -> set[str]:
        return self._kept(("names", *question), make, sorted, _names)


def _used(data: dict[str, Any]) -> UsedName:
    also = tuple(tuple(place) for place in data.pop("also", ()))
    return UsedName(**data, also=also)  # type: ignore[arg-type]


def _report(data: dict[str, Any]) -> ImportReport:
    sites = [ImportSite(**s) for s in data.pop("sites")]
    skipped = [(str(path), int(size)) for path, size in data.pop("skipped")]
    return ImportReport(**data, sites=sites, skipped=skipped)


def _symbols(data: dict[str, Any]) -> SymbolResult:
    hits = [SymbolHit(**h) for h in data.pop("hits")]
    return SymbolResult(**data, hits=hits)


def _names(data: Any) -> set[str]:
    if not isinstance(data, list) or not all(isinstance(n, str) for n in data):
        raise TypeError("not a list of names")
    return set(data)
