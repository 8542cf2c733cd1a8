"""The CA bundle, the OS trust store and proxies, as requests and pip users set them.

Real TLS on loopback: a throwaway CA (trustme) signs the servers' certificates, and nothing
but the CA bundle setting trusts it. A loopback forward proxy (tests/helpers/proxy.py)
tunnels CONNECT and forwards plain requests, counting both. Both the HTTP seam and the real
``openai`` client (against ModelServer) are driven through their URL settings. Everything
binds 127.0.0.1; each request is bounded by a 2 s timeout (3 s for the model), each test
takes well under 5 s.
"""

from __future__ import annotations

import sys
import time

import pytest

from depbot.core.errors import ConfigError, ModelError, UpstreamError
from depbot.core.net import Http
from depbot.core.proxies import bypassed, proxy_for
from depbot.core.settings import Settings
from depbot.fakes.loopback import LoopbackServer, Reply
from depbot.fakes.model_server import ModelServer, completion
from depbot.models.openai_chat import OpenAIChatModel
from tests.helpers.proxy import LoopbackProxy
from tests.helpers.tls import own_ca

TLS_MESSAGE = (
    "TLS verification failed for 127.0.0.1: set REQUESTS_CA_BUNDLE (or SSL_CERT_FILE) "
    "to your CA bundle, or DEPBOT_TRUSTSTORE=1"
)
HI = [{"role": "user", "content": "hi"}]


def _ok(req):
    return Reply(200, {"ok": True})


def _settings(base: str, **values: object) -> Settings:
    """The registry and the model at ``base``; fast, no retries to wait for."""
    values = {"pypi_url": base, "openai_base_url": f"{base}/v1", "cache_dir": None,
              "http_timeout": 2.0, "http_retries": 2, "retry_backoff": 0.01,
              "model_timeout": 3.0, **values}  # fmt: skip
    return Settings(**values)  # type: ignore[arg-type]


def _chat(req):
    body = req.json()
    return Reply(200, completion({"content": "done"}, body, 1))


@pytest.fixture
def ca(tmp_path):
    return own_ca(tmp_path)


@pytest.fixture
def tls_server(ca):
    def handler(req):
        return _chat(req) if req.path.endswith("/chat/completions") else _ok(req)

    with LoopbackServer(handler, ssl_context=ca.server_context()) as srv:
        yield srv


# -- the CA bundle -----------------------------------------------------------------------------


def test_the_seam_trusts_the_configured_ca_bundle(ca, tls_server, tmp_path):
    assert tls_server.url.startswith("https://127.0.0.1:")
    http = Http(_settings(tls_server.url, ca_bundle=str(ca.bundle)))
    assert http.get_json(tls_server.url + "/pypi/x/json", what="x") == {"ok": True}
    cached = Http(_settings(tls_server.url, ca_bundle=str(ca.bundle), cache_dir=tmp_path / "c"))
    assert cached.get_json(tls_server.url + "/pypi/x/json", what="x") == {"ok": True}


@pytest.mark.parametrize("variable", ["REQUESTS_CA_BUNDLE", "SSL_CERT_FILE", "CURL_CA_BUNDLE"])
def test_the_ca_bundle_comes_from_the_standard_variables(ca, tls_server, variable):
    env = {variable: str(ca.bundle), "DEPBOT_PYPI_URL": tls_server.url, "DEPBOT_NO_CACHE": "1"}
    settings = Settings.from_env(env, http_timeout=2.0)
    assert settings.ca_bundle == str(ca.bundle)
    assert Http(settings).get_json(tls_server.url + "/x", what="x") == {"ok": True}


def test_without_the_ca_bundle_the_seam_says_tls_at_once_and_does_not_retry(tls_server):
    http = Http(_settings(tls_server.url))
    started = time.monotonic()
    with pytest.raises(UpstreamError) as err:
        http.get(tls_server.url + "/pypi/x/json", what="package index entry for x")
    assert time.monotonic() - started < 1.5
    assert err.value.kind == "tls" and not err.value.transient
    assert str(err.value) == f"package index entry for x: {TLS_MESSAGE}"
    assert http.stats["requests"] == 1  # not retried
    assert tls_server.log == []


def test_a_ca_bundle_that_is_not_there_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="REQUESTS_CA_BUNDLE names .*missing.pem"):
        Settings.from_env({"REQUESTS_CA_BUNDLE": str(tmp_path / "missing.pem")})
    with pytest.raises(ConfigError, match="does not exist"):
        Http(Settings(ca_bundle=str(tmp_path / "missing.pem"), cache_dir=None))


@pytest.mark.skipif(sys.platform != "linux", reason="on Linux the OS store is OpenSSL's")
def test_truststore_verifies_with_the_os_store(ca, tls_server, monkeypatch):
    """On Linux the OS store is OpenSSL's default paths (SSL_CERT_FILE); certifi ignores them."""
    assert Settings.from_env({"DEPBOT_TRUSTSTORE": "1"}).truststore is True
    monkeypatch.setenv("SSL_CERT_FILE", str(ca.bundle))  # the CA as the OS store would hold it
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    with pytest.raises(UpstreamError) as err:
        Http(_settings(tls_server.url)).get(tls_server.url + "/x", what="x")
    assert err.value.kind == "tls"
    http = Http(_settings(tls_server.url, truststore=True))
    assert http.get_json(tls_server.url + "/x", what="x") == {"ok": True}


# -- proxies for the seam ----------------------------------------------------------------------


def test_the_seam_tunnels_https_through_the_proxy(ca, tls_server):
    with LoopbackProxy() as proxy:
        settings = _settings(tls_server.url, ca_bundle=str(ca.bundle), https_proxy=proxy.url)
        http = Http(settings)
        assert http.get_json(tls_server.url + "/pypi/x/json", what="x") == {"ok": True}
        http.close()
    assert proxy.connects == [tls_server.url.removeprefix("https://")]
    assert len(tls_server.log) == 1


def test_the_seam_sends_http_through_the_proxy_from_the_environment():
    with LoopbackServer(_ok) as srv, LoopbackProxy() as proxy:
        env = {"http_proxy": proxy.url, "DEPBOT_PYPI_URL": srv.url, "DEPBOT_NO_CACHE": "1"}
        http = Http(Settings.from_env(env, http_timeout=2.0))
        assert http.get_json(srv.url + "/pypi/x/json", what="x") == {"ok": True}
    assert proxy.forwarded == [srv.url + "/pypi/x/json"]
    assert proxy.connects == []


def test_no_proxy_goes_direct(ca, tls_server):
    with LoopbackServer(_ok) as plain, LoopbackProxy() as proxy:
        env = {"HTTPS_PROXY": proxy.url, "HTTP_PROXY": proxy.url, "NO_PROXY": "localhost,127.0.0.1"}
        settings = Settings.from_env(env, pypi_url=tls_server.url, npm_url=plain.url,
                                     ca_bundle=str(ca.bundle), cache_dir=None)  # fmt: skip
        assert settings.no_proxy == "localhost,127.0.0.1"
        http = Http(settings)
        assert http.get_json(tls_server.url + "/x", what="x") == {"ok": True}
        assert http.get_json(plain.url + "/x", what="x") == {"ok": True}
    assert proxy.connects == [] and proxy.forwarded == []


@pytest.mark.parametrize("refusing", ["403", "closed port"])
def test_a_proxy_that_refuses_is_named(ca, tls_server, refusing):
    with LoopbackProxy(refuse=True) as proxy:
        url = proxy.url
        if refusing == "closed port":
            proxy.stop()  # nothing listens there any more
        settings = _settings(
            tls_server.url, ca_bundle=str(ca.bundle), https_proxy=url.replace("//", "//u:pw@")
        )
        http = Http(settings)
        started = time.monotonic()
        with pytest.raises(UpstreamError) as err:
            http.get(tls_server.url + "/x", what="x")
        assert time.monotonic() - started < 1.5
    host = url.removeprefix("http://")
    assert str(err.value) == (
        f"x: the proxy {host} refused the connection to 127.0.0.1 (HTTPS_PROXY)"
    )
    assert err.value.kind == "proxy" and http.stats["requests"] == 1
    assert "pw" in settings.secrets() and "pw" not in str(err.value)
    assert tls_server.log == []


def test_a_name_that_does_not_resolve_says_dns():
    http = Http(_settings("http://depbot-test.invalid"))  # .invalid never resolves (RFC 6761)
    with pytest.raises(UpstreamError) as err:
        http.get("http://depbot-test.invalid/pypi/x/json", what="x")
    assert err.value.kind == "dns" and not err.value.transient
    assert str(err.value) == "x: depbot-test.invalid: DNS lookup failed"


# -- the openai client -------------------------------------------------------------------------


def test_the_model_client_goes_through_the_proxy_and_no_proxy_bypasses_it():
    with ModelServer(lambda body: {"content": "done"}) as srv, LoopbackProxy() as proxy:
        base = srv.server.url
        reply = OpenAIChatModel("m", _settings(base, http_proxy=proxy.url)).complete(HI, [])
        assert reply.message["content"] == "done"
        assert proxy.forwarded == [base + "/v1/chat/completions"]
        direct = _settings(base, http_proxy=proxy.url, no_proxy="127.0.0.0/8")
        assert OpenAIChatModel("m", direct).complete(HI, []).message["content"] == "done"
        assert len(proxy.forwarded) == 1
    assert len(srv.requests) == 2


def test_the_model_client_trusts_the_ca_bundle_and_tunnels_through_the_proxy(ca, tls_server):
    with LoopbackProxy() as proxy:
        settings = _settings(tls_server.url, ca_bundle=str(ca.bundle), https_proxy=proxy.url)
        assert OpenAIChatModel("m", settings).complete(HI, []).message["content"] == "done"
    assert proxy.connects == [tls_server.url.removeprefix("https://")]
    assert [r.path for r in tls_server.log] == ["/v1/chat/completions"]


def test_the_model_client_without_the_ca_bundle_says_tls(tls_server):
    model = OpenAIChatModel("m", _settings(tls_server.url))
    with pytest.raises(ModelError) as err:
        model.complete(HI, [])
    assert str(err.value) == TLS_MESSAGE and not err.value.transient
    assert tls_server.log == []


def test_the_model_client_names_a_refusing_proxy(ca, tls_server):
    with LoopbackProxy(refuse=True) as proxy:
        settings = _settings(tls_server.url, ca_bundle=str(ca.bundle), https_proxy=proxy.url)
        with pytest.raises(ModelError) as err:
            OpenAIChatModel("m", settings).complete(HI, [])
    host = proxy.url.removeprefix("http://")
    assert str(err.value) == f"the proxy {host} refused the connection to 127.0.0.1 (HTTPS_PROXY)"
    assert proxy.connects and tls_server.log == []


# -- NO_PROXY, as curl and requests read it ------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "port", "no_proxy", "direct"),
    [
        ("mirror.corp", 443, "corp", True),
        ("mirror.corp", 443, ".corp", True),
        ("mirror.corp", 443, "*.corp", True),
        ("corp", 443, ".corp", True),
        ("mirrorcorp", 443, "corp", False),
        ("pypi.org", 443, "mirror.corp, *", True),
        ("pypi.org", 443, "mirror.corp", False),
        ("10.1.2.3", 8081, "10.0.0.0/8", True),
        ("11.1.2.3", 8081, "10.0.0.0/8", False),
        ("10.1.2.3", 8081, "10.1.2.3:8081", True),
        ("10.1.2.3", 8082, "10.1.2.3:8081", False),
        ("::1", 80, "::1", True),
        ("::1", 80, "[::1]:80", True),
        ("MIRROR.Corp", 443, "mirror.CORP", True),
        ("pypi.org", 443, "", False),
    ],
)
def test_no_proxy_entries(host, port, no_proxy, direct):
    assert bypassed(host, port, no_proxy) is direct


def test_the_proxy_follows_the_scheme():
    kw = {"https_proxy": "http://p:1", "http_proxy": "http://q:2", "no_proxy": None}
    assert proxy_for("https://pypi.org/x", **kw) == "http://p:1"
    assert proxy_for("http://mirror:8081/x", **kw) == "http://q:2"
    assert proxy_for("https://pypi.org/x", https_proxy=None, http_proxy="http://q:2",
                     no_proxy=None) is None  # fmt: skip


def test_proxy_variables_lower_case_first_and_a_bare_host_gets_http():
    env = {"https_proxy": "proxy.corp:3128", "HTTPS_PROXY": "http://other:1", "NO_PROXY": "corp"}
    settings = Settings.from_env(env)
    assert settings.https_proxy == "http://proxy.corp:3128"
    assert settings.http_proxy is None and settings.no_proxy == "corp"
    with pytest.raises(ConfigError, match="HTTPS_PROXY"):
        Settings.from_env({"HTTPS_PROXY": "socks5://proxy:1080"})


def test_the_line_that_says_a_host_is_down_names_the_ca_settings_or_the_proxy(ca, tls_server):
    """The stderr line is what a user behind an inspecting proxy reads: it says which
    variable to set (TLS) or which proxy refused and where it came from."""
    http = Http(_settings(tls_server.url, breaker_failures=1))
    said: list[str] = []
    http.stderr = said.append
    with pytest.raises(UpstreamError):
        http.get(tls_server.url + "/x", what="x")
    assert said == [
        f"depbot: PyPI ({tls_server.url}) unreachable: TLS handshake failed (set "
        "REQUESTS_CA_BUNDLE (or SSL_CERT_FILE) to your CA bundle, or DEPBOT_TRUSTSTORE=1); "
        "continuing without it: pip updates that may break stay unknown"
    ]
    with LoopbackProxy(refuse=True) as proxy:
        settings = _settings(
            tls_server.url, ca_bundle=str(ca.bundle), https_proxy=proxy.url, breaker_failures=1
        )
        http = Http(settings)
        said.clear()
        http.stderr = said.append
        with pytest.raises(UpstreamError):
            http.get(tls_server.url + "/x", what="x")
    host = proxy.url.removeprefix("http://")
    assert len(said) == 1
    assert (
        f"unreachable: the proxy {host} refused the connection to 127.0.0.1 (HTTPS_PROXY);"
        in said[0]
    )
