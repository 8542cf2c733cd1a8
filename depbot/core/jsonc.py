"""JSON with comments and trailing commas, as ``tsconfig.json`` and ``jsconfig.json`` allow."""

from __future__ import annotations

import json
import re
from typing import Any

_COMMENT = re.compile(r'("(?:[^"\\]|\\.)*")|//[^\n]*|/\*.*?\*/', re.S)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def loads(text: str) -> Any:
    """The value of a JSONC text; raises ``ValueError`` (or ``RecursionError``) as ``json``."""
    return json.loads(_TRAILING_COMMA.sub(r"\1", _COMMENT.sub(lambda m: m.group(1) or "", text)))
