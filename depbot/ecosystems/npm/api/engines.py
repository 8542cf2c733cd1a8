"""The lowest Node.js version an `engines.node` range allows (enough to see it raised)."""

from __future__ import annotations


def _version(text: str) -> tuple[int, ...] | None:
    digits = text.lstrip("^~>=v ").replace(".x", "").replace(".*", "")
    parts = [p for p in digits.split(".") if p]
    if not parts or not all(p.isdigit() for p in parts):
        return None
    return tuple(int(p) for p in parts) + (0,) * (3 - len(parts))


def node_minimum(spec: str) -> tuple[int, ...] | None:
    """`^12.20.0 || >=16` → (12, 20, 0); `*`, empty or unreadable → None (any Node)."""
    lowest: tuple[int, ...] | None = None
    for alternative in spec.split("||"):
        words = alternative.replace(" - ", " >=").split()
        bounds = [_version(w) for w in words if not w.startswith("<")]
        bounds = [b for b in bounds if b is not None]
        if not bounds:
            if alternative.strip() in ("", "*", "x"):
                return None
            continue
        low = max(bounds)
        lowest = low if lowest is None or low < lowest else lowest
    return lowest
