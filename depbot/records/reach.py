"""The ``Reach`` record: what may load a package besides an import, as looked for in one run.

An update of a package nothing reaches cannot break this code, whatever its notes say;
``who_loads`` (``pipeline/reach.py``) fills this in, and a ``not_affected`` resting on it
says each thing that was looked at.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Reach:
    reached: tuple[str, ...] = ()  # how the package is reached ("imported at src/a.ts:3")
    unseen: tuple[str, ...] = ()  # what could not be looked at, and why
    looked: tuple[str, ...] = ()  # what was looked at and found nothing
    # imports that bind names the file never reads ("src/a.ts:9 `BigNumber`"): the module
    # may still be resolved and loaded, so only a clean API diff clears what they import
    unread: tuple[str, ...] = ()

    @property
    def unreached(self) -> bool:
        """Nothing reaches it, and everything that could was looked at."""
        return not self.reached and not self.unseen

    def to_report(self) -> dict[str, Any]:
        out = {"unreached": self.unreached, "reached": list(self.reached),
               "unseen": list(self.unseen), "looked": list(self.looked)}  # fmt: skip
        return out | ({"unread_imports": list(self.unread)} if self.unread else {})

    @classmethod
    def read(cls, data: dict[str, Any] | None) -> Reach:
        data = data or {}
        keys = ("reached", "unseen", "looked", "unread_imports")
        return cls(*(tuple(str(x) for x in data.get(k) or []) for k in keys))
