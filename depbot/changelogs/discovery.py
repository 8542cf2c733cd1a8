"""What changelog fetching shares: the result type, its running state, and the sentences.

Pure: no I/O. ``ChangelogFetcher`` (``changelogs.py``) does the fetching; the sentences here
turn upstream failures into words a model can act on, without a stack trace, a token or a
response body.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from depbot.changelogs.sections import Section, version_key
from depbot.core.errors import UpstreamError
from depbot.github.client import Entry, Release
from depbot.records.versions import Version

__all__ = [
    "CHANGELOG_FILE",
    "CHANGELOG_NAMES",
    "ChangelogResult",
    "FetchState",
    "candidate_rank",
    "github_problem",
    "parse_github_link",
    "registry_problem",
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
    r"(?P<ext>\.md|\.markdown|\.mdx|\.rst|\.txt)?$",
    re.IGNORECASE,
)
MIN_FILE_BYTES = 100
MAX_FILE_BYTES = 1024 * 1024
MAX_FILES_READ = 3  # candidates read before giving up on files without version headings
PER_PAGE = 100  # GitHubClient's page size
MAX_RELEASE_PAGES = 10
CONTEXT_LINES = 40


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


def _kind_words(exc: UpstreamError) -> str:
    status = f" (HTTP {exc.status})" if exc.status else ""
    return {
        "rate_limited": "rate limit reached",
        "server_error": f"server error{status} after retries",
        "timeout": "no answer in time after retries",
        "connection": "connection failed after retries",
        "not_found": f"not found{status}",
        "unauthorized": f"access refused{status}",
        "bad_response": "unreadable answer (not the JSON expected)",
        "too_large": "answer too large",
        "refused": "address refused (not a configured host)",
    }.get(exc.kind, exc.kind)


def github_problem(exc: UpstreamError, what: str, hint: str = "") -> str:
    """One sentence about a GitHub failure, e.g. 'GitHub rate limit reached for releases of o/r'."""
    if exc.kind == "rate_limited":
        text = f"GitHub rate limit reached for {what}"
        if not hint:
            hint = "set GITHUB_TOKEN for a higher limit, or try again later"
    elif exc.kind == "not_found":
        text = f"{what} not found on GitHub"
    elif exc.kind == "unauthorized":
        text = f"GitHub refused access to {what}"
        hint = hint or "check GITHUB_TOKEN"
    else:
        text = f"GitHub: {_kind_words(exc)} for {what}"
    return f"{text}; {hint}" if hint else text


def registry_problem(exc: UpstreamError, eco: str, package: str) -> UpstreamError:
    """The error ``fetch`` raises when the registry metadata itself could not be read."""
    where = "the package index" if eco == "pip" else "the npm registry"
    if exc.kind == "not_found":
        msg = f"{package} was not found on {where}; check the package name"
    elif exc.kind in ("rate_limited", "server_error", "timeout", "connection", "bad_response"):
        msg = (
            f"could not read {package}'s metadata from {where}: {_kind_words(exc)}; "
            "no changelog source can be found without it, try again later"
        )
    else:
        msg = f"could not read {package}'s metadata from {where}: {_kind_words(exc)}"
    return UpstreamError(exc.kind, msg, status=exc.status, retry_after=exc.retry_after)


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
