"""Settings from the environment: one table, a row per setting, grouped by concern. Pure.

Each row names the ``Settings`` field, the variable(s) it is read from and how the text is
read; a malformed value is a ``ConfigError`` naming the variable. The rows are read in order,
so the first bad variable is the one reported.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from depbot.core.errors import ConfigError

DEFAULT_PYPI_URL = "https://pypi.org"
DEFAULT_NPM_URL = "https://registry.npmjs.org"
DEFAULT_GITHUB_API_URL = "https://api.github.com"
# where the public registries keep release files (npm tarballs live on the registry host)
DEFAULT_ARTIFACT_HOSTS = ("files.pythonhosted.org", "registry.npmjs.org")
DEFAULT_RAW_URL = "https://raw.githubusercontent.com"
# GitHub Models' OpenAI-compatible chat endpoint (POST {url}/chat/completions)
DEFAULT_GITHUB_MODELS_URL = "https://models.github.ai/inference"
# where requests, curl and pip look for a CA bundle, in the order they are read
CA_BUNDLE_VARIABLES = ("REQUESTS_CA_BUNDLE", "SSL_CERT_FILE", "CURL_CA_BUNDLE", "SSL_CERT_DIR")

Env = Mapping[str, str]
Reader = Callable[[Env, Any], object]  # (the environment, the Settings class) -> the value


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


def _names(raw: str | None) -> tuple[str, ...]:
    return tuple(n.strip() for n in (raw or "").split(",") if n.strip())


def _env2(env: Mapping[str, str], name: str) -> str | None:
    """``name`` in lower case, else upper case (as curl and requests read proxy variables)."""
    return env.get(name.lower()) or env.get(name.upper()) or None


def _proxy(name: str, value: str | None) -> str | None:
    if not value:
        return None
    value = value if "://" in value else f"http://{value}"
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"{name} must be an http(s) proxy address like http://proxy:3128")
    return value


def _ca_bundle(env: Mapping[str, str]) -> str | None:
    for name in CA_BUNDLE_VARIABLES:
        path = env.get(name)
        if not path:
            continue
        if not os.path.exists(path):
            raise ConfigError(f"{name} names {path}, which does not exist")
        return path
    return None


def checked_url(name: str, value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(f"{name} must be an http(s) URL, got {value!r}")
    return value.rstrip("/")


def _registry_urls(raw: str | None) -> dict[str, str]:
    urls = {}
    for pair in _names(raw):
        name, sep, url = pair.partition("=")
        if not sep or not name.strip():
            raise ConfigError(f"DEPBOT_REGISTRY_URLS takes name=URL pairs, got {pair!r}")
        urls[name.strip().lower()] = checked_url("DEPBOT_REGISTRY_URLS", url.strip())
    return urls


def _url_or(name: str, default: str) -> Reader:
    return lambda env, cls: checked_url(name, env.get(name) or default)


def _number(name: str, field: str, read: Callable[[Env, str, Any], Any]) -> Reader:
    return lambda env, cls: read(env, name, getattr(cls, field))


def _flag(name: str) -> Reader:
    return lambda env, cls: env.get(name) == "1"


def _list(name: str, default: tuple[str, ...] = ()) -> Reader:
    return lambda env, cls: _names(env.get(name)) if env.get(name) else default


def _cache_dir(env: Env, cls: Any) -> Path | None:
    if env.get("DEPBOT_NO_CACHE") == "1":
        return None
    return Path(env["DEPBOT_CACHE_DIR"]) if env.get("DEPBOT_CACHE_DIR") else _default_cache_dir(env)


def _bot_login(env: Env, cls: Any) -> str | None:
    actions = "github-actions[bot]" if env.get("GITHUB_ACTIONS") == "true" else None
    return env.get("DEPBOT_BOT_LOGIN") or actions


def _openai_url(env: Env, cls: Any) -> str | None:
    value = env.get("OPENAI_BASE_URL")
    return checked_url("OPENAI_BASE_URL", value) if value else None


def _input_tokens(env: Env, cls: Any) -> int | None:
    return _int(env, "DEPBOT_MAX_INPUT_TOKENS", 0) if env.get("DEPBOT_MAX_INPUT_TOKENS") else None


def _artifact_hosts(env: Env, cls: Any) -> tuple[str, ...]:
    raw = env.get("DEPBOT_ARTIFACT_HOSTS") or ",".join(DEFAULT_ARTIFACT_HOSTS)
    return tuple(h.strip().lower() for h in raw.split(",") if h.strip())


# (concern, Settings field, how it is read), in the order they are read
TABLE: tuple[tuple[str, str, Reader], ...] = (
    # the registries of the ecosystems: their own fields, or any of them by name
    ("ecosystems", "pypi_url", _url_or("DEPBOT_PYPI_URL", DEFAULT_PYPI_URL)),
    ("ecosystems", "npm_url", _url_or("DEPBOT_NPM_URL", DEFAULT_NPM_URL)),
    ("network", "github_api_url", _url_or("GITHUB_API_URL", DEFAULT_GITHUB_API_URL)),
    ("network", "raw_url", _url_or("DEPBOT_RAW_URL", DEFAULT_RAW_URL)),
    ("ecosystems", "registry_urls", lambda env, cls: _registry_urls(env.get("DEPBOT_REGISTRY_URLS"))),
    ("network", "github_token", lambda env, cls: env.get("GITHUB_TOKEN") or env.get("GH_TOKEN") or None),
    ("output", "bot_login", _bot_login),
    ("model", "openai_base_url", _openai_url),
    ("model", "openai_api_key", lambda env, cls: env.get("OPENAI_API_KEY") or None),
    ("model", "model", lambda env, cls: env.get("DEPBOT_MODEL") or "rules"),
    ("model", "github_models_url", _url_or("DEPBOT_GITHUB_MODELS_URL", DEFAULT_GITHUB_MODELS_URL)),
    ("model", "max_input_tokens", _input_tokens),
    ("network", "cache_dir", _cache_dir),
    ("network", "cache_max_mb", _number("DEPBOT_CACHE_MAX_MB", "cache_max_mb", _int)),
    ("network", "http_timeout", _number("DEPBOT_HTTP_TIMEOUT", "http_timeout", _float)),
    ("network", "registry_ttl", _number("DEPBOT_REGISTRY_TTL", "registry_ttl", _float)),
    ("network", "release_settle_days", _number("DEPBOT_RELEASE_SETTLE_DAYS", "release_settle_days", _float)),
    ("network", "connect_timeout", _number("DEPBOT_CONNECT_TIMEOUT", "connect_timeout", _float)),
    ("limits", "tool_call_seconds", _number("DEPBOT_TOOL_CALL_SECONDS", "tool_call_seconds", _float)),
    ("network", "breaker_failures", _number("DEPBOT_BREAKER_FAILURES", "breaker_failures", _int)),
    ("network", "down_host_minutes", _number("DEPBOT_DOWN_HOST_MINUTES", "down_host_minutes", _float)),
    ("limits", "max_rounds", _number("DEPBOT_MAX_ROUNDS", "max_rounds", _int)),
    ("limits", "max_tokens", _number("DEPBOT_MAX_TOKENS", "max_tokens", _int)),
    ("limits", "max_seconds", _number("DEPBOT_MAX_SECONDS", "max_seconds", _float)),
    ("model", "batch_size", _number("DEPBOT_BATCH_SIZE", "batch_size", _int)),
    ("model", "concurrency", _number("DEPBOT_CONCURRENCY", "concurrency", _int)),
    ("scope", "manifest_exclude", _list("DEPBOT_MANIFEST_EXCLUDE")),
    ("limits", "max_manifest_bytes", _number("DEPBOT_MAX_MANIFEST_BYTES", "max_manifest_bytes", _int)),
    ("limits", "max_packages", _number("DEPBOT_MAX_PACKAGES", "max_packages", _int)),
    ("limits", "max_metadata_bytes", _number("DEPBOT_MAX_METADATA_BYTES", "max_metadata_bytes", _int)),
    ("network", "registry_concurrency", _number("DEPBOT_REGISTRY_CONCURRENCY", "registry_concurrency", _int)),
    ("output", "labels", _list("DEPBOT_LABELS")),
    ("output", "assignees", _list("DEPBOT_ASSIGNEES")),
    # a data-named host on a loopback / private address (configured ones need no flag)
    ("network", "allow_private_hosts", _flag("DEPBOT_ALLOW_PRIVATE_HOSTS")),
    ("network", "ca_bundle", lambda env, cls: _ca_bundle(env)),
    ("network", "truststore", _flag("DEPBOT_TRUSTSTORE")),
    ("network", "https_proxy", lambda env, cls: _proxy("HTTPS_PROXY", _env2(env, "https_proxy"))),
    ("network", "http_proxy", lambda env, cls: _proxy("HTTP_PROXY", _env2(env, "http_proxy"))),
    ("network", "no_proxy", lambda env, cls: _env2(env, "no_proxy")),
    ("ecosystems", "artifact_hosts", _artifact_hosts),
)  # fmt: skip


def read_env(env: Env, cls: Any) -> dict[str, object]:
    """The fields ``TABLE`` reads, from ``env``; defaults come from the Settings class ``cls``."""
    return {field: read(env, cls) for _, field, read in TABLE}
