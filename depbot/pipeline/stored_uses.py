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
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path
from typing import Any

from depbot.core.atomicio import atomic_write_json
from depbot.records.api import UsedName
from depbot.search.sites import ImportReport, ImportSite
from depbot.symbols.facts import SymbolHit, SymbolResult

FOLDER = "uses"
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
    h = hashlib.sha256()
    files = sorted([*(_PACKAGE / "search").glob("*.py"), *(_PACKAGE / "symbols").glob("*.py"),
                    *(_PACKAGE / "ecosystems").rglob("*.py")])  # fmt: skip
    for f in files:
        h.update(f.relative_to(_PACKAGE).as_posix().encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


class StoredUses:
    """Answers of one checkout's tree kept in ``cache_dir``; ``salt``: the search scope."""

    def __init__(self, cache_dir: Path, tree: str, salt: str) -> None:
        self.folder = Path(cache_dir) / FOLDER
        self.base = "\n".join([tree, code_version(), salt])

    def _path(self, *question: str) -> Path:
        key = hashlib.sha256("\n".join([self.base, *question]).encode()).hexdigest()
        return self.folder / f"{key}.json"

    def _load(self, path: Path) -> Any:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            path.touch()  # its last use, for the cache's eviction
            return data
        except (OSError, ValueError, RecursionError):
            return None

    def _save(self, path: Path, data: Any) -> None:
        try:
            atomic_write_json(path, data)
        except OSError:
            pass  # a cache that cannot be written is no cache

    def report(self, question: tuple[str, ...], make: Any) -> ImportReport:
        path = self._path("report", *question)
        data = self._load(path)
        try:
            if data is not None:
                sites = [ImportSite(**s) for s in data.pop("sites")]
                skipped = [tuple(x) for x in data.pop("skipped")]
                return ImportReport(**data, sites=sites, skipped=skipped)  # type: ignore[arg-type]
        except (TypeError, KeyError, AttributeError):
            pass
        got = make()
        self._save(path, asdict(got))
        return got

    def symbols(self, question: tuple[str, ...], make: Any) -> SymbolResult:
        path = self._path("symbol", *question)
        data = self._load(path)
        try:
            if data is not None:
                hits = [SymbolHit(**h) for h in data.pop("hits")]
                return SymbolResult(**data, hits=hits)
        except (TypeError, KeyError, AttributeError):
            pass
        got = make()
        self._save(path, asdict(got))
        return got

    def used(self, question: tuple[str, ...], make: Any) -> list[UsedName]:
        path = self._path("used", *question)
        data = self._load(path)
        try:
            if isinstance(data, list):
                return [UsedName(**u) for u in data]
        except (TypeError, AttributeError):
            pass
        got = make()
        self._save(path, [asdict(u) for u in got])
        return got

    def names(self, question: tuple[str, ...], make: Any) -> set[str]:
        path = self._path("names", *question)
        data = self._load(path)
        if isinstance(data, list) and all(isinstance(n, str) for n in data):
            return set(data)
        got = make()
        self._save(path, sorted(got))
        return got
