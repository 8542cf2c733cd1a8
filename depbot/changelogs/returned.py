"""A member removed from what a function returns. Pure.

"### The `remove` method has been removed from useQuery": `remove` is no name the package
exports but a member of the object `useQuery()` returns, too common a word to search for on
its own. It becomes a ``returned_member`` candidate (``symbol`` the function, ``arg`` the
member), answered from the names the checkout reads on that function's results
(``const q = useQuery(…)`` then ``q.remove``, ``const { remove } = useQuery(…)``).
A capitalised owner is a class (``Model.remove``), which the name reading covers.
"""

from __future__ import annotations

import re

from depbot.changelogs.wording import Candidate

__all__ = ["returned_member_candidates"]

_REMOVED_FROM = re.compile(
    r"`(?P<m>[A-Za-z_$][\w$]*)(?:\(\))?`\s+(?:method|property|function|field|member|flag)s?\s+"
    r"(?:has\s+been|have\s+been|is|are|was|were)\s+(?:now\s+)?(?:removed|dropped)\s+from\s+"
    r"(?:the\s+(?:result\s+of\s+)?)?`?(?P<f>[a-z_$][\w$]*)(?:\(\))?`?(?![\w$.])",
)


def returned_member_candidates(sentence: str) -> list[Candidate]:
    """``returned_member`` candidates of a sentence that removes a member of a function's
    result."""
    return [Candidate(m.group("f"), "returned_member", arg=m.group("m"))
            for m in _REMOVED_FROM.finditer(sentence)]  # fmt: skip
