"""The registration table of ecosystems, and the lookups every stage uses. No I/O.

``depbot.ecosystems`` registers pip and npm here; an ecosystem's own modules read the table
(``table.get``) at call time, so they never import the package that registers them.
"""

from __future__ import annotations

from depbot.ecosystems.base import Ecosystem
from depbot.records.versions import register_grammar

_BY_NAME: dict[str, Ecosystem] = {}  # every name and alias, lower case → its ecosystem
ECOSYSTEMS: dict[str, Ecosystem] = {}  # depbot's own name → the ecosystem, in registration order
# their names, one list kept as ecosystems register: tool schemas hold it as their ``enum``
NAMES: list[str] = []


def register(ecosystem: Ecosystem) -> Ecosystem:
    """Make ``ecosystem`` known by its name and aliases (and its versions readable)."""
    names = (ecosystem.name, *ecosystem.aliases)
    ECOSYSTEMS[ecosystem.name] = ecosystem
    if ecosystem.name not in NAMES:
        NAMES.append(ecosystem.name)
    for name in names:
        _BY_NAME[name.lower()] = ecosystem
    register_grammar(names, ecosystem.parse_version)
    return ecosystem


def find(name: str) -> Ecosystem | None:
    """The ecosystem ``name`` (or one of its aliases, any case) names, or None."""
    return _BY_NAME.get((name or "").strip().lower())


def get(name: str) -> Ecosystem:
    """The ecosystem ``name`` names; ``ValueError`` for an unknown one."""
    eco = find(name)
    if eco is None:
        raise ValueError(
            f"unknown ecosystem {name!r} (supported: {', '.join(ECOSYSTEMS)}, "
            "and Dependabot's aliases)"
        )
    return eco


def normalize_ecosystem(name: str) -> str:
    """Map an ecosystem name (``npm_and_yarn``, ``PyPI``, ...) to depbot's (``npm``, ``pip``)."""
    return get(name).name


def names() -> tuple[str, ...]:
    """depbot's names of the registered ecosystems."""
    return tuple(ECOSYSTEMS)


def canonical_name(ecosystem: str, name: str) -> str:
    """The name two spellings of one package share (PEP 503 for pip, lower case for npm)."""
    return get(ecosystem).canonical_name(name)


def by_dependabot(value: str) -> Ecosystem | None:
    """The ecosystem a dependabot.yml ``package-ecosystem`` value configures, or None."""
    return next((e for e in ECOSYSTEMS.values() if value in e.dependabot), None)
