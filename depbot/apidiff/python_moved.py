"""Objects defined in the old release and re-exported from elsewhere in the new one.

griffe 2.4 stops at such a pair (old object, new alias) without comparing the two: its
``seen_paths`` guard meets the old path twice. Each pair is compared here on its own, in a
throwaway module that holds the two objects without re-parenting them.
"""

from __future__ import annotations

from collections.abc import Iterator

import griffe

MAX_PAIRS = 20_000


def walk_modules(top: griffe.Object | griffe.Alias) -> Iterator[griffe.Object]:
    """Every module inside ``top`` (aliases, i.e. re-exports, are not walked into)."""
    stack = [top]
    while stack:
        current = stack.pop()
        if current.is_alias or not current.is_module:
            continue
        yield current  # type: ignore[misc]
        stack.extend(m for m in current.members.values() if not m.is_alias and m.is_module)


def moved_pairs(
    old: griffe.Object | griffe.Alias, new: griffe.Object | griffe.Alias
) -> Iterator[tuple[str, griffe.Object, griffe.Object]]:
    """(old path, old object, new object it now resolves to) for each moved public object."""
    count = 0
    for module in walk_modules(old):
        relative = module.path.split(".", 1)[1] if "." in module.path else ""
        try:
            counterpart = new[relative] if relative else new
        except (KeyError, griffe.AliasResolutionError):
            continue
        for name, member in module.members.items():
            other = counterpart.members.get(name)
            if member.is_alias or member.is_module or other is None or not other.is_alias:
                continue
            if name.startswith("_") or not member.is_public:
                continue
            try:
                target = other.final_target
            except (griffe.AliasResolutionError, griffe.CyclicAliasError):
                continue
            if target.kind == member.kind:
                yield member.path, member, target  # type: ignore[misc]
                count += 1
                if count >= MAX_PAIRS:
                    return


def moved_breakages(
    old: griffe.Object | griffe.Alias, new: griffe.Object | griffe.Alias
) -> Iterator[tuple[str, str, griffe.Breakage]]:
    """(new canonical path, old public path, breakage) for the moved objects' changes."""
    for path, before, after in moved_pairs(old, new):
        holder_old, holder_new = griffe.Module("_moved"), griffe.Module("_moved")
        holder_old.members[before.name] = before
        holder_new.members[before.name] = after
        for breakage in griffe.find_breaking_changes(holder_old, holder_new):
            yield after.path, path, breakage
