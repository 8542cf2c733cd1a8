"""Settings that point depbot at loopback servers."""

from __future__ import annotations

from pathlib import Path

from depbot.core.settings import Settings


def loopback_settings(
    base_url: str, cache_dir: Path | None = None, **overrides: object
) -> Settings:
    """Settings whose registries and GitHub API all live on one loopback server.

    The package index answers under ``/pypi/...``, the npm registry under ``/npm/...``
    and the GitHub REST API under ``/github/...``. Retries are fast and the token is a
    recognizable fake.
    """
    values: dict[str, object] = dict(
        pypi_url=base_url,
        npm_url=f"{base_url}/npm",
        github_api_url=f"{base_url}/github",
        cache_dir=cache_dir,
        allow_private_hosts=True,
        http_timeout=2.0,
        retry_backoff=0.01,
        max_retry_wait=0.2,
    )
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]
