"""The names a checkout takes from one package: imports and members of its module objects.

Pure: over an import report and, per importing file, its Python facts or JavaScript text.
Each name is spelled as the API model spells it (``records.api.UsedName``), once, at its
first use. What the code does with a value after a call (``pkg.f().x``) is not a name of the
package's surface: a chain stops at the first call or subscript.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from depbot.records.api import UsedName
from depbot.search.import_sites import ImportReport, ImportSite
from depbot.symbols.javascript import closing_brace, destructured, destructured_calls
from depbot.symbols.python import PyFacts
from depbot.symbols.shims import js_shim

_STOP = ("()", "[]", "?")
_INLINE_REQUIRE = re.compile(
    r"""\brequire\s*\(\s*(['"])([^'"]+)\1\s*\)\s*\??\.\s*([A-Za-z_$][\w$]*)"""
)
_SETS = re.compile(r"\s*(?:=(?![=>])|\|\|=|\?\?=)")  # `pkg.x = …`, `pkg.x ||= …`: the code sets it
MAX_ALSO = 60  # other uses kept per name (a draft cites each)


def _add(
    out: dict[str, UsedName],
    name: str,
    path: str,
    line: int,
    how: str,
    col: int = 1,
    guarded: bool = False,
) -> None:
    if not name:
        return
    old = out.get(name)
    if old is None or old.guarded and not guarded:
        out[name] = UsedName(name, path, line, how, col, guarded=guarded)
    elif guarded and not old.guarded:
        return  # a use that survives the removal adds nothing to one that does not
    elif (path, line) != (old.path, old.line) and len(old.also) < MAX_ALSO:
        if all((path, line) != (p, n) for p, n, _c, _t in old.also):
            out[name] = replace(old, also=(*old.also, (path, line, col, "")))


def line_col(text: str, at: int) -> tuple[int, int]:
    """The 1-based line and column of offset ``at`` of ``text``."""
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def line_of(lines: list[str], n: int) -> str:
    """Line ``n`` (1-based) of ``lines``, stripped and cut to 300 characters ("" if none)."""
    return lines[n - 1].strip()[:300] if 0 < n <= len(lines) else ""


def _with_text(used: dict[str, UsedName], texts: Mapping[str, str]) -> list[UsedName]:
    lines = {p: t.splitlines() for p, t in texts.items()}
    out = []
    for u in used.values():
        text = line_of(lines.get(u.path, []), u.line)
        also = tuple((p, n, c, line_of(lines.get(p, []), n)) for p, n, c, _t in u.also)
        out.append(UsedName(u.name, u.path, u.line, u.how, u.col, text, u.guarded, also))
    return sorted(out, key=lambda u: (u.path, u.line, u.name))


def python_used(
    report: ImportReport, facts: Mapping[str, PyFacts], texts: Mapping[str, str]
) -> list[UsedName]:
    """``from a.b import C`` → ``a.b.C``; ``import a`` then ``a.b.c(…)`` → ``a.b.c``."""
    tops = {s.module.split(".")[0] for s in report.sites}
    out: dict[str, UsedName] = {}
    for site in report.sites:
        for imported in site.names.values() or ("*",):
            full = site.module if imported == "*" else f"{site.module}.{imported}"
            _add(out, full, site.path, site.line, "import", site.col, site.guarded)
    for path in report.files:
        f = facts.get(path)
        if f is None:
            continue
        for uses in f.uses.values():
            for use in uses:
                if use.kind not in ("attr", "name") or use.root not in f.imports:
                    continue
                target = f.imports[use.root]
                if target.split(".")[0] not in tops:
                    continue
                chain = []
                for part in use.chain[1:]:
                    if part in _STOP:
                        break
                    chain.append(part)
                if chain:
                    _add(out, ".".join([target, *chain]), path, use.line, "member", use.col)
    return _with_text(out, texts)


MADE = re.compile(r"(?<![\w$.])(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:await\s+)?$")
# a field of the class the code is in, given what the call made: `this.client = new Pool()`
_MADE_FIELD = re.compile(r"(?<![\w$.])this\.([A-Za-z_$][\w$]*)\s*=\s*(?:await\s+)?$")


def member_calls(text: str, local: str) -> list[tuple[int, str]]:
    """(offset, ``f`` or ``new P``) of each ``local.f(…)`` / ``new local.P(…)`` in ``text``."""
    found = re.finditer(
        rf"(?<![\w$.])(new\s+)?{re.escape(local)}\.([A-Za-z_$][\w$]*)\s*(?:<[^;()]*>)?\(", text
    )
    return [(m.start(), f"{'new ' if m.group(1) else ''}{m.group(2)}") for m in found]


def own_calls(text: str, local: str) -> list[tuple[int, bool]]:
    """(offset, made with ``new``) of each ``local(…)`` and then each ``new local(…)``."""
    word = re.escape(local)
    called = re.finditer(rf"(?<![\w$.]){word}\s*(?:<[^;()]*>)?\(", text)
    made = re.finditer(rf"(?<![\w$.])new\s+{word}\s*(?:<[^;()]*>)?\(", text)
    return [
        *((m.start(), False) for m in called if text[max(0, m.start() - 4) : m.start()] != "new "),
        *((m.start(), True) for m in made),
    ]


def made_by(text: str, local: str) -> list[tuple[str, str]]:
    """``(variable, "create()")`` (or ``"new Pool()"``) for each variable that holds what a
    member of the module object ``local`` made or returned (``const c = lib.create(…)``)."""
    out = []
    for at, made in member_calls(text, local):
        head = MADE.search(text, max(0, at - 120), at)
        if head is not None:
            out.append((head.group(1), f"{made}()"))
    return list(dict.fromkeys(out))


def _returned(out: dict[str, UsedName], text: str, path: str, maker: str, at: int) -> None:
    """The call (or ``new``) at ``at`` assigned, ``const c = <call>``: each ``c.member`` is
    ``<maker>().member``, a member of what the call returned."""
    head = MADE.search(text, max(0, at - 120), at)
    field = _MADE_FIELD.search(text, max(0, at - 120), at)
    if head is not None:
        held = rf"(?<![\w$.]){re.escape(head.group(1))}"
    elif field is not None:  # `this.validator = new Validator()`: read as `this.validator.x`
        held = rf"(?<![\w$.])this\.{re.escape(field.group(1))}"
    else:
        return
    for m in re.finditer(rf"{held}\??\.([A-Za-z_$][\w$]*)", text):
        line, col = line_col(text, m.start())
        _add(out, f"{maker}().{m.group(1)}", path, line, "member", col)


def _destructured_results(
    out: dict[str, UsedName], text: str, path: str, local: str, name: str, through: bool
) -> None:
    """Each key of an object pattern given the result of a call of ``local`` (with
    ``through``, of its member ``local.f``): ``name().key`` (``name:f().key``), a member of
    what the call returned."""
    for at, callee, key in destructured_calls(text):
        if through and callee.startswith(local + "."):
            maker = f"{name}:{callee[len(local) + 1 :]}"
        elif not through and callee == local:
            maker = name
        else:
            continue
        line, col = line_col(text, at)
        _add(out, f"{maker}().{key}", path, line, "member", col)


def _made_members(
    out: dict[str, UsedName],
    text: str,
    site: ImportSite,
    name: str,
    local: str,
    through: bool = False,
) -> None:
    """The members used of what ``local`` makes: ``const c = local()`` / ``new local()`` (the
    name ``name``, ``pkg:createClient``), or with ``through`` ``local.f()`` / ``new local.P()``
    (``name`` the module, ``pkg``): ``c.head`` is ``pkg:createClient().head`` /
    ``pkg:new Pool().head`` (``name`` ``pkg:default``: ``pkg:new default().head``); a key of
    ``const { head } = local()`` is one too."""
    if not through:
        _destructured_results(out, text, site.path, local, name, through)
        maker = name.replace(":", ":new ", 1) if ":" in name else name
        for at, new in own_calls(text, local):
            _returned(out, text, site.path, maker if new else name, at)
        return
    for at, made in member_calls(text, local):
        _returned(out, text, site.path, f"{name}:{made}", at)
    _destructured_results(out, text, site.path, local, name, through)


def _subclass_members(
    out: dict[str, UsedName], text: str, path: str, maker: str, base: str
) -> None:
    """``class Store extends Base { … this.persist() … super.load() }``: each member read on
    ``this`` or ``super`` in the body of a class that extends ``base`` (a pattern: ``Base``,
    ``lib.Base`` escaped) is one of what ``new Base()`` makes (``maker``: ``pkg:new Base``). A member
    the class declares itself is no name of the old release's class, so it stays unmatched."""
    for m in re.finditer(rf"\bclass\b[^{{;]*?\bextends\s+{base}\s*(?:<[^{{]*>)?\s*\{{", text):
        end = closing_brace(text, m.end() - 1)
        for read in re.finditer(r"\b(?:this|super)\??\.([A-Za-z_$][\w$]*)", text[m.end() : end]):
            line, col = line_col(text, m.end() + read.start())
            _add(out, f"{maker}().{read.group(1)}", path, line, "member", col)


def _module_key(site: ImportSite) -> str:
    """``pkg/lib/x.js`` and ``pkg/lib/x/index`` are ``pkg/lib/x``; a package named with a
    ``.js`` (``chart.js``) keeps its name."""
    if not site.subpath or site.style == "path":  # a file loaded by its path: that file
        return site.module
    return site.module.removesuffix(".js").removesuffix("/index")


def js_used(report: ImportReport, texts: Mapping[str, str]) -> list[UsedName]:
    """``import { a } from 'pkg/sub'`` → ``pkg/sub:a``; ``const p = require('pkg')`` then
    ``p.b`` → ``pkg:b``; a default import → ``pkg:default``; any import → its module."""
    out: dict[str, UsedName] = {}
    for site in report.sites:
        if site.type_only:  # `import type { Options }`: a name the compiler looks up
            for imported in site.names.values():
                if imported not in ("*", "default"):
                    name = f"{_module_key(site)}:{imported}"
                    _add(out, name, site.path, site.line, "import", site.col)
            continue
        module = _module_key(site)
        _add(out, module, site.path, site.line, "path" if site.style == "path" else "import",
             site.col)  # fmt: skip
        if site.style == "require" and not site.names:  # require('pkg').fn(…) on that line
            text = texts.get(site.path, "")
            lines = text.splitlines()
            line = lines[site.line - 1] if 0 < site.line <= len(lines) else ""
            for m in _INLINE_REQUIRE.finditer(line):
                if m.group(2) == site.module:
                    _add(
                        out,
                        f"{module}:{m.group(3)}",
                        site.path,
                        site.line,
                        "member",
                        m.start(3) + 1,
                    )
        for local, imported in site.names.items():
            text = texts.get(site.path, "")
            if imported not in ("*", "default"):
                _add(out, f"{module}:{imported}", site.path, site.line, "import", site.col)
                _made_members(out, text, site, f"{module}:{imported}", local)
                if re.fullmatch(r"[A-Za-z_$][\w$]*", local):
                    _subclass_members(out, text, site.path, f"{module}:new {imported}",
                                      re.escape(local))  # fmt: skip
                prefix = f"{module}:{imported}"  # its members: `pkg:Form.create` (fates.py)
            else:
                prefix = module
            if imported == "default" and site.style != "require":
                _add(out, f"{module}:default", site.path, site.line, "import", site.col)
                prefix = f"{module}:default"  # its members: `pkg:default.x` (fates.py)
            if not re.fullmatch(r"[A-Za-z_$][\w$]*", local):
                continue
            if imported == "default" and prefix != module:  # `new Lib()` of a default export
                _made_members(out, text, site, f"{module}:default", local)
                _subclass_members(out, text, site.path, f"{module}:new default", re.escape(local))
            elif prefix == module:  # `lib.createClient()`, `new lib.Pool()`: what it makes
                _made_members(out, text, site, module, local, through=True)
                for m in re.finditer(rf"\bextends\s+{re.escape(local)}\.([A-Za-z_$][\w$]*)", text):
                    base = rf"{re.escape(local)}\.{re.escape(m.group(1))}"
                    _subclass_members(out, text, site.path, f"{module}:new {m.group(1)}", base)
            for m in re.finditer(
                rf"(?<![\w$.'\"`/]){re.escape(local)}\.([A-Za-z_$][\w$]*)(?:\.([A-Za-z_$][\w$]*))?",
                text,
            ):
                start = text.rfind("\n", 0, m.start()) + 1
                if text[start : m.start()].lstrip().startswith(("//", "*", "/*")):
                    continue  # a comment names it: not a use
                line, col = line_col(text, m.start())
                name = f"{prefix}.{m.group(1)}" if prefix != module else f"{module}:{m.group(1)}"
                shim = bool(js_shim(text, line, m.group(1)))  # `x.new = x.new || x.old`
                how = "assigned" if _SETS.match(text, m.end(1)) else "member"
                _add(out, name, site.path, line, how, col, shim)
                if m.group(2):  # `lib.ns.Member`: the namespace's member too (fates.py)
                    how = "assigned" if _SETS.match(text, m.end()) else "member"
                    _add(out, f"{name}.{m.group(2)}", site.path, line, how, col, shim)
            for m in re.finditer(
                rf"""(?<![\w$.]){re.escape(local)}\s*\[\s*(['"])([A-Za-z_$][\w$]*)\1\s*\]""", text
            ):
                line, col = line_col(text, m.start())  # `local['member']`
                name = f"{prefix}.{m.group(2)}" if prefix != module else f"{module}:{m.group(2)}"
                _add(out, name, site.path, line, "member", col)
            for offset, value, key in destructured(text):  # `const { a: b } = local`
                if value != local or text[:offset].rstrip().endswith(("//", "*")):
                    continue
                line, col = line_col(text, offset)
                name = f"{prefix}.{key}" if prefix != module else f"{module}:{key}"
                _add(out, name, site.path, line, "member", col)
    _augmented(out, report, texts)
    return _with_text(out, texts)


# `declare module 'pkg' {`: a block of a TypeScript file that imports pkg augments its types
_AUGMENT = re.compile(r"""\bdeclare\s+module\s+(['"])([^'"\n]+)\1\s*\{""")
_DECLARES = re.compile(
    r"\s*(?:export\s+)?(?:interface|type|namespace|class|enum)\s+([A-Za-z_$][\w$]*)"
)


def _augmented(out: dict[str, UsedName], report: ImportReport, texts: Mapping[str, str]) -> None:
    """``declare module 'react-redux' { interface DefaultRootState extends RootState {} }`` in
    a file that imports the package: the code relies on the package's ``DefaultRootState``
    (``pkg:DefaultRootState``, how ``augments``). A release without it leaves the block
    augmenting nothing: the types it was to change fall back to their defaults."""
    modules: dict[str, set[str]] = {}
    for site in report.sites:
        modules.setdefault(site.path, set()).add(site.module)
    for path, imported in modules.items():
        text = texts.get(path, "")
        for m in _AUGMENT.finditer(text):
            if m.group(2) not in imported:
                continue  # without the import, an ambient module: it declares, not augments
            depth, at = 0, m.end()
            for line in text[m.end() :].splitlines(keepends=True):
                found = _DECLARES.match(line) if depth == 0 else None
                if found:
                    start = at + found.start(1)
                    number, col = line_col(text, start)
                    _add(out, f"{m.group(2)}:{found.group(1)}", path, number, "augments", col)
                depth += line.count("{") - line.count("}")
                at += len(line)
                if depth < 0:  # the block's closing brace
                    break


def workflow_used(report: ImportReport) -> list[UsedName]:
    """What workflow steps take from an action: each input they give (``inputs.<name>``, at
    its ``with:`` key) and each output they read (``outputs.<name>``, at the read)."""
    out: dict[str, UsedName] = {}
    prefix = {"with": "inputs", "output": "outputs"}
    for site in report.sites:
        if site.style in prefix:
            _add(out, f"{prefix[site.style]}.{site.subpath}", site.path, site.line, "import",
                 site.col)  # fmt: skip
    return list(out.values())
