"""What a guide's before-and-after example takes away. Pure.

"To upgrade, change: ``{"extends": ["prettier", "prettier/@typescript-eslint"]}`` Into:
``{"extends": ["prettier"]}``": the string values the first block has and the second has
not are the ones code (or a config file) must stop passing: ``string_value`` candidates,
searched as whole literals. Only a pair the item says is one (change … into, before …
after, replace … with, old … new), and only values shaped like the name of a module, a
config or an option (a separator inside: ``prettier/@typescript-eslint``, ``plugin:x/y``,
``moment-timezone``), never a plain word, a version or a URL.
"""

from __future__ import annotations

import re

from depbot.changelogs.wording import Candidate

# "To upgrade, change: … Into:", "Before: … After:", "Replace: … With:" (the code blocks are
# cut out of the item's text, so the two labels stand close together)
_PAIR = re.compile(
    r"\b(?:change|replace|before|old|previously)\b[^.:\n]{0,40}:[^:]{0,300}?"
    r"\b(?:into|with|after|new|now)\b[^.:\n]{0,20}:",
    re.I,
)
# what says the old form must go: the change is one to make, not a way that also works
_MUST = re.compile(
    r"\b(?:to\s+upgrade|upgrading|migrat\w*|must|need\s+to|have\s+to|no\s+longer|breaking)\b",
    re.I,
)
_LITERAL = re.compile(r"""(['"])([^'"\s]{3,100})\1""")
_SHAPED = re.compile(r"[A-Za-z0-9][/@:.-]@?[A-Za-z0-9]")
_NOT_A_NAME = re.compile(r"(?:https?:|//|www\.)|^[\d.^~<>=x*|\s-]+$", re.I)


def replaced_values(text: str, blocks: list[list[str]]) -> list[Candidate]:
    """The string values the first of an item's two example blocks passes and the second
    does not, when the item says the first is the old form (``text``: the item without its
    code)."""
    if len(blocks) < 2 or not (_PAIR.search(text) and _MUST.search(text)):
        return []
    before, after = _literals(blocks[0]), set(_literals(blocks[1]))
    gone = [v for v in before if v not in after and _SHAPED.search(v) and not _NOT_A_NAME.search(v)]
    return [Candidate(v, "string_value") for v in dict.fromkeys(gone)]


def _literals(block: list[str]) -> list[str]:
    return [m.group(2) for m in _LITERAL.finditer("\n".join(block))]
