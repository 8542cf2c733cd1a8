"""depbot's own settings file, ``.github/depbot.yml``: read, validated, turned into fallbacks.

The file holds settings (``model``, budgets, ``fail-on``, ``labels``, ``assignees``) and an
``updates:`` list shaped like dependabot.yml's (checked and applied by
``updates.dependabot_config``). Precedence, highest first: a command-line flag, an
environment variable, this file, the default. ``file_env`` gives the file's settings as the
environment variables they stand in for, so ``Settings.from_env`` lets the real environment
win.

Every problem is one line naming the file and the key path::

    .github/depbot.yml: updates[0].ignore[1]: unknown key 'dependency_name' (did you mean 'dependency-name'?)

Pure but for reading the file; raises ``ConfigError`` (exit status 2).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from depbot.core.errors import ConfigError

DEPBOT_FILES = (".github/depbot.yml", ".github/depbot.yaml")
# the values of --fail-on (pipeline.outcome.FAIL_ON; a test keeps the two equal)
FAIL_ON_CHOICES = ("never", "degraded", "unknown", "affected")
MAX_CONFIG_BYTES = 1024 * 1024

# file key -> (kind, the environment variable it stands in for)
SETTING_KEYS: dict[str, tuple[str, str]] = {
    "model": ("text", "DEPBOT_MODEL"),
    "max-tokens": ("count", "DEPBOT_MAX_TOKENS"),
    "max-seconds": ("seconds", "DEPBOT_MAX_SECONDS"),
    "max-rounds": ("count", "DEPBOT_MAX_ROUNDS"),
    "max-input-tokens": ("count", "DEPBOT_MAX_INPUT_TOKENS"),
    "batch-size": ("count", "DEPBOT_BATCH_SIZE"),
    "concurrency": ("count", "DEPBOT_CONCURRENCY"),
    "fail-on": ("fail-on", "DEPBOT_FAIL_ON"),
    "labels": ("names", "DEPBOT_LABELS"),
    "assignees": ("names", "DEPBOT_ASSIGNEES"),
}
TOP_KEYS = ("version", "updates", *SETTING_KEYS)


@dataclass(frozen=True)
class DepbotFile:
    """What ``.github/depbot.yml`` says: its settings and its raw ``updates:`` entries."""

    label: str  # the file, relative to the checkout: ".github/depbot.yml"
    values: dict[str, Any] = field(default_factory=dict)  # file key -> checked value
    updates: list[Any] | None = None  # None: no ``updates:`` key (dependabot.yml applies)

    def env(self) -> dict[str, str]:
        """The settings as the environment variables they stand in for."""
        out = {}
        for key, value in self.values.items():
            kind, name = SETTING_KEYS[key]
            out[name] = ",".join(value) if kind == "names" else str(value)
        return out


def problem(label: str, where: str, message: str) -> ConfigError:
    """``.github/depbot.yml: updates[0].ignore[1]: <message>`` as an error to raise."""
    return ConfigError(f"{label}: {where}: {message}" if where else f"{label}: {message}")


def unknown_key(key: object, known: Iterable[str]) -> str:
    """``unknown key 'x' (did you mean 'y'?)``: the closest known key, when one is close."""
    close = difflib.get_close_matches(str(key), list(known), n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown key {str(key)!r}{hint}"


def check_keys(
    label: str, where: str, data: object, known: Iterable[str], *, strict: bool = True
) -> dict[str, Any]:
    """``data`` as a mapping with string keys; with ``strict``, no key outside ``known``."""
    known = tuple(known)
    if not isinstance(data, Mapping):
        raise problem(label, where, f"must be a mapping, got {type_name(data)}")
    for key in data:
        if strict and key not in known:
            raise problem(label, where, unknown_key(key, known))
    return dict(data)


def join(where: str, key: str | int) -> str:
    """The key path one level down: ``updates[0]`` + ``ignore`` → ``updates[0].ignore``."""
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else key


def type_name(value: object) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    return type(value).__name__


def find_file(repo: Path, names: Iterable[str]) -> Path | None:
    """The first of ``names`` (paths relative to ``repo``) that is a file."""
    for name in names:
        path = Path(repo) / name
        if path.is_file():
            return path
    return None


def read_yaml(path: Path, label: str) -> Any:
    """The YAML document of ``path`` (``yaml.safe_load``); one-line ``ConfigError`` if not."""
    try:
        size = path.stat().st_size
        if size > MAX_CONFIG_BYTES:
            raise ConfigError(f"{label}: {size} bytes, over the 1 MB a configuration may hold")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{label}: cannot be read: {exc}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f"line {mark.line + 1}: " if mark is not None else ""
        what = getattr(exc, "problem", None) or "not valid YAML"
        raise ConfigError(f"{label}: {at}{what}") from None


def _setting(label: str, key: str, value: object) -> Any:
    kind = SETTING_KEYS[key][0]
    if kind == "text":
        if not isinstance(value, str) or not value.strip():
            raise problem(label, key, f"must be a non-empty text, got {type_name(value)}")
        return value.strip()
    if kind in ("count", "seconds"):
        number = (int,) if kind == "count" else (int, float)
        if isinstance(value, bool) or not isinstance(value, number):
            whole = "a whole number" if kind == "count" else "a number"
            raise problem(label, key, f"must be {whole}, got {type_name(value)}")
        if value <= 0:
            raise problem(label, key, f"must be more than 0, got {value}")
        return value
    if kind == "fail-on":
        if not isinstance(value, str) or value.lower() not in FAIL_ON_CHOICES:
            raise problem(label, key, f"must be one of {', '.join(FAIL_ON_CHOICES)}, got {value!r}")
        return value.lower()
    # names: a list of texts (a single text is a list of one)
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list):
        raise problem(label, key, f"must be a list of names, got {type_name(value)}")
    names = []
    for i, item in enumerate(items):
        if not isinstance(item, str) or not item.strip():
            raise problem(label, join(key, i), f"must be a non-empty text, got {type_name(item)}")
        if "," in item:
            raise problem(label, join(key, i), f"a name may not hold a comma: {item!r}")
        names.append(item.strip())
    return tuple(names)


def parse_depbot_file(data: object, label: str = DEPBOT_FILES[0]) -> DepbotFile:
    """Check the document of a depbot.yml; ``updates`` entries are checked by their reader."""
    if data is None:
        return DepbotFile(label)
    top = check_keys(label, "", data, TOP_KEYS)
    if "version" in top and top["version"] not in (1, 2):
        raise problem(
            label, "version", f"must be 1 or 2 (it may be left out), got {top['version']!r}"
        )
    values = {key: _setting(label, key, top[key]) for key in SETTING_KEYS if key in top}
    updates = top.get("updates")
    if "updates" in top and not isinstance(updates, list):
        raise problem(label, "updates", f"must be a list of entries, got {type_name(updates)}")
    return DepbotFile(label, values, updates)


def load_depbot_file(repo: Path) -> DepbotFile | None:
    """``.github/depbot.yml`` (or ``.yaml``) of the checkout, checked; None when there is none."""
    path = find_file(repo, DEPBOT_FILES)
    if path is None:
        return None
    label = path.relative_to(repo).as_posix()
    return parse_depbot_file(read_yaml(path, label), label)


def file_env(repo: Path) -> dict[str, str]:
    """The settings of the checkout's depbot.yml as environment variables ({} without one)."""
    found = load_depbot_file(Path(repo))
    return found.env() if found else {}
