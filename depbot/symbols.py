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
import threading
from dataclasses import dataclass, field
from typing import Any

from . import code_js, code_py
from .code_py import CallShape
from .errors import ToolError
from .imports import js_imports
from .pipnames import import_names_for
from .search import CodeSearch, ImportReport

PY_GLOBS = ("*.py", "*.pyi")
JS_GLOBS = (
    "*.js",
    "*.cjs",
    "*.mjs",
    "*.jsx",
    "*.ts",
    "*.cts",
    "*.mts",
    "*.tsx",
    "*.vue",
    "*.svelte",
)
CONFIG_GLOBS = (
    "*.json", "*.yml", "*.yaml", "*.toml", "*.ini", "*.cfg", "*.conf", ".*rc", "*.env.example",
    ".flaskenv", "Dockerfile", "*.properties",
)  # fmt: skip
SCAN_LIMIT = 2000  # lines read per search
_GENERIC = frozenset(
    "append pop push get set add remove delete clear copy update keys values items index count sort "
    "insert extend find join split replace format strip map filter send json text data body status "
    "type name value id key run start stop close open read write load dump call apply emit on off "
    "param params query render redirect end size length next then catch log info warn error debug "
    "env top mode default".split()
)


@dataclass(frozen=True)
class SymbolHit:
    path: str
    line: int
    col: int
    text: str
    context: str
    evidence: str  # strong | weak
    why: str


@dataclass
class SymbolResult:
    symbol: str
    kind: str
    hits: list[SymbolHit]
    total: int
    truncated: bool
    excluded: dict[str, int] = field(default_factory=dict)
    note: str = ""


def _initials(name: str) -> str:
    return "".join(c for c in name if c.isupper()).lower()


def _names_match(receiver: str, cls: str) -> bool:
    """Does a variable name suggest an instance of ``cls``? ``engine``/Engine, ``df``/DataFrame."""
    r, c = receiver.lower().strip("_"), cls.lower()
    if not r:
        return False
    return (
        r == c
        or r == _initials(cls)
        or (len(r) >= 3 and (c.startswith(r) or r.endswith(c) or c in r))
    )


def _distinctive(leaf: str) -> bool:
    return leaf.lower() not in _GENERIC and (
        "_" in leaf.strip("_") or any(c.isupper() for c in leaf[1:]) or len(leaf) >= 10
    )


def _merge(bindings: list[_Binding]) -> _Binding:
    """A name assigned several times: package-made if any assignment is, a plain value if all are."""
    made = [b for b in bindings if b.kind == "local-package"]
    if made:
        return made[0]
    if bindings and all(b.kind == "builtin" for b in bindings):
        return _Binding("builtin")
    return _Binding("unknown")


@dataclass
class _Binding:
    """What a file binds a name to: the package (with a dotted path), another module, or nothing known."""

    kind: str  # package | foreign | local-package | builtin | param | unknown
    path: str = ""  # dotted path inside the package ("yaml.load", "flask.Flask"), when kind=package


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

    # -- shared lookups -------------------------------------------------------------------

    def import_names(self, ecosystem: str, package: str) -> list[str]:
        if ecosystem == "npm":
            return [package]
        return list(import_names_for(package))

    def report(self, ecosystem: str, package: str) -> ImportReport:
        key = (ecosystem, package.lower())
        with self._lock:
            if key in self._reports:
                return self._reports[key]
        rep = self.code.where_imported(ecosystem, package)
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
        self, facts: code_py.PyFacts, name: str, roots: tuple[str, ...], depth: int = 0
    ) -> _Binding:
        if name in facts.imports:
            target = facts.imports[name]
            if any(target == r or target.startswith(r + ".") for r in roots):
                return _Binding("package", target)
            if target.startswith(".") or target.split(".", 1)[0] in self.local_modules():
                return _Binding("local-import", target)  # the project's own module: type unknown
            return _Binding("foreign", target)
        origins = facts.assigned.get(name, [])
        if origins and depth < 3:
            return _merge(
                [
                    self._origin(o, lambda root: self._py_binding(facts, root, roots, depth + 1))
                    for o in origins
                ]
            )
        if name in facts.params:
            return _Binding("param")
        return _Binding("unknown")

    @staticmethod
    def _origin(origin: str, resolve: Any) -> _Binding:
        """What an assignment's right-hand side makes a name: a plain value, the package's object, ..."""
        if origin.startswith("literal:"):
            return _Binding("builtin")
        if origin.startswith("chain:"):
            parts = [p for p in re.split(r"[.()\[\]]+", origin[6:]) if p]
            inner = resolve(parts[0]) if parts else _Binding("unknown")
            if inner.kind in ("package", "local-package"):
                return _Binding("local-package", parts[-1])
        return _Binding("unknown")

    def _js_binding(self, path: str, name: str, package: str, depth: int = 0) -> _Binding:
        rep = self.report("npm", package)
        for site in rep.sites:
            if site.path == path and name in site.names:
                imported = site.names[name]
                sub = f"/{site.subpath}" if site.subpath else ""
                member = "" if imported in ("*", "default") else f".{imported}"
                return _Binding("package", f"{package}{sub}{member}")
        if name in self.js_foreign(path):
            return _Binding("foreign")
        _, _, assigned, params = self.js_facts(path)
        origins = assigned.get(name, [])
        if origins and depth < 3:
            return _merge(
                [
                    self._origin(o, lambda root: self._js_binding(path, root, package, depth + 1))
                    for o in origins
                ]
            )
        if name in params:
            return _Binding("param")
        return _Binding("unknown")

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
            for imp in js_imports(self._text(path))
            if imp.package  # relative requires are the project's own files, not another package
            for local in imp.names
            if local != "*"
        }
        with self._lock:
            self._foreign[key] = names
        return names

    # -- the search -----------------------------------------------------------------------------

    def search(
        self,
        ecosystem: str,
        package: str,
        symbol: str,
        *,
        kind: str = "name",
        of: str = "",
        arg: str = "",
        max_positional: int = 1,
    ) -> SymbolResult:
        symbol = symbol.strip()
        if not symbol:
            raise ToolError("symbol is empty")
        if kind in ("module", "default_import", "subpath", "module_path"):
            return self._import_kind(ecosystem, package, symbol, kind)
        return _Matcher(
            self, ecosystem, package, symbol, kind, of.strip(), arg.strip(), max_positional
        ).run()

    def _import_kind(self, ecosystem: str, package: str, symbol: str, kind: str) -> SymbolResult:
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
                if ecosystem != "npm":
                    continue
                if site.style == "require" and site.esm is not True:
                    why = f"require('{site.module}') in a CommonJS file"
                elif site.style == "require":
                    why = f"require('{site.module}') in an ES module file"
                else:
                    skip("ES module import (unaffected)")
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
                if (
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
            hits.append(SymbolHit(site.path, site.line, site.col, site.text, "code", "strong", why))
        hits.sort(key=lambda h: (h.path, h.line))
        note = (
            f"{len(hits)} import site(s) match"
            if hits
            else f"no import of {package} matches {symbol}"
        )
        return SymbolResult(symbol, kind, hits, len(hits), False, excluded, note)

    def _called_directly(self, path: str, local: str) -> bool:
        """Whether ``local(...)`` is called as a function somewhere in the file."""
        return re.search(rf"(?<![\w$.]){re.escape(local)}\s*\(", self._text(path)) is not None


_SIG = re.compile(r"^@?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\((.*)\)$", re.S)
_NUMERIC_PARAM = re.compile(
    r"^(status|code|statuscode|n|num|number|count|port|ms|timeout|size|length|index|i)$", re.I
)
_FUNC_PARAM = re.compile(r"^(fn|func|function|callback|cb|handler|listener|middleware)$", re.I)


class _Matcher:
    """One search_symbol call for the name-like kinds."""

    def __init__(
        self,
        owner: SymbolSearch,
        eco: str,
        package: str,
        symbol: str,
        kind: str,
        of: str,
        arg: str,
        max_pos: int,
    ) -> None:
        self.o, self.eco, self.package, self.kind = owner, eco, package, kind
        self.of, self.arg, self.max_pos = of, arg, max_pos
        self.params: list[str] = []
        sig = _SIG.match(symbol)
        if kind == "signature" and sig:
            symbol = sig.group(1)
            self.params = [p.strip() for p in sig.group(2).split(",") if p.strip()]
        self.symbol = symbol.rstrip("()").lstrip("@")
        parts = self.symbol.replace("#", ".").split(".")
        self.leaf = parts[-1]
        self.qual = tuple(p for p in parts[:-1] if p)
        self.roots = tuple(owner.import_names(eco, package))
        self.excluded: dict[str, int] = {}
        rep = owner.report(eco, package)
        self.importing = set(rep.files)

    def skip(self, reason: str) -> None:
        self.excluded[reason] = self.excluded.get(reason, 0) + 1

    def run(self) -> SymbolResult:
        if not re.fullmatch(r"[A-Za-z_$][\w$]*", self.leaf):
            raise ToolError(
                f"cannot search for {self.symbol!r}: give a name such as 'module.function'"
            )
        globs: tuple[str, ...] = PY_GLOBS if self.eco == "pip" else JS_GLOBS
        if self.kind == "config_key":
            globs = globs + CONFIG_GLOBS
        pattern = rf"{re.escape(self.leaf)}\s*[:=]" if self.kind == "parameter" else self.leaf
        hits: list[SymbolHit] = []
        seen = 0
        truncated = False
        for glob in globs:
            try:
                res = self.o.code.search_code(
                    pattern,
                    regex=self.kind == "parameter",
                    word=self.kind != "parameter",
                    path_glob=glob,
                    max_hits=SCAN_LIMIT,
                )
            except ToolError:
                continue
            truncated |= res.truncated
            for h in res.hits:
                seen += 1
                got = self.judge(h)
                if got is not None:
                    hits.append(got)
        hits.sort(
            key=lambda h: (h.evidence != "strong", h.path not in self.importing, h.path, h.line)
        )
        strong = sum(h.evidence == "strong" for h in hits)
        note = (
            f"{strong} strong and {len(hits) - strong} weak use(s) of {self.symbol} ({self.kind}) "
            f"among {seen} line(s) that mention {self.leaf}"
        )
        if self.excluded:
            note += "; set aside: " + ", ".join(
                f"{n} {r}" for r, n in sorted(self.excluded.items())
            )
        return SymbolResult(self.symbol, self.kind, hits, seen, truncated, self.excluded, note)

    # -- one line ---------------------------------------------------------------------------

    def judge(self, h: Any) -> SymbolHit | None:
        if h.context in ("comment",) or (h.context == "string" and self.kind != "config_key"):
            self.skip(f"in {h.context}s")
            return None
        if self.kind == "config_key":
            ev = (
                "strong"
                if (h.path in self.importing or not h.path.endswith((".py", ".js", ".ts")))
                else "weak"
            )
            return SymbolHit(
                h.path, h.line, h.col, h.text, h.context, ev, f"mentions the setting {self.leaf}"
            )
        path = h.path
        if path.endswith((".py", ".pyi")):
            verdict = self._judge_py(h)
        else:
            verdict = self._judge_js(h)
        if verdict is None:
            return None
        evidence, why = verdict
        return SymbolHit(h.path, h.line, h.col, h.text, "code", evidence, why)

    # Python ------------------------------------------------------------------------------------

    def _judge_py(self, h: Any) -> tuple[str, str] | None:
        facts = self.o.py_facts(h.path)
        if not facts.ok:
            self.skip("in files that do not parse")
            return None
        uses = [u for u in facts.at(self.leaf, h.line) if abs(u.col - h.col) <= 1] or facts.at(
            self.leaf, h.line
        )
        if not uses:
            self.skip("not a use of the name")
            return None
        best: tuple[str, str] | None = None
        for use in uses:
            got = self._py_use(facts, use, h.path)
            if got and (best is None or (got[0] == "strong" and best[0] != "strong")):
                best = got
        return best

    def _py_use(
        self, facts: code_py.PyFacts, use: code_py.Use, path: str
    ) -> tuple[str, str] | None:
        k = self.kind
        if k == "parameter":
            if use.kind != "keyword":
                self.skip("not a keyword argument")
                return None
            return self._owner_ok(
                self._py_chain_binding(facts, use.func_chain),
                use.func_chain,
                path,
                f"passes {self.leaf}=",
            )
        if use.kind == "keyword":
            self.skip("keyword argument of the same name")
            return None
        if use.kind == "import":
            target = f"{use.module}.{use.leaf}"
            if any(
                use.module == r or use.module.startswith(r + ".") for r in self.roots
            ) and self._qual_ok(target):
                if k == "name":
                    return "strong", f"imports {self.leaf} from {use.module}"
                return None  # call-shape kinds look at the calls, not the import
            self.skip("imported from another module")
            return None
        binding = (
            self._py_chain_binding(facts, use.chain[:-1])
            if len(use.chain) > 1
            else self._py_binding_leaf(facts, use.leaf)
        )
        return self._apply(binding, use.chain, use.call, use.awaited, path)

    def _py_binding_leaf(self, facts: code_py.PyFacts, name: str) -> _Binding:
        b = self.o._py_binding(facts, name, self.roots)
        if b.kind == "package":
            return b
        return _Binding("bare-" + b.kind)

    def _py_chain_binding(self, facts: code_py.PyFacts, chain: tuple[str, ...]) -> _Binding:
        if not chain or chain[0] in ("()", "[]", "?"):
            return _Binding("unknown")
        root = chain[0]
        if root in ("self", "cls") and len(chain) > 1:
            origins = facts.assigned.get(f"self.{chain[1]}", [])
            if origins and all(o.startswith("literal:") for o in origins):
                return _Binding("builtin")
            return _Binding("unknown")
        b = self.o._py_binding(facts, root, self.roots)
        if b.kind == "package":
            rest = [p for p in chain[1:] if p not in ("()", "[]")]
            return _Binding("package", ".".join([b.path, *rest]))
        return b

    # JavaScript ----------------------------------------------------------------------------------

    def _judge_js(self, h: Any) -> tuple[str, str] | None:
        text, starts, _, _ = self.o.js_facts(h.path)
        site = self._js_import_of_leaf(h.path, h.line)
        if site is not None:
            if self.kind == "name" and self._qual_ok(f"{site.module}.{self.leaf}"):
                return "strong", f"imports {self.leaf} from '{site.module}'"
            return None  # the import itself; call-shape kinds look at the calls
        use = code_js.use_at(text, starts, h.line, h.col, self.leaf)
        if use is None:
            self.skip("not a use of the name")
            return None
        if self.kind == "parameter":
            if use.kind != "property":
                self.skip("not an option property")
                return None
            if not use.func_chain:
                self.skip("option outside a call")
                return None
            b = self._js_chain_binding(h.path, use.func_chain)
            return self._owner_ok(b, use.func_chain, h.path, f"passes the {self.leaf} option")
        if use.kind == "property":
            self.skip("object property of the same name")
            return None
        if use.kind == "member":
            b = self._js_chain_binding(h.path, use.chain[:-1])
        else:
            b = self.o._js_binding(h.path, use.leaf, self.package)
            if b.kind != "package":
                b = _Binding("bare-" + b.kind)
        return self._apply(b, use.chain, use.call, use.awaited, h.path)

    def _js_import_of_leaf(self, path: str, line: int) -> Any:
        """The import of this package on ``line`` that binds the leaf as an imported member, if any."""
        for site in self.o.report(self.eco, self.package).sites:
            if site.path == path and site.line <= line <= max(
                site.line, getattr(site, "end_line", 0) or site.line
            ):
                if self.leaf in site.names.values():
                    return site
        return None

    def _js_chain_binding(self, path: str, chain: tuple[str, ...]) -> _Binding:
        if not chain or chain[0] in ("()", "[]"):
            return _Binding("unknown")
        b = self.o._js_binding(path, chain[0], self.package)
        if b.kind == "package":
            rest = [p for p in chain[1:] if p not in ("()", "[]")]
            return _Binding("package", ".".join([b.path, *rest]))
        return b

    # the rules ---------------------------------------------------------------------------------

    def _qual_ok(self, full: str, local_root: str = "") -> bool:
        """Does the dotted path a use resolves to agree with the changelog's qualifier?

        ``np.float_`` in a changelog names numpy's conventional alias: a use whose root is
        the local name ``np`` bound to numpy agrees with it.
        """
        if not self.qual:
            return True
        parts = full.replace("/", ".").split(".")
        q = list(self.qual)
        if q[0] in self.roots or q[0] == self.package or (local_root and q[0] == local_root):
            q = q[1:]
        if not q:
            return True
        # the qualifier's names must appear in order within the resolved path
        i = 0
        for p in parts:
            if i < len(q) and p == q[i]:
                i += 1
        return i == len(q)

    def _owner_ok(
        self, b: _Binding, func_chain: tuple[str, ...], path: str, why: str
    ) -> tuple[str, str] | None:
        leaf = func_chain[-1] if func_chain else ""
        of_leaf = self.of.rsplit(".", 1)[-1] if self.of else ""
        if b.kind == "foreign":
            self.skip("calls into another module")
            return None
        if b.kind == "builtin":
            self.skip("receiver is a plain value")
            return None
        if of_leaf and leaf != of_leaf:
            self.skip("a different function's argument")
            return None
        callee = ".".join(p for p in func_chain if p not in ("()", "[]"))
        if b.kind == "package":
            return "strong", f"{why} to {callee} ({b.path})"
        if b.kind == "local-package":
            return "strong", f"{why} to {callee} on an object made by {self.package}"
        if of_leaf and path in self.importing:
            return "strong", f"{why} to {callee} in a file that imports {self.package}"
        if of_leaf:
            return "weak", f"{why} to {callee}; the receiver's type is unknown"
        self.skip("call not known to belong to the package")
        return None

    def _apply(
        self, b: _Binding, chain: tuple[str, ...], call: CallShape | None, awaited: bool, path: str
    ) -> tuple[str, str] | None:
        shown = ".".join(p for p in chain if p not in ("()", "[]"))
        receiver = chain[-2] if len(chain) > 1 else ""
        # who is this?
        if b.kind == "package":
            full = b.path if b.path.endswith(self.leaf) else b.path + "." + self.leaf
            if not self._qual_ok(full, chain[0] if chain else ""):
                self.skip("resolves to a different part of the package")
                return None
            evidence, who = (
                "strong",
                f"{shown} resolves to {b.path if b.path.endswith(self.leaf) else b.path + '.' + self.leaf}",
            )
        elif b.kind in ("foreign", "bare-foreign"):
            self.skip("belongs to another module")
            return None
        elif b.kind in ("builtin", "bare-builtin"):
            self.skip("receiver is a plain value (list, dict, string)")
            return None
        elif b.kind.startswith("bare-"):
            self.skip("a local name, not the package's")
            return None
        elif b.kind == "local-package":
            q = self.qual[-1] if self.qual else ""
            if q and q[:1].islower() and receiver != q and not _distinctive(self.leaf):
                self.skip("a different receiver")
                return None
            if q and q[:1].isupper() and not (b.path == q or _names_match(receiver, q)):
                evidence, who = "weak", f"{shown}: made by {self.package}, maybe not a {q}"
            else:
                evidence, who = "strong", f"{shown} is called on an object made by {self.package}"
        else:  # param / unknown receiver / imported from the project's own modules
            q = self.qual[-1] if self.qual else ""
            if q and receiver == q:
                evidence, who = "strong", f"{shown}: same receiver as in the changelog"
            elif (
                q[:1].isupper()
                and _names_match(receiver, q)
                and (path in self.importing or b.kind == "local-import")
            ):
                evidence, who = "strong", f"{shown}: `{receiver}` names a {q}"
            elif (
                _distinctive(self.leaf)
                and path in self.importing
                and not (self.qual and self.qual[-1][:1].islower())
            ):
                evidence, who = (
                    "weak",
                    f"{shown}: receiver of unknown type in a file that imports {self.package}",
                )
            else:
                self.skip("a different receiver" if self.qual else "receiver of unknown type")
                return None
        return self._shape_ok(call, awaited, evidence, who)

    def _shape_ok(
        self, call: CallShape | None, awaited: bool, evidence: str, who: str
    ) -> tuple[str, str] | None:
        k = self.kind
        if k == "name":
            return evidence, who
        if call is None:
            self.skip("not called here")
            return None
        if k == "required_arg":
            if call.star:
                self.skip("arguments passed with * or **")
                return None
            if self.arg in ("", "*"):
                if call.positional == 0 and not call.keywords:
                    return evidence, f"{who}, called without arguments"
                self.skip("called with arguments")
                return None
            if self.arg in call.keywords or call.positional >= 2:
                self.skip(f"passes {self.arg}")
                return None
            return evidence, f"{who}, called without {self.arg}"
        if k == "positional":
            if call.star or call.positional <= self.max_pos:
                self.skip("no extra positional arguments")
                return None
            return evidence, f"{who}, called with {call.positional} positional arguments"
        if k == "signature":
            if call.star or call.positional != len(self.params):
                self.skip("a different call shape")
                return None
            for param, kind in zip(self.params, call.arg_kinds, strict=True):
                if _NUMERIC_PARAM.match(param) and kind in (
                    "string",
                    "function",
                    "object",
                    "array",
                ):
                    self.skip("a different call shape")
                    return None
                if _FUNC_PARAM.match(param) and kind in ("string", "number", "object", "array"):
                    self.skip("a different call shape")
                    return None
            return evidence, f"{who}, called as {self.symbol}({', '.join(self.params)})"
        if k == "literal_arg":
            if self.arg in call.literals:
                return evidence, f"{who}, called with '{self.arg}'"
            self.skip(f"not passing '{self.arg}'")
            return None
        if k == "async":
            if awaited:
                self.skip("already awaited")
                return None
            return evidence, f"{who}, called without await"
        return evidence, who
