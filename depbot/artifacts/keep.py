"""Which members of an artifact to keep, and where they go. Pure: no I/O.

Every member name is checked first: an absolute path, a drive letter or a ``..`` part makes
the whole artifact refused (``Unsafe``), kept or not. Then the member is mapped to its path
under the unpacked root, or None when the API models do not need it:

- ``pip`` (wheel: as is; sdist: without its top folder, and without ``src/``): ``*.py``,
  ``*.pyi``, ``py.typed``; not ``setup.py``/``conftest.py``/``noxfile.py`` at the top, not
  the top-level ``docs``, ``examples``, ``benchmarks`` folders;
- ``npm`` (without its top folder, ``package/``): ``package.json``, ``*.d.ts``, ``*.d.mts``,
  ``*.d.cts``, ``*.js``, ``*.mjs``, ``*.cjs`` (not ``*.min.*`` bundles); nothing under
  ``node_modules``;
- never anything in a tests folder (``test``, ``tests``, ``__tests__``).
"""

from __future__ import annotations

import re

TEST_DIRS = frozenset({"test", "tests", "__tests__"})
_PIP_TOP_SKIP_FILES = frozenset({"setup.py", "conftest.py", "noxfile.py"})
_PIP_TOP_SKIP_DIRS = frozenset({"docs", "doc", "examples", "benchmarks"})
_PIP_FILE = re.compile(r"^(?:.+\.pyi?|py\.typed)$")
_NPM_FILE = re.compile(r"^(?:package\.json|.+\.d\.[mc]?ts|.+\.[mc]?js)$")
_MINIFIED = re.compile(r"\.min\.[mc]?js$")


class Unsafe(ValueError):
    """A member whose name would land outside the unpacked root."""


def safe_parts(name: str) -> list[str]:
    """The parts of a member name, or ``Unsafe`` for an absolute path or a ``..`` part."""
    text = name.replace("\\", "/")
    if text.startswith("/") or re.match(r"^[A-Za-z]:", text) or "\x00" in text:
        raise Unsafe(f"member {name!r} has an absolute path")
    parts = [p for p in text.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise Unsafe(f"member {name!r} points outside the archive")
    return parts


def target(ecosystem: str, kind: str, name: str) -> str | None:
    """The relative path a member is kept at, or None; raises ``Unsafe``."""
    parts = safe_parts(name)
    if ecosystem == "npm" or kind == "sdist":
        parts = parts[1:]  # package/ of a tarball, <name>-<version>/ of an sdist
    if kind == "sdist" and parts[:1] == ["src"]:
        parts = parts[1:]
    if not parts or any(p in TEST_DIRS for p in parts[:-1]):
        return None
    base = parts[-1]
    if ecosystem == "npm":
        keep = bool(_NPM_FILE.match(base)) and not _MINIFIED.search(base)
        keep = keep and "node_modules" not in parts
    else:
        keep = bool(_PIP_FILE.match(base))
        if kind == "sdist":
            keep = keep and not (len(parts) == 1 and base in _PIP_TOP_SKIP_FILES)
            keep = keep and not (len(parts) > 1 and parts[0] in _PIP_TOP_SKIP_DIRS)
    return "/".join(parts) if keep else None
