"""What a verdict rests on: its basis, each breaking item's disposition, each used name's fate.

``not_affected`` claims that every way an update can break this code was looked at; the
accounting is that claim written out, so that a reviewer (``depbot trace show``, the report,
a draft) can read what was looked at and what was not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from depbot.records.reach import Reach

BASES = ("notes", "api-diff", "notes+api-diff", "none")
DISPOSITIONS = ("searched", "no-api", "announced", "compared", "not-searched")


def leaf(symbol: str) -> str:
    """The last part of an API name (``pkg.mod:Cls.meth`` → ``meth``)."""
    return re.split(r"[.:/]", symbol)[-1] or symbol


def named_in(symbols: Iterable[str], texts: Iterable[str]) -> bool:
    """Whether any of ``texts`` (breaking items) names the leaf of any of ``symbols``, as a
    word or in backticks: the notes name the break, whether or not a search was made for it."""
    leaves = {leaf(s) for s in symbols if leaf(s)}
    return any(
        re.search(rf"`{re.escape(n)}`|(?<![\\w$]){re.escape(n)}(?![\\w$])", t)
        for n in leaves
        for t in texts
    )


@dataclass(frozen=True)
class ItemAccount:
    """One breaking item of the notes read, and what was done with it."""

    version: str
    text: str  # the item, short
    disposition: str  # searched | no-api | announced | compared | not-searched
    terms: tuple[str, ...] = ()  # what it names (the searched ones when searched)
    hits: int = 0  # what the searches for it returned
    why: str = ""  # no-api: why it names nothing this code can use; not-searched: what stopped

    def to_report(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": self.version, "item": self.text,
                               "disposition": self.disposition}  # fmt: skip
        if self.terms:
            out["terms"] = list(self.terms)
        if self.disposition == "searched":
            out["hits"] = self.hits
        if self.why:
            out["why"] = self.why
        return out


@dataclass(frozen=True)
class NameAccount:
    """One name the code takes from the package, and its fate in the new release."""

    name: str
    fate: str  # present | changed | removed | moved | deprecated | unresolved
    detail: str = ""
    place: str = ""

    def to_report(self) -> dict[str, Any]:
        out = {"name": self.name, "fate": self.fate, "place": self.place}
        return out | ({"detail": self.detail} if self.detail else {})


@dataclass(frozen=True)
class Accounting:
    basis: str = "none"  # one of BASES
    items: tuple[ItemAccount, ...] = ()
    names: tuple[NameAccount, ...] = ()
    refused: tuple[str, ...] = field(default=())  # conclusions integrity refused, with why
    # source files over max_filesize that no search read and that may use the package
    unsearched: tuple[str, ...] = field(default=())
    # what may load the package besides an import (who_loads), when it was asked
    reach: Reach | None = None

    @property
    def open_items(self) -> tuple[ItemAccount, ...]:
        return tuple(i for i in self.items if i.disposition == "not-searched")

    @property
    def announced(self) -> tuple[ItemAccount, ...]:
        """The items that announce a break no search can clear."""
        return tuple(i for i in self.items if i.disposition == "announced")

    @property
    def unresolved(self) -> tuple[NameAccount, ...]:
        return tuple(n for n in self.names if n.fate == "unresolved")

    def names_line(self) -> str:
        """``11 of 11 used names resolved`` ("" when no diff gave names their fates)."""
        if not self.names:
            return ""
        done = len(self.names) - len(self.unresolved)
        return f"{done} of {len(self.names)} used name(s) resolved"

    def reach_lines(self) -> list[str]:
        """What ``who_loads`` found, one line each ([] when it was not asked)."""
        r = self.reach
        if r is None:
            return []
        return ([f"reached: {x}" for x in r.reached] + [f"not seen: {x}" for x in r.unseen]
                + [f"looked: {x}" for x in r.looked])  # fmt: skip

    def items_line(self) -> str:
        if not self.items:
            return ""
        counts = {d: sum(i.disposition == d for i in self.items) for d in DISPOSITIONS}
        parts = [f"{n} {d}" for d, n in counts.items() if n]
        return f"{len(self.items)} breaking item(s): " + ", ".join(parts)

    def to_report(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "items": [i.to_report() for i in self.items],
            "names": [n.to_report() for n in self.names],
        }
        if self.names:
            out["names_resolved"] = len(self.names) - len(self.unresolved)
        if self.refused:
            out["refused"] = list(self.refused)
        if self.unsearched:
            out["files_not_searched"] = list(self.unsearched)
        if self.reach is not None:
            out["reach"] = self.reach.to_report()
        return out

    @classmethod
    def from_report(cls, basis: str, data: dict[str, Any] | None) -> Accounting:
        data = data or {}
        items = tuple(
            ItemAccount(
                i["version"],
                i["item"],
                i["disposition"],
                tuple(i.get("terms", ())),
                int(i.get("hits", 0)),
                i.get("why", ""),
            )  # fmt: skip
            for i in data.get("items", [])
        )
        names = tuple(
            NameAccount(n["name"], n["fate"], n.get("detail", ""), n.get("place", ""))
            for n in data.get("names", [])
        )
        return cls(
            basis,
            items,
            names,
            tuple(data.get("refused", ())),
            tuple(data.get("files_not_searched", ())),
            Reach.read(data["reach"]) if isinstance(data.get("reach"), dict) else None,
        )
