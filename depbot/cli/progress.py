"""Progress of a run on stderr: a live line per stage on a terminal, plain lines elsewhere.

The pipeline reports progress as text lines; the stage lines among them are
``pipeline.watch.StageEvent`` (a ``str`` carrying ``stage``, ``done`` and ``total``).

- **live** (stderr is a terminal, not GitHub Actions): one ``rich`` progress line per stage
  ("updates found", "notes fetched 3/11", "searched 2/11", "concluded 1/11"); other lines
  (warnings, what the run is doing) print above them;
- **plain** (stderr is not a terminal, or ``GITHUB_ACTIONS=true``): every line as it comes,
  ``depbot: …``, one per event, fit for a log;
- **quiet** (``-q``): nothing.

``reporter()`` picks one; each is a context manager and a ``(str) -> None`` callable.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from types import TracebackType
from typing import IO, Any

import click

from depbot.pipeline.watch import StageEvent

REGISTRIES = "registries checked"  # the update listing's "[3/40] pip requests: ok" lines
_COUNTED = re.compile(r"^\[(\d+)/(\d+)\] ")


class Reporter:
    """Says nothing (``-q``); the base of the other two."""

    mode = "quiet"

    def __call__(self, msg: str) -> None:
        pass

    def __enter__(self) -> Reporter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        pass


class PlainReporter(Reporter):
    """One ``depbot: …`` line on stderr per event."""

    mode = "plain"

    def __call__(self, msg: str) -> None:
        click.echo(f"depbot: {msg}", err=True)


class LiveReporter(Reporter):
    """A ``rich`` progress line per stage; other lines print above them."""

    mode = "live"

    def __init__(self, console: Any = None) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        self.console = console or Console(stderr=True)
        self.progress = Progress(
            TextColumn("depbot: {task.description:<18}"),
            BarColumn(bar_width=30),
            MofNCompleteColumn(),
            TextColumn("{task.fields[last]}", style="dim"),
            console=self.console,
            transient=False,
        )
        self._tasks: dict[str, Any] = {}
        self.progress.start()

    def __call__(self, msg: str) -> None:
        if isinstance(msg, StageEvent):
            self.stage(msg.stage, msg.done, msg.total, _what(msg))
            return
        counted = _COUNTED.match(msg)
        if counted:  # the registry lookups of the update listing
            done, total = int(counted.group(1)), int(counted.group(2))
            self.stage(REGISTRIES, done, total, msg[counted.end() :])
            return
        self.progress.console.print(f"depbot: {msg}", markup=False, highlight=False)

    def stage(self, stage: str, done: int, total: int, last: str = "") -> None:
        """Move the line of ``stage`` to ``done`` of ``total``."""
        task = self._tasks.get(stage)
        if task is None:
            task = self.progress.add_task(stage, total=total, completed=done, last=last)
            self._tasks[stage] = task
        self.progress.update(task, completed=done, total=max(total, done), last=last)

    def close(self) -> None:
        self.progress.stop()


def _what(event: StageEvent) -> str:
    """The part of a stage line after its counts: the package (and what failed)."""
    text = str(event)
    if event.done == event.total and text.endswith(f": {event.done}"):  # "updates found: 11"
        return ""
    if text.startswith("["):
        return text.split("] ", 1)[-1]
    return text.split(": ", 1)[-1] if ": " in text else ""


def live_wanted(stream: IO[str] | None = None, env: Mapping[str, str] | None = None) -> bool:
    """A live display only on a terminal, and never in GitHub Actions (its log is no terminal)."""
    env = os.environ if env is None else env
    stream = sys.stderr if stream is None else stream
    if env.get("GITHUB_ACTIONS") == "true":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def reporter(
    quiet: bool, *, stream: IO[str] | None = None, env: Mapping[str, str] | None = None
) -> Reporter:
    """The reporter for this process: quiet, live (a terminal) or plain lines."""
    if quiet:
        return Reporter()
    if live_wanted(stream, env):
        return LiveReporter()
    return PlainReporter()


def stage_event(stage: str, done: int, total: int, text: str) -> StageEvent:
    """A stage line the CLI itself reports ("updates found: 11")."""
    return StageEvent(text, stage=stage, done=done, total=total)


__all__ = [
    "LiveReporter",
    "PlainReporter",
    "REGISTRIES",
    "Reporter",
    "live_wanted",
    "reporter",
    "stage_event",
]
