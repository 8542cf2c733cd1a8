"""``search_symbol``: find the uses of a package's API that a breaking change affects.

ripgrep finds the lines that mention the name; each line is then read the way a reviewer
would: is it code (not a comment or string)? what is the receiver (``np`` bound to
numpy, ``frames`` bound to a list, ``req`` a handler parameter)? is the call shaped the
way the change breaks (no ``Loader=``, two positional arguments, ...)? Every hit comes
back with its evidence (``strong`` or ``weak``) and why; lines set aside are counted by
reason, so the model can see what was checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from depbot import ecosystems
from depbot.core.errors import ToolError
from depbot.records.api import UsedName
from depbot.search.code import CodeSearch
from depbot.search.import_sites import ImportReport, ImportSite
from depbot.search.imports import js_imports
from depbot.search.jsimports import JsImport
from depbot.symbols import jslocal
from depbot.symbols.bare_types import bare_type_uses
from depbot.symbols.callbacks import callback_calls
from depbot.symbols.commands import command_uses
from depbot.symbols.config import config_file_uses
from depbot.symbols.facts import SymbolHit, SymbolQuery, SymbolResult
from depbot.symbols.floors import floor_uses
from depbot.symbols.holders import held, reads
from depbot.symbols.jsbind import BARE_REQUIRE, JsBindings
from depbot.symbols.jsexported import bound, exported_made
from depbot.symbols.loaded import Loaded, weakened
from depbot.symbols.match import Matcher
from depbot.symbols.optional import optional_uses
from depbot.symbols.options import outside_options
from depbot.symbols.pybind import PyBindings
from depbot.symbols.required import required_uses
from depbot.symbols.returned import returned_member_uses
from depbot.symbols.shims import shim_reason
from depbot.symbols.used import (
    js_used,
    line_col,
    line_of,
    made_by,
    python_used,
    workflow_used,
)
from depbot.symbols.values import string_value_uses
from depbot.symbols.workflow import script_uses


class SymbolSearch(PyBindings, JsBindings):
    """Symbol searches over one checkout, sharing the ``CodeSearch`` caches. What a name is
    bound to is read by ``pybind`` and ``jsbind``; this class finds the uses."""

    def __init__(self, code: CodeSearch) -> None:
        super().__init__(code)
        self._loaded = Loaded(code)

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
        sites += self._through_exports(rep)
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
        """The package's module object, or a value it made, handed to a function of another
        module of the checkout (``setup(server, lib)`` with ``const setup = require('./setup')``
        and ``module.exports = function (server, lib) {``; ``init(client)`` with ``const client
        = lib.create(…)``): that parameter is an import of the package there, of the module or
        of what ``create()`` made (TAPIR's values followed through calls, one module on)."""
        out: list[ImportSite] = []
        for site in sites:
            whole = [(k, v) for k, v in site.names.items() if v in ("*", "default")]
            if site.type_only or not whole or not re.fullmatch(r"[A-Za-z_$][\w$]*", whole[0][0]):
                continue
            text = self._text(site.path)
            values = [whole[0], *made_by(text, whole[0][0])]
            for local, imported in values:
                for callee, position in jslocal.passed_to(text, local)[:20]:
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
                    row = body.splitlines()[line - 1].strip()
                    out.append(ImportSite(found[1], line, col, row, site.module, site.package,
                                          site.subpath, {param[0]: imported}, site.style,
                                          site.esm, False))  # fmt: skip
        return out

    def _through_exports(self, rep: ImportReport) -> list[ImportSite]:
        """A value the package made that an importing module exports (``export const Rules =
        struct(…)``, ``module.exports = new I18n(…)``; ``symbols.jsexported``): each import
        of that export in another module of the checkout (a relative path, a ``tsconfig``
        alias) is an import of what the package made there, one module on."""
        out: list[ImportSite] = []
        globs = ecosystems.get(rep.ecosystem).source_globs
        for site in rep.sites:
            if site.type_only:
                continue
            text = self._text(site.path)
            made = [
                pair
                for local, imported in site.names.items()
                if re.fullmatch(r"[A-Za-z_$][\w$]*", local)
                for pair in exported_made(text, local, imported)
            ]
            if not made:
                continue
            for importer, imp in self._importers_of(site.path, globs):
                names: dict[str, str] = {}
                for export, value in made:
                    names.update(bound(export, value, imp.names))
                if names:
                    out.append(self._imported_at(importer, imp, site, names))
        return out

    def _imported_at(
        self, importer: str, imp: JsImport, site: ImportSite, names: dict[str, str]
    ) -> ImportSite:
        """The import ``imp`` of ``importer`` (of a module of the checkout) as an import of
        ``site``'s package there, binding ``names``."""
        row = line_of(self.code.read_lines(importer), imp.line)
        return ImportSite(importer, imp.line, imp.col, row, site.module, site.package,
                          site.subpath, names, imp.style, site.esm, False, imp.type_only)  # fmt: skip

    def _importers_of(self, path: str, globs: Iterable[str]) -> list[tuple[str, JsImport]]:
        """The imports, in other files of the checkout, that load the module ``path`` (found
        by its file name, or its folder's for an ``index``)."""
        parts = path.split("/")
        stem = parts[-1].split(".")[0]
        if stem == "index" and len(parts) > 1:  # `./lib` loads lib/index.js
            stem = parts[-2]
        out = []
        for importer in self.code.files_containing(re.escape(stem), globs)[:200]:
            if importer == path:
                continue
            for imp in js_imports(self._text(importer), path=importer):
                bare = not imp.specifier.startswith((".", "/"))
                if not imp.package and path in self._local_targets(importer, imp.specifier, bare):
                    out.append((importer, imp))
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
                and bool(BARE_REQUIRE.fullmatch(site.text.split("=", 1)[-1].strip()))
            )
            if not (star or whole):
                continue
            barrel = self._text(site.path)
            globs = ecosystems.get(rep.ecosystem).source_globs
            for importer, imp in self._importers_of(site.path, globs):
                names = dict(imp.names)
                if star:  # the names the barrel declares itself are its own
                    names = {
                        k: v for k, v in names.items()
                        if v not in ("*", "default") and jslocal.exported(barrel, v) is None
                    }  # fmt: skip
                    if not names:
                        continue
                out.append(self._imported_at(importer, imp, site, names))
        return out

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
                              self.report(ecosystem, symbol), self.report(ecosystem, package))  # fmt: skip
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
            if site.style == "path":  # its fate is whether the new release ships that file
                skip("a file loaded by its path")
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
