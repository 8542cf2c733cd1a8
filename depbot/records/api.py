"""The records of an API diff between two releases of one package."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

# what a change is; Python kinds come from griffe's breakages, npm kinds from package.json
# and the exported names of each entry point
PYTHON_KINDS = (
    "removed",
    "kind_changed",
    "param_removed",
    "param_renamed",
    "param_moved",
    "param_now_required",
    "param_added_required",
    "param_kind_changed",
    "default_changed",
    "base_removed",
    "return_changed",
)
NPM_KINDS = (
    "became_esm_only",
    "subpath_closed",
    "subpath_removed",
    "export_removed",
    "default_removed",
    "no_longer_type",
    "not_callable",  # the module object was a function and is a plain object now  # an exported name that was a type (class, interface) is a value only
    "engines_raised",
    "option_now_required",
    "option_values_narrowed",  # detail `option=a|b`: the string values it still allows
    "positional_reduced",  # detail `8 → 1`: the most positional arguments, before and now
)
# the detail of a default_removed change known only for a default import (the members of
# the old module object are not known, that it was the default is): ``require`` still gets it
BUNDLED_DEFAULT = "default import (the old module object; the new release exports no default)"

# the end of a not_callable change's detail when the new release keeps an `exports.default`:
# a default import still gets a value, only `require` and a namespace import get the object
DEFAULT_KEPT = " (its default export is kept: a default import still gets it)"


@dataclass(frozen=True)
class ApiChange:
    kind: str
    path: str  # dotted public path (Python) or `pkg/subpath` (npm)
    detail: str = ""  # parameter name, old → new values, one line
    where: str = ""  # file (and part of it) in the release that shows it
    position: int = -1  # a parameter's change: its index among the call's arguments (no self)

    def line(self) -> str:
        detail = f" ({self.detail})" if self.detail else ""
        where = f" · {self.where}" if self.where else ""
        return f"{self.kind}: {self.path}{detail}{where}"


@dataclass(frozen=True)
class Deprecation:
    path: str
    category: str  # DeprecationWarning, FutureWarning, @deprecated, lazy …
    message: str = ""
    removal: str = ""  # the version the message says it goes away in, when it says one
    where: str = ""
    lazy: bool = False  # served by a module-level __getattr__, gone from the static model


@dataclass
class ApiDiff:
    ecosystem: str
    old_label: str
    new_label: str
    changes: list[ApiChange] = field(default_factory=list)
    deprecated: list[Deprecation] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    stats: dict[str, float] = field(default_factory=dict)
    # each release's public names (path → kind: module, class, function, …; npm: `pkg` and
    # `pkg/sub` are modules, `pkg:name` / `pkg/sub:name` their exports): what a used name's
    # fate is looked up in. None: the ecosystem's model lists no names
    old_api: dict[str, str] | None = None
    new_api: dict[str, str] | None = None
    # a release's companion, unpacked (npm: the `@types/<name>` of its major when the
    # release ships no declarations): "old" / "new" -> folder; the model reads it if it can
    companions: dict[str, Path] = field(default_factory=dict)
    # the packages a release re-exports wholesale, unpacked: "old" / "new" -> name -> folder
    foreign: dict[str, dict[str, Path]] = field(default_factory=dict)


@dataclass(frozen=True)
class UsedName:
    """A name the checkout takes from a package, in the API model's spelling (``a.b.C``;
    npm ``pkg:name``, ``pkg/sub:name``, or the module ``pkg/sub``), at its first use (and the
    others, ``also``, at most ``MAX_ALSO``)."""

    name: str
    path: str
    line: int
    # import | member (reached through an imported module object) | assigned (a member the
    # code sets on the module object itself, `pkg.newName = pkg.newName || pkg.oldName`) |
    # augments (a TypeScript `declare module 'pkg' { interface X … }` block adds to it)
    how: str = "import"
    col: int = 1
    text: str = ""  # the line, as the checkout has it
    guarded: bool = False  # an import the code is ready to see fail (``try``/``except``)
    # its other uses, (path, line, col, text) each, in reading order: a draft cites them all
    also: tuple[tuple[str, int, int, str], ...] = ()
