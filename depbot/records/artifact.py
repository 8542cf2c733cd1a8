"""The released file of a version that depbot reads: where it is and the digest to check.

Pure records, made by each ecosystem's choice (``depbot/ecosystems/<name>/artifacts.py``) from
its registry's metadata; ``depbot.artifacts`` downloads and unpacks what they name.
"""

from __future__ import annotations

import base64
import binascii
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


def url_name(url: str) -> str:
    return unquote(urlsplit(url).path.rsplit("/", 1)[-1])
