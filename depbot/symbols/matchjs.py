"""How ``Matcher`` judges a JavaScript line that names the symbol: an import of it, a JSX
prop, an option key (in a config file the package's own section), or a member whose
receiver's binding (``symbols.jsbind``) decides; and the config-file helpers it uses."""

from __future__ import annotations

import re
from typing import Any

from depbot.symbols import javascript as code_js
from depbot.symbols import jsnamed
from depbot.symbols.callshape import WEAK_USE
from depbot.symbols.facts import Binding, SymbolHit, distinctive

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


_ASSIGNED = re.compile(r"\s*(?:\|\||&&|\?\?)?=(?![=>])")


def _written(text: str, starts: list[int], h: Any, leaf: str) -> bool:
    """Whether the member ``leaf`` at the hit is assigned to (``a.b.leaf = v``)."""
    if h.line > len(starts):
        return False
    at = text.find(leaf, starts[h.line - 1] + h.col - 1)
    return at >= 0 and bool(_ASSIGNED.match(text, at + len(leaf)))


class JsJudge:
    """The JavaScript half of ``Matcher``: the state it reads (``o``, ``leaf``, ``package`` …)
    is ``Matcher``'s."""

    o: Any
    leaf: str
    package: str
    symbol: str
    kind: str

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
            if use.kind == "member" and len(use.chain) > 1 and _written(text, starts, h, self.leaf):
                # `log.transports.file.resolvePath = fn`: an option set as a property of
                # the package's object is the option the notes name
                owner = use.chain[:-1]
                b = self._js_chain_binding(h.path, owner)
                why = f"sets the {self.leaf} option by assigning it as a property"
                return self._owner_ok(b, owner, h.path, why)
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
            if chain[0] == "this" and chain[2:4] and chain[2] not in ("()", "[]"):
                held = self.o.js_service_member(path, chain[1], chain[2], self.package)
                if held is not None:  # this.alertService.swalCustom(): what the service hands out
                    return held
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
