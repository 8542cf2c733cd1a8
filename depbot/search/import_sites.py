"""``where_imported``: where a pip distribution or npm package is imported, and under
which names. ripgrep finds candidate files fast (the import names / the package specifier
in quotes), then only those files are parsed (``imports.py``). Built on ``CodeSearch``
(its scope, caches and file access); ``code.py`` does not import this module.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

from depbot import ecosystems
from depbot.core.errors import ToolError
from depbot.ecosystems.base import Ecosystem
from depbot.search.code import CodeSearch
from depbot.search.imports import (
    js_imports,
    module_matches,
    package_of,
    python_imports,
)
from depbot.search.lexical import COMMENT, STRING, is_config_file
from depbot.search.oversized import import_pattern, skipped_line, too_big_users
from depbot.search.scope import rust_escape, trim_line
from depbot.search.sites import ImportReport, ImportSite
from depbot.search.tsemit import emits_require, value_used
from depbot.search.workflow_sites import uses_pattern, where_workflow

PY_GLOBS = ("*.py", "*.pyi")
__all__ = ["ImportReport", "ImportSite", "where_imported", "where_javascript", "where_python"]


@lru_cache(maxsize=1)
def where_imported(cs: CodeSearch, ecosystem: str, package: str) -> ImportReport:
    """Where ``package`` (a pip distribution or npm package name) is imported in ``cs``'s
    checkout, and under which names. Raises ``ToolError`` on a bad ecosystem or name."""
    eco = ecosystems.find(ecosystem) if (ecosystem or "").strip() else None
    name = (package or "").strip()
    if eco is None or eco.name != (ecosystem or "").strip().lower():
        *others, last = (f"'{n}'" for n in ecosystems.names())
        raise ToolError(f"Unknown ecosystem {ecosystem!r}; use {', '.join(others)} or {last}.")
    if not eco.valid_name(name):
        raise ToolError(f"{package!r} is not {eco.name_noun}.")
    if eco.language == "javascript":
        report = where_javascript(cs, eco, name)
        words = [name]
    elif eco.language == "github-workflow":
        report = where_workflow(cs, eco, name)
        words = [name]
    else:
        report = where_python(cs, eco, name)
        words = sorted({n.split(".")[0] for n in report.import_names})
    rx = import_pattern(eco.language, words, uses_pattern(name))
    report.skipped = too_big_users(cs.root, cs.oversized(eco.source_globs), rx)
    if report.skipped:
        report.note += "; " + skipped_line(report.skipped, cs.settings.max_filesize)
    return report


def _site_text(cs: CodeSearch, path: str, line: int) -> str:
    lines = cs.read_lines(path)
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return trim_line(text, 1, cs.settings.hit_width)


def where_python(cs: CodeSearch, eco: Ecosystem, dist: str) -> ImportReport:
    """Python import sites of a distribution, under the names its ecosystem imports it by."""
    names = eco.import_names(dist, environment=True)
    roots = sorted({n.split(".")[0] for n in names})
    alt = "|".join(rust_escape(r) for r in roots)
    rx = rf"\b(?:import|from)\b.*\b(?:{alt})\b|__import__\(|import_module\("
    sites: list[ImportSite] = []
    for path in cs.files_containing(rx, eco.source_globs):
        try:
            text = "\n".join(cs.read_lines(path))
        except ToolError:
            continue
        merged: dict[tuple, dict] = {}
        for imp in python_imports(text):
            for import_name in names:
                got = module_matches(imp, import_name)
                if got is None:
                    continue
                sub, bound = got
                key = (imp.line, imp.col, imp.module, imp.style, import_name)
                entry = merged.setdefault(
                    key, {"imp": imp, "pkg": import_name, "sub": sub, "names": {}}
                )
                entry["names"].update(bound)
                break
        for (line, col, module, style, _), e in merged.items():
            imp = e["imp"]
            sites.append(
                ImportSite(
                    path=path,
                    line=line,
                    col=col,
                    text=_site_text(cs, path, line),
                    module=module,
                    package=e["pkg"],
                    subpath=e["sub"],
                    names=e["names"],
                    style=style,
                    esm=None,
                    conditional=imp.conditional,
                    guarded=imp.in_try or imp.in_except,
                )
            )
    sites.sort(key=lambda s: (s.path, s.line, s.col))
    files = sorted({s.path for s in sites})
    if sites:
        used = sorted({s.package for s in sites})
        note = (
            f"imported as {', '.join(used)} in {len(files)} file{'s' * (len(files) != 1)}; "
            f"{len(sites)} site{'s' * (len(sites) != 1)}"
        )
        cond = sum(1 for s in sites if s.conditional)
        if cond:
            note += f" ({cond} conditional: inside try/except/if or a function)"
    else:
        note = f"no import of {dist} found (looked for: {', '.join(names)})"
    return ImportReport(eco.name, dist, names, sites, files, note)


def _config_sites(
    cs: CodeSearch, path: str, lines: list[str], package: str, import_lines: set[int]
) -> list[ImportSite]:
    """A tool's config file that names the package's modules as strings (``setupFiles:
    ['pkg/cleanup']``, ``presets: ['pkg']``): the tool loads them, so each is a use
    (style ``config``, no names bound); lines that import it are imports, not this."""
    rx = re.compile(rf"""(['"`])({re.escape(package)}(?:/[^'"`\s]*)?)\1""")
    lex = cs.lexmap(path)
    out: list[ImportSite] = []
    for n, text in enumerate(lines, 1):
        if n in import_lines:
            continue
        for m in rx.finditer(text):
            if lex.kind_at(n, m.start() + 2) != STRING:
                continue
            spec = m.group(2)
            sub = (package_of(spec) or ("", ""))[1]
            out.append(
                ImportSite(path, n, m.start() + 1, trim_line(text, m.start() + 1,
                           cs.settings.hit_width), spec, package, sub, {}, "config",
                           None, False)
            )  # fmt: skip
    return out


# files that may load a package's file by its path in node_modules: tool configs
# (`angular.json` scripts and styles, `karma.conf.js` files), pages, stylesheets
PATH_GLOBS = ("*.json", "*.html", "*.htm", "*.css", "*.scss", "*.sass", "*.less", "*.yml", "*.yaml")


def _path_sites(cs: CodeSearch, eco: Ecosystem, package: str) -> list[ImportSite]:
    """``"scripts": ["../node_modules/idb/lib/idb.js"]``, ``<link href="node_modules/x/x.css">``:
    a file of the package loaded by its path, not resolved as a module (no ``exports`` map,
    no ``main``). Each is a use of that file (style ``path``, module ``pkg/<file>``); not in a
    comment, nor in a lock file."""
    rx = re.compile(rf"node_modules/{re.escape(package)}/([^'\"`\s)?#,;<>]+)")
    out: list[ImportSite] = []
    globs = (*eco.source_globs, *PATH_GLOBS)
    for path in cs.files_containing(rf"node_modules/{rust_escape(package)}/", globs):
        if path.rsplit("/", 1)[-1] in eco.lock_files:  # what it installed: keys, not loads
            continue
        try:
            lines = cs.read_lines(path)
        except ToolError:
            continue
        lex = cs.lexmap(path)
        hidden = _html_comments(lines) if path.endswith((".html", ".htm")) else set()
        for n, text in enumerate(lines, 1):
            for m in rx.finditer(text):
                rest = m.group(1).rstrip("/.")
                if not rest or lex.kind_at(n, m.start() + 1) == COMMENT or (n, m.start()) in hidden:
                    continue
                out.append(
                    ImportSite(path, n, m.start() + 1, trim_line(text, m.start() + 1,
                               cs.settings.hit_width), f"{package}/{rest}", package, rest, {},
                               "path", None, False)
                )  # fmt: skip
    return out


def _html_comments(lines: list[str]) -> set[tuple[int, int]]:
    """(line, column) of each ``node_modules/`` inside an HTML comment (``<!-- <script
    src="node_modules/x/x.js"> -->``): a page that no longer loads it."""
    text = "\n".join(lines)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    out: set[tuple[int, int]] = set()
    for c in re.finditer(r"<!--.*?(?:-->|$)", text, re.S):
        for m in re.finditer("node_modules/", c.group(0)):
            at = c.start() + m.start()
            n = bisect_right(starts, at)
            out.add((n, at - starts[n - 1]))
    return out


def where_javascript(cs: CodeSearch, eco: Ecosystem, package: str) -> ImportReport:
    """JS/TS import sites of a package (``require``, ``import``, ``import()``, subpaths)."""
    rx = rf"['\"`]{rust_escape(package)}(?:/[^'\"`\s]*)?['\"`]"
    sites: list[ImportSite] = []
    for path in cs.files_containing(rx, eco.source_globs):
        try:
            lines = cs.read_lines(path)
        except ToolError:
            continue
        text = "\n".join(lines)
        found = [i for i in js_imports(text, path=path) if i.package == package]
        esm = cs.is_esm(path) if found else None
        compiled = bool(found) and emits_require(cs, path, esm)
        if is_config_file(path):
            sites.extend(_config_sites(cs, path, lines, package, {i.line for i in found}))
        for imp in found:
            line_text = lines[imp.line - 1] if 0 < imp.line <= len(lines) else ""
            indented = bool(line_text) and line_text[:1] in " \t"
            conditional = imp.style == "dynamic-import" or (imp.style == "require" and indented)
            sites.append(
                ImportSite(
                    path=path,
                    line=imp.line,
                    col=imp.col,
                    text=trim_line(line_text, imp.col, cs.settings.hit_width),
                    module=imp.specifier,
                    package=imp.package,
                    subpath=imp.subpath,
                    names=dict(imp.names),
                    style=imp.style,
                    esm=esm,
                    conditional=conditional,
                    type_only=imp.type_only,
                    compiled_require=compiled
                    and imp.style == "import"
                    and value_used(text, list(imp.names)),
                )
            )
    sites += _path_sites(cs, eco, package)
    sites.sort(key=lambda s: (s.path, s.line, s.col))
    files = sorted({s.path for s in sites})
    if sites:
        styles: dict[str, int] = {}
        for s in sites:
            styles[s.style] = styles.get(s.style, 0) + 1
        how = ", ".join(f"{n} {k}" for k, n in sorted(styles.items()))
        note = (
            f"imported in {len(files)} file{'s' * (len(files) != 1)}; "
            f"{len(sites)} site{'s' * (len(sites) != 1)} ({how})"
        )
        subs = sorted({s.subpath for s in sites if s.subpath})
        if subs:
            note += f"; subpaths: {', '.join(subs)}"
        esm_files = sorted({s.path for s in sites if s.esm})
        cjs_files = sorted({s.path for s in sites if s.esm is False})
        if esm_files or cjs_files:
            note += f"; {len(esm_files)} ES module file(s), {len(cjs_files)} CommonJS file(s)"
    else:
        note = f"no import of {package} found"
    return ImportReport(eco.name, package, [package], sites, files, note)
