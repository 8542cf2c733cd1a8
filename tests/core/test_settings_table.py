"""The environment table of Settings: one row per variable-backed field, grouped by concern."""

from __future__ import annotations

import dataclasses

from depbot.core.settings import Settings
from depbot.core.settings_env import TABLE

CONCERNS = {"network", "limits", "model", "output", "scope", "ecosystems"}


def test_every_row_names_a_field_once_under_a_known_concern() -> None:
    fields = {f.name for f in dataclasses.fields(Settings)}
    named = [field for _, field, _ in TABLE]
    assert sorted(set(named) - fields) == [] and len(named) == len(set(named))
    assert {concern for concern, _, _ in TABLE} <= CONCERNS


def test_an_empty_environment_gives_the_defaults_of_the_class() -> None:
    plain, read = Settings(), Settings.from_env({"HOME": "/nonexistent"})
    for _, field, _ in TABLE:
        if field != "cache_dir":  # from_env places the cache under ~/.cache/depbot
            assert getattr(read, field) == getattr(plain, field), field
