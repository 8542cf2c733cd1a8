"""Code search over the user's checkout: the ``search_code`` tool's logic, the scope every
search obeys, and file access primitives for analysis passes built on them
(``import_sites.where_imported`` and ``search_symbol`` build on ``CodeSearch``).

Scope (every rule is a ``Settings`` field):

- ``.gitignore`` (and ``.ignore``/``.rgignore``) is honoured even when the checkout is not
  a git repository (``respect_gitignore``; rg's ``--no-require-git``); global git excludes
  and ripgrep config files are not, so results do not depend on who runs it;
- ``exclude_dirs`` (``.git``, ``node_modules``, ``.venv``, ``venv``, ``vendor``,
  ``third_party``, ``dist``, ``__testfixtures__``) at any depth (``build/`` is searched unless git-ignored: a
  project's own ``build/`` holds its webpack config); with ``skip_env_dirs`` also any
  directory holding a ``pyvenv.cfg`` (found up to ``ENV_SCAN_DEPTH`` levels down) and any
  ``site-packages``;
- ``exclude_files`` (minified bundles by name); a ``.js``/``.css`` file whose first
  matching line is longer than ``minified_line_length`` is treated as a minified bundle and
  dropped (from hits and totals; the note says how many);
- ``secret_files`` are never searched nor read (``read_lines`` refuses them);
- binaries are skipped (rg's default), files above ``max_filesize`` too (``oversized``
  lists them, and ``oversized.too_big_users`` those that may use a package);
- symlinks are never followed (rg's default), and a hit whose resolved path leaves the
  checkout is dropped;
- hidden files are searched (``.eslintrc.json``, ``.babelrc``, ``.github/``…).

Hits: one per matching line, at most ``max_hits_per_file`` per file and ``max_hits`` in
all (the first by ``(path, line)``, so the answer is the same on every run); repo-relative
POSIX paths, 1-based line and character column, the line trimmed to ``hit_width``, and
the lexical ``context`` of the match. When a line has several matches, the column is the
first one that sits in code (else the first). In config files (JSON/YAML/TOML/INI) a
quoted value is configuration, so a match in it is reported as ``"code"``.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from depbot.core.errors import InputError, ToolError
from depbot.core.redact import private_key_lines
from depbot.core.settings import Settings
from depbot.search.imports import is_esm as _is_esm
from depbot.search.lexical import CODE, CONFIG_LANGUAGES, STRING, LexMap, language_for, scan
from depbot.search.rg import RgMatch, Ripgrep
from depbot.search.scope import (
    check_glob,
    check_pattern,
    check_relative,
    find_env_dirs,
    is_secret,
    scope_args,
    size_bytes,
    trim_line,
)

__all__ = [
    "CodeHit",
    "CodeSearch",
    "CodeSearchResult",
    "trim_line",
]

HARD_MAX_HITS = 1000
_MINIFIABLE = (".js", ".mjs", ".cjs", ".css")
_CACHE_FILES = 256


@dataclass(frozen=True)
class CodeHit:
    """One matching line. ``context``: ``"code"`` | ``"comment"`` | ``"string"``."""

    path: str
    line: int
    col: int
    text: str
    context: str


@dataclass
class CodeSearchResult:
    """Hits sorted by (path, line); ``total`` matching lines in all, ``files`` with a match."""

    pattern: str
    hits: list[CodeHit]
    total: int
    truncated: bool
    files: int
    note: str


class _LRU:
    def __init__(self, size: int) -> None:
        self.size = size
        self.data: OrderedDict = OrderedDict()

    def get(self, key):
        val = self.data.get(key)
        if val is not None:
            self.data.move_to_end(key)
        return val

    def put(self, key, val) -> None:
        self.data[key] = val
        self.data.move_to_end(key)
        while len(self.data) > self.size:
            self.data.popitem(last=False)


class CodeSearch:
    """Search one checkout. Thread-safe; caches file contents, lexical maps and the scope."""

    def __init__(self, root: Path, settings: Settings, *, rg: Ripgrep | None = None) -> None:
        root = Path(root).expanduser()
        if not root.is_dir():
            raise InputError(f"The checkout {root} does not exist or is not a directory.")
        self.root = root.resolve()
        self.settings = settings
        self.rg = rg or Ripgrep()
        self._lock = threading.Lock()
        self._scope: list[str] | None = None
        self._lines = _LRU(_CACHE_FILES)
        self._lex = _LRU(_CACHE_FILES)
        self._pkg_type: dict[str, str | None] = {}
        self._oversized: dict[tuple[str, ...], list[tuple[str, int]]] = {}
        self._max_bytes = size_bytes(settings.max_filesize)

    # -- scope ---------------------------------------------------------------------------

    def env_dirs(self) -> list[str]:
        """Repo-relative directories holding a ``pyvenv.cfg`` (see ``find_env_dirs``)."""
        return find_env_dirs(self.root, self.settings.exclude_dirs)

    def scope_args(self) -> list[str]:
        """The rg flags and globs that define what is searched (computed once)."""
        with self._lock:
            if self._scope is not None:
                return list(self._scope)
        env = self.env_dirs() if self.settings.skip_env_dirs else []
        args = scope_args(self.settings, env)
        with self._lock:
            self._scope = args
        return list(args)

    def is_secret(self, path: str) -> bool:
        """Whether a repo-relative path names a file that may hold secrets."""
        return is_secret(path, self.settings.secret_files)

    def _glob_args(self, globs: tuple[str, ...] | list[str]) -> list[str]:
        args: list[str] = []
        for g in globs:
            args += ["--glob", check_glob(g, self.root, self.settings.secret_files)]
        return args

    def _check_path(self, path: str) -> tuple[str, Path]:
        rel = check_relative(path)
        if self.is_secret(rel):
            raise ToolError(f"{rel} may hold secrets; depbot never reads such files.")
        try:
            resolved = (self.root / rel).resolve()
        except (OSError, RuntimeError):
            raise ToolError(f"{rel} cannot be read.") from None
        if not resolved.is_relative_to(self.root):
            raise ToolError(f"{rel} points outside the checkout (a symbolic link).")
        if resolved != self.root and self.is_secret(resolved.relative_to(self.root).as_posix()):
            raise ToolError(f"{rel} links to a file that may hold secrets; not read.")
        return rel, resolved

    def inside(self, path: str) -> bool:
        """Whether a repo-relative path resolves (through symlinks) inside the checkout."""
        try:
            return (self.root / path).resolve().is_relative_to(self.root)
        except (OSError, RuntimeError):
            return False

    # -- files ---------------------------------------------------------------------------

    def files_containing(self, regex: str, globs: tuple[str, ...] = ()) -> list[str]:
        """In-scope files (sorted, repo-relative) with a line matching a ripgrep ``regex``,
        optionally only those matching any of ``globs``; cheap pre-filter for parsing."""
        if not isinstance(regex, str) or not regex.strip():
            raise ToolError("The pattern is empty.")
        args = [*self._glob_args(globs), *self.scope_args()]
        # rg never follows symlinks, so every listed file lies inside the checkout;
        # read_lines() checks again before reading
        return self.rg.files_with_matches(regex, self.root, args=args, fixed=False)

    def files(self, globs: tuple[str, ...] = ()) -> list[str]:
        """In-scope files (repo-relative POSIX paths, sorted), optionally only those
        matching any of ``globs`` (rg globs: ``*.py``, ``src/**``). Listing reads no
        content, so binary files and bundles minified under an ordinary name are included;
        filter by extension (``globs``) for source passes."""
        args = [*self._glob_args(globs), *self.scope_args()]
        return self.rg.list_files(self.root, args=args)  # symlinks are never followed

    def oversized(self, globs: tuple[str, ...] = ()) -> list[tuple[str, int]]:
        """In-scope files (matching ``globs``) that every search skips for being larger than
        ``max_filesize``, with their sizes; cached per ``globs``."""
        with self._lock:
            if globs in self._oversized:
                return list(self._oversized[globs])
        args = [*self._glob_args(globs), *self.scope_args()]
        at = args.index("--max-filesize")
        unlimited = args[:at] + args[at + 2 :]
        every = self.rg.list_files(self.root, args=unlimited)
        kept = set(self.files(globs))  # what the searches see
        found = []
        for rel in every:
            if rel in kept:
                continue
            try:
                size = (self.root / rel).lstat().st_size
            except OSError:
                continue
            if size > self._max_bytes:
                found.append((rel, size))
        with self._lock:
            self._oversized[globs] = found
        return list(found)

    def read_lines(self, path: str) -> list[str]:
        """The lines of a repo-relative file (split on ``\\n``, line ends removed, UTF-8
        with replacement, BOM dropped), cached. Refuses secret files, paths that leave the
        checkout, missing files and files above ``max_filesize`` with a ``ToolError``."""
        rel, resolved = self._check_path(path)
        with self._lock:
            cached = self._lines.get(rel)
        if cached is not None:
            return cached
        try:
            if not resolved.is_file():
                raise ToolError(f"There is no file {rel} in the checkout.")
            if resolved.stat().st_size > self._max_bytes:
                raise ToolError(f"{rel} is larger than {self.settings.max_filesize}; not read.")
            data = resolved.read_bytes()
        except OSError:
            raise ToolError(f"{rel} cannot be read.") from None
        text = data.decode("utf-8-sig", errors="replace")
        lines = [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]
        if lines and lines[-1] == "" and text.endswith("\n"):
            lines.pop()
        with self._lock:
            self._lines.put(rel, lines)
        return lines

    def in_private_key_block(self, path: str, line: int) -> bool:
        """Whether 1-based ``line`` of a repo-relative file is part of a private key block
        (see ``redact.private_key_lines``); False for a file that cannot be read."""
        try:
            lines = self.read_lines(path)
        except ToolError:
            return False
        return line in private_key_lines(lines)

    def lexmap(self, path: str) -> LexMap:
        """The cached lexical map of a repo-relative file (one scan per file)."""
        rel, _ = self._check_path(path)
        with self._lock:
            cached = self._lex.get(rel)
        if cached is not None:
            return cached
        text = "\n".join(self.read_lines(rel))
        lex = scan(text, language_for(rel, text), path=rel)
        with self._lock:
            self._lex.put(rel, lex)
        return lex

    def context_of(self, path: str, line: int, col: int) -> str:
        """``"code"``, ``"comment"`` or ``"string"`` at a 1-based line/column of a file.
        Strings in config files (JSON/YAML/TOML/INI) count as code."""
        lex = self.lexmap(path)
        kind = lex.kind_at(line, col)
        if kind == STRING and lex.language in CONFIG_LANGUAGES:
            return CODE
        return kind

    def nearest_package_json(self, path: str) -> str | None:
        """Repo-relative path of the package.json nearest above ``path`` (inside the
        checkout), or None."""
        return self.nearest_file(path, "package.json")

    def nearest_file(self, path: str, name: str) -> str | None:
        """Repo-relative path of the file ``name`` nearest above ``path`` (in its folder or
        one above, inside the checkout), or None."""
        rel, _ = self._check_path(path)
        d = PurePosixPath(rel).parent
        while True:
            cand = (d / name).as_posix() if str(d) != "." else name
            if (self.root / cand).is_file() and self.inside(cand):
                return cand
            if str(d) in (".", ""):
                return None
            d = d.parent

    def package_type(self, path: str) -> str | None:
        """The ``"type"`` field of the nearest package.json (``"module"``, ``"commonjs"``)."""
        pj = self.nearest_package_json(path)
        if pj is None:
            return None
        with self._lock:
            if pj in self._pkg_type:
                return self._pkg_type[pj]
        try:
            data = json.loads((self.root / pj).read_text(encoding="utf-8-sig"))
            value = data.get("type") if isinstance(data, dict) else None
            value = value if isinstance(value, str) else None
        except (OSError, ValueError, RecursionError):
            value = None
        with self._lock:
            self._pkg_type[pj] = value
        return value

    def is_esm(self, path: str) -> bool | None:
        """Whether Node loads this file as an ES module (None for non-JS files)."""
        if PurePosixPath(path).suffix.lower() in (".js", ".jsx", ".ts", ".tsx"):
            return _is_esm(path, self.package_type(path))
        return _is_esm(path, None)

    # -- search_code ---------------------------------------------------------------------

    def _minified(self, m: RgMatch) -> bool:
        return (
            m.line_length > self.settings.minified_line_length
            and PurePosixPath(m.path).suffix.lower() in _MINIFIABLE
        )

    def _best(self, m: RgMatch) -> tuple[int, str]:
        first: tuple[int, str] | None = None
        for start, _ in m.spans or ((0, 0),):
            col = start + 1
            try:
                ctx = self.context_of(m.path, m.line, col)
            except ToolError:
                ctx = CODE
            if ctx == CODE:
                return col, ctx
            first = first or (col, ctx)
        assert first is not None
        return first

    def search_code(
        self,
        pattern: str,
        *,
        regex: bool = False,
        path_glob: str | None = None,
        word: bool = False,
        max_hits: int | None = None,
    ) -> CodeSearchResult:
        """Search the checkout for ``pattern`` (literal unless ``regex``; whole words with
        ``word``), optionally within ``path_glob``. Raises ``ToolError`` on bad input."""
        check_pattern(pattern, regex)
        limit = self.settings.max_hits if max_hits is None else max_hits
        if not isinstance(limit, int) or limit < 1:
            raise ToolError("max_hits must be a positive whole number.")
        limit = min(limit, HARD_MAX_HITS)
        args = self._glob_args((path_glob,) if path_glob else ())
        args += self.scope_args()
        try:
            res = self.rg.search(
                pattern,
                self.root,
                args=args,
                fixed=not regex,
                word=word,
                max_per_file=self.settings.max_hits_per_file,
                limit=limit + 16,
                window=self.settings.hit_width,
                reject=self._minified,
                reject_min_length=self.settings.minified_line_length,
            )
        except ToolError as exc:
            msg = str(exc)
            if regex and "regular expression" in msg:
                raise ToolError(f"{msg} (or search literally with regex=false)") from None
            raise
        hits: list[CodeHit] = []
        dropped = 0
        for m in res.matches:
            if not self.inside(m.path):
                dropped += 1
                continue
            if len(hits) >= limit:
                break
            col, ctx = self._best(m)
            text = trim_line(m.text, col, self.settings.hit_width, m.offset, m.line_length)
            hits.append(CodeHit(m.path, m.line, col, text, ctx))
        total = max(res.total - dropped, len(hits))
        files = max(res.files, len({h.path for h in hits}))
        truncated = total > len(hits)
        return CodeSearchResult(
            pattern=pattern,
            hits=hits,
            total=total,
            truncated=truncated,
            files=files if hits else 0,
            note=self._note(hits, total, files, truncated, res.rejected, path_glob),
        )

    def _note(self, hits, total, files, truncated, rejected, path_glob) -> str:
        where = f" under {path_glob}" if path_glob else ""
        if not hits:
            note = f"no match{where} in the searched files"
        elif truncated:
            note = (
                f"showing {len(hits)} of {total} matching lines in {files} files{where} "
                "(first by path; at most "
                f"{self.settings.max_hits_per_file} per file); narrow the pattern or path_glob"
            )
        else:
            note = f"{total} matching line{'s' * (total != 1)} in {files} file{'s' * (files != 1)}{where}"
        by_ctx = {}
        for h in hits:
            by_ctx[h.context] = by_ctx.get(h.context, 0) + 1
        if hits and set(by_ctx) != {CODE}:
            note += " (" + ", ".join(f"{n} in {k}" for k, n in sorted(by_ctx.items())) + ")"
        if rejected:
            note += f"; skipped {len(rejected)} minified file{'s' * (len(rejected) != 1)}"
        return note
