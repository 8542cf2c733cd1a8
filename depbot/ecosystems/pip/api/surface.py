"""The public names of one loaded release: every path a user can import or reach (griffe).

A surface maps each public dotted path to what it is: ``module``, ``class``, ``function``,
``attribute``, ``alias`` (a re-export whose target was not resolved) or ``lazy`` (served by
a module-level ``__getattr__``). Class members are listed one level down per class (nested
classes are walked), so ``pkg.Client.get`` is on the surface when ``Client`` defines it.
"""

from __future__ import annotations

import griffe

from depbot.ecosystems.pip.api.moved import walk_modules

MAX_NAMES = 200_000


def _kind(member: griffe.Object | griffe.Alias) -> str:
    if member.is_alias:
        try:
            return member.final_target.kind.value
        except (griffe.AliasResolutionError, griffe.CyclicAliasError):
            return "alias"
    return member.kind.value


def _class_members(cls: griffe.Object | griffe.Alias, out: dict[str, str], depth: int) -> None:
    try:
        target = cls.final_target if cls.is_alias else cls
    except (griffe.AliasResolutionError, griffe.CyclicAliasError):
        return
    for name, member in target.members.items():
        if name.startswith("_") and name not in ("__init__", "__call__"):
            continue
        path = f"{cls.path}.{name}"
        out.setdefault(path, _kind(member))
        if depth < 3 and not member.is_alias and member.is_class:
            _class_members(member, out, depth + 1)


def surface(top: griffe.Object | griffe.Alias) -> dict[str, str]:
    """Public dotted path → kind, for the release's top module ``top``."""
    out: dict[str, str] = {top.path: "module"}
    for module in walk_modules(top):
        for name, member in module.members.items():
            if name.startswith("_") and name != "__version__":
                continue
            path = f"{module.path}.{name}"
            kind = _kind(member)
            out.setdefault(path, kind)
            if kind == "class":
                _class_members(member, out, 0)
            if len(out) >= MAX_NAMES:
                return out
    return out


def add_lazy(out: dict[str, str], lazy: dict[str, set[str]]) -> None:
    """Names a module's ``__getattr__`` serves (``lazy_served``), on the surface as ``lazy``."""
    for module, names in lazy.items():
        for name in names:
            out.setdefault(f"{module}.{name}", "lazy")
