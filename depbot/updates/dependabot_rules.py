"""The rules of a dependabot.yml ``updates[]`` entry, parsed and checked. Pure: no I/O.

``parse_entry`` turns one entry into an ``Entry`` (its ecosystem, directory patterns,
``ignore`` and ``allow`` rules); ``updates.dependabot_config`` applies them. Problems are
``ConfigError`` lines naming the file and key path (``core.config_file.problem``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from depbot import ecosystems
from depbot.core.config_file import check_keys, join, problem, type_name
from depbot.ecosystems import canonical_name

UPDATE_TYPES = {
    "version-update:semver-major": "major",
    "version-update:semver-minor": "minor",
    "version-update:semver-patch": "patch",
}
# dependency-type -> the depbot dependency kinds (direct | dev | indirect) it allows
DEPENDENCY_TYPES = {
    "direct": ("direct", "dev"),
    "indirect": ("indirect",),
    "all": ("direct", "dev", "indirect"),
    "production": ("direct",),
    "development": ("dev",),
}
ENTRY_KEYS = ("package-ecosystem", "directory", "directories", "ignore", "allow")
IGNORE_KEYS = ("dependency-name", "versions", "update-types")
ALLOW_KEYS = ("dependency-name", "dependency-type")


def _name_pattern(ecosystem: str, pattern: str) -> re.Pattern[str]:
    parts = [re.escape(canonical_name(ecosystem, p)) for p in pattern.strip().split("*")]
    return re.compile(".*".join(parts), re.IGNORECASE)


def _dir_pattern(directory: str) -> re.Pattern[str]:
    """A Dependabot directory (``/``, ``/backend``, ``/lib-*``, ``/**``) as a folder regex."""
    path = directory.strip().strip("/")
    out, i = "", 0
    while i < len(path):
        if path.startswith("/**", i) and i + 3 == len(path):
            out += "(/.*)?"  # "/apps/**" is apps and everything under it
            i += 3
        elif path.startswith("**", i):
            out += ".*"
            i += 2
        elif path[i] == "*":
            out += "[^/]*"
            i += 1
        elif path[i] == "?":
            out += "[^/]"
            i += 1
        else:
            out += re.escape(path[i])
            i += 1
    return re.compile(out)


@dataclass(frozen=True)
class Ignore:
    name: re.Pattern[str]
    versions: tuple[str, ...] = ()
    update_types: tuple[str, ...] = ()  # major | minor | patch

    @property
    def whole(self) -> bool:
        """No versions, no update types: every update of the dependency is ignored."""
        return not self.versions and not self.update_types


@dataclass(frozen=True)
class Allow:
    name: re.Pattern[str] | None = None
    kinds: tuple[str, ...] | None = None  # None: any kind


@dataclass(frozen=True)
class Entry:
    ecosystem: str  # pip | npm
    directories: tuple[re.Pattern[str], ...]
    ignore: tuple[Ignore, ...] = ()
    allow: tuple[Allow, ...] = ()


def _text(label: str, where: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise problem(label, where, f"must be a non-empty text, got {type_name(value)}")
    return value.strip()


def _texts(label: str, where: str, value: object) -> list[str]:
    """A non-empty list of texts (one text is a list of one); ``None`` (not given): ``[]``."""
    if value is None:
        return []
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items:
        raise problem(label, where, f"must be a non-empty list of texts, got {type_name(value)}")
    return [_text(label, join(where, i), item) for i, item in enumerate(items)]


def _choice(label: str, where: str, value: object, choices: dict[str, Any]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise problem(label, where, f"{value!r} is not one of {', '.join(choices)}")
    return value


def in_versions(ecosystem: str, version: str, ranges: tuple[str, ...]) -> bool:
    """Whether ``version`` is in one of ``ranges``, in the ecosystem's range syntax (PEP 440
    specifiers, npm ranges)."""
    return ecosystems.get(ecosystem).in_ranges(version, ranges)


def _ignore(label: str, where: str, eco: str, data: object) -> Ignore:
    item = check_keys(label, where, data, IGNORE_KEYS)
    if "dependency-name" not in item:
        raise problem(label, where, "needs a 'dependency-name' (use '*' for every dependency)")
    name = _text(label, join(where, "dependency-name"), item["dependency-name"])
    versions = tuple(_texts(label, join(where, "versions"), item.get("versions")))
    for i, text in enumerate(versions):
        if not ecosystems.get(eco).valid_range(text):
            syntax = ecosystems.get(eco).range_syntax
            raise problem(label, join(join(where, "versions"), i), f"{text!r} is not {syntax}")
    at = join(where, "update-types")
    kinds = tuple(
        UPDATE_TYPES[_choice(label, join(at, i), text, UPDATE_TYPES)]
        for i, text in enumerate(_texts(label, at, item.get("update-types")))
    )
    return Ignore(_name_pattern(eco, name), versions, kinds)


def _allow(label: str, where: str, eco: str, data: object) -> Allow:
    item = check_keys(label, where, data, ALLOW_KEYS)
    if not item:
        raise problem(label, where, "needs a 'dependency-name' or a 'dependency-type'")
    name = kind = None
    if "dependency-name" in item:
        name = _text(label, join(where, "dependency-name"), item["dependency-name"])
    if "dependency-type" in item:
        at = join(where, "dependency-type")
        kind = _choice(label, at, item["dependency-type"], DEPENDENCY_TYPES)
    return Allow(
        _name_pattern(eco, name) if name else None, DEPENDENCY_TYPES[kind] if kind else None
    )


def _rules(label: str, where: str, eco: str, value: object, parse: Any) -> tuple[Any, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise problem(label, where, f"must be a list of entries, got {type_name(value)}")
    return tuple(parse(label, join(where, i), eco, item) for i, item in enumerate(value))


def parse_entry(label: str, where: str, data: object, *, strict: bool) -> Entry | str:
    """One ``updates[]`` entry; the ecosystem's name when depbot does not read it."""
    entry = check_keys(label, where, data, ENTRY_KEYS, strict=strict)
    eco_raw = entry.get("package-ecosystem")
    eco_raw = _text(label, join(where, "package-ecosystem"), eco_raw)
    configured = ecosystems.by_dependabot(eco_raw.lower())
    if configured is None and strict:
        known = dependabot_names(" or ")
        raise problem(label, join(where, "package-ecosystem"), f"must be {known}, got {eco_raw!r}")
    if configured is None:
        return eco_raw
    eco = configured.name
    if "directory" in entry and "directories" in entry:
        raise problem(label, where, "give 'directory' or 'directories', not both")
    if "directory" in entry:
        if not isinstance(entry["directory"], str):
            at = join(where, "directory")
            raise problem(label, at, "must be one text (use 'directories' for a list)")
        dirs = [_text(label, join(where, "directory"), entry["directory"])]
    elif "directories" in entry:
        dirs = _texts(label, join(where, "directories"), entry["directories"])
    elif strict:
        dirs = ["/**"]  # depbot.yml: an entry without a directory covers the whole checkout
    else:
        raise problem(label, where, "needs a 'directory' or 'directories'")
    return Entry(
        eco,
        tuple(_dir_pattern(d) for d in dirs),
        _rules(label, join(where, "ignore"), eco, entry.get("ignore"), _ignore),
        _rules(label, join(where, "allow"), eco, entry.get("allow"), _allow),
    )


def dependabot_names(last: str) -> str:
    """The ``package-ecosystem`` values depbot reads, one per ecosystem, as a list in words
    ("pip, npm or github-actions"; ``last``: the word before the last one, with spaces)."""
    names = [e.dependabot[0] for e in ecosystems.ECOSYSTEMS.values() if e.dependabot]
    return last.join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)
