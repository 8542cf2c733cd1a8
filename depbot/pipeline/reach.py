"""``who_loads``: whether anything in this checkout, or a package it declares, may load a
package besides an import. The I/O half of ``ecosystems/<name>/reach.py``.

It looks, in order, and stops at the first thing that reaches the package: its imports;
the checkout's files that name it or one of its commands (prose and lock files aside; a
package.json without its dependency lists); a tool that may load it by convention; then
each other package the manifest declares, whose released package.json (at the version in
use) may need it. A package that needs it reaches it only when something reaches that package
in turn (an import, a file naming it, a tool's convention, or a third declared package that
needs it): a peer of a package nothing here loads is never loaded either. What it cannot look
at goes to ``unseen``: never a silent gap.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from depbot import ecosystems
from depbot.core.errors import ToolError, UpstreamError
from depbot.pipeline.needers import Chain
from depbot.records.declared import Declared
from depbot.records.reach import Reach
from depbot.records.update import Update
from depbot.search.code import CodeSearch
from depbot.search.lexical import COMMENT
from depbot.search.scope import rust_escape
from depbot.search.sites import ImportReport
from depbot.updates.registries import Registries

MAX_SHOWN = 4
# an address: a script or a page it names is served from elsewhere, not this install
_URL = re.compile(r"\b(?:https?|ftp)://[^\s'\"<>)]+")
# a property read off another value in code (`client.open(…)`): no name of a package
_MEMBER = re.compile(r"[\w$)\]]\s*\??\.\s*$")
_MEMBER_LANGUAGES = frozenset({"javascript", "python"})
MAX_DEPENDENCIES = 150  # more declared packages than this are not all read: said, unseen


def who_loads(
    update: Update,
    imports: ImportReport,
    code: CodeSearch,
    registries: Registries,
    repo: Path,
    imported: Callable[[str], ImportReport] | None = None,
) -> Reach:
    """What may load ``update``'s package in this checkout, as far as can be looked at.
    ``imported`` finds where another package is imported (None: a package that needs this one
    counts as reached, unlooked)."""
    pkg = update.package
    eco = ecosystems.get(update.ecosystem)
    rules = eco.reach_rules()
    if imports.skipped:
        return Reach(reached=(f"{len(imports.skipped)} file(s) too big to search",))
    read = [s for s in imports.sites if rules is None or not _unread(code, rules, s)]
    if read:
        return Reach(reached=tuple(f"imported at {s.path}:{s.line}" for s in read[:MAX_SHOWN]))
    if rules is None:
        return Reach(unseen=(f"what loads a {eco.name} package besides an import is not read",))
    unread = tuple(f"{s.path}:{s.line} " + ", ".join(f"`{n}`" for n in s.names)
                   for s in imports.sites)  # fmt: skip
    looked = [
        f"no file imports {pkg}"
        if not unread
        else f"every import of {pkg} binds names its file never reads ({'; '.join(unread[:3])})"
    ]
    declared, why = _declared(eco, repo, update.manifest, code)
    if why:
        return Reach(unseen=(why,), looked=tuple(looked))
    commands, unseen = _commands(registries, update, rules)
    if unseen:
        return Reach(unseen=tuple(unseen), looked=tuple(looked))
    big = [
        f"{path} ({size} bytes)" for path, size in code.oversized() if not rules.skipped_file(path)
    ]
    if big:
        return Reach(unseen=(f"{len(big)} file(s) too big to search may name it: "
                             + ", ".join(big[:3]),), looked=tuple(looked))  # fmt: skip
    named = _named(code, rules, [pkg, *commands], {(s.path, s.line) for s in imports.sites})
    if named:
        return Reach(reached=tuple(named[:MAX_SHOWN]), looked=tuple(looked))
    words = ", ".join(f"`{w}`" for w in [pkg, *commands])
    looked.append(f"no file names {words} (prose and lock files aside)")
    hosts = [d for d in declared if rules.extends(pkg, d.name)]  # `react` of `react-x`
    convention = rules.by_convention(pkg, [d.name for d in hosts if _a_tool(registries, d)])
    if convention:
        return Reach(unseen=(f"a tool may load it without its name: {convention}",),
                     looked=tuple(looked))  # fmt: skip
    others = [d for d in declared if d.name != pkg]
    local = _workspace_packages(repo, code, eco.default_manifest)
    needed, unseen, docs = _needed_by(registries, update, rules, others, local)
    if unseen:
        return Reach(reached=tuple(n for _, n in needed[:MAX_SHOWN]),
                     unseen=tuple(unseen[:MAX_SHOWN]), looked=tuple(looked))  # fmt: skip
    own = {"name": pkg, "bin": {c: c for c in commands}}  # its commands, read above
    chain = Chain(code, rules, imported, docs | {pkg: own}, [d.name for d in declared],
                  _named, _unread)  # fmt: skip
    live = [f"{n}; {how}" for name, n in needed if (how := chain.reaches(name, frozenset({pkg})))]
    if live:
        return Reach(reached=tuple(live[:MAX_SHOWN]), looked=tuple(looked))
    looked += [f"{n}, but nothing here loads {name}: {chain.looked(name)}" for name, n in needed]
    if not needed:
        looked.append(f"none of the {len(others)} other package(s) this checkout declares needs "
                      "it (their released package.json at the version in use)")  # fmt: skip
    return Reach(looked=tuple(looked[: MAX_SHOWN + 2]), unread=unread)


def _declared(eco: Any, repo: Path, manifest: str, code: CodeSearch) -> tuple[list[Declared], str]:
    """The packages the checkout's manifests declare (the update's first: a workspace's
    package may need what the root declares), or why one could not be read."""
    path = repo / (manifest or eco.default_manifest)
    if not manifest or not path.is_file():
        return [], f"the manifest that declares it ({manifest or '?'}) could not be read"
    others = [p for p in code.files((eco.default_manifest, f"**/{eco.default_manifest}"))
              if p != manifest and eco.is_manifest(repo / p)]  # fmt: skip
    out: dict[str, Declared] = {}
    for rel in [manifest, *others]:
        try:
            got, _ = eco.read_manifest(repo / rel, repo, rel, code.settings.secret_files, None)
        except (OSError, ValueError) as exc:
            return [], f"{rel} could not be read ({str(exc)[:120]})"
        for d in got:
            out.setdefault(d.name, d)
    return list(out.values()), ""


def _commands(registries: Registries, update: Update, rules: Any) -> tuple[list[str], list[str]]:
    """The commands both releases install (their ``bin``), or why they are not known."""
    out: list[str] = []
    for version in (update.from_version, update.to_version):
        try:
            doc = registries.version_document(update.ecosystem, update.package, version)
        except UpstreamError as exc:
            return [], [f"the commands of {update.package} {version} are not known ({exc})"[:200]]
        out += [c for c in rules.bins(doc) if c not in out]
    return out, []


def _unread(code: CodeSearch, rules: Any, site: Any) -> bool:
    """Whether an import site binds only names its file never reads: a name mentioned only
    in a comment (``// .use(emoji)``, a call commented out) is not read."""
    try:
        lines = code.read_lines(site.path)
        lex = code.lexmap(site.path)
    except ToolError:
        return False
    text = "\n".join(_blank(line, lex.spans(n)) for n, line in enumerate(lines, 1))
    return rules.never_read(site.style, site.names, text, site.module)


def _blank(line: str, spans: Any) -> str:
    """``line`` with its comments blanked (the same length: columns stay where they were)."""
    for start, end, kind in spans:
        if kind == COMMENT:
            line = line[:start] + " " * (min(end, len(line)) - start) + line[end:]
    return line


def _named(
    code: CodeSearch, rules: Any, words: list[str], imports: set[tuple[str, int]]
) -> list[str]:
    """``path:line`` of each file line that names one of ``words`` as a word (the lines of
    the ``imports`` whose names are never read, and comments, aside)."""
    out: list[str] = []
    for w in dict.fromkeys(words):
        pattern = rules.word(w)
        for path in code.files_containing(rust_escape(w)):
            if rules.skipped_file(path):
                continue
            lines = code.read_lines(path)
            if path.rsplit("/", 1)[-1] == "package.json":
                rest = rules.manifest_rest("\n".join(lines))
                if rest is not None:
                    if pattern.search(rest):
                        out.append(f"`{w}` named in {path} (besides its dependency lists)")
                    continue
            for i, text in enumerate(lines, 1):
                if (path, i) not in imports and _names_outside_comments(
                    code, pattern, path, i, text
                ):
                    out.append(f"`{w}` named at {path}:{i}")
                    break
    return out


def _names_outside_comments(
    code: CodeSearch, pattern: Any, path: str, line: int, text: str
) -> bool:
    """Whether ``text`` (line ``line`` of ``path``) names the word outside a comment and
    outside an address: a commented-out ``// import Chart from 'chart.js'`` loads nothing,
    ``<script src="https://js.pkg.com/v3/">`` loads a copy served from elsewhere, and in
    code ``client.open(contract)`` reads a property of another value (a string's
    ``'views/x.ejs'`` still names ``ejs``)."""
    urls = [u.span() for u in _URL.finditer(text)]
    members = code.lexmap(path).language in _MEMBER_LANGUAGES
    for m in pattern.finditer(text):
        where = code.context_of(path, line, m.start() + 1)
        if where == "comment" or any(a <= m.start() < b for a, b in urls):
            continue
        if members and where == "code" and _MEMBER.search(text[: m.start()]):
            continue
        return True
    return False


def _a_tool(registries: Registries, d: Declared) -> bool:
    """Whether the release of ``d`` in use installs a command (a tool that may find its
    plugins by prefix); a library that installs none (a UI framework) loads nothing by a
    name's prefix. Not known (no version, not readable): taken as a tool."""
    eco = ecosystems.get(d.ecosystem)
    version = _version_in_use(eco, d)
    if not version:
        return True
    try:
        doc = _release_in_use(registries, d.ecosystem, d, version)
    except UpstreamError:
        return True
    return bool(eco.reach_rules().bins(doc))


def _version_in_use(eco: Any, d: Declared) -> str:
    """The version of ``d`` in use: the lock's, the pin, else the range's lowest ("" when
    none reads as a version)."""
    version = d.installed or d.pinned or eco.lower_bound(d.spec)
    return version if version and eco.parse_version(version) is not None else ""


def _release_in_use(
    registries: Registries, ecosystem: str, d: Declared, version: str
) -> dict[str, Any]:
    """The document of the release of ``d`` in use: ``version`` (the lock's, the pin, the
    range's lowest); a lowest that was never published gives way to the newest release the
    range takes (what an install without a lock picks). A name the registry lists with no
    release at all installs nothing: an empty document, which needs nothing."""
    try:
        return registries.version_document(ecosystem, d.name, version)
    except UpstreamError as exc:
        if exc.kind != "not_found" or d.installed or d.pinned:
            raise
    rules = ecosystems.get(ecosystem).reach_rules()
    published = registries.info(ecosystem, d.name).versions
    if not published:  # the registry has the name and no release of it (a security holding
        return {}  # package, one unpublished): nothing of it is installed, so it needs nothing
    newest = rules.newest_taken(published, d.spec)
    if newest is None:
        raise UpstreamError("not_found", f"no release of {d.name} takes `{d.spec}`")
    return registries.version_document(ecosystem, d.name, newest)


def _workspace_packages(repo: Path, code: CodeSearch, manifest: str) -> dict[str, dict[str, Any]]:
    """``{name: its package.json}`` of each package of this checkout (a workspace of a
    monorepo: ``"@app/common": "workspace:*"`` is read here, not asked of the registry)."""
    out: dict[str, dict[str, Any]] = {}
    for rel in code.files((manifest, f"**/{manifest}")):
        try:
            data = json.loads((repo / rel).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        name = data.get("name") if isinstance(data, dict) else None
        if isinstance(name, str) and name:
            out.setdefault(name, {**data, "_path": rel})
    return out


def _needed_by(
    registries: Registries,
    update: Update,
    rules: Any,
    others: list[Declared],
    local: dict[str, dict[str, Any]] | None = None,
) -> tuple[list[tuple[str, str]], list[str], dict[str, dict[str, Any]]]:
    """(each declared package whose release needs it: its name and how, what could not be
    read, the released package.json of each declared package read). A package the registry
    does not know that is a workspace of this checkout (``local``) is read from its own
    package.json."""
    local = local or {}
    eco = ecosystems.get(update.ecosystem)
    unseen = [f"{len(others) - MAX_DEPENDENCIES} more declared package(s) were not read"] if len(
        others
    ) > MAX_DEPENDENCIES else []  # fmt: skip

    settings = registries.settings
    cap = settings.tool_call_seconds
    until = None if cap is None else time.monotonic() + cap

    def one(d: Declared) -> tuple[str, str, dict[str, Any] | None]:
        left = None if until is None else max(0.0, until - time.monotonic())
        with registries.http.call_deadline(left):  # this tool call's share, on every thread
            return _one(d)

    def _one(d: Declared) -> tuple[str, str, dict[str, Any] | None]:
        takes = lambda spec: eco.in_ranges(update.to_version, (spec,))  # noqa: E731
        version = _version_in_use(eco, d)
        try:
            if not version:
                raise UpstreamError("not_found", "no version to read")
            doc = _release_in_use(registries, update.ecosystem, d, version)
        except UpstreamError as exc:
            if exc.kind != "not_found" or d.name not in local:
                said = f"{d.name} {version}: {exc}" if version else f"{d.name} `{d.spec}`: {exc}"
                return "", said[:200], None
            # the registry does not know it, and a workspace of this checkout is it (an
            # unpublished or private package of a monorepo): its own package.json says
            doc = local[d.name]
            how = rules.needs(doc, update.package, takes)
            return (f"{d.name} ({doc['_path']} here) needs it {how}" if how else ""), "", doc
        how = rules.needs(doc, update.package, takes)
        return (f"{d.name} {doc.get('version') or version} needs it {how}" if how else ""), "", doc

    with ThreadPoolExecutor(max(1, settings.registry_concurrency)) as pool:
        got = list(pool.map(one, others[:MAX_DEPENDENCIES]))
    read = others[:MAX_DEPENDENCIES]
    needed = [(d.name, n) for d, (n, _, _) in zip(read, got, strict=True) if n]
    unseen += [f"the release of {u}" for _, u, _ in got if u]
    docs = {d.name: doc for d, (_, _, doc) in zip(read, got, strict=True) if doc is not None}
    return needed, unseen, docs
