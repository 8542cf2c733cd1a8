"""The rules of ``search_symbol``: is this line a use of the symbol the changelog names?

For one search (symbol, kind, owner, argument) ``Matcher`` reads each line ripgrep found:
code or comment, the receiver's binding (the package, another module, a plain value, a
parameter), whether the qualifier agrees, and whether the call has the broken shape.
How a line is judged per language is ``matchpy`` (Python) and ``matchjs`` (JavaScript);
the call shapes are ``callshape``; this module runs the search and holds the rules they share.
"""

from __future__ import annotations

import re
from typing import Any

from depbot import ecosystems
from depbot.core.errors import ToolError
from depbot.symbols import javascript as code_js
from depbot.symbols.callshape import WEAK_USE, CallShapeRules
from depbot.symbols.config import key_in_shared_file
from depbot.symbols.facts import (
    CONFIG_GLOBS,
    SCAN_LIMIT,
    Binding,
    SymbolHit,
    SymbolQuery,
    SymbolResult,
    distinctive,
    names_match,
)
from depbot.symbols.matchjs import JsJudge, own_config_file
from depbot.symbols.matchpy import PyJudge
from depbot.symbols.python import CallShape
from depbot.symbols.shims import shim_reason
from depbot.symbols.strings import dotted_string_at, names_path

_SIG = re.compile(r"^@?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\((.*)\)$", re.S)
# kinds whose break is in how a call is made: a call with that shape is evidence of its own
SHAPE_KINDS = frozenset(
    {"positional", "required_arg", "parameter", "signature", "literal_arg", "arg_kind"}
)
SHAPE_WHY = "called the way"  # the words of a weak hit that has the broken shape
# `mock.patch("pkg.name")`, `monkeypatch.setattr("pkg.name", …)`: the string's call
_PATCH_CALL = re.compile(r"(?:\bpatch|\bsetattr)\s*\(\s*[rbu]?['\"]$")


class Matcher(CallShapeRules, PyJudge, JsJudge):
    """One search_symbol call for the name-like kinds."""

    def __init__(
        self,
        owner: Any,  # the SymbolSearch running this search (its caches and bindings)
        query: SymbolQuery,
    ) -> None:
        eco, package, symbol, kind = query.ecosystem, query.package, query.symbol, query.kind
        self.o, self.eco, self.package, self.kind = owner, eco, package, kind
        self.of, self.arg, self.max_pos = query.of, query.arg, query.max_positional
        self.exact = query.exact
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
        kebab = self.kind == "config_key" and re.fullmatch(
            r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+", self.leaf
        )
        if not (kebab or re.fullmatch(r"[A-Za-z_$][\w$]*", self.leaf)):
            raise ToolError(
                f"cannot search for {self.symbol!r}: give a name such as 'module.function'"
            )
        globs: tuple[str, ...] = ecosystems.get(self.eco).source_globs
        if self.kind == "config_key":
            globs = (self.of,) if self.of else globs + CONFIG_GLOBS
        # an option key: `leaf: v`, `leaf = v` (a default), or shorthand `{ leaf }`, `{ leaf, … }`
        param = rf"{re.escape(self.leaf)}\s*(?:[:=,}}]|$)"
        pattern = param if self.kind == "parameter" else self.leaf
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
        if h.context != "comment" and own_config_file(h.path, self.package):
            if re.search(rf"""(?<![\w$-])['"]?{re.escape(self.leaf)}['"]?\s*:""", self._line(h)):
                why = f"sets {self.leaf} in {h.path.rsplit('/', 1)[-1]}, {self.package}'s own configuration file"
                return SymbolHit(h.path, h.line, h.col, h.text, "code", "strong", why)
        if h.context == "string" and self.kind == "name" and h.path.endswith((".py", ".pyi")):
            quoted = self._import_path(h)
            if quoted is not None:
                return quoted
        if h.context == "string" and self.kind == "name" and not h.path.endswith((".py", ".pyi")):
            keyed = self._bracket_member(h)  # zk['inflateRaw'](…): a member read by its name
            if keyed is not None:
                return keyed
        if h.context in ("comment",) or (h.context == "string" and self.kind != "config_key"):
            self.skip(f"in {h.context}s")
            return None
        if self.kind == "config_key" and self.of:
            lines = self.o.code.read_lines(h.path)
            if not key_in_shared_file(lines, h.line, self.of, (*self.roots, self.package)):
                self.skip(f"in another tool's section of {self.of}")
                return None
            return SymbolHit(
                h.path, h.line, h.col, h.text, "code", "strong", f"sets {self.leaf} in {self.of}"
            )
        if self.kind == "config_key":
            keyed = self._package_key(h) if not h.path.endswith((".py", ".pyi")) else ""
            if keyed:
                why = f"sets {self.leaf} in the {keyed} options"
                return SymbolHit(h.path, h.line, h.col, h.text, "code", "strong", why)
            scoped = self._scoped_key(h)
            if scoped:  # `'jest/valid-title': 'error'`: the package's rule, by its short name
                why = f"names {self.leaf} as '{scoped}', under a short name of {self.package}"
                return SymbolHit(h.path, h.line, h.col, h.text, "code", "strong", why)
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
        shim = shim_reason(h.path, self.o._text(h.path), h.line, self.leaf)
        if shim:
            self.skip(shim)
            return None
        evidence, why = verdict
        return SymbolHit(h.path, h.line, h.col, h.text, "code", evidence, why)

    def _scoped_key(self, h: Any) -> str:
        """The quoted ``short/leaf`` on the hit's line whose ``short`` is a word of the
        package's name (``jest/valid-title`` of a ``…-plugin-jest``, ``@scope/x`` of
        ``@scope/…``): a tool's key for the package's own rule or setting ("" if none)."""
        words = {w for w in re.split(r"[-/@]", self.package.lower()) if len(w) >= 2}
        for m in re.finditer(rf"""(['"])([@\w.-]+)/{re.escape(self.leaf)}\1""", self._line(h)):
            if m.group(2).lower().lstrip("@") in words:
                return f"{m.group(2)}/{self.leaf}"
        return ""

    def _line(self, h: Any) -> str:
        """The whole line of a hit (its ``text`` may be trimmed)."""
        try:
            lines = self.o.code.read_lines(h.path)
        except ToolError:
            lines = []
        return lines[h.line - 1] if 0 < h.line <= len(lines) else h.text

    def _import_path(self, h: Any) -> SymbolHit | None:
        """``"pkg.mod.leaf"`` in a string: an import path (a setting, a mock-patch target)."""
        line = self._line(h)
        target = dotted_string_at(line, h.col)
        if target is None or not names_path(target, self.roots, self.leaf):
            return None
        if not self._qual_ok(target.replace(":", ".")):
            return None
        start = line.rfind(target, 0, h.col + len(target))  # where the quoted path begins
        patched = _PATCH_CALL.search(line[: max(0, start)]) is not None
        if target.replace(":", ".").count(".") < 2 and not patched:
            return None  # `'pkg.name'` alone may be any text; a mock-patch target is not
        why = f"names {target} in a string: an import path into {self.package}"
        return SymbolHit(h.path, h.line, h.col, h.text, "code", "strong", why)

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
        self, b: Binding, func_chain: tuple[str, ...], path: str, why: str, siblings: bool = True
    ) -> tuple[str, str] | None:
        """Whether a call (or a JSX tag) given the parameter is the one the notes name;
        ``siblings``: a distinctive name given to another of the package's functions counts."""
        leaf = func_chain[-1] if func_chain else ""
        owner_parts = [
            p for p in self.of.split(".") if p not in ("__init__", "__new__", "constructor")
        ]
        of_leaf = owner_parts[-1] if owner_parts else ""  # `Client.__init__`: calls of Client
        if b.kind == "foreign":
            self.skip("calls into another module")
            return None
        if b.kind == "builtin":
            self.skip("receiver is a plain value")
            return None
        callee = ".".join(p for p in func_chain if p not in ("()", "[]"))
        if of_leaf and leaf != of_leaf:
            if siblings and b.kind == "package" and distinctive(self.leaf) and not self.exact:
                # notes name one owner of a parameter its siblings share (`autocompletion`
                # "to Command", passed to click.option): a name that rare, given to the
                # package's own function, is the same parameter
                return "strong", f"{why} to {callee} ({b.path}); the notes name it on {self.of}"
            self.skip(
                "a different function's argument"
                if siblings
                else f"a prop of {callee}, not of {of_leaf}"
            )
            return None
        if b.kind == "package":
            return "strong", f"{why} to {callee} ({b.path})"
        if b.kind == "local-package":
            return "strong", f"{why} to {callee} on an object made by {self.package}"
        if of_leaf and path in self.importing:
            return "strong", f"{why} to {callee} in a file that imports {self.package}"
        same_call = callee.split(".")[-2:] == owner_parts[-2:]
        if len(owner_parts) > 1 and same_call and b.kind != "bare-unknown":
            # `sequelize.define(…, { classMethods })` in a model file given `sequelize`: the
            # call spelled as the notes spell it, receiver and all (`sequelize.define`)
            return "strong", f"{why} to {callee}: same receiver as in the changelog"
        if of_leaf:
            return "weak", f"{why} to {callee}; the receiver's type is unknown"
        self.skip("call not known to belong to the package")
        return None

    def _apply(
        self, b: Binding, chain: tuple[str, ...], call: CallShape | None, awaited: bool, path: str
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
        elif self.kind == "callback_arg" and b.kind != "local-package":
            self.skip("not called on the package or an object it made")
            return None
        elif b.kind in ("builtin", "bare-builtin"):
            self.skip("receiver is a plain value (list, dict, string)")
            return None
        elif (
            b.kind == "bare-unknown"
            and call is None
            and self.kind == "name"
            and path in self.importing
            and distinctive(self.leaf)
            and not self._declared_here(path)
        ):  # `register(handler)`: a name bound nowhere in the file, passed by reference
            evidence, who = (
                "weak",
                f"{WEAK_USE}: {shown}, bound nowhere here, in a file that imports {self.package}",
            )
        elif b.kind.startswith("bare-"):
            self.skip("a local name, not the package's")
            return None
        elif b.kind == "local-package":
            q = self.qual[-1] if self.qual else ""
            if q and q[:1].islower() and receiver != q and not distinctive(self.leaf):
                self.skip("a different receiver")
                return None
            if q and q[:1].isupper() and not (b.path == q or names_match(receiver, q)):
                evidence, who = "weak", f"{shown}: made by {self.package}, maybe not a {q}"
                if distinctive(self.leaf) or self.kind in SHAPE_KINDS:
                    # the notes name {q}.{leaf}: a method that rare, or called the very way
                    # the notes say breaks (the shape is checked below)
                    evidence = "strong"
                    who = f"{shown} is called on an object made by {self.package} ({q}.{self.leaf} in the notes)"
            else:
                evidence, who = "strong", f"{shown} is called on an object made by {self.package}"
        else:  # param / unknown receiver / imported from the project's own modules
            q = self.qual[-1] if self.qual else ""
            if q and receiver == q:
                evidence, who = "strong", f"{shown}: same receiver as in the changelog"
            elif (
                q[:1].isupper()
                and names_match(receiver, q)
                and (path in self.importing or b.kind == "local-import")
            ):
                evidence, who = "strong", f"{shown}: `{receiver}` names a {q}"
            elif (
                distinctive(self.leaf)
                and path in self.importing
                and not (self.qual and self.qual[-1][:1].islower())
            ):
                # a name that rare, called on what the code does not type, where the package
                # is imported: not known to be the package's, not known not to be either
                evidence, who = (
                    "weak",
                    f"{WEAK_USE}: {shown}, receiver of unknown type in a file that imports "
                    f"{self.package}",
                )
            elif (
                distinctive(self.leaf)
                and q[:1].isupper()
                and not self._from_other_module(path, chain)
                and (via := self.o.imports_an_importer(path, self.importing))
            ):
                # `this.pubsubService.pubsub.asyncIterator(…)`: the file takes a module of the
                # checkout that imports the package; what that module made may be the receiver
                evidence, who = (
                    "weak",
                    f"{WEAK_USE}: {shown}, receiver of unknown type in a file that imports "
                    f"{via}, which imports {self.package}",
                )
            elif (
                self.kind in SHAPE_KINDS
                and q[:1].isupper()
                and chain[:1] not in ((), ("?",))
                and (
                    path in self.importing
                    or b.kind == "local-import"
                    or self.o.reaches_package(path, self.roots)
                )
            ):
                # `Query.paginate` lost its positional parameters: a `.paginate(a, b, c)` on an
                # object the code does not type has the broken shape; weak, never a use alone,
                # but not a fact that the code is safe either. Only where a path may lead from
                # the package to the receiver: the file imports the package or a name the
                # package made, or the receiver comes from the project's own modules (an
                # ORM's `self.following.add(user)` in a file that takes nothing of the
                # package is no `Headers.add`)
                evidence, who = (
                    "weak",
                    f"{shown}: receiver of unknown type, {SHAPE_WHY} {q}.{self.leaf} no longer allows",
                )
            else:
                self.skip("a different receiver" if self.qual else "receiver of unknown type")
                return None
        return self._shape_ok(call, awaited, evidence, who)

    def _from_other_module(self, path: str, chain: tuple[str, ...]) -> bool:
        """Whether the chain's root is bound by an import of a module of the checkout that
        does not import the package (``const Plain = require('./models/plain')``)."""
        found = self.o.local_import_target(path, chain[0], self.package) if chain else ""
        return bool(found) and found not in self.importing

    def _value_kind(self, h: Any, use: Any) -> tuple[str, str] | None:
        """``arg_kind`` of an option key: the kind of the value the object gives it."""
        text, starts, _, _ = self.o.js_facts(h.path)
        at = starts[h.line - 1] + h.col - 1 if 0 < h.line <= len(starts) and h.col > 0 else -1
        value = code_js.key_value(text, at) if at >= 0 else ""
        kind = code_js.arg_kind(value) if value else ""
        callee = self._js_chain_binding(h.path, use.func_chain) if use.func_chain else None
        ours = callee is not None and callee.kind in ("package", "local-package")
        wanted, changed = self._kind_meant()
        if kind == wanted and ours:
            then = "whose handling of one changed" if changed else "which no longer accepts one"
            return "strong", f"sets {self.leaf} to a {kind} in a call of {self.package}, {then}"
        if kind == "name" and ours:
            unknown = self._unknown_kind()
            return "weak", f"{WEAK_USE}: sets {self.leaf} to a value of unknown kind ({unknown})"
        self.skip(f"gives {self.leaf} no {wanted}" if ours else "object property of the same name")
        return None

    def _declared_here(self, path: str) -> bool:
        """Whether the file declares the leaf itself (``def``/``class``/``function``)."""
        if path.endswith((".py", ".pyi")):
            return self.leaf in self.o.py_facts(path).defined
        return code_js.declares(self.o.js_facts(path)[0], self.leaf)
