"""The package registries: the Python package index JSON API and the npm registry.

One ``PackageInfo`` per package: its releases (yanked and deprecated ones marked) and
when each was published, where its source lives, and any changelog link it declares.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any
from urllib.parse import quote

from depbot.core.cache import ttl
from depbot.core.errors import UpstreamError
from depbot.core.net import Http
from depbot.core.settings import Settings
from depbot.records.repository import parse_repository
from depbot.records.versions import parse_version

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


@dataclass(frozen=True)
class PackageInfo:
    ecosystem: str
    name: str
    versions: tuple[str, ...] = ()  # every published version that is not yanked / deprecated
    latest: str | None = None  # what the registry calls the latest release
    repository: str | None = None  # "owner/repo" on GitHub, when known
    directory: str | None = None  # the package's folder in a monorepo
    changelog_url: str | None = None
    homepage: str | None = None
    description: str = ""  # long description (PyPI); may carry a changelog
    url: str = ""  # the registry page the info came from
    skipped: tuple[str, ...] = field(default=())  # yanked or deprecated versions
    # version -> when it was published (PyPI: its first file's upload; npm: ``time``)
    released: dict[str, datetime] = field(default_factory=dict, compare=False, hash=False)


def _when(value: object) -> datetime | None:
    """An ISO 8601 time of the registry as an aware datetime (None when absent or unreadable)."""
    if not isinstance(value, str) or not value:
        return None
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def _pypi_released(files: list[object]) -> datetime | None:
    """The first upload of a version's files (``upload_time_iso_8601``, else ``upload_time``)."""
    times = [
        t
        for f in files
        if isinstance(f, dict)
        and (t := _when(f.get("upload_time_iso_8601") or f.get("upload_time"))) is not None
    ]
    return min(times) if times else None


def _npm_released(data: dict[str, Any], versions: list[str]) -> dict[str, datetime]:
    times = data.get("time") if isinstance(data.get("time"), dict) else {}
    return {v: t for v in versions if (t := _when(times.get(v))) is not None}


def _pypi_info(name: str, data: dict[str, Any], url: str) -> PackageInfo:
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
            if parse_version("pip", ver) is None:
                continue
            files = files if isinstance(files, list) else []
            if (when := _pypi_released(files)) is not None:
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


def _npm_info(name: str, data: dict[str, Any], url: str) -> PackageInfo:
    versions_obj = data.get("versions") or {}
    if not isinstance(versions_obj, dict):
        versions_obj = {}
    versions, skipped = [], []
    for ver, meta in versions_obj.items():
        if parse_version("npm", ver) is None:
            continue
        if isinstance(meta, dict) and meta.get("deprecated"):
            skipped.append(ver)
        else:
            versions.append(ver)
    tags = data.get("dist-tags") or {}
    latest = tags.get("latest") if isinstance(tags, dict) else None
    repository, directory = parse_repository(data.get("repository"))
    if repository is None and latest and isinstance(versions_obj.get(latest), dict):
        repository, directory = parse_repository(versions_obj[latest].get("repository"))
    homepage = data.get("homepage") if isinstance(data.get("homepage"), str) else None
    if repository is None and homepage:
        repository, _ = parse_repository(homepage)
    return PackageInfo(
        ecosystem="npm",
        name=str(data.get("name") or name),
        versions=tuple(versions),
        latest=str(latest) if latest else None,
        repository=repository,
        directory=directory,
        changelog_url=None,
        homepage=homepage,
        description="",
        url=url,
        skipped=tuple(skipped),
        released=_npm_released(data, versions + skipped),
    )


# an answer that holds for the whole run: "rate limited" after the seam's own retries (the
# wait asked for is longer than depbot waits); a 404 is asked again (mirrors flap)
REMEMBERED_FAILURES = frozenset({"rate_limited"})


class Registries:
    """Reads package metadata; one instance per run keeps what it has read."""

    def __init__(self, settings: Settings, http: Http) -> None:
        self.settings = settings
        self.http = http
        self._memo: dict[tuple[str, str], PackageInfo] = {}
        self._documents: dict[tuple[str, str], dict[str, Any]] = {}
        self._failed: dict[tuple[str, str], UpstreamError] = {}
        self._lock = threading.Lock()

    def metadata_url(self, ecosystem: str, name: str) -> str:
        if ecosystem == "pip":
            return f"{self.settings.pypi_url}/pypi/{quote(name, safe='')}/json"
        if ecosystem == "npm":
            # scoped names keep the @ and encode the slash: @scope%2Fname
            return f"{self.settings.npm_url}/{quote(name, safe='@')}"
        raise ValueError(f"unknown ecosystem {ecosystem!r}")

    def document(self, ecosystem: str, name: str) -> dict[str, Any]:
        """The registry's raw JSON for the package, read once per run (``info`` parses it;
        ``depbot.artifacts`` reads its file entries)."""
        key = (ecosystem, name.lower())
        with self._lock:
            if key in self._documents:
                return self._documents[key]
            if key in self._failed:
                raise self._failed[key]
        url = self.metadata_url(ecosystem, name)
        label = "package index" if ecosystem == "pip" else "npm registry"
        try:
            data = self.http.get_json(
                url,
                what=f"{label} entry for {name}",
                category="registry",
                # fresh for registry_ttl: a rerun the same day asks nothing, a weekly run
                # revalidates
                cache=ttl(self.settings.registry_ttl),
                max_bytes=self.settings.max_metadata_bytes,
            )
        except UpstreamError as caught:
            exc = caught
            if exc.kind == "too_large":
                exc = UpstreamError(
                    exc.kind,
                    f"{exc}: set DEPBOT_MAX_METADATA_BYTES to read a larger registry entry",
                )
            if exc.kind in REMEMBERED_FAILURES:  # asking again in this run cannot help
                with self._lock:
                    self._failed[key] = exc
            raise exc from None
        if not isinstance(data, dict):
            raise UpstreamError("bad_response", f"{label} entry for {name} is not a JSON object")
        with self._lock:
            self._documents[key] = data
        return data

    def info(self, ecosystem: str, name: str) -> PackageInfo:
        key = (ecosystem, name.lower())
        with self._lock:
            if key in self._memo:
                return self._memo[key]
        data = self.document(ecosystem, name)
        url = self.metadata_url(ecosystem, name)
        info = _pypi_info(name, data, url) if ecosystem == "pip" else _npm_info(name, data, url)
        with self._lock:
            self._memo[key] = info
        return info

    def newest(self, ecosystem: str, name: str, current: str | None = None) -> str | None:
        """The newest usable release: stable, unless ``current`` is itself a pre-release."""
        info = self.info(ecosystem, name)
        cur = parse_version(ecosystem, current) if current else None
        allow_pre = bool(cur and cur.is_prerelease)
        best = None
        for text in info.versions:
            v = parse_version(ecosystem, text)
            if v is None or (v.is_prerelease and not allow_pre):
                continue
            if best is None or v > best[0]:
                best = (v, text)
        return best[1] if best else None
