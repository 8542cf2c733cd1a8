"""pip distribution name → the names you ``import``: a built-in table of well-known mismatches
plus name-based guesses. Pure; ``imports.import_names_for`` is the entry point.

The table is primary because what matters is the *user's* checkout, not depbot's own
environment; metadata of an installed distribution (``importlib.metadata``) is a secondary
source that the caller may pass in.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from depbot.records.names import normalize

_IDENT_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\Z")
# top-level names shared by many distributions: too broad to stand for any one of them
NAMESPACE_ROOTS = frozenset({"google", "azure", "zope", "backports", "jaraco", "sphinxcontrib"})


def normalize_dist(name: str) -> str:
    """PEP 503 normalized distribution name: lower case, runs of ``-_.`` become ``-``."""
    return normalize(name.strip())


# PEP 503-normalized distribution name -> import names (most used first)
KNOWN_IMPORT_NAMES: dict[str, tuple[str, ...]] = {
    "pyyaml": ("yaml",),
    "pillow": ("PIL",),
    "pillow-simd": ("PIL",),
    "scikit-learn": ("sklearn",),
    "scikit-image": ("skimage",),
    "scikit-build": ("skbuild",),
    "beautifulsoup4": ("bs4",),
    "python-dateutil": ("dateutil",),
    "opencv-python": ("cv2",),
    "opencv-python-headless": ("cv2",),
    "opencv-contrib-python": ("cv2",),
    "opencv-contrib-python-headless": ("cv2",),
    "protobuf": ("google.protobuf",),
    "grpcio": ("grpc",),
    "grpcio-tools": ("grpc_tools",),
    "grpcio-status": ("grpc_status",),
    "googleapis-common-protos": ("google.api", "google.rpc", "google.type"),
    "google-api-python-client": ("googleapiclient",),
    "google-api-core": ("google.api_core",),
    "google-auth": ("google.auth", "google.oauth2"),
    "google-auth-oauthlib": ("google_auth_oauthlib",),
    "google-auth-httplib2": ("google_auth_httplib2",),
    "attrs": ("attr", "attrs"),
    "pyjwt": ("jwt",),
    "pymysql": ("pymysql",),
    "mysqlclient": ("MySQLdb",),
    "mysql-connector-python": ("mysql.connector",),
    "psycopg2-binary": ("psycopg2",),
    "psycopg2": ("psycopg2",),
    "psycopg": ("psycopg",),
    "psycopg-binary": ("psycopg",),
    "python-dotenv": ("dotenv",),
    "pyserial": ("serial",),
    "msgpack-python": ("msgpack",),
    "typing-extensions": ("typing_extensions",),
    "jinja2": ("jinja2",),
    "markupsafe": ("markupsafe",),
    "pygithub": ("github",),
    "python-gitlab": ("gitlab",),
    "gitpython": ("git",),
    "dnspython": ("dns",),
    "pyusb": ("usb",),
    "pycryptodome": ("Crypto",),
    "pycryptodomex": ("Cryptodome",),
    "pycrypto": ("Crypto",),
    "pyopenssl": ("OpenSSL",),
    "pynacl": ("nacl",),
    "argon2-cffi": ("argon2",),
    "python-magic": ("magic",),
    "python-docx": ("docx",),
    "python-pptx": ("pptx",),
    "python-slugify": ("slugify",),
    "python-jose": ("jose",),
    "python-multipart": ("multipart", "python_multipart"),
    "python-socketio": ("socketio",),
    "python-engineio": ("engineio",),
    "python-telegram-bot": ("telegram",),
    "python-ldap": ("ldap",),
    "python-memcached": ("memcache",),
    "python-json-logger": ("pythonjsonlogger",),
    "python-levenshtein": ("Levenshtein",),
    "levenshtein": ("Levenshtein",),
    "python-snappy": ("snappy",),
    "python-xlib": ("Xlib",),
    "pywin32": ("win32api", "win32con", "win32com", "pythoncom", "pywintypes"),
    "pygobject": ("gi",),
    "wxpython": ("wx",),
    "pyzmq": ("zmq",),
    "pycairo": ("cairo",),
    "pymupdf": ("fitz", "pymupdf"),
    "pywavelets": ("pywt",),
    "py-cpuinfo": ("cpuinfo",),
    "pysocks": ("socks", "sockshandler"),
    "websocket-client": ("websocket",),
    "discord-py": ("discord",),
    "ipython": ("IPython",),
    "pyinstaller": ("PyInstaller",),
    "pymongo": ("pymongo", "bson", "gridfs"),
    "setuptools": ("setuptools", "pkg_resources"),
    "setuptools-scm": ("setuptools_scm",),
    "djangorestframework": ("rest_framework",),
    "django-rest-framework": ("rest_framework",),
    "django-cors-headers": ("corsheaders",),
    "django-filter": ("django_filters",),
    "django-environ": ("environ",),
    "django-debug-toolbar": ("debug_toolbar",),
    "django-redis": ("django_redis",),
    "pytest-xdist": ("xdist",),
    "pytest-cov": ("pytest_cov",),
    "tensorflow-gpu": ("tensorflow",),
    "tensorflow-cpu": ("tensorflow",),
    "faiss-cpu": ("faiss",),
    "faiss-gpu": ("faiss",),
    "ruamel-yaml": ("ruamel.yaml",),
    "zope-interface": ("zope.interface",),
    "backports-zoneinfo": ("backports.zoneinfo",),
    "email-validator": ("email_validator",),
    "ua-parser": ("ua_parser",),
    "user-agents": ("user_agents",),
    "opentelemetry-api": ("opentelemetry",),
    "opentelemetry-sdk": ("opentelemetry.sdk",),
    "sentry-sdk": ("sentry_sdk",),
    "pyasn1-modules": ("pyasn1_modules",),
    "python-keycloak": ("keycloak",),
    "pyside6": ("PySide6",),
    "pyside2": ("PySide2",),
    "pyqt5": ("PyQt5",),
    "pyqt6": ("PyQt6",),
    "sqlalchemy": ("sqlalchemy",),
    "flask-sqlalchemy": ("flask_sqlalchemy",),
    "markdown": ("markdown",),
    "pygments": ("pygments",),
    "babel": ("babel",),
    "werkzeug": ("werkzeug",),
    "authlib": ("authlib",),
    "tzdata": ("tzdata",),
    "importlib-metadata": ("importlib_metadata",),
    "importlib-resources": ("importlib_resources",),
}

# families whose import path follows the distribution name with dots
_FAMILY_PREFIXES = (
    ("google-cloud-", "google.cloud."),
    ("azure-", "azure."),
    ("opentelemetry-instrumentation-", "opentelemetry.instrumentation."),
    ("opentelemetry-exporter-", "opentelemetry.exporter."),
)
_STRIP_SUFFIXES = ("-python", "-py", "-binary", "-headless")


def _family(key: str) -> list[str]:
    for dist_prefix, module_prefix in _FAMILY_PREFIXES:
        if key.startswith(dist_prefix) and len(key) > len(dist_prefix):
            rest = key[len(dist_prefix) :].split("-")
            if dist_prefix == "azure-":  # azure-storage-blob -> azure.storage.blob
                return [module_prefix + ".".join(rest)]
            # google-cloud-secret-manager -> google.cloud.secret_manager / .secretmanager
            return _dedupe([module_prefix + "_".join(rest), module_prefix + "".join(rest)])
    return []


def guess_import_names(dist: str) -> list[str]:
    """Name-based guesses: the name with ``-``/``.`` as ``_`` (original case, then lower
    case), a dotted name kept as is, and the same with a ``python-``/``py`` prefix or a
    ``-python``/``-py``/``-binary``/``-headless`` suffix stripped."""
    raw = dist.strip()
    low = raw.lower()
    out: list[str] = []
    if "." in raw:
        out.append(raw.replace("-", "_"))
    out.append(re.sub(r"[-.]+", "_", raw))
    out.append(re.sub(r"[-.]+", "_", low))
    key = normalize_dist(raw)
    stems = [key]
    for suffix in _STRIP_SUFFIXES:
        if key.endswith(suffix) and len(key) > len(suffix) + 1:
            stems.append(key[: -len(suffix)])
    stem = stems[-1]  # prefixes come off the most stripped stem only
    if stem.startswith("python-") and len(stem) > 8:
        stems.append(stem[len("python-") :])
    elif stem.startswith("py") and len(stem) > 4 and stem[2] != "-":
        stems.append(stem[2:])
    out.extend(s.replace("-", "_") for s in stems)
    return _dedupe(n for n in out if _IDENT_PATH.match(n))


def import_names_for(dist: str, installed: Mapping[str, Sequence[str]] | None = None) -> list[str]:
    """The import names a pip distribution is likely imported under, most likely first.

    Order of sources: the built-in table and family rules (``google-cloud-*``, ``azure-*``);
    when those know nothing, ``installed`` (normalized dist name → top-level names, from
    ``importlib.metadata`` of *some* environment; namespace roots such as ``google`` are
    ignored as too broad); and when that knows nothing either, name-based guesses.
    """
    key = normalize_dist(dist)
    names = list(KNOWN_IMPORT_NAMES.get(key, ())) + _family(key)
    if names:
        return _dedupe(names)
    if installed:
        found = [
            n
            for n in installed.get(key, ())
            if _IDENT_PATH.match(n) and not n.startswith("_") and n not in NAMESPACE_ROOTS
        ]
        if found:
            return _dedupe(sorted(found))
    return guess_import_names(dist)


def _dedupe(names) -> list[str]:
    seen: set[str] = set()
    out = []
    for n in names:
        if n and n not in seen:
            seen.add(n)
            out.append(n)
    return out


@lru_cache(maxsize=1)
def installed_import_names() -> dict[str, tuple[str, ...]]:
    """normalized distribution → top-level import names, from *this* Python environment's
    metadata (``importlib.metadata.packages_distributions``). Secondary source only: the
    user's checkout may use another environment."""
    try:
        from importlib.metadata import packages_distributions

        mapping = packages_distributions()
    except Exception:  # broken metadata in some installed package
        return {}
    out: dict[str, set[str]] = {}
    for top, dists in mapping.items():
        for dist in dists:
            out.setdefault(normalize_dist(dist), set()).add(top)
    return {k: tuple(sorted(v)) for k, v in out.items()}
