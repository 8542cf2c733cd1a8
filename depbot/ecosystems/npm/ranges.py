"""npm ranges ("^1.2", "1.x || >=3"): their lowest version, and membership as npm decides. Pure.

Membership is node-semver's (a port of npm's own ``semver``); the lowest version is read here,
like ``semver.minVersion``.
"""

from __future__ import annotations

import re

_NPM_PARTIAL = re.compile(
    r"^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$"
)
_NPM_COMPARATOR = re.compile(r"^(\^|~>?|>=|<=|>|<|=)?\s*(.+)$")


def npm_min_version(spec: str) -> str | None:
    """The lowest version an npm range allows (like ``semver.minVersion``), or None.

    ``^1.2.3`` → 1.2.3, ``~1.2`` → 1.2.0, ``>=1.0.0 <2`` → 1.0.0, ``1.x`` → 1.0.0,
    ``1.2.3 - 2.0.0`` → 1.2.3; for ``a || b`` the lowest of the alternatives. ``*``,
    ``latest`` and ranges with only an upper bound give None.
    """
    best: tuple[int, int, int] | None = None
    best_text = None
    for alternative in spec.split("||"):
        alt = alternative.strip()
        hyphen = re.match(r"^(\S+)\s+-\s+(\S+)$", alt)
        tokens = (
            [hyphen.group(1)] if hyphen else re.sub(r"(>=|<=|>|<|=|\^|~)\s+", r"\1", alt).split()
        )
        low: tuple[int, int, int] | None = None
        low_text = None
        for token in tokens:
            m = _NPM_COMPARATOR.match(token)
            if not m:
                return None
            op, ver = m.group(1) or "", m.group(2)
            p = _NPM_PARTIAL.match(ver)
            if not p:
                return None
            if op in ("<", "<="):
                continue
            if p.group(1) in ("x", "X", "*"):
                continue
            parts = [int(g) if g and g.isdigit() else None for g in p.group(1, 2, 3)]
            nums = [n or 0 for n in parts]
            if op == ">":  # the next version after the given one
                last = max(i for i, n in enumerate(parts) if n is not None)
                nums = nums[: last + 1] + [0] * (2 - last)
                nums[last] += 1
                pre = ""
            else:
                pre = p.group(4) if parts[2] is not None and p.group(4) else ""
            cand = (nums[0], nums[1], nums[2])
            if low is None or cand > low:
                low, low_text = cand, "{}.{}.{}{}".format(*cand, pre)
        if low is not None and (best is None or low < best):
            best, best_text = low, low_text
    return best_text


def valid_range(text: str) -> bool:
    """Whether ``text`` is an npm range (as dependabot.yml's ``versions`` write them)."""
    import nodesemver  # 35 ms to import: only dependabot.yml's ranges need it

    return nodesemver.valid_range(text, True) is not None


def in_ranges(version: str, ranges: tuple[str, ...]) -> bool:
    """Whether ``version`` satisfies one of the npm ``ranges`` (pre-releases included)."""
    import nodesemver

    return any(
        nodesemver.satisfies(version, text, True, include_prerelease=True) for text in ranges
    )
