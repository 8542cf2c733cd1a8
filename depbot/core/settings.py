"""Settings: every upstream address, budget and scope rule, with defaults and environment fallbacks.

A ``Settings`` value is immutable; make a changed copy with ``dataclasses.replace``. Which
variable sets which field, and how its text is read, is one table grouped by concern
(network, ecosystems, model, limits, scope, output): ``settings_env.TABLE``. An ecosystem's
registry is the field it names (``pypi_url``, ``npm_url``) or, for any ecosystem, its entry
in ``registry_urls``.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from depbot.core.confine import SECRET_FLOOR
from depbot.core.settings_env import (  # noqa: F401  (the defaults are named here too)
    CA_BUNDLE_VARIABLES,
    DEFAULT_ARTIFACT_HOSTS,
    DEFAULT_GITHUB_API_URL,
    DEFAULT_GITHUB_MODELS_URL,
    DEFAULT_NPM_URL,
    DEFAULT_PYPI_URL,
    DEFAULT_RAW_URL,
    checked_url,
    read_env,
)

# Directories the code search never enters (each a setting; see search/code.py for how they apply).
# Not `build`: build output is git-ignored, and ignored files are never searched, while a
# `build/` the project keeps is source (vue-cli's build/webpack.base.conf.js configures the
# loaders and plugins an update may break); the manifest scan skips it all the same
DEFAULT_EXCLUDE_DIRS = (
    ".git",
    "node_modules",
    ".venv",
    "venv",
    "vendor",
    "third_party",
    "dist",
    # test input a codemod's tests read as text (jscodeshift's defineTest convention:
    # __testfixtures__/<name>.input.js → .output.js); nothing imports or runs it
    "__testfixtures__",
)
# Files the code search never reads: minified bundles (the secret files: ``secret_files``).
DEFAULT_EXCLUDE_FILES = ("*.min.js", "*.min.css", "*.min.mjs", "*.bundle.js", "*.map")


@dataclass(frozen=True)
class Settings:
    # upstream endpoints
    pypi_url: str = DEFAULT_PYPI_URL
    npm_url: str = DEFAULT_NPM_URL
    github_api_url: str = DEFAULT_GITHUB_API_URL
    raw_url: str = DEFAULT_RAW_URL  # raw repository files (DEPBOT_RAW_URL)
    # the registry of any ecosystem by its name, before the field the ecosystem names
    # (``pypi_url``, ``npm_url``): DEPBOT_REGISTRY_URLS="name=https://...,name2=https://..."
    registry_urls: Mapping[str, str] = field(default_factory=dict, hash=False)
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
    # the cache folder's cap (DEPBOT_CACHE_MAX_MB; 0: none): at the end of each run the least
    # recently used archives and unpacked releases go first (core/cachedir.py)
    cache_max_mb: int = 1000
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
    # a host found down is taken as down by the runs of the next few minutes, without waiting
    # on it again (DEPBOT_DOWN_HOST_MINUTES; 0: never; kept in the cache folder)
    down_host_minutes: float = 5.0
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
        values = read_env(env, cls)
        for key, value in overrides.items():
            if value is None:
                continue
            if key not in cls.__dataclass_fields__:
                raise TypeError(f"unknown setting {key!r}")
            values[key] = value
        for key in ("pypi_url", "npm_url", "github_api_url", "raw_url", "github_models_url"):
            values[key] = checked_url(key, str(values[key]))
        return cls(**values)  # type: ignore[arg-type]

    def replace(self, **changes: object) -> Settings:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    @property
    def configured_hosts(self) -> frozenset[str]:
        """``host[:port]`` of the endpoints the user configured: trusted wherever they resolve."""
        urls = (self.pypi_url, self.npm_url, self.github_api_url, self.raw_url)
        urls += tuple(self.registry_urls.values())
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
