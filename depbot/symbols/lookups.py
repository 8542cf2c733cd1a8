"""What every symbol search of one checkout reads once: the import report of a package,
each file's facts (Python and JavaScript), and the caches the binding lookups share."""

from __future__ import annotations

import re
import threading
from typing import Any

from depbot import ecosystems
from depbot.search.code import CodeSearch
from depbot.search.import_sites import ImportReport, where_imported
from depbot.symbols import javascript as code_js
from depbot.symbols import jsaliases
from depbot.symbols import python as code_py
from depbot.symbols.facts import Binding


class Lookups:
    """The shared reads and caches of ``SymbolSearch`` (``pybind``, ``jsbind`` build on it)."""

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
        self._services: dict[tuple[str, str, str, str], Binding | None] = {}
        self._members: dict[tuple[str, str, str, str], Binding | None] = {}
        self._callbacks: dict[tuple[str, str, str, int], Binding | None] = {}
        self._aliases: list[jsaliases.Aliases] | None = None

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

    def _memo(self, table: dict, key: tuple, compute: Any) -> Any:
        """``table[key]``, computed once (the lookups every hit of a name asks again)."""
        with self._lock:
            if key in table:
                return table[key]
        got = compute()
        with self._lock:
            table[key] = got
        return got

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
