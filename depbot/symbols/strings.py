"""A name inside a string literal that is a dotted import path: ``"pkg.mod.func"``.

Django settings (``"pkg.storage.Backend"``), ``mock.patch("pkg.mod.func")`` targets and entry
points (``"pkg.mod:func"``) reach a package's name without importing it: a search that sets
aside every match in a string misses them.
"""

from __future__ import annotations

import re

_QUOTED = re.compile(r"""(['"])([A-Za-z_][\w]*(?:[.:][A-Za-z_][\w]*)+)\1""")


def dotted_string_at(line: str, col: int) -> str | None:
    """The dotted path quoted around the 1-based column ``col`` of ``line``, if any."""
    for match in _QUOTED.finditer(line):
        if match.start(2) < col <= match.end(2):
            return match.group(2)
    return None


def names_path(target: str, roots: tuple[str, ...], leaf: str) -> bool:
    """Whether ``target`` is a path into one of the import ``roots`` that ends at ``leaf``."""
    parts = target.replace(":", ".").split(".")
    return parts[0] in roots and parts[-1] == leaf and len(parts) > 1
