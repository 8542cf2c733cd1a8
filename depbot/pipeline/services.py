"""The wiring of one run: the real backends behind the tools, the HTTP session and the trace."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from depbot import ecosystems
from depbot.agent.trace import Trace
from depbot.apidiff import diff_releases
from depbot.apidiff.join import ReleaseDiff
from depbot.artifacts import Problem, ReleaseFiles, fetch_release
from depbot.changelogs.fetch import ChangelogFetcher
from depbot.changelogs.result import ChangelogResult
from depbot.core.errors import UpstreamError
from depbot.core.net import Http
from depbot.core.settings import Settings
from depbot.pipeline.reach import who_loads
from depbot.pipeline.stored_uses import StoredUses, tree_hash
from depbot.records.api import UsedName
from depbot.records.reach import Reach
from depbot.records.update import Update
from depbot.search.code import CodeSearch, CodeSearchResult
from depbot.search.import_sites import ImportReport
from depbot.symbols.facts import SymbolQuery, SymbolResult
from depbot.symbols.search import SymbolSearch

TRACE_FILE = "trace.jsonl"
# a release with more Python files than this is not diffed: loading it statically takes
# about ten seconds (pandas: 340 files, 9 s), more than a run should spend on one update
MAX_DIFF_FILES = 300


class LiveServices:
    """The real backends of the tools (``depbot.agent.services.Services``): registries,
    GitHub and ripgrep over one checkout."""

    def __init__(self, settings: Settings, repo: Path, http: Http) -> None:
        self.settings, self.http = settings, http
        self.changelogs = ChangelogFetcher(settings, http)
        self._diffs: dict[tuple[str, str, str, str], ReleaseDiff] = {}
        self._diff_lock = threading.Lock()
        self.code = CodeSearch(repo, settings)
        self.symbols = SymbolSearch(self.code)
        self.repo = repo
        self._stored: StoredUses | None = None
        self._stored_looked = False  # whether the checkout's tree was looked at

    def stored(self) -> StoredUses | None:
        """The use-check kept for this checkout's tree, when it has one (stored_uses.py)."""
        cache = self.settings.cache_dir
        if not self._stored_looked:
            tree = tree_hash(self.repo) if cache is not None else None
            if cache is not None and tree:
                salt = json.dumps([self.code.scope_args(), self.settings.hit_width])
                self._stored = StoredUses(cache, tree, salt)
            self._stored_looked = True
        return self._stored

    def fetch_changelog(self, update: Update) -> ChangelogResult:
        with self.http.call_deadline(self.settings.tool_call_seconds):
            return self.changelogs.fetch(
                update.ecosystem, update.package, update.from_version, update.to_version
            )

    def search_code(
        self, pattern: str, *, regex: bool = False, path_glob: str | None = None, word: bool = False
    ) -> CodeSearchResult:
        return self.code.search_code(pattern, regex=regex, path_glob=path_glob, word=word)

    def where_imported(self, ecosystem: str, package: str) -> ImportReport:
        make = lambda: self.symbols.report(ecosystem, package)  # noqa: E731
        kept = self.stored()
        return make() if kept is None else kept.report((ecosystem, package.lower()), make)

    def search_symbol(self, query: SymbolQuery) -> SymbolResult:
        make = lambda: self.symbols.search(query)  # noqa: E731
        kept = self.stored()
        return make() if kept is None else kept.symbols((repr(query),), make)

    def import_names(self, ecosystem: str, package: str) -> list[str]:
        return self.symbols.import_names(ecosystem, package)

    def in_secret_block(self, path: str, line: int) -> bool:
        return self.code.in_private_key_block(path, line)

    def unloaded(self, path: str) -> str | None:
        return self.symbols.unloaded(path)

    def names_used(self, ecosystem: str, package: str) -> set[str]:
        """The identifiers of the Python files that import ``package`` (npm: none needed)."""
        if ecosystems.get(ecosystem).language != "python":
            return set()

        def make() -> set[str]:
            names: set[str] = set()
            for path in self.symbols.report(ecosystem, package).files:
                names.update(self.symbols.py_facts(path).uses)
            return names

        kept = self.stored()
        return make() if kept is None else kept.names((ecosystem, package.lower()), make)

    def used_names(self, ecosystem: str, package: str) -> list[UsedName]:
        make = lambda: self.symbols.used_names(ecosystem, package)  # noqa: E731
        kept = self.stored()
        return make() if kept is None else kept.used((ecosystem, package.lower()), make)

    def who_loads(self, update: Update) -> Reach:
        imports = self.where_imported(update.ecosystem, update.package)
        with self.http.call_deadline(self.settings.tool_call_seconds):
            return who_loads(
                update,
                imports,
                self.code,
                self.changelogs.registries,
                self.repo,
                lambda name: self.where_imported(update.ecosystem, name),
            )

    def api_diff(self, update: Update) -> ReleaseDiff:
        """Both releases fetched and diffed, once per (package, from, to) in this run; the
        seconds of each stage in ``stages`` (a diff already made here: only the wait)."""
        key = (update.ecosystem, update.package.lower(), update.from_version, update.to_version)
        asked = time.perf_counter()
        # one diff at a time: a second caller waits for the first's. Diffs on threads side by
        # side made the real week slower (#30): the API model and the unpacking are Python
        # work that two CPUs and one GIL cannot share, and the waits only moved into them.
        with self._diff_lock:
            waited = {"wait": time.perf_counter() - asked}
            if key in self._diffs:
                return replace(self._diffs[key], stages=waited)
            clock: dict[str, float] = {}
            with self.http.call_deadline(self.settings.tool_call_seconds):
                got = self._diff(update, clock)
            got.stages = {**waited, **clock}
            self._diffs[key] = got
            return got

    def _release(
        self, update: Update, package: str, version: str, clock: dict[str, float]
    ) -> ReleaseFiles | Problem:
        return fetch_release(
            self.http, self.settings, update.ecosystem, package, version,
            registries=self.changelogs.registries, clock=clock,
        )  # fmt: skip

    def _diff(self, update: Update, clock: dict[str, float]) -> ReleaseDiff:
        old = self._release(update, update.package, update.from_version, clock)
        new = self._release(update, update.package, update.to_version, clock)
        problems = [r.reason for r in (old, new) if isinstance(r, Problem)]
        if not isinstance(old, ReleaseFiles) or not isinstance(new, ReleaseFiles):
            upstream = [(r.kind, r.reason) for r in (old, new) if isinstance(r, Problem) and r.kind]
            return ReleaseDiff(None, "", problems, upstream[0] if upstream else None)
        for files in (old, new):
            python = ecosystems.get(update.ecosystem).language == "python"
            count = _python_files(files.root) if python else 0
            if count > MAX_DIFF_FILES:
                reason = f"{files.artifact}: {count} Python files, too big to diff in this run"
                return ReleaseDiff(None, new.artifact, [f"{reason} (limit {MAX_DIFF_FILES})"])
        companions, foreign, problems = {}, {}, []
        started, counted = time.perf_counter(), sum(clock.values())
        for side, files, version in (("old", old, update.from_version),
                                     ("new", new, update.to_version)):  # fmt: skip
            got = self._companion(update, files.root, version, problems, side == "old", clock)
            if got is not None:
                companions[side] = got.root
            foreign[side] = self._re_exported(update, files.root, version, problems, clock)
        # what the companions' and re-exports' lookups took besides their own fetches
        rest = time.perf_counter() - started - (sum(clock.values()) - counted)
        clock["registry"] = clock.get("registry", 0.0) + max(0.0, rest)
        started = time.perf_counter()
        diff = diff_releases(
            update.ecosystem, old.root, new.root, old_label=old.artifact, new_label=new.artifact,
            companions=companions, foreign=foreign, cache_dir=self.settings.cache_dir,
        )  # fmt: skip
        clock["model"] = time.perf_counter() - started
        diff.notes.extend(problems)
        return ReleaseDiff(diff, new.artifact, [])

    def _versions(self, update: Update) -> Callable[[str], list[str]]:
        def versions(name: str) -> list[str]:
            return list(self.changelogs.registries.info(update.ecosystem, name).versions)

        return versions

    def _re_exported(
        self,
        update: Update,
        root: Path,
        version: str,
        problems: list[str],
        clock: dict[str, float],
    ) -> dict[str, Path]:
        """The packages this release re-exports wholesale, unpacked, by name; what cannot be
        had goes to ``problems``."""
        try:
            wanted = ecosystems.get(update.ecosystem).re_exported(
                update.package, version, root, self._versions(update)
            )
        except (UpstreamError, ValueError) as exc:
            problems.append(f"what {update.package} {version} re-exports: no metadata ({exc})")
            return {}
        roots = {}
        for name, picked in wanted:
            if picked is None:
                problems.append(f"{name}: no release in the range {update.package} {version} names")
                continue
            got = self._release(update, name, picked, clock)
            if isinstance(got, Problem):
                problems.append(got.reason)
            else:
                roots[name] = got.root
        return roots

    def _companion(
        self,
        update: Update,
        root: Path,
        version: str,
        problems: list[str],
        older: bool,
        clock: dict[str, float],
    ) -> ReleaseFiles | None:
        """The release that completes this one's API (npm: ``@types/<name>`` of its major for
        a release without declarations), when the ecosystem names one; ``older``: the old
        side, where one of an older major may stand in (said in ``problems``)."""
        try:
            got = ecosystems.get(update.ecosystem).companion(
                update.package, version, root, self._versions(update), older=older
            )
        except (UpstreamError, ValueError) as exc:
            problems.append(f"the companion of {update.package} {version}: no metadata ({exc})")
            return None
        if got is None:
            return None
        name, picked = got
        if picked is None:
            problems.append(f"{name}: no release of the major of {update.package} {version}")
            return None
        eco = ecosystems.get(update.ecosystem)
        mine, theirs = eco.parse_version(version), eco.parse_version(picked)
        if older and mine is not None and theirs is not None and theirs.major < mine.major:
            problems.append(f"{name} {picked} stands in for {update.package} {version}")
        files = self._release(update, name, picked, clock)
        if isinstance(files, Problem):
            problems.append(files.reason)
            return None
        return files


def _python_files(root: Path) -> int:
    return sum(1 for p in root.rglob("*.py*") if p.suffix in (".py", ".pyi"))


@contextmanager
def wired(settings: Settings, out_dir: Path, http: Http | None) -> Iterator[tuple[Http, Trace]]:
    """The run's HTTP session and its ``DIR/trace.jsonl``; every retried request is traced.

    A session given by the caller stays open (and keeps its own retry hook); one opened
    here is closed at the end. The session refuses requests once the run's time
    (``max_seconds``) is up; a caller's session gets its own deadline back afterwards.
    """
    own_http = http is None
    http = http or Http(settings)
    earlier_deadline = http.deadline
    http.set_deadline(time.monotonic() + settings.max_seconds)
    trace = Trace(out_dir / TRACE_FILE, settings.secrets())
    hooked = http.on_retry is None
    if hooked:
        http.on_retry = lambda event: trace.write("http_retry", **event)
    try:
        yield http, trace
    finally:
        trace.close()
        if hooked:
            http.on_retry = None
        http.set_deadline(earlier_deadline)
        if own_http:
            http.close()
