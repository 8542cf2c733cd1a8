"""A running ``rg`` process: its stdout read as records, its stderr drained and capped, its
exit status turned into per-file warnings or a ``ToolError``.
"""

from __future__ import annotations

import subprocess
import threading

from depbot.core.errors import ToolError

_STDERR_KEEP = 16 * 1024  # bytes of rg's stderr kept for error messages


class RgRun:
    """A running rg process: iterate stdout records, then ``finish()``.

    stderr is drained on a thread (so a flood of warnings cannot block rg) and capped.
    Exit codes: 0 matches, 1 no match (both fine); 2 is an error: fatal when rg produced
    no output (bad regex, bad flag), otherwise per-file warnings returned by ``finish``.
    """

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc = proc
        self._err = bytearray()
        self._saw_output = False
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for chunk in iter(lambda: self.proc.stderr.read(4096), b""):
            if len(self._err) < _STDERR_KEEP:
                self._err.extend(chunk[: _STDERR_KEEP - len(self._err)])

    def __iter__(self):
        return self.records(b"\n")

    def records(self, sep: bytes):
        assert self.proc.stdout is not None
        if sep == b"\n":
            for line in self.proc.stdout:
                self._saw_output = True
                yield line
            return
        buf = b""
        while True:
            chunk = self.proc.stdout.read(65536)
            if not chunk:
                break
            self._saw_output = True
            buf += chunk
            *parts, buf = buf.split(sep)
            yield from parts
        if buf:
            yield buf

    def finish(self) -> list[str]:
        """Wait for rg; return its per-file warnings, or raise ``ToolError`` if it failed."""
        code = self.proc.wait()
        self._thread.join(timeout=5)
        stderr = self._err.decode("utf-8", errors="replace")
        if code in (0, 1):
            return _warnings(stderr)
        if code == 2 and self._saw_output:
            return _warnings(stderr)
        if "regex parse error" in stderr or "regex could not be compiled" in stderr:
            raise ToolError(f"invalid regular expression: {_first_error(stderr)}")
        raise ToolError(f"search failed: {_first_error(stderr)}")

    def __enter__(self) -> RgRun:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._thread.join(timeout=5)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


def _first_error(stderr: str) -> str:
    """The gist of rg's stderr: the regex error, or the first line."""
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    for ln in lines:
        if ln.startswith("error:"):
            return ln[len("error:") :].strip()
    return lines[0].removeprefix("rg: ") if lines else "ripgrep failed"


def _warnings(stderr: str) -> list[str]:
    return [ln.removeprefix("rg: ").strip() for ln in stderr.splitlines() if ln.strip()][:20]
