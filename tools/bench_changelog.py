"""Maintainer benchmark: slicing a 5 MB changelog with thousands of versions (not a test).

Generates a synthetic changelog in mixed heading styles (ATX, linked Keep-a-Changelog,
setext, reStructuredText ``Version x`` / ``x / date`` / ``vX (date)`` underlines, PyYAML bare
lines) with bullets, sub-headings and code fences, writes it to a temporary file, and
prints the median of several runs of:

- reading the file and splitting it into lines (the floor: what any slicer must pay);
- ``parse_sections`` + ``slice_range`` for a mid-range update (what ``fetch_changelog``
  pays once the text is downloaded);
- ``slice_range`` alone on the parsed sections.

    python tools/bench_changelog.py [--mb 5] [--runs 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from depbot.changelogs.sections import parse_sections, slice_range, version_key  # noqa: E402

WORDS = (
    "parser cache request response header cookie timeout retry stream socket proxy "
    "encoding decoder template loader session config option default handler router "
    "middleware plugin schema validator logger buffer worker queue"
).split()


def _bullet(rnd: random.Random) -> str:
    text = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(6, 16)))
    if rnd.random() < 0.08:
        text = f"`{rnd.choice(WORDS)}()` was removed; use `{rnd.choice(WORDS)}()` instead"
    if rnd.random() < 0.3:
        text += f"\n  continued: {' '.join(rnd.choice(WORDS) for _ in range(8))} (#{rnd.randint(1, 9999)})"
    return f"- {text}"


def _heading(style: int, v: str, date: str) -> str:
    if style == 0:
        return f"## {v}\n"
    if style == 1:
        return f"## [{v}](https://github.com/o/r/compare/a...v{v}) ({date})\n"
    if style == 2:
        title = f"{v} / {date}"
        return f"{title}\n{'=' * len(title)}\n"
    if style == 3:
        title = f"Version {v}"
        return f"{title}\n{'-' * len(title)}\n"
    if style == 4:
        title = f"v{v} ({date})"
        return f"{title}\n{'~' * len(title)}\n"
    return f"{v} ({date})\n"  # PyYAML-style bare line


def generate(target_bytes: int, seed: int = 7) -> tuple[str, list[str]]:
    """A changelog of about ``target_bytes``, newest first; returns it and its versions."""
    rnd = random.Random(seed)
    parts: list[str] = ["# Changelog\n\n## Unreleased\n\n- nothing yet\n\n"]
    versions: list[str] = []
    size = len(parts[0])
    major, minor, patch = 900, 0, 0
    while size < target_bytes:
        v = f"{major}.{minor}.{patch}"
        if rnd.random() < 0.05:
            v += f"-beta.{rnd.randint(1, 9)}"
        versions.append(v)
        date = f"20{rnd.randint(10, 24)}-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d}"
        body = [_bullet(rnd) for _ in range(rnd.randint(3, 12))]
        if rnd.random() < 0.2:
            body.insert(0, "### Breaking changes\n")
        if rnd.random() < 0.1:
            body.append("```js\nconst x = require('pkg/1.2.3');\n```")
        chunk = _heading(rnd.randrange(6), v, date) + "\n" + "\n".join(body) + "\n\n"
        parts.append(chunk)
        size += len(chunk)
        # walk downwards through versions
        if patch > 0:
            patch -= 1
        elif minor > 0:
            minor, patch = minor - 1, rnd.randint(0, 4)
        else:
            major, minor, patch = major - 1, rnd.randint(0, 5), rnd.randint(0, 4)
    return "".join(parts), versions


BEST: dict[int, float] = {}  # id(fn) -> fastest run, printed beside the median


def median_seconds(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    BEST[id(fn)] = min(times)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=5.0)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args(argv)
    text, versions = generate(int(args.mb * 1024 * 1024))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "CHANGELOG.md"
        path.write_text(text, encoding="utf-8")
        stable = [v for v in versions if "-" not in v]
        new = stable[len(stable) // 3]
        old = stable[len(stable) // 3 + 40]

        def read_split() -> list[str]:
            return path.read_text(encoding="utf-8").splitlines()

        def parse_and_slice() -> list:
            t = path.read_text(encoding="utf-8")
            return slice_range(parse_sections(t, str(path), ecosystem="npm"), "npm", old, new)

        sections = parse_sections(text, str(path), ecosystem="npm")
        got = slice_range(sections, "npm", old, new)
        expected = [
            v for v in versions if v in set(versions[versions.index(new) : versions.index(old)])
        ]
        assert [s.version for s in got] == expected, "slice does not match the generated versions"
        assert len(sections) == len(versions), (len(sections), len(versions))

        def cold_parse_and_slice() -> list:
            version_key.cache_clear()  # as in a fresh process: every version parsed again
            return parse_and_slice()

        t_read = median_seconds(read_split, args.runs)
        t_cold = median_seconds(cold_parse_and_slice, args.runs)
        t_parse = median_seconds(parse_and_slice, args.runs)

        def slice_only() -> list:
            return slice_range(sections, "npm", old, new)

        t_slice = median_seconds(slice_only, args.runs)
    lines = text.count("\n")
    print(
        f"changelog: {len(text.encode()) / 1e6:.2f} MB, {lines:,} lines, {len(versions):,} versions "
        f"in 6 heading styles; update {old} -> {new}: {len(got)} sections"
    )
    best = {k: v * 1000 for k, v in BEST.items()}
    b_read, b_cold = best[id(read_split)], best[id(cold_parse_and_slice)]
    print(f"median of {args.runs} runs (best run in brackets):")
    print(f"  read + split into lines:          {t_read * 1000:7.1f} ms  [{b_read:6.1f}]")
    print(
        f"  read + parse_sections + slice:    {t_cold * 1000:7.1f} ms  [{b_cold:6.1f}]"
        f"  = {t_cold / t_read:.0f}x the read (cold: every version parsed)"
    )
    print(
        f"  the same, version keys memoized:  {t_parse * 1000:7.1f} ms  "
        f"[{best[id(parse_and_slice)]:6.1f}]"
    )
    print(f"  slice_range on parsed sections:   {t_slice * 1000:7.1f} ms  (the slice alone)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
