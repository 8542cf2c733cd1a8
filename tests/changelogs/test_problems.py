"""The sentences for upstream failures: every kind the seam raises has words, not its code."""

from __future__ import annotations

import pytest

from depbot.changelogs.problems import github_problem
from depbot.core.errors import UpstreamError


@pytest.mark.parametrize(
    "kind, words",
    [
        ("dns", "DNS lookup failed"),
        ("tls", "TLS handshake failed"),
        ("proxy", "the proxy failed"),
        ("unreachable", "unreachable (marked down for this run)"),
        ("deadline", "run deadline passed, not asked"),
        ("timeout", "no answer in time after retries"),
    ],
)
def test_each_failure_kind_reads_as_words(kind: str, words: str):
    got = github_problem(UpstreamError(kind, "x"), "releases of o/r")
    assert got == f"GitHub: {words} for releases of o/r"
