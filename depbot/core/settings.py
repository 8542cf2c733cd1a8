"""Settings: every upstream address, budget and scope rule, with defaults and environment fallbacks.

A ``Settings`` value is immutable; make a changed copy with ``dataclasses.replace``.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from depbot.core.errors import ConfigError

DEFAULT_PYPI_URL = "https://pypi.org"
DEFAULT_NPM_URL = "https://registry.npmjs.org"
DEFAULT_GITHUB_API_URL = "https://api.github.com"

# Directories the code search never enters (each a setting; see search/code.py for how they apply).
DEFAULT_EXCLUDE_DIRS = (
    ".git",
    "node_modules",
    ".venv",
    "venv",
    "vendor",
    "third_party",
    "dist",
    "build",
)
# Files the code search never reads: minified bundles and anything that may hold a secret.
DEFAULT_EXCLUDE_FILES = ("*.min.js", "*.min.css", "*.min.mjs", "*.bundle.js", "*.map")
DEFAULT_SECRET_FILES = (
    ".env",
    ".env.*",
    "*.env",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    ".npmrc",
    ".pypirc",
    ".netrc",
    "credentials",
    "credentials.*",
    "*credentials*.json",
    ".git-credentials",
)


def _default_cache_dir(env: Mapping[str, str]) -> Path:
    base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "depbot"


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw in (None, ""):
        return default
    try:
        return float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number, got {raw!r}") from None


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if raw in (None, ""):
        return default
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, got {raw!r}") from None


def _url(name: str, value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(f"{name} must be an http(s) URL, got {value!r}")
    return value.rstrip("/")


@dataclass(frozen=True)
class Settings:
    # upstream endpoints
    pypi_url: str = DEFAULT_PYPI_URL
    npm_url: str = DEFAULT_NPM_URL
    github_api_url: str = DEFAULT_GITHUB_API_URL
    github_token: str | None = field(default=None, repr=False)
    openai_base_url: str | None = None
    openai_api_key: str | None = field(default=None, repr=False)
    model: str = "rules"

    # HTTP behaviour
    cache_dir: Path | None = None  # None: no on-disk cache
    http_timeout: float = 20.0
    http_retries: int = 3
    retry_backoff: float = 0.5
    max_retry_wait: float = 30.0
    max_response_bytes: int = 10 * 1024 * 1024
    allow_private_hosts: bool = False  # loopback/private addresses; tests and eval only
    registry_concurrency: int = 8

    # loop budgets
    max_rounds: int = 24  # per conversation
    max_tokens: int = 2_000_000  # prompt + completion, whole run
    max_seconds: float = 1800.0  # whole run
    max_format_errors: int = 3  # consecutive unusable replies
    batch_size: int = 8  # updates per conversation
    concurrency: int = 4  # conversations at once
    model_retries: int = 2
    compact_results: bool = True  # shrink tool results the model has already seen
    model_timeout: float = 120.0

    # changelog budget (characters of section text returned per fetch)
    changelog_budget: int = 12_000

    # code search scope and bounds
    exclude_dirs: tuple[str, ...] = DEFAULT_EXCLUDE_DIRS
    exclude_files: tuple[str, ...] = DEFAULT_EXCLUDE_FILES
    secret_files: tuple[str, ...] = DEFAULT_SECRET_FILES
    skip_env_dirs: bool = True  # any directory holding a pyvenv.cfg
    respect_gitignore: bool = True
    manifest_exclude: tuple[str, ...] = ()  # folders (repo-relative) whose manifests are not read
    max_hits: int = 60
    max_hits_per_file: int = 10
    hit_width: int = 160
    max_filesize: str = "1M"
    minified_line_length: int = 1000  # a .js/.css hit on a longer line marks a minified bundle

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> Settings:
        """Settings from environment variables, then explicit overrides (None means 'not given')."""
        env = os.environ if env is None else env
        values: dict[str, object] = {
            "pypi_url": _url("DEPBOT_PYPI_URL", env.get("DEPBOT_PYPI_URL") or DEFAULT_PYPI_URL),
            "npm_url": _url("DEPBOT_NPM_URL", env.get("DEPBOT_NPM_URL") or DEFAULT_NPM_URL),
            "github_api_url": _url(
                "GITHUB_API_URL", env.get("GITHUB_API_URL") or DEFAULT_GITHUB_API_URL
            ),
            "github_token": env.get("GITHUB_TOKEN") or env.get("GH_TOKEN") or None,
            "openai_base_url": (
                _url("OPENAI_BASE_URL", env["OPENAI_BASE_URL"])
                if env.get("OPENAI_BASE_URL")
                else None
            ),
            "openai_api_key": env.get("OPENAI_API_KEY") or None,
            "model": env.get("DEPBOT_MODEL") or "rules",
            "cache_dir": (
                None
                if env.get("DEPBOT_NO_CACHE") == "1"
                else Path(env["DEPBOT_CACHE_DIR"])
                if env.get("DEPBOT_CACHE_DIR")
                else _default_cache_dir(env)
            ),
            "http_timeout": _float(env, "DEPBOT_HTTP_TIMEOUT", cls.http_timeout),
            "max_rounds": _int(env, "DEPBOT_MAX_ROUNDS", cls.max_rounds),
            "max_tokens": _int(env, "DEPBOT_MAX_TOKENS", cls.max_tokens),
            "max_seconds": _float(env, "DEPBOT_MAX_SECONDS", cls.max_seconds),
            "batch_size": _int(env, "DEPBOT_BATCH_SIZE", cls.batch_size),
            "concurrency": _int(env, "DEPBOT_CONCURRENCY", cls.concurrency),
            "manifest_exclude": tuple(
                p.strip()
                for p in (env.get("DEPBOT_MANIFEST_EXCLUDE") or "").split(",")
                if p.strip()
            ),
            "registry_concurrency": _int(
                env, "DEPBOT_REGISTRY_CONCURRENCY", cls.registry_concurrency
            ),
            # a registry or GitHub API on a loopback / private address (a local mirror, a fake)
            "allow_private_hosts": env.get("DEPBOT_ALLOW_PRIVATE_HOSTS") == "1",
        }
        for key, value in overrides.items():
            if value is None:
                continue
            if key not in cls.__dataclass_fields__:
                raise TypeError(f"unknown setting {key!r}")
            values[key] = value
        for key in ("pypi_url", "npm_url", "github_api_url"):
            values[key] = _url(key, str(values[key]))
        return cls(**values)  # type: ignore[arg-type]

    def replace(self, **changes: object) -> Settings:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    @property
    def upstream_hosts(self) -> frozenset[str]:
        """The hosts depbot may fetch from: the configured registries and GitHub API."""
        hosts = set()
        for url in (self.pypi_url, self.npm_url, self.github_api_url):
            hosts.add(urlsplit(url).netloc.lower())
        return frozenset(hosts)

    def secrets(self) -> list[str]:
        """Secret values that must never appear in any output."""
        return [s for s in (self.github_token, self.openai_api_key) if s]
