"""What the user configured is trusted wherever it resolves; what the data names is guarded.

An internal mirror (Artifactory, Nexus, devpi, Verdaccio) on 127.0.0.1 or a 10.x address,
under a path prefix, works with the default ``allow_private_hosts=False``. A host that only
a redirect or a fetched link names must be one of the allowed hosts. Every server here is
on 127.0.0.1 and every request is bounded by ``http_timeout`` (2 s).
"""

from __future__ import annotations

import pytest

from depbot.core.errors import UpstreamError
from depbot.core.net import Http
from depbot.core.settings import DEFAULT_RAW_URL, Settings
from depbot.fakes.loopback import LoopbackServer, Reply

MIRROR = "/artifactory/api/pypi/pypi-remote"  # a mirror answers the same JSON under a prefix


def _ok(req):
    return Reply(200, {"ok": True, "path": req.path})


def _settings(**values: object) -> Settings:
    values.setdefault("cache_dir", None)
    return Settings(http_timeout=2.0, http_retries=0, **values)  # type: ignore[arg-type]


def test_a_mirror_on_loopback_is_reached_with_default_settings():
    with LoopbackServer(_ok) as mirror:
        settings = Settings.from_env(
            {"DEPBOT_PYPI_URL": mirror.url + MIRROR, "DEPBOT_NO_CACHE": "1"}, http_timeout=2.0
        )
        assert settings.allow_private_hosts is False
        answer = Http(settings).get_json(settings.pypi_url + "/pypi/x/json", what="x")
    assert answer == {"ok": True, "path": MIRROR + "/pypi/x/json"}


@pytest.mark.parametrize("endpoint", ["pypi_url", "npm_url", "github_api_url", "raw_url"])
def test_every_configured_endpoint_on_loopback_is_reached(endpoint):
    with LoopbackServer(_ok) as srv:
        http = Http(_settings(**{endpoint: srv.url + "/prefix"}))
        assert http.get_json(srv.url + "/prefix/x", what="x")["ok"] is True
        assert len(srv.log) == 1


@pytest.mark.parametrize(
    "host",
    ["10.0.0.5:8081", "172.16.3.4", "192.168.1.1:8443", "127.0.0.1:9", "localhost:9",
     "[::1]:9", "[fd00::1]", "169.254.169.254", "100.64.0.1"],
)  # fmt: skip
def test_a_configured_endpoint_is_never_refused_for_its_address(host):
    http = Http(_settings(npm_url=f"http://{host}/npm"))
    http.check_url(f"http://{host}/npm/left-pad")  # no error: the user configured it


def test_a_redirect_from_the_mirror_to_an_unconfigured_loopback_port_is_refused():
    with LoopbackServer(_ok) as victim, LoopbackServer(_ok) as mirror:
        mirror.handler = lambda req: Reply(302, "", {"Location": victim.url + "/steal"})
        http = Http(_settings(pypi_url=mirror.url + MIRROR))
        with pytest.raises(UpstreamError) as err:
            http.get(mirror.url + MIRROR + "/pypi/x/json", what="x")
    assert err.value.kind == "refused"
    assert "not a configured registry or GitHub host" in str(err.value)
    assert len(mirror.log) == 1
    assert victim.log == []


def test_a_data_named_loopback_url_on_another_port_is_refused():
    with LoopbackServer(_ok) as victim, LoopbackServer(_ok) as mirror:
        http = Http(_settings(pypi_url=mirror.url, allow_private_hosts=True))
        with pytest.raises(UpstreamError) as err:
            http.get(victim.url + "/latest/meta-data", what="a changelog link")
    assert err.value.kind == "refused"
    assert victim.log == [] and mirror.log == []


def test_the_raw_file_endpoint_is_a_setting_and_an_allowed_host():
    assert Settings().raw_url == DEFAULT_RAW_URL == "https://raw.githubusercontent.com"
    assert "raw.githubusercontent.com" in Settings().upstream_hosts
    settings = Settings.from_env({"DEPBOT_RAW_URL": "http://10.1.2.3:8081/raw/"})
    assert settings.raw_url == "http://10.1.2.3:8081/raw"
    assert "10.1.2.3:8081" in settings.upstream_hosts
    assert "raw.githubusercontent.com" not in settings.upstream_hosts


def test_an_allowed_host_only_the_data_names_must_be_public_unless_allowed():
    """An artifact file host is allowed but not configured: on loopback it needs the flag."""
    with LoopbackServer(_ok) as files, LoopbackServer(_ok) as mirror:
        files_host = files.url.removeprefix("http://")
        mirror.handler = lambda req: Reply(302, "", {"Location": files.url + "/x.tar.gz"})
        guarded = _settings(pypi_url=mirror.url, artifact_hosts=(files_host,))
        assert files_host in guarded.upstream_hosts - guarded.configured_hosts
        for url in (files.url + "/x.tar.gz", mirror.url + "/redirects"):
            with pytest.raises(UpstreamError, match="private, loopback or reserved address") as err:
                Http(guarded).get(url, what="x")
            assert err.value.kind == "refused"
        assert files.log == []
        allowed = guarded.replace(allow_private_hosts=True)
        assert Http(allowed).get_json(mirror.url + "/redirects", what="x")["path"] == "/x.tar.gz"
        assert len(files.log) == 1


def test_a_name_that_rebinds_to_loopback_after_the_check_is_refused_on_connect(monkeypatch):
    """#28 item 13: public for the check, 127.0.0.1 for the connection (DNS rebinding).

    The resolver is the operating system's; here a name answers 93.184.216.34 the first
    time it is looked up and 127.0.0.1 after, as a rebinding DNS server would. Before, the
    check passed on the first answer and the request reached the loopback server."""
    import socket

    real = socket.getaddrinfo
    seen: list[str] = []

    def rebinding(host, port, *args, **kwargs):
        if host != "files.rebind.test":
            return real(host, port, *args, **kwargs)
        seen.append(host)
        addr = "93.184.216.34" if len(seen) == 1 else "127.0.0.1"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (addr, port or 0))]

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    with LoopbackServer(_ok) as files:
        port = files.url.rsplit(":", 1)[1]
        host = f"files.rebind.test:{port}"
        settings = _settings(artifact_hosts=(host,))
        with pytest.raises(UpstreamError, match="checked on the connection itself") as err:
            Http(settings).get(f"http://{host}/x.tar.gz", what="x")
        assert err.value.kind == "refused"
        assert len(seen) >= 2  # checked, then resolved again to connect
        assert files.log == []  # nothing reached the loopback server
        # the user's own endpoint on loopback is trusted wherever it resolves, as before
        mirror = _settings(pypi_url=files.url)
        assert Http(mirror).get_json(files.url + "/pypi/x/json", what="x")["ok"] is True
