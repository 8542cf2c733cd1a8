"""JavaScript bindings: what a name of a JS/TS file is bound to, followed through imports,
the project's own modules (relative paths, ``tsconfig`` aliases, module roots), assignments,
``this`` fields, parameters, callbacks, TypeScript annotations and module exports."""

from __future__ import annotations

import json
import re

from depbot import ecosystems
from depbot.core.errors import ToolError
from depbot.ecosystems.npm import NPM
from depbot.search.imports import js_imports
from depbot.search.jsimports import JsImport
from depbot.symbols import javascript as code_js
from depbot.symbols import jsaliases, jslocal
from depbot.symbols.facts import Binding, merge
from depbot.symbols.holders import returned_by
from depbot.symbols.lookups import Lookups

# `require('pkg')` as the whole value
BARE_REQUIRE = re.compile(r"""require\s*\(\s*(['"])([^'"\s]+)\1\s*\)\s*;?""")


class JsBindings(Lookups):
    """The JavaScript half of ``SymbolSearch``'s binding resolution."""

    def local_import_target(self, path: str, name: str, package: str) -> str:
        """The file of the checkout whose import binds ``name`` in ``path`` ("" if none)."""
        found = (
            self._local_import(path, name, package) if not path.endswith((".py", ".pyi")) else None
        )
        return found[1] if found else ""

    def imports_an_importer(self, path: str, importing: set[str]) -> str:
        """A JS/TS module of the checkout that ``path`` imports and that is among
        ``importing`` (it imports the package itself), or "": a value the package made there
        may reach ``path`` (``this.pubsubService.pubsub`` of a service that made it)."""
        if path.endswith((".py", ".pyi")):
            return ""
        try:
            text = self._text(path)
        except ToolError:
            return ""
        for imp in js_imports(text, path=path):
            if imp.package and not imp.specifier.startswith(("@/", "~/")):  # a package's
                continue
            bare = not imp.specifier.startswith((".", "/"))
            for target in self._local_targets(path, imp.specifier, bare):
                if target in importing:
                    return target
        return ""

    def _js_binding(self, path: str, name: str, package: str, depth: int = 0) -> Binding:
        rep = self.report(NPM.name, package)
        for site in rep.sites:
            if site.path == path and name in site.names:
                imported = site.names[name]
                sub = f"/{site.subpath}" if site.subpath else ""
                member = "" if imported in ("*", "default") else f".{imported}"
                return Binding("package", f"{package}{sub}{member}")
        if name == "this":  # inside a class that extends the package's: its own object
            bases = code_js.class_bases(self._text(path))
            got = [
                self._origin(f"class:{b}", lambda r: self._js_binding(path, r, package, depth + 1))
                for b in bases
            ]
            return (
                got[0]
                if got and all(g.kind == "local-package" for g in got)
                else Binding("unknown")
            )
        hop = self._js_through_local(path, name, package, depth)
        if hop is not None:
            return hop
        if name in self.js_foreign(path):
            return Binding("foreign")
        _, _, assigned, params = self.js_facts(path)
        origins = assigned.get(name, [])
        if origins and depth < 3:
            return merge([self._js_origin_binding(path, o, package, depth + 1) for o in origins])
        if name in params:
            got = self._param_binding(path, name, package, depth)
            if got.kind == "param":
                got = self._callback_param(path, name, package, depth) or got
            return got if got.kind != "param" else self._ts_typed(path, name, package, depth, got)
        return self._ts_typed(path, name, package, depth, Binding("unknown"))

    def _ts_typed(
        self, path: str, name: str, package: str, depth: int, otherwise: Binding
    ) -> Binding:
        """``function findUser(client: MongoClient)``, ``let db: Db;``: a name whose TypeScript
        annotation is a type the package exports holds an instance of it."""
        if depth >= 3 or not path.endswith((".ts", ".tsx", ".mts", ".cts")):
            return otherwise
        for t in self._ts_types(path, name):
            if self._js_binding(path, t, package, depth + 1).kind == "package":
                return Binding("local-package", t)
        return otherwise

    def _ts_types(self, path: str, name: str) -> list[str]:
        """The types the file's annotations give ``name`` (``client: MongoClient``), sorted
        (read once per name: every unresolved use of it asks)."""
        with self._lock:
            if (path, name) in self._annotated:
                return self._annotated[(path, name)]
        types = sorted(
            {
                m.group(1)
                for m in re.finditer(
                    rf"(?:[(,]|\b(?:let|var|const))\s*{re.escape(name)}\s*\??\s*:\s*"
                    r"([A-Za-z_$][\w$]*)(?:\.[A-Za-z_$][\w$]*)?\s*(?:[,)=;]|$)",
                    self._text(path),
                    re.M,
                )
            }
        )
        with self._lock:
            self._annotated[(path, name)] = types
        return types

    def js_classes(self, path: str) -> frozenset[str]:
        """The names of the classes a JavaScript file declares (read once)."""
        with self._lock:
            if path in self._classes:
                return self._classes[path]
        found = frozenset(re.findall(r"\bclass\s+([A-Za-z_$][\w$]*)", self.js_facts(path)[0]))
        with self._lock:
            self._classes[path] = found
        return found

    def js_member(self, path: str, name: str, key: str, package: str) -> Binding | None:
        """``deps.zk`` where the module wrote ``const deps = { zk: require('pkg') }``: what
        the object literal gave the key; None when it gave it nothing written out."""
        _, _, assigned, _ = self.js_facts(path)
        origins = assigned.get(f"{name}.{key}")
        if not origins:
            return None
        return merge([self._js_origin_binding(path, o, package, 1) for o in origins])

    def js_local_member(self, path: str, name: str, key: str, package: str) -> Binding | None:
        """``models.User`` where ``models`` is the project's module whose exported object is
        filled under computed keys with what the package made (``db[model.name] = model``,
        ``model = orm.import(file)``: a loader of model files): the package's object; None
        when the module writes the key out or fills the object with anything else."""
        return self._memo(
            self._members,
            (path, name, key, package),
            lambda: self._local_member(path, name, key, package),
        )

    def _local_member(self, path: str, name: str, key: str, package: str) -> Binding | None:
        found = self._local_import(path, name, package)
        if found is None:
            return None
        imp, target = found
        if imp.names[name] not in ("default", "*") or not imp.specifier.startswith((".", "/")):
            return None
        return self._filled_member(target, key, package)

    def _filled_member(self, target: str, key: str, package: str) -> Binding | None:
        text = self._text(target)
        obj = jslocal.exported(text, "default")
        if obj is None or not re.fullmatch(r"[A-Za-z_$][\w$]*", obj):
            return None
        _, _, assigned, _ = self.js_facts(target)
        if f"{obj}.{key}" in assigned or re.search(
            rf"(?<![\w$.]){re.escape(obj)}\s*\.\s*{re.escape(key)}\s*=(?!=)", text
        ):
            return None  # written out: what it holds is read as any other member
        values = re.findall(
            rf"(?<![\w$.]){re.escape(obj)}\s*\[[^\]\n]{{1,80}}\]\s*=(?!=)\s*([A-Za-z_$][\w$]*)\s*[;\n]",
            text,
        )
        got = [self._js_binding(target, v, package, 1) for v in values]
        if got and all(g.kind in ("package", "local-package") for g in got):
            return Binding("local-package", key)
        return None

    def _js_origin_binding(self, path: str, origin: str, package: str, depth: int) -> Binding:
        """What a JavaScript assignment's origin makes a name: ``require('pkg')`` itself, what
        ``require('pkg')(…)`` made, or what its root name is bound to (at ``depth``)."""
        if origin.startswith("made:"):
            return _made(origin, package)
        if origin.startswith("require:"):
            return _required(origin, package)
        return self._origin(origin, lambda root: self._js_binding(path, root, package, depth))

    def js_this_field(self, path: str, field: str, package: str) -> Binding | None:
        """``this.codec`` where the module assigns ``this.codec = zk`` (the package) or
        ``this.client = createClient()`` (what it made), every assignment agreeing; None
        when no assignment of the field is the package's (found once per field: every use
        of it asks)."""
        return self._memo(
            self._fields, (path, field, package), lambda: self._this_field(path, field, package)
        )

    def js_service_member(self, path: str, field: str, member: str, package: str) -> Binding | None:
        """``this.alertService.swalCustom()`` where ``alertService`` is typed by a class of
        the checkout (``constructor(private alertService: AlertService)``) whose method
        ``swalCustom`` returns what the package made (``return sweet;`` with ``const sweet =
        swal.mixin(…)`` in that module): that value, one module on; None otherwise (found
        once per field and member)."""
        return self._memo(
            self._services,
            (path, field, member, package),
            lambda: self._service_member(path, field, member, package),
        )

    def _service_member(self, path: str, field: str, member: str, package: str) -> Binding | None:
        for cls in code_js.typed_field(self._text(path), field):
            found = self._local_import(path, cls, package)
            if found is None:
                continue
            imp, target = found
            declared = self._declaring(target, imp.names[cls])
            expr = returned_by(self._text(declared), imp.names[cls], member) if declared else None
            if declared is None or expr is None:
                continue
            target = declared
            if re.fullmatch(r"[A-Za-z_$][\w$]*", expr):
                got = self._js_binding(target, expr, package, 1)
            else:
                got = self._js_origin_binding(target, code_js.js_origin(expr), package, 1)
            if got.kind in ("package", "local-package"):
                return Binding("local-package", member)
        return None

    def _declaring(self, path: str, cls: str, depth: int = 0) -> str | None:
        """The file of the checkout that declares class ``cls``: ``path``, or a file a barrel
        (``export * from './alert.service'``) re-exports it from, three barrels deep."""
        try:
            text = self._text(path)
        except ToolError:
            return None
        if re.search(rf"\bclass\s+{re.escape(cls)}\b", text):
            return path
        if depth >= 3:
            return None
        for spec in jslocal.reexported_from(text, cls):
            for target in jslocal.candidates(path, spec):
                if (self.code.root / target).is_file():
                    found = self._declaring(target, cls, depth + 1)
                    if found is not None:
                        return found
        return None

    def _this_field(self, path: str, field: str, package: str) -> Binding | None:
        text = self._text(path)
        values = [
            m.group(1)
            for m in re.finditer(
                rf"(?<![\w$.])this\s*\.\s*{re.escape(field)}\s*=(?!=)\s*([^;\n]{{1,200}})", text
            )
        ] + code_js.field_values(text, field)  # `zk = require('zipkit');` in a class body
        if not values:  # `constructor(private readonly api: HttpClient)`: injected, typed
            typed = [
                self._js_binding(path, t, package, 1) for t in code_js.typed_field(text, field)
            ]
            return (
                Binding("local-package", field) if any(t.kind == "package" for t in typed) else None
            )
        got = []
        for value in values:
            value = value.strip()
            if re.fullmatch(r"[A-Za-z_$][\w$]*", value):
                got.append(self._js_binding(path, value, package, 1))
            else:
                got.append(self._js_origin_binding(path, code_js.js_origin(value), package, 1))
        if all(g.kind == got[0].kind == "package" for g in got):
            return got[0]
        if all(g.kind in ("package", "local-package") for g in got):
            return Binding("local-package", field)
        if all(g.kind == "foreign" for g in got):  # `zk = require('fastzip')`: another's
            return Binding("foreign")
        return None

    def _param_binding(self, path: str, name: str, package: str, depth: int) -> Binding:
        """A parameter is the package when a call of its function in this module passes it
        (``unpack(require('pkg'), b)``, ``unpack(lib, b)`` with ``lib`` the package)."""
        if depth >= 3:
            return Binding("param")
        for arg in code_js.passed_as(self._text(path), name):
            whole = BARE_REQUIRE.fullmatch(arg)
            if whole is not None and (
                whole.group(2) == package or whole.group(2).startswith(package + "/")
            ):
                return Binding("package", whole.group(2))
            if re.fullmatch(r"[A-Za-z_$][\w$]*", arg) and arg != name:
                got = self._js_binding(path, arg, package, depth + 1)
                if got.kind == "package":
                    return got
        return Binding("param")

    def _callback_param(self, path: str, name: str, package: str, depth: int) -> Binding | None:
        """A parameter of callbacks passed to methods of the package's objects only
        (``wss.on('connection', (ws) => …)`` with ``wss`` what the package made): what the
        package gives them, its object; None when any callback declaring it is passed
        elsewhere, or to nothing."""
        if depth >= 3:
            return None
        return self._memo(
            self._callbacks,
            (path, name, package, depth),
            lambda: self._callback_binding(path, name, package, depth),
        )

    def _callback_binding(self, path: str, name: str, package: str, depth: int) -> Binding | None:
        receivers = code_js.callback_receivers(self._text(path), name)
        if not receivers or "?" in receivers:
            return None
        for receiver in dict.fromkeys(receivers):
            root = receiver.split(".")[0]
            if root == name:
                return None
            got = self._js_binding(path, root, package, depth + 1)
            if got.kind not in ("package", "local-package"):
                return None
        return Binding("local-package", name)

    def _js_through_local(self, path: str, name: str, package: str, depth: int) -> Binding | None:
        """``const User = require('../models/user')`` where that module exported a value the
        package made (``module.exports = db.model(…)``): the package's object, one module on."""
        if depth >= 3:
            return None
        found = self._local_import(path, name, package)
        if found is None:
            return None
        imp, target = found
        return self._js_exported(target, imp.names[name], package, depth + 1)

    def _local_import(self, path: str, name: str, package: str) -> tuple[JsImport, str] | None:
        """The import that binds ``name`` in ``path`` to a file of the checkout (a relative
        path, a ``tsconfig`` alias, a module root), with that file; None otherwise."""
        for imp in js_imports(self._text(path), path=path):
            if name not in imp.names or imp.package.lower() == package.lower():
                continue
            bare = not imp.specifier.startswith((".", "/"))  # `@/x` is no package name either
            for target in self._local_targets(path, imp.specifier, bare):
                if (self.code.root / target).is_file():
                    return imp, target
        return None

    def _local_targets(self, path: str, specifier: str, bare: bool) -> list[str]:
        """The checkout files an import may load: a relative path, or a bare specifier that a
        ``tsconfig.json`` / ``jsconfig.json`` alias maps into the checkout (``@/net/client``)."""
        if not bare:
            return jslocal.candidates(path, specifier)
        config = jsaliases.nearest(self.js_aliases(), path)
        aliased = jsaliases.candidates(config, specifier) if config is not None else []
        if aliased or self._declared_dependency(path, specifier):
            return aliased
        return jslocal.rooted(self.js_files(), specifier)  # a module root of the project's

    def _declared_dependency(self, path: str, specifier: str) -> bool:
        """Whether the nearest package.json declares the package a bare specifier names."""
        manifest = self.code.nearest_package_json(path)
        if manifest is None:
            return False
        declared = self._declared(manifest)
        return declared is None or _owner(specifier) in declared  # unreadable: a package

    def _declared(self, manifest: str) -> frozenset[str] | None:
        """The packages a package.json declares, in any dependency section (read once);
        None when it cannot be read."""
        with self._lock:
            if manifest in self._manifests:
                return self._manifests[manifest]
        try:
            data = json.loads(self._text(manifest))
        except (ToolError, ValueError):
            data = None
        sections = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")
        declared = (
            frozenset(n for k in sections if isinstance(data.get(k), dict) for n in data[k])
            if isinstance(data, dict)
            else None
        )
        with self._lock:
            self._manifests[manifest] = declared
        return declared

    def js_files(self) -> frozenset[str]:
        """The checkout's JavaScript and TypeScript files in scope (listed once)."""
        with self._lock:
            if self._jsfiles is not None:
                return self._jsfiles
        found = frozenset(self.code.files(ecosystems.get(NPM.name).source_globs))
        with self._lock:
            self._jsfiles = found
        return found

    def js_aliases(self) -> list[jsaliases.Aliases]:
        """The module aliases of every tsconfig/jsconfig of the checkout (read once)."""
        with self._lock:
            if self._aliases is not None:
                return self._aliases
        found = []
        for rel in self.code.files(jsaliases.CONFIG_NAMES):
            try:
                got = jsaliases.read(rel, self._text(rel))
            except ToolError:
                continue
            if got is not None:
                found.append(got)
        with self._lock:
            self._aliases = found
        return found

    def _js_exported(self, path: str, imported: str, package: str, depth: int) -> Binding | None:
        try:
            text = self._text(path)
        except ToolError:
            return None
        expr = jslocal.exported(text, imported)
        if expr is None and imported not in ("default", "*"):  # a barrel: export * from 'pkg'
            for spec in jslocal.star_sources(text):
                if spec == package or spec.startswith(package + "/"):
                    return Binding("package", f"{spec}.{imported}")
        if expr is None:
            return None
        whole = BARE_REQUIRE.fullmatch(expr)  # `module.exports = require('pkg')`: a re-export
        if whole is not None:
            spec = whole.group(2)
            if spec == package or spec.startswith(package + "/"):
                return Binding("package", spec)
            return None
        if re.fullmatch(r"[A-Za-z_$][\w$]*", expr):
            got = self._js_binding(path, expr, package, depth)
        else:
            resolve = lambda root: self._js_binding(path, root, package, depth)  # noqa: E731
            got = self._origin(code_js.js_origin(expr), resolve)
        return got if got.kind in ("package", "local-package") else None

    def js_foreign(self, path: str) -> set[str]:
        """Names a JS file binds to modules (any package or file) by import/require."""
        key = "foreign:" + path
        with self._lock:
            cached = self._foreign.get(key)
        if cached is not None:
            return cached
        names = {
            local
            for imp in js_imports(self._text(path), path=path)
            if imp.package  # relative requires are the project's own files, not another package
            for local in imp.names
            if local != "*"
        }
        with self._lock:
            self._foreign[key] = names
        return names


def _owner(spec: str) -> str:
    """The package a bare module specifier names (``@s/n/sub`` → ``@s/n``, ``n/sub`` → ``n``)."""
    return "/".join(spec.split("/")[:2]) if spec.startswith("@") else spec.split("/")[0]


def _of_spec(spec: str, package: str, mine: Binding) -> Binding:
    """``mine`` when the specifier names ``package``, another package's otherwise; the
    project's own module (``./models``) is not known from here."""
    if spec.startswith((".", "/")):
        return Binding("unknown")
    return mine if _owner(spec) == package else Binding("foreign")


def _required(origin: str, package: str) -> Binding:
    """``require('pkg')`` held in a value (``{ zk: require('pkg') }``): the package itself."""
    spec = origin.partition(":")[2]
    return _of_spec(spec, package, Binding("package", spec))


def _made(origin: str, package: str) -> Binding:
    """``require('pkg')(…)`` / ``require('pkg').make()``: an object the package made."""
    spec = origin.partition(":")[2]
    return _of_spec(spec, package, Binding("local-package", _owner(spec)))
