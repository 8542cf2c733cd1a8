"""Which released file of an npm version to read, and which of its members to keep. Pure.

The choice: the packument's ``versions[<v>].dist.tarball``, with its SRI ``integrity`` (else
the older sha1 ``shasum``). The members kept (without the tarball's top folder,
``package/``): ``package.json``, ``*.d.ts``, ``*.d.mts``, ``*.d.cts``, ``*.js``, ``*.mjs``,
``*.cjs`` (not ``*.min.*`` bundles), and the text files code may import besides (``*.css``,
``*.scss``, ``*.sass``, ``*.less``, ``*.styl``, ``*.json``, ``*.svg``: ``pkg/dist/pkg.css``
is a use whose file must still be there); nothing under ``node_modules``.
"""

from __future__ import annotations

import re
from typing import Any

from depbot.records.artifact import Choice, Digest, NoArtifact, sri_digest, url_name

_FILE = re.compile(
    r"^(?:package\.json|.+\.d\.[mc]?ts|.+\.[mc]?js|.+\.(?:css|scss|sass|less|styl|json|svg))$"
)
_MINIFIED = re.compile(r"\.min\.[mc]?js$")


def choose(document: dict[str, Any], version: str) -> Choice | NoArtifact:
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
    return Choice(url, url_name(url), "tarball", digest)


def keep(kind: str, parts: list[str]) -> str | None:
    """The path a member (its safe ``parts``) is kept at, or None when the API model needs none."""
    parts = parts[1:]  # package/ of a tarball
    if not parts:
        return None
    base = parts[-1]
    ok = bool(_FILE.match(base)) and not _MINIFIED.search(base) and "node_modules" not in parts
    return "/".join(parts) if ok else None
