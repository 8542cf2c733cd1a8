"""Package names: the one place that says when two spellings name the same package. Pure.

``normalize`` is PEP 503's rule (lower case, each run of ``-``, ``_`` and ``.`` becomes one
``-``); each ecosystem says which rule its names follow (``depbot.ecosystems.canonical_name``:
this one for pip, lower case for npm). It takes the name as given: callers strip it first
when it may carry blanks.
"""

from __future__ import annotations

import re

_SEPARATORS = re.compile(r"[-_.]+")


def normalize(name: str) -> str:
    """PEP 503 normalized name: ``Foo.Bar__baz`` → ``foo-bar-baz``."""
    return _SEPARATORS.sub("-", name).lower()
