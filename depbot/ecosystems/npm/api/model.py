"""The API of two releases of an npm package and its breaking changes.

``package.json`` alone shows the headline break of many majors: ESM only (``type: module``,
an ``exports`` map without a ``require`` condition), deep paths closed by ``exports``, a raised
``engines.node``. The exported names of each subpath come from the type declarations when
shipped, else the entry files (``npm_exports``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from depbot.ecosystems.npm.api.engines import node_minimum
from depbot.ecosystems.npm.api.exports import UNSEEN, Foreign, ambient_modules, file_exports
from depbot.ecosystems.npm.api.exportsmap import (
    JS_SUFFIXES,
    normalise_exports,
    pattern_conditions,
    subpath_allowed,
)
from depbot.ecosystems.npm.api.generics import type_parameters
from depbot.ecosystems.npm.api.interop import module_object_is_default
from depbot.ecosystems.npm.api.params import (
    Signatures,
    option_values_narrowed,
    options_now_required,
    options_removed,
    positional_limit,
    signatures,
)
from depbot.ecosystems.npm.api.schema import OptionsSchema, options_schema, schema_changes
from depbot.ecosystems.npm.api.shape import module_shape
from depbot.ecosystems.npm.api.typemeaning import type_meanings
from depbot.ecosystems.npm.api.types import DECLARATION_SUFFIXES, declared_values
from depbot.records.api import BUNDLED_DEFAULT, DEFAULT_KEPT, ApiChange

CONDITIONS = ("types", "import", "require", "default", "node", "module")
SKIP_DIRS = frozenset({"node_modules", "test", "tests", "__tests__", "example", "examples", "docs"})
MAX_DEEP_FILES = 2_000
MAX_WALKED = 20_000  # files of one release looked at
_MINIFIED_JS = re.compile(r"\.min\.[mc]?js$")  # what an unpacked release does not keep
# files a bundler lets code import that are no JavaScript (`import 'pkg/dist/pkg.css'`)
# (text files: artifacts.keep keeps them; images and fonts are not kept)
ASSET_SUFFIXES = (".css", ".scss", ".sass", ".less", ".styl", ".json", ".svg")
MAX_ASSETS = 300


@dataclass
class NpmPackage:
    root: Path
    label: str
    name: str
    type: str
    main: str
    types: str
    exports: dict[str, dict[str, str | None]] | None  # subpath → condition path → target
    engines_node: str
    manifest: dict = field(default_factory=dict)
    types_root: Path | None = None  # the unpacked `@types/<name>` of a release without types
    # the packages it re-exports wholesale (`export * from 'pkg'`), unpacked: name → folder
    foreign: dict[str, Path] = field(default_factory=dict)
    # file lists and declaration blocks, read once per release (a diff asks for them per
    # subpath: a 1,000-file package made the walk quadratic)
    memo: dict = field(default_factory=dict, repr=False, compare=False)
    read: bool = True  # its package.json was read: else nothing of it was seen, not compared


def read_package(
    root: Path,
    label: str,
    notes: list[str],
    types_root: Path | None = None,
    foreign: dict[str, Path] | None = None,
) -> NpmPackage:
    read = True
    try:
        manifest = json.loads((root / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as error:
        notes.append(f"{label}: package.json unreadable ({type(error).__name__})")
        manifest, read = {}, False
    if not isinstance(manifest, dict):
        notes.append(f"{label}: package.json is not an object")
        manifest, read = {}, False
    engines = manifest.get("engines")
    return NpmPackage(
        root=root,
        label=label,
        name=str(manifest.get("name", "")),
        type=str(manifest.get("type", "commonjs")),
        main=str(manifest.get("main") or ""),
        types=str(manifest.get("types") or manifest.get("typings") or ""),
        exports=normalise_exports(manifest.get("exports")),
        engines_node=str(engines.get("node", "")) if isinstance(engines, dict) else "",
        manifest=manifest,
        types_root=types_root,
        foreign=dict(foreign or {}),
        read=read,
    )


def _is_esm_file(package: NpmPackage, target: str) -> bool:
    return target.endswith(".mjs") or (package.type == "module" and not target.endswith(".cjs"))


def requirable(package: NpmPackage) -> bool:
    """Whether `require('pkg')` works: a CommonJS entry at `.`."""
    if package.exports is None:
        return not _is_esm_file(package, package.main or "index.js")
    entry = package.exports.get(".", {})
    for condition, target in entry.items():
        parts = condition.split(".")
        if target and (
            "require" in parts or ("import" not in parts and not _is_esm_file(package, target))
        ):
            if "types" not in parts:
                return True
    return False


def _files(package: NpmPackage, suffixes: tuple[str, ...]) -> list[str]:
    """The release's files ending in ``suffixes`` (at most ``MAX_DEEP_FILES``), from one walk
    of its tree."""
    key = ("files", suffixes)
    if key not in package.memo:
        found = [rel for rel in _walk(package) if rel.endswith(suffixes)]
        package.memo[key] = found[:MAX_DEEP_FILES]
    return package.memo[key]


def _walk(package: NpmPackage) -> list[str]:
    """Every file of the release outside ``SKIP_DIRS`` (at most ``MAX_WALKED``), walked once."""
    if "walk" not in package.memo:
        found = []
        for path in sorted(package.root.rglob("*")):
            rel = path.relative_to(package.root)
            if path.is_file() and not SKIP_DIRS & set(rel.parts[:-1]):
                found.append(rel.as_posix())
            if len(found) >= MAX_WALKED:
                break
        package.memo["walk"] = found
    return package.memo["walk"]


def deep_paths(package: NpmPackage) -> list[str]:
    """The subpaths `require('pkg/x')` reaches: every JS file without an `exports` map
    (`x.js` as `./x`, a folder's `index.js` as the folder, `x.mjs`/`x.cjs` by their names:
    Node adds no extension but `.js` to a bare deep path)."""
    if package.exports is not None:
        listed = {k for k in package.exports if k != "." and "*" not in k}
        return sorted(listed | _pattern_paths(package))
    paths = []
    for rel in _files(package, JS_SUFFIXES):
        if not rel.endswith(".js"):  # `esm.mjs` / `x.cjs`: reached only by their full name
            paths.append("./" + rel)
            continue
        stem = rel.rsplit(".", 1)[0]
        paths.append("./" + (stem[: -len("/index")] if stem.endswith("/index") else stem))
    return sorted(set(paths) - {"./index", "."})


MAX_PATTERN_PATHS = 100  # subpaths an `exports` pattern is expanded to


def _pattern_paths(package: NpmPackage) -> set[str]:
    """The subpaths an ``exports`` pattern (``"./*": {"default": "./*.js"}``) reaches: one
    per file of the release its ``default`` (else first) target matches."""
    out: set[str] = set()
    for key, conditions in (package.exports or {}).items():
        k_head, star, k_tail = key.partition("*")
        target = conditions.get("default") or next((t for t in conditions.values() if t), None)
        if not star or not target or "*" not in target:
            continue
        t_head, _, t_tail = target.removeprefix("./").partition("*")
        for rel in _files(package, JS_SUFFIXES):
            if rel.startswith(t_head) and rel.endswith(t_tail) and len(rel) > len(t_head + t_tail):
                part = rel[len(t_head) : len(rel) - len(t_tail)]
                out.add(f"{k_head}{part}{k_tail}")
            if len(out) >= MAX_PATTERN_PATHS:
                return out
    return out - {"."}


def path_files(package: NpmPackage) -> list[str]:
    """The release's files a tool may load by their path (``node_modules/pkg/lib/x.js``),
    whatever its ``exports`` allow: JavaScript (not minified scripts, which the unpacked
    release does not keep), declarations and the assets code imports (``x.min.css`` too).
    A file of another kind is not listed: its fate is not known from the release as read."""
    kept = (*JS_SUFFIXES, *DECLARATION_SUFFIXES, *ASSET_SUFFIXES)
    return [rel for rel in _files(package, kept) if not _MINIFIED_JS.search(rel)]


def asset_paths(package: NpmPackage) -> list[str]:
    """The release's files of ``ASSET_SUFFIXES`` that code may import (``./dist/x.css``; all
    of them without an ``exports`` map, else those it lets through), at most ``MAX_ASSETS``."""
    out = []
    for rel in _files(package, ASSET_SUFFIXES):
        if rel == "package.json":
            continue
        if package.exports is None or subpath_allowed(package.exports, "./" + rel):
            out.append("./" + rel)
        if len(out) >= MAX_ASSETS:
            break
    return out


def _assets_gone(old: NpmPackage, new: NpmPackage, pkg: str) -> list[ApiChange]:
    """An importable file of the old release the new one no longer has, or no longer lets
    code import."""
    changes = []
    for sub in asset_paths(old):
        inside = within(new.root, sub[2:])
        path = f"{pkg}/{sub[2:]}"
        if inside is None or not inside.is_file():
            where = f"{new.label} · {sub[2:]} · no such file"
            changes.append(ApiChange("subpath_removed", path, "no such file", where))
        elif new.exports is not None and not subpath_allowed(new.exports, sub):
            changes.append(
                ApiChange("subpath_closed", path, "not in exports", _place(new, "exports"))
            )
    return changes


def within(root: Path, path: Path | str) -> Path | None:
    """``root / path`` when it names a file inside ``root`` (not absolute, not climbing out,
    not through a link that leads out), else None: a release's package.json may name any
    path, and only the release's own files are its API."""
    rel = str(path)
    if not rel or Path(rel).is_absolute() or rel.startswith(("/", "\\")) or ":" in rel[:3]:
        return None
    joined = root / rel
    try:
        inside = joined.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError, ValueError):
        return None
    return joined if inside else None


def _file_within(root: Path, rel: str) -> Path | None:
    found = within(root, rel)
    return found if found is not None and found.is_file() else None


def _declaration_for(package: NpmPackage, target: str) -> Path | None:
    path = within(package.root, target)
    if path is None:
        return None
    if target.endswith(DECLARATION_SUFFIXES):
        return path if path.is_file() else None
    stem = target.rsplit(".", 1)[0] if path.suffix in JS_SUFFIXES else target
    for suffix in (*DECLARATION_SUFFIXES, "/index.d.ts"):
        found = _file_within(package.root, stem + suffix)
        if found is not None:
            return found
    return None


def _entry_file(package: NpmPackage, target: str) -> Path | None:
    for candidate in (target, f"{target}.js", f"{target}/index.js"):
        found = _file_within(package.root, candidate)
        if found is not None:
            return found
    return None


def _targets(package: NpmPackage, subpath: str) -> list[str]:
    """The files `pkg/<subpath>` may resolve to, the type declarations' first. An ``exports``
    entry without a ``types`` condition is followed by the ``types`` field (where TypeScript's
    classic resolution finds the declarations), as ``typesVersions`` maps it."""
    types = _types_versions(package, package.types) if package.types else ""
    if package.exports is not None:
        conditions = package.exports.get(subpath) or pattern_conditions(package.exports, subpath)
        found = [t for c, t in sorted(conditions.items(), key=lambda i: "types" not in i[0]) if t]
        typed = any("types" in c for c in conditions)
        return found + ([types] if subpath == "." and types and not typed else [])
    if subpath == ".":
        return [t for t in (types, package.main, "index.js") if t]
    return [subpath[2:]]


def _types_versions(package: NpmPackage, path: str) -> str:
    """``path`` as the first entry of ``typesVersions`` maps it (``{">=4.0": {"*":
    ["dist/types/*"]}}`` makes ``index.d.ts`` ``dist/types/index.d.ts``); else itself."""
    table = package.manifest.get("typesVersions")
    first = next(iter(table.values()), None) if isinstance(table, dict) and table else None
    if not isinstance(first, dict):
        return path
    rel = path[2:] if path.startswith("./") else path
    for pattern, targets in first.items():
        if not (isinstance(targets, list) and targets and isinstance(targets[0], str)):
            continue
        head, star, tail = pattern.partition("*")
        if star and rel.startswith(head) and rel.endswith(tail) and len(rel) >= len(head + tail):
            return targets[0].replace("*", rel[len(head) : len(rel) - len(tail)], 1)
        if not star and rel == pattern:
            return targets[0]
    return path


def declaration_file(package: NpmPackage, subpath: str = ".") -> Path | None:
    """The declaration file of `pkg/<subpath>`: the release's own, else its ``@types``'."""
    for target in _targets(package, subpath):
        declaration = _declaration_for(package, target)
        if declaration is not None:
            return declaration
    return _companion_declaration(package, subpath)


def subpath_names(package: NpmPackage, subpath: str) -> set[str] | None:
    """Exported names of `pkg/<subpath>`; None when no file of the release shows them."""
    targets = _targets(package, subpath)
    ambient = _ambient(package).get(package.name + subpath[1:])
    reader = _foreign_reader(package)
    for target in targets:
        declaration = _declaration_for(package, target)
        if declaration is not None:
            # a declaration file of only `declare module 'pkg' { … }` blocks exports nothing
            # at its top level: the blocks say what the package exports
            names = file_exports(declaration, package.root, foreign=reader) | (ambient or set())
            if "default" not in names and _runtime_default(package, targets, reader):
                names = names | {"default"}
            return names
    if ambient is not None:
        return ambient
    runtime = _runtime_names(package, targets, reader)
    companion = _companion_declaration(package, subpath)
    if companion is not None:  # no declarations of its own: those of `@types/<name>`, with
        # the names its entry file shows (types of an older major may lag behind the code);
        # whether there is a default export is the declarations' word
        typed = file_exports(companion, package.types_root)  # type: ignore[arg-type]
        if runtime and runtime - {"default"}:  # a value the declarations give that the code
            # the release runs does not export (what it was read to export, not only a module
            # object) is not there at run time: types that lag behind the code (@types/tar 6
            # still declares `function Extract`, which tar 3 removed)
            typed -= declared_values(companion) - runtime
        return typed | ((runtime or set()) - {"default"})
    return runtime


def interop_default(package: NpmPackage) -> bool:
    """Whether a default import of the package (``import tar from 'tar'`` under
    ``esModuleInterop``, Babel, a bundler) gets its module object: a CommonJS entry file
    that never marks itself ``__esModule`` (``interop.module_object_is_default``); read
    once (the diff and the surface of both releases ask)."""
    if "interop" not in package.memo:
        package.memo["interop"] = any(
            module_object_is_default(entry)
            for target in dict.fromkeys(_targets(package, "."))
            if (entry := _entry_file(package, target)) is not None
            and entry.name.endswith(JS_SUFFIXES)
            and not _is_esm_file(package, target)
        )
    return package.memo["interop"]


def module_object_default(package: NpmPackage, subpath: str = ".") -> bool:
    """Whether the first entry file of `pkg/<subpath>` sets a value as its module object
    (a UMD ``module.exports = factory(…)``) even where no file shows that value's members:
    the default import is known to exist, though the other names are not."""
    return _first_entry_default(package, _targets(package, subpath), _foreign_reader(package))


def _first_entry_default(package: NpmPackage, targets: list[str], reader: Foreign) -> bool:
    """Whether the first JavaScript entry file among ``targets`` shows a default (a value
    set as its module object, or an ES default export)."""
    for target in dict.fromkeys(targets):
        entry = _entry_file(package, target)
        if entry is not None and entry.name.endswith(JS_SUFFIXES):
            names = file_exports(entry, package.root, foreign=reader)
            return names is not None and "default" in names
    return False


def _runtime_names(package: NpmPackage, targets: list[str], reader: Foreign) -> set[str] | None:
    """The names the entry files show: the first one's, or with an ``exports`` map those of
    each condition's file (an ``import`` file and a UMD ``require`` one are one API). None
    when no file shows them, or only a module object whose members are not known."""
    read: list[set[str]] = []
    for target in dict.fromkeys(targets):
        entry = _entry_file(package, target)
        if entry is not None and entry.name.endswith(JS_SUFFIXES):
            read.append(file_exports(entry, package.root, foreign=reader))
            if package.exports is None:
                break
    known = [names for names in read if UNSEEN not in names]  # an instance or a UMD object
    return set().union(*known) if known else None  # whose members no file shows: not none


def _runtime_default(package: NpmPackage, targets: list[str], reader: Foreign) -> bool:
    """Whether the entry file the release runs sets the module object itself
    (``module.exports = Sequelize``): ``require('pkg')`` then gets a value, whatever the
    declarations beside it re-export (``export * from './lib/sequelize'`` carries no default).
    Not when a ``module`` file (what bundlers give an ``import``) exports no default."""
    esm = _module_file_names(package, reader)
    if esm is not None and "default" not in esm:
        return False
    return _first_entry_default(package, targets, reader)


def _module_file_names(package: NpmPackage, reader: Foreign) -> set[str] | None:
    """The names of the ``module`` file (what bundlers give an ``import`` when there is no
    ``exports`` map), None when there is none."""
    module = package.manifest.get("module")
    esm = _entry_file(package, module) if isinstance(module, str) and module else None
    if package.exports is not None or esm is None or not esm.name.endswith(JS_SUFFIXES):
        return None
    return file_exports(esm, package.root, foreign=reader)


def package_of(spec: str) -> str:
    """The package a bare module specifier names: ``@s/n/sub`` → ``@s/n``, ``n/sub`` → ``n``."""
    parts = spec.split("/")
    return "/".join(parts[:2]) if spec.startswith("@") else parts[0]


def _foreign_reader(package: NpmPackage) -> Foreign:
    """What a bare ``export * from 'pkg/sub'`` of ``package`` brings in, from the unpacked
    ``pkg`` in ``package.foreign`` (its own re-exports of others are not followed), or from
    ``package`` itself when it names its own entry point; every other package asked for is
    kept in ``package.memo["asked"]``."""

    def read(spec: str) -> set[str] | None:
        name = package_of(spec)
        if name == package.name:  # `export * from 'valtio/vanilla'` in valtio: its own entry
            key = ("self", "." + spec[len(name) :])
            if key in package.memo:  # read, or being read (a cycle): what is known so far
                return package.memo[key]
            package.memo[key] = None
            package.memo[key] = subpath_names(package, key[1])
            if package.memo[key] is None:  # no file shows it: unread, as another package's
                package.memo.setdefault("asked", set()).add(name)
            return package.memo[key]
        package.memo.setdefault("asked", set()).add(name)
        root = package.foreign.get(name)
        if root is None:
            return None
        if ("foreign", name) not in package.memo:
            package.memo["foreign", name] = read_package(root, f"{package.label} → {name}", [])
        return subpath_names(package.memo["foreign", name], "." + spec[len(name) :])

    return read


def unread_reexports(package: NpmPackage) -> list[str]:
    """The packages ``package`` re-exports wholesale whose releases were not read."""
    return sorted(package.memo.get("asked", set()) - set(package.foreign))


def _companion_declaration(package: NpmPackage, subpath: str) -> Path | None:
    """The declaration file of ``subpath`` in the release's ``@types`` companion, if any."""
    root = package.types_root
    if root is None:
        return None
    if subpath == ".":
        try:
            manifest = json.loads((root / "package.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            manifest = {}
        main = str((manifest or {}).get("types") or (manifest or {}).get("typings") or "")
        names = [main, "index.d.ts"] if main else ["index.d.ts"]
    else:
        names = [f"{subpath[2:]}.d.ts", f"{subpath[2:]}/index.d.ts"]
    return next((f for f in (_file_within(root, n) for n in names) if f is not None), None)


def _ambient(package: NpmPackage) -> dict[str, set[str]]:
    """`declare module` blocks of the package's declarations, its `types` file first."""
    if "ambient" in package.memo:
        return package.memo["ambient"]
    found: dict[str, set[str]] = package.memo.setdefault("ambient", {})
    files = _files(package, DECLARATION_SUFFIXES)
    main = package.types.removeprefix("./")
    ordered = ([main] if main in files else []) + [f for f in files if f != main][:50]
    for rel in ordered:
        for module, names in ambient_modules(package.root / rel).items():
            found.setdefault(module, set()).update(names)
    return found


def engines_raised(old: NpmPackage, new: NpmPackage) -> bool:
    new_min = node_minimum(new.engines_node)
    if new_min is None:
        return False
    old_min = node_minimum(old.engines_node)
    return old_min is None or new_min > old_min


def _place(package: NpmPackage, part: str) -> str:
    return f"{package.label} · package.json · {part}"


def npm_changes(old: NpmPackage, new: NpmPackage, notes: list[str]) -> list[ApiChange]:
    """Breaking changes between two unpacked npm releases."""
    pkg = new.name or old.name or "package"
    changes: list[ApiChange] = []
    if _root_closed(old, new):  # `exports` lists subpaths only: `import 'pkg'` resolves no more
        changes.append(ApiChange("subpath_closed", pkg, "the root is not in exports",
                                 _place(new, "exports")))  # fmt: skip
    elif requirable(old) and not requirable(new):
        why = "exports" if new.exports is not None and new.type != "module" else "type"
        detail = f"type: {new.type}" if why == "type" else "exports has no require condition"
        changes.append(ApiChange("became_esm_only", pkg, detail, _place(new, why)))
    if new.exports is not None:
        for subpath in deep_paths(old):
            if not subpath_allowed(new.exports, subpath):
                changes.append(
                    ApiChange(
                        "subpath_closed",
                        f"{pkg}/{subpath[2:]}",
                        "not in exports",
                        _place(new, "exports"),
                    )
                )
            elif _pattern_to_nothing(new, subpath):  # `"./*": "./*.js"`, no devtools.js
                path = f"{pkg}/{subpath[2:]}"
                changes.append(ApiChange("subpath_removed", path, "no such file", new.label))
    else:
        changes += _files_removed(old, new, pkg)
    changes += _assets_gone(old, new, pkg)
    for subpath in _shared_subpaths(old, new):
        changes += _name_changes(old, new, pkg, subpath, notes)
    changes += _option_changes(old, new, pkg)
    changes += _shape_changes(old, new, pkg)
    before_file, after_file = declaration_file(old, "."), declaration_file(new, ".")
    if before_file is not None and after_file is not None:  # the root's, found once for both
        changes += _generic_changes(new, pkg, (before_file, after_file))
        changes += _type_meaning_changes(old, new, pkg, (before_file, after_file))
    changes += [
        c
        for c in schema_changes(_options_schema(old), _options_schema(new), pkg, new.label)
        if not any((c.kind, c.path, c.detail) == (d.kind, d.path, d.detail) for d in changes)
    ]
    if engines_raised(old, new):
        detail = f"node {old.engines_node or 'any'} → {new.engines_node}"
        changes.append(ApiChange("engines_raised", pkg, detail, _place(new, "engines")))
    return changes


def _root_closed(old: NpmPackage, new: NpmPackage) -> bool:
    """Whether the new release's ``exports`` map has no ``.`` while the old one had a root
    entry (a ``.`` of its own map, or a ``main`` / ``index.js`` without a map)."""
    if new.exports is None or "." in new.exports:
        return False
    if old.exports is not None:
        return "." in old.exports
    return _entry_file(old, old.main or "index.js") is not None


def _generic_changes(new: NpmPackage, pkg: str, declarations: tuple[Path, Path]) -> list[ApiChange]:
    """A generic type of the root's declarations (old, new) that needs more type arguments
    than before (a default dropped, a parameter added without one): ``type_args_required``,
    detail ``"before → after"`` (how many a use must give)."""
    before_file, after_file = declarations
    before, after = type_parameters(before_file), type_parameters(after_file)
    exported = subpath_names(new, ".") or set()
    return [
        ApiChange(
            "type_args_required",
            f"{pkg}:{name}",
            f"{before[name][1]} → {needed}",
            f"{new.label} · {after_file.name} · {name}",
        )  # fmt: skip
        for name, (_, needed) in sorted(after.items())
        if name in exported and name in before and needed > before[name][1]
    ]


def _type_meaning_changes(
    old: NpmPackage, new: NpmPackage, pkg: str, declarations: tuple[Path, Path]
) -> list[ApiChange]:
    """A name the root's declarations (old, new) still export that could be written as a
    type and now is a value only (``export declare const Client: typeof MqttClient``):
    ``no_longer_type``."""
    before_file, after_file = declarations
    before = type_meanings(before_file, _root_of(old, before_file))
    after = type_meanings(after_file, _root_of(new, after_file))
    return [
        ApiChange(
            "no_longer_type",
            f"{pkg}:{name}",
            "a type → a value only",
            f"{new.label} · {after_file.name} · {name}",
        )  # fmt: skip
        for name in sorted(before)
        if before[name] and after.get(name) is False
    ]


def _root_of(package: NpmPackage, file: Path) -> Path:
    """The unpacked root ``file`` belongs to: the release's, or its ``@types`` package's."""
    types = package.types_root
    return types if types is not None and file.is_relative_to(types) else package.root


def _options_schema(package: NpmPackage) -> OptionsSchema | None:
    """The options schema the release's code loads (``schema.options_schema``), read once."""
    if "schema" not in package.memo:
        package.memo["schema"] = options_schema(
            package.root, _files(package, (".json",)), _files(package, JS_SUFFIXES)
        )
    return package.memo["schema"]


def _root_shape(package: NpmPackage) -> tuple[str | None, str]:
    """The shape of the module object ``require('pkg')`` gives (``shape.module_shape``), and
    the entry file it was read from."""
    targets = _targets(package, ".")
    if package.exports is not None:  # the file the `require` condition names comes first
        conditions = package.exports.get(".") or {}
        first = [conditions[c] for c in ("require", "node") if conditions.get(c)]
        targets = list(dict.fromkeys([*first, *targets]))
    for target in targets:
        entry = _entry_file(package, target)
        if entry is not None and entry.name.endswith(JS_SUFFIXES):
            return module_shape(entry, package.root), entry.relative_to(package.root).as_posix()
    return None, ""


def _shape_changes(old: NpmPackage, new: NpmPackage, pkg: str) -> list[ApiChange]:
    """The module object no longer a constructor (a function or class became an arrow
    function: ``new`` of it throws), now a class (a plain call of it throws), or no longer
    a function at all (an object of named exports: any call or ``new`` of it throws)."""
    before, _ = _root_shape(old)
    after, file = _root_shape(new)
    where = f"{new.label} · {file} · module.exports"
    if before in ("function", "class") and after == "arrow":
        return [ApiChange("not_constructible", pkg, f"{before} → arrow function", where)]
    if before == "function" and after == "class":
        return [ApiChange("now_class", pkg, "function → class", where)]
    if before in ("function", "arrow", "class") and after == "object":
        # an `exports.default` kept: a default import (interop) still gets a value; only
        # `require` and a namespace import get the plain object
        entry = new.root / file
        names = file_exports(entry, new.root, foreign=_foreign_reader(new))
        detail = f"{before} → an object of named exports"
        if names is not None and "default" in names and not module_object_is_default(entry):
            detail += DEFAULT_KEPT  # marked __esModule: a default import gets `.default`
        return [ApiChange("not_callable", pkg, detail, where)]
    return []


def _pattern_to_nothing(package: NpmPackage, subpath: str) -> bool:
    """Whether ``subpath`` reaches the release only through an ``exports`` pattern whose
    every target is a file the release does not have."""
    if package.exports is None or subpath in package.exports:
        return False
    targets = [t for t in pattern_conditions(package.exports, subpath).values() if t]
    return bool(targets) and all(_file_within(package.root, t) is None for t in targets)


def _files_removed(old: NpmPackage, new: NpmPackage, pkg: str) -> list[ApiChange]:
    """Deep paths (`require('pkg/es6/symbol')`) of the old release that no file of the new
    one answers, when no `exports` map decides what is reachable."""
    changes = []
    for subpath in deep_paths(old):
        rel = subpath[2:]
        inside = within(new.root, rel)
        if inside is None:
            continue  # a path out of the release names no file of it
        if not any(_file_answers(inside, suffix) for suffix in ("", *JS_SUFFIXES)):
            where = f"{new.label} · {rel} · no such file"
            changes.append(ApiChange("subpath_removed", f"{pkg}/{rel}", "no such file", where))
    return changes


def _file_answers(stem: Path, suffix: str) -> bool:
    return Path(f"{stem}{suffix}").is_file() or (stem / f"index{suffix or '.js'}").is_file()


def _option_changes(old: NpmPackage, new: NpmPackage, pkg: str) -> list[ApiChange]:
    """Options of the root entry's functions (and classes' constructors) that the new release
    requires and the old one did not, or types by fewer string literals than the old one
    allowed, and functions that take fewer positional arguments than before (the default export is the package's own path, a named one ``pkg:name``). With
    no declarations in the old release, only the literals the new one allows are known."""
    before, after = declaration_file(old), declaration_file(new)
    if after is None:
        return []
    old_sigs, new_sigs = signatures(before) if before else Signatures(), signatures(after)
    exported = subpath_names(new, ".") or set()
    changes = []
    for function in ["default", *sorted(n for n in new_sigs.callables() if n in exported)]:
        path = pkg if function == "default" else f"{pkg}:{function}"
        where = f"{new.label} · {after.name} · {new_sigs.default or function}"
        for position, option in options_now_required(old_sigs, new_sigs, function):
            changes.append(ApiChange("option_now_required", path, option, where, position))
        for position, option in options_removed(old_sigs, new_sigs, function):
            changes.append(ApiChange("option_removed", path, option, where, position))
        for position, option, allowed in option_values_narrowed(old_sigs, new_sigs, function):
            detail = f"{option}={'|'.join(sorted(allowed))}"
            changes.append(ApiChange("option_values_narrowed", path, detail, where, position))
        limit = positional_limit(old_sigs, new_sigs, function)
        if limit is not None:  # `graphql(schema, source)` gone, `graphql({ schema, source })` kept
            detail = f"{limit[0]} → {limit[1]}"
            changes.append(ApiChange("positional_reduced", path, detail, where, limit[1]))
    return changes


def _shared_subpaths(old: NpmPackage, new: NpmPackage) -> list[str]:
    if new.exports is None:
        reachable = set(deep_paths(new))
        return ["."] + [p for p in deep_paths(old) if p in reachable][:200]
    return ["."] + [p for p in deep_paths(old) if p != "." and subpath_allowed(new.exports, p)][
        :200
    ]


def _name_changes(
    old: NpmPackage, new: NpmPackage, pkg: str, subpath: str, notes: list[str]
) -> list[ApiChange]:
    before, after = subpath_names(old, subpath), subpath_names(new, subpath)
    path = pkg if subpath == "." else f"{pkg}/{subpath[2:]}"
    where = f"{new.label} · {subpath}"
    if before is None and subpath == "." and module_object_default(old, subpath):
        # the old module object's members are not known, but that it is the default is: a
        # default import of the new release gets nothing (the file bundlers load has none)
        bundled = after if after is not None else _module_file_names(new, _foreign_reader(new))
        if bundled is not None and "default" not in bundled:
            return [ApiChange("default_removed", path, BUNDLED_DEFAULT, where)]
    if before is None or after is None:
        if before is not None:
            notes.append(f"{new.label}: no file shows the exports of {subpath}, not compared")
        return []
    changes = []
    if "default" in before and "default" not in after:
        changes.append(ApiChange("default_removed", path, "default export", where))
    elif (
        subpath == "." and not {"default"} & (before | after) and interop_default(old)
    ) and not interop_default(new):  # the module object was the default import; now none
        detail = "default import (the module object, now marked __esModule without a default)"
        changes.append(ApiChange("default_removed", path, detail, where))
    gone = sorted(before - after - {"default"})
    hidden = unread_reexports(new)
    if gone and hidden:  # a name it stopped declaring may come in through `export *`
        others = ", ".join(hidden)
        notes.append(f"{where}: {len(gone)} name(s) not shown, maybe re-exported from {others}")
        return changes
    # a member of what a call returns is gone only when the new release still models the
    # call's result (`createClient()`): a return type it no longer shows hides, not removes
    gone = [n for n in gone if "()." not in n or n.split("().", 1)[0] + "()" in after]
    # a member (`optimize.X`, `faker.company.companyName`) is gone only where the new release
    # shows its owner's members (or no longer has the owner): one it shows bare hides
    shown = {n.rsplit(".", 1)[0] for n in after if "." in n and "()." not in n}
    gone = [n for n in gone if "." not in n or "()." in n or n.rsplit(".", 1)[0] in shown
            or n.rsplit(".", 1)[0] not in after]  # fmt: skip
    return changes + [ApiChange("export_removed", path, name, where) for name in gone]
