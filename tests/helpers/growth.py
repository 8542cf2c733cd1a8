"""Linearity without a stopwatch verdict: a time limit is only a first, cheap look.

A run over ``limit`` seconds is not a failure by itself: on a loaded machine (two test
workers on two CPUs, an eval beside the suite) a linear transform can take twice its time.
It is confirmed by growth instead: the best of seven runs at a quarter of the size against
the best of seven at the full size, taken in turns, so a burst of load elsewhere slows both
sizes alike rather than only the runs it happened to fall on. Linear code grows about 4x from one to the other,
quadratic code about 16x; super-linear means more than ``MAX_GROWTH``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

MAX_GROWTH = 8.0  # between linear (4x for 4x the input) and quadratic (16x)
_FLOOR_S = 0.002  # a quarter-size run faster than this is timer noise: counted as this


def _timed(fn: Callable[[str], object], text: str) -> float:
    t0 = time.perf_counter()
    fn(text)
    return time.perf_counter() - t0


def _best_in_turns(
    fn: Callable[[str], object], small: str, large: str, runs: int = 7
) -> tuple[float, float]:
    """The best time of ``fn`` on each text, the two measured in turns."""
    best_small = best_large = float("inf")
    for _ in range(runs):
        best_small = min(best_small, _timed(fn, small))
        best_large = min(best_large, _timed(fn, large))
    return best_small, best_large


def growth_if_slow(
    fn: Callable[[str], object], make: Callable[[int], str], size: int, limit: float
) -> float | None:
    """None when ``fn`` handles ``make(size)`` within ``limit`` seconds, or grows at most
    ``MAX_GROWTH`` times from a quarter of the size; else the growth it showed."""
    t0 = time.perf_counter()
    fn(make(size))
    if time.perf_counter() - t0 <= limit:
        return None
    small, large = _best_in_turns(fn, make(size // 4), make(size))
    growth = large / max(small, _FLOOR_S)
    return None if growth <= MAX_GROWTH else round(growth, 1)
