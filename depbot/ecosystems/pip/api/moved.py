"""Objects defined in the old release and re-exported from elsewhere in the new one.

griffe 2.4 stops at such a pair (old object, new alias) without comparing the two: its
``seen_paths`` guard meets the old path twice. Each pair is compared here on its own, in a
throwaway module that holds the two objects without re-parenting them.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain

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
            # an alias to what no release here holds (`sqlalchemy.testing.mock` pointing at
            # `unittest.mock`) has no members to compare
            theirs = counterpart.members
        except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
            continue
        for name, member in module.members.items():
            other = theirs.get(name)
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


def served_pairs(
    old: griffe.Object | griffe.Alias,
    new: griffe.Object | griffe.Alias,
    targets: dict[str, dict[str, str]],
) -> Iterator[tuple[str, griffe.Object, griffe.Object]]:
    """(old path, old object, new object) for names the new release serves lazily from
    elsewhere (``__getattr__`` with ``{"Old": ".sub.New"}``), found in its folder."""
    top = new.path
    for module_path, table in targets.items():
        holder = _counterpart(old, module_path)
        if holder is None:
            continue
        for name, target in table.items():
            before = holder.members.get(name)
            if before is None or before.is_alias or not target.startswith(top + "."):
                continue
            try:
                after = new[target[len(top) + 1 :]]
                after = after.final_target if after.is_alias else after
            except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
                continue
            if after.kind == before.kind:
                yield before.path, before, after  # type: ignore[misc]


def moved_breakages(
    old: griffe.Object | griffe.Alias,
    new: griffe.Object | griffe.Alias,
    served: dict[str, dict[str, str]] | None = None,
) -> Iterator[tuple[str, str, griffe.Breakage]]:
    """(new canonical path, old public path, breakage) for the moved objects' changes,
    moved in the open (a re-export) or served from their new place by ``__getattr__``."""
    pairs = chain(moved_pairs(old, new), served_pairs(old, new, served or {}))
    for path, before, after in pairs:
        holder_old, holder_new = griffe.Module("_moved"), griffe.Module("_moved")
        holder_old.members[before.name] = before
        holder_new.members[before.name] = after
        for breakage in griffe.find_breaking_changes(holder_old, holder_new):
            yield after.path, path, breakage


def _counterpart(new: griffe.Object | griffe.Alias, module_path: str) -> griffe.Object | None:
    relative = module_path.split(".", 1)[1] if "." in module_path else ""
    try:
        found = new[relative] if relative else new
    except (KeyError, griffe.AliasResolutionError):
        return None
    return None if found.is_alias else found  # type: ignore[return-value]


def vanished_names(
    old: griffe.Object | griffe.Alias,
    new: griffe.Object | griffe.Alias,
    old_lazy: dict[str, set[str]],
    new_lazy: dict[str, set[str]],
) -> Iterator[tuple[str, str]]:
    """(path, how it was served) of names importable from an old module but not the new one.

    griffe counts a name a module imports (``from other import Name``) as private unless
    ``__all__`` lists it, and never sees names a module-level ``__getattr__`` serves; both
    are importable all the same (``from pkg import Name``). A name counts gone when the
    module is still there but neither defines, imports nor serves it.
    """
    count = 0
    for module in walk_modules(old):
        counterpart = _counterpart(new, module.path)
        if counterpart is None or any(p.startswith("_") for p in module.path.split(".")):
            continue  # a module gone whole is griffe's removal
        kept = set(counterpart.members) | new_lazy.get(counterpart.path, set())
        names = {
            name: "re-export"
            for name, member in module.members.items()
            if member.is_alias and not member.is_public and member.target_path != name
        }
        names.update((n, "served by __getattr__") for n in old_lazy.get(module.path, set()))
        for name, how in sorted(names.items()):
            if name.startswith("_") or name in kept:
                continue
            if how != "re-export" and name in module.members:
                continue  # defined statically too: griffe compares it
            yield f"{module.path}.{name}", how
            count += 1
            if count >= MAX_PAIRS:
                return
