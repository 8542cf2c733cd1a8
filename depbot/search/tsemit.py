"""Whether the TypeScript compiler turns a file's ``import`` statements into ``require`` calls.

It does for a ``.cts`` file, and for a ``.ts``/``.tsx`` file whose nearest ``tsconfig.json``
emits CommonJS: ``compilerOptions.module`` is ``commonjs`` (``node16``/``nodenext`` when Node
loads the file as CommonJS), and ``noEmit`` is not set (then a bundler builds the code and
reads ES modules itself). A config's ``extends`` of a file of the checkout
(``../../tsconfig.base.json``, a list of them) gives the options it does not set itself; one
of a package (``@tsconfig/node16``) is not in the checkout and says nothing. A config without
``module``, or one that cannot be read, says nothing. Such a file ``require``s an
ES-module-only package.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import PurePosixPath

from depbot.core import jsonc
from depbot.core.errors import ToolError
from depbot.search.code import CodeSearch

_TS = (".ts", ".tsx")
_NODE_MODES = ("node16", "node18", "node20", "nodenext")


def _options(cs: CodeSearch, config: str, depth: int = 0) -> dict:
    """The compiler options ``config`` sets, over those of the checkout's files it extends
    (later ones in an ``extends`` list win, and the config's own over all)."""
    try:
        data = jsonc.loads("\n".join(cs.read_lines(config)))
    except (ToolError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    merged: dict = {}
    bases = data.get("extends")
    for base in [bases] if isinstance(bases, str) else bases if isinstance(bases, list) else []:
        path = _extended(config, base) if depth < 4 else None
        if path is not None:
            merged.update(_options(cs, path, depth + 1))
    options = data.get("compilerOptions")
    return {**merged, **options} if isinstance(options, dict) else merged


def _extended(config: str, base: object) -> str | None:
    """The checkout path a relative ``extends`` names (``.json`` added when left out)."""
    if not isinstance(base, str) or not base.startswith("."):
        return None
    path = posixpath.normpath(posixpath.join(posixpath.dirname(config), base))
    if path.startswith(".."):
        return None
    return path if path.endswith(".json") else f"{path}.json"


def emits_require(cs: CodeSearch, path: str, esm: bool | None) -> bool:
    """Whether ``path``'s imports compile to ``require`` (``esm``: Node loads it as an ES
    module)."""
    suffix = PurePosixPath(path).suffix.lower()
    if suffix == ".cts":
        return True
    if suffix not in _TS:
        return False
    config = cs.nearest_file(path, "tsconfig.json")
    options = _options(cs, config) if config is not None else {}
    module = str(options.get("module") or "").lower()
    if options.get("noEmit") is True:
        return False
    return module == "commonjs" or (module in _NODE_MODES and esm is False)


def value_used(text: str, names: list[str]) -> bool:
    """Whether one of the local ``names`` an import binds is used as a value (called, its
    member called, constructed, tested with ``instanceof``, passed or assigned): the compiler
    drops an import whose names only appear in types."""
    for name in names:
        if not re.fullmatch(r"[A-Za-z_$][\w$]*", name):
            continue
        n = re.escape(name)
        if re.search(
            rf"(?<![\w$.]){n}(?:\s*\.\s*[\w$]+){{0,3}}\s*\("  # called, or a member called
            rf"|\b(?:new|instanceof)\s+{n}\b"
            rf"|[=(,]\s*{n}\s*[,;)\n]",  # passed or assigned
            text,
        ):
            return True
    return False
