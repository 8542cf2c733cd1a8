"""Benchmark: the API step (#14) per update, on real artifacts from the real registries.

    python tools/bench_api.py [--cache DIR] [--only NAME ...] [--show N]

For a fixed list of real upgrades (pip and npm, from a small pure-Python package to numpy
with its stubs), with depbot's production code and real endpoints (``Settings.from_env``:
https://pypi.org and https://registry.npmjs.org unless DEPBOT_PYPI_URL / DEPBOT_NPM_URL say
otherwise; ``cache_dir`` is ``--cache``, default a temporary folder removed at the end):

1. registry metadata, through ``depbot.updates.registries.Registries`` (one instance per
   upgrade, handed to ``fetch_release`` as ``registries=`` so it is read once);
2. the two artifacts, ``depbot.artifacts.fetch_release``: download, digest check, unpack;
3. load and diff, ``depbot.apidiff.diff_releases``: raw changes and deprecations.

Two passes over the list with the same cache folder: pass 1 (cold when the folder starts
empty) and pass 2 (warm). Each upgrade of each pass runs in its own Python process, so its
peak RSS (``resource.getrusage``) is its own. Downloads are counted from ``Http.stats``
(``artifact:downloads`` and ``requests`` of the one ``Http`` the run uses).

Prints a table, the targets with PASS/FAIL, the use-checked findings (``depbot.apidiff.join``,
when it exists; else the raw counts and a line saying the join is pending), and as the last
line one JSON object. Not a test: the network and the machine are in the numbers.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# (ecosystem, package, from, to, size class); "largest" has the 20 s target, the rest 2 s
UPGRADES: tuple[tuple[str, str, str, str, str], ...] = (
    ("pip", "PyYAML", "5.4.1", "6.0.1", "small"),
    ("pip", "urllib3", "1.26.18", "2.0.7", "typical"),
    ("pip", "numpy", "1.26.4", "2.0.0", "largest"),
    ("npm", "node-fetch", "2.6.9", "3.3.2", "typical"),
    ("npm", "uuid", "8.3.2", "9.0.1", "small"),
    ("npm", "axios", "0.27.2", "1.7.7", "typical"),  # ships index.d.ts
)
DIFF_LIMIT = {"small": 2.0, "typical": 2.0, "largest": 20.0}


def peak_rss_kb() -> int:
    """Peak resident set of this process in KiB (0 where unknown)."""
    try:
        import resource
    except ImportError:  # Windows
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak  # bytes on macOS, KiB on Linux


def key_of(ecosystem: str, package: str, old: str, new: str) -> str:
    return f"{ecosystem}:{package} {old}->{new}"


# --- one upgrade, in a child process ---------------------------------------------------------


def child(spec_path: str) -> int:
    """Fetch and diff one upgrade as the spec says; write what it measured next to the spec."""
    from depbot.apidiff import diff_releases
    from depbot.artifacts import Problem, fetch_release
    from depbot.core.errors import UpstreamError
    from depbot.core.net import Http
    from depbot.core.settings import Settings
    from depbot.updates.registries import Registries

    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    eco, package, old, new = spec["ecosystem"], spec["package"], spec["from"], spec["to"]
    settings = Settings.from_env(cache_dir=Path(spec["cache"]), http_timeout=60.0)
    http = Http(settings)
    registries = Registries(settings, http)
    out: dict[str, Any] = {"problems": []}

    started = time.perf_counter()
    try:
        registries.document(eco, package)
    except UpstreamError as exc:
        out["problems"].append(f"registry: {exc}")
    out["meta_s"] = round(time.perf_counter() - started, 3)

    started = time.perf_counter()
    releases = []
    for version in (old, new):
        got = fetch_release(http, settings, eco, package, version, registries=registries)
        if isinstance(got, Problem):
            out["problems"].append(got.reason)
        else:
            releases.append(got)
    out["fetch_s"] = round(time.perf_counter() - started, 3)
    out["artifact_downloads"] = http.stats.get("artifact:downloads", 0)
    out["artifact_bytes"] = http.stats.get("bytes", 0)
    out["requests"] = http.stats.get("requests", 0)
    out["registry_cached"] = http.stats.get("registry:cached", 0)
    out["files"] = [r.files for r in releases]
    out["artifacts"] = [r.artifact for r in releases]

    diffs: Counter[str] = Counter()  # diff_releases calls per (package, from, to) in this run
    if len(releases) == 2:
        started = time.perf_counter()
        diff = diff_releases(eco, releases[0].root, releases[1].root, old_label=old, new_label=new)
        diffs[key_of(eco, package, old, new)] += 1
        out["diff_s"] = round(time.perf_counter() - started, 3)
        out["changes"] = len(diff.changes)
        out["kinds"] = dict(Counter(c.kind for c in diff.changes).most_common())
        out["deprecated"] = len(diff.deprecated)
        out["notes"] = diff.notes[:10]
        out["objects"] = int(diff.stats.get("objects", 0))
        out["sample"] = [c.line() for c in diff.changes[: spec["show"]]]
        out["sample_deprecated"] = [
            f"{d.path} ({d.category}{', removal ' + d.removal if d.removal else ''})"
            for d in diff.deprecated[: spec["show"]]
        ]
        out["roots"] = [str(releases[0].root), str(releases[1].root)]
        if spec.get("checkout"):
            out["use"] = use_check(settings, Path(spec["checkout"]), diff, eco, package,
                                   releases[1].artifact, spec["show"])  # fmt: skip
    out["diffs_per_key"] = max(diffs.values(), default=0)
    out["rss_kb"] = peak_rss_kb()
    Path(spec["result"]).write_text(json.dumps(out), encoding="utf-8")
    return 0


def run_child(
    upgrade: tuple[str, str, str, str, str],
    cache: Path,
    work: Path,
    show: int,
    checkout: Path | None = None,
) -> dict:
    eco, package, old, new, size = upgrade
    name = f"{package.replace('/', '_').replace('@', '')}-{old}-{new}"
    spec_path, result = work / f"{name}.spec.json", work / f"{name}.result.json"
    result.unlink(missing_ok=True)
    spec = {"ecosystem": eco, "package": package, "from": old, "to": new}
    spec |= {"cache": str(cache), "result": str(result), "show": show}
    spec["checkout"] = str(checkout) if checkout else None
    spec_path.write_text(json.dumps(spec), encoding="utf-8")
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", str(spec_path)],
        capture_output=True,
        text=True,
    )
    wall = round(time.perf_counter() - started, 3)
    if proc.returncode != 0 or not result.is_file():
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        return {
            "problems": [f"child failed ({proc.returncode}): {' | '.join(tail)}"],
            "wall_s": wall,
        }
    got = json.loads(result.read_text(encoding="utf-8"))
    got["wall_s"] = wall
    return got


# --- use-checked findings ----------------------------------------------------------------------


def use_check(
    settings: Any, checkout: Path, diff: Any, eco: str, package: str, artifact: str, show: int
) -> dict[str, Any]:
    """The join (``depbot.apidiff.join``) of one diff with the uses in ``checkout``."""
    started = time.perf_counter()
    try:
        from depbot.apidiff import join as joining
        from depbot.search.code import CodeSearch
        from depbot.symbols.facts import SymbolQuery
        from depbot.symbols.search import SymbolSearch

        symbols = SymbolSearch(CodeSearch(checkout, settings))
        report = symbols.report(eco, package)
        names: set[str] = set()  # identifiers the importing files use
        for rel in report.files:
            text = (checkout / rel).read_text(encoding="utf-8", errors="replace")
            names.update(re.findall(r"[A-Za-z_$][\w$]*", text))
        wanted, notes = joining.queries(diff, report, names)
        answers = {
            q: symbols.search(SymbolQuery(eco, package, q.symbol, q.kind, q.of, q.arg))
            for q in wanted
        }
        result = joining.join(diff, report, answers, artifact)
    except Exception as exc:  # the join is new: say how it failed, keep the figures
        return {"error": f"{type(exc).__name__}: {exc}"[:300]}
    found = result.findings
    return {
        "seconds": round(time.perf_counter() - started, 3),
        "import_sites": len(report.sites),
        "queries": len(wanted),
        "findings": len(found),
        "strong": sum(f.strength == "strong" for f in found),
        "weak": sum(f.strength == "weak" for f in found),
        "deprecated_used": len(result.deprecated),
        "notes": notes,
        "sample": [
            f"[{f.strength}] {f.summary} @ " + ", ".join(f"{h.path}:{h.line}" for h in f.hits[:3])
            for f in (found + result.deprecated)[:show]
        ],
    }


def use_check_state() -> str:
    """Whether the join of API changes with the uses in a checkout exists yet."""
    if importlib.util.find_spec("depbot.apidiff.join") is None:
        return "pending"
    return "present"


# --- the report -------------------------------------------------------------------------------


def fmt(value: Any, width: int) -> str:
    text = "-" if value is None else f"{value:.2f}" if isinstance(value, float) else str(value)
    return text.rjust(width)


def table(rows: list[dict]) -> list[str]:
    head = (
        f"{'upgrade':34} {'pass':5} {'meta s':>7} {'fetch s':>8} {'diff s':>7} {'dl':>3} "
        f"{'req':>4} {'MB':>6} {'files':>11} {'changes':>8} {'deprec':>7} {'RSS MiB':>8}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        files = "/".join(str(n) for n in r.get("files", [])) or "-"
        mb = r.get("artifact_bytes", 0) / 1e6
        rss = r.get("rss_kb", 0) / 1024
        lines.append(
            f"{r['key']:34} {r['pass']:5} {fmt(r.get('meta_s'), 7)} {fmt(r.get('fetch_s'), 8)} "
            f"{fmt(r.get('diff_s'), 7)} {fmt(r.get('artifact_downloads'), 3)} "
            f"{fmt(r.get('requests'), 4)} {fmt(mb, 6)} {files:>11} {fmt(r.get('changes'), 8)} "
            f"{fmt(r.get('deprecated'), 7)} {fmt(rss, 8)}"
        )
    return lines


def check_targets(rows: list[dict]) -> list[tuple[str, bool, str]]:
    checks: list[tuple[str, bool, str]] = []
    warm = [r for r in rows if r["pass"] == "warm"]
    dl = sum(r.get("artifact_downloads", 0) for r in warm)
    checks.append(("warm pass downloads 0 artifacts", dl == 0 and bool(warm), f"{dl} downloaded"))
    for r in rows:
        limit = DIFF_LIMIT[r["size"]]
        secs = r.get("diff_s")
        ok = secs is not None and secs < limit
        shown = "no diff" if secs is None else f"{secs:.2f} s"
        checks.append((f"{r['key']} {r['pass']}: load+diff < {limit:g} s", ok, shown))
    once = all(r.get("diffs_per_key", 0) == 1 for r in rows)
    checks.append(("one diff per (package, from, to) per run", once, "per child run"))
    bad = [p for r in rows for p in r.get("problems", [])]
    checks.append(("no fetch problems", not bad, f"{len(bad)} problems"))
    return checks


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--cache", type=Path, help="cache folder (default: a temporary one)")
    ap.add_argument("--only", nargs="*", help="only these packages (names as in the list)")
    ap.add_argument("--show", type=int, default=5, help="changes shown per upgrade")
    ap.add_argument(
        "--checkout",
        type=Path,
        default=Path(__file__).resolve().parent / "bench_api_checkout",
        help="join each diff with the uses in this checkout (default: the small client in "
        "tools/bench_api_checkout, written to use one broken API of each upgrade)",
    )
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(args.child)

    upgrades = [u for u in UPGRADES if not args.only or u[1] in args.only]
    temp = args.cache is None
    cache = Path(tempfile.mkdtemp(prefix="bench-api-")) if temp else args.cache.resolve()
    cache.mkdir(parents=True, exist_ok=True)
    started_empty = not any(cache.iterdir())
    work = Path(tempfile.mkdtemp(prefix="bench-api-work-"))
    first = "cold" if started_empty else "warm0"  # warm0: the cache was already filled
    print(
        f"depbot bench_api · {platform.python_version()} · {platform.machine()} · "
        f"{os.cpu_count()} CPUs · cache {cache} ({'empty' if started_empty else 'not empty'})"
    )
    rows: list[dict] = []
    try:
        for label in (first, "warm"):
            for upgrade in upgrades:
                eco, package, old, new, size = upgrade
                checkout = args.checkout.resolve() if args.checkout else None
                got = run_child(upgrade, cache, work, args.show, checkout)
                got |= {"key": key_of(eco, package, old, new), "pass": label, "size": size}
                rows.append(got)
                print(
                    f"  {label:5} {got['key']}: {got.get('wall_s')} s "
                    f"{'; '.join(got.get('problems', [])) or 'ok'}",
                    flush=True,
                )
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if temp:
            shutil.rmtree(cache, ignore_errors=True)

    print()
    print("\n".join(table(rows)))
    print(
        "meta s: registry metadata; fetch s: both artifacts (download, digest, unpack); "
        "dl: artifacts downloaded; req: HTTP requests sent; MB: artifact bytes downloaded; "
        "files: kept files old/new"
    )
    print()
    first_rows = [r for r in rows if r["pass"] == first]
    for r in first_rows:
        print(
            f"{r['key']}: {r.get('changes', '-')} raw changes {r.get('kinds', {})}, "
            f"{r.get('deprecated', '-')} deprecations, {r.get('objects', 0)} objects loaded"
        )
        for line in r.get("sample", []):
            print(f"    {line}")
        for line in r.get("sample_deprecated", []):
            print(f"    deprecated: {line}")
        for note in r.get("notes", []):
            print(f"    note: {note}")
    print()
    state = use_check_state()
    if state == "pending":
        print("use-checked findings: the join (depbot.apidiff.join) is pending; raw counts only:")
    elif not args.checkout:
        print("use-checked findings: depbot.apidiff.join exists; no --checkout given, raw counts:")
    else:
        print(f"use-checked findings against {args.checkout} (depbot.apidiff.join):")
    for r in first_rows:
        use = r.get("use")
        if not use:
            print(f"    {r['key']}: raw {r.get('changes', '-')}, use-checked n/a")
        elif "error" in use:
            print(f"    {r['key']}: raw {r.get('changes', '-')}, join failed: {use['error']}")
        else:
            print(
                f"    {r['key']}: raw {r.get('changes', '-')} -> use-checked {use['findings']} "
                f"({use['strong']} strong, {use['weak']} weak) + {use['deprecated_used']} "
                f"deprecated in use; {use['import_sites']} import sites, {use['queries']} "
                f"symbol searches, {use['seconds']:.2f} s"
            )
            for line in use["sample"] + [f"note: {n}" for n in use["notes"]]:
                print(f"        {line}")
    print()
    checks = check_targets(rows)
    for name, ok, shown in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {name} ({shown})")
    summary = {
        "cache_started_empty": started_empty,
        "use_check": state,
        "rows": [
            {
                k: r.get(k)
                for k in (
                    "key",
                    "pass",
                    "meta_s",
                    "fetch_s",
                    "diff_s",
                    "artifact_downloads",
                    "requests",
                    "artifact_bytes",
                    "changes",
                    "deprecated",
                    "rss_kb",
                    "problems",
                )
            }
            for r in rows
        ],
        "pass": all(ok for _, ok, _ in checks),
    }
    print(json.dumps(summary, separators=(",", ":")))
    return 0 if summary["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
