"""``DIR/.depbot.lock``: one depbot run at a time in an output folder.

The lock is an ``flock`` on the file (released by the kernel when its holder dies, even by
SIGKILL); the file also names its holder (pid, host, start time, command) for the message a
second run prints. A lock file whose holder is gone is taken over with one notice. Where
``fcntl`` is missing, the file's existence is the lock and its pid is checked instead.

    with FolderLock(out_dir, command="publish", notice=say):   # raises FolderInUse
        ...
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from depbot.core.errors import InputError

try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

LOCK_FILE = ".depbot.lock"


class FolderInUse(InputError):
    """Another depbot run holds the output folder (exit status 2, one line)."""

    plain = True  # printed as "depbot: <message>", without "error:"


def _holder_text(info: dict[str, Any]) -> str:
    started = str(info.get("started", "?"))
    try:
        started = datetime.fromisoformat(started).strftime("%H:%M:%S")
    except ValueError:
        pass
    return f"pid {info.get('pid', '?')} on {info.get('host', '?')}, started {started}"


def _read_info(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _alive(pid: Any) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class FolderLock:
    """The lock on one output folder; ``acquire()`` raises ``FolderInUse`` at once when held.

    ``notice(line)`` hears of a stale lock taken over. Not re-entrant: a second
    ``FolderLock`` on the same folder in the same process is refused too.
    """

    def __init__(
        self,
        out_dir: str | Path,
        *,
        command: str = "triage",
        notice: Callable[[str], None] | None = None,
    ) -> None:
        self.out_dir = Path(out_dir)
        self.path = self.out_dir / LOCK_FILE
        self.command = command
        self.notice = notice or (lambda _line: None)
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def info(self) -> dict[str, Any]:
        return {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "started": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "command": self.command,
        }

    def _in_use(self, info: dict[str, Any]) -> FolderInUse:
        return FolderInUse(
            f"{self.out_dir} is in use by another depbot run ({_holder_text(info)}); "
            "wait for it or use another --out"
        )

    def _stale(self, info: dict[str, Any]) -> None:
        if info:
            self.notice(
                f"{self.out_dir}: took over a stale lock ({_holder_text(info)}, no longer running)"
            )

    def acquire(self) -> FolderLock:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        if fcntl is None:  # pragma: no cover - Windows
            return self._acquire_by_pid()
        for _ in range(20):  # the file may be unlinked by its holder between open and flock
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise self._in_use(_read_info(self.path)) from None
            try:
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if not same:
                os.close(fd)
                continue
            self._stale(_read_info(self.path))
            self._fd = fd
            self._write_info(fd)
            return self
        raise self._in_use({})  # pragma: no cover - a folder locked and unlocked 20 times

    def _write_info(self, fd: int) -> None:
        data = json.dumps(self.info()).encode("utf-8")
        os.ftruncate(fd, 0)
        os.pwrite(fd, data, 0)
        os.fsync(fd)

    def _acquire_by_pid(self) -> FolderLock:  # pragma: no cover - Windows
        for _ in range(3):
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                info = _read_info(self.path)
                if info.get("host") == socket.gethostname() and not _alive(info.get("pid")):
                    self._stale(info)
                    self.path.unlink(missing_ok=True)
                    continue
                raise self._in_use(info) from None
            self._fd = fd
            os.write(fd, json.dumps(self.info()).encode("utf-8"))
            return self
        raise self._in_use(_read_info(self.path))

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            self.path.unlink(missing_ok=True)  # while still locked: no one else has it yet
        finally:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> FolderLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def check_free(out_dir: str | Path) -> None:
    """Raise ``FolderInUse`` when a live run holds ``out_dir`` (a quick look; takes nothing)."""
    path = Path(out_dir) / LOCK_FILE
    if not path.is_file():
        return
    lock = FolderLock(out_dir)
    if fcntl is None:  # pragma: no cover - Windows
        info = _read_info(path)
        if info.get("host") != socket.gethostname() or _alive(info.get("pid")):
            raise lock._in_use(info)
        return
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        raise lock._in_use(_read_info(path)) from None
    finally:
        os.close(fd)


__all__ = ["LOCK_FILE", "FolderInUse", "FolderLock", "check_free"]
