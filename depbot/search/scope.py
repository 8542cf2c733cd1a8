"""What the code search may look at, and input checks for its tools.

Turns the scope settings into ripgrep flags (``scope_args``), finds virtual environments
(``find_env_dirs``), and validates what a model passes in: patterns (``check_pattern``),
path globs (``check_glob``) and repo-relative paths (``check_relative``). Every failure is
a ``ToolError`` with a short sentence saying what to do instead. Also the line trimming
used for hits (``trim_line``). Which files may be read at all (``is_secret``,
``resolve_inside``, ``refusal``) is ``depbot.core.confine``'s rule, re-exported here.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from depbot.core.confine import SECRET_FLOOR, is_secret, refusal, resolve_inside, secret_patterns
from depbot.core.errors import ToolError
from depbot.core.settings import Settings

# the checkout rule (what may be read: inside the checkout through every link, no secret
# file) lives in core.confine so that the manifest readers below this layer share it
__all__ = [
    "SECRET_FLOOR",
    "check_glob",
    "check_pattern",
    "check_relative",
    "find_env_dirs",
    "is_secret",
    "refusal",
    "resolve_inside",
    "rust_escape",
    "scope_args",
    "secret_patterns",
    "size_bytes",
    "trim_line",
]

MAX_PATTERN_LENGTH = 200
MAX_GLOB_LENGTH = 200
ENV_SCAN_DEPTH = 4  # how deep to look for directories holding a pyvenv.cfg
ENV_SCAN_DIRS = 20_000  # ... and how many directories at most
_GLOB_CHARS = frozenset("*?[]{}")
# short lines of ordinary code; a regex matching most of them matches "everything"
_PROBES = ("x", "}", "a = 1", "import os", "    return None", "// note", "#", ")", "0")


def find_env_dirs(
    root: Path, exclude_dirs: Iterable[str] = (), *, depth: int = ENV_SCAN_DEPTH
) -> list[str]:
    """Root-relative POSIX paths of directories holding a ``pyvenv.cfg`` (virtual
    environments), looked for up to ``depth`` levels down (at most ``ENV_SCAN_DIRS``
    directories), never entering ``exclude_dirs`` or following symlinks."""
    found: list[str] = []
    excluded = set(exclude_dirs)
    stack: list[tuple[Path, int]] = [(root, 0)]
    visited = 0
    while stack and visited < ENV_SCAN_DIRS:
        d, level = stack.pop()
        visited += 1
        try:
            with os.scandir(d) as it:
                entries = list(it)
        except OSError:
            continue
        if d != root and any(e.name == "pyvenv.cfg" for e in entries):
            found.append(d.relative_to(root).as_posix())
            continue
        if level >= depth:
            continue
        for e in entries:
            try:
                if e.name not in excluded and e.is_dir(follow_symlinks=False):
                    stack.append((Path(e.path), level + 1))
            except OSError:
                continue
    return sorted(found)


def scope_args(settings: Settings, env_dirs: Iterable[str] = ()) -> list[str]:
    """The rg flags that define the search scope: hidden files on, ignore files honoured
    without requiring git (or all VCS/dot ignore files off), no global git excludes,
    ``max_filesize``, and ``--glob '!…'`` for excluded dirs, ``site-packages`` and the
    ``env_dirs`` (anchored), excluded files, and ``--iglob '!…'`` for secret files (those of
    the settings and ``SECRET_FLOOR``, matched case-insensitively)."""
    s = settings
    args = ["--hidden", "--no-ignore-global", "--max-filesize", s.max_filesize]
    if s.respect_gitignore:
        args.append("--no-require-git")
    else:
        args += ["--no-ignore-vcs", "--no-ignore-dot"]
    globs = [f"!{d.strip('/')}/" for d in s.exclude_dirs if d.strip("/")]
    if s.skip_env_dirs:
        globs.append("!site-packages/")
        globs += [f"!/{d}/" for d in env_dirs]
    globs += [f"!{p}" for p in s.exclude_files]
    for g in globs:
        args += ["--glob", g]
    # secret files case-insensitively (SERVER.PEM, .ENV), the configured ones and the floor
    for p in secret_patterns(s.secret_files):
        args += ["--iglob", f"!{p}"]
    return args


def check_pattern(pattern: str, regex: bool) -> None:
    """Refuse an empty, overlong or multi-line pattern, a one-character literal, and a
    regex that matches (almost) every line (``.``, ``.*``, ``^``, ``\\w``…). A regex that
    Python cannot compile is left for ripgrep to judge (the dialects differ)."""
    if not isinstance(pattern, str) or not pattern.strip():
        raise ToolError("The pattern is empty; give the name or text to search for.")
    if len(pattern) > MAX_PATTERN_LENGTH:
        raise ToolError(
            f"The pattern is too long ({len(pattern)} characters; at most {MAX_PATTERN_LENGTH})."
        )
    if "\n" in pattern or "\r" in pattern:
        raise ToolError("The pattern must be a single line.")
    if not regex:
        if len(pattern.strip()) < 2:
            raise ToolError(
                "The pattern is a single character and would match almost every line; "
                "search for a name or a longer piece of code."
            )
        return
    try:
        rx = re.compile(pattern)
    except (re.error, RecursionError, OverflowError):
        return
    if rx.search("") is not None or sum(1 for p in _PROBES if rx.search(p)) >= 5:
        raise ToolError(
            f"The regex {pattern!r} matches (almost) every line; search for something "
            "specific, such as a name or a call like 'yaml\\.load\\('."
        )


def check_glob(glob: str, root: Path, secret_files: Iterable[str]) -> str:
    """A validated rg glob (``!`` negates): relative, no ``..``, not aimed at secret files.
    A plain directory name (``src``, ``src/``) becomes ``src/**`` so it selects the files
    under it (rg would otherwise match the directory itself and nothing inside)."""
    if not isinstance(glob, str):
        raise ToolError("path_glob must be a string such as 'src/**/*.py'.")
    g = glob.strip().replace("\\", "/")
    if not g:
        raise ToolError("path_glob is empty; give a glob such as 'src/**/*.py' or omit it.")
    if len(g) > MAX_GLOB_LENGTH:
        raise ToolError(f"path_glob is too long (at most {MAX_GLOB_LENGTH} characters).")
    neg = g.startswith("!")
    body = g[1:] if neg else g
    if not body or body.startswith(("/", "~")) or re.match(r"^[A-Za-z]:", body):
        raise ToolError("path_glob must be relative to the checkout, e.g. 'src/**/*.py'.")
    if ".." in PurePosixPath(body).parts:
        raise ToolError("path_glob must stay inside the checkout (no '..').")
    last = PurePosixPath(body).name
    literal = re.sub(r"[*?\[\]{}]", "", last).lower()
    if not neg and literal:
        for p in secret_patterns(secret_files):
            if fnmatch.fnmatchcase(literal, p) or fnmatch.fnmatchcase(last.lower(), p):
                raise ToolError(
                    "path_glob points at files that may hold secrets; those are never searched."
                )
    if not _GLOB_CHARS & set(body) and (body.endswith("/") or (root / body).is_dir()):
        body = body.rstrip("/") + "/**"
    return ("!" if neg else "") + body


def check_relative(path: str) -> str:
    """A normalized repo-relative POSIX path, or ``ToolError`` for an empty, absolute or
    ``..`` path."""
    if not isinstance(path, str) or not path.strip():
        raise ToolError("The path is empty; give a repo-relative path such as 'src/app.py'.")
    p = path.strip().replace("\\", "/")
    if p.startswith(("/", "~")) or re.match(r"^[A-Za-z]:", p):
        raise ToolError(f"{path} is not a repo-relative path; give it relative to the checkout.")
    parts = [x for x in PurePosixPath(p).parts if x not in (".", "")]
    if ".." in parts or not parts:
        raise ToolError(f"{path} points outside the checkout.")
    return "/".join(parts)


def size_bytes(text: str) -> int:
    """rg's ``--max-filesize`` notation (``1M``, ``500K``, ``1048576``) in bytes."""
    m = re.fullmatch(r"\s*(\d+)\s*([KMG]?)B?\s*", text.upper())
    if not m:
        return 1 << 20
    return int(m.group(1)) * {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[m.group(2)]


def rust_escape(text: str) -> str:
    """Escape a literal for ripgrep's (Rust) regex syntax."""
    return re.sub(r"([\\.+*?()|\[\]{}^$#&~-])", r"\\\1", text)


def trim_line(text: str, col: int, width: int, offset: int = 0, length: int | None = None) -> str:
    """A line (or a slice of one starting at character ``offset`` of a line ``length``
    long) stripped and cut to at most ``width`` characters around the 1-based column
    ``col``; ``…`` marks each cut."""
    length = len(text) + offset if length is None else length
    stripped = text.strip()
    if offset == 0 and length == len(text) and len(stripped) <= width:
        return stripped
    body_end = len(text.rstrip())
    lead = len(text) - len(text.lstrip())
    c = col - 1 - offset
    room = max(width - 2, 1)
    start = max(lead, min(c - width // 3, body_end - room))
    end = min(body_end, start + room)
    out = text[start:end]
    if start > lead or offset > 0:
        out = "…" + out
    if end < body_end or offset + len(text) < length:
        out += "…"
    return out
