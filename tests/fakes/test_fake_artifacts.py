"""The fake upstream's released artifacts: deterministic, and matching their metadata."""

from __future__ import annotations

import base64
import hashlib
import io
import shutil
import tarfile
import zipfile

import pytest

from depbot.core.net import Http
from depbot.fakes.artifacts import build_tarball, build_wheel
from depbot.fakes.upstream import FakeUpstream
from tests.helpers.paths import SHARED_SCENARIOS
from tests.helpers.settings import loopback_settings

SCENARIOS = SHARED_SCENARIOS
URLLIB3 = SCENARIOS / "pip-urllib3-retry"
NODE_FETCH = SCENARIOS / "npm-node-fetch-esm"
pytestmark = pytest.mark.skipif(not SCENARIOS.is_dir(), reason="no shared scenarios")


def test_the_wheel_is_the_same_bytes_every_time():
    dist = URLLIB3 / "upstream/pip/urllib3/dist/2.0.7"
    one, two = build_wheel("urllib3", "2.0.7", dist), build_wheel("urllib3", "2.0.7", dist)
    assert one.data == two.data and one.filename == "urllib3-2.0.7-py3-none-any.whl"
    names = zipfile.ZipFile(io.BytesIO(one.data)).namelist()
    assert "urllib3/util/retry.py" in names
    assert {"METADATA", "WHEEL", "RECORD"} <= {n.split("/")[-1] for n in names}
    tar = build_tarball("node-fetch", "3.3.2", NODE_FETCH / "upstream/npm/node-fetch/dist/3.3.2")
    again = build_tarball("node-fetch", "3.3.2", NODE_FETCH / "upstream/npm/node-fetch/dist/3.3.2")
    assert tar.data == again.data


def test_the_wheel_s_sha256_matches_the_index():
    with FakeUpstream.for_scenario(URLLIB3) as up:
        http = Http(loopback_settings(up.url))
        data = http.get_json(up.url + "/pypi/urllib3/json", what="x")
        (entry,) = data["releases"]["2.0.7"]
        assert entry["packagetype"] == "bdist_wheel" and entry["yanked"] is False
        body = http.get(entry["url"], what="wheel").content
        assert hashlib.sha256(body).hexdigest() == entry["digests"]["sha256"]
        assert len(body) == entry["size"]
        assert data["urls"] == data["releases"][data["info"]["version"]]
        # a version without dist/ keeps its bare entry: no file to download
        assert "url" not in data["releases"]["2.1.0"][0]


def test_the_npm_tarball_s_integrity_matches_the_packument():
    with FakeUpstream.for_scenario(NODE_FETCH) as up:
        http = Http(loopback_settings(up.url))
        doc = http.get_json(up.url + "/npm/node-fetch", what="x")
        dist = doc["versions"]["3.3.2"]["dist"]
        assert dist["tarball"] == f"{up.url}/npm/node-fetch/-/node-fetch-3.3.2.tgz"
        body = http.get(dist["tarball"], what="tarball").content
        sri = "sha512-" + base64.b64encode(hashlib.sha512(body).digest()).decode()
        assert dist["integrity"] == sri
        assert dist["shasum"] == hashlib.sha1(body).hexdigest()
        names = tarfile.open(fileobj=io.BytesIO(body)).getnames()
        assert "package/package.json" in names and all(n.startswith("package/") for n in names)
        assert "dist" not in doc["versions"]["3.0.0"]


def test_an_unknown_artifact_is_not_found():
    with FakeUpstream.for_scenario(NODE_FETCH) as up:
        http = Http(loopback_settings(up.url))
        for path in ("/npm/node-fetch/-/node-fetch-9.9.9.tgz", "/packages/urllib3/2.0.7/x.whl"):
            assert http.send("GET", up.url + path, what="x").status == 404


def test_the_releases_are_packed_before_the_fake_serves(tmp_path):
    """A registry has its files packed: the metadata answers without packing thousands of
    files on the first request. The fake packs them at start, so a release whose folder is
    gone afterwards is still served whole."""
    scenario = tmp_path / "npm-node-fetch-esm"
    shutil.copytree(NODE_FETCH, scenario)
    up = FakeUpstream.for_scenario(scenario).start()
    try:
        shutil.rmtree(scenario / "upstream/npm/node-fetch/dist")
        http = Http(loopback_settings(up.url))
        doc = http.get_json(up.url + "/npm/node-fetch", what="x")
        body = http.get(doc["versions"]["3.3.2"]["dist"]["tarball"], what="tarball").content
        names = tarfile.open(fileobj=io.BytesIO(body)).getnames()
        assert "package/package.json" in names
    finally:
        up.stop()
