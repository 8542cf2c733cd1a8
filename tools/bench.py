"""Benchmark: a 300-dependency week, depbot side by side with the naive loop.

    python tools/bench.py [--updates 300] [--latency 0.3] [--seed 9] [--dir DIR] [--keep]
    python tools/bench.py --quick          # 100 (and 200) updates, 20 ms latency, < 1 minute
    python tools/bench.py --reruns --quick # only the cold run and the two reruns (request counts)

Generates (``tools/bench_world.py`` and ``tools/bench_repo.py``, deterministic from ``--seed``) a repository with N
dependencies (pip and npm, about 5 source files per dependency), a week of N updates for
them and their upstream (changelogs, GitHub releases, registry metadata), plus the same
for 2N. The upstream is served by depbot's loopback ``FakeUpstream`` (package index, npm
registry and GitHub API, with ETags); the model is a loopback OpenAI-compatible server
(``depbot.modelserver.ModelServer``) that answers with the ``rules`` planner's decisions
after a fixed simulated latency and reports ``usage`` from the same token estimate for
every run. depbot talks to it through its real OpenAI client (``OpenAIChatModel``).

Runs, one after the other, each in its own Python process (so that its peak RSS is its
own; the servers stay in this process):

1. depbot, cold cache: ``triage()`` with the default settings (batches of
   ``batch_size`` updates per conversation, ``concurrency`` conversations at once,
   compaction of tool results already seen);
2. depbot again on the same week with the same cache folder (warm rerun, the same day:
   registry metadata within ``registry_ttl``, default-branch notes within their TTL by the
   age of the release, ``core/cache.py`` ``notes_policy``);
3. depbot again after the cache is aged by ``registry_ttl`` + 1 hour (every stored expiry
   moved back, as a clock that ran on would see it): a rerun later in the week, the
   registry metadata due for revalidation;
4. depbot on the 2N week (growth), served by a second fake upstream; with ``--quick``
   it runs beside 2 and 3 (none of them has a time target);
5. the naive loop on the N week: ``triage()`` with one conversation holding the whole
   list (``batch_size`` >= N), ``concurrency`` 1, ``compact_results`` off, a budget it
   never reaches, and the model server cut to one tool call per reply
   (``rules_responder(max_calls=1)``): every tool result stays verbatim, one call a round.

The registries date every release (PyPI ``upload_time_iso_8601``, npm ``time``;
``DatedUpstream``): the week's new releases are, per 100, 4 hours old, 12 days old (2-20
days), 44 months old (35-330 days) and 40 over a year old; older versions a year before.

Prints a table, the targets with PASS/MISS, and as the last line one JSON object.
Not a test: numbers depend on the machine (it is printed with them).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_repo import World, make_world  # noqa: E402
from bench_world import make_deps, write_upstream  # noqa: E402

from depbot.core.cache import CACHE_NAME  # noqa: E402
from depbot.ecosystems import canonical_name  # noqa: E402
from depbot.fakes.loopback import Reply  # noqa: E402
from depbot.fakes.model_server import ModelServer  # noqa: E402
from depbot.fakes.upstream import FakeUpstream  # noqa: E402
from depbot.models.rules import rules_responder  # noqa: E402
from depbot.records.repository import parse_repository  # noqa: E402

UNLIMITED = 10**12
TARGETS = {  # name: (description, limit)
    "tokens": ("prompt tokens per update: depbot / naive", 1 / 5),
    "growth": ("depbot prompt tokens: 2N / N", 2.2),
    "time": ("wall time: depbot / naive", 1 / 4),
    # the target for a rerun within the week: the registry metadata, nothing else
    "same_day": ("warm rerun (same day): requests / package", 1.0),
    "rerun": ("rerun after registry_ttl: requests / package", 1.0),
}
# how far the cache is aged before the rerun later in the week: past the default registry_ttl
AGED = 7 * 3600.0
# the age of the week's new release, per 100 packages: (how many, youngest, oldest in days)
AGES = {
    "under a day": (4, 0.1, 0.2),
    "days": (12, 2.0, 20.0),
    "months": (44, 35.0, 330.0),
    "over a year": (40, 400.0, 1500.0),
}
# what the cache policy keeps with no request on a rerun the same day (core/cache.py): registry
# metadata within registry_ttl, files at a release tag; release lists are kept when the range
# is covered by settled releases, else revalidated like everything read at the default branch
KEPT = ("registry", "file at a tag")


# --- release dates and the passing of time ------------------------------------------------------


def age_class(key: tuple[str, str], seed: int) -> tuple[str, float]:
    """(age class, age in days) of the new release of package ``key``, from ``seed`` alone."""
    eco, name = key[0], canonical_name(key[0], key[1])
    digest = hashlib.sha256(f"{seed}:age:{eco}:{name}".encode()).digest()
    slot, frac = digest[0] % 100, digest[1] / 255
    for name, (count, young, old) in AGES.items():
        if slot < count:
            return name, young + (old - young) * frac
        slot -= count
    raise AssertionError("AGES must add up to 100")


def release_dates(
    versions: dict[tuple[str, str], list[str]], seed: int, now: datetime
) -> dict[tuple[str, str], dict[str, str]]:
    """(ecosystem, canonical name) -> {the update's new version: date, its old one: a year
    before}, ISO 8601 as the registries write them."""
    out: dict[tuple[str, str], dict[str, str]] = {}
    for (eco, name), (old, new) in versions.items():
        days = age_class((eco, name), seed)[1]
        stamp = {new: now - timedelta(days=days), old: now - timedelta(days=days + 365)}
        out[(eco, canonical_name(eco, name))] = {
            v: t.strftime("%Y-%m-%dT%H:%M:%S.%fZ") for v, t in stamp.items()
        }
    return out


class DatedUpstream(FakeUpstream):
    """``FakeUpstream`` whose registry entries carry release dates (the fake serves none)."""

    def __init__(self, *args: Any, dates: dict[tuple[str, str], dict[str, str]], **kw: Any):
        self.dates = dates
        super().__init__(*args, **kw)

    def _pypi(self, pkg: Any) -> Reply:
        reply = super()._pypi(pkg)
        dates = self.dates.get(("pip", canonical_name("pip", pkg.name)), {})
        for version, files in reply.body["releases"].items():  # type: ignore[index,union-attr]
            for f in files:
                f["upload_time_iso_8601"] = dates.get(version, "2020-01-01T00:00:00.000000Z")
        return reply

    def _npm(self, pkg: Any) -> Reply:
        reply = super()._npm(pkg)
        dates = self.dates.get(("npm", canonical_name("npm", pkg.name)), {})
        body: dict[str, Any] = reply.body  # type: ignore[assignment]
        body["time"] = {v: dates.get(v, "2020-01-01T00:00:00.000Z") for v in body["versions"]}
        return reply


def age_cache(cache: Path, seconds: float) -> int:
    """Move every expiry stored in the depbot cache at ``cache`` back by ``seconds``: what a
    clock ``seconds`` later would see. The number of answers aged."""
    from requests_cache import SQLiteCache

    backend = SQLiteCache(str(cache / CACHE_NAME))
    aged = 0
    for key in list(backend.responses.keys()):
        resp = backend.responses[key]
        if resp.expires is not None:
            resp.expires -= timedelta(seconds=seconds)
            backend.responses[key] = resp
            aged += 1
    backend.close()
    return aged


def package_of_requests(upstream: Path) -> dict[str, tuple[str, str]]:
    """The package of each repository ("owner/repo", lower-cased), from the meta.json files."""
    out: dict[str, tuple[str, str]] = {}
    for meta in upstream.glob("*/**/meta.json"):
        rel = meta.parent.relative_to(upstream).parts
        repo, _ = parse_repository(json.loads(meta.read_text(encoding="utf-8")).get("repository"))
        if repo:
            out[repo.lower()] = (rel[0], "/".join(rel[1:]))
    return out


def by_age(paths: list[str], world: World, seed: int) -> dict[str, float]:
    """Requests per package of each age class of the week's new release."""
    owners = package_of_requests(world.upstream)
    n_by_class = Counter(age_class((u["ecosystem"], u["package"]), seed)[0] for u in world.updates)
    counts: Counter[str] = Counter()
    for path in paths:
        key = _package(path, owners)
        if key is not None:
            counts[age_class(key, seed)[0]] += 1
    return {c: round(counts[c] / n_by_class[c], 2) for c in AGES if n_by_class[c]}


def _package(path: str, owners: dict[str, tuple[str, str]]) -> tuple[str, str] | None:
    from urllib.parse import unquote

    if path.startswith("/pypi/"):
        return ("pip", unquote(path.split("/")[2]))
    if path.startswith("/npm/"):
        return ("npm", unquote(path[len("/npm/") :]).strip("/"))
    parts = path.split("/")
    return owners.get("/".join(parts[3:5]).lower()) if path.startswith("/github/repos/") else None


# --- one run, in a child process -------------------------------------------------------------


def peak_rss_kb() -> int:
    """Peak resident set of this process, all threads included, in KiB (0 where unknown).

    ripgrep runs in short-lived processes of its own and is not counted.
    """
    try:
        import resource
    except ImportError:  # Windows
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak  # bytes on macOS, KiB on Linux


def child(spec_path: str) -> int:
    """Run one triage as the spec says; write what it measured next to the spec."""
    from depbot.core.settings import Settings
    from depbot.models.openai_chat import OpenAIChatModel
    from depbot.pipeline.run import triage
    from depbot.records.update import Update

    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    settings = Settings(
        **spec["upstream"],
        cache_dir=Path(spec["cache"]),
        openai_base_url=spec["model_url"],
        openai_api_key="bench",
        model="bench-rules",
        http_timeout=60.0,
    )
    settings = settings.replace(**spec.get("settings", {}))
    if spec["mode"] == "naive":
        settings = settings.replace(
            batch_size=len(spec["updates"]),
            concurrency=1,
            compact_results=False,
            max_tokens=UNLIMITED,
            max_rounds=UNLIMITED,
            max_seconds=float(UNLIMITED),
        )
    updates = [
        Update(u["ecosystem"], u["package"], u["from"], u["to"], manifest=u["manifest"])
        for u in spec["updates"]
    ]
    model = OpenAIChatModel("bench-rules", settings)
    started = time.monotonic()
    result = triage(
        settings, repo=Path(spec["repo"]), updates=updates, model=model, out_dir=Path(spec["out"])
    )
    seconds = time.monotonic() - started
    out = {
        "seconds": round(seconds, 3),
        "stats": result.stats,
        "verdicts": {
            v.update.key: {
                "verdict": v.verdict,
                "hits": sorted(f"{h.path}:{h.line}" for h in v.hits),
            }
            for v in result.verdicts
        },
        "rss_kb": peak_rss_kb(),
    }
    Path(spec["result"]).write_text(json.dumps(out), encoding="utf-8")
    return 0


def run(
    label: str,
    mode: str,
    world: World,
    up: FakeUpstream,
    work: Path,
    cache: Path,
    latency: float,
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One run in a child process; adds the request counts of the model server and upstream."""
    plan = rules_responder(max_calls=1) if mode == "naive" else rules_responder()
    served = [0]
    holder: list[ModelServer] = []

    def responder(body: dict[str, Any]) -> Any:
        served[0] += 1
        # the servers keep every request; the naive loop's add up to gigabytes: keep none
        holder[0].requests.clear()
        holder[0].server.log.clear()  # (list.clear is atomic)
        return plan(body)

    spec_path = work / f"{label}.spec.json"
    result_path = work / f"{label}.result.json"
    before = len(up.requests)
    with ModelServer(responder, latency=latency) as server:
        holder.append(server)
        spec = {
            "mode": mode,
            "repo": str(world.repo),
            "updates": world.updates,
            "out": str(work / f"out-{label}"),
            "cache": str(cache),
            "model_url": server.base_url,
            "upstream": up.settings_overrides(),
            "settings": settings or {},
            "result": str(result_path),
        }
        spec_path.write_text(json.dumps(spec), encoding="utf-8")
        started = time.monotonic()
        proc = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--child", str(spec_path)],
            capture_output=True,
            text=True,
        )
        elapsed = time.monotonic() - started
        model_requests = served[0]
    if proc.returncode != 0:
        raise SystemExit(f"the {label} run failed:\n{proc.stderr[-3000:]}")
    out = json.loads(result_path.read_text(encoding="utf-8"))
    reqs = up.requests[before:]
    out["process_seconds"] = round(elapsed, 3)
    out["model_requests"] = model_requests
    out["requests"] = len(reqs)
    out["conditional_requests"] = sum(1 for r in reqs if "if-none-match" in r.headers)
    out["by_kind"] = dict(Counter(_kind(r) for r in reqs))
    out["paths"] = [r.path for r in reqs]
    return out


def _kind(req: Any) -> str:
    """What one request of the fake's log asked for (the bench's repositories read at no ref
    but their release tags)."""
    path = req.path
    if path.startswith(("/pypi/", "/npm/")):
        return "registry"
    if "/contents" in path:
        return "file at a tag" if req.query.get("ref") else "contents (default branch)"
    if "/git/trees/" in path:
        return "tree"
    if path.endswith("/releases"):
        return "releases"
    if path.endswith("/tags"):
        return "tags"
    return "repository"


# --- the report ------------------------------------------------------------------------------


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f", {kb / 1024 / 1024:.0f} GB RAM"
    except (OSError, ValueError, IndexError):
        pass
    return (
        f"{cpu}, {os.cpu_count()} CPUs{mem}, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
    )


def _counts(verdicts: dict[str, dict[str, Any]]) -> str:
    got = [v["verdict"] for v in verdicts.values()]
    return "/".join(str(got.count(k)) for k in ("affected", "not_affected", "unknown"))


def _accuracy(verdicts: dict[str, dict[str, Any]], truth: dict[str, str]) -> int:
    return sum(1 for k, want in truth.items() if verdicts.get(k, {}).get("verdict") == want)


def _ratio(a: float, b: float) -> float:
    return a / b if b else float("inf")


def report(
    n: int, world: World, latency: float, quick: bool, seed: int, runs: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    dep, warm, dep2, naive = runs["depbot"], runs["warm"], runs["depbot_2n"], runs["naive"]
    weekly = runs["weekly"]
    s_dep, s_naive = dep["stats"], naive["stats"]
    tok_dep = s_dep["prompt_tokens"] / n
    tok_naive = s_naive["prompt_tokens"] / n
    mismatch = sorted(
        k
        for k in naive["verdicts"].keys() | dep["verdicts"].keys()
        if dep["verdicts"].get(k, {}).get("verdict") != naive["verdicts"].get(k, {}).get("verdict")
    )
    hits_differ = sum(
        1
        for k, v in dep["verdicts"].items()
        if v["hits"] != naive["verdicts"].get(k, {}).get("hits")
    )
    warm_http = warm["stats"].get("http", {})
    cold_http = dep["stats"].get("http", {})
    weekly_http = weekly["stats"].get("http", {})
    warm_downloads = int(warm_http.get("changelog:downloads", 0))
    warm_downloads += int(weekly_http.get("changelog:downloads", 0))
    kept = sum(warm["by_kind"].get(k, 0) for k in KEPT)  # asked again though the cache may keep it
    per_package = weekly["requests"] / n
    same_day = warm["requests"] / n
    ages = {
        label: by_age(r["paths"], world, seed) for label, r in (("warm", warm), ("weekly", weekly))
    }
    ratios = {
        "rerun": per_package,
        "same_day": same_day,
        "tokens": _ratio(tok_dep, tok_naive),
        "growth": _ratio(dep2["stats"]["prompt_tokens"], s_dep["prompt_tokens"]),
        "time": _ratio(dep["seconds"], naive["seconds"]),
    }
    truth = world.truth
    breaking = sum(1 for d in world.deps if d.kind == "breaking")
    affected = sum(1 for d in world.deps if d.affected)
    pip = sum(1 for d in world.deps if d.eco == "pip")

    print(
        f"depbot benchmark: {n} updates (pip {pip}, npm {n - pip}; {breaking} major/0.x-minor "
        f"with breaking notes, {affected} really affected), {world.files} source files, seed {seed}"
    )
    print(
        f"simulated model latency {latency * 1000:.0f} ms"
        + (" (--quick: smaller than the 300 ms of the full run)" if quick else "")
    )
    print(f"machine: {machine()}")
    print()
    rows = [
        ("rounds (model calls)", s_dep["turns"], s_naive["turns"]),
        ("conversations", s_dep["conversations"], s_naive["conversations"]),
        ("tool calls", s_dep["tool_calls"], s_naive["tool_calls"]),
        ("prompt tokens (total)", s_dep["prompt_tokens"], s_naive["prompt_tokens"]),
        ("prompt tokens / update", round(tok_dep), round(tok_naive)),
        ("completion tokens", s_dep["completion_tokens"], s_naive["completion_tokens"]),
        ("wall seconds (triage)", dep["seconds"], naive["seconds"]),
        ("peak RSS MB (own process)", dep["rss_kb"] / 1024, naive["rss_kb"] / 1024),
        ("network requests (cold cache)", dep["requests"], naive["requests"]),
        ("changelog bodies downloaded", cold_http.get("changelog:downloads", 0),
         naive["stats"].get("http", {}).get("changelog:downloads", 0)),
        ("verdicts affected/not/unknown", _counts(dep["verdicts"]), _counts(naive["verdicts"])),
        ("verdicts = generated truth", f"{_accuracy(dep['verdicts'], truth)}/{n}",
         f"{_accuracy(naive['verdicts'], truth)}/{n}"),
    ]  # fmt: skip
    print(f"{'':32} {'depbot':>14} {'naive loop':>14} {'ratio':>8}")
    for name, a, b in rows:
        ratio = (
            f"{_ratio(a, b):8.3f}"
            if isinstance(a, (int, float)) and isinstance(b, (int, float))
            else ""
        )
        fa = f"{a:,.1f}" if isinstance(a, float) else (f"{a:,}" if isinstance(a, int) else a)
        fb = f"{b:,.1f}" if isinstance(b, float) else (f"{b:,}" if isinstance(b, int) else b)
        print(f"{name:32} {fa:>14} {fb:>14} {ratio}")
    print()
    print(
        f"growth: depbot prompt tokens {n} → {2 * n} updates: {s_dep['prompt_tokens']:,} → "
        f"{dep2['stats']['prompt_tokens']:,} (×{ratios['growth']:.2f}); "
        f"{dep2['stats']['turns']} rounds, {dep2['seconds']:.1f} s, peak RSS {dep2['rss_kb'] / 1024:.0f} MB"
        + (" (alongside the warm rerun)" if quick else "")
    )
    print(f"upstream requests for {n} packages (the fake's log; cold cache first):")
    for label, r in (("cold run", dep), ("rerun the same day", warm),
                     ("rerun after registry_ttl", weekly)):  # fmt: skip
        h = r["stats"].get("http", {})
        kinds = ", ".join(
            f"{k} {v}" for k, v in sorted(r["by_kind"].items(), key=lambda kv: -kv[1])
        )
        print(
            f"  {label:26} {r['requests']:6,} ({r['requests'] / n:.2f} a package; "
            f"{r['conditional_requests']:,} conditional, {h.get('revalidated', 0):,} answered 304, "
            f"{h.get('cache_hits', 0):,} answers from the cache with no request, "
            f"{h.get('changelog:downloads', 0):,} changelog bodies, {h.get('bytes', 0):,} bytes; "
            f"{r['seconds']:.1f} s): {kinds or 'none'}"
        )
    classes = Counter(age_class((u["ecosystem"], u["package"]), seed)[0] for u in world.updates)
    print(
        "requests a package by the age of the new release ("
        + ", ".join(f"{c} {classes[c]}" for c in AGES)
        + f" packages; the rerun after registry_ttl on a cache aged {AGED / 3600:.0f} h):"
    )
    for label, key in (("rerun the same day", "warm"), ("rerun after registry_ttl", "weekly")):
        print(f"  {label:26} " + ", ".join(f"{c} {v:.2f}" for c, v in ages[key].items()))
    print(
        f"verdicts depbot vs naive: {n - len(mismatch)}/{n} identical"
        + (f" (differ: {', '.join(mismatch[:8])})" if mismatch else "")
        + f"; cited hits identical for {n - hits_differ}/{n}"
    )
    print()
    at = f" at {n}" if n != 300 else ""
    checks = {
        "tokens": ratios["tokens"] <= TARGETS["tokens"][1],
        "growth": ratios["growth"] <= TARGETS["growth"][1],
        "time": ratios["time"] <= TARGETS["time"][1],
        "verdicts": not mismatch,
        "warm": warm_downloads == 0,
        "kept": kept == 0,
        "rerun": per_package <= TARGETS["rerun"][1],
        "same_day": same_day <= TARGETS["same_day"][1],
    }
    print("targets:")
    print(f"  {TARGETS['tokens'][0] + at:48} {ratios['tokens']:8.4f} ≤ 0.200  "
          f"{'PASS' if checks['tokens'] else 'MISS'}")  # fmt: skip
    print(f"  {f'depbot prompt tokens: {2 * n} / {n}':48} {ratios['growth']:8.3f} ≤ 2.200  "
          f"{'PASS' if checks['growth'] else 'MISS'}")  # fmt: skip
    print(f"  {f'wall time at {latency * 1000:.0f} ms: depbot / naive':48} {ratios['time']:8.4f} ≤ 0.250  "
          f"{'PASS' if checks['time'] else 'MISS'}")  # fmt: skip
    print(f"  {'verdicts identical (depbot vs naive)':48} {str(not mismatch):>8}           "
          f"{'PASS' if checks['verdicts'] else 'MISS'}")  # fmt: skip
    print(f"  {'warm rerun: changelog bodies downloaded again':48} {warm_downloads:8d} = 0      "
          f"{'PASS' if checks['warm'] else 'MISS'}")  # fmt: skip
    print(f"  {'same day: registry, files at tags asked again':48} {kept:8d} = 0      "
          f"{'PASS' if checks['kept'] else 'MISS'}")  # fmt: skip
    print(f"  {TARGETS['same_day'][0]:48} {same_day:8.2f} ≤ 1.00   "
          f"{'PASS' if checks['same_day'] else 'MISS'}")  # fmt: skip
    print(f"  {TARGETS['rerun'][0]:48} {per_package:8.2f} ≤ 1.00   "
          f"{'PASS' if checks['rerun'] else 'MISS'}")  # fmt: skip
    return {
        "updates": n,
        "depbot_prompt_tokens_per_update": round(tok_dep, 1),
        "naive_prompt_tokens_per_update": round(tok_naive, 1),
        "depbot_rounds": s_dep["turns"],
        "naive_rounds": s_naive["turns"],
        "depbot_seconds": dep["seconds"],
        "naive_seconds": naive["seconds"],
        "depbot_peak_rss_mb": round(dep["rss_kb"] / 1024, 1),
        "depbot_prompt_tokens_n": s_dep["prompt_tokens"],
        "depbot_prompt_tokens_2n": dep2["stats"]["prompt_tokens"],
        "verdicts_identical": not mismatch,
        "warm_changelog_downloads": warm_downloads,
        "latency_ms": round(latency * 1000),
        "quick": quick,
        "seed": seed,
        "source_files": world.files,
        "naive_peak_rss_mb": round(naive["rss_kb"] / 1024, 1),
        "depbot_requests_cold": dep["requests"],
        "depbot_requests_warm": warm["requests"],
        "warm_revalidated": int(warm_http.get("revalidated", 0)),
        "warm_cache_hits": int(warm_http.get("cache_hits", 0)),
        "warm_by_kind": warm["by_kind"],
        "depbot_requests_weekly": weekly["requests"],
        "weekly_by_kind": weekly["by_kind"],
        "warm_by_age": ages["warm"],
        "weekly_by_age": ages["weekly"],
        "cold_by_kind": dep["by_kind"],
        "naive_requests": naive["requests"],
        "tokens_ratio": round(ratios["tokens"], 4),
        "growth_ratio": round(ratios["growth"], 3),
        "time_ratio": round(ratios["time"], 4),
        "depbot_correct": _accuracy(dep["verdicts"], truth),
        "naive_correct": _accuracy(naive["verdicts"], truth),
        "targets_passed": checks,
        "machine": machine(),
    }


def _request_rows(n: int, runs: dict[str, dict[str, Any]]) -> None:
    for label, key in (("cold run", "depbot"), ("rerun the same day", "warm"),
                       ("rerun after registry_ttl", "weekly")):  # fmt: skip
        r = runs[key]
        h = r["stats"].get("http", {})
        kinds = ", ".join(
            f"{k} {v}" for k, v in sorted(r["by_kind"].items(), key=lambda kv: -kv[1])
        )
        print(
            f"  {label:26} {r['requests']:6,} ({r['requests'] / n:.2f} a package; "
            f"{h.get('revalidated', 0):,} answered 304, {h.get('cache_hits', 0):,} from the "
            f"cache with no request, {h.get('changelog:downloads', 0):,} changelog bodies; "
            f"{r['seconds']:.1f} s): {kinds or 'none'}"
        )


def report_reruns(
    n: int, world: World, seed: int, runs: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """``--reruns``: the request counts of the cold run and the two reruns, and their targets."""
    warm, weekly = runs["warm"], runs["weekly"]
    downloads = sum(
        int(r["stats"].get("http", {}).get("changelog:downloads", 0)) for r in (warm, weekly)
    )
    same_day, rerun = warm["requests"] / n, weekly["requests"] / n
    truth = world.truth
    print(f"depbot reruns: {n} updates, seed {seed}; machine: {machine()}")
    print(f"upstream requests for {n} packages (the fake's log; cold cache first):")
    _request_rows(n, runs)
    ages = {
        label: by_age(r["paths"], world, seed) for label, r in (("warm", warm), ("weekly", weekly))
    }
    for label, key in (("rerun the same day", "warm"), ("rerun after registry_ttl", "weekly")):
        print(f"  {label:26} by age: " + ", ".join(f"{c} {v:.2f}" for c, v in ages[key].items()))
    same = all(warm["verdicts"].get(k, {}).get("verdict") == v["verdict"]
               for k, v in runs["depbot"]["verdicts"].items())  # fmt: skip
    checks = {
        "warm": downloads == 0,
        "same_day": same_day <= TARGETS["same_day"][1],
        "rerun": rerun <= TARGETS["rerun"][1],
        "verdicts": same,
    }
    print(f"verdicts = generated truth: cold {_accuracy(runs['depbot']['verdicts'], truth)}/{n}, "
          f"same day {_accuracy(warm['verdicts'], truth)}/{n}, "
          f"after registry_ttl {_accuracy(weekly['verdicts'], truth)}/{n}")  # fmt: skip
    print("targets:")
    print(f"  {'reruns: changelog bodies downloaded again':48} {downloads:8d} = 0      "
          f"{'PASS' if checks['warm'] else 'MISS'}")  # fmt: skip
    print(f"  {TARGETS['same_day'][0]:48} {same_day:8.2f} ≤ 1.00   "
          f"{'PASS' if checks['same_day'] else 'MISS'}")  # fmt: skip
    print(f"  {TARGETS['rerun'][0]:48} {rerun:8.2f} ≤ 1.00   "
          f"{'PASS' if checks['rerun'] else 'MISS'}")  # fmt: skip
    return {
        "updates": n,
        "seed": seed,
        "depbot_requests_cold": runs["depbot"]["requests"],
        "depbot_requests_warm": warm["requests"],
        "depbot_requests_weekly": weekly["requests"],
        "cold_by_kind": runs["depbot"]["by_kind"],
        "warm_by_kind": warm["by_kind"],
        "weekly_by_kind": weekly["by_kind"],
        "targets_passed": checks,
    }


# --- main ------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--updates", type=int, default=None, help="N (default 300; 100 with --quick)")
    ap.add_argument("--latency", type=float, default=None,
                    help="simulated model latency in seconds (default 0.3; 0.02 with --quick)")  # fmt: skip
    ap.add_argument("--quick", action="store_true", help="100 (and 200) updates in under a minute")
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--dir", type=Path, help="work folder (kept); default a temporary one")
    ap.add_argument("--keep", action="store_true", help="keep the temporary work folder")
    ap.add_argument("--reruns", action="store_true",
                    help="only the cold run and the two reruns: requests a package, cold and warm")  # fmt: skip
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(args.child)
    n = args.updates or (100 if args.quick else 300)
    latency = args.latency if args.latency is not None else (0.02 if args.quick else 0.3)
    if args.dir:
        work = args.dir.resolve()
        if work.exists():
            shutil.rmtree(work)
        work.mkdir(parents=True)
    else:
        work = Path(tempfile.mkdtemp(prefix="depbot-bench-"))
    try:
        upstream = work / "upstream"
        write_upstream(upstream, make_deps(args.seed, 2 * n), args.seed)  # serves N and 2N
        world = make_world(work / "week-n", n, args.seed, upstream=upstream)
        world2 = make_world(work / "week-2n", 2 * n, args.seed, upstream=upstream)
        runs: dict[str, dict[str, Any]] = {}
        versions = {(u["ecosystem"], u["package"]): [u["from"], u["to"]] for u in world2.updates}
        dates = release_dates(versions, args.seed, datetime.now(timezone.utc))
        with (
            DatedUpstream(upstream, versions=versions, dates=dates) as up,
            DatedUpstream(upstream, versions=versions, dates=dates) as up2,
        ):
            cache = work / "cache-depbot"
            runs["depbot"] = run("depbot", "depbot", world, up, work, cache, latency)
            if args.reruns:
                runs["warm"] = run("warm", "depbot", world, up, work, cache, latency)
                age_cache(cache, AGED)
                runs["weekly"] = run("weekly", "depbot", world, up, work, cache, latency)
                summary = report_reruns(n, world, args.seed, runs)
                print(json.dumps(summary, ensure_ascii=False))
                return 0

            def reruns() -> dict[str, dict[str, Any]]:
                # the same upstream URLs: the same cache keys; then a rerun later in the week:
                # the cache aged past registry_ttl (the registry metadata due again)
                warm = run("warm", "depbot", world, up, work, cache, latency)
                age_cache(cache, AGED)
                weekly = run("weekly", "depbot", world, up, work, cache, latency)
                return {"warm": warm, "weekly": weekly}

            # --quick runs the reruns and the 2N week (untimed targets) side by side
            with ThreadPoolExecutor(max_workers=2 if args.quick else 1) as pool:
                again = pool.submit(reruns)
                cache2 = work / "cache-2n"
                grown = pool.submit(run, "depbot_2n", "depbot", world2, up2, work, cache2, latency)
                runs.update(again.result())
                runs["depbot_2n"] = grown.result()
            runs["naive"] = run("naive", "naive", world, up, work, work / "cache-naive", latency)
        summary = report(n, world, latency, args.quick, args.seed, runs)
    finally:
        if not args.dir and not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        elif not args.dir:
            print(f"work folder kept: {work}", file=sys.stderr)
    print(json.dumps(summary, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
