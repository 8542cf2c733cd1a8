"""One publish at a time per output folder, waiting a bounded time for the one before.

The lock is the output folder's run lock (``runlock.FolderLock``, ``DIR/.depbot.lock``: an
``flock`` released by the kernel when its holder dies), taken with ``command="publish"``,
so a publish also never reads drafts a triage run of the same folder is rewriting. Where
a triage refuses a held folder at once, a publish polls for up to ``wait`` seconds (two CI
jobs publishing one downloaded artifact: the second then finds the first one's issues by
their markers and changes nothing); past that it raises the lock's ``FolderInUse``, one
line naming the holder's pid, host and start time (exit status 2).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from depbot.core.errors import PublishError
from depbot.output.runlock import FolderInUse, FolderLock

DEFAULT_WAIT = 120.0  # seconds a second publish of the same folder waits for the first


@contextmanager
def publish_lock(out: Path, *, wait: float = DEFAULT_WAIT, poll: float = 0.05) -> Iterator[None]:
    """Hold the run lock of the output folder ``out`` for the ``with`` block.

    Raises ``FolderInUse`` when another run still holds it after ``wait`` seconds (0: at
    once), ``PublishError`` when the folder cannot be locked (not writable).
    """
    lock = FolderLock(out, command="publish")
    deadline = time.monotonic() + max(0.0, wait)
    while True:
        try:
            lock.acquire()
            break
        except FolderInUse:
            if time.monotonic() >= deadline:
                raise
            time.sleep(poll)
        except OSError as exc:  # a folder depbot cannot write in: review.json could not be either
            raise PublishError(f"cannot lock {out} for publishing: {exc.strerror or exc}") from None
    try:
        yield
    finally:
        lock.release()
