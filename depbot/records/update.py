"""The normalized update record: one pending dependency update. Pure: no I/O.

Everything downstream (changelogs, search, the loop, drafts) works on ``Update``; the
update file that lists them is read by ``updates.files``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from depbot.records.versions import may_break, update_type

DEPENDENCY_KINDS = ("direct", "dev", "indirect")
SOURCE_KINDS = ("file", "dependabot", "registry")


@dataclass(frozen=True)
class Update:
    """One pending dependency update."""

    ecosystem: str  # "pip" | "npm"
    package: str  # distribution / npm package name, as declared
    from_version: str
    to_version: str
    update_type: str = ""  # computed when empty
    manifest: str = ""  # path of the manifest, relative to the repository
    dependency_kind: str = "direct"  # direct | dev | indirect
    source: str = "file"  # file | dependabot | registry
    source_ref: str = ""  # PR URL, file path or registry URL
    error: str | None = None  # the registry could not tell us about it
    extra: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not self.update_type:
            object.__setattr__(
                self, "update_type", update_type(self.ecosystem, self.from_version, self.to_version)
            )

    @property
    def key(self) -> str:
        """Identifies the update across runs: ``pip/urllib3@2.0.7``."""
        return f"{self.ecosystem}/{self.package}@{self.to_version}"

    @property
    def may_break(self) -> bool:
        return may_break(self.ecosystem, self.from_version, self.to_version, self.update_type)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["from"] = data.pop("from_version")
        data["to"] = data.pop("to_version")
        data["may_break"] = self.may_break
        if not data["extra"]:
            data.pop("extra")
        return data

    def with_error(self, message: str) -> Update:
        return replace(self, error=message)


def dedupe(updates: Iterable[Update]) -> list[Update]:
    """Keep the first update per (ecosystem, package, manifest); order is preserved."""
    seen: set[tuple[str, str, str]] = set()
    out = []
    for u in updates:
        k = (u.ecosystem, u.package.lower(), u.manifest)
        if k in seen:
            continue
        seen.add(k)
        out.append(u)
    return out
