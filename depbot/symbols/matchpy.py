"""How ``Matcher`` judges a Python line that names the symbol: the use's receiver bound
through the file's imports and assignments (``symbols.pybind``), and the call's shape."""

from __future__ import annotations

from typing import Any

from depbot.symbols import python as code_py
from depbot.symbols.facts import Binding


class PyJudge:
    """The Python half of ``Matcher``: the state it reads (``o``, ``leaf``, ``package`` …) is
    ``Matcher``'s."""

    o: Any
    leaf: str
    package: str
    roots: tuple[str, ...]

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
                self._py_chain_binding(facts, use.func_chain, path),
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
            self._py_chain_binding(facts, use.chain[:-1], path)
            if len(use.chain) > 1
            else self._py_binding_leaf(facts, use.leaf, path)
        )
        return self._apply(binding, use.chain, use.call, use.awaited, path)

    def _py_binding_leaf(self, facts: code_py.PyFacts, name: str, path: str = "") -> Binding:
        b = self.o._py_binding(facts, name, self.roots, path=path)
        if b.kind == "package":
            return b
        return Binding("bare-" + b.kind)

    def _py_chain_binding(
        self, facts: code_py.PyFacts, chain: tuple[str, ...], path: str = ""
    ) -> Binding:
        if not chain or chain[0] in ("()", "[]", "?"):
            return Binding("unknown")
        root = chain[0]
        if root in ("self", "cls") and len(chain) > 1:
            origins = facts.assigned.get(f"self.{chain[1]}", [])
            if origins and all(o.startswith("literal:") for o in origins):
                return Binding("builtin")
            return Binding("unknown")
        b = self.o._py_binding(facts, root, self.roots, path=path)
        if b.kind == "package":
            rest = [p for p in chain[1:] if p not in ("()", "[]")]
            return Binding("package", ".".join([b.path, *rest]))
        return b
