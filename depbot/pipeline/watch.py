"""What the tools meet as they run: which fetches failed, and how far each stage has got.

``ToolWatch.wrap`` puts a thin layer over the run's services (``agent.services.Services``):
every ``fetch_changelog`` that fails for an update is noted under the update's key in
words ("rate limited", "GitHub reads failed"), taken from the ``UpstreamError`` kind when the
fetch raised one; a later fetch that succeeds clears it. The layer also reports progress
as ``StageEvent`` lines ("notes fetched 3/11: requests", "searched 2/11: Jinja2"): a
``str`` (what every progress callback takes) that also carries the stage and its counts,
so a live display can show them without reading the text. It does no I/O of its own.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from typing import Any

from depbot.changelogs.result import ChangelogResult
from depbot.core.breaker import failure_reason
from depbot.core.errors import DepbotError, UpstreamError
from depbot.pipeline.outcome import CAUSES, unknown_cause
from depbot.pipeline.timings import Timings
from depbot.records.names import normalize
from depbot.records.update import Update
from depbot.records.verdict import Verdict
from depbot.symbols.facts import SymbolQuery

FETCHED = "notes fetched"
SEARCHED = "searched"
CONCLUDED = "concluded"
FOUND = "updates found"

# UpstreamError kinds, as a reason reads them; not_found is no failure: the notes do not exist
_KIND_WORDS = {
    "rate_limited": "rate limited",
    "server_error": "server error",
    "timeout": "timeout",
    "connection": "unreachable",
    "unauthorized": "access refused",
    "bad_response": "unreadable answers",
    "refused": "address refused",
    "too_large": "answer too large",
    "unreachable": "unreachable",
    "deadline": "run deadline passed",
    **{kind: failure_reason(kind) for kind in ("dns", "tls", "proxy")},
}
_NOT_FOUND = " not found on GitHub"  # the one kind of sentence of ChangelogResult.errors
# (changelogs.problems.github_problem) that says the notes are absent, not that a read failed


class StageEvent(str):
    """A progress line that also says which stage moved: ``stage``, ``done`` of ``total``."""

    stage: str
    done: int
    total: int

    def __new__(cls, text: str, *, stage: str, done: int, total: int) -> StageEvent:
        event = super().__new__(cls, text)
        event.stage, event.done, event.total = stage, done, total
        return event


def artifact_failure(kind: str, line: str) -> str:
    """Why released code could not be had, as the closing lines count it: the words for the
    kind; for an address refused, the host's line and what to set if the host is yours."""
    if kind == "refused":
        m = re.search(
            r"refused to contact ([^\s:]+): (.*?)(?: \(checked on the connection itself\))?\)*$",
            line,
        )
        host, why = (m.group(1), m.group(2)) if m else ("", line)
        if "private, loopback or reserved" in why:
            return (
                f"artifact downloads refused: {host} resolves to a private, loopback or "
                "reserved address; set DEPBOT_ALLOW_PRIVATE_HOSTS=1 if that host is yours"
            )
        if host:
            return f"artifact downloads refused: {host}: {why} (DEPBOT_ARTIFACT_HOSTS)"
        return f"artifact downloads refused: {why}"
    return f"artifact downloads failed ({_KIND_WORDS.get(kind, kind)})"


def fetch_failure(result: ChangelogResult) -> str:
    """What failed while fetching ``result`` ("" when nothing did, or the notes are absent)."""
    if any(_NOT_FOUND not in e for e in result.errors):
        return "GitHub reads failed"
    return ""


class ToolWatch:
    """The fetch failures and stage counts of one run; thread-safe."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say
        self.failures: dict[str, str] = {}  # update key -> what failed fetching its notes
        # (ecosystem, package) -> the tool that crashed on it: the facts were not had, and an
        # unknown it leaves is a failure (the run is degraded), not "not settled by the facts"
        self.crashed: dict[tuple[str, str], str] = {}
        # update key -> why its released code could not be had (an upstream failed)
        self.diff_failures: dict[str, tuple[str, str]] = {}  # key -> (kind, the cause)
        self._fetched: set[str] = set()
        self._searched: set[tuple[str, str]] = set()
        self._lock = threading.Lock()
        self.total = 0
        self.timings = Timings()  # seconds by stage and package, as the services ran

    def wrap(self, services: Any, *, total: int) -> Watched:
        self.total = total
        return Watched(services, self)

    def fetched(self, update: Update, failure: str) -> None:
        with self._lock:
            if failure:
                self.failures[update.key] = failure
            else:
                self.failures.pop(update.key, None)
            if update.key in self._fetched:
                return
            self._fetched.add(update.key)
            note = f" ({failure})" if failure else ""
            self._event(FETCHED, len(self._fetched), f"{update.package}{note}")  # in order

    def searched(self, ecosystem: str, package: str) -> None:
        key = (ecosystem, normalize(package))
        with self._lock:
            if key in self._searched:
                return
            self._searched.add(key)
            self._event(SEARCHED, len(self._searched), package)

    def _event(self, stage: str, n: int, what: str) -> None:
        total = max(self.total, n)
        self.say(StageEvent(f"{stage} {n}/{total}: {what}", stage=stage, done=n, total=total))

    def diff_failed(self, update: Update, kind: str, line: str) -> None:
        """The released code of ``update`` could not be had because an upstream failed."""
        with self._lock:
            self.diff_failures.setdefault(update.key, (kind, artifact_failure(kind, line)))

    def crash(self, ecosystem: str, package: str, what: str) -> None:
        with self._lock:
            self.crashed.setdefault((ecosystem, normalize(package)), what)

    def failures_of(self, verdicts: list[Verdict]) -> dict[str, str]:
        """What failed for each update: its fetch, its released code's download, a tool that
        crashed on its package; several causes joined by ``CAUSES``."""
        with self._lock:
            failures, crashed = dict(self.failures), dict(self.crashed)
            diffs = dict(self.diff_failures)
        for v in verdicts:
            fetch = failures.get(v.update.key, "")
            kind, diff = diffs.get(v.update.key, ("", ""))
            if _KIND_WORDS.get(kind) == fetch:  # the same upstream failing both reads: once
                diff = ""
            causes = [fetch, diff]
            causes.append(crashed.get((v.update.ecosystem, normalize(v.update.package)), ""))
            if any(causes):
                failures[v.update.key] = CAUSES.join(dict.fromkeys(c for c in causes if c))
        return failures

    def cause(self, verdict: Verdict) -> str:
        """``failure`` or ``no_facts`` for an unknown verdict, from what failed so far."""
        return unknown_cause(verdict, self.failures_of([verdict]))


class Watched:
    """The run's services, seen by a ``ToolWatch``; everything else passes through."""

    def __init__(self, inner: Any, watch: ToolWatch) -> None:
        self._inner, self._watch = inner, watch

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def fetch_changelog(self, update: Update) -> ChangelogResult:
        started = time.perf_counter()
        try:
            result = self._inner.fetch_changelog(update)
        except UpstreamError as exc:
            words = "" if exc.kind == "not_found" else _KIND_WORDS.get(exc.kind, exc.kind)
            self._watch.fetched(update, words)
            raise
        except DepbotError:  # a ToolError: the model asked badly; nothing upstream failed
            raise
        except Exception:
            self._watch.fetched(update, "an unexpected error")
            raise
        finally:
            self._watch.timings.add(update.package, "notes", time.perf_counter() - started)
        self._watch.fetched(update, fetch_failure(result))
        return result

    def _guarded(
        self, tool: str, ecosystem: str, package: str, call: Callable[[], Any], stage: str = ""
    ) -> Any:
        """``call()``; a crash (not one of depbot's own errors) is noted against the package;
        its seconds are counted under ``stage`` (none: the result's own ``stages``)."""
        started = time.perf_counter()
        try:
            result = call()
        except DepbotError:
            raise
        except Exception as exc:  # RecursionError, MemoryError from a hostile input: noted
            self._watch.crash(ecosystem, package, f"{tool} crashed ({type(exc).__name__})")
            raise
        finally:
            if stage:
                self._watch.timings.add(package, stage, time.perf_counter() - started)
        if not stage:
            self._watch.timings.add_all(package, getattr(result, "stages", None) or {})
        return result

    def search_code(self, *args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return self._inner.search_code(*args, **kwargs)
        finally:  # a text search names no package: the run's, not an update's
            self._watch.timings.add("", "search", time.perf_counter() - started)

    def used_names(self, ecosystem: str, package: str) -> Any:
        call = lambda: self._inner.used_names(ecosystem, package)  # noqa: E731
        return self._guarded("used_names", ecosystem, package, call, "use_check")

    def who_loads(self, update: Update) -> Any:
        call = lambda: self._inner.who_loads(update)  # noqa: E731
        return self._guarded("who_loads", update.ecosystem, update.package, call, "registry")

    def unloaded(self, path: str) -> Any:
        return self._inner.unloaded(path)

    def names_used(self, ecosystem: str, package: str) -> Any:
        call = lambda: self._inner.names_used(ecosystem, package)  # noqa: E731
        return self._guarded("names_used", ecosystem, package, call, "use_check")

    def where_imported(self, ecosystem: str, package: str) -> Any:
        call = lambda: self._inner.where_imported(ecosystem, package)  # noqa: E731
        result = self._guarded("where_imported", ecosystem, package, call, "search")
        self._watch.searched(ecosystem, package)
        return result

    def search_symbol(self, query: SymbolQuery) -> Any:
        call = lambda: self._inner.search_symbol(query)  # noqa: E731
        stage = "use_check" if query.exact else "search"  # exact: an API finding's uses
        result = self._guarded("search_symbol", query.ecosystem, query.package, call, stage)
        self._watch.searched(query.ecosystem, query.package)
        return result

    def api_diff(self, update: Update) -> Any:
        call = lambda: self._inner.api_diff(update)  # noqa: E731
        result = self._guarded("api_diff", update.ecosystem, update.package, call)
        failed = getattr(result, "failed", None)
        if getattr(result, "diff", None) is None and failed and failed[0] != "not_found":
            self._watch.diff_failed(update, *failed)
        return result


__all__ = ["CONCLUDED", "FETCHED", "FOUND", "SEARCHED", "StageEvent", "ToolWatch", "Watched"]
