"""Released artifacts for the fake upstream, built deterministically from ``dist/<version>/``.

``pip``: a wheel ``<name>-<version>-py3-none-any.whl``, the folder's files plus a minimal
``.dist-info`` (``METADATA``, ``WHEEL``, ``RECORD``). ``npm``: a tarball
``<name>-<version>.tgz`` whose entries sit under ``package/``. Same folder, same bytes:
fixed timestamps, modes and owners, members in sorted order.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import re
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_EPOCH_ZIP = (1980, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class Artifact:
    filename: str
    data: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    @property
    def md5(self) -> str:
        return hashlib.md5(self.data).hexdigest()  # noqa: S324 - PyPI lists it beside sha256

    @property
    def shasum(self) -> str:
        return hashlib.sha1(self.data).hexdigest()  # noqa: S324 - npm's dist.shasum is sha1

    @property
    def integrity(self) -> str:
        return "sha512-" + base64.b64encode(hashlib.sha512(self.data).digest()).decode("ascii")


def dist_folder(package_folder: Path | None, version: str) -> Path | None:
    """``<package>/dist/<version>/`` when it exists."""
    if package_folder is None:
        return None
    folder = package_folder / "dist" / version
    return folder if folder.is_dir() else None


def _files(folder: Path) -> list[tuple[str, bytes]]:
    return [
        (p.relative_to(folder).as_posix(), p.read_bytes())
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    ]


def wheel_name(name: str) -> str:
    """The distribution name as a wheel file name spells it (runs of ``-_.`` become ``_``)."""
    return re.sub(r"[-_.]+", "_", name)


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode("ascii")


def build_wheel(name: str, version: str, folder: Path) -> Artifact:
    files = _files(folder)
    info_dirs = sorted(
        {p.split("/")[0] for p, _ in files if p.split("/")[0].endswith(".dist-info")}
    )
    info = info_dirs[0] if info_dirs else f"{wheel_name(name)}-{version}.dist-info"
    metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    wheel = (
        b"Wheel-Version: 1.0\nGenerator: depbot-fake\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    files += [(f"{info}/METADATA", metadata), (f"{info}/WHEEL", wheel)]
    record = "".join(f"{p},{_record_hash(d)},{len(d)}\n" for p, d in files) + f"{info}/RECORD,,\n"
    files.append((f"{info}/RECORD", record.encode()))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for path, data in files:
            zi = zipfile.ZipInfo(path, _EPOCH_ZIP)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o100644 << 16
            zf.writestr(zi, data)
    return Artifact(f"{wheel_name(name)}-{version}-py3-none-any.whl", buf.getvalue())


def npm_basename(name: str) -> str:
    """``@scope/pkg`` -> ``pkg``: the tarball's name carries no scope."""
    return name.rsplit("/", 1)[-1]


def build_tarball(name: str, version: str, folder: Path) -> Artifact:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for path, data in _files(folder):
            ti = tarfile.TarInfo(f"package/{path}")
            ti.size, ti.mode, ti.mtime = len(data), 0o644, 0
            ti.uid = ti.gid = 0
            ti.uname = ti.gname = ""
            tar.addfile(ti, io.BytesIO(data))
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0) as gz:
        gz.write(raw.getvalue())
    return Artifact(f"{npm_basename(name)}-{version}.tgz", out.getvalue())


def build(ecosystem: str, name: str, version: str, folder: Path) -> Artifact:
    if ecosystem == "npm":
        return build_tarball(name, version, folder)
    return build_wheel(name, version, folder)


def pypi_entry(art: Artifact, url: str, yanked: bool) -> dict[str, Any]:
    """A file of ``releases[<v>]`` / ``urls`` as the package index JSON API lists it."""
    return {
        "filename": art.filename,
        "packagetype": "bdist_wheel",
        "python_version": "py3",
        "digests": {"sha256": art.sha256, "md5": art.md5},
        "size": len(art.data),
        "url": url,
        "yanked": yanked,
    }


def npm_dist(art: Artifact, url: str) -> dict[str, Any]:
    """``versions[<v>].dist`` as the npm registry gives it."""
    return {"tarball": url, "shasum": art.shasum, "integrity": art.integrity}


def parse_download(path: str) -> tuple[str, str, str, str] | None:
    """``(ecosystem, name, version, filename)`` of an artifact download path, or None.

    ``/packages/<name>/<version>/<file>`` (the package index's file host) and
    ``/npm/<name>/-/<basename>-<version>.tgz`` (the npm registry).
    """
    m = re.fullmatch(r"/packages/([^/]+)/([^/]+)/([^/]+)", path)
    if m:
        return "pip", m.group(1), m.group(2), m.group(3)
    m = re.fullmatch(r"/npm/(.+)/-/([^/]+)\.tgz", path)
    if m and m.group(2).startswith(npm_basename(m.group(1)) + "-"):
        version = m.group(2)[len(npm_basename(m.group(1))) + 1 :]
        return "npm", m.group(1), version, m.group(2) + ".tgz"
    return None
