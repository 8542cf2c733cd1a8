"""The linearity check of the hardening tests tells quadratic code from linear code on a
slow machine: over its limit, it measures growth instead of failing on the stopwatch."""

from __future__ import annotations

import re

from tests.helpers.growth import growth_if_slow

QUADRATIC = re.compile(r"a*b")  # search tries every start and scans to the end from each
LINEAR = re.compile(r"b")


def test_quadratic_code_is_caught_and_linear_code_passes_though_both_miss_the_limit():
    make = lambda n: "a" * n  # noqa: E731
    growth = growth_if_slow(QUADRATIC.search, make, 12_000, 0.0)
    assert growth is not None and growth > 8
    slow_linear = lambda s: [LINEAR.search(s) for _ in range(1000)]  # noqa: E731
    assert growth_if_slow(slow_linear, make, 48_000, 0.0) is None
