"""Where a package keeps its changelog: the file names looked for, how candidates rank, how a
GitHub link reads, and the limits of the search. Pure: no I/O (``fetch.ChangelogFetcher``
does the fetching).
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

from depbot.github.client import Entry

__all__ = [
    "CHANGELOG_FILE",
    "CHANGELOG_NAMES",
    "CONTEXT_LINES",
    "MAX_FILES_READ",
    "MAX_FILE_BYTES",
    "MAX_RELEASE_PAGES",
    "MIN_FILE_BYTES",
    "PER_PAGE",
    "candidate_rank",
    "parse_github_link",
]

CHANGELOG_NAMES = (
    "changelog",
    "changelogs",
    "change-log",
    "change_log",
    "changes",
    "history",
    "news",
    "releases",
    "release-notes",
    "release_notes",
    "releasenotes",
    "whatsnew",
    "whats-new",
    "whats_new",
    "updates",
)
_EXT_RANK = {".md": 0, ".markdown": 0, ".mdx": 1, ".rst": 2, "": 3, ".txt": 4}
CHANGELOG_FILE = re.compile(
    r"^(?P<stem>" + "|".join(re.escape(n) for n in CHANGELOG_NAMES) + r")"
    # an English edition beside translations (CHANGELOG.en-US.md): the notes depbot reads
    r"(?P<lang>\.en(?:[-_][A-Za-z]{2})?)?"
    r"(?P<ext>\.md|\.markdown|\.mdx|\.rst|\.txt)?$",
    re.IGNORECASE,
)
MIN_FILE_BYTES = 100
MAX_FILE_BYTES = 1024 * 1024
MAX_FILES_READ = 3  # candidates read before giving up on files without version headings
PER_PAGE = 100  # GitHubClient's page size
MAX_RELEASE_PAGES = 10
CONTEXT_LINES = 40


def parse_github_link(url: str) -> tuple[str, str, str | None, str] | None:
    """``(owner/repo, kind, ref, path)`` for a github.com blob/tree/releases link, else None."""
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").lower()
    segs = [unquote(s) for s in parts.path.split("/") if s]
    if host == "raw.githubusercontent.com" and len(segs) >= 4:
        return f"{segs[0]}/{segs[1]}", "blob", segs[2], "/".join(segs[3:])
    if host not in ("github.com", "www.github.com") or len(segs) < 2:
        return None
    repo = f"{segs[0]}/{segs[1].removesuffix('.git')}"
    if len(segs) >= 4 and segs[2] in ("blob", "tree"):
        return repo, segs[2], segs[3], "/".join(segs[4:])
    if len(segs) >= 3 and segs[2] == "releases":
        return repo, "releases", None, ""
    if len(segs) == 2:
        return repo, "tree", None, ""
    return None


def candidate_rank(entry: Entry, place: int) -> tuple[int, ...]:
    m = CHANGELOG_FILE.match(entry.name)
    assert m is not None
    ext = (m.group("ext") or "").lower()
    stem = m.group("stem").lower().replace("_", "-")
    order = [n.replace("_", "-") for n in CHANGELOG_NAMES]
    size_ok = MIN_FILE_BYTES <= entry.size <= MAX_FILE_BYTES or entry.size == 0
    return (0 if size_ok else 1, place, _EXT_RANK.get(ext, 5), order.index(stem))
