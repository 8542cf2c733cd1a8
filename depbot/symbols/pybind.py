"""Python bindings: what a name of a Python file is bound to (the package, what it made,
the project's own module, another package), across assignments, modules and the calls that
pass a parameter."""

from __future__ import annotations

import re

from depbot.core.errors import ToolError
from depbot.search.import_sites import PY_GLOBS
from depbot.symbols import python as code_py
from depbot.symbols.facts import Binding, merge
from depbot.symbols.lookups import Lookups

_PY_HOPS = 5  # modules and assignments followed from a Python name to what made it
MAX_CALLERS = 200  # files read for the calls of a function whose parameter is followed


class PyBindings(Lookups):
    """The Python half of ``SymbolSearch``'s binding resolution."""

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
