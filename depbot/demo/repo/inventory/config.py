"""Service configuration, read from a YAML file."""

from __future__ import annotations

from pathlib import Path

import yaml

DEFAULTS = {"warehouses": [], "low_stock": 5}


def load_config(path: str | Path) -> dict:
    with open(path, encoding="utf-8") as fh:
        data = yaml.load(fh)
    return {**DEFAULTS, **(data or {})}


def dump_config(config: dict) -> str:
    # safe_dump keeps the file free of Python-specific tags
    return yaml.safe_dump(config, sort_keys=True)
