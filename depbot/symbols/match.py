"""The rules of ``search_symbol``: is this line a use of the symbol the changelog names?

For one search (symbol, kind, owner, argument) ``Matcher`` reads each line ripgrep found:
code or comment, the receiver's binding (the package, another module, a plain value, a
parameter), whether the qualifier agrees, and whether the call has the broken shape.
"""

from __future__ import annotations

import re
from typing import Any

from depbot import ecosystems
from depbot.core.errors import ToolError
from depbot.symbols import javascript as code_js
from depbot.symbols import jsnamed
from depbot.symbols import python as code_py
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


_JSX_OPEN = re.compile(r"<([A-Z][\w$]*(?:\.[A-Za-z_$][\w$]*)*|[a-z_$][\w$]*\.[A-Za-z_$][\w$.]*)\s")


def _jsx_tag(text: str, at: int, leaf: str) -> str:
    """The component whose opening tag holds an attribute ``leaf`` at offset ``at``
    (``<AnimatePresence exitBeforeEnter>`` → ``AnimatePresence``); "" for anything else
    (a lower-case DOM element, a name outside a tag)."""
    after = text[at + len(leaf) : at + len(leaf) + 1]
    if text[at : at + len(leaf)] != leaf or after not in ("", " ", "=", "/", ">", "\n", "\t", "\r"):
        return ""
    if at == 0 or not text[at - 1].isspace():
        return ""
    start = text.rfind("<", max(0, at - 600), at)
    if start < 0 or ">" in text[start:at].replace("=>", ""):
        return ""
    m = _JSX_OPEN.match(text, start)
    return m.group(1) if m else ""


def own_config_file(path: str, package: str) -> bool:
    """Whether ``path`` is the package's own configuration file, named after it:
    ``.stylelintrc``, ``.stylelintrc.json``, ``stylelint.config.js``, ``.mocharc.yml``,
    ``karma.conf.js``, and at the checkout's root ``typedoc.json``, ``nodemon.json``,
    ``Gruntfile.js`` (deeper, ``src/tool.js`` is the project's own module)."""
    name, base = path.rsplit("/", 1)[-1].lower(), re.escape(package.rsplit("/", 1)[-1].lower())
    return bool(
        re.fullmatch(rf"\.?{base}rc(?:\.(?:js|cjs|mjs|ts|json|ya?ml))?", name)
        or re.fullmatch(rf"\.?{base}\.conf(?:ig)?\.(?:js|cjs|mjs|ts|json)", name)
        or ("/" not in path and re.fullmatch(rf"{base}(?:file)?\.(?:js|cjs|mjs|ts|json)", name))
    )


def package_keys(package: str) -> set[str]:
    """The keys a config object names an npm package's section by: its name in camelCase,
    whole or without leading words (``webpack-dev-server`` → ``webpackDevServer``,
    ``devServer``); a single trailing word alone is too common to count."""
    words = [w for w in re.split(r"[-_.]", package.rsplit("/", 1)[-1]) if w]
    keys = set()
    for cut in range(len(words)):
        tail = words[cut:]
        if cut == 0 or len(tail) >= 2:
            keys.add(tail[0].lower() + "".join(w[:1].upper() + w[1:] for w in tail[1:]))
    return keys


# the last word of a package named for its role in a tool (`sass-loader`, `x-plugin`): the
# tool configures it under its leading words, inside a key that names the role
# (`css.loaderOptions.sass`, `plugins.x`)
ROLE_WORDS = ("loader", "plugin", "middleware", "preset", "transformer")


def role_key(package: str) -> tuple[str, str]:
    """(the leading words in camelCase, the role word) of a role-named package, or ('', '')."""
    words = [w for w in re.split(r"[-_.]", package.rsplit("/", 1)[-1]) if w]
    if len(words) < 2 or words[-1].lower() not in ROLE_WORDS:
        return "", ""
    lead = words[:-1]
    return lead[0].lower() + "".join(w[:1].upper() + w[1:] for w in lead[1:]), words[-1].lower()


def package_key(keys: tuple[str, ...], package: str) -> str:
    """The first enclosing key that names ``package``'s section, or ''."""
    wanted = package_keys(package)
    lead, role = role_key(package)
    for i, key in enumerate(keys):
        if key in wanted:
            return key
        if lead and key == lead and i + 1 < len(keys) and role in keys[i + 1].lower():
            return f"{keys[i + 1]}.{key}"
    return ""


class Matcher(CallShapeRules):
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

    # JavaScript ----------------------------------------------------------------------------------

    def _judge_js(self, h: Any) -> tuple[str, str] | None:
        """A JavaScript line naming the leaf: its import, a JSX prop, an option key, or a
        member or name whose binding decides."""
        text, starts, _, _ = self.o.js_facts(h.path)
        site = self._js_import_of_leaf(h.path, h.line)
        if site is not None:
            if self.kind == "name" and self._qual_ok(f"{site.module}.{self.leaf}"):
                return "strong", f"imports {self.leaf} from '{site.module}'"
            return None  # the import itself; call-shape kinds look at the calls
        tag = (
            _jsx_tag(text, starts[h.line - 1] + h.col - 1, self.leaf)
            if h.line <= len(starts)
            else ""
        )
        if tag and self.kind in ("name", "parameter", "behaviour"):  # `<Presence exitFirst>`
            b = self._js_chain_binding(h.path, tuple(tag.split(".")))
            if b.kind not in ("package", "local-package"):
                self.skip("a prop of a component not the package's")
                return None
            why = f"passes the {self.leaf} prop"  # components share prop names: no siblings
            siblings = self.kind != "parameter"
            return self._owner_ok(b, tuple(tag.split(".")), h.path, why, siblings=siblings)
        use = code_js.use_at(text, starts, h.line, h.col, self.leaf)
        if use is None:
            self.skip("not a use of the name")
            return None
        if use.kind == "property":
            return self._js_property(h, use)
        if self.kind == "parameter":
            self.skip("not an option property")
            return None
        b = self._js_use_binding(h, use)
        if b is None:
            return None
        return self._apply(b, use.chain, use.call, use.awaited, h.path)

    def _js_property(self, h: Any, use: Any) -> tuple[str, str] | None:
        """The leaf as a key of an object literal: an option of the package's call (or of
        its section of a config object), else the code's own object."""
        if self.kind == "name" and self.arg == "call":
            self.skip("an option key, not the function the notes name")  # "Remove functions: `x`"
            return None
        keyed = package_key(use.keys, self.package)
        if keyed:  # `devServer: { contentBase }`: the package's own section of a config object
            return "strong", f"sets {self.leaf} in the {keyed} options"
        if self._named_beside(h):  # `{ loader: 'pkg', options: {…} }`
            if self.kind == "arg_kind":
                return self._value_kind(h, use)
            return (
                "strong",
                f"sets {self.leaf} in the options given beside the name '{self.package}'",
            )
        other = self._named_other(h)
        if other:  # `{ loader: 'css-loader', options: { sourceMap } }`: that package's option
            self.skip(f"an option of {other}, named beside it")
            return None
        if self.kind == "arg_kind":  # `{ extraReducers: {…} }`
            return self._value_kind(h, use)
        if self.kind == "parameter":
            return self._js_option(h, use)
        callee = self._js_chain_binding(h.path, use.func_chain) if use.func_chain else None
        # `pkg.connect(u, { gone })`, `new Store({ gone })` with Store made by the package
        if callee is not None and callee.kind in ("package", "local-package"):
            shown = ".".join(p for p in use.func_chain if p not in ("()", "[]"))
            if distinctive(self.leaf):  # a name that rare, in the package's own call
                return (
                    "strong",
                    f"sets {self.leaf} in the options passed to {shown} ({callee.path})",
                )
            return "weak", (
                f"{WEAK_USE}: the {self.leaf} key of an object passed to {shown}, "
                f"a call of {self.package}"
            )
        through = self._passed_through_variable(h)  # const options = {…}; f(u, options)
        if through is not None:
            return self._through(through)
        self.skip("object property of the same name")
        return None

    def _js_option(self, h: Any, use: Any) -> tuple[str, str] | None:
        """A removed option: the key in the options of a call of the package's."""
        if not use.func_chain:
            through = self._passed_through_variable(h)  # const options = {…}; f(u, options)
            if through is not None:
                return self._through(through)
            if distinctive(self.leaf) and not self._in_call(h):
                # `module.exports = { options: { useLegacyParser } }`: an object built
                # here for some call not followed; a name that rare may be that option
                why = f"{WEAK_USE}: the {self.leaf} key of an object built here, its call not followed"
                return "weak", why
            self.skip("option outside a call")
            return None
        if use.func_chain[:2] == ("require", "()"):  # require('pkg').build({ watch })
            b = self._inline_require(h, use.func_chain[2:], within=True)
        else:
            b = self._js_chain_binding(h.path, use.func_chain)
        return self._owner_ok(b, use.func_chain, h.path, f"passes the {self.leaf} option")

    def _js_use_binding(self, h: Any, use: Any) -> Binding | None:
        """What a member chain's owner (or a bare name) is bound to; None when the code's own
        object sets that key."""
        if use.kind == "member" and use.chain[:2] == ("require", "()"):
            return self._inline_require(h, use.chain[2:-1])  # require('pkg').fn(…)
        if use.kind == "member":
            b = self._js_chain_binding(h.path, use.chain[:-1])
            if len(use.chain) == 2 and b.kind in ("package", "local-package"):
                own = self.o.js_member(h.path, use.chain[0], use.leaf, self.package)
                if own is not None and own.kind != "package":  # { ...zk, inflateRaw: mine }
                    self.skip("a key the code's own object sets")
                    return None
            return b
        b = self.o._js_binding(h.path, use.leaf, self.package)
        # `const { register } = useForm()`: the name is a member of what the package made
        made_member = b.kind == "local-package" and b.path == use.leaf
        if b.kind != "package" and not made_member:
            b = Binding("bare-" + b.kind)
        return b

    def _package_key(self, h: Any) -> str:
        text, starts, _, _ = self.o.js_facts(h.path)
        use = code_js.use_at(text, starts, h.line, h.col, self.leaf)
        if not use or use.kind != "property":
            return ""
        keyed = package_key(use.keys, self.package)
        return keyed or (f"'{self.package}'" if self._named_beside(h) else "")

    def _named_beside(self, h: Any) -> bool:
        """Whether the object the key at ``h`` is in sits beside a string naming the package."""
        text, starts, _, _ = self.o.js_facts(h.path)
        if h.line < 1 or h.line > len(starts):
            return False
        pos = starts[h.line - 1] + h.col - 1
        return jsnamed.names_package(jsnamed.names(text, pos), self.package)

    def _named_other(self, h: Any) -> str:
        """The other package a string beside the key's object names (``{ loader:
        'css-loader', options: {…} }``, ``['some-plugin', {…}]``), or ""."""
        text, starts, _, _ = self.o.js_facts(h.path)
        if h.line < 1 or h.line > len(starts):
            return ""
        strings = jsnamed.names(text, starts[h.line - 1] + h.col - 1)
        if jsnamed.names_package(strings, self.package):
            return ""
        return next((s for s in strings if jsnamed.PACKAGE_NAME.fullmatch(s)), "")

    def _js_import_of_leaf(self, path: str, line: int) -> Any:
        """The import of this package on ``line`` that binds the leaf as an imported member, if any."""
        for site in self.o.report(self.eco, self.package).sites:
            if site.path == path and site.line <= line <= max(
                site.line, getattr(site, "end_line", 0) or site.line
            ):
                if self.leaf in site.names.values():
                    return site
        return None

    def _through(self, found: tuple[str | None, str]) -> tuple[str, str] | None:
        evidence, why = found
        if evidence is None:
            self.skip(why)
            return None
        return evidence, why

    def _in_call(self, h: Any) -> bool:
        """Whether the hit sits inside some call's arguments (another function's options)."""
        text, starts, _, _ = self.o.js_facts(h.path)
        at = starts[h.line - 1] + h.col - 1 if 0 < h.line <= len(starts) else 0
        return code_js.unclosed_before(text, at, "(", ";") >= 0

    def _passed_through_variable(self, h: Any) -> tuple[str | None, str] | None:
        """The key of an object a declaration binds, the name then passed to a call of the
        package in the same module: as if given in the call itself."""
        text, _, _, _ = self.o.js_facts(h.path)
        starts = self.o.js_facts(h.path)[1]
        at = starts[h.line - 1] + h.col - 1 if 0 < h.line <= len(starts) else -1
        if at < 0:
            return None
        calls = code_js.passing_calls(text, at)
        for chain, name in calls:
            callee = self._js_chain_binding(h.path, chain)
            if callee.kind in ("package", "local-package"):
                shown = ".".join(p for p in chain if p not in ("()", "[]"))
                why = f"sets {self.leaf} in `{name}`, passed to {shown} ({callee.path})"
                return ("strong", why) if distinctive(self.leaf) else ("weak", f"{WEAK_USE}: {why}")
        if calls:  # `const flags = {…}; parse(text, flags)`: another function's options
            return None, "passed to another function"
        return None

    def _bracket_member(self, h: Any) -> SymbolHit | None:
        """``zk['inflateRaw']`` with ``zk`` the package's module object: a strong use."""
        line = self._line(h)
        for m in re.finditer(
            rf"""([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\[\s*(['"]){re.escape(self.leaf)}\2\s*\]""",
            line,
        ):
            b = self._js_chain_binding(h.path, tuple(m.group(1).split(".")))
            if b.kind == "package":
                why = f"{m.group(1)}['{self.leaf}'] resolves to {b.path}.{self.leaf}"
                return SymbolHit(h.path, h.line, h.col, h.text, "code", "strong", why)
        inline = re.search(  # require('pkg')['inflateRaw']: the module object, inline
            rf"""\brequire\s*\(\s*(['"])([^'"]+)\1\s*\)\s*\[\s*(['"]){re.escape(self.leaf)}\3\s*\]""",
            line,
        )
        if inline is not None and self._inline_require(h, ()).kind == "package":
            why = f"require('{inline.group(2)}')['{self.leaf}'] is {self.package}'s {self.leaf}"
            return SymbolHit(h.path, h.line, h.col, h.text, "code", "strong", why)
        return None

    def _inline_require(self, h: Any, rest: tuple[str, ...], within: bool = False) -> Binding:
        """``require('pkg').fn()`` on the line of the hit: the package's module object, when
        the import report has that bare ``require`` there (else nothing known). ``within``:
        the hit sits inside that call's arguments, so the ``require`` is the nearest one at
        or above its line (``require('pkg').build({\n  watch: …``)."""
        rep = self.o.report(self.eco, self.package)
        bare = [s for s in rep.sites if s.path == h.path and s.style == "require" and not s.names]
        placed = [s for s in bare if s.line <= h.line] if within else []
        site = (max(placed, key=lambda s: s.line, default=None) if within
                else next((s for s in bare if s.line == h.line), None))  # fmt: skip
        if site is None:
            return Binding("unknown")
        sub = f"/{site.subpath}" if site.subpath else ""
        members = [p for p in rest if p not in ("()", "[]")]
        return Binding("package", ".".join([f"{self.package}{sub}", *members]))

    def _js_chain_binding(self, path: str, chain: tuple[str, ...]) -> Binding:
        if not chain or chain[0] in ("()", "[]"):
            return Binding("unknown")
        # `Codec.zk` with `static zk = require('zipkit')` in class Codec
        own_class = (
            len(chain) > 1 and chain[0][:1].isupper() and chain[0] in self.o.js_classes(path)
        )
        if (chain[0] == "this" or own_class) and len(chain) > 1 and chain[1] not in ("()", "[]"):
            field = self.o.js_this_field(path, chain[1], self.package)  # this.codec = zk
            if field is not None:
                if field.kind == "package":
                    rest = [p for p in chain[2:] if p not in ("()", "[]")]
                    return Binding("package", ".".join([field.path, *rest]))
                return field
        if len(chain) > 1 and chain[1] not in ("()", "[]"):  # deps.zk, deps = { zk: … }
            member = self.o.js_member(path, chain[0], chain[1], self.package)
            if member is None:  # models.User, the models module filled by a loader
                member = self.o.js_local_member(path, chain[0], chain[1], self.package)
            if member is not None:
                if member.kind == "package":
                    rest = [p for p in chain[2:] if p not in ("()", "[]")]
                    return Binding("package", ".".join([member.path, *rest]))
                return member
        b = self.o._js_binding(path, chain[0], self.package)
        if b.kind == "package":
            rest = [p for p in chain[1:] if p not in ("()", "[]")]
            return Binding("package", ".".join([b.path, *rest]))
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
        text = self._line(h)[h.col - 1 + len(self.leaf) :] if h.col > 0 else ""
        value = text.split(":", 1)[1] if text.lstrip().startswith(":") else ""
        kind = code_js.arg_kind(value) if value.strip() else ""
        callee = self._js_chain_binding(h.path, use.func_chain) if use.func_chain else None
        ours = callee is not None and callee.kind in ("package", "local-package")
        if kind == self.arg and ours:
            return (
                "strong",
                f"sets {self.leaf} to a {kind} in a call of {self.package}, which no longer accepts one",
            )
        if kind == "name" and ours:
            return (
                "weak",
                f"{WEAK_USE}: sets {self.leaf} to a value of unknown kind (no longer a {self.arg})",
            )
        self.skip(
            f"gives {self.leaf} no {self.arg}" if ours else "object property of the same name"
        )
        return None

    def _declared_here(self, path: str) -> bool:
        """Whether the file declares the leaf itself (``def``/``class``/``function``)."""
        if path.endswith((".py", ".pyi")):
            return self.leaf in self.o.py_facts(path).defined
        return code_js.declares(self.o.js_facts(path)[0], self.leaf)
