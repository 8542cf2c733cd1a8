"""Which released file of a version to read, from the registry's metadata. Pure: no I/O.

``pip``: from the package index JSON (``releases[<v>]``, or ``urls`` of a per-version
document) a pure-Python wheel if any, else any wheel, else the sdist. ``npm``: the
packument's ``versions[<v>].dist.tarball``. Each choice carries the digest to verify it by.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

# strongest first; what the registries publish (SRI: sha512, older npm: sha1 shasum)
SRI_ALGOS = ("sha512", "sha384", "sha256")
_HEX = {"sha512": 128, "sha384": 96, "sha256": 64, "sha1": 40}


@dataclass(frozen=True)
class Digest:
    algo: str  # a hashlib name: sha256, sha512, sha1 ...
    hex: str


@dataclass(frozen=True)
class Choice:
    url: str
    filename: str
    kind: str  # "wheel", "sdist" or "tarball"
    digest: Digest
    size: int | None = None  # compressed bytes, when the registry says

    def label(self, package: str, version: str) -> str:
        """E.g. ``urllib3-2.0.7 wheel``."""
        return f"{package}-{version} {self.kind}"


@dataclass(frozen=True)
class NoArtifact:
    reason: str


def choose(ecosystem: str, document: dict[str, Any], version: str) -> Choice | NoArtifact:
    """The artifact of ``version`` named by the registry ``document``, or why there is none."""
    if ecosystem == "pip":
        return _choose_pip(_pip_files(document, version), version)
    if ecosystem == "npm":
        return _choose_npm(document, version)
    return NoArtifact(f"unknown ecosystem {ecosystem!r}")


# -- pip -------------------------------------------------------------------------------------


def _pip_files(document: dict[str, Any], version: str) -> list[dict[str, Any]]:
    releases = document.get("releases")
    files: Any = releases.get(version) if isinstance(releases, dict) else None
    if files is None:
        info = document.get("info")
        if isinstance(info, dict) and str(info.get("version")) == version:
            files = document.get("urls")
    return [f for f in files or [] if isinstance(f, dict)] if isinstance(files, list) else []


def wheel_tags(filename: str) -> tuple[str, str, str] | None:
    """(python, abi, platform) tags of a wheel file name, or None if it is not one."""
    if not filename.endswith(".whl"):
        return None
    parts = filename[: -len(".whl")].split("-")
    return (parts[-3], parts[-2], parts[-1]) if len(parts) >= 5 else None


def _pure(filename: str) -> bool:
    tags = wheel_tags(filename)
    return bool(tags and tags[1] == "none" and tags[2] == "any" and "py3" in tags[0].split("."))


def _is_sdist(entry: dict[str, Any], filename: str) -> bool:
    return entry.get("packagetype") == "sdist" or filename.endswith((".tar.gz", ".zip", ".tgz"))


def _choose_pip(files: list[dict[str, Any]], version: str) -> Choice | NoArtifact:
    usable = [f for f in files if isinstance(f.get("url"), str) and f.get("url")]
    if not usable:
        return NoArtifact(f"the package index lists no files for {version}")
    ranked: list[tuple[int, dict[str, Any], str]] = []
    for f in usable:
        name = str(f.get("filename") or _url_name(str(f["url"])))
        rank = 0 if _pure(name) else 1 if wheel_tags(name) else 2 if _is_sdist(f, name) else 9
        if rank < 9:
            ranked.append((rank, f, name))
    if not ranked:
        return NoArtifact(f"the package index lists no wheel or sdist for {version}")
    ranked.sort(key=lambda t: t[0])
    for rank, f, name in ranked:
        digests = f.get("digests")
        sha = digests.get("sha256") if isinstance(digests, dict) else None
        if isinstance(sha, str) and re.fullmatch(r"[0-9a-fA-F]{64}", sha):
            size = f.get("size") if isinstance(f.get("size"), int) else None
            kind = "sdist" if rank == 2 else "wheel"
            return Choice(str(f["url"]), name, kind, Digest("sha256", sha.lower()), size)
    return NoArtifact(f"the package index lists no sha256 digest for the files of {version}")


# -- npm -------------------------------------------------------------------------------------


def _choose_npm(document: dict[str, Any], version: str) -> Choice | NoArtifact:
    versions = document.get("versions")
    meta = versions.get(version) if isinstance(versions, dict) else None
    dist = meta.get("dist") if isinstance(meta, dict) else None
    url = dist.get("tarball") if isinstance(dist, dict) else None
    if not isinstance(dist, dict) or not isinstance(url, str) or not url:
        return NoArtifact(f"the npm registry lists no tarball for {version}")
    digest = sri_digest(dist.get("integrity"))
    shasum = dist.get("shasum")
    if digest is None and isinstance(shasum, str) and re.fullmatch(r"[0-9a-fA-F]{40}", shasum):
        digest = Digest("sha1", shasum.lower())
    if digest is None:
        return NoArtifact(f"the npm registry lists no integrity or shasum for {version}")
    return Choice(url, _url_name(url), "tarball", digest)


def sri_digest(integrity: Any) -> Digest | None:
    """The strongest digest of a Subresource Integrity string (``sha512-<base64> ...``)."""
    if not isinstance(integrity, str):
        return None
    found: dict[str, str] = {}
    for token in integrity.split():
        algo, _, b64 = token.partition("-")
        b64 = b64.split("?", 1)[0]
        try:
            raw = base64.b64decode(b64, validate=True)
        except (binascii.Error, ValueError):
            continue
        if algo in SRI_ALGOS and len(raw) * 2 == _HEX[algo]:
            found.setdefault(algo, raw.hex())
    algo = next((a for a in SRI_ALGOS if a in found), None)
    return Digest(algo, found[algo]) if algo else None


def _url_name(url: str) -> str:
    return unquote(urlsplit(url).path.rsplit("/", 1)[-1])
