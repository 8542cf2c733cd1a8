"""What a registry says of one package: its releases, when each came, where its source lives.

Pure records; each ecosystem reads its registry's answer into a ``PackageInfo``
(``depbot/ecosystems/<name>/registry.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone


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


def parse_time(value: object) -> datetime | None:
    """An ISO 8601 time of the registry as an aware datetime (None when absent or unreadable)."""
    if not isinstance(value, str) or not value:
        return None
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)
