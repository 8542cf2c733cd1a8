"""Fixtures for every test: no real credentials, endpoints or caches leak in."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_real_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test may pick up a developer's real credentials or endpoints."""
    for name in (
        "GITHUB_TOKEN",
        "GH_TOKEN",
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "DEPBOT_MODEL",
        "GITHUB_API_URL",
        "DEPBOT_PYPI_URL",
        "DEPBOT_NPM_URL",
        "GITHUB_STEP_SUMMARY",
        "GITHUB_OUTPUT",
    ):
        monkeypatch.delenv(name, raising=False)
