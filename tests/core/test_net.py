"""The HTTP seam against a loopback server: retries, policy, caps and the cache."""

from __future__ import annotations

import pytest

from depbot.core.errors import UpstreamError
from depbot.core.net import Http
from depbot.fakes.loopback import LoopbackServer, Reply
from tests.helpers.settings import loopback_settings


class Script:
    """Answers a fixed sequence of replies, then repeats the last one."""

    def __init__(self, *replies: Reply) -> None:
        self.replies = list(replies)
        self.calls = 0

    def __call__(self, req):
        self.calls += 1
        return self.replies[min(self.calls, len(self.replies)) - 1]


def _http(srv, tmp_path=None, **kw):
    sleeps = []
    http = Http(loopback_settings(srv.url, tmp_path, **kw), sleep=sleeps.append)
    return http, sleeps


def test_500_then_200_is_retried():
    script = Script(Reply(500, "boom"), Reply(200, {"ok": True}))
    with LoopbackServer(script) as srv:
        http, sleeps = _http(srv)
        assert http.get_json(f"{srv.url}/pypi/x/json", what="index entry for x") == {"ok": True}
    assert script.calls == 2 and len(sleeps) == 1


def test_retry_after_is_honoured_up_to_the_cap():
    script = Script(Reply(429, "slow down", {"Retry-After": "0.1"}), Reply(200, {"ok": 1}))
    with LoopbackServer(script) as srv:
        http, sleeps = _http(srv)
        http.get_json(srv.url + "/a", what="a")
    assert sleeps == [0.1]


def test_rate_limit_that_never_ends_gives_a_short_sentence():
    with LoopbackServer(Script(Reply(429, "<html>secret page</html>"))) as srv:
        http, sleeps = _http(srv, http_retries=2)
        with pytest.raises(UpstreamError) as err:
            http.get_json(srv.url + "/pypi/flask/json", what="package index entry for flask")
    assert err.value.kind == "rate_limited"
    assert "rate limit" in str(err.value) and "secret page" not in str(err.value)
    assert len(sleeps) == 2


def test_github_style_403_rate_limit():
    with LoopbackServer(Script(Reply(403, "{}", {"X-RateLimit-Remaining": "0"}))) as srv:
        http, _ = _http(srv, http_retries=0)
        with pytest.raises(UpstreamError) as err:
            http.get(srv.url + "/github/repos/o/r/releases", what="releases of o/r")
    assert err.value.kind == "rate_limited"


def test_timeout_is_retried_then_reported():
    with LoopbackServer(Script(Reply(200, "late", delay=1.0))) as srv:
        http, sleeps = _http(srv, http_timeout=0.2, http_retries=1)
        with pytest.raises(UpstreamError) as err:
            http.get(srv.url + "/x", what="x")
    assert err.value.kind == "timeout" and len(sleeps) == 1


def test_connection_reset_and_truncated_body():
    with LoopbackServer(Script(Reply(drop=True))) as srv:
        http, _ = _http(srv, http_retries=0)
        with pytest.raises(UpstreamError) as err:
            http.get(srv.url + "/x", what="x")
        assert err.value.kind == "connection"
    with LoopbackServer(Script(Reply(200, "x" * 1000, truncate=True))) as srv:
        http, _ = _http(srv, http_retries=0)
        with pytest.raises(UpstreamError) as err:
            http.get(srv.url + "/x", what="x")
        assert err.value.kind == "connection"


def test_html_and_garbage_instead_of_json():
    with LoopbackServer(Script(Reply(200, "<!DOCTYPE html><html>login</html>"))) as srv:
        http, _ = _http(srv)
        with pytest.raises(UpstreamError, match="HTML page instead of JSON"):
            http.get_json(srv.url + "/x", what="x")
    with LoopbackServer(Script(Reply(200, '{"releases": [1, 2'))) as srv:
        http, _ = _http(srv)
        with pytest.raises(UpstreamError, match="not valid JSON"):
            http.get_json(srv.url + "/x", what="x")


def test_other_hosts_and_schemes_are_refused():
    with LoopbackServer(Script(Reply(200, "{}"))) as srv:
        http, _ = _http(srv)
        for url in ("https://evil.example/x", "file:///etc/passwd", "ftp://127.0.0.1/x"):
            with pytest.raises(UpstreamError) as err:
                http.get(url, what="x")
            assert err.value.kind == "refused"
        assert srv.log == []


def test_a_configured_loopback_host_needs_no_flag():
    with LoopbackServer(Script(Reply(200, "{}"))) as srv:
        http, _ = _http(srv, allow_private_hosts=False)
        assert http.get_json(srv.url + "/x", what="x") == {}


def test_redirect_to_another_host_is_refused():
    with LoopbackServer(Script(Reply(302, "", {"Location": "https://elsewhere.example/x"}))) as srv:
        http, _ = _http(srv)
        with pytest.raises(UpstreamError) as err:
            http.get(srv.url + "/x", what="x")
    assert err.value.kind == "refused"


def test_response_size_cap():
    with LoopbackServer(Script(Reply(200, "y" * 5000))) as srv:
        http, _ = _http(srv, max_response_bytes=1000)
        with pytest.raises(UpstreamError) as err:
            http.get(srv.url + "/x", what="x")
    assert err.value.kind == "too_large"


def test_cache_revalidates_instead_of_downloading_again(tmp_path):
    with LoopbackServer(Script(Reply(200, "# Changelog\n## 1.0.0\n")), etags=True) as srv:
        http, _ = _http(srv, tmp_path / "cache")
        first = http.get(srv.url + "/c", what="c", category="changelog")
        second = http.get(srv.url + "/c", what="c", category="changelog")
        assert first.text == second.text
        assert http.stats["changelog:downloads"] == 1
        assert http.stats["revalidated"] == 1
        assert srv.log[1].headers.get("if-none-match")
        # a new process (new Http) with the same cache folder revalidates too
        http2, _ = _http(srv, tmp_path / "cache")
        assert http2.get(srv.url + "/c", what="c", category="changelog").text == first.text
        assert http2.stats["changelog:downloads"] == 0


def test_answers_without_validators_are_never_served_from_the_cache(tmp_path):
    script = Script(Reply(200, "v1"), Reply(200, "v2"))
    with LoopbackServer(script, etags=False) as srv:
        http, _ = _http(srv, tmp_path / "cache")
        assert http.get(srv.url + "/x", what="x").text == "v1"
        assert http.get(srv.url + "/x", what="x").text == "v2"
    assert script.calls == 2
