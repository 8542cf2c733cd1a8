"""Every way an artifact can be bad ends in a one-line Problem, and nothing half-written.

Each archive is built here with zipfile/tarfile and served, with its registry metadata, by a
loopback server speaking the package index JSON API and the npm registry format.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import random
import stat
import tarfile
import zipfile
from pathlib import Path

from depbot.artifacts import Problem, ReleaseFiles, fetch_release
from depbot.core.net import Http
from depbot.fakes.loopback import LoopbackServer, Reply, Request
from tests.helpers.settings import loopback_settings

NOISE = random.Random(0).randbytes(30_000)


def wheel(members: dict[str, bytes], links: dict[str, str] | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
        for name, dest in (links or {}).items():
            zi = zipfile.ZipInfo(name)
            zi.external_attr = (stat.S_IFLNK | 0o777) << 16
            zf.writestr(zi, dest)
    return buf.getvalue()


def tgz(members: dict[str, bytes], links: dict[str, str] | None = None) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in members.items():
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            tar.addfile(ti, io.BytesIO(data))
        for name, dest in (links or {}).items():
            ti = tarfile.TarInfo(name)
            ti.type, ti.linkname = tarfile.SYMTYPE, dest
            tar.addfile(ti)
    return buf.getvalue()


def fetch(
    tmp_path: Path,
    eco: str,
    data: bytes,
    *,
    digest: str | None = None,
    relative: bool = False,
    **caps: object,
):
    """Serve ``data`` as release 1.0.0 of ``evil`` and fetch it; (result, cache folder)."""
    name = "evil-1.0.0-py3-none-any.whl" if eco == "pip" else "evil-1.0.0.tgz"
    served: list[str] = []

    def handle(req: Request) -> Reply:
        url = f"../../files/{name}" if relative else f"{srv.url}/files/{name}"
        if req.path == "/pypi/evil/json":
            sha = digest or hashlib.sha256(data).hexdigest()
            entry = {"filename": name, "url": url, "digests": {"sha256": sha}}
            return Reply(200, {"info": {"name": "evil"}, "releases": {"1.0.0": [entry]}})
        if req.path == "/npm/evil":
            sri = digest or "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
            dist = {"tarball": url, "integrity": sri}
            return Reply(200, {"name": "evil", "versions": {"1.0.0": {"dist": dist}}})
        if req.path == f"/files/{name}":
            served.append(name)
            return Reply(200, data, {"Content-Type": "application/octet-stream"})
        return Reply(404, {"message": "Not Found"})

    srv = LoopbackServer(handle)
    cache = tmp_path / "cache"
    with srv:
        settings = loopback_settings(srv.url, cache, **caps)
        return fetch_release(Http(settings), settings, eco, "evil", "1.0.0"), cache


def assert_problem(got: object, cache: Path, *words: str) -> None:
    assert isinstance(got, Problem), got
    assert "\n" not in got.reason and "Traceback" not in got.reason
    for w in words:
        assert w in got.reason, got.reason
    unpacked = cache / "unpacked"
    assert not unpacked.exists() or list(unpacked.iterdir()) == []  # no half folder


def test_a_good_wheel_for_contrast(tmp_path):
    got, _ = fetch(tmp_path, "pip", wheel({"evil/__init__.py": b"x = 1\n", "evil/README": b"r"}))
    assert isinstance(got, ReleaseFiles) and got.files == 1
    assert (got.root / "evil" / "__init__.py").read_bytes() == b"x = 1\n"


def test_a_file_listed_relative_to_the_metadata_is_fetched(tmp_path):
    # some indexes and mirrors list "../../packages/…" instead of an absolute address
    data = wheel({"evil/__init__.py": b"x = 1\n"})
    got, _ = fetch(tmp_path, "pip", data, relative=True)
    assert isinstance(got, ReleaseFiles) and got.files == 1


def test_a_wrong_digest(tmp_path):
    got, cache = fetch(tmp_path, "pip", wheel({"evil/a.py": b""}), digest="0" * 64)
    assert_problem(got, cache, "evil-1.0.0 wheel: digest mismatch", "sha256")
    assert not (cache / "artifacts" / "sha256" / ("0" * 64)).exists()


def test_a_wrong_npm_integrity(tmp_path):
    other = "sha512-" + base64.b64encode(hashlib.sha512(b"other").digest()).decode()
    got, cache = fetch(tmp_path, "npm", tgz({"package/package.json": b"{}"}), digest=other)
    assert_problem(got, cache, "evil-1.0.0 tarball: digest mismatch", "sha512")


def test_a_corrupt_zip(tmp_path):
    got, cache = fetch(tmp_path, "pip", b"PK\x03\x04 this is no zip at all" * 10)
    assert_problem(got, cache, "corrupt archive")


def test_a_truncated_tarball(tmp_path):
    data = tgz({"package/index.js": NOISE})
    got, cache = fetch(tmp_path, "npm", data[: len(data) // 2])
    assert_problem(got, cache, "evil-1.0.0 tarball:")


def test_a_zip_bomb_stops_at_the_cap(tmp_path):
    bomb = wheel({"evil/big.py": b"0" * (3 * 1024 * 1024)})
    assert len(bomb) < 20_000
    got, cache = fetch(tmp_path, "pip", bomb, max_unpacked_bytes=1024 * 1024)
    assert_problem(got, cache, "more than 1048576 bytes", "max_unpacked_bytes")


def test_a_zip_whose_header_understates_its_size(tmp_path):
    data = bytearray(wheel({"evil/big.py": b"0" * 100_000}))
    # the central directory says 10 bytes: the reader must not trust it
    cd = data.rfind(b"PK\x01\x02")
    data[cd + 24 : cd + 28] = (10).to_bytes(4, "little")
    got, cache = fetch(tmp_path, "pip", bytes(data))
    assert_problem(got, cache, "evil-1.0.0 wheel:")


def test_a_tar_bomb_in_a_member_that_is_not_kept(tmp_path):
    bomb = tgz({"package/README.md": b"0" * (3 * 1024 * 1024), "package/index.js": b""})
    got, cache = fetch(tmp_path, "npm", bomb, max_unpacked_bytes=1024 * 1024)
    assert_problem(got, cache, "max_unpacked_bytes")


def test_a_member_outside_the_root(tmp_path):
    got, cache = fetch(tmp_path, "pip", wheel({"evil/a.py": b"", "../x.py": b"owned"}))
    assert_problem(got, cache, "refused", "'../x.py'", "outside")
    assert not (tmp_path / "x.py").exists() and not (cache / "x.py").exists()


def test_an_absolute_member(tmp_path):
    got, cache = fetch(tmp_path, "npm", tgz({"/tmp/evil.js": b"owned"}))
    assert_problem(got, cache, "refused", "absolute path")


def test_a_symlink_member_in_a_tarball(tmp_path):
    data = tgz({"package/package.json": b"{}"}, links={"package/index.js": "/etc/passwd"})
    got, cache = fetch(tmp_path, "npm", data)
    assert_problem(got, cache, "refused", "'package/index.js' is a link")


def test_a_symlink_member_in_a_wheel(tmp_path):
    got, cache = fetch(tmp_path, "pip", wheel({"evil/a.py": b""}, links={"evil/b.py": "/etc"}))
    assert_problem(got, cache, "refused", "'evil/b.py' is a symlink")


def test_too_many_members(tmp_path):
    members = {f"evil/m{i}.py": b"" for i in range(30)}
    got, cache = fetch(tmp_path, "pip", wheel(members), max_members=10)
    assert_problem(got, cache, "more than 10 members", "max_members")


def test_a_download_over_the_compressed_cap(tmp_path):
    data = tgz({"package/index.js": NOISE})  # does not compress
    got, cache = fetch(tmp_path, "npm", data, max_artifact_bytes=10_000)
    assert_problem(got, cache, "evil-1.0.0 tarball: download failed", "10000")
    assert not (cache / "artifacts").exists() or not any((cache / "artifacts").rglob("*.*"))


def test_the_cap_on_artifacts_is_not_the_cap_on_other_answers(tmp_path):
    data = tgz({"package/index.js": NOISE})
    got, _ = fetch(tmp_path, "npm", data, max_response_bytes=10_000)
    assert isinstance(got, ReleaseFiles) and got.files == 1


def test_no_registry_entry(tmp_path):
    srv = LoopbackServer(lambda req: Reply(404, {"message": "Not Found"}))
    with srv:
        settings = loopback_settings(srv.url, tmp_path / "cache")
        got = fetch_release(Http(settings), settings, "pip", "ghost", "1.0")
    assert isinstance(got, Problem) and got.reason.startswith("ghost 1.0: no registry metadata")


def test_an_artifact_host_that_is_not_allowed(tmp_path):
    def handle(req: Request) -> Reply:
        entry = {
            "filename": "x-1.0-py3-none-any.whl",
            "url": "https://elsewhere.example/x-1.0-py3-none-any.whl",
            "digests": {"sha256": "0" * 64},
        }
        return Reply(200, json.loads(json.dumps({"info": {}, "releases": {"1.0": [entry]}})))

    with LoopbackServer(handle) as srv:
        settings = loopback_settings(srv.url, tmp_path / "cache")
        got = fetch_release(Http(settings), settings, "pip", "x", "1.0")
    assert isinstance(got, Problem) and "refused to contact elsewhere.example" in got.reason


# -- #28 item 6: tar headers count, and the compression is the one the name says -------------


def _tar_with(member: tarfile.TarInfo, fmt: int, compression: str = "gz") -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=f"w:{compression}", format=fmt) as tar:
        data = b'{"name": "evil", "version": "1.0.0"}'
        member.size = len(data)
        tar.addfile(member, io.BytesIO(data))
    return buf.getvalue()


def test_an_oversized_gnu_long_name_header_is_refused_unread(tmp_path):
    # the header holds a 4 MB name: tarfile would read it whole into memory
    info = tarfile.TarInfo("package/" + "a" * 4_000_000 + ".json")
    got, cache = fetch(tmp_path, "npm", _tar_with(info, tarfile.GNU_FORMAT))
    assert_problem(got, cache, "evil-1.0.0 tarball", "header")


def test_an_oversized_pax_header_is_refused_unread(tmp_path):
    info = tarfile.TarInfo("package/package.json")
    info.pax_headers = {"comment": "x" * 4_000_000}
    got, cache = fetch(tmp_path, "npm", _tar_with(info, tarfile.PAX_FORMAT))
    assert_problem(got, cache, "evil-1.0.0 tarball", "header")


def test_a_bzip2_stream_named_tgz_is_refused(tmp_path):
    info = tarfile.TarInfo("package/package.json")
    got, cache = fetch(tmp_path, "npm", _tar_with(info, tarfile.GNU_FORMAT, "bz2"))
    assert_problem(got, cache, "evil-1.0.0 tarball", "gzip")


def test_an_ordinary_pax_tarball_still_unpacks(tmp_path):
    info = tarfile.TarInfo("package/package.json")
    info.pax_headers = {"comment": "built by a tool that writes PAX headers"}
    got, _ = fetch(tmp_path, "npm", _tar_with(info, tarfile.PAX_FORMAT))
    assert isinstance(got, ReleaseFiles) and got.files == 1


def test_a_pax_header_of_digits_is_refused_before_tarfile_parses_it(tmp_path):
    # #28 item 7: 320,000 digits kept a PAX parser busy for a minute on unpatched Pythons
    info = tarfile.TarInfo("package/package.json")
    info.pax_headers = {"size": "1" * 320_000}
    try:
        data = _tar_with(info, tarfile.PAX_FORMAT)
    except (ValueError, OverflowError):  # this Python refuses to even write it
        info.pax_headers = {"comment": "1" * 320_000}
        data = _tar_with(info, tarfile.PAX_FORMAT)
    got, cache = fetch(tmp_path, "npm", data)
    assert_problem(got, cache, "evil-1.0.0 tarball", "header")


def test_a_pax_header_of_digits_under_the_old_cap_is_refused_too(tmp_path):
    # #28 item 7: 120,000 digits fit the first cap (128 KiB) and still kept this Python
    # (3.11.7, without the CVE-2024-6232 fix) busy for 19 s; a read over 16 KiB is refused
    info = tarfile.TarInfo("package/package.json")
    info.pax_headers = {"comment": "1" * 120_000}
    got, cache = fetch(tmp_path, "npm", _tar_with(info, tarfile.PAX_FORMAT))
    assert_problem(got, cache, "evil-1.0.0 tarball", "header")


def test_a_long_path_in_a_pax_header_still_unpacks(tmp_path):
    info = tarfile.TarInfo("package/" + "d/" * 400 + "package.json")  # an 808-character path
    data = _tar_with(info, tarfile.PAX_FORMAT)
    got, _cache = fetch(tmp_path, "npm", data)
    assert isinstance(got, ReleaseFiles) and got.files == 1
