"""The npm registry: where a package's packument is, and what it says. Pure.

``info`` reads ``GET {registry}/<name>`` into a ``PackageInfo``: the versions (deprecated
ones skipped), ``time``, the ``latest`` dist-tag and the ``repository`` (with its monorepo
``directory``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import quote

from depbot.ecosystems.npm.versions import parse
from depbot.records.package import PackageInfo, parse_time
from depbot.records.repository import parse_repository


def metadata_url(base: str, name: str) -> str:
    """The packument of ``name``: scoped names keep the @ and encode the slash (@scope%2Fname)."""
    return f"{base}/{quote(name, safe='@')}"


def _released(data: dict[str, Any], versions: list[str]) -> dict[str, datetime]:
    times = data.get("time") if isinstance(data.get("time"), dict) else {}
    return {v: t for v in versions if (t := parse_time(times.get(v))) is not None}


def info(name: str, data: dict[str, Any], url: str) -> PackageInfo:
    versions_obj = data.get("versions") or {}
    if not isinstance(versions_obj, dict):
        versions_obj = {}
    versions, skipped = [], []
    for ver, meta in versions_obj.items():
        if parse(ver) is None:
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
        released=_released(data, versions + skipped),
    )
