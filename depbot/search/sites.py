"""The records of ``where_imported``: one import site, and the report of a package's sites."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ImportSite:
    """One import statement of the package (merged per statement).

    ``module``: the Python module path (``yaml``, ``urllib3.util.retry``) or the JS
    specifier (``uuid/v4``); ``package``: the import name it matched (pip) or the npm
    package; ``subpath``: what follows it (``util.retry``, ``v4``); ``names``: local name →
    imported name (``"*"`` the module object, ``"default"``, or a member; key ``"*"`` for a
    star import / ``export *``); ``style``: ``import`` | ``from`` | ``dynamic-import``
    (Python), ``require`` | ``import`` | ``dynamic-import`` | ``export-from`` (JS);
    ``esm``: whether the file is an ES module (JS; None for Python); ``conditional``:
    Python: inside ``try``/``except``/``if``/a function; JS: an indented ``require`` or
    ``import()`` (in a block or function) or any dynamic import. ``type_only``: a
    TypeScript ``import type`` (erased at compile time). ``guarded``: Python: inside a
    ``try`` body or an ``except`` handler (an import the code is ready to see fail).
    ``compiled_require``: a TypeScript ``import`` that compiles to ``require`` (``tsemit``).
    """

    path: str
    line: int
    col: int
    text: str
    module: str
    package: str
    subpath: str
    names: dict[str, str] = field(hash=False)
    style: str
    esm: bool | None
    conditional: bool
    type_only: bool = False
    guarded: bool = False
    compiled_require: bool = False  # JS: a TypeScript import the compiler emits as `require`


@dataclass
class ImportReport:
    """Where a package is imported, sorted by (path, line)."""

    ecosystem: str
    package: str
    import_names: list[str]
    sites: list[ImportSite]
    files: list[str]
    note: str
    # source files over max_filesize, never searched, that may use the package (path, size)
    skipped: list[tuple[str, int]] = field(default_factory=list)
