"""Linearity without a stopwatch verdict: a time limit is only a first, cheap look.

A run over ``limit`` seconds is not a failure by itself: on a loaded machine (two test
workers on two CPUs, an eval beside the suite) a linear transform can take twice its time.
It is confirmed by growth instead: the best of five runs at a quarter of the size against
the best of five at the full size. Linear code grows about 4x from one to the other,
quadratic code about 16x; super-linear means more than ``MAX_GROWTH``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

MAX_GROWTH = 8.0  # between linear (4x for 4x the input) and quadratic (16x)
_FLOOR_S = 0.002  # a quarter-size run faster than this is timer noise: counted as this


def _best(fn: Callable[[str], object], text: str, runs: int = 5) -> float:
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn(text)
        best = min(best, time.perf_counter() - t0)
    return best


def growth_if_slow(
    fn: Callable[[str], object], make: Callable[[int], str], size: int, limit: float
) -> float | None:
    """None when ``fn`` handles ``make(size)`` within ``limit`` seconds, or grows at most
    ``MAX_GROWTH`` times from a quarter of the size; else the growth it showed."""
    t0 = time.perf_counter()
    fn(make(size))
    if time.perf_counter() - t0 <= limit:
        return None
    small = max(_best(fn, make(size // 4)), _FLOOR_S)
    growth = _best(fn, make(size)) / small
    return None if growth <= MAX_GROWTH else round(growth, 1)
