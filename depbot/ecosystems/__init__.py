"""The ecosystems depbot reads, one folder each, registered by one line each below.

Stages ask the update's ecosystem (``get(update.ecosystem)``) for what differs between
ecosystems (``base.Ecosystem``: version grammar, names, registry, manifests, released
files, source files) instead of comparing its name with a string. A new ecosystem is a
folder beside ``pip/``, ``npm/`` and ``github_actions/`` and one more ``register`` line; tests register their own.
"""

from __future__ import annotations

from depbot.ecosystems.base import Ecosystem
from depbot.ecosystems.github_actions import GITHUB_ACTIONS
from depbot.ecosystems.npm import NPM
from depbot.ecosystems.pip import PIP
from depbot.ecosystems.table import (
    ECOSYSTEMS,
    NAMES,
    by_dependabot,
    canonical_name,
    find,
    get,
    names,
    normalize_ecosystem,
    register,
)

register(PIP)
register(NPM)
register(GITHUB_ACTIONS)

__all__ = [
    "ECOSYSTEMS",
    "GITHUB_ACTIONS",
    "NAMES",
    "NPM",
    "PIP",
    "Ecosystem",
    "by_dependabot",
    "canonical_name",
    "find",
    "get",
    "names",
    "normalize_ecosystem",
    "register",
]
