"""Where an action's releases are listed, and what they are: its repository's tags. Pure.

The "registry" of an action is the GitHub API: ``GET {api}/repos/<owner>/<repo>/tags``
(100 a page; ``updates.registries`` follows a full page with the next, up to 10). The
answer, JSON lists, reaches ``info`` as ``{"items": [...]}``. A tag that names a version
(``v4``, ``v4.1.0``, ``4.1``) is a release; others (``latest``, ``nightly``) are not.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from depbot.ecosystems.github_actions.versions import NAME, of_ref, parse
from depbot.records.package import PackageInfo


def repository(name: str) -> tuple[str, str]:
    """(owner/repo, the action's folder in it or "") of ``owner/repo[/path]``."""
    parts = name.split("/")
    return "/".join(parts[:2]), "/".join(parts[2:])


def metadata_url(base: str, name: str) -> str:
    repo, _ = repository(name)
    return f"{base.rstrip('/')}/repos/{quote(repo, safe='/')}/tags?per_page=100"


def tags(data: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """version -> (tag name, commit SHA) of every tag that names a version (the first of
    two tags naming one version wins: ``v4.1.0`` before ``4.1.0``)."""
    out: dict[str, tuple[str, str]] = {}
    for item in data.get("items") or []:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            continue
        version = of_ref(item["name"])
        commit = item.get("commit") if isinstance(item.get("commit"), dict) else {}
        sha = commit.get("sha") if isinstance(commit.get("sha"), str) else ""
        if version is not None and parse(version) is not None and version not in out:
            out[version] = (item["name"], sha)
    return out


def info(name: str, data: dict[str, Any], url: str) -> PackageInfo:
    versions = tuple(tags(data))
    stable = [v for v in versions if not parse(v).is_prerelease]  # type: ignore[union-attr]
    latest = max(stable, key=parse, default=None)  # type: ignore[arg-type]
    repo, folder = repository(name)
    return PackageInfo(
        ecosystem=NAME,
        name=name,
        versions=versions,
        latest=latest,
        repository=repo,
        directory=folder or None,
        homepage=f"https://github.com/{repo}",
        url=url,
    )
