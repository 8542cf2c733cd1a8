"""The API of two releases of a Python package and its breaking changes (griffe, static).

Each release is loaded from its unpacked folder without running it (``allow_inspection=False``;
``.pyi`` stubs are merged with the sources) and ``griffe.find_breaking_changes`` compares them.
Every breakage becomes an ``ApiChange`` at the path users import the object from: an object
moved to a private module but re-exported at its old path is followed (griffe resolves the
alias), and its changes are named at the public path.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from itertools import chain
from pathlib import Path
from typing import Any

import griffe

from depbot.core import pyast
from depbot.ecosystems.pip.api.deprecations import scan_files
from depbot.ecosystems.pip.api.lazy import lazy_served, lazy_stubs, lazy_targets
from depbot.ecosystems.pip.api.moved import moved_breakages, vanished_names, walk_modules
from depbot.ecosystems.pip.api.surface import add_lazy, surface
from depbot.records.api import ApiChange, Deprecation

# griffe logs what it cannot resolve in a release (an alias to a Windows-only module) as
# ERROR on stderr; the diff's own notes say what it could not compare
logging.getLogger("griffe").setLevel(logging.CRITICAL)

SKIP_DIRS = frozenset({"tests", "test", "testing", "__pycache__", "docs", "examples"})
MAX_FILES = 5_000  # a release with more files is cut, with a note
MAX_CHANGES = 20_000
# a module over this is generated data, not API: loading it costs seconds per megabyte
MAX_MODULE_BYTES = 1_000_000

_KINDS = {
    "OBJECT_REMOVED": "removed",
    "OBJECT_CHANGED_KIND": "kind_changed",
    "PARAMETER_REMOVED": "param_removed",
    "PARAMETER_MOVED": "param_moved",
    "PARAMETER_CHANGED_REQUIRED": "param_now_required",
    "PARAMETER_ADDED_REQUIRED": "param_added_required",
    "PARAMETER_CHANGED_KIND": "param_kind_changed",
    "PARAMETER_CHANGED_DEFAULT": "default_changed",
    "CLASS_REMOVED_BASE": "base_removed",
    "RETURN_CHANGED_TYPE": "return_changed",
}


def _skipped(name: str) -> bool:
    return name in SKIP_DIRS or name.endswith((".dist-info", ".egg-info")) or name.startswith(".")


def top_modules(root: Path) -> list[str]:
    """The top-level import packages and modules of an unpacked release (public ones)."""
    names: set[str] = set()
    for entry in sorted(root.iterdir()) if root.is_dir() else []:
        stem = entry.name if entry.is_dir() else entry.name.rsplit(".", 1)[0]
        if _skipped(entry.name) or stem.startswith("_") or not stem.isidentifier():
            continue
        if entry.is_dir() and any((entry / f"__init__.{ext}").is_file() for ext in ("py", "pyi")):
            names.add(stem)
        elif (
            entry.is_file()
            and entry.suffix in (".py", ".pyi")
            and stem not in ("setup", "conftest")
        ):
            names.add(stem)
    return sorted(names)


def python_files(root: Path, tops: Iterable[str]) -> list[Path]:
    files: list[Path] = []
    for top in tops:
        folder = root / top
        if not folder.is_dir():
            files += [f for f in (root / f"{top}.py", root / f"{top}.pyi") if f.is_file()]
            continue
        for path in sorted(folder.rglob("*.py*")):
            rel = path.relative_to(root).parts
            if path.suffix in (".py", ".pyi") and not any(_skipped(part) for part in rel[:-1]):
                files.append(path)
    return files


def load_release(root: Path, name: str, notes: list[str]) -> griffe.Object | griffe.Alias | None:
    """One top module of a release, loaded statically with its own collections."""
    try:
        with pyast.LOCK:  # griffe parses with ast itself: one parse at a time (core/pyast.py)
            return griffe.load(
                name,
                search_paths=[root],
                allow_inspection=False,
                modules_collection=griffe.ModulesCollection(),
                lines_collection=griffe.LinesCollection(),
                store_source=False,
                resolve_aliases=True,
                resolve_external=False,
            )
    except Exception as error:  # noqa: BLE001 - one bad release must not stop the others
        notes.append(f"{name} in {root.name}: could not be loaded ({type(error).__name__})")
        return None


def _private(path: str) -> bool:
    return any(p.startswith("_") and not p.endswith("__") for p in path.split("."))


def public_paths(module: griffe.Object | griffe.Alias) -> dict[str, str]:
    """Canonical path under a private module → the shortest public path that re-exports it."""
    paths: dict[str, str] = {}
    for current in walk_modules(module):
        if _private(current.path):
            continue
        for name, member in current.members.items():
            if not member.is_alias or name.startswith("_"):
                continue
            target = member.target_path
            if _private(target) and (target not in paths or len(member.path) < len(paths[target])):
                paths[target] = member.path
    return paths


def _user_path(path: str, public: dict[str, str]) -> str:
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        prefix = ".".join(parts[:cut])
        if prefix in public:
            return ".".join([public[prefix], *parts[cut:]])
    return path


def _where(obj: griffe.Object | griffe.Alias, roots: tuple[Path, ...]) -> str:
    try:
        holder = obj.parent if obj.is_alias and obj.parent is not None else obj
        file = holder.filepath
    except Exception:  # noqa: BLE001 - a module without a file (namespace) has no place
        return ""
    file = file[0] if isinstance(file, list) else file
    for root in roots:
        if file.is_relative_to(root):
            return file.relative_to(root).as_posix()
    return file.name


def _param_name(breakage: griffe.Breakage) -> str:
    for value in (breakage.old_value, breakage.new_value):
        name = getattr(value, "name", None)
        if isinstance(name, str):
            return name
    return ""


def _detail(kind: str, breakage: griffe.Breakage) -> str:
    old, new = breakage.old_value, breakage.new_value
    if kind == "default_changed":
        return f"{_param_name(breakage)}: {old.default} → {new.default}"
    if kind == "param_kind_changed":
        return f"{_param_name(breakage)}: {old.kind.value} → {new.kind.value}"
    if kind == "param_moved":
        return f"{_param_name(breakage)}: {breakage.details}"
    if kind.startswith("param_"):
        return _param_name(breakage)
    if kind == "kind_changed":
        return f"{getattr(old, 'value', old)} → {getattr(new, 'value', new)}"
    if kind == "base_removed":
        kept = {str(base) for base in new or []}
        return ", ".join(str(base) for base in old or [] if str(base) not in kept)
    if kind == "return_changed":
        return f"{old} → {new}"
    return ""


def to_change(
    breakage: griffe.Breakage,
    public: dict[str, str],
    roots: tuple[Path, ...],
    old: griffe.Object | griffe.Alias | None = None,
) -> ApiChange | None:
    """One griffe breakage as a depbot record; None for a private parameter's change."""
    kind = _KINDS.get(breakage.kind.name, breakage.kind.name.lower())
    detail = _detail(kind, breakage)
    if kind.startswith("param_") or kind == "default_changed":
        if _param_name(breakage).startswith("_"):
            return None
    if kind == "base_removed" and detail in ("", "object"):
        return None  # `class C(object)` → `class C`: no change
    path = _user_path(breakage.obj.path, public)
    position = _position(breakage, old, path) if kind == "param_kind_changed" else -1
    return ApiChange(kind, path, detail, _where(breakage.obj, roots), position)


def _position(
    breakage: griffe.Breakage, old: griffe.Object | griffe.Alias | None, path: str
) -> int:
    """Where the changed parameter sat among the arguments a call of the old release
    passes (``self`` not counted); -1 when the old function is not found."""
    if old is None or not path.startswith(old.path + "."):
        return -1
    try:
        function = old[path[len(old.path) + 1 :]]
        function = function.final_target if function.is_alias else function
        names = [p.name for p in function.parameters]
    except (KeyError, AttributeError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return -1
    parent = function.parent
    if names and names[0] in ("self", "cls") and parent is not None and parent.is_class:
        names = names[1:]
    name = _param_name(breakage)
    return names.index(name) if name in names else -1


def merge_renames(changes: list[ApiChange]) -> list[ApiChange]:
    """A function that lost one parameter and gained one required one: a rename."""
    by_path: dict[str, list[ApiChange]] = {}
    for change in changes:
        by_path.setdefault(change.path, []).append(change)
    merged: list[ApiChange] = []
    for path, group in by_path.items():
        removed = [c for c in group if c.kind == "param_removed"]
        added = [c for c in group if c.kind == "param_added_required"]
        if len(removed) == 1 and len(added) == 1:
            rename = ApiChange("param_renamed", path, f"{removed[0].detail} → {added[0].detail}")
            group = [c for c in group if c not in (removed[0], added[0])]
            group.append(ApiChange(rename.kind, path, rename.detail, removed[0].where))
        merged.extend(group)
    return merged


def _lazy(change: ApiChange, lazy: dict[str, set[str]]) -> bool:
    module, _, name = change.path.rpartition(".")
    return change.kind == "removed" and name in lazy.get(module, set())


def _served_lazily(root: Path, files: list[Path], lazy: dict[str, set[str]]) -> None:
    """Add the names module-level tables serve to ``lazy``; drop those ``__getattr__`` only
    raises for (a removal stub)."""
    for module, names in lazy_served(root, files).items():
        lazy.setdefault(module, set()).update(names)
    for module, names in lazy_stubs(root, files).items():
        lazy[module] = lazy.get(module, set()) - names


def python_changes(
    old_root: Path,
    new_root: Path,
    notes: list[str],
    stats: dict[str, float],
    surfaces: tuple[dict[str, str], dict[str, str]] | None = None,
) -> tuple[list[ApiChange], list[Deprecation]]:
    """Breaking changes between two unpacked releases, and the new release's deprecations;
    ``surfaces``: (old, new) dicts filled with each release's public names."""
    started = time.perf_counter()
    old_tops, new_tops = top_modules(old_root), top_modules(new_root)
    old_files = _capped(python_files(old_root, old_tops), notes, old_root)
    new_files = _capped(python_files(new_root, new_tops), notes, new_root)
    scan_files(old_root, old_files, notes)  # only for the notes of files that do not parse
    deprecated, lazy = scan_files(new_root, new_files, notes)
    old_lazy = lazy_served(old_root, old_files)
    _served_lazily(new_root, new_files, lazy)
    served = lazy_targets(new_root, new_files)
    if len(old_files) != len(python_files(old_root, old_tops)) or len(new_files) != len(
        python_files(new_root, new_tops)
    ):
        stats["incomplete"] = 1
    big = next((f for f in (*old_files, *new_files) if f.stat().st_size > MAX_MODULE_BYTES), None)
    if big is not None:
        notes.append(
            f"{big.name}: {big.stat().st_size} bytes, over the {MAX_MODULE_BYTES} a module may "
            "have to be loaded: the releases were not compared"
        )
        stats["incomplete"] = 1
        return [], deprecated
    changes: list[ApiChange] = []
    roots = (new_root, old_root)
    for top in old_tops:
        if top not in new_tops:
            changes.append(ApiChange("removed", top, "top-level module", top))
            if surfaces is not None:
                surfaces[0][top] = "module"
            continue
        old, new = load_release(old_root, top, notes), load_release(new_root, top, notes)
        if old is None or new is None:
            stats["incomplete"] = 1
            continue
        stats["objects"] = stats.get("objects", 0) + _count(old) + _count(new)
        try:
            _diff_top(top, old, new, old_root, served, old_lazy, lazy, roots, changes, notes,
                      stats, surfaces)  # fmt: skip
        except (griffe.AliasResolutionError, griffe.CyclicAliasError) as error:
            # an alias to what no release here holds (``sqlalchemy.testing.mock`` pointing at
            # ``unittest.mock``): what was found so far stands, the rest is not compared
            notes.append(f"{top}: an alias could not be resolved ({error}); the diff is incomplete")
            stats["incomplete"] = 1
    if surfaces is not None:
        add_lazy(surfaces[0], old_lazy)
        add_lazy(surfaces[1], lazy)
    for change in [c for c in changes if _lazy(c, lazy)]:
        changes.remove(change)
        deprecated.append(
            Deprecation(
                change.path,
                "lazy",
                "served by the module's __getattr__",
                lazy=True,
                where=change.where,
            )
        )
    stats["seconds"] = round(time.perf_counter() - started, 3)
    return merge_renames(changes), deprecated


def _diff_top(
    top: str,
    old: Any,
    new: Any,
    old_root: Path,
    served: dict[str, str],
    old_lazy: Any,
    lazy: Any,
    roots: Any,
    changes: list[ApiChange],
    notes: list[str],
    stats: dict[str, float],
    surfaces: Any,
) -> None:
    """The changes of one top-level package of the release (into ``changes``)."""
    if surfaces is not None:
        surfaces[0].update(surface(old))
        surfaces[1].update(surface(new))
    public = public_paths(new)
    mine = {m: t for m, t in served.items() if m == top or m.startswith(top + ".")}
    moved = list(moved_breakages(old, new, mine))
    public.update((canonical, path) for canonical, path, _ in moved)
    breakages = chain(griffe.find_breaking_changes(old, new), (b for _, _, b in moved))
    reported = {c.path for c in changes}
    for path, how in vanished_names(old, new, old_lazy, lazy):
        if path not in reported:
            where = _module_file(old_root, path.rsplit(".", 1)[0])
            changes.append(ApiChange("removed", path, how, where))
    for breakage in breakages:
        change = to_change(breakage, public, roots, old)
        if change is not None:
            changes.append(change)
        if len(changes) >= MAX_CHANGES:
            notes.append(f"{top}: more than {MAX_CHANGES} changes, the rest not listed")
            stats["incomplete"] = 1
            break


def _module_file(root: Path, module: str) -> str:
    base = root.joinpath(*module.split("."))
    for candidate in (base / "__init__.py", base.with_suffix(".py"), base.with_suffix(".pyi")):
        if candidate.is_file():
            return candidate.relative_to(root).as_posix()
    return module.replace(".", "/")


def _capped(files: list[Path], notes: list[str], root: Path) -> list[Path]:
    if len(files) > MAX_FILES:
        notes.append(f"{root.name}: {len(files)} Python files, only the first {MAX_FILES} scanned")
        return files[:MAX_FILES]
    return files


def _count(module: griffe.Object | griffe.Alias) -> int:
    total = 0
    for current in walk_modules(module):
        total += 1 + len(current.members)
    return total
