"""Package names: the one place that says when two spellings name the same package. Pure.

``normalize`` is PEP 503's rule (lower case, each run of ``-``, ``_`` and ``.`` becomes one
``-``); ``canonical_name`` applies it to pip names and only lower-cases npm names. Both take
the name as given: callers strip it first when it may carry blanks.
"""

from __future__ import annotations

import re

_SEPARATORS = re.compile(r"[-_.]+")


def normalize(name: str) -> str:
    """PEP 503 normalized name: ``Foo.Bar__baz`` → ``foo-bar-baz``."""
    return _SEPARATORS.sub("-", name).lower()


def canonical_name(ecosystem: str, name: str) -> str:
    """The name two spellings of one package share (PEP 503 for pip, lower case for npm)."""
    if ecosystem == "pip":
        return normalize(name)
    return name.lower()
