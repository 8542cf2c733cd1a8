"""Benchmark the redaction of tool results (``core.redact``) on searches of a large checkout.

    python tools/bench_redact.py [DIR] [--files 100000] [--runs 5] [--keep]

Generates (or reuses) ``tools/bench_search.py``'s tree of realistic Python and JavaScript
files, runs ``search_code`` for several patterns (a rare literal, a common call, a dense
one, and the secret-sounding words a model looks for: ``token``, ``password``, ``=``) with
``max_hits`` raised to 1000 so each result is as large as a tool result gets, and builds
the tool result the toolbox sends (hit list and the fenced ``hN path:line: text`` block).
Then it times the median of ``--runs`` runs each of:

- ``plain``: ``observations.dump(body)``, the result as sent before redaction existed;
- ``redacted``: ``observations.sent(body)``, every string through ``redact_value`` (what
  the model and the trace get now), plus the toolbox's per-hit ``redact``;
- ``detector``: detect-secrets' plugins once on every hit's text (``detected``: no outer
  prefilter, no cache), the cost of one pass. Inside it each group of plugins (token
  patterns, keyword, entropy) runs only on lines that can hold what it finds (a run of 15
  token characters or a URL; a keyword; a quoted run of 9).

Prints a table and one JSON line: milliseconds per result, microseconds per line, and the
share of lines the prefilter passes. The tree goes to DIR or a temporary directory
(deleted at the end unless ``--keep``); never commit it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from bench_search import COMMON, DENSE, RARE, generate, median_times  # noqa: E402

from depbot.agent.observations import dump, hit_entry, search_observation, sent  # noqa: E402
from depbot.core.fence import fence  # noqa: E402
from depbot.core.redact import PREFILTER, detected, detected_cached, redact  # noqa: E402
from depbot.core.settings import Settings  # noqa: E402
from depbot.search.code import CodeSearch  # noqa: E402

PATTERNS = (("rare", RARE), ("common", COMMON), ("dense", DENSE), ("token", "token"),
            ("password", "password"), ("assign", "data = "))  # fmt: skip
NONCE = "0123456789ab"


def tool_result(hits: list) -> tuple[dict, list[tuple[str, str]]]:
    """The search_code body the toolbox builds for ``hits``, and each hit's (text, path)."""
    listed, lines = [], []
    for i, h in enumerate(hits, 1):
        listed.append(hit_entry(f"h{i}", h))
        lines.append(f"h{i} {h.path}:{h.line}: {h.text}")
    block = fence("\n".join(lines), source="checkout", nonce=NONCE, limit=8000)
    obs = search_observation("s1", listed, block, total=len(hits), truncated=False, note="")
    return obs.body, [(h.text, h.path) for h in hits]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir", nargs="?", help="where to generate the tree (default: a temp dir)")
    ap.add_argument("--files", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=5)
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
        print(
            f"tree: {root} ({info['files']} source files, {info['bytes'] / 1e6:.0f} MB; "
            f"ready in {time.perf_counter() - t0:.1f}s); {os.cpu_count()} CPUs",
            flush=True,
        )
        cs = CodeSearch(root, Settings(max_hits=1000, max_hits_per_file=5))
        t0 = time.perf_counter()
        redact("warm = 'up'")  # detect-secrets loads on first use: timed on its own
        load_s = time.perf_counter() - t0
        rows = []
        for label, pattern in PATTERNS:
            t0 = time.perf_counter()
            res = cs.search_code(pattern)
            search_s = time.perf_counter() - t0
            body, texts = tool_result(res.hits)
            n = len(texts)

            def plain(body=body) -> int:
                return len(dump(body))

            def redacted(body=body, texts=texts) -> int:
                detected_cached.cache_clear()  # a new result: no line seen before
                for text, path in texts:  # the toolbox's pass over each hit's text
                    redact(text, filename=path)
                return len(sent(body))

            def unfiltered(texts=texts) -> int:
                return sum(len(detected(text, path)) for text, path in texts)

            med = median_times(
                {"plain": plain, "redacted": redacted, "unfiltered": unfiltered}, args.runs
            )
            passed = sum(1 for text, _ in texts if PREFILTER.search(text))
            (p_s, _), (r_s, _), (u_s, _) = med["plain"], med["redacted"], med["unfiltered"]
            changed = sum(1 for text, path in texts if redact(text, filename=path) != text)
            rows.append(
                {
                    "pattern": pattern,
                    "kind": label,
                    "hits": n,
                    "search_code_ms": round(search_s * 1000, 1),
                    "plain_ms": round(p_s * 1000, 2),
                    "redacted_ms": round(r_s * 1000, 2),
                    "overhead_ms": round((r_s - p_s) * 1000, 2),
                    "us_per_line": round((r_s - p_s) / max(n, 1) * 1e6, 1),
                    "detector_ms": round(u_s * 1000, 2),
                    "prefilter_pass": round(passed / max(n, 1), 3),
                    "lines_changed": changed,
                }
            )
        print(f"\ndetect-secrets first use (import + plugins): {load_s * 1000:.0f} ms\n")
        print(
            f"{'pattern':<18} {'hits':>5} {'search':>8} {'plain':>8} {'redacted':>9} "
            f"{'µs/line':>8} {'detector':>13} {'passes':>7} {'changed':>8}"
        )
        for r in rows:
            print(
                f"{r['pattern'][:18]:<18} {r['hits']:>5} {r['search_code_ms']:>6.0f}ms "
                f"{r['plain_ms']:>6.2f}ms {r['redacted_ms']:>7.1f}ms {r['us_per_line']:>8.1f} "
                f"{r['detector_ms']:>11.1f}ms {r['prefilter_pass']:>7.0%} "
                f"{r['lines_changed']:>8}"
            )
        print(json.dumps({"files": info["files"], "detect_secrets_load_ms": round(load_s * 1000),
                          "rows": rows}))  # fmt: skip
    finally:
        if tmp and not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
