"""String values a release no longer accepts, read from a changelog sentence. Pure.

"`horizontalBar` chart type was removed", "the `legacy` mode is no longer supported",
"remove the `fast` preset": code passes such a value as a string literal (``string_value``
candidates; ``symbols/values.py`` finds the literals).
"""

from __future__ import annotations

import re

from depbot.changelogs.wording import Candidate

__all__ = ["string_value_candidates"]

# "`horizontalBar` chart type was removed", "the `legacy` mode is no longer supported",
# "remove the `fast` preset": a value code passes as a string. A bare "`Foo` type" is a
# TypeScript type, so "type" needs a word naming what it is a type of ("chart type")
_VALUE_KIND = (
    r"(?:(?:[a-z]+\s+)?(?:modes?|values?|variants?|formats?|presets?|themes?|"
    r"strateg(?:y|ies)|drivers?|dialects?|transports?|levels?)|[a-z]+\s+types?)"
)
_GONE = (
    r"(?:was|were|has\s+been|have\s+been|is|are)\s+(?:now\s+)?(?:removed|dropped|"
    r"no\s+longer\s+(?:supported|available|valid|accepted|allowed))"
)
_STRING_VALUE = re.compile(
    rf"`([a-z][\w.:-]{{1,60}})`\s+{_VALUE_KIND}\s+{_GONE}"
    rf"|\b(?:remov(?:e|ed|es)|drop(?:ped|s)?)\s+(?:the\s+)?(?:deprecated\s+)?`([a-z][\w.:-]{{1,60}})`"
    rf"\s+{_VALUE_KIND}\b",
    re.I,
)


def string_value_candidates(sentence: str) -> list[Candidate]:
    """The string values a sentence says the release no longer accepts."""
    out = []
    for m in _STRING_VALUE.finditer(sentence):
        value = m.group(1) or m.group(2)
        if value and not value[0].isupper() and "(" not in value:
            out.append(Candidate(value, "string_value"))
    return out
