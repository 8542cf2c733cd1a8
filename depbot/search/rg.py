"""The ripgrep client: finds the ``rg`` binary, builds its command lines with ``ripgrepy``,
runs them, and turns ``--json`` output into bounded, deterministic match lists.

Everything here is about *running* ripgrep; what is in scope (ignore rules, secret files,
venvs) is decided by ``search/code.py`` and handed in as plain ``rg`` arguments. Reading
the ``--json`` messages is ``rgjson.py``; a running ``rg`` process is ``rgrun.py``.

Why not ``Ripgrepy.run()``: it captures all output in memory, throws stdout away whenever
``rg`` exits non-zero (``rg`` exits 2 when a single file was unreadable, even with good
matches) and hides the exit code. So ``ripgrepy`` builds the command (its flag methods,
``regexp()`` for ``-e``) and this module executes exactly that command, streaming stdout.

Command shape: ``rg --no-config [flags...] --regexp PATTERN -- PATH``. The pattern always
goes through ``-e``/``--regexp`` (so a pattern starting with ``-`` is never read as a flag)
and ripgrepy's positional "regex_pattern" slot is filled with ``--``, which ends flag
parsing before the search path. (ripgrepy 2.2's ``regexp()`` resets that slot to ``""``,
which ``run()`` would pass on as an empty *path*; ``Ripgrep.command`` sets it back to
``--`` after the flags are in.)

Bounds: ``limit`` caps how many matches are kept (the smallest by ``(path, line)``, so a
truncated answer is the same on every run) and ``max_per_file`` how many per file; long
lines are cut to a window around the match (``--max-columns`` does nothing with
``--json``, so the cut happens here). Totals are exact: rg prints up to ``COUNT_CAP``
matching lines per file (``--max-count``), the ones that cannot be kept are counted
without being decoded, and only when a file reaches the cap does a second ``--count``
pass give the true number of matching lines.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ripgrepy import Ripgrepy

from depbot.core.errors import ConfigError
from depbot.search.rgjson import RgMatch, begin_path, clean_path, parse_match
from depbot.search.rgrun import RgRun

RG_INSTALL_HINT = "pip install ripgrep==14.1.0"
_EXE = "rg.exe" if os.name == "nt" else "rg"
# rg prints at most this many matching lines per file; totals need a second (--count)
# pass only when a file has more
COUNT_CAP = 500
_MATCH = b'{"type":"match"'
_BEGIN = b'{"type":"begin"'


def find_rg() -> Path:
    """The ``rg`` executable: next to the interpreter, then the ``ripgrep`` wheel's scripts
    directory (the environment's and the user scheme's), then ``PATH``.

    Raises ``ConfigError`` naming the fix when none exists.
    """
    candidates: list[Path] = [Path(sys.executable).parent / _EXE]
    schemes = [None]
    user_scheme = f"{os.name}_user"
    if user_scheme in sysconfig.get_scheme_names():
        schemes.append(user_scheme)
    for scheme in schemes:
        try:
            scripts = (
                sysconfig.get_path("scripts", scheme) if scheme else sysconfig.get_path("scripts")
            )
        except KeyError:  # pragma: no cover - exotic sysconfig setups
            continue
        if scripts:
            candidates.append(Path(scripts) / _EXE)
    for cand in candidates:
        if cand.is_file() and os.access(cand, os.X_OK):
            return cand
    found = shutil.which("rg")
    if found:
        return Path(found)
    raise ConfigError(
        "ripgrep (rg) was not found next to Python, in the ripgrep package or on PATH; "
        f"install it with `{RG_INSTALL_HINT}`."
    )


@dataclass
class RgResult:
    """Matches of one search, sorted by ``(path, line)``.

    ``total`` is the number of matching lines in all accepted files (exact: counted by a
    second pass when a file reached ``COUNT_CAP``), ``files`` the number of accepted files
    with a match, ``truncated`` whether ``matches`` holds fewer than ``total``.
    ``rejected`` lists files the ``reject`` callback dropped (not counted anywhere).
    ``warnings`` holds rg's complaints about files it could not read (the search still ran).
    """

    matches: list[RgMatch]
    total: int
    files: int
    truncated: bool
    rejected: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


class Ripgrep:
    """Runs ``rg`` over one directory. Thread-safe; holds no per-search state."""

    def __init__(self, exe: Path | str | None = None) -> None:
        self.exe = Path(exe) if exe is not None else find_rg()

    # -- command building --------------------------------------------------------------

    def _builder(self, path: str) -> Ripgrepy:
        try:
            return Ripgrepy("--", path, rg_path=str(self.exe))
        except Exception:  # ripgrepy raises RipGrepNotFound when the binary vanished
            raise ConfigError(
                f"ripgrep (rg) at {self.exe} cannot be run; install it with `{RG_INSTALL_HINT}`."
            ) from None

    def command(
        self,
        pattern: str | None,
        *,
        path: str = ".",
        args: Sequence[str] = (),
        fixed: bool = True,
        word: bool = False,
        json_out: bool = True,
        max_count: int | None = None,
        count: bool = False,
        files_with_matches: bool = False,
        list_files: bool = False,
    ) -> list[str]:
        """The exact argv to run, built with ripgrepy: ``rg --no-config [flags] [args]
        --regexp PATTERN -- PATH`` (``pattern`` None only with ``list_files``).

        ``args`` are scope flags from the caller (globs, ``--hidden``, ...), passed verbatim
        before the pattern.
        """
        rg = self._builder(path)
        rg.no_config()
        if list_files:
            rg.files()
        elif count:
            rg.command.append("--count")
            rg.null()
        elif files_with_matches:
            rg.files_with_matches()
            rg.null()
        elif json_out:
            rg.json()
        if fixed and not list_files:
            rg.fixed_strings()
        if word and not list_files:
            rg.word_regexp()
        if max_count is not None and not (count or files_with_matches or list_files):
            rg.max_count(max_count)
        rg.command.extend(args)
        if pattern is not None and not list_files:
            rg.regexp(pattern)
        # ripgrepy's regexp() (and files()) blank the positional pattern slot to "", which
        # run() would still append (rg then reads "" as a path); fill it with "--" instead.
        rg.regex_pattern = "--"
        # what Ripgrepy.run() appends: its positional pattern slot, then the path
        return [*rg.command, rg.regex_pattern, rg.path]

    # -- running -----------------------------------------------------------------------

    def _popen(self, argv: list[str], cwd: Path) -> subprocess.Popen:
        try:
            return subprocess.Popen(
                argv,
                cwd=cwd,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                stdin=subprocess.DEVNULL,
            )
        except OSError as exc:
            raise ConfigError(
                f"ripgrep (rg) at {self.exe} cannot be run ({exc.strerror}); "
                f"install it with `{RG_INSTALL_HINT}`."
            ) from None

    def run(self, argv: list[str], cwd: Path) -> RgRun:
        """Start ``argv`` in ``cwd``; iterate the returned object for stdout lines, then call
        ``finish()`` for the exit status (raises ``ToolError`` on a fatal rg error)."""
        return RgRun(self._popen(argv, cwd))

    def search_argv(
        self,
        pattern: str,
        *,
        args: Sequence[str] = (),
        fixed: bool = True,
        word: bool = False,
        max_per_file: int = 10,
    ) -> list[str]:
        """The exact command ``search`` runs (``--json``; rg's ``--max-count`` is the larger
        of ``max_per_file`` and ``COUNT_CAP`` so that totals come from one pass)."""
        cap = max(max_per_file, COUNT_CAP)
        return self.command(pattern, args=args, fixed=fixed, word=word, max_count=cap)

    def search(
        self,
        pattern: str,
        cwd: Path,
        *,
        args: Sequence[str] = (),
        fixed: bool = True,
        word: bool = False,
        max_per_file: int = 10,
        limit: int = 60,
        window: int = 80,
        reject: Callable[[RgMatch], bool] | None = None,
        reject_min_length: int = 0,
    ) -> RgResult:
        """Search ``cwd`` (recursively, within ``args``' scope) for ``pattern``.

        Keeps the ``limit`` smallest matches by ``(path, line)``, at most ``max_per_file``
        per file, and counts every matching line: rg prints up to ``COUNT_CAP`` lines per
        file and only a file beyond that triggers a second ``--count`` pass. Only the
        matches that can still be kept are decoded (rg prints each file's messages as one
        block, so the others are just counted). ``reject(match)`` sees each file's first
        match when its line may be longer than ``reject_min_length`` characters, and may
        drop the whole file (a minified bundle, say); rejected files count nowhere. Raises ``ToolError`` with rg's reason when the pattern is invalid.
        """
        argv = self.search_argv(
            pattern, args=args, fixed=fixed, word=word, max_per_file=max_per_file
        )
        cap = max(max_per_file, COUNT_CAP)
        keep = max(limit, 1)
        run = self.run(argv, cwd)
        with run:
            kept, per_file, rejected = _read_matches(
                run,
                keep=keep,
                max_per_file=max_per_file,
                window=window,
                reject=reject,
                reject_min_length=reject_min_length,
            )
            warnings = run.finish()
        kept.sort(key=_order)
        del kept[keep:]
        total, files = sum(per_file.values()), len(per_file)
        if any(c >= cap for c in per_file.values()):
            counts = self.count(pattern, cwd, args=args, fixed=fixed, word=word)
            counts = {p: c for p, c in counts.items() if p not in rejected}
            total, files = sum(counts.values()), len(counts)
        total = max(total, len(kept))
        return RgResult(
            matches=kept,
            total=total,
            files=files,
            truncated=total > len(kept),
            rejected=sorted(rejected),
            warnings=warnings,
        )

    def count(
        self,
        pattern: str,
        cwd: Path,
        *,
        args: Sequence[str] = (),
        fixed: bool = True,
        word: bool = False,
    ) -> dict[str, int]:
        """Matching lines per file (``rg --count``), keyed by relative POSIX path."""
        argv = self.command(pattern, args=args, fixed=fixed, word=word, count=True)
        counts: dict[str, int] = {}
        run = self.run(argv, cwd)
        with run:
            for raw in run:
                path_b, _, num = raw.rstrip(b"\r\n").rpartition(b"\0")
                if not path_b:
                    continue
                counts[clean_path(os.fsdecode(path_b))] = int(num or 0)
            run.finish()
        return counts

    def files_with_matches(
        self,
        pattern: str,
        cwd: Path,
        *,
        args: Sequence[str] = (),
        fixed: bool = True,
        word: bool = False,
    ) -> list[str]:
        """Sorted relative POSIX paths of the files with at least one match."""
        argv = self.command(pattern, args=args, fixed=fixed, word=word, files_with_matches=True)
        run = self.run(argv, cwd)
        out: list[str] = []
        with run:
            for raw in run.records(b"\0"):
                if raw:
                    out.append(clean_path(os.fsdecode(raw)))
            run.finish()
        return sorted(out)

    def list_files(self, cwd: Path, *, args: Sequence[str] = ()) -> list[str]:
        """Sorted relative POSIX paths of every file in scope (``rg --files``)."""
        argv = self.command(None, args=[*args, "--null"], list_files=True)
        run = self.run(argv, cwd)
        out: list[str] = []
        with run:
            for raw in run.records(b"\0"):
                if raw:
                    out.append(clean_path(os.fsdecode(raw)))
            run.finish()
        return sorted(out)


def _order(m: RgMatch) -> tuple[str, int]:
    return (m.path, m.line)


def _read_matches(
    run: RgRun,
    *,
    keep: int,
    max_per_file: int,
    window: int,
    reject: Callable[[RgMatch], bool] | None,
    reject_min_length: int,
) -> tuple[list[RgMatch], dict[str, int], set[str]]:
    """One pass over the ``--json`` stream of ``search``: the matches that may be kept (the
    ``keep`` smallest, pruned whenever ``4 * keep`` pile up; unsorted), the matching lines
    of each file, and the files ``reject`` dropped. Only a match that can still be kept, or
    that ``reject`` must see, is decoded."""
    kept: list[RgMatch] = []
    bound: tuple[str, int] | None = None  # kept is full: only smaller keys may enter
    per_file: dict[str, int] = {}
    rejected: set[str] = set()
    current, n, skip = "", 0, False
    for raw in run:
        if raw.startswith(_MATCH):
            if skip:
                continue
            n += 1
            # the JSON line is at least as long as the text line, so a short one
            # cannot be what reject() looks for
            vet = n == 1 and reject is not None and len(raw) > reject_min_length
            wanted = n <= max_per_file and (bound is None or current <= bound[0])
            if not (vet or wanted):
                continue  # counted, never shown: no need to decode it
            m = parse_match(json.loads(raw)["data"], window)
            if m.path != current:  # never expected: rg writes files as blocks
                per_file[current] = per_file.get(current, 0) + n - 1
                current, n = m.path, 1
            if vet and reject(m):  # type: ignore[misc]
                rejected.add(current)
                skip, n = True, 0
                continue
            if wanted and (bound is None or (m.path, m.line) < bound):
                kept.append(m)
                if len(kept) >= 4 * keep:
                    kept.sort(key=_order)
                    del kept[keep:]
                    bound = _order(kept[-1])
        elif raw.startswith(_BEGIN):
            if n:
                per_file[current] = per_file.get(current, 0) + n
            current = begin_path(raw)
            n, skip = 0, current in rejected
    if n:
        per_file[current] = per_file.get(current, 0) + n
    return kept, per_file, rejected
