"""pip versions: PEP 440, read by ``packaging``. Pure.

>>> parse("1.0") == parse("1.0.0")
True
>>> parse("2.0.0.post1").semver_like
True
>>> parse("2.0.0.dev1").semver_like
False

A post-release belongs to its release's line (``2.1.0.post1 → 2.4.0`` is a minor update, as
Dependabot calls it); epochs, dev and local versions and four numbers are not semver-shaped.
"""

from __future__ import annotations

from packaging.version import InvalidVersion
from packaging.version import Version as PepVersion

from depbot.records.versions import Version


def parse(raw: str) -> Version | None:
    """``raw`` (its ``v``/``=`` prefix already gone) as a PEP 440 version, or None."""
    try:
        pv = PepVersion(raw)
    except InvalidVersion:
        return None
    semver_like = len(pv.release) <= 3 and pv.epoch == 0 and pv.dev is None and pv.local is None
    return Version("pip", raw, tuple(pv.release), pv.is_prerelease, semver_like, pv)
