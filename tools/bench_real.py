"""A real week, cold then warm (#30): ``python tools/bench_real.py CHECKOUT [-u FILE]``.

Triages a checkout you name (a public repository you fetched; its manifests, or an update
file) against the real registries twice with one fresh cache folder: cold (an empty cache)
and warm (the cache the cold run left). Prints per run the wall time, the peak memory, the
requests, the downloads and the tool seconds by step (from the trace), then the targets as
ratios of the same run: warm wall at most 1/5 of cold, no downloads when warm, and the API
diff's share of the cold run's tool time.

Nothing here is timed by the test suite; run it by hand (it needs the network).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from depbot.agent.story import timings  # noqa: E402
from depbot.agent.trace import read_records  # noqa: E402

_API_STAGES = ("registry", "download", "unpack", "api model")


def child(argv: list[str], env: dict[str, str]) -> tuple[int, float, float, str]:
    """Run ``argv`` in a child process: (exit status, wall seconds, its own peak RSS in MB,
    what it wrote to stderr)."""
    started = time.monotonic()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=err, cwd=ROOT)
        _, status, usage = os.wait4(proc.pid, 0)  # this run's own peak, not the children's max
        wall = time.monotonic() - started
        err.seek(0)
        said = err.read().decode("utf-8", "replace")
    return os.waitstatus_to_exitcode(status), wall, usage.ru_maxrss / 1024, said


def run(checkout: Path, out: Path, cache: Path, updates: Path | None) -> dict:
    env = {**os.environ, "DEPBOT_CACHE_DIR": str(cache), "DEPBOT_NO_CACHE": ""}
    argv = [sys.executable, "-m", "depbot", "triage", "-C", str(checkout), "-o", str(out), "-q",
            "--fail-on", "never"]  # fmt: skip
    if updates is not None:
        argv += ["-u", str(updates)]
    code, wall, peak_mb, said = child(argv, env)
    if code != 0 and not (out / "report.json").is_file():
        print(f"bench_real: the run failed (exit {code}): {said.strip()[-500:]}", file=sys.stderr)
    report = (
        json.loads((out / "report.json").read_text()) if (out / "report.json").is_file() else {}
    )
    http = (report.get("stats") or {}).get("http") or {}
    records, _ = read_records(out / "trace.jsonl") if (out / "trace.jsonl").is_file() else ([], [])
    tools: dict[str, float] = {}
    for r in records:
        if r.get("type") == "tool":
            tools[str(r.get("name"))] = tools.get(str(r.get("name")), 0.0) + float(
                r.get("seconds") or 0
            )
    return {
        "exit": code, "wall": wall, "peak_mb": peak_mb,
        "requests": http.get("requests", 0),
        "downloads": sum(v for k, v in http.items() if k.endswith(":downloads")),
        "updates": len(report.get("updates") or []), "tools": tools,
        "stages": ((report.get("stats") or {}).get("timings") or {}).get("stages") or {},
        "table": timings(records),
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("checkout", type=Path, help="a checkout (a fetched public repository)")
    parser.add_argument(
        "-u", "--updates", type=Path, help="a pinned update file instead of its manifests"
    )
    parser.add_argument(
        "--keep", type=Path, help="a new folder to keep the cache and both runs' output in"
    )
    args = parser.parse_args(argv)
    if args.keep is not None and args.keep.exists():
        parser.error(f"--keep {args.keep}: already exists; name a new folder")
    with tempfile.TemporaryDirectory(prefix="depbot-bench-real-") as tmp:
        where = args.keep or Path(tmp)
        cache = where / "cache"
        cold = run(args.checkout, where / "cold", cache, args.updates)
        warm = run(args.checkout, where / "warm", cache, args.updates)
    print(
        f"{'run':6} {'wall s':>8} {'peak MB':>8} {'requests':>9} {'downloads':>10} {'updates':>8}"
    )
    for name, r in (("cold", cold), ("warm", warm)):
        print(f"{name:6} {r['wall']:8.1f} {r['peak_mb']:8.0f} {r['requests']:9} "
              f"{r['downloads']:10} {r['updates']:8}")  # fmt: skip
    for name, r in (("cold", cold), ("warm", warm)):
        print(f"\n{name}: tool seconds by step\n{r['table']}")
    total = sum(cold["tools"].values()) or 1.0
    ratio = warm["wall"] / cold["wall"] if cold["wall"] else 0.0
    print(f"\nwarm/cold wall: {ratio:.2f} (target ≤ 0.20: {'met' if ratio <= 0.2 else 'NOT met'})")
    print(f"downloads when warm: {warm['downloads']} (target 0: "
          f"{'met' if warm['downloads'] == 0 else 'NOT met'})")  # fmt: skip
    print(
        f"api_diff share of the cold run's tool time: {cold['tools'].get('api_diff', 0) / total:.0%}"
    )
    api = sum(v for k, v in cold["stages"].items() if k in _API_STAGES)
    if cold["wall"]:
        print(f"API step (registry, download, unpack, api model) share of the cold wall: "
              f"{api / cold['wall']:.0%} ({api:.1f} s of {cold['wall']:.1f} s)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
