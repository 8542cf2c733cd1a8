"""fetch_release against the fake upstream serving real scenarios' dist/ folders."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from depbot.artifacts import Problem, ReleaseFiles, fetch_release
from depbot.core.net import Http
from depbot.fakes.upstream import FakeUpstream
from depbot.updates.registries import Registries
from tests.helpers.paths import SHARED_SCENARIOS
from tests.helpers.settings import loopback_settings

SCENARIOS = SHARED_SCENARIOS
NPM_KEPT = ("package.json", ".d.ts", ".d.mts", ".d.cts", ".js", ".mjs", ".cjs")
CASES = [
    ("pip-urllib3-retry", "pip", "urllib3", "2.0.7", (".py", ".pyi", "py.typed")),
    ("pip-urllib3-retry", "pip", "urllib3", "1.26.18", (".py", ".pyi", "py.typed")),
    ("npm-node-fetch-esm", "npm", "node-fetch", "3.3.2", NPM_KEPT),
    ("npm-node-fetch-esm", "npm", "node-fetch", "2.6.9", NPM_KEPT),
]
pytestmark = pytest.mark.skipif(not SCENARIOS.is_dir(), reason="no shared scenarios")


def _tree(root: Path, endings: tuple[str, ...] = ("",)) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and p.name.endswith(endings)
    }


def _downloads(up: FakeUpstream) -> list[str]:
    return [r.path for r in up.requests if r.path.endswith((".whl", ".tgz", ".tar.gz"))]


@pytest.mark.parametrize(("scenario", "eco", "pkg", "version", "endings"), CASES)
def test_the_unpacked_tree_is_the_dist_folder(tmp_path, scenario, eco, pkg, version, endings):
    dist = SCENARIOS / scenario / "upstream" / eco / pkg / "dist" / version
    with FakeUpstream.for_scenario(SCENARIOS / scenario) as up:
        settings = loopback_settings(up.url, tmp_path / "cache")
        got = fetch_release(Http(settings), settings, eco, pkg, version)
        assert isinstance(got, ReleaseFiles), got
        assert got.artifact == f"{pkg}-{version} {'wheel' if eco == 'pip' else 'tarball'}"
        want = _tree(dist, endings)
        assert want and _tree(got.root) == want
        assert got.files == len(want)
        assert len(_downloads(up)) == 1


def test_a_warm_run_downloads_nothing(tmp_path):
    with FakeUpstream.for_scenario(SCENARIOS / "pip-urllib3-retry") as up:
        settings = loopback_settings(up.url, tmp_path / "cache")
        first = fetch_release(Http(settings), settings, "pip", "urllib3", "2.0.7")
        assert isinstance(first, ReleaseFiles) and len(_downloads(up)) == 1
        # the unpacked folder gone: the cached artifact is verified and unpacked again

        shutil.rmtree(first.root)
        again = fetch_release(Http(settings), settings, "pip", "urllib3", "2.0.7")
        third = fetch_release(Http(settings), settings, "pip", "urllib3", "2.0.7")
        assert again == third == first
        assert len(_downloads(up)) == 1


def test_a_damaged_cached_artifact_is_downloaded_again(tmp_path):
    with FakeUpstream.for_scenario(SCENARIOS / "npm-node-fetch-esm") as up:
        settings = loopback_settings(up.url, tmp_path / "cache")
        first = fetch_release(Http(settings), settings, "npm", "node-fetch", "3.3.2")
        assert isinstance(first, ReleaseFiles)

        shutil.rmtree(first.root)
        (cached,) = (tmp_path / "cache" / "artifacts" / "sha512").iterdir()
        cached.write_bytes(b"not the tarball")
        again = fetch_release(Http(settings), settings, "npm", "node-fetch", "3.3.2")
        assert again == first and len(_downloads(up)) == 2


def test_the_run_s_registries_are_not_asked_twice(tmp_path):
    with FakeUpstream.for_scenario(SCENARIOS / "pip-urllib3-retry") as up:
        settings = loopback_settings(up.url, None)
        http = Http(settings)
        regs = Registries(settings, http)
        regs.info("pip", "urllib3")
        got = fetch_release(http, settings, "pip", "urllib3", "2.0.7", registries=regs)
        assert isinstance(got, ReleaseFiles)
        assert [r.path for r in up.requests if r.path.startswith("/pypi/")] == [
            "/pypi/urllib3/json"
        ]


def test_a_version_without_files_is_a_problem(tmp_path):
    with FakeUpstream.for_scenario(SCENARIOS / "pip-urllib3-retry") as up:
        settings = loopback_settings(up.url, tmp_path / "cache")
        got = fetch_release(Http(settings), settings, "pip", "urllib3", "2.1.0")
        assert got == Problem("urllib3 2.1.0: the package index lists no files for 2.1.0")
        assert _downloads(up) == []


def test_a_failing_download_is_a_problem(tmp_path):
    faults = [{"package": "node-fetch", "kind": "server_error", "times": 0, "endpoint": "artifact"}]
    up_dir = SCENARIOS / "npm-node-fetch-esm" / "upstream"
    with FakeUpstream(up_dir, faults, versions={("npm", "node-fetch"): ["3.3.2"]}) as up:
        settings = loopback_settings(up.url, tmp_path / "cache", http_retries=1)
        got = fetch_release(Http(settings), settings, "npm", "node-fetch", "3.3.2")
        assert isinstance(got, Problem)
        assert got.reason.startswith("node-fetch-3.3.2 tarball: download failed (")
        assert "server error" in got.reason and "\n" not in got.reason
        assert not (tmp_path / "cache" / "unpacked").exists()
