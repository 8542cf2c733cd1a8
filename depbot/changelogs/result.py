"""What ``fetch_changelog`` returns (``ChangelogResult``), and the running state of one fetch
(``FetchState``): what the sources gave so far, what was tried, what failed. Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from depbot.changelogs.sections import Section, version_key
from depbot.core.cache import REVALIDATE, CachePolicy
from depbot.github.client import Entry, Release
from depbot.records.versions import Version

__all__ = ["ChangelogResult", "FetchState"]


@dataclass
class ChangelogResult:
    """What ``fetch_changelog`` learned about one update."""

    ecosystem: str
    package: str
    from_version: str
    to_version: str
    sections: list[Section]  # in range, newest first, after trimming
    context: list[Section] = field(default_factory=list)  # deprecations from <= from_version
    sources_tried: list[str] = field(default_factory=list)
    missing_versions: list[str] = field(default_factory=list)
    note: str = ""
    errors: list[str] = field(default_factory=list)
    trimmed: str | None = None
    # the versions of the range the registry publishes (and ``to``); empty when not known
    published: list[str] = field(default_factory=list)
    # the same sections as ``sections`` (and maybe more) trimmed to a larger budget: what the
    # items are read from, so a long range's breaking lines are not lost to the display's
    # budget; empty: read ``sections``
    analysed: list[Section] = field(default_factory=list)
    analysed_trimmed: str | None = None

    @property
    def found(self) -> bool:
        return bool(self.sections)


@dataclass
class FetchState:
    """The state of one fetch: what the sources gave so far, what was tried, what failed."""

    eco: str
    package: str
    old: str
    new: str
    lo: Version
    hi: Version
    needed: dict[Version, str]
    found: dict[Version, Section] = field(default_factory=dict)
    labels: dict[Version, str] = field(default_factory=dict)
    seen: dict[Version, Section] = field(default_factory=dict)  # every version of every source
    tried: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    files_read: list[str] = field(default_factory=list)
    branches: dict[str, str | None] = field(default_factory=dict)
    releases: dict[str, list[Release]] = field(default_factory=dict)
    repo: str | None = None  # the package's repository
    missing_repos: set[str] = field(default_factory=set)
    no_file: str | None = None  # "no changelog file found in o/r (looked for …)"
    no_file_at: int = -1  # its place in ``tried``
    # the cache policy of the default-branch reads (notes_policy of the new release's date)
    notes: CachePolicy = REVALIDATE
    new_tags: dict[str, str | None] = field(default_factory=dict)  # repo -> the new version's tag
    tags_listed: set[str] = field(default_factory=set)  # repos whose tag list was asked for
    tag_tried: set[str] = field(default_factory=set)  # repos whose files were read at that tag
    trees: dict[str, list[Entry] | None] = field(default_factory=dict)  # "repo@ref" -> its files

    def covered(self) -> bool:
        finals = {(v.release, v.is_prerelease) for v in self.found}
        for v in self.needed:
            if v in self.found:
                continue
            if v.is_prerelease and (v.release, False) in finals:
                continue
            return False
        return True

    def add(self, sections: list[Section], label: str) -> int:
        """Merge a source's sections (first source wins per version); count the new in-range ones."""
        added = 0
        for s in sections:
            v = version_key(self.eco, s.version)
            if v is None:
                continue
            self.seen.setdefault(v, s)
            if self.lo < v <= self.hi and v not in self.found:
                self.found[v] = s
                self.labels[v] = label
                added += 1
        return added
