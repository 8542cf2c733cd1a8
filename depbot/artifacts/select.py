"""Which released file of a version to read, from the registry's metadata. Pure: no I/O.

The choice is the ecosystem's (``choose_artifact`` of ``depbot/ecosystems/<name>/``: a wheel
or the sdist for pip, the tarball for npm); each choice carries the digest to verify it by.
"""

from __future__ import annotations

from typing import Any

from depbot import ecosystems
from depbot.records.artifact import SRI_ALGOS, Choice, Digest, NoArtifact, sri_digest

__all__ = ["SRI_ALGOS", "Choice", "Digest", "NoArtifact", "choose", "sri_digest"]


def choose(ecosystem: str, document: dict[str, Any], version: str) -> Choice | NoArtifact:
    """The artifact of ``version`` named by the registry ``document``, or why there is none."""
    eco = ecosystems.find(ecosystem)
    if eco is None:
        return NoArtifact(f"unknown ecosystem {ecosystem!r}")
    return eco.choose_artifact(document, version)
