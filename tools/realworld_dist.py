"""Released artifacts for the real-world corpus: download, verify, cache and trim.

Used by ``tools/realworld.py``. Downloads go through ``requests`` to PyPI's JSON API and the
npm registry (``DEPBOT_PYPI_URL`` / ``DEPBOT_NPM_URL`` override the base URLs), are checked
against the registry's sha256 (PyPI) or SRI integrity / shasum (npm), and are cached under
a downloads folder so a rebuild is offline. Trimming follows the scenarios README
("Released code"): pip keeps ``*.py``, ``*.pyi``, ``py.typed`` without tests folders plus the
dist-info license file; npm keeps ``package.json`` and the type declarations (or the
JavaScript files when there are none) plus the license file.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import re
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import quote, urljoin

import requests

from depbot.records.versions import parse_version

TEST_DIRS = {"tests", "test", "testing"}
LICENSE_RE = re.compile(r"^(licen[cs]e|copying|notice)([.-].*)?$", re.I)
NPM_DECL = (".d.ts", ".d.mts", ".d.cts")
NPM_ASSETS = (".css", ".scss", ".sass", ".less", ".styl", ".json", ".svg")  # as depbot keeps
NPM_JS = (".js", ".mjs", ".cjs")


class DistError(Exception):
    """An artifact could not be had or did not verify (one line)."""


@dataclass
class Artifact:
    version: str
    url: str
    filename: str
    sha256: str
    files: dict[str, bytes]  # trimmed: path inside dist/<version>/ -> content


def pypi_base() -> str:
    return os.environ.get("DEPBOT_PYPI_URL", "https://pypi.org").rstrip("/")


def npm_base() -> str:
    return os.environ.get("DEPBOT_NPM_URL", "https://registry.npmjs.org").rstrip("/")


def _get(url: str, what: str, headers: dict[str, str] | None = None) -> requests.Response:
    try:
        resp = requests.get(url, timeout=60, headers=headers)
    except requests.RequestException as exc:
        raise DistError(f"{what}: {url}: {exc.__class__.__name__}") from None
    if resp.status_code != 200:
        raise DistError(f"{what}: {url}: HTTP {resp.status_code}")
    return resp


def _cached_download(url: str, cache: Path, filename: str, check: dict[str, str]) -> bytes:
    """The file at ``url``, from ``cache`` when present; verified against ``check``."""
    path = cache / filename
    data = path.read_bytes() if path.is_file() else _get(url, filename).content
    for algo, want in check.items():
        if algo == "integrity":
            kind, _, b64 = want.partition("-")
            got = base64.b64encode(hashlib.new(kind, data).digest()).decode()
            ok = got == b64
        else:
            ok = hashlib.new(algo, data).hexdigest() == want.lower()
        if not ok:
            path.unlink(missing_ok=True)
            raise DistError(f"{filename}: {algo} does not match the registry's ({url})")
    if not path.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return data


def _cached_json(
    url: str, cache: Path, filename: str, headers: dict[str, str] | None = None
) -> dict:
    path = cache / filename
    if path.is_file():
        return json.loads(path.read_text(encoding="utf-8"))
    data = _get(url, filename, headers).json()
    cache.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return data


def _wheel_rank(filename: str) -> tuple[int, int]:
    """Pure wheels first, then CPython 3 manylinux x86_64 ones (newest Python first)."""
    if filename.endswith("-none-any.whl"):
        return (0, 0)
    m = re.search(r"-cp3(\d+)-", filename)
    linux = "manylinux" in filename and "x86_64" in filename
    return (1 if m and linux else 2 if m else 3, -int(m.group(1)) if m else 0)


def pip_artifact(package: str, version: str, cache: Path) -> Artifact:
    """The trimmed wheel (or sdist when there is no wheel) of ``package==version``."""
    cache = cache / "pip"
    index = f"{pypi_base()}/pypi/{quote(package)}/json"
    meta = _cached_json(index, cache, f"{package}.json")
    releases = meta.get("releases") or {}
    if version not in releases:
        raise DistError(f"{package} {version}: PyPI lists no such release")
    files = [f for f in releases[version] if f.get("url") and not f.get("yanked")]
    wheels = sorted(
        (f for f in files if f.get("packagetype") == "bdist_wheel"),
        key=lambda f: (_wheel_rank(f["filename"]), f["filename"]),
    )
    sdists = [f for f in files if f.get("packagetype") == "sdist"]
    chosen = (wheels or sdists or [None])[0]
    if chosen is None:
        raise DistError(f"{package} {version}: PyPI lists no wheel or sdist")
    sha = (chosen.get("digests") or {}).get("sha256", "")
    if not sha:
        raise DistError(f"{chosen['filename']}: PyPI gives no sha256")
    url = urljoin(index, chosen["url"])
    data = _cached_download(url, cache, chosen["filename"], {"sha256": sha})
    if chosen["filename"].endswith(".whl"):
        trimmed = trim_wheel(data)
    else:
        trimmed = trim_sdist(data, chosen["filename"], package, version)
    return Artifact(version, url, chosen["filename"], sha, trimmed)


def _keep_py(path: PurePosixPath) -> bool:
    if any(part in TEST_DIRS for part in path.parts[:-1]):
        return False
    return path.suffix in (".py", ".pyi") or path.name == "py.typed"


def trim_wheel(data: bytes) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        for name in zf.namelist():
            path = PurePosixPath(name)
            if name.endswith("/"):
                continue
            top = path.parts[0]
            if top.endswith(".dist-info"):
                if LICENSE_RE.match(path.name) or (
                    len(path.parts) > 2 and path.parts[1] == "licenses"
                ):
                    out[name] = zf.read(name)
            elif top.endswith(".data"):
                continue
            elif _keep_py(path):
                out[name] = zf.read(name)
    return out


def _archive_members(data: bytes, filename: str) -> dict[str, bytes]:
    members: dict[str, bytes] = {}
    if filename.endswith(".zip"):
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            for name in zf.namelist():
                if not name.endswith("/"):
                    members[name] = zf.read(name)
        return members
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as tf:
        for m in tf.getmembers():
            if m.isfile():
                f = tf.extractfile(m)
                if f is not None:
                    members[m.name] = f.read()
    return members


def trim_sdist(data: bytes, filename: str, package: str, version: str) -> dict[str, bytes]:
    """The package folders of an sdist (folders holding ``__init__.py``, ``src/`` dropped)."""
    members = {}
    for name, body in _archive_members(data, filename).items():
        parts = PurePosixPath(name).parts[1:]  # drop "<name>-<version>/"
        if parts:
            members[PurePosixPath(*parts)] = body
    if any(p.parts[0] == "src" for p in members if len(p.parts) > 1):
        members = {
            PurePosixPath(*p.parts[1:]): b for p, b in members.items() if p.parts[0] == "src"
        }
    packages = {p.parts[0] for p in members if len(p.parts) == 2 and p.name == "__init__.py"}
    out = {str(p): b for p, b in members.items() if p.parts[0] in packages and _keep_py(p)}
    for p, b in members.items():
        if len(p.parts) == 1 and LICENSE_RE.match(p.name):
            out[f"{package}-{version}.dist-info/{p.name}"] = b
    return out


# npm's abbreviated metadata: the versions and their dist fields, not every readme
_NPM_ABBREVIATED = {"Accept": "application/vnd.npm.install-v1+json"}


def released_versions(ecosystem: str, package: str, low: str, high: str, cache: Path) -> list[str]:
    """The versions the registry lists from ``low`` to ``high`` (both included), in order:
    what a real run sees between the two. The fake registry of a built case serves these, so
    a release the notes skip (a major with no section) is one the run knows it did not read."""
    if ecosystem == "pip":
        meta = _cached_json(f"{pypi_base()}/pypi/{quote(package)}/json", cache / "pip",
                            f"{package}.json")  # fmt: skip
        listed = [v for v, files in (meta.get("releases") or {}).items()
                  if files and not all(f.get("yanked") for f in files)]  # fmt: skip
    else:
        listed = npm_published(package, cache)
    lo, hi = parse_version(ecosystem, low), parse_version(ecosystem, high)
    if lo is None or hi is None:
        raise DistError(f"{package}: {low} or {high} is not a version")
    found = [
        (p, v) for v in listed if (p := parse_version(ecosystem, v)) is not None and lo <= p <= hi
    ]
    return [v for _, v in sorted(found)]


def npm_artifact(package: str, version: str, cache: Path) -> Artifact:
    """The trimmed npm tarball of ``package@version``."""
    cache = cache / "npm"
    safe = package.replace("/", "+")
    meta = _cached_json(
        f"{npm_base()}/{package.replace('/', '%2F')}/{quote(version)}",
        cache,
        f"{safe}-{version}.json",
    )
    dist = meta.get("dist") or {}
    url = dist.get("tarball")
    if not url:
        raise DistError(f"{package}@{version}: the registry gives no tarball")
    check = {"integrity": dist["integrity"]} if dist.get("integrity") else {}
    if dist.get("shasum"):
        check["sha1"] = dist["shasum"]
    if not check:
        raise DistError(f"{package}@{version}: the registry gives no integrity or shasum")
    filename = f"{safe}-{version}.tgz"
    data = _cached_download(url, cache, filename, check)
    return Artifact(version, url, filename, hashlib.sha256(data).hexdigest(), trim_npm(data))


def trim_npm(data: bytes) -> dict[str, bytes]:
    """The tarball's package.json, license, type declarations and JavaScript (no source maps,
    no minified bundles). Unlike the public scenarios' trimming (declarations alone when a
    package ships them), the JavaScript stays: a deep ``require('pkg/lib/plugin')`` needs the
    file the real tarball holds, and production code reads whole artifacts."""
    members = {}
    for name, body in _archive_members(data, "x.tgz").items():
        parts = PurePosixPath(name).parts[1:]  # drop the leading "package/"
        if parts and "node_modules" not in parts:
            members[PurePosixPath(*parts)] = body
    code = {
        p
        for p in members
        if p.name.endswith(NPM_DECL)
        or (p.name.endswith(NPM_JS) and ".min." not in p.name and not p.name.endswith(".map"))
        or p.name.endswith(NPM_ASSETS)  # `import 'pkg/dist/pkg.css'`: the file must be there
    }
    out = {str(p): members[p] for p in code}
    for p, b in members.items():
        if len(p.parts) == 1 and (p.name == "package.json" or LICENSE_RE.match(p.name)):
            out[str(p)] = b
    return out


# what a release's document says of its commands and of what it needs (who_loads reads these)
DECLARING_FIELDS = ("bin", "dependencies", "peerDependencies", "optionalDependencies")


def npm_release_document(package: str, version: str, cache: Path) -> dict:
    """The registry's document of one npm release (``GET /<name>/<version>``), cut to its
    ``bin`` and dependency lists; cached."""
    from urllib.parse import quote

    safe = package.replace("/", "__")
    url = f"{npm_base()}/{quote(package, safe='@')}/{quote(version, safe='')}"
    data = _cached_json(url, cache / "releases", f"{safe}@{version}.json")
    return {k: data[k] for k in DECLARING_FIELDS if k in data}


def npm_newest_taken(package: str, spec: str, cache: Path) -> str | None:
    """The newest stable release of ``package`` its range ``spec`` takes (the packument's
    versions, read as depbot reads them), or None."""
    from depbot.ecosystems.npm.reach import newest_taken

    return newest_taken(npm_published(package, cache), spec)


def npm_published(package: str, cache: Path) -> list[str]:
    """Every version the registry lists for ``package`` (none for a security holding
    package such as ``fs``, whose name it keeps with no release): one packument per
    package, read once for the versions between a case's two and for its declared releases."""
    safe = package.replace("/", "__")
    url = f"{npm_base()}/{quote(package, safe='@')}"
    data = _cached_json(url, cache / "packuments", f"{safe}.json", _NPM_ABBREVIATED)
    return list(data.get("versions") or {})
