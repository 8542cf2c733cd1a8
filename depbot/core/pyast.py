"""``ast.parse`` safe to call from several threads at once.

CPython 3.11 can fail a parse that runs while another thread parses ("SystemError: AST
constructor recursion depth mismatch", python/cpython#106905): a tool call of one conversation
then failed "unexpectedly" under load. Every parse of the package goes through this lock, and
griffe's loading of a release holds it too (``apidiff.python_api.load_release``).
"""

from __future__ import annotations

import ast
import threading

__all__ = ["LOCK", "parse"]

# held by every parse of the package, and around a library that parses on its own (griffe)
LOCK = threading.Lock()


def parse(source: str, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse(source, filename)``, one at a time in the process."""
    with LOCK:
        return ast.parse(source, filename=filename)
