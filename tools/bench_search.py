"""Benchmark ``CodeSearch.search_code`` against raw ripgrep and a pure-Python walk.

    python tools/bench_search.py [DIR] [--files 100000] [--runs 7] [--keep]

Generates (once; reused when DIR already holds a tree of the same size) a large checkout
of realistic Python and JavaScript files, plus the clutter the scope skips (node_modules,
a virtualenv, build output, a git-ignored folder, minified bundles). Then, for a rare
literal (a removed keyword argument), a common one (a method call found in many
files), a dense one and a JavaScript one (inside template literals' ``${…}``, so every
classified hit needs the file's tree-sitter parse), it times the median of ``--runs`` runs each of:

- ``search_code``: ``CodeSearch.search_code(pattern)`` on one ``CodeSearch`` (as triage
  uses it: the scope is computed on the first call, which is timed separately);
- ``raw rg``: the exact ripgrep command line ``search_code`` runs (same flags, globs and
  scope, ``--json``), output read in full by a subprocess pipe;
- ``python walk``: ``os.walk`` pruning the same directories, reading every file, skipping
  binaries, secret names and big files, ``re.finditer`` on the text.

Targets: search_code within 1.3x of raw rg, and at least 20x faster than the Python walk.
Prints a table and one JSON line. The tree goes to DIR or a temporary directory (deleted
at the end unless ``--keep``); never commit it.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from depbot.core.settings import Settings  # noqa: E402
from depbot.search.code import CodeSearch  # noqa: E402

RARE = "method_whitelist"  # a removed keyword argument: ~0.5% of files
COMMON = "self.session.get("  # a call in ~12% of files
DENSE = "log.debug("  # in most Python files, several times each
JS = "JSON.stringify(opts)"  # in every JS file, inside template literals' ${…} (parsed)
FILES_PER_DIR = 100
STAMP = ".bench-tree.json"

_WORDS = (
    "user account order invoice item price total count record entry event payload token "
    "session client server request response config option value result cache index batch "
    "queue worker task job report metric label status state error retry timeout limit page"
).split()


def _ident(rng: random.Random, n: int = 2) -> str:
    return "_".join(rng.choice(_WORDS) for _ in range(n))


def _camel(rng: random.Random) -> str:
    a, b = rng.choice(_WORDS), rng.choice(_WORDS)
    return a + b.capitalize()


def _py_function(rng: random.Random) -> str:
    name, arg, other = _ident(rng), _ident(rng, 1), _ident(rng, 1)
    body = [
        f"def {name}({arg}, {other}=None, *, timeout: float = 5.0) -> dict:",
        f'    """Return the {rng.choice(_WORDS)} {rng.choice(_WORDS)} for ``{arg}``."""',
        f"    if {arg} is None:",
        f'        raise ValueError("{arg} is required")',
        f"    data = {{'{rng.choice(_WORDS)}': {arg}, '{rng.choice(_WORDS)}': {other}}}",
        f"    for key, value in sorted(data.items()):  # keep {rng.choice(_WORDS)} order",
        "        log.debug('%s=%r', key, value)",
        "    return {k: v for k, v in data.items() if v is not None}",
        "",
    ]
    return "\n".join(body)


def _py_class(rng: random.Random, common: bool) -> str:
    name = _camel(rng).capitalize()
    call = (
        f"        resp = self.session.get(self.base + '/{rng.choice(_WORDS)}', timeout=5)\n"
        if common
        else f"        resp = self.client.fetch('/{rng.choice(_WORDS)}')\n"
    )
    return (
        f"class {name}:\n"
        f'    """A {rng.choice(_WORDS)} {rng.choice(_WORDS)} backed by the API."""\n\n'
        f"    def __init__(self, base: str, session=None) -> None:\n"
        f"        self.base = base.rstrip('/')\n"
        f"        self.session = session\n\n"
        f"    def {_ident(rng)}(self, {_ident(rng, 1)}: int) -> list:\n"
        + call
        + "        resp.raise_for_status()\n"
        "        return resp.json()\n\n"
    )


def _js_function(rng: random.Random) -> str:
    name, arg = _camel(rng), rng.choice(_WORDS)
    return (
        f"// {rng.choice(_WORDS)} helpers for the {rng.choice(_WORDS)} view\n"
        f"function {name}({arg}, opts = {{}}) {{\n"
        f"  const {{ {rng.choice(_WORDS)}, limit = 10 }} = opts;\n"
        f"  if (!{arg}) throw new Error(`missing {arg}: ${{JSON.stringify(opts)}}`);\n"
        f"  return {arg}.filter((x) => x.{rng.choice(_WORDS)} !== undefined).slice(0, limit);\n"
        f"}}\n\n"
    )


def _py_file(rng: random.Random, rare: bool, common: bool) -> str:
    parts = [
        f'"""{rng.choice(_WORDS).capitalize()} {rng.choice(_WORDS)} module."""\n',
        "from __future__ import annotations\n\nimport logging\nimport json\n",
        f"from .{rng.choice(_WORDS)} import {_camel(rng)}\n\nlog = logging.getLogger(__name__)\n\n",
    ]
    for _ in range(rng.randint(4, 14)):
        parts.append(_py_function(rng))
    parts.append(_py_class(rng, common))
    if rare:
        parts.append(
            "def build_retry(total=3):\n"
            f"    return Retry(total=total, {RARE}=frozenset({{'GET'}}))  # old urllib3 name\n"
        )
    return "\n".join(parts)


def _js_file(rng: random.Random, rare: bool) -> str:
    parts = [
        "'use strict';\n",
        f"const {rng.choice(_WORDS)} = require('./{rng.choice(_WORDS)}');\n",
        "const _ = require('lodash');\n\n",
    ]
    for _ in range(rng.randint(6, 18)):
        parts.append(_js_function(rng))
    if rare:
        parts.append(f"// see {RARE} in the python client\nconst legacy = {{ {RARE}: [] }};\n")
    parts.append("module.exports = { };\n")
    return "".join(parts)


def generate(root: Path, n_files: int, seed: int = 7) -> dict:
    """Write the tree; returns its description (also stored in ``root/STAMP``)."""
    stamp = root / STAMP
    if stamp.exists():
        info = json.loads(stamp.read_text())
        if info.get("files") == n_files and info.get("seed") == seed:
            return info
        shutil.rmtree(root)
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    (root / ".gitignore").write_text("generated/\n*.log\n")
    total_bytes = 0
    n_dirs = max(1, n_files // FILES_PER_DIR)
    made = 0
    for d in range(n_dirs):
        pkg = root / "services" / f"svc{d // 40:03d}" / f"mod{d % 40:02d}"
        pkg.mkdir(parents=True, exist_ok=True)
        for f in range(FILES_PER_DIR):
            if made >= n_files:
                break
            rare = rng.random() < 0.004
            if rng.random() < 0.6:
                text = _py_file(rng, rare, common=rng.random() < 0.2)
                path = pkg / f"{_ident(rng, 1)}_{f:03d}.py"
            else:
                text = _js_file(rng, rare)
                path = pkg / f"{_camel(rng)}{f:03d}.js"
            data = text.encode()
            path.write_bytes(data)
            total_bytes += len(data)
            made += 1
    # clutter the scope must skip (a few percent of the files)
    clutter = [
        "node_modules/lodash/index.js",
        ".venv/lib/python3.11/site-packages/urllib3/util/retry.py",
        "build/lib/app.py",
        "generated/stubs.py",
    ]
    for rel in clutter:
        base = root / rel
        base.parent.mkdir(parents=True, exist_ok=True)
        for i in range(200):
            p = base.with_name(f"{base.stem}_{i}{base.suffix}")
            p.write_text(_py_file(rng, rare=True, common=True))
    (root / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    for i in range(20):
        (root / "services" / f"bundle{i}.min.js").write_text(
            "var a=1;" * 20000 + f"var {RARE}=1;" + "\n"
        )
    info = {"files": n_files, "seed": seed, "bytes": total_bytes}
    stamp.write_text(json.dumps(info))
    return info


def python_walk(root: Path, pattern: str, settings: Settings, env_dirs: list[str]) -> int:
    """A straightforward pure-Python search with the same directory exclusions."""
    rx = re.compile(re.escape(pattern))
    skip_dirs = set(settings.exclude_dirs) | {"site-packages", "generated"}
    skip_rel = {root / d for d in env_dirs}
    skip_files = [*settings.exclude_files, *settings.secret_files]
    limit = 1 << 20
    hits = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [
            d for d in dirnames if d not in skip_dirs and Path(dirpath, d) not in skip_rel
        ]
        for name in filenames:
            if any(fnmatch.fnmatch(name, p) for p in skip_files):
                continue
            path = os.path.join(dirpath, name)
            try:
                if os.path.getsize(path) > limit:
                    continue
                with open(path, "rb") as fh:
                    data = fh.read()
            except OSError:
                continue
            if b"\0" in data[:8192]:
                continue
            text = data.decode("utf-8", errors="replace")
            for m in rx.finditer(text):
                text.count("\n", 0, m.start())  # the line number, as a search must report
                hits += 1
    return hits


def median_times(fns: dict, runs: int) -> dict[str, tuple[float, object]]:
    """Median wall time of each function; runs are interleaved so that load from other
    processes on the machine hits every contender alike."""
    times: dict[str, list[float]] = {k: [] for k in fns}
    out: dict[str, object] = {}
    for _ in range(runs):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            out[name] = fn()
            times[name].append(time.perf_counter() - t0)
    return {k: (statistics.median(v), out[k]) for k, v in times.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir", nargs="?", help="where to generate the tree (default: a temp dir)")
    ap.add_argument("--files", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--walk-runs", type=int, default=5)
    ap.add_argument("--keep", action="store_true", help="keep a temporary tree")
    args = ap.parse_args(argv)

    tmp = None
    if args.dir:
        root = Path(args.dir).resolve()
    else:
        tmp = tempfile.mkdtemp(prefix="depbot-bench-")
        root = Path(tmp) / "tree"
    try:
        t0 = time.perf_counter()
        info = generate(root, args.files)
        gen_s = time.perf_counter() - t0
        settings = Settings()
        print(
            f"tree: {root} ({info['files']} source files, {info['bytes'] / 1e6:.0f} MB; "
            f"ready in {gen_s:.1f}s); {os.cpu_count()} CPUs",
            flush=True,
        )
        t0 = time.perf_counter()
        cs = CodeSearch(root, settings)
        first = cs.search_code(RARE)
        first_s = time.perf_counter() - t0
        env_dirs = cs.env_dirs()

        rows = []
        patterns = (("rare", RARE), ("common", COMMON), ("dense", DENSE), ("js", JS))
        for label, pattern in patterns:
            argv_rg = cs.rg.search_argv(
                pattern, args=cs.scope_args(), max_per_file=settings.max_hits_per_file
            )

            def raw(argv_rg=argv_rg) -> int:
                proc = subprocess.run(argv_rg, cwd=root, capture_output=True)
                return proc.stdout.count(b'{"type":"match"')

            def raw_one_thread(argv_rg=argv_rg) -> int:
                proc = subprocess.run(
                    [argv_rg[0], "-j1", *argv_rg[1:]], cwd=root, capture_output=True
                )
                return proc.stdout.count(b'{"type":"match"')

            def ours(pattern=pattern):
                return cs.search_code(pattern)

            # warm the page cache and both code paths
            raw()
            ours()
            med = median_times({"ours": ours, "raw": raw, "raw1": raw_one_thread}, args.runs)
            (med_ours, res), (med_raw, _), (med_raw1, _) = med["ours"], med["raw"], med["raw1"]
            walk = median_times(
                {"walk": lambda pattern=pattern: python_walk(root, pattern, settings, env_dirs)},
                args.walk_runs,
            )
            med_walk, walk_hits = walk["walk"]
            rows.append(
                {
                    "pattern": pattern,
                    "kind": label,
                    "total": res.total,
                    "files": res.files,
                    "truncated": res.truncated,
                    "walk_matches": walk_hits,
                    "search_code_s": round(med_ours, 4),
                    "raw_rg_s": round(med_raw, 4),
                    "raw_rg_1thread_s": round(med_raw1, 4),
                    "python_walk_s": round(med_walk, 4),
                    "overhead_vs_rg": round(med_ours / med_raw, 3),
                    "speedup_vs_walk": round(med_walk / med_ours, 1),
                    "raw_rg_speedup_vs_walk": round(med_walk / med_raw, 1),
                    "rg_command": " ".join(argv_rg[:6]) + " …",
                }
            )

        print()
        print(
            f"{'pattern':<18} {'lines/files':>13} {'search_code':>12} {'raw rg':>8} "
            f"{'rg -j1':>8} {'py walk':>8} {'ours/rg':>8} {'walk/ours':>10} {'walk/rg':>8}"
        )
        for r in rows:
            print(
                f"{r['pattern']:<18} {str(r['total']) + '/' + str(r['files']):>13} "
                f"{r['search_code_s']:>11.3f}s {r['raw_rg_s']:>7.3f}s "
                f"{r['raw_rg_1thread_s']:>7.3f}s {r['python_walk_s']:>7.3f}s "
                f"{r['overhead_vs_rg']:>8.2f} {r['speedup_vs_walk']:>10.1f} "
                f"{r['raw_rg_speedup_vs_walk']:>8.1f}"
            )
        ok = all(r["overhead_vs_rg"] <= 1.3 and r["speedup_vs_walk"] >= 20 for r in rows)
        print(
            f"\nfirst call on a fresh CodeSearch (scope + venv scan + search): {first_s:.3f}s "
            f"({first.total} hits); targets: <= 1.3x raw rg, >= 20x python walk: "
            f"{'met' if ok else 'MISSED'}"
        )
        print(
            json.dumps(
                {
                    "bench": "search_code",
                    "files": info["files"],
                    "mb": round(info["bytes"] / 1e6, 1),
                    "cpus": os.cpu_count(),
                    "runs": args.runs,
                    "walk_runs": args.walk_runs,
                    "first_call_s": round(first_s, 4),
                    "rows": rows,
                    "targets_met": ok,
                }
            )
        )
        return 0
    finally:
        if tmp and not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
