"""A deterministic token estimate, shared by the loop's budget, the models and the fakes. Pure."""

from __future__ import annotations

import json
import math
from typing import Any


def estimate_tokens(obj: Any) -> int:
    """A deterministic token estimate (about four characters a token) for budgets and the rules model."""
    text = (
        obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    )
    return math.ceil(len(text) / 4)
