"""``search_symbol``: find the uses of a package's API that a breaking change affects.

ripgrep finds the lines that mention the name; each line is then read the way a reviewer
would: is it code (not a comment or string)? what is the receiver (``np`` bound to
numpy, ``frames`` bound to a list, ``req`` a handler parameter)? is the call shaped the
way the change breaks (no ``Loader=``, two positional arguments, ...)? Every hit comes
back with its evidence (``strong`` or ``weak``) and why; lines set aside are counted by
reason, so the model can see what was checked.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import replace
from typing import Any

from depbot import ecosystems
from depbot.core.errors import ToolError
from depbot.ecosystems.npm import NPM
from depbot.records.api import UsedName
from depbot.search.code import CodeSearch
from depbot.search.import_sites import PY_GLOBS, ImportReport, ImportSite, where_imported
from depbot.search.imports import js_imports
from depbot.search.jsimports import JsImport
from depbot.symbols import javascript as code_js
from depbot.symbols import jsaliases, jslocal
from depbot.symbols import python as code_py
from depbot.symbols.bare_types import bare_type_uses
from depbot.symbols.callbacks import callback_calls
from depbot.symbols.commands import command_uses
from depbot.symbols.config import config_file_uses
from depbot.symbols.facts import Binding, SymbolHit, SymbolQuery, SymbolResult, merge
from depbot.symbols.floors import floor_uses
from depbot.symbols.holders import held, reads
from depbot.symbols.loaded import Loaded, weakened
from depbot.symbols.match import Matcher
from depbot.symbols.optional import optional_uses
from depbot.symbols.options import outside_options
from depbot.symbols.required import required_uses
from depbot.symbols.returned import returned_member_uses
from depbot.symbols.shims import shim_reason
from depbot.symbols.used import js_used, line_col, line_of, python_used, workflow_used
from depbot.symbols.values import string_value_uses
from depbot.symbols.workflow import script_uses

_PY_HOPS = 5  # modules and assignments followed from a Python name to what made it
MAX_CALLERS = 200  # files read for the calls of a function whose parameter is followed

_BARE_REQUIRE = re.compile(r"""require\s*\(\s*(['"])([^'"\s]+)\1\s*\)\s*;?""")


class SymbolSearch:
    """Symbol searches over one checkout, sharing the ``CodeSearch`` caches."""

    def __init__(self, code: CodeSearch) -> None:
        self.code = code
        self._lock = threading.Lock()
        self._reports: dict[tuple[str, str], ImportReport] = {}
        self._py: dict[str, code_py.PyFacts] = {}
        self._js: dict[str, tuple[str, list[int], dict[str, list[str]], set[str]]] = {}
        self._foreign: dict[str, set[str]] = {}
        self._local: set[str] | None = None
        self._pyfiles: frozenset[str] | None = None
        self._jsfiles: frozenset[str] | None = None
        self._callers: dict[tuple[str, str], list[tuple[str, code_py.PyFacts, str]]] = {}
        self._manifests: dict[str, frozenset[str] | None] = {}
        self._annotated: dict[tuple[str, str], list[str]] = {}
        self._classes: dict[str, frozenset[str]] = {}
        self._fields: dict[tuple[str, str, str], Binding | None] = {}
        self._members: dict[tuple[str, str, str, str], Binding | None] = {}
        self._callbacks: dict[tuple[str, str, str, int], Binding | None] = {}
        self._aliases: list[jsaliases.Aliases] | None = None
        self._loaded = Loaded(code)

    # -- shared lookups -------------------------------------------------------------------

    def import_names(self, ecosystem: str, package: str) -> list[str]:
        return ecosystems.get(ecosystem).import_names(package)

    def report(self, ecosystem: str, package: str) -> ImportReport:
        key = (ecosystem, package.lower())
        with self._lock:
            if key in self._reports:
                return self._reports[key]
        rep = where_imported(self.code, ecosystem, package)
        with self._lock:
            self._reports[key] = rep
        return rep

    def _text(self, path: str) -> str:
        return "\n".join(self.code.read_lines(path))

    def py_facts(self, path: str) -> code_py.PyFacts:
        with self._lock:
            if path in self._py:
                return self._py[path]
        facts = code_py.analyze(self._text(path))
        with self._lock:
            self._py[path] = facts
        return facts

    def used_names(self, ecosystem: str, package: str) -> list[UsedName]:
        """The names the checkout takes from ``package`` (``symbols.used``)."""
        rep = self.report(ecosystem, package)
        if ecosystems.get(ecosystem).language == "github-workflow":
            return workflow_used(rep)
        if ecosystems.get(ecosystem).language == "python":
            texts = {p: self._text(p) for p in rep.files}
            return python_used(rep, {p: self.py_facts(p) for p in rep.files}, texts)
        sites = rep.sites + self._through_reexports(rep, package)
        sites += self._through_arguments(rep.sites)
        files = sorted({s.path for s in sites})
        used = js_used(replace(rep, sites=sites, files=files), {p: self._text(p) for p in files})
        known = {u.name for u in used}
        return used + [u for u in self._through_holders(rep, package) if u.name not in known]

    def _through_holders(self, rep: ImportReport, package: str) -> list[UsedName]:
        """The members read, in other modules, of what a class of an importing module holds
        from the package (``symbols.holders``): ``pkg:new PubSub().asyncIterator`` at
        ``this.pubsubService.pubsub.asyncIterator(…)``."""
        out: dict[str, UsedName] = {}
        globs = ecosystems.get(rep.ecosystem).source_globs
        for site in rep.sites:
            makers = {local: f"{site.module}:new {imported}" for local, imported in site.names.items()
                      if imported not in ("*", "default") and local[:1].isupper()}  # fmt: skip
            if site.type_only or not makers:
                continue
            holds: dict[str, list[tuple[str, str]]] = {}  # class → (member, maker)
            for (cls, member), maker in held(self._text(site.path), makers).items():
                holds.setdefault(cls, []).append((member, maker))
            for cls, members in holds.items():
                for consumer in self.code.files_containing(rf"\b{re.escape(cls)}\b", globs)[:100]:
                    bound = (
                        self._local_import(consumer, cls, package)
                        if consumer != site.path
                        else None
                    )
                    if bound is None or bound[1] != site.path:
                        continue
                    text = self._text(consumer)
                    for member, maker in members:
                        for at, name in reads(text, cls, member):
                            line, col = line_col(text, at)
                            used = f"{maker}().{name}"
                            if used not in out:
                                row = line_of(text.splitlines(), line)
                                out[used] = UsedName(used, consumer, line, "member", col, row)
        return list(out.values())

    def _through_arguments(self, sites: list[ImportSite]) -> list[ImportSite]:
        """The package's module object handed to a function of another module of the
        checkout (``setup(server, lib)`` with ``const setup = require('./setup')`` and
        ``module.exports = function (server, lib) {``): that parameter is an import of the
        package there (TAPIR's values followed through calls, one module on)."""
        out: list[ImportSite] = []
        for site in sites:
            whole = [(k, v) for k, v in site.names.items() if v in ("*", "default")]
            if site.type_only or not whole or not re.fullmatch(r"[A-Za-z_$][\w$]*", whole[0][0]):
                continue
            local, imported = whole[0]
            for callee, position in jslocal.passed_to(self._text(site.path), local)[:20]:
                found = self._local_import(site.path, callee, site.package)
                if found is None or not found[0].specifier.startswith("."):
                    continue  # (a relative module: what `candidates` reaches)
                if found[0].names[callee] not in ("*", "default"):
                    continue
                body = self._text(found[1])
                param = jslocal.parameter(body, position)
                if param is None:
                    continue
                line, col = line_col(body, param[1])
                text = body.splitlines()[line - 1].strip()
                out.append(ImportSite(found[1], line, col, text, site.module, site.package,
                                      site.subpath, {param[0]: imported}, site.style, site.esm,
                                      False))  # fmt: skip
        return out

    def _through_reexports(self, rep: ImportReport, package: str) -> list[ImportSite]:
        """The imports of a local module that re-exports the package whole (``module.exports
        = require('pkg')``, ``export * from 'pkg'``: the names it does not declare itself), as
        imports of the package: their names are the package's."""
        out: list[ImportSite] = []
        for site in rep.sites:
            star = site.style == "export-from" and site.names == {"*": "*"}  # export * from 'pkg'
            whole = (
                site.style == "require"
                and not site.names
                and site.text.startswith("module.exports")
                and bool(_BARE_REQUIRE.fullmatch(site.text.split("=", 1)[-1].strip()))
            )
            if not (star or whole):
                continue
            barrel = self._text(site.path)
            parts = site.path.split("/")
            stem = parts[-1].split(".")[0]
            if stem == "index" and len(parts) > 1:  # `./lib` loads lib/index.js
                stem = parts[-2]
            globs = ecosystems.get(rep.ecosystem).source_globs
            for importer in self.code.files_containing(re.escape(stem), globs)[:200]:
                if importer == site.path:
                    continue
                for imp in js_imports(self._text(importer), path=importer):
                    if imp.package or site.path not in jslocal.candidates(importer, imp.specifier):
                        continue
                    names = dict(imp.names)
                    if star:  # the names the barrel declares itself are its own
                        names = {
                            k: v for k, v in names.items()
                            if v not in ("*", "default") and jslocal.exported(barrel, v) is None
                        }  # fmt: skip
                        if not names:
                            continue
                    lines = self.code.read_lines(importer)
                    text = lines[imp.line - 1].strip() if 0 < imp.line <= len(lines) else ""
                    out.append(ImportSite(importer, imp.line, imp.col, text, site.module,
                                          site.package, site.subpath, names, imp.style,
                                          site.esm, False, imp.type_only))  # fmt: skip
        return out

    def js_facts(self, path: str) -> tuple[str, list[int], dict[str, list[str]], set[str]]:
        with self._lock:
            if path in self._js:
                return self._js[path]
        text = self._text(path)
        assigned, params = code_js.assignments(text)
        value = (text, code_js.offsets(text), assigned, params)
        with self._lock:
            self._js[path] = value
        return value

    # -- binding resolution -----------------------------------------------------------------

    def _py_binding(
        self,
        facts: code_py.PyFacts,
        name: str,
        roots: tuple[str, ...],
        depth: int = 0,
        path: str = "",
    ) -> Binding:
        if name in facts.imports:
            target = facts.imports[name]
            if any(target == r or target.startswith(r + ".") for r in roots):
                return Binding("package", target)
            hop = self._through_local(target, path, roots, depth) if path else None
            if hop is not None:
                return hop
            if target.startswith(".") or target.split(".", 1)[0] in self.local_modules():
                return Binding("local-import", target)  # the project's own module: type unknown
            return Binding("foreign", target)
        origins = facts.assigned.get(name, [])
        if origins and depth < _PY_HOPS + 1:
            return merge(
                [
                    self._origin(
                        o, lambda root: self._py_binding(facts, root, roots, depth + 1, path)
                    )
                    for o in origins
                ]
            )
        if name in facts.params:
            return self._py_param_binding(facts, name, roots, depth, path)
        return Binding("unknown")

    def _py_param_binding(
        self, facts: code_py.PyFacts, name: str, roots: tuple[str, ...], depth: int, path: str
    ) -> Binding:
        """A parameter is what the package made when a call of its function passes such a
        value: ``parse_args_with(NewItemSchema())`` in another module, ``NewItemSchema`` a
        subclass of the package's class, makes ``schema`` in ``def parse_args_with(schema)``
        the package's object (the calls of this module and of the modules that import the
        function by name; at most ``MAX_CALLERS`` files, 3 hops)."""
        funcs = facts.param_of.get(name, [])
        if depth >= 3 or not path or len({f for f, _ in funcs}) != 1:
            return Binding("param")  # no function, or several sharing the name: not known which
        func, index = funcs[0]
        got = []
        for caller, cfacts, local in self._py_callers(path, facts, func):
            for use in cfacts.uses.get(local, []):
                if use.call is None or use.chain != (local,):
                    continue
                shape, origin = use.call, dict(use.call.keyword_origins).get(name)
                if origin is None and 0 <= index < len(shape.arg_origins):
                    origin = shape.arg_origins[index]
                if origin is None:
                    continue
                resolve = lambda root, c=cfacts, f=caller: self._py_binding(  # noqa: E731
                    c, root, roots, depth + 1, f
                )
                got.append(self._origin(origin, resolve))
        made = next((b for b in got if b.kind in ("package", "local-package")), None)
        return Binding("local-package", made.path.rsplit(".", 1)[-1]) if made else Binding("param")

    def _py_callers(
        self, path: str, facts: code_py.PyFacts, func: str
    ) -> list[tuple[str, code_py.PyFacts, str]]:
        """(file, its facts, the name it calls ``func`` by) of this file and of each file that
        imports ``func`` from it (found once per function: every parameter of it asks)."""
        with self._lock:
            if (path, func) in self._callers:
                return self._callers[(path, func)]
        out = self._find_callers(path, facts, func)
        with self._lock:
            self._callers[(path, func)] = out
        return out

    def _find_callers(
        self, path: str, facts: code_py.PyFacts, func: str
    ) -> list[tuple[str, code_py.PyFacts, str]]:
        out = [(path, facts, func)]
        try:
            files = self.code.files_containing(rf"\b{re.escape(func)}\b", PY_GLOBS)
        except ToolError:
            return out
        for file in files[:MAX_CALLERS]:
            if file == path:
                continue
            try:
                other = self.py_facts(file)
            except ToolError:
                continue
            for local, target in other.imports.items():
                if target.rsplit(".", 1)[-1] != func:
                    continue
                found = self.local_module_file(target, file)
                if found is not None and found[0] == path:
                    out.append((file, other, local))
        return out

    def reaches_package(self, path: str, roots: tuple[str, ...]) -> bool:
        """Whether a Python file takes a name that leads to the package: it imports the
        package, or a name of the project's own modules the package made (``from app
        import db`` where ``app`` made ``db`` from it), so an untyped receiver there may be
        the package's object."""
        if not path.endswith((".py", ".pyi")):
            return False
        try:
            facts = self.py_facts(path)
        except ToolError:
            return False
        return any(
            self._py_binding(facts, name, roots, 0, path).kind in ("package", "local-package")
            for name in facts.imports
        )

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

    def local_module_file(self, target: str, path: str) -> tuple[str, str] | None:
        """(file, name in it) of ``from mod import name`` when ``mod`` is a module of the
        checkout: beside the importing file (a script's folder is on ``sys.path``), relative
        (``.mod``), from the checkout's root (``src/`` too), or from a folder above the
        importing file (an application kept in ``final/`` imports ``catalog.utils``)."""
        module, _, member = target.rpartition(".")
        if not module or not member:
            return None
        here = path.rsplit("/", 1)[0] if "/" in path else ""
        level = len(module) - len(module.lstrip("."))
        parts = [p for p in module.lstrip(".").split(".") if p]
        if level:
            base = here.split("/") if here else []
            base = base[: len(base) - (level - 1)] if level > 1 else base
            bases = ["/".join(base)]
        else:  # beside it, the checkout's root, src/, or a folder above it (an app in final/)
            ups = here.split("/") if here else []
            bases = [here, "", "src", *("/".join(ups[:i]) for i in range(len(ups) - 1, 0, -1))]
        for base in dict.fromkeys(bases):
            stem = "/".join([*([base] if base else []), *parts])
            for candidate in (f"{stem}.py", f"{stem}/__init__.py"):
                if candidate != path and candidate in self.py_files():
                    return candidate, member
        return None

    def _through_local(
        self, target: str, path: str, roots: tuple[str, ...], depth: int
    ) -> Binding | None:
        """``from app import app`` where the checkout's ``app.py`` made ``app`` from the
        package (``app = Flask(__name__)``): the package's object, one module away."""
        if depth >= _PY_HOPS:
            return None
        found = self.local_module_file(target, path)
        if found is None:
            return None
        file, member = found
        try:
            facts = self.py_facts(file)
        except ToolError:
            return None
        got = self._py_binding(facts, member, roots, depth + 1, file)
        return got if got.kind in ("package", "local-package") else None

    @staticmethod
    def _origin(origin: str, resolve: Any) -> Binding:
        """What an assignment's right-hand side makes a name: a plain value, the package's object, ..."""
        if origin.startswith("literal:"):
            return Binding("builtin")
        if origin.startswith("member:"):  # `const { fn } = lib`: the package's own member
            chain = origin.partition(":")[2].split(".")
            inner = resolve(chain[0])
            if inner.kind == "package":
                return Binding("package", ".".join([inner.path, *chain[1:]]))
            if inner.kind == "local-package":
                return Binding("local-package", chain[-1])
            return Binding("foreign") if inner.kind == "foreign" else Binding("unknown")
        if origin.startswith(("chain:", "class:")):  # a value made from, or a class based on
            parts = [p for p in re.split(r"[.()\[\]]+", origin.partition(":")[2]) if p]
            inner = resolve(parts[0]) if parts else Binding("unknown")
            if inner.kind in ("package", "local-package"):
                return Binding("local-package", parts[-1])
            if inner.kind == "foreign":  # `const app = express()`: another package's object
                return Binding("foreign")
        return Binding("unknown")

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

    def _memo(self, table: dict, key: tuple, compute: Any) -> Any:
        """``table[key]``, computed once (the lookups every hit of a name asks again)."""
        with self._lock:
            if key in table:
                return table[key]
        got = compute()
        with self._lock:
            table[key] = got
        return got

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
            whole = _BARE_REQUIRE.fullmatch(arg)
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
        whole = _BARE_REQUIRE.fullmatch(expr)  # `module.exports = require('pkg')`: a re-export
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

    def py_files(self) -> frozenset[str]:
        """The checkout's Python files in scope (listed once)."""
        with self._lock:
            if self._pyfiles is not None:
                return self._pyfiles
        found = frozenset(self.code.files(PY_GLOBS))
        with self._lock:
            self._pyfiles = found
        return found

    def local_modules(self) -> set[str]:
        """Top-level Python modules and packages of the checkout itself (``src/`` layout too)."""
        with self._lock:
            if self._local is not None:
                return self._local
        names: set[str] = set()
        for rel in self.code.files(PY_GLOBS):
            parts = rel.split("/")
            if parts[0] == "src" and len(parts) > 1:
                parts = parts[1:]
            names.add(parts[0][:-3] if parts[0].endswith(".py") else parts[0])
        with self._lock:
            self._local = names
        return names

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

    # -- the search -----------------------------------------------------------------------------

    def search(self, query: SymbolQuery) -> SymbolResult:
        """The uses of ``query``; in JavaScript, a use in a file nothing in the checkout loads
        is weak (``symbols.loaded``): it may never run."""
        result = self._search(query)
        if ecosystems.get(query.ecosystem).language != "javascript":
            return result
        hits, weak = weakened(result.hits, self._loaded.unloaded)
        if not weak:
            return result
        note = f"{result.note}; {weak} of them in files nothing in this checkout loads (weak)"
        return replace(result, hits=hits, note=note)

    def unloaded(self, path: str) -> str | None:
        """Why nothing in the checkout may load ``path`` (``symbols.loaded``), or None."""
        return self._loaded.unloaded(path)

    def _search(self, query: SymbolQuery) -> SymbolResult:
        symbol = query.symbol.strip()
        if not symbol:
            raise ToolError("symbol is empty")
        ecosystem, package, kind = query.ecosystem, query.package, query.kind
        if kind == "config_file":
            names = (*self.import_names(ecosystem, package), package)
            return config_file_uses(self.code, symbol, names)
        if kind in ("module", "default_import", "subpath", "module_path"):
            return self._import_kind(ecosystem, package, symbol, kind, query.arg.strip())
        if kind == "returned_member":  # `q.remove` with `const q = useQuery(…)`
            return self._returned_member(ecosystem, package, symbol, query.arg.strip())
        if kind == "command":  # "Remove the `python -m pkg.serving` CLI": the lines that run it
            return command_uses(self.code, symbol)
        if kind == "string_value":  # "`horizontalBar` chart type was removed": the literals
            return string_value_uses(self.code, symbol)
        if kind == "other_package":  # "`@scope/hub` will no longer be published": its imports
            return self._other_package(ecosystem, package, symbol)
        if kind == "version_floor":  # "versions of `graphql` prior to 15.3.0": what is installed
            return floor_uses(self.code, ecosystem, package, symbol, query.arg.strip(),
                              self.report(ecosystem, symbol))  # fmt: skip
        if kind == "required_use":
            eco = ecosystems.get(ecosystem)
            return required_uses(
                self.code, self.report(ecosystem, package), package, symbol,
                tuple(eco.source_globs), eco.language == "javascript",
            )  # fmt: skip
        if kind == "bare_type":  # a generic type used with fewer type arguments than needed
            rep = self.report(ecosystem, package)
            return bare_type_uses(rep, package, symbol, query.arg.strip(), self._text)
        if kind == "side_effect_import":  # `import 'pkg'`: the root loaded for its effects
            return self._side_effect_imports(ecosystem, package)
        if kind == "options_given":  # the package's options reshaped: every option given it
            return outside_options(
                self.code, self.report(ecosystem, package), package, "any",
                tuple(ecosystems.get(ecosystem).source_globs), self._text,
            )  # fmt: skip
        if kind == "options_outside":  # what a closed options schema refuses now
            return outside_options(
                self.code, self.report(ecosystem, package), package, query.arg.strip(),
                tuple(ecosystems.get(ecosystem).source_globs), self._text,
            )  # fmt: skip
        if kind == "optional_dependency":
            return optional_uses(
                self.code, self.report(ecosystem, package), self.used_names(ecosystem, package),
                package, symbol, query.arg, ecosystems.get(ecosystem).is_manifest,
            )  # fmt: skip
        query = replace(query, symbol=symbol, of=query.of.strip(), arg=query.arg.strip())
        if kind == "callback_arg":
            return callback_calls(self, query)
        if ecosystems.get(ecosystem).language == "github-workflow":
            rep = self.report(ecosystem, package)
            return script_uses(rep, {p: self._text(p) for p in rep.files}, query)
        return Matcher(self, query).run()

    def _returned_member(
        self, ecosystem: str, package: str, maker: str, member: str
    ) -> SymbolResult:
        """The reads of ``member`` on what ``maker()`` returns (``symbols.returned``)."""
        ident = r"[A-Za-z_$][\w$]*"
        if not re.fullmatch(ident, maker) or not re.fullmatch(ident, member):
            raise ToolError("returned_member needs symbol: a function, arg: a member name")
        rep = self.report(ecosystem, package)
        texts = {p: self._text(p) for p in rep.files}
        return returned_member_uses(self.used_names(ecosystem, package), texts, maker, member)

    def _import_kind(
        self, ecosystem: str, package: str, symbol: str, kind: str, arg: str = ""
    ) -> SymbolResult:
        """The import sites a break of ``kind`` reaches; ``default_import`` with ``arg``
        ``new`` / ``call``: only where the module object is made with ``new`` / called
        without it (the release's module object is no constructor now / a class now)."""
        rep = self.report(ecosystem, package)
        hits: list[SymbolHit] = []
        excluded: dict[str, int] = {}

        def skip(reason: str) -> None:
            excluded[reason] = excluded.get(reason, 0) + 1

        for site in rep.sites:
            if site.type_only:
                skip("type-only import")
                continue
            why = ""
            if kind == "module":
                if ecosystems.get(ecosystem).language != "javascript":
                    continue
                if site.style == "config":
                    skip("named in a tool's config file")
                    continue
                if site.style == "require" and site.esm is not True:
                    why = f"require('{site.module}') in a CommonJS file"
                elif site.style == "require":
                    why = f"require('{site.module}') in an ES module file"
                elif site.compiled_require and not site.esm:
                    why = f"import of '{site.module}' that TypeScript compiles to require()"
                else:
                    skip("ES module import (unaffected)")
                    continue
            elif kind == "default_import" and arg in ("new", "call", "made", "made_required"):
                if (
                    arg == "made_required"
                    and site.style in ("import", "export-from")
                    and ("default" in site.names.values())
                ):
                    skip("a default import: the kept default export")
                    continue
                made = None if site.subpath else self._made(site, arg)
                if isinstance(made, SymbolHit):
                    hits.append(made)
                elif made:
                    skip(made)
                continue
            elif kind == "default_import":
                if site.subpath:
                    continue  # a deep import is not the package root's default export
                if "default" in site.names.values() and site.style in ("import", "export-from"):
                    why = f"default import of {site.module}"
                elif site.style == "require" and any(
                    v in ("*", "default") for v in site.names.values()
                ):
                    local = next(k for k, v in site.names.items() if v in ("*", "default"))
                    if self._called_directly(site.path, local):
                        why = (
                            f"calls the module itself ({local}(...)) from require('{site.module}')"
                        )
                    else:
                        skip("named members only")
                        continue
                else:
                    skip("named imports only")
                    continue
            elif kind == "subpath":
                spec = symbol.strip("'\"")
                if spec == package:  # "deep requires removed": any entry point below the root
                    if not site.module.startswith(spec + "/"):
                        continue
                    why = f"{site.style} of '{site.module}' (a deep import)"
                elif (
                    site.module == spec
                    or site.module in (f"{spec}.js", f"{spec}/index.js")
                    or site.module.startswith(spec + "/")
                ):
                    why = f"{site.style} of '{site.module}'"
                else:
                    continue
            elif kind == "module_path":
                mod = symbol
                if site.module == mod or site.module.startswith(mod + "."):
                    why = f"imports module {site.module}"
                elif any(f"{site.module}.{v}" == mod for v in site.names.values()):
                    why = f"imports {mod.rsplit('.', 1)[-1]} from {site.module}"
                else:
                    continue
            leaf = re.split(r"[./]", symbol.strip("'\""))[-1] or symbol
            shim = shim_reason(site.path, self._text(site.path), site.line, leaf)
            if shim:
                skip(shim)
                continue
            hits.append(SymbolHit(site.path, site.line, site.col, site.text, "code", "strong", why))
        hits.sort(key=lambda h: (h.path, h.line))
        note = (
            f"{len(hits)} import site(s) match"
            if hits
            else f"no import of {package} matches {symbol}"
        )
        return SymbolResult(symbol, kind, hits, len(hits), False, excluded, note)

    def _other_package(self, ecosystem: str, package: str, other: str) -> SymbolResult:
        """The imports of ``other``, a package the notes of ``package`` drop or stop
        publishing: each is a use to check (the code may have had it only through
        ``package``)."""
        try:
            rep = self.report(ecosystem, other)
        except ToolError:
            return SymbolResult(
                other, "other_package", [], 0, False, {}, f"{other} is no package name"
            )
        hits = [
            SymbolHit(s.path, s.line, s.col, s.text, "code", "strong",
                      f"imports {other}, which {package}'s notes say is dropped or no longer published")
            for s in rep.sites if not s.type_only
        ]  # fmt: skip
        note = f"{len(hits)} import(s) of {other}" if hits else f"no import of {other}"
        return SymbolResult(other, "other_package", hits, len(hits), False, {}, note)

    def _side_effect_imports(self, ecosystem: str, package: str) -> SymbolResult:
        """The imports of the package's root that bind nothing (``import 'pkg'``, a bare
        ``require('pkg')``): code that loads it only for what loading it did."""
        rep = self.report(ecosystem, package)
        hits = [
            SymbolHit(s.path, s.line, s.col, s.text, "code", "strong",
                      f"imports {package} only to load it (binds no name): what loading it did "
                      "has changed")
            for s in rep.sites
            if not s.type_only and not s.names and not s.subpath
            and s.style in ("import", "require")
        ]  # fmt: skip
        note = f"{len(hits)} import(s) of {package} that bind nothing"
        return SymbolResult(package, "side_effect_import", hits, len(hits), False, {}, note)

    def _made(self, site: ImportSite, how_made: str) -> SymbolHit | str:
        """Where the module object ``site`` binds is made with ``new`` (``how_made`` new),
        called without it (call) or either (made), as a hit; else why not (what ``excluded``
        counts)."""
        local = next((k for k, v in site.names.items() if v in ("*", "default")), "")
        if not local:
            return "named imports only"
        at = self._made_line(site.path, local, how_made)
        if at is None:
            return {"new": "never made with new", "call": "only made with new"}.get(
                how_made, "never called or made with new"
            )
        how = {"new": f"new {local}(...)", "call": f"{local}(...) without new"}.get(
            how_made, f"{local}(...)"
        )
        why = f"{how}: {local} is the module object of {site.module}"
        return SymbolHit(site.path, at[0], 0, at[1], "code", "strong", why)

    def _made_line(self, path: str, local: str, how_made: str) -> tuple[int, str] | None:
        """The first line (1-based, with its text) where ``local`` is made with ``new`` (or
        extended by a class), called without it, or either (``how_made``: new, call, made),
        outside comments."""
        name = re.escape(local)
        extends = rf"\bextends\s+{name}(?![\w$.])"  # a subclass is made from it too
        pattern = {
            "new": rf"\bnew\s+{name}\s*\(|{extends}",
            "call": rf"(?<![\w$.])(?<!new\s){name}\s*\(",
        }.get(how_made, rf"(?<![\w$.]){name}\s*\(|{extends}")
        for number, line in enumerate(self.code.read_lines(path), 1):
            code = line.split("//", 1)[0]
            if code.lstrip().startswith(("*", "/*")):
                continue
            if re.search(pattern, code):
                return number, line.strip()
        return None

    def _called_directly(self, path: str, local: str) -> bool:
        """Whether ``local(...)`` is called as a function somewhere in the file."""
        return re.search(rf"(?<![\w$.]){re.escape(local)}\s*\(", self._text(path)) is not None


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


__all__ = ["SymbolHit", "SymbolResult", "SymbolSearch"]
