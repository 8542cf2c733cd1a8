"""The package registries, read once per run: each ecosystem's registry (``depbot.ecosystems``).

One ``PackageInfo`` per package: its releases (yanked and deprecated ones marked) and
when each was published, where its source lives, and any changelog link it declares. Where
an entry is and how it reads is the ecosystem's (``metadata_url``, ``package_info``); the
reading, its cache and its failures are the same for all.
"""

from __future__ import annotations

import threading
from typing import Any
from urllib.parse import quote

from depbot import ecosystems
from depbot.core.cache import ttl
from depbot.core.errors import UpstreamError
from depbot.core.net import Http
from depbot.core.settings import Settings
from depbot.records.package import PackageInfo
from depbot.records.versions import parse_version

__all__ = ["REMEMBERED_FAILURES", "PackageInfo", "Registries"]

# an answer that holds for the whole run: "rate limited" after the seam's own retries (the
# wait asked for is longer than depbot waits); a 404 is asked again (mirrors flap)
REMEMBERED_FAILURES = frozenset({"rate_limited"})


def registry_url(settings: Settings, eco: ecosystems.Ecosystem) -> str:
    """The base URL of ``eco``'s registry: its entry in ``settings.registry_urls``, else the
    Settings field it names (``url_setting``: ``pypi_url``, ``npm_url``)."""
    return settings.registry_urls.get(eco.name) or str(getattr(settings, eco.url_setting))


def _is_github(eco: ecosystems.Ecosystem) -> bool:
    """Whether ``eco``'s registry is the GitHub API (an action's tags)."""
    return eco.url_setting == "github_api_url"


LISTING_PAGE = 100  # the items a page of a GitHub API listing holds (``per_page=100``)
MAX_LISTING_PAGES = 10  # the pages of one listing read at most (1,000 tags)


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
        eco = ecosystems.get(ecosystem)
        return eco.metadata_url(registry_url(self.settings, eco), name)

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
        eco = ecosystems.get(ecosystem)
        data = self._get(eco, url, name)
        if isinstance(data, list) and _is_github(eco):
            data = {"items": data + self._more_pages(eco, url, name, data)}  # an action's tags
        if not isinstance(data, dict):
            raise UpstreamError(
                "bad_response", f"{eco.registry_label} entry for {name} is not a JSON object"
            )
        with self._lock:
            self._documents[key] = data
        return data

    def _more_pages(self, eco: ecosystems.Ecosystem, url: str, name: str, first: list) -> list:
        """The pages after a full first page of a GitHub API listing (100 items a page, at
        most ``MAX_LISTING_PAGES`` in all): an action with hundreds of tags lists its old
        majors on later pages."""
        items: list = []
        page, got = 1, first
        while len(got) >= LISTING_PAGE and page < MAX_LISTING_PAGES:
            page += 1
            got = self._get(eco, f"{url}&page={page}", name)
            if not isinstance(got, list):
                break
            items += got
        return items

    def _get(self, eco: ecosystems.Ecosystem, url: str, name: str) -> Any:
        """One registry answer, parsed; a failure worth remembering is remembered."""
        key = (eco.name, name.lower())
        label = eco.registry_label
        try:
            return self.http.get_json(
                url,
                what=f"{label} entry for {name}",
                category="registry",
                headers=self._headers(eco),
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

    def _headers(self, eco: ecosystems.Ecosystem) -> dict[str, str] | None:
        """The GitHub API as a registry (an action's tags) is asked as GitHub is: with the
        token when there is one, and its JSON media type."""
        if not _is_github(eco):
            return None
        headers = {"Accept": "application/vnd.github+json"}
        if self.settings.github_token:
            headers["Authorization"] = f"Bearer {self.settings.github_token}"
        return headers

    def version_document(self, ecosystem: str, name: str, version: str) -> dict[str, Any]:
        """The registry's document of one release (npm: ``GET /<name>/<version>``, the
        release's package.json as published: its ``bin``, its dependencies and peers)."""
        eco = ecosystems.get(ecosystem)
        url = f"{self.metadata_url(ecosystem, name)}/{quote(version, safe='')}"
        data = self.http.get_json(
            url, what=f"{eco.registry_label} entry for {name} {version}", category="registry",
            cache=ttl(self.settings.registry_ttl), max_bytes=self.settings.max_metadata_bytes,
        )  # fmt: skip
        if not isinstance(data, dict):
            raise UpstreamError(
                "bad_response", f"{eco.registry_label} entry for {name} {version} is not an object"
            )
        return data

    def info(self, ecosystem: str, name: str) -> PackageInfo:
        key = (ecosystem, name.lower())
        with self._lock:
            if key in self._memo:
                return self._memo[key]
        data = self.document(ecosystem, name)
        url = self.metadata_url(ecosystem, name)
        info = ecosystems.get(ecosystem).package_info(name, data, url)
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
