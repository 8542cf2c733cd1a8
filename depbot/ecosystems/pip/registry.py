"""The Python package index's JSON API: where a package's entry is, and what it says. Pure.

``info`` reads ``GET {index}/pypi/<name>/json`` into a ``PackageInfo``: the releases (a version
whose files are all yanked is skipped), when each was first uploaded, and the repository and
changelog links of ``project_urls``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import quote

from depbot.core.errors import UpstreamError
from depbot.ecosystems.pip.versions import parse
from depbot.records.package import PackageInfo, parse_time
from depbot.records.repository import parse_repository

# project_urls keys (lower-cased) that point at release notes, and at the repository
CHANGELOG_KEYS = (
    "changelog",
    "change log",
    "changes",
    "release notes",
    "releasenotes",
    "news",
    "what's new",
    "whats new",
    "history",
)
REPOSITORY_KEYS = (
    "source",
    "source code",
    "repository",
    "code",
    "github",
    "homepage",
    "home",
    "git",
    "tracker",
    "issues",
    "bug tracker",
)


def metadata_url(base: str, name: str) -> str:
    """The JSON entry of ``name`` on the index at ``base``."""
    return f"{base}/pypi/{quote(name, safe='')}/json"


def project_page(base: str, name: str) -> str:
    """The page a person reads about ``name`` on the index at ``base``."""
    return f"{base}/project/{name}/"


def _released(files: list[object]) -> datetime | None:
    """The first upload of a version's files (``upload_time_iso_8601``, else ``upload_time``)."""
    times = [
        t
        for f in files
        if isinstance(f, dict)
        and (t := parse_time(f.get("upload_time_iso_8601") or f.get("upload_time"))) is not None
    ]
    return min(times) if times else None


def info(name: str, data: dict[str, Any], url: str) -> PackageInfo:
    info = data.get("info") or {}
    if not isinstance(info, dict):
        raise UpstreamError("bad_response", f"package index entry for {name} has no info")
    project_urls = info.get("project_urls") or {}
    if not isinstance(project_urls, dict):
        project_urls = {}
    lowered = {str(k).strip().lower(): str(v) for k, v in project_urls.items() if v}
    changelog = next((lowered[k] for k in CHANGELOG_KEYS if k in lowered), None)
    repository = directory = None
    candidates = [lowered[k] for k in REPOSITORY_KEYS if k in lowered]
    candidates += [v for v in lowered.values()]
    candidates += [str(info.get("home_page") or ""), str(changelog or "")]
    for cand in candidates:
        repository, directory = parse_repository(cand)
        if repository:
            break
    releases = data.get("releases") or {}
    versions, skipped = [], []
    released: dict[str, datetime] = {}
    if isinstance(releases, dict):
        for ver, files in releases.items():
            if parse(ver) is None:
                continue
            files = files if isinstance(files, list) else []
            if (when := _released(files)) is not None:
                released[ver] = when
            if files and all(isinstance(f, dict) and f.get("yanked") for f in files):
                skipped.append(ver)
            else:
                versions.append(ver)
    return PackageInfo(
        ecosystem="pip",
        name=str(info.get("name") or name),
        versions=tuple(versions),
        latest=str(info["version"]) if info.get("version") else None,
        repository=repository,
        directory=directory,
        changelog_url=changelog,
        homepage=str(info.get("home_page") or lowered.get("homepage") or "") or None,
        description=str(info.get("description") or ""),
        url=url,
        skipped=tuple(skipped),
        released=released,
    )
