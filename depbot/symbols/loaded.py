"""Whether anything in the checkout loads a JavaScript or TypeScript file. A use of a break in
a file whose only loader is commented out (``// import logger from './middleware/logger'``),
or is itself such a file, may never run: it is no use a draft can
stand on. Nor is it a reason to call an update safe: such a file may be run by hand or by a
tool this reading does not know. So its hits become weak ("may be a use"), and the update
``unknown`` when they are all it has.

A file is unloaded when the only files that name it name it in comments, or are unloaded
themselves. It counts as loaded when another file names it outside comments (as a path:
``./logger``, ``'logger.js'``, a script's ``node server.js``; a file that is not code, such as
package.json, a Dockerfile or an HTML page, counts wherever it names it), when no file names it
at all (a command, a tool or a page this reading does not know may run it, and a checkout may
be partial), when a tool loads it by a name or folder of convention (``index``,
``*.config.js``, a test, a page), or when a file of its folder or above reads folders whole
(``readdirSync``, ``require.context``, ``import.meta.glob``).

A file no file names is left out, though, when it loads no file of the checkout itself while
another file of its folder is loaded by its path (``require('./loaders/postcss-prod')``
beside an unnamed ``postcss-dev.js``): the folder's files are loaded by path, this one by none.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from depbot.core.errors import ToolError
from depbot.search.import_sites import ImportSite
from depbot.symbols.callshape import WEAK_USE
from depbot.symbols.facts import SymbolHit

if TYPE_CHECKING:
    from depbot.search.code import CodeSearch

__all__ = ["Loaded", "unloaded_use", "weakened"]

_JS = re.compile(r"\.(?:[cm]?[jt]sx?|vue|svelte)$", re.I)
# names and folders tools load by convention, whatever names them
_ENTRY_NAMES = frozenset(
    "index main server app cli start setup worker sw service-worker serviceworker "
    "gulpfile gruntfile jakefile register preload background content popup "
    "middleware instrumentation entry bootstrap".split()
)
_ENTRY_DIRS = frozenset(
    "pages app routes api bin scripts script test tests __tests__ __mocks__ spec specs e2e "
    "cypress playwright stories .storybook public static functions handlers lambdas lambda "
    "migrations seeders seeds commands plugins layouts config configs .github tools".split()
)
_ENTRY_FILE = re.compile(
    r"\.(?:config|conf|test|spec|stories|story|setup|e2e|d)\.[cm]?[jt]sx?$|^\.[\w.-]*rc\.[cm]?js$"
    r"|(?:^|[.-])(?:config|conf|rc)\.[cm]?[jt]s$",
    re.I,
)
# a file that loads a file of the checkout by a relative path
_LOADS_LOCAL = re.compile(r"""(?:\brequire\s*\(|\bfrom|\bimport\s*\(?)\s*['"]\.{1,2}/""")
# code that loads the files of a folder by listing it
_READS_FOLDERS = r"readdirSync|readdir\(|require\.context|import\.meta\.glob|globSync|\bglob\("
MAX_DEPTH = 3


class Loaded:
    """File-level reach over one checkout, cached per file."""

    def __init__(self, code: CodeSearch) -> None:
        self.code = code
        self._why: dict[str, str | None] = {}
        self._readers: list[str] | None = None
        self._listed: list[str] | None = None
        self._by_path: dict[str, bool] = {}  # a file's siblings are asked of each hit beside it

    def unloaded(self, path: str) -> str | None:
        """Why nothing in the checkout may load ``path``; None when something may (or when
        ``path`` is no JavaScript or TypeScript file)."""
        return self._unloaded(path, 0, frozenset())

    def _unloaded(self, path: str, depth: int, seen: frozenset[str]) -> str | None:
        if path in self._why:
            return self._why[path]
        if not _JS.search(path) or self._folder_read(path):
            return None
        if _by_convention(path):
            # a config folder's module nothing names, beside ones loaded by path: left out
            left = _config_module(path) and not self._mentions(path, _stem(path))[0]
            self._why[path] = (
                "no file names it, though files beside it in its config folder are loaded by path"
                if left and self._left_out(path)
                else None
            )
            return self._why[path]
        code, commented = self._mentions(path, _stem(path))
        code = [m for m in code if m not in seen]
        why: str | None = None
        if not code and commented:
            why = f"only comments name it ({', '.join(commented[:3])})"
        elif code and depth < MAX_DEPTH:
            if all(self._unloaded(m, depth + 1, seen | {path}) for m in code):
                one = len(code) == 1
                why = (f"only {', '.join(code[:3])} name{'s' if one else ''} it, and nothing "
                       f"loads {'it' if one else 'them'}")  # fmt: skip
        elif not code and not commented and self._left_out(path):
            why = "no file names it, though files beside it are loaded by their paths"
        # named nowhere: a command, a tool or a page this reading does not know may run it
        self._why[path] = why
        return why

    def _mentions(self, path: str, stem: str) -> tuple[list[str], list[str]]:
        """The other files that name ``stem`` (as a path or word) outside comments, and those
        that name it only in comments (``file:line``)."""
        word = re.escape(stem)
        found = self.code.files_containing(rf"(?:^|[^\w.$-]){word}(?:$|[^\w$-])")
        pattern = re.compile(rf"(?<![\w.$-]){word}(?![\w$-])")
        load = re.compile(rf"(?:\bimport\b|\brequire\s*\().*[/'\"]{word}(?:\.[\w]+)?['\"]")
        code, commented = [], []
        for other in found:
            if other == path:
                continue
            if not _JS.search(other):
                code.append(other)  # package.json, a Dockerfile, an HTML page: it may load it
                continue
            lines = self.code.read_lines(other)
            places = [
                (number, m.start() + 1)
                for number, line in enumerate(lines, 1)
                for m in pattern.finditer(line)
            ]
            if any(self.code.context_of(other, n, c) != "comment" for n, c in places):
                code.append(other)
                continue
            loads = [n for n, _ in places if load.search(lines[n - 1])]
            if loads:  # `// import logger from './logger'`, not "settings" as a word
                commented.append(f"{other}:{loads[0]}")
        return code, commented

    def _left_out(self, path: str) -> bool:
        """Whether ``path``, which no file names, loads no file of the checkout while a file
        of its folder is loaded by its path."""
        try:
            text = "\n".join(self.code.read_lines(path))
        except ToolError:
            return False
        if _LOADS_LOCAL.search(text):
            return False  # it loads the checkout's files: an entry something runs, most likely
        if self._listed is None:
            self._listed = [f for f in self.code.files() if _JS.search(f)]
        parent = PurePosixPath(path).parent
        beside = [f for f in self._listed if f != path and PurePosixPath(f).parent == parent]
        return any(self._loaded_by_path(f) for f in beside[:20])

    def _loaded_by_path(self, path: str) -> bool:
        """Whether another file loads ``path`` by a relative path (``require('./x')``)."""
        if path not in self._by_path:
            self._by_path[path] = self._loads_by_path(path)
        return self._by_path[path]

    def _loads_by_path(self, path: str) -> bool:
        stem = re.escape(_stem(path))
        load = re.compile(
            rf"(?:\bimport\b|\brequire\s*\().*['\"]\.{{1,2}}/(?:[^'\"]*/)?{stem}(?:\.\w+)?['\"]"
        )
        for other in self.code.files_containing(rf"['\"]\.{{1,2}}/(?:[^'\"]*/)?{stem}"):
            if other == path or not _JS.search(other):
                continue
            try:
                lines = self.code.read_lines(other)
            except ToolError:
                continue
            if any(load.search(line) for line in lines):
                return True
        return False

    def _folder_read(self, path: str) -> bool:
        """Whether a file in the folder of ``path`` or above lists folders to load them."""
        if self._readers is None:
            self._readers = [f for f in self.code.files_containing(_READS_FOLDERS) if _JS.search(f)]
        parent = PurePosixPath(path).parent
        return any(parent.is_relative_to(PurePosixPath(r).parent) for r in self._readers)


def _stem(path: str) -> str:
    p = PurePosixPath(path)
    return p.name.split(".", 1)[0] or p.name


def _config_module(path: str) -> bool:
    """Whether ``path`` counts as loaded by convention only for sitting in a ``config``
    folder (its name, its file pattern, and its other folders load nothing by themselves)."""
    p = PurePosixPath(path)
    dirs = {d.lower() for d in p.parts[:-1]}
    return (
        bool(dirs & {"config", "configs"})
        and not (_ENTRY_DIRS - {"config", "configs"}) & dirs
        and _stem(path).lower() not in _ENTRY_NAMES
        and not _ENTRY_FILE.search(p.name)
    )


def _by_convention(path: str) -> bool:
    p = PurePosixPath(path)
    return (
        _stem(path).lower() in _ENTRY_NAMES
        or bool(_ENTRY_DIRS & {d.lower() for d in p.parts[:-1]})
        or bool(_ENTRY_FILE.search(p.name))
        or len(p.parts) == 1  # a file at the root: run by a command or a tool
    )


def weakened(hits: list, unloaded: Callable[[str], str | None]) -> tuple[list, int]:
    """``hits`` with each strong use outside comments that sits in a file nothing loads
    (``unloaded`` says why) made weak (an import site counts as a strong use in code), and
    how many were."""
    out, n = [], 0
    for h in hits:
        strong = not isinstance(h, SymbolHit) or (h.evidence == "strong" and h.context != "comment")
        why = unloaded(h.path) if strong else None
        if why:
            h, n = unloaded_use(h, why), n + 1
        out.append(h)
    return out, n


def unloaded_use(hit: SymbolHit | ImportSite, why: str) -> SymbolHit:
    """A use in a file nothing loads (``why``), as a weak hit: it may never run."""
    said = hit.why if isinstance(hit, SymbolHit) else f"{hit.style} of {hit.module}"
    context = hit.context if isinstance(hit, SymbolHit) else "code"  # an import site is code
    return SymbolHit(hit.path, hit.line, hit.col, hit.text, context, "weak",
                     f"{WEAK_USE}: {said}; in {hit.path}, which nothing in this checkout "
                     f"loads ({why})")  # fmt: skip
