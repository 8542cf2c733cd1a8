"""Line-level Markdown / reStructuredText primitives shared by the changelog modules. Pure."""

from __future__ import annotations

import re

ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")  # "## 2.0.0"
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")  # a code fence
PUNCT = frozenset("=-~^*+#\"':._!$%&,/;<>?@\\|")  # under/overline characters; ``` is a fence
BULLET = re.compile(r"^(\s*)(?:[-*+\u2022]|\d{1,3}[.)])(?:\s+|$)")  # "- x", "* x", "1. x"


def closes_fence(opened: str, run: str) -> bool:
    """Whether the fence ``run`` closes a block ``opened`` began: the same character, at least
    as many (a ``~~~`` inside a ``` block closes nothing)."""
    return run[:1] == opened[:1] and len(run) >= len(opened)


def is_punct_run(line: str) -> bool:
    """A line of three or more of one punctuation character: an rst/setext under- or overline."""
    s = line.rstrip()
    return len(s) >= 3 and s[0] in PUNCT and s == s[0] * len(s)
