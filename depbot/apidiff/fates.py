"""Every used name given its fate in the new release: the accounting a clean diff rests on. Pure.

A diff backs ``not_affected`` only when each name the checkout takes from the package
(``records.api.UsedName``) is found in the OLD release's names and given its fate in the
new one: ``present``, ``changed`` (a change is listed at it or under it), ``removed``,
``moved``, ``deprecated``. A name the old side does not have is ``unresolved``: the model
cannot see that part of the package (a re-export from another package, types kept
elsewhere, a name made at run time), so the diff is incomplete, and says which names;
except where the model reads the whole interface (``whole``: an action's ``action.yml``
declares every input and output), where such a name is ``undeclared``: the code passes
what neither release knows (ignored before and after; the code's own error, said). A member
the code sets on the package's object itself (``pkg.getType = pkg.getType || pkg.lookup``)
that the new release exports is ``present``: the update brings what the code supplied.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from depbot.records.api import ApiChange, ApiDiff, UsedName

FATES = ("present", "changed", "removed", "moved", "deprecated", "undeclared", "unresolved")
_CONTAINERS = ("module", "class", "cjs")
_GONE = ("removed", "export_removed", "default_removed", "subpath_closed", "subpath_removed",
         "input_removed", "output_removed")  # fmt: skip


@dataclass(frozen=True)
class Fate:
    name: str  # as used (``a.b.c``, ``pkg:name``)
    fate: str  # one of FATES
    found: str = ""  # the old release's name it was found as (a prefix for a member of a value)
    detail: str = ""  # the change, or why unresolved
    place: str = ""  # path:line of the first use
    use: UsedName | None = field(default=None, compare=False)
    change: ApiChange | None = field(default=None, compare=False)

    def line(self) -> str:
        detail = f" ({self.detail})" if self.detail else ""
        return f"{self.name}: {self.fate}{detail} · {self.place}"


@dataclass(frozen=True)
class Fates:
    fates: tuple[Fate, ...] = ()

    @property
    def total(self) -> int:
        return len(self.fates)

    @property
    def unresolved(self) -> tuple[Fate, ...]:
        return tuple(f for f in self.fates if f.fate == "unresolved")

    @property
    def undeclared(self) -> tuple[Fate, ...]:
        return tuple(f for f in self.fates if f.fate == "undeclared")

    @property
    def complete(self) -> bool:
        return not self.unresolved

    def counts(self) -> dict[str, int]:
        out = {k: 0 for k in FATES}
        for f in self.fates:
            out[f.fate] += 1
        return {k: v for k, v in out.items() if v}

    def summary(self) -> str:
        """``11 of 11 used names resolved`` (and which are not)."""
        done = self.total - len(self.unresolved)
        head = f"{done} of {self.total} used name(s) resolved in the old release's API"
        if self.unresolved:
            names = ", ".join(f.name for f in self.unresolved[:6])
            more = " …" if len(self.unresolved) > 6 else ""
            head += f"; not found: {names}{more}"
        return head


def _find(name: str, old: dict[str, str]) -> tuple[str, str]:
    """(the old name it is found as, "") or ("", why not)."""
    if name in old:
        if old[name] == "opaque":
            return "", "no file of the old release shows what this entry point exports"
        return name, ""
    if ":" in name:  # npm: `module:export`
        module, _, export = name.partition(":")
        if export.startswith("default."):  # a member of the default export
            if old.get(module) == "cjs":  # `module.exports`: its members are the exports
                return _find(f"{module}:{export[len('default.') :]}", old)
            return _find(f"{module}:default", old)  # an ES default: a value's member
        if module not in old:
            return "", "no such entry point in the old release"
        if old[module] == "opaque":
            return "", "no file of the old release shows what this entry point exports"
        parts = export.split(".")
        for i in range(len(parts) - 1, 0, -1):  # the longest part of the name the old shows
            owner = f"{module}:{'.'.join(parts[:i])}"
            if owner not in old:
                continue
            if not any(k.startswith(owner + ".") for k in old):
                return owner, ""  # `pkg:ns.x` where the old release shows `ns` but not its members
            return "", f"the old release shows the members of {owner}, and {parts[i]} is not one"
        return "", "not exported by the old release (as far as its files show)"
    parts = name.split(".")
    for i in range(1, len(parts)):
        prefix = ".".join(parts[:i])
        kind = old.get(prefix)
        if kind is None:
            return "", f"{prefix} is not in the old release"
        if kind not in _CONTAINERS:
            return prefix, ""  # a member of a value: the value's fate stands for it
        nxt = ".".join(parts[: i + 1])
        if nxt not in old:
            if kind == "class":
                return prefix, ""  # an attribute the class's code does not declare
            return "", f"{prefix} has no {parts[i]} in the old release"
    return "", "not in the old release"


def _change_at(found: str, kind: str, changes: list[ApiChange]) -> ApiChange | None:
    """The change that decides the fate of ``found`` (of kind ``kind`` in the old release):
    one at it, a removal above it, or (a class or function) one under it."""
    module, _, export = found.partition(":")
    for c in changes:
        if export:
            if c.path == module and (
                (c.kind == "export_removed" and c.detail == export)
                or (c.kind == "default_removed" and export == "default")
            ):
                return c
            if c.path == found and c.kind in ("type_args_required", "no_longer_type"):
                return c
        elif c.path == found and c.kind not in ("export_removed", "default_removed"):
            return c  # (those two are about one of the module's exports, not the module)
        elif found.startswith(c.path + ".") and c.kind == "removed":
            return c
    if kind not in ("module", "cjs") and not export:
        return next((c for c in changes if c.path.startswith(found + ".")), None)
    return None


def _fate_of(found: str, change: ApiChange | None, diff: ApiDiff) -> tuple[str, str]:
    if change is not None:
        if change.kind == "removed" and change.detail == "re-export":
            return "moved", change.line()
        if change.kind in _GONE and (change.path == found or ":" in found):
            return "removed", change.line()
        if change.kind == "removed" and found.startswith(change.path + "."):
            return "removed", change.line()
        return "changed", change.line()
    if any(d.path == found for d in diff.deprecated):
        return "deprecated", "deprecated in the new release"
    if found in (diff.new_api or {}):
        return "present", ""
    return "unresolved", "not in the new release's names, and no change lists it"


def _exports(api: dict[str, str] | None, name: str) -> bool:
    """Whether a release's names list ``name`` under an entry point its files show."""
    module = name.partition(":")[0]
    return bool(api) and name in api and api.get(module) != "opaque"  # type: ignore[operator]


def _file_fate(diff: ApiDiff, u: UsedName, place: str) -> Fate:
    """``node_modules/pkg/lib/x.js`` named in a config file: present while the new release
    ships the file, whatever its ``exports`` map lets ``require`` reach; removed when it does
    not. A folder (``includePaths: ['node_modules/pkg/scss']``) is there while the new release
    ships a file in it. Unresolved when the old release as read shows neither (a kind of file
    it does not keep)."""
    old, new = diff.old_api or {}, diff.new_api or {}
    if old.get(u.name) == "file":
        there, what = new.get(u.name) == "file", "no such file"
    elif _has_files_in(old, u.name):
        there, what = _has_files_in(new, u.name), "no file in that folder"
    else:
        return Fate(u.name, "unresolved", "", "no such file in the old release as read", place, u)
    if there:
        return Fate(u.name, "present", u.name, "", place, u)
    rel = u.name.split("/", 2 if u.name.startswith("@") else 1)[-1]
    gone = ApiChange("subpath_removed", u.name, what, f"{diff.new_label} · {rel} · {what}")
    return Fate(u.name, "removed", u.name, gone.line(), place, u, gone)


def _maker_gone(u: UsedName, old: dict[str, str], diff: ApiDiff, place: str) -> Fate | None:
    """``pkg:create().x`` (or ``pkg:new Pool().x``) when the new release removed or moved
    ``create``: the fate of the maker, which the member shares; None otherwise."""
    module, _, rest = u.name.partition(":")
    maker = rest.split("()", 1)[0].removeprefix("new ").strip()
    if not module or not maker:
        return None
    found, _ = _find(f"{module}:{maker}", old)
    if not found:
        return None
    change = _change_at(found, old[found], diff.changes)
    fate, detail = _fate_of(found, change, diff)
    if fate not in ("removed", "moved"):
        return None
    return Fate(u.name, fate, found, detail, place, u, change)


def _has_files_in(api: dict[str, str], folder: str) -> bool:
    return any(kind == "file" and name.startswith(folder + "/") for name, kind in api.items())


def fates(diff: ApiDiff, used: list[UsedName], *, whole: bool = False) -> Fates:
    """The fate of each used name (``unresolved`` for all when the model lists no names);
    ``whole``: the old release's names are its whole interface (a name not among them is
    ``undeclared``, not unseen)."""
    out: list[Fate] = []
    old = diff.old_api
    for u in used:
        place = f"{u.path}:{u.line}"
        if old is None:
            out.append(Fate(u.name, "unresolved", "", "the API model lists no names", place, u))
            continue
        if u.how == "path":  # a file loaded by its path: whether the new release has it
            out.append(_file_fate(diff, u, place))
            continue
        found, why = _find(u.name, old)
        if not found and u.how == "augments":
            continue  # a block may add an interface of its own: not a name of the old surface
        if not found and ("()." in u.name or u.name.endswith("()")):
            # a member of what a call returns, where the old release models no such result
            # (or not that member): not a name of its surface, as before; unless the call
            # itself is gone (`lib.create()` removed: what it made is gone with it)
            gone = _maker_gone(u, old, diff, place)
            if gone is not None:
                out.append(gone)
            continue
        if not found and whole and old:
            out.append(Fate(u.name, "undeclared", "", "neither release declares it", place, u))
            continue
        if not found and u.how == "assigned" and _exports(diff.new_api, u.name):
            why = "this code sets it on the old release; the new one exports it"
            out.append(Fate(u.name, "present", u.name, why, place, u))
            continue
        if not found:
            out.append(Fate(u.name, "unresolved", "", why, place, u))
            continue
        change = _change_at(found, old[found], diff.changes)
        fate, detail = _fate_of(found, change, diff)
        out.append(Fate(u.name, fate, found, detail, place, u, change))
    return Fates(tuple(out))
