"""A week twice the size (scale): ``python tools/bench_scale.py [--n 150] [--keep DIR]``.

The requirement: a 300-update real-shaped week (the largest manifests of the corpus merged)
takes at most 2.2x the time of 150 updates; the memory peak is printed; the artifact cache
stays within its bound (DEPBOT_CACHE_MAX_MB).

Lists the pending updates of each real checkout under ``--corpus`` (tests/realworld/built)
against the real registries (``depbot updates``), takes the checkouts with the most updates
first until 2N distinct packages are found (each ecosystem's share as in the whole corpus,
so the pip wheels are in it too), copies those checkouts side by side into one
merged checkout (``<case>/`` each, so the code searched is the real code) and triages the
first N and then all 2N of those updates there, each cold with its own fresh cache folder.
Prints per run the wall time, the peak memory, the requests, the artifact downloads and the
cache folder's size, then the targets. The N week is the first N of each ecosystem (the same
mix as the 2N week), both in the order (ecosystem, checkout, package).

Nothing here is timed by the test suite; run it by hand (it needs the network; 10+ minutes).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from depbot.core.cachedir import usage  # noqa: E402
from depbot.core.settings import Settings  # noqa: E402
from tools.bench_real import child  # noqa: E402

_SKIP_DIRS = {".git", "node_modules"}
_MAX_FILE = 1_000_000  # bytes: bigger files are not copied into the merged checkout
# every host resolves to 203.0.113.80 (a reserved address) on some machines (a DNS sinkhole
# or proxy): depbot then refuses artifact hosts such as files.pythonhosted.org without this
_CHILD_ENV = {"DEPBOT_ALLOW_PRIVATE_HOSTS": "1", "DEPBOT_NO_CACHE": ""}


def copy_repo(src: Path, dst: Path) -> None:
    """``src`` into ``dst`` without .git, node_modules and files over 1 MB."""
    for folder, dirs, files in os.walk(src):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS)
        here = dst / Path(folder).relative_to(src)
        here.mkdir(parents=True, exist_ok=True)
        for name in files:
            path = Path(folder) / name
            if path.is_file() and not path.is_symlink() and path.stat().st_size <= _MAX_FILE:
                shutil.copy2(path, here / name)


def list_updates(checkout: Path, out: Path, cache: Path) -> list[dict[str, Any]] | None:
    """The pending updates of ``checkout`` (``depbot updates --json``); None when it failed."""
    env = {**os.environ, **_CHILD_ENV, "DEPBOT_CACHE_DIR": str(cache)}
    argv = [sys.executable, "-m", "depbot", "updates", "-C", str(checkout), "--json", str(out)]
    try:
        done = subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, timeout=600)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0 or not out.is_file():
        return None
    records = json.loads(out.read_text()).get("updates") or []
    return [r for r in records if not r.get("error") and r.get("from") and r.get("to")]


def run(checkout: Path, updates: Path, out: Path, cache: Path) -> dict[str, Any]:
    """One cold triage in a child process: its wall time, its own peak RSS and its report."""
    env = {**os.environ, **_CHILD_ENV, "DEPBOT_CACHE_DIR": str(cache)}
    argv = [sys.executable, "-m", "depbot", "triage", "-C", str(checkout), "-u", str(updates),
            "-o", str(out), "--fail-on", "never", "-q"]  # fmt: skip
    code, wall, peak_mb, said = child(argv, env)
    path = out / "report.json"
    if code != 0 and not path.is_file():
        print(f"bench_scale: the run failed (exit {code}): {said.strip()[-500:]}", file=sys.stderr)
    report = json.loads(path.read_text()) if path.is_file() else {}
    http = (report.get("stats") or {}).get("http") or {}
    verdicts = Counter(str(u.get("verdict")) for u in report.get("updates") or [])
    return {
        "exit": code, "wall": wall, "peak_mb": peak_mb,
        "requests": http.get("requests", 0),
        "downloads": http.get("artifact:downloads", 0),
        "updates": len(report.get("updates") or []), "verdicts": dict(sorted(verdicts.items())),
        "cache_mb": usage(cache).total / 1e6,  # what DEPBOT_CACHE_MAX_MB bounds
    }  # fmt: skip


def shares(total: int, counts: dict[str, int]) -> dict[str, int]:
    """``total`` split over the keys in proportion to ``counts`` (largest remainder), each
    share at most its count."""
    whole = sum(counts.values()) or 1
    total = min(total, whole)
    exact = {k: total * n / whole for k, n in counts.items()}
    out = {k: int(v) for k, v in exact.items()}
    short = total - sum(out.values())
    for k in sorted(exact, key=lambda k: (out[k] - exact[k], k))[:short]:
        out[k] += 1
    return out


def collect(corpus: Path, where: Path, want: int) -> tuple[list[dict[str, Any]], list[str]]:
    """``want`` distinct updates (by ecosystem and package) of the corpus's biggest checkouts,
    each ecosystem's share as in the whole corpus, in the order (ecosystem, checkout, name);
    and the checkouts they come from, biggest first."""
    cases = sorted(p.parent for p in corpus.glob("*/repo") if p.is_dir())
    staged = where / "checkouts"
    for case in cases:  # copied out: depbot skips manifests the enclosing .gitignore names
        copy_repo(case / "repo", staged / case.name)
    lists = where / "lists"
    lists.mkdir(parents=True)

    def one(case: Path) -> list[dict[str, Any]] | None:
        return list_updates(staged / case.name, lists / f"{case.name}.json", where / "cache-list")

    with ThreadPoolExecutor(max_workers=4) as pool:
        found = dict(zip(cases, pool.map(one, cases), strict=True))
    failed = [c.name for c, got in found.items() if got is None]
    if failed:
        print(f"skipped {len(failed)} checkout(s) whose update list failed: {', '.join(failed)}")
    ranked = sorted((c for c, got in found.items() if got),
                    key=lambda c: (-len(found[c] or []), c.name))  # fmt: skip
    first: dict[tuple[str, str], tuple[int, dict[str, Any]]] = {}  # the biggest checkout wins
    for rank, case in enumerate(ranked):
        for r in found[case] or []:
            key = (str(r["ecosystem"]), str(r["package"]).lower())
            manifest = f"{case.name}/{r['manifest']}" if r.get("manifest") else case.name
            first.setdefault(key, (rank, {**r, "manifest": manifest}))
    quota = shares(want, Counter(eco for eco, _name in first))
    offered = mix([rec for _rank, rec in first.values()])
    taken_mix = ", ".join(f"{n} {eco}" for eco, n in sorted(quota.items()))
    print(f"the corpus offers {len(first)} distinct updates ({offered}); taking {taken_mix}")
    ordered = sorted(first.items(), key=lambda kv: (kv[0][0], kv[1][0], kv[0][1]))
    taken: list[dict[str, Any]] = []
    chosen: set[int] = set()
    for (eco, _name), (rank, rec) in ordered:
        if sum(u["ecosystem"] == eco for u in taken) < quota[eco]:
            taken.append(rec)
            chosen.add(rank)
    return taken, [ranked[i].name for i in sorted(chosen)]


def first_n(updates: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    """The first ``n`` of ``updates`` with the same ecosystem mix: each ecosystem's first."""
    quota = shares(n, Counter(str(u["ecosystem"]) for u in updates))
    out: list[dict[str, Any]] = []
    for u in updates:
        if sum(o["ecosystem"] == u["ecosystem"] for o in out) < quota[str(u["ecosystem"])]:
            out.append(u)
    return out


def mix(updates: list[dict[str, Any]]) -> str:
    counts = Counter(str(u["ecosystem"]) for u in updates)
    return ", ".join(f"{n} {eco}" for eco, n in sorted(counts.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--n", type=int, default=150, help="the smaller week (default 150)")
    parser.add_argument("--keep", type=Path, help="a new folder to keep everything in")
    parser.add_argument("--corpus", type=Path, default=ROOT / "tests/realworld/built",
                        help="the built real-world cases (default tests/realworld/built)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.keep is not None and args.keep.exists():
        parser.error(f"--keep {args.keep}: already exists; name a new folder")
    if args.n < 1:
        parser.error("--n must be at least 1")
    print("child env: DEPBOT_ALLOW_PRIVATE_HOSTS=1, as this machine's DNS may answer every "
          "host with a reserved address and depbot would refuse the artifact hosts")  # fmt: skip
    bound = Settings.from_env().cache_max_mb
    with tempfile.TemporaryDirectory(prefix="depbot-bench-scale-") as tmp:
        where = (args.keep or Path(tmp)).resolve()
        where.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        updates, cases = collect(args.corpus.resolve(), where, 2 * args.n)
        print(f"collected {len(updates)} distinct updates ({mix(updates)}) from {len(cases)} "
              f"checkout(s) in {time.monotonic() - started:.0f} s")  # fmt: skip
        if len(updates) < 2 * args.n:
            print(f"fewer than 2N = {2 * args.n} found: going on with {len(updates)}")
        if len(updates) < 2:
            print("bench_scale: too few updates to compare", file=sys.stderr)
            return 1
        half = first_n(updates, min(args.n, len(updates) // 2))
        merged = where / "merged"
        for name in cases:
            shutil.copytree(where / "checkouts" / name, merged / name)
        weeks = {"N": half, "2N": updates}
        results: dict[str, dict[str, Any]] = {}
        for label, week in weeks.items():
            file = where / f"week-{label}.json"
            file.write_text(json.dumps({"updates": week}, indent=2) + "\n")
            print(f"running {label}: {len(week)} updates ({mix(week)}) ...", flush=True)
            results[label] = run(merged, file, where / f"out{label}", where / f"cache{label}")
        if args.keep is not None:
            print(f"kept in {where}")
    print(f"\n{'run':4} {'updates':>8} {'wall s':>8} {'peak MB':>8} {'requests':>9} "
          f"{'downloads':>10} {'cache MB':>9} {'exit':>5}")  # fmt: skip
    for label, r in results.items():
        print(f"{label:4} {r['updates']:8} {r['wall']:8.1f} {r['peak_mb']:8.0f} "
              f"{r['requests']:9} {r['downloads']:10} {r['cache_mb']:9.1f} {r['exit']:5}")  # fmt: skip
    for label, r in results.items():
        print(f"verdicts {label}: {', '.join(f'{k} {v}' for k, v in r['verdicts'].items())}")
    small, big = results["N"], results["2N"]
    ratio = big["wall"] / small["wall"] if small["wall"] else 0.0
    print(f"\n2N/N wall: {ratio:.2f} (target <= 2.2: {'met' if ratio <= 2.2 else 'NOT met'})")
    print(f"memory peak: N {small['peak_mb']:.0f} MB, 2N {big['peak_mb']:.0f} MB "
          f"(2N/N {big['peak_mb'] / (small['peak_mb'] or 1):.2f})")  # fmt: skip
    for label, r in results.items():
        within = bound <= 0 or r["cache_mb"] <= bound
        print(f"cache {label}: {r['cache_mb']:.1f} MB, bound {bound} MB (DEPBOT_CACHE_MAX_MB"
              f"{'; 0: none' if bound <= 0 else ''}): {'within' if within else 'NOT within'}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
