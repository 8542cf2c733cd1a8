"""Safe extraction of a verified artifact (zip: wheels and .zip sdists; tar.gz: npm, sdists).

Into ``<root>/unpacked/<hex>/``, written in a temporary folder beside it and renamed into
place, so a killed run leaves no half folder (a leftover ``.tmp-*`` folder is never read).
Refused, the whole artifact: a member outside the root (absolute, ``..``), a symlink, a
hardlink or a device/FIFO member (kept or not: such an archive is not a normal release),
more than ``max_members`` members, more than ``max_unpacked_bytes`` bytes. Bytes are
counted as they are decompressed, never trusted from headers; a tar member that is skipped
still counts, since it is decompressed to be skipped. Only what ``keep.target`` keeps is
written.
"""

from __future__ import annotations

import os
import shutil
import stat
import tarfile
import tempfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from depbot.artifacts.keep import Unsafe, target

CHUNK = 64 * 1024


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
    """``zip`` or ``tar`` by the file name, or None."""
    name = filename.lower()
    if name.endswith((".whl", ".zip")):
        return "zip"
    if name.endswith((".tar.gz", ".tgz", ".tar", ".tar.bz2", ".tar.xz")):
        return "tar"
    return None


def unpacked_dir(root: Path, hex_digest: str) -> Path:
    return root / "unpacked" / hex_digest


def unpack_cached(
    archive: Path, fmt: str, root: Path, hex_digest: str, kind: tuple[str, str], budget: Budget
) -> tuple[Path, int]:
    """The unpacked folder of ``archive`` (``fmt`` ``zip`` or ``tar``, ``kind`` its
    (ecosystem, ``wheel``/``sdist``/``tarball``)), made once, and how many files it holds."""
    final = unpacked_dir(root, hex_digest)
    if final.is_dir():
        return final, _count_files(final)
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{hex_digest[:16]}-", dir=final.parent))
    try:
        count = extract(archive, fmt, tmp, kind, budget)
        try:
            os.rename(tmp, final)
        except OSError:
            if not final.is_dir():
                raise
            shutil.rmtree(tmp, ignore_errors=True)  # another run finished it first
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return final, count


def extract(archive: Path, fmt: str, dest: Path, kind: tuple[str, str], budget: Budget) -> int:
    """Write the kept members of ``archive`` under ``dest``; the number of files written."""
    ecosystem, what = kind
    try:
        if fmt == "zip":
            return _extract_zip(archive, dest, ecosystem, what, budget)
        return _extract_tar(archive, dest, ecosystem, what, budget)
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


def _extract_tar(archive: Path, dest: Path, ecosystem: str, kind: str, budget: Budget) -> int:
    written = 0
    with tarfile.open(archive, mode="r:*") as tar:
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
                budget.spend(member.size)  # decompressed to be skipped
                continue
            src = tar.extractfile(member)
            if src is None:
                continue
            with src:
                _write(src, dest, rel, budget)
            written += 1
    return written


def _write(src: IO[bytes], dest: Path, rel: str, budget: Budget) -> None:
    path = dest.joinpath(*rel.split("/"))
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as out:
        while chunk := src.read(CHUNK):
            budget.spend(len(chunk))
            out.write(chunk)


def _count_files(folder: Path) -> int:
    return sum(1 for p in folder.rglob("*") if p.is_file())
