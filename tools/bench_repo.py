"""The checkout of ``tools/bench.py``'s generated week, and the week as a whole (``make_world``).

``write_repo`` writes about ``FILES_PER_DEP`` source files per dependency: Python under
``app/``, Node CommonJS under ``server/`` and ES modules (JavaScript, TypeScript) under
``web/src/`` (``web/package.json`` says ``"type": "module"``). Most of them are plain
application code; a dependency's file slots (``Dep.users``) import it the way real code
does (``import x`` / ``from x import f``, ``require()`` / ``import``, default or named
bindings) and call its API, and the slots in ``Dep.breakers`` also call what its update
removes. Deterministic from the seed.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

from bench_world import AREAS, FILES_PER_DEP, NOUNS, VERBS, Dep, camel, make_deps, write_upstream


def _use(
    rng: random.Random, dep: Dep, fn_name: str, esm: bool, taken: set[str], breaks: bool
) -> tuple[list[str], list[str]]:
    """(import lines, function lines) of a file calling ``dep`` (and, if affected, what it removed).

    Python: ``import mod`` then ``mod.f()``, or ``from mod import f`` then ``f()``; JavaScript:
    ``require()``/``import`` of the default export then ``pkg.f()``, or named bindings.
    """
    call = rng.choice(dep.api[2:] or dep.api)
    named = rng.random() < 0.4
    names = [call]
    py = dep.eco == "pip"
    removed = list(dep.removed) if breaks else []
    for kind, sym, of in removed:
        names.append(sym if kind == "name" else of)
    if named and taken & set(names):
        named = False  # another package already binds one of these names in this file
    if named:
        taken.update(names)

    def ref(name: str) -> str:
        if named:
            return name
        return f"{dep.module}.{name}" if py else f"{dep.alias}.{name}"

    if py:
        imports = [f"from {dep.module} import {', '.join(sorted(set(names)))}" if named
                   else f"import {dep.module}"]  # fmt: skip
        body = [
            f"def {fn_name}(items, *, limit=50):",
            f'    """Hand the first ``limit`` items to {dep.name}."""',
            "    batch = list(items)[:limit]",
            f"    result = {ref(call)}(batch)",
        ]
        for kind, sym, of in removed:
            body.append(f"    extra = {ref(sym)}(batch)" if kind == "name"
                        else f"    {ref(of)}(batch, {sym}=True)")  # fmt: skip
        return imports, body
    bound = "{ " + ", ".join(sorted(set(names))) + " }" if named else dep.alias
    imports = [f"import {bound} from '{dep.module}';" if esm
               else f"const {bound} = require('{dep.module}');"]  # fmt: skip
    body = [
        f"function {fn_name}(items, limit = 50) {{",
        "  const batch = items.slice(0, limit);",
        f"  const result = {ref(call)}(batch);",
    ]
    for kind, sym, of in removed:
        body.append(f"  const extra = {ref(sym)}(batch);" if kind == "name"
                    else f"  {ref(of)}(batch, {{ {sym}: true }});")  # fmt: skip
    return imports, body


def _filler_py(rng: random.Random, area: str) -> list[str]:
    lines = []
    for _ in range(rng.randint(2, 6)):
        verb, noun = rng.choice(VERBS).rstrip("_"), rng.choice(NOUNS)
        lines += [
            "",
            "",
            f"def {verb}_{noun}s(records: list[dict], limit: int = 50) -> list[dict]:",
            f'    """{verb.capitalize()} {noun} records of the {area} service, newest first."""',
            "    out = []",
            "    for record in sorted(records, key=lambda r: r.get('created', 0), reverse=True):",
            f"        if record.get('{noun}_id') is None:",
            "            continue",
            "        out.append(record)",
            "        if len(out) >= limit:",
            "            break",
            f"    log.debug('{verb} %d {noun}s', len(out))",
            "    return out",
        ]
    return lines


def _filler_js(rng: random.Random, area: str) -> list[str]:
    lines = []
    for _ in range(rng.randint(2, 6)):
        verb, noun = rng.choice(VERBS).rstrip("_"), rng.choice(NOUNS)
        lines += [
            "",
            f"// {verb} {noun} entries for the {area} screens",
            f"function {camel(verb, noun)}List(entries, limit = 50) {{",
            "  const out = [];",
            "  for (const entry of entries) {",
            f"    if (entry.{noun}Id == null) continue;",
            "    out.push({ ...entry, seen: true });",
            "    if (out.length >= limit) break;",
            "  }",
            "  return out;",
            "}",
        ]
    return lines


def _place(rng: random.Random, slot: int, here: list[Dep]) -> list[tuple[str, bool, list[Dep]]]:
    """The files of one slot: (language, ES module?, deps used); conflicting uses get their own."""
    lang = "py" if rng.random() < 0.5 else "js"
    if here:  # a file that uses a dependency is written in its language
        lang = "py" if here[0].eco == "pip" else "js"
    main = [d for d in here if (d.eco == "pip") == (lang == "py")]
    esm = lang == "js" and rng.random() < 0.4
    if any(d.esm_only and slot in d.breakers for d in main):
        esm = False  # the file that breaks: CommonJS requiring an ES-module-only package
    elif any(d.esm_only for d in main):
        esm = True
    apart = [
        d for d in here if d not in main or (d.esm_only and slot not in d.breakers and not esm)
    ]
    main = [d for d in main if d not in apart]
    files = [(lang, esm, main)]
    for d in apart:
        esm_ok = d.esm_only and slot not in d.breakers
        files.append(("py", False, [d]) if d.eco == "pip" else ("js", esm_ok, [d]))
    return files


def write_repo(repo: Path, deps: list[Dep], seed: int) -> int:
    """Write the checkout; returns the number of source files."""
    n_files = FILES_PER_DEP * len(deps)
    uses: dict[int, list[Dep]] = {}
    for dep in deps:
        for slot in dep.users:
            uses.setdefault(slot, []).append(dep)
    for slot in range(n_files):
        rng = random.Random(f"{seed}:file:{slot}")
        area = AREAS[slot % len(AREAS)]
        for j, (lang, esm, here) in enumerate(_place(rng, slot, uses.get(slot, []))):
            stem = f"{rng.choice(NOUNS)}_{slot}" + (f"_{j}" if j else "")
            if lang == "py":
                _write_py(rng, repo / "app" / area / f"{stem}.py", area, here, slot)
            elif esm:  # the front end: ES modules (web/package.json says "type": "module")
                ext = ".ts" if rng.random() < 0.3 else ".js"
                _write_js(rng, repo / "web" / "src" / area / f"{stem}{ext}", area, here, True, slot)
            else:  # the Node server: CommonJS
                _write_js(rng, repo / "server" / area / f"{stem}.js", area, here, False, slot)
    py_deps = [d for d in deps if d.eco == "pip"]
    npm_deps = [d for d in deps if d.eco == "npm"]
    (repo / "requirements.txt").write_text(
        "".join(f"{d.name}=={d.from_v}\n" for d in py_deps), encoding="utf-8"
    )
    pkg = {
        "name": "bench-service",
        "version": "1.0.0",
        "private": True,
        "dependencies": {d.name: f"^{d.from_v}" for d in npm_deps},
    }
    (repo / "package.json").write_text(json.dumps(pkg, indent=2) + "\n", encoding="utf-8")
    web = {"name": "bench-web", "private": True, "type": "module"}
    (repo / "web").mkdir(parents=True, exist_ok=True)
    (repo / "web" / "package.json").write_text(json.dumps(web, indent=2) + "\n", encoding="utf-8")
    (repo / "README.md").write_text(
        "# bench-service\n\nA generated service for depbot's benchmark.\n", encoding="utf-8"
    )
    (repo / ".gitignore").write_text("node_modules/\n.venv/\n__pycache__/\n", encoding="utf-8")
    return sum(1 for p in repo.rglob("*") if p.suffix in (".py", ".js", ".ts"))


def _write_py(rng: random.Random, path: Path, area: str, here: list[Dep], slot: int) -> None:
    lines = [f'"""{area.capitalize()}: {rng.choice(NOUNS)} helpers."""', "",
             "from __future__ import annotations", "", "import logging", "import os"]  # fmt: skip
    funcs: list[str] = []
    imports: list[str] = []
    taken: set[str] = set()
    for dep in here:
        fn = f"{rng.choice(VERBS).rstrip('_')}_{rng.choice(NOUNS)}s_{dep.index}"
        breaks = slot in dep.breakers
        imp, body = _use(rng, dep, fn, False, taken, breaks)
        imports += imp
        if breaks:
            body.append("    return result, extra")
        else:
            if not dep.affected and dep.kind == "breaking" and rng.random() < 0.3:
                body.insert(
                    2, f"    # {dep.removed[0][1]}() was dropped upstream; we never used it"
                )
            body.append("    return result")
        funcs += ["", ""] + body
    lines += sorted(set(imports))
    lines += ["", f"from app.{area} import settings", "", "log = logging.getLogger(__name__)"]
    lines += _filler_py(rng, area) + funcs
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _write_js(
    rng: random.Random, path: Path, area: str, here: list[Dep], esm: bool, slot: int
) -> None:
    lines = [f"// {area}: {rng.choice(NOUNS)} view helpers"]
    if not esm:
        lines.append("'use strict';")
    funcs: list[str] = []
    imports: list[str] = []
    taken: set[str] = set()
    names = []
    for dep in here:
        fn = camel(rng.choice(VERBS), rng.choice(NOUNS), str(dep.index))
        imp, body = _use(rng, dep, fn, esm, taken, slot in dep.breakers)
        imports += imp
        if not dep.affected and dep.kind == "breaking" and rng.random() < 0.3:
            body.insert(1, f"  // {dep.removed[0][1]}() is gone upstream; this file never used it")
        body += ["  return result;", "}"]
        funcs += [""] + body
        names.append(fn)
    lines += sorted(set(imports))
    lines += _filler_js(rng, area) + funcs
    if esm:
        lines.append(f"\nexport {{ {', '.join(names) or 'noop'} }};")
        if not names:
            lines.append("function noop() {}")
    else:
        lines.append(f"\nmodule.exports = {{ {', '.join(names)} }};")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# --- the whole world ------------------------------------------------------------------------


@dataclass
class World:
    folder: Path
    repo: Path
    upstream: Path
    deps: list[Dep]
    files: int

    @property
    def updates(self) -> list[dict]:
        return [
            {"ecosystem": d.eco, "package": d.name, "from": d.from_v, "to": d.to_v,
             "manifest": "requirements.txt" if d.eco == "pip" else "package.json"}
            for d in self.deps
        ]  # fmt: skip

    @property
    def truth(self) -> dict[str, str]:
        return {d.key: d.truth for d in self.deps}


def make_world(folder: Path, n: int, seed: int, upstream: Path | None = None) -> World:
    """Write the repository (and, unless ``upstream`` is given, the upstream) for ``n`` updates."""
    folder = Path(folder)
    deps = make_deps(seed, n)
    repo = folder / "repo"
    repo.mkdir(parents=True, exist_ok=True)
    files = write_repo(repo, deps, seed)
    if upstream is None:
        upstream = folder / "upstream"
        write_upstream(upstream, deps, seed)
    world = World(folder, repo, upstream, deps, files)
    (folder / "updates.json").write_text(json.dumps(world.updates, indent=1), encoding="utf-8")
    (folder / "truth.json").write_text(json.dumps(world.truth, indent=1), encoding="utf-8")
    return world
