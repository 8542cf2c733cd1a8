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

from depbot.core.confine import SECRET_FLOOR
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
# Files the code search never reads: minified bundles (the secret files: ``secret_files``).
DEFAULT_EXCLUDE_FILES = ("*.min.js", "*.min.css", "*.min.mjs", "*.bundle.js", "*.map")


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
    raw_url: str = DEFAULT_RAW_URL  # raw repository files (DEPBOT_RAW_URL)
    github_token: str | None = field(default=None, repr=False)
    # who authors depbot's issues when GET /user answers 403 (an app or Actions token):
    # DEPBOT_BOT_LOGIN, else github-actions[bot] under GITHUB_ACTIONS=true
    bot_login: str | None = None
    openai_base_url: str | None = None
    openai_api_key: str | None = field(default=None, repr=False)
    model: str = "rules"
    # a ``publisher/model`` name with no OPENAI_BASE_URL runs here, with GITHUB_TOKEN as the key
    # (DEPBOT_GITHUB_MODELS_URL; configured, so trusted wherever it resolves, like the others)
    github_models_url: str = DEFAULT_GITHUB_MODELS_URL
    # input tokens one model request may carry (DEPBOT_MAX_INPUT_TOKENS): drives batch size and
    # compaction. None: the model's default (GitHub Models' free tier, else no limit); 0: none
    max_input_tokens: int | None = None

    # HTTP behaviour
    cache_dir: Path | None = None  # None: no on-disk cache
    # registry metadata is used from the cache with no request for this long (seconds), then
    # revalidated: a rerun the same day asks nothing, a weekly run asks once per package
    registry_ttl: float = 6 * 3600.0
    # a GitHub release published this many days ago is final: its cached notes are used as is
    release_settle_days: float = 3.0
    http_timeout: float = 20.0  # read timeout (and the cap on the connect timeout)
    connect_timeout: float = 5.0
    tool_call_seconds: float = 90.0  # the network time one tool call may take (a stalled
    # package's fetch ends there, as unknown with the reason, and its batch goes on)
    http_retries: int = 3
    breaker_failures: int = 3  # consecutive connection failures that mark a host down
    retry_backoff: float = 0.5
    max_retry_wait: float = 30.0
    max_response_bytes: int = 10 * 1024 * 1024
    # one registry entry (DEPBOT_MAX_METADATA_BYTES): an npm package with every nightly ever
    # published (typescript, @types/node) sends 10-30 MB of metadata
    max_metadata_bytes: int = 64 * 1024 * 1024
    # released artifacts (depbot/artifacts/): their file hosts, and caps on download and unpacking
    artifact_hosts: tuple[str, ...] = DEFAULT_ARTIFACT_HOSTS  # DEPBOT_ARTIFACT_HOSTS
    max_artifact_bytes: int = 50 * 1024 * 1024  # one compressed artifact
    max_unpacked_bytes: int = 200 * 1024 * 1024  # its unpacked members, counted as written
    max_members: int = 20_000  # members of one archive
    # a host named only by fetched data (a link, a redirect) on a loopback / private address;
    # the configured endpoints above are trusted wherever they resolve. Tests and eval only.
    allow_private_hosts: bool = False
    # TLS and proxies, read from the standard variables by from_env (core/tls.py)
    ca_bundle: str | None = None  # REQUESTS_CA_BUNDLE / SSL_CERT_FILE / CURL_CA_BUNDLE
    truststore: bool = False  # DEPBOT_TRUSTSTORE=1: verify with the OS trust store
    https_proxy: str | None = field(default=None, repr=False)  # may carry a password
    http_proxy: str | None = field(default=None, repr=False)
    no_proxy: str | None = None
    registry_concurrency: int = 8
    # manifests: a file larger than this is not read, and no more distinct packages than this
    # are looked up in the registries (a 50 MB requirements.txt cost 340,000 requests)
    max_manifest_bytes: int = 5 * 1024 * 1024
    max_packages: int = 2000

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
    # files never searched nor read; whatever this says, core.confine.SECRET_FLOOR is added
    secret_files: tuple[str, ...] = SECRET_FLOOR
    skip_env_dirs: bool = True  # any directory holding a pyvenv.cfg
    respect_gitignore: bool = True
    manifest_exclude: tuple[str, ...] = ()  # folders (repo-relative) whose manifests are not read
    max_hits: int = 60
    max_hits_per_file: int = 10
    hit_width: int = 160
    max_filesize: str = "1M"
    minified_line_length: int = 1000  # a .js/.css hit on a longer line marks a minified bundle

    # issues that `depbot publish` opens: labels beside depbot's own, and who is assigned
    # (DEPBOT_LABELS / DEPBOT_ASSIGNEES, comma-separated; or `labels:` / `assignees:` in
    # .github/depbot.yml)
    labels: tuple[str, ...] = ()
    assignees: tuple[str, ...] = ()

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, *, repo: Path | None = None, **overrides: object
    ) -> Settings:
        """Settings from environment variables, then explicit overrides (None means 'not given').

        With ``repo``, the settings of its ``.github/depbot.yml`` fill in for the variables
        that are not set (flag > environment > file > default; core/config_file.py).
        """
        env = os.environ if env is None else env
        if repo is not None:
            from depbot.core.config_file import file_env

            env = {**file_env(Path(repo)), **{k: v for k, v in env.items() if v != ""}}
        values: dict[str, object] = {
            "pypi_url": _url("DEPBOT_PYPI_URL", env.get("DEPBOT_PYPI_URL") or DEFAULT_PYPI_URL),
            "npm_url": _url("DEPBOT_NPM_URL", env.get("DEPBOT_NPM_URL") or DEFAULT_NPM_URL),
            "github_api_url": _url(
                "GITHUB_API_URL", env.get("GITHUB_API_URL") or DEFAULT_GITHUB_API_URL
            ),
            "raw_url": _url("DEPBOT_RAW_URL", env.get("DEPBOT_RAW_URL") or DEFAULT_RAW_URL),
            "github_token": env.get("GITHUB_TOKEN") or env.get("GH_TOKEN") or None,
            "bot_login": (
                env.get("DEPBOT_BOT_LOGIN")
                or ("github-actions[bot]" if env.get("GITHUB_ACTIONS") == "true" else None)
            ),
            "openai_base_url": (
                _url("OPENAI_BASE_URL", env["OPENAI_BASE_URL"])
                if env.get("OPENAI_BASE_URL")
                else None
            ),
            "openai_api_key": env.get("OPENAI_API_KEY") or None,
            "model": env.get("DEPBOT_MODEL") or "rules",
            "github_models_url": _url(
                "DEPBOT_GITHUB_MODELS_URL",
                env.get("DEPBOT_GITHUB_MODELS_URL") or DEFAULT_GITHUB_MODELS_URL,
            ),
            "max_input_tokens": (
                _int(env, "DEPBOT_MAX_INPUT_TOKENS", 0)
                if env.get("DEPBOT_MAX_INPUT_TOKENS")
                else None
            ),
            "cache_dir": (
                None
                if env.get("DEPBOT_NO_CACHE") == "1"
                else Path(env["DEPBOT_CACHE_DIR"])
                if env.get("DEPBOT_CACHE_DIR")
                else _default_cache_dir(env)
            ),
            "http_timeout": _float(env, "DEPBOT_HTTP_TIMEOUT", cls.http_timeout),
            "registry_ttl": _float(env, "DEPBOT_REGISTRY_TTL", cls.registry_ttl),
            "release_settle_days": _float(
                env, "DEPBOT_RELEASE_SETTLE_DAYS", cls.release_settle_days
            ),
            "connect_timeout": _float(env, "DEPBOT_CONNECT_TIMEOUT", cls.connect_timeout),
            "tool_call_seconds": _float(env, "DEPBOT_TOOL_CALL_SECONDS", cls.tool_call_seconds),
            "breaker_failures": _int(env, "DEPBOT_BREAKER_FAILURES", cls.breaker_failures),
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
            "max_manifest_bytes": _int(env, "DEPBOT_MAX_MANIFEST_BYTES", cls.max_manifest_bytes),
            "max_packages": _int(env, "DEPBOT_MAX_PACKAGES", cls.max_packages),
            "max_metadata_bytes": _int(env, "DEPBOT_MAX_METADATA_BYTES", cls.max_metadata_bytes),
            "registry_concurrency": _int(
                env, "DEPBOT_REGISTRY_CONCURRENCY", cls.registry_concurrency
            ),
            "labels": _names(env.get("DEPBOT_LABELS")),
            "assignees": _names(env.get("DEPBOT_ASSIGNEES")),
            # a data-named host on a loopback / private address (configured ones need no flag)
            "allow_private_hosts": env.get("DEPBOT_ALLOW_PRIVATE_HOSTS") == "1",
            "ca_bundle": _ca_bundle(env),
            "truststore": env.get("DEPBOT_TRUSTSTORE") == "1",
            "https_proxy": _proxy("HTTPS_PROXY", _env2(env, "https_proxy")),
            "http_proxy": _proxy("HTTP_PROXY", _env2(env, "http_proxy")),
            "no_proxy": _env2(env, "no_proxy"),
            "artifact_hosts": tuple(
                h.strip().lower()
                for h in (
                    env.get("DEPBOT_ARTIFACT_HOSTS") or ",".join(DEFAULT_ARTIFACT_HOSTS)
                ).split(",")
                if h.strip()
            ),
        }
        for key, value in overrides.items():
            if value is None:
                continue
            if key not in cls.__dataclass_fields__:
                raise TypeError(f"unknown setting {key!r}")
            values[key] = value
        for key in ("pypi_url", "npm_url", "github_api_url", "raw_url", "github_models_url"):
            values[key] = _url(key, str(values[key]))
        return cls(**values)  # type: ignore[arg-type]

    def replace(self, **changes: object) -> Settings:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    @property
    def configured_hosts(self) -> frozenset[str]:
        """``host[:port]`` of the endpoints the user configured: trusted wherever they resolve."""
        urls = (self.pypi_url, self.npm_url, self.github_api_url, self.raw_url)
        return frozenset(urlsplit(url).netloc.lower() for url in urls)

    @property
    def upstream_hosts(self) -> frozenset[str]:
        """The hosts depbot may fetch from: the configured registries, GitHub API and raw files.

        A host in here but not in ``configured_hosts`` must also resolve to public addresses
        (unless ``allow_private_hosts``): the artifact file hosts (``artifact_hosts``).
        """
        return self.configured_hosts | frozenset(h.lower() for h in self.artifact_hosts)

    def secrets(self) -> list[str]:
        """Secret values that must never appear in any output."""
        proxy_passwords = [urlsplit(p).password for p in (self.https_proxy, self.http_proxy) if p]
        return [s for s in (self.github_token, self.openai_api_key, *proxy_passwords) if s]
