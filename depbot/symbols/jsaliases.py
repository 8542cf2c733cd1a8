"""Module aliases of a TypeScript or JavaScript project: ``compilerOptions.paths`` and
``baseUrl`` of its ``tsconfig.json`` / ``jsconfig.json``.

``import { client } from '@/net/client'`` with ``"paths": {"@/*": ["src/*"]}`` is the
checkout's ``src/net/client.ts``: a value the package made there is followed one module on as
through a relative import. The config that applies to a file is the nearest one in its folder
or above. Comments and trailing commas (which tsconfig allows) are tolerated; ``extends`` is
not followed. Pure: config texts in, candidate paths out; the file reading stays with the
caller.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

from depbot.core import jsonc
from depbot.symbols.jslocal import SUFFIXES

CONFIG_NAMES = ("tsconfig.json", "jsconfig.json")
MAX_TARGETS = 8  # targets of one pattern tried


@dataclass(frozen=True)
class Aliases:
    """One config's aliases: its folder, ``baseUrl`` (relative to it) and ``paths``."""

    folder: str  # repo-relative, "" for the root
    base: str  # the folder `paths` targets are relative to, repo-relative
    paths: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False)
    has_base_url: bool = False


def read(config_path: str, text: str) -> Aliases | None:
    """The aliases of one config file's text, or None when it is not a readable object."""
    try:
        data = jsonc.loads(text)
    except (ValueError, RecursionError):
        return None
    options = data.get("compilerOptions") if isinstance(data, dict) else None
    if not isinstance(options, dict):
        return None
    folder = posixpath.dirname(config_path)
    base_url = options.get("baseUrl")
    base = (
        posixpath.normpath(posixpath.join(folder, base_url))
        if isinstance(base_url, str)
        else folder
    )
    paths: dict[str, tuple[str, ...]] = {}
    raw = options.get("paths")
    for pattern, targets in raw.items() if isinstance(raw, dict) else ():
        if isinstance(pattern, str) and isinstance(targets, list):
            paths[pattern] = tuple(t for t in targets[:MAX_TARGETS] if isinstance(t, str))
    return Aliases(folder if folder != "." else "", base if base != "." else "", paths,
                   isinstance(base_url, str))  # fmt: skip


def nearest(configs: list[Aliases], importer: str) -> Aliases | None:
    """The config of the folder nearest above ``importer`` (its own folder first)."""
    best: Aliases | None = None
    for config in configs:
        inside = not config.folder or importer.startswith(config.folder + "/")
        if inside and (best is None or len(config.folder) > len(best.folder)):
            best = config
    return best


def candidates(config: Aliases, specifier: str) -> list[str]:
    """The checkout paths a bare ``specifier`` may be under ``config`` (a ``paths`` pattern,
    the longest prefix first; else ``baseUrl``), with the module suffixes tried."""
    bases: list[str] = []
    ranked = sorted(config.paths.items(), key=lambda item: -len(item[0].split("*")[0]))
    for pattern, targets in ranked:
        head, star, tail = pattern.partition("*")
        if star and specifier.startswith(head) and specifier.endswith(tail):
            middle = specifier[len(head) : len(specifier) - len(tail)]
            bases += [t.replace("*", middle, 1) for t in targets]
        elif not star and specifier == pattern:
            bases += list(targets)
    if not bases and config.has_base_url:
        bases = [specifier]
    out: list[str] = []
    for target in bases:
        path = posixpath.normpath(posixpath.join(config.base, target))
        if path.startswith("..") or path.startswith("/"):
            continue
        out += [path + suffix for suffix in SUFFIXES]
    return out
