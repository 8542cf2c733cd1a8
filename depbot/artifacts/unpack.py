"""Safe extraction of a verified artifact (zip: wheels and .zip sdists; tar.gz: npm, sdists).

Into ``<root>/unpacked/<hex>/``, written in a temporary folder beside it and renamed into
place, so a killed run leaves no half folder (a leftover ``.tmp-*`` folder is never read).
Refused, the whole artifact: a member outside the root (absolute, ``..``), a symlink, a
hardlink or a device/FIFO member (kept or not: such an archive is not a normal release),
more than ``max_members`` members, more than ``max_unpacked_bytes`` bytes. Bytes are
counted as they are decompressed, never trusted from headers; a tar member that is skipped
still counts, since it is decompressed to be skipped. A tar archive is read through a reader
that charges every decompressed byte it hands to ``tarfile`` (headers included) and refuses
one read larger than ``MAX_READ``: a PAX or GNU long-name header that size, which ``tarfile``
would hold whole in memory, is refused unread. The compression is the one the file name says
(``.tgz`` is gzip, never bzip2 behind the same name). Only what ``keep.target`` keeps is
written.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import shutil
import stat
import tarfile
import tempfile
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from depbot.artifacts.keep import Unsafe, target
from depbot.core.cachedir import touch

CHUNK = 16 * 1024
# One read of a tar stream: a header block's data, a member chunk (CHUNK). An extended header
# of more is refused unread: on Pythons without the fix for CVE-2024-6232 tarfile parses PAX
# records in quadratic time (120,000 digits took 19 s on 3.11.7; 16 KiB takes ~0.3 s), and
# real PAX headers (long paths, times, xattrs) are a few hundred bytes.
MAX_READ = 16 * 1024
# tar's compression by the file name's end: the only one its stream may be read with
_TAR_OPENERS = {".tar.gz": gzip.open, ".tgz": gzip.open, ".tar.bz2": bz2.open,
                ".tar.xz": lzma.open, ".tar": open}  # fmt: skip
_TAR_NAMES = {".tar.gz": "gzip", ".tgz": "gzip", ".tar.bz2": "bzip2", ".tar.xz": "xz", ".tar": ""}


class UnpackError(Exception):
    """Why an artifact was not unpacked, in one line."""


@dataclass
class Budget:
    max_bytes: int
    max_members: int
    spent: int = 0
    members: int = 0

    def member(self) -> None:
        self.members += 1
        if self.members > self.max_members:
            raise UnpackError(f"more than {self.max_members} members (max_members)")

    def spend(self, n: int) -> None:
        self.spent += n
        if self.spent > self.max_bytes:
            raise UnpackError(
                f"unpacks to more than {self.max_bytes} bytes (max_unpacked_bytes): "
                "a decompression bomb or an oversized release"
            )


def archive_format(filename: str) -> str | None:
    """``zip``, or ``tar`` and the suffix that says its compression (``tar.tgz``), by the
    file name; None for any other name."""
    name = filename.lower()
    if name.endswith((".whl", ".zip")):
        return "zip"
    for suffix in _TAR_OPENERS:
        if name.endswith(suffix):
            return f"tar{suffix}"
    return None


class _Charged:
    """A tar stream for ``tarfile``: each byte it reads is charged to the budget, and a read
    over ``MAX_READ`` (an extended header's whole data) is refused before it is made."""

    def __init__(self, inner: IO[bytes], budget: Budget) -> None:
        self._inner, self._budget = inner, budget

    def read(self, n: int = -1) -> bytes:
        if n is None or n < 0 or n > MAX_READ:
            raise UnpackError(
                f"refused: a tar header or member read of {n} bytes (more than {MAX_READ}): "
                "an oversized extended header"
            )
        data = self._inner.read(n)
        self._budget.spend(len(data))
        return data

    def seek(self, offset: int, whence: int = 0) -> int:
        here = self._inner.tell()
        to = self._inner.seek(offset, whence)
        if to > here:
            self._budget.spend(to - here)  # decompressed to be skipped
        return to

    def tell(self) -> int:
        return self._inner.tell()


def unpacked_dir(root: Path, hex_digest: str) -> Path:
    return root / "unpacked" / hex_digest


def unpack_cached(
    archive: Path, fmt: str, root: Path, hex_digest: str, kind: tuple[str, str], budget: Budget
) -> tuple[Path, int]:
    """The unpacked folder of ``archive`` (``fmt`` ``zip`` or ``tar``, ``kind`` its
    (ecosystem, ``wheel``/``sdist``/``tarball``)), made once, and how many files it holds."""
    final = unpacked_dir(root, hex_digest)
    if final.is_dir():
        touch(final)  # its last use, for the cache's eviction (core/cachedir.py)
        return final, _count_files(final)
    final.parent.mkdir(parents=True, exist_ok=True)
    count = 0

    def fill(tmp: Path) -> None:
        nonlocal count
        count = extract(archive, fmt, tmp, kind, budget)

    return made_once(final, f".tmp-{hex_digest[:16]}-", fill), count


def made_once(final: Path, prefix: str, fill: Callable[[Path], None]) -> Path:
    """The folder ``final``, made by ``fill`` in a temporary folder beside it and renamed
    into place; when another run renamed its own first, that one stands."""
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=prefix, dir=final.parent))
    try:
        fill(tmp)
        try:
            os.rename(tmp, final)
        except OSError:
            if not final.is_dir():
                raise
            shutil.rmtree(tmp, ignore_errors=True)  # another run finished it first
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return final


def extract(archive: Path, fmt: str, dest: Path, kind: tuple[str, str], budget: Budget) -> int:
    """Write the kept members of ``archive`` under ``dest``; the number of files written."""
    ecosystem, what = kind
    try:
        if fmt == "zip":
            return _extract_zip(archive, dest, ecosystem, what, budget)
        return _extract_tar(archive, fmt.removeprefix("tar"), dest, ecosystem, what, budget)
    except Unsafe as exc:
        raise UnpackError(f"refused: {exc}") from None
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, zlib.error) as exc:
        raise UnpackError(f"corrupt archive ({_short(exc)})") from None
    except (NotImplementedError, RuntimeError) as exc:  # unknown compression, encryption
        raise UnpackError(f"unreadable archive ({_short(exc)})") from None
    except OSError as exc:  # gzip.BadGzipFile and friends, or the disk
        raise UnpackError(f"could not unpack ({_short(exc)})") from None


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:120]


def _extract_zip(archive: Path, dest: Path, ecosystem: str, kind: str, budget: Budget) -> int:
    written = 0
    with zipfile.ZipFile(archive) as zf:
        infos = zf.infolist()
        for info in infos:
            budget.member()
            mode = info.external_attr >> 16
            rel = target(ecosystem, kind, info.filename)  # checks the name of every member
            if stat.S_ISLNK(mode):
                raise UnpackError(f"refused: member {info.filename!r} is a symlink")
            if stat.S_IFMT(mode) not in (0, stat.S_IFREG, stat.S_IFDIR):
                raise UnpackError(f"refused: member {info.filename!r} is a special file")
            if info.is_dir() or rel is None:
                continue
            with zf.open(info) as src:
                _write(src, dest, rel, budget)
            written += 1
    return written


def _extract_tar(
    archive: Path, suffix: str, dest: Path, ecosystem: str, kind: str, budget: Budget
) -> int:
    opener, named = _TAR_OPENERS.get(suffix, open), _TAR_NAMES.get(suffix, "")
    if named == "gzip":
        with archive.open("rb") as head:
            if head.read(2) != b"\x1f\x8b":
                raise UnpackError(f"refused: not a gzip stream though named {suffix}")
    written = 0
    with (
        opener(archive, "rb") as raw,
        tarfile.open(
            fileobj=_Charged(raw, budget),
            mode="r:",  # type: ignore[arg-type]
        ) as tar,
    ):
        for member in tar:
            budget.member()
            rel = target(ecosystem, kind, member.name)
            if member.issym() or member.islnk():
                raise UnpackError(f"refused: member {member.name!r} is a link")
            if not (member.isfile() or member.isdir()):
                if member.type in (tarfile.XHDTYPE, tarfile.XGLTYPE):
                    continue
                raise UnpackError(f"refused: member {member.name!r} is a special file")
            if member.isdir():
                continue
            if rel is None:
                continue  # skipped: the stream charges it as tarfile seeks past it
            src = tar.extractfile(member)
            if src is None:
                continue
            with src:
                _write(src, dest, rel, None)  # the stream charges what it reads
            written += 1
    return written


def _write(src: IO[bytes], dest: Path, rel: str, budget: Budget | None) -> None:
    path = dest.joinpath(*rel.split("/"))
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as out:
        while chunk := src.read(CHUNK):
            if budget is not None:
                budget.spend(len(chunk))
            out.write(chunk)


def _count_files(folder: Path) -> int:
    return sum(1 for p in folder.rglob("*") if p.is_file())
