"""Where depbot may send a request: only the configured registries and GitHub API.

Every check runs against real loopback servers: a "victim" server stands for anything
depbot must never reach (another host, a cloud metadata address, an internal service),
and each test asserts that it saw no request at all, not just that depbot reported an
error. Covered: other hosts and ports, non-HTTP schemes, credentials in URLs, private
and loopback addresses named by data (refused; the configured endpoints are trusted
wherever they resolve), redirects (to other hosts, to private addresses, to other schemes, in
loops), ``Link`` pagination and changelog links that point elsewhere, proxies and
``.netrc`` from the environment, where the GitHub token goes, and response size caps
(including a 50 MB changelog, refused before it is read).
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from depbot.changelogs.fetch import ChangelogFetcher
from depbot.core.errors import UpstreamError
from depbot.core.net import Http
from depbot.core.settings import Settings
from depbot.fakes.loopback import LoopbackServer, Reply
from depbot.fakes.upstream import FakeUpstream
from depbot.github.client import GitHubClient
from depbot.models.rules import RulesModel
from depbot.pipeline.run import triage
from depbot.records.update import Update
from tests.helpers.settings import loopback_settings
from tests.helpers.worlds import settings_for, two_package_world, write_tree


@pytest.fixture
def victim():
    """A server depbot must never contact."""
    with LoopbackServer(lambda req: Reply(200, {"secret": "internal data"})) as srv:
        yield srv


def _ok(req):
    return Reply(200, {"ok": True})


# -- hosts and schemes ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "https://evil.example/pypi/x/json",
        "http://pypi.org.evil.example/pypi/x/json",
        "file:///etc/passwd",
        "ftp://{host}/x",
        "gopher://{host}/x",
        "data:text/plain,hello",
        "javascript:alert(1)",
        "//{host}/x",
        "http://user:pass@{host}/x",
        "http://{host}@evil.example/x",
    ],
)
def test_only_http_to_a_configured_host(url):
    with LoopbackServer(_ok) as srv:
        http = Http(loopback_settings(srv.url))
        target = url.format(host=srv.url.split("//", 1)[1])
        with pytest.raises(UpstreamError) as err:
            http.get(target, what="x")
        assert err.value.kind == "refused"
        assert srv.log == []


def test_the_same_host_on_another_port_is_another_host(victim):
    with LoopbackServer(_ok) as srv:
        http = Http(loopback_settings(srv.url))
        assert http.get_json(srv.url + "/pypi/x/json", what="x") == {"ok": True}
        with pytest.raises(UpstreamError, match="not a configured registry or GitHub host"):
            http.get(victim.url + "/pypi/x/json", what="x")
    assert victim.log == []


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1",
        "localhost",
        "127.1",
        "2130706433",  # 127.0.0.1 as one decimal number
        "0x7f000001",
        "[::1]",
        "[::ffff:127.0.0.1]",
        "0.0.0.0",
        "10.0.0.5",
        "172.16.3.4",
        "192.168.1.1",
        "169.254.169.254",  # cloud instance metadata
        "[fd00::1]",
        "100.64.0.1",  # carrier-grade NAT
    ],
)
def test_private_and_loopback_addresses_named_by_data_are_refused(host):
    """A private address the registry did not configure is refused before connecting, even
    with ``allow_private_hosts`` (a configured one is trusted: tests/core/test_trusted_hosts.py)."""
    for allow in (False, True):
        settings = Settings(cache_dir=None, http_retries=0, allow_private_hosts=allow)
        http = Http(settings, sleep=lambda _s: None)
        with pytest.raises(UpstreamError) as err:
            http.get(f"http://{host}:9/pypi/x/json", what="package index entry for x")
        assert err.value.kind == "refused"
        assert "not a configured registry or GitHub host" in str(err.value)


def test_allow_private_hosts_is_off_by_default_and_in_the_environment():
    assert Settings().allow_private_hosts is False
    assert Settings.from_env({}).allow_private_hosts is False
    assert Settings.from_env({"DEPBOT_ALLOW_PRIVATE_HOSTS": "1"}).allow_private_hosts is True


def test_a_loopback_registry_the_user_configured_is_contacted_without_the_setting():
    with LoopbackServer(_ok) as srv:
        settings = loopback_settings(srv.url, allow_private_hosts=False)
        assert Http(settings).get_json(srv.url + "/pypi/x/json", what="x") == {"ok": True}
        assert len(srv.log) == 1


# -- redirects ----------------------------------------------------------------------------------


def _redirect_to(location: str, status: int = 302):
    return lambda req: Reply(status, "", {"Location": location})


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_to_another_host_is_refused(victim, status):
    with LoopbackServer(_redirect_to(victim.url + "/steal", status)) as srv:
        http = Http(loopback_settings(srv.url, http_retries=0))
        with pytest.raises(UpstreamError) as err:
            http.get(srv.url + "/pypi/x/json", what="x")
    assert err.value.kind == "refused"
    assert victim.log == []


@pytest.mark.parametrize(
    "location",
    [
        "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
        "http://localhost:1/admin",
        "file:///etc/passwd",
        "ftp://example.com/x",
        "http://user:pw@{host}/pypi/x/json",
    ],
)
def test_a_redirect_to_a_private_address_or_another_scheme_is_refused(location):
    with LoopbackServer(_ok) as target:
        host = target.url.split("//", 1)[1]
        with LoopbackServer(_redirect_to(location.format(host=host))) as srv:
            http = Http(loopback_settings(srv.url, http_retries=0))
            with pytest.raises(UpstreamError) as err:
                http.get(srv.url + "/pypi/x/json", what="x")
        assert err.value.kind == "refused"
        assert target.log == []


def test_a_redirect_within_the_host_is_followed_and_a_loop_is_cut():
    def handler(req):
        if req.path == "/old":
            return Reply(301, "", {"Location": "/pypi/x/json"})
        if req.path == "/loop":
            return Reply(302, "", {"Location": "/loop"})
        return Reply(200, {"ok": True})

    with LoopbackServer(handler) as srv:
        http = Http(loopback_settings(srv.url, http_retries=0))
        assert http.get_json(srv.url + "/old", what="x") == {"ok": True}
        with pytest.raises(UpstreamError, match="too many redirects"):
            http.get(srv.url + "/loop", what="x")
        assert len(srv.requests("/loop")) == 6  # the first answer and five redirects, no more


def test_a_redirect_to_another_configured_host_drops_the_token():
    """The registry may send depbot to the GitHub host (both configured): the token stays home."""
    with LoopbackServer(_ok) as github, LoopbackServer(_redirect_to("")) as registry:
        registry.handler = _redirect_to(github.url + "/github/repos/o/r")
        settings = Settings(
            pypi_url=registry.url,
            npm_url=registry.url + "/npm",
            github_api_url=github.url + "/github",
            allow_private_hosts=True,
            cache_dir=None,
        )
        http = Http(settings)
        http.get(
            registry.url + "/pypi/x/json", what="x", headers={"Authorization": "token ghp_secret"}
        )
        (req,) = github.log
        assert "authorization" not in req.headers
        assert registry.log[0].headers.get("authorization") == "token ghp_secret"


# -- links that point elsewhere ------------------------------------------------------------------


def test_github_pagination_to_another_host_is_not_followed(victim):
    def github(req):
        if req.path.endswith("/releases"):
            release = {"tag_name": "v1.0.0", "name": "1.0.0", "body": "- fix", "draft": False,
                       "prerelease": False, "html_url": "https://github.com/o/r/releases/tag/v1.0.0"}  # fmt: skip
            nxt = f'<{victim.url}/github/repos/o/r/releases?page=2>; rel="next"'
            return Reply(200, [release], {"Link": nxt})
        return Reply(404, {"message": "Not Found"})

    with LoopbackServer(github) as srv:
        settings = loopback_settings(srv.url)
        client = GitHubClient(settings, Http(settings))
        with pytest.raises(UpstreamError):
            client.releases("o/r")
    assert victim.log == []


def test_a_changelog_link_to_another_site_is_named_but_never_fetched(tmp_path, victim):
    write_tree(
        tmp_path / "upstream",
        {
            "pip/linky/meta.json": json.dumps(
                {
                    "repository": "https://github.com/example/linky",
                    "project_urls": {
                        "Changelog": victim.url + "/CHANGELOG.md",
                        "Release notes": "file:///etc/passwd",
                        "Source": "https://github.com/example/linky",
                    },
                }
            ),
            "pip/linky/CHANGELOG.md": "# Changes\n\n## 2.0.0\n\n- Removed `linky.old()`.\n",
        },
    )
    with FakeUpstream(tmp_path / "upstream", versions={("pip", "linky"): ["1.0.0"]}) as up:
        settings = loopback_settings(up.url)
        fetcher = ChangelogFetcher(settings, Http(settings))
        result = fetcher.fetch("pip", "linky", "1.0.0", "2.0.0")
    assert [s.version for s in result.sections] == ["2.0.0"]  # read from the repository
    assert any("not on GitHub, not read" in t for t in result.sources_tried)
    assert victim.log == []


def test_the_environment_cannot_add_a_proxy_or_credentials(tmp_path, monkeypatch, victim):
    """Settings made in code ignore HTTP(S)_PROXY (only Settings.from_env reads them, see
    tests/core/test_tls_proxy.py) and ~/.netrc is never read: no credentials leave."""
    monkeypatch.setenv("HTTP_PROXY", victim.url)
    monkeypatch.setenv("HTTPS_PROXY", victim.url)
    monkeypatch.setenv("ALL_PROXY", victim.url)
    monkeypatch.setenv("NO_PROXY", "")
    (tmp_path / ".netrc").write_text("machine 127.0.0.1 login stolen password netrc-secret\n")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("NETRC", str(tmp_path / ".netrc"))
    with LoopbackServer(_ok) as srv:
        http = Http(loopback_settings(srv.url))
        assert http.get_json(srv.url + "/pypi/x/json", what="x") == {"ok": True}
        assert "authorization" not in srv.log[0].headers
    assert victim.log == []


def test_the_github_token_goes_to_the_github_api_only(tmp_path):
    world = two_package_world(tmp_path)
    token = "ghp_boundaryToken000000000000000000000001"
    with world.serve() as up:
        settings = settings_for(up, github_token=token)
        triage(
            settings, repo=world.repo, updates=world.updates, model=RulesModel(),
            out_dir=tmp_path / "out",
        )  # fmt: skip
        log = up.requests
    github = [r for r in log if r.path.startswith("/github/")]
    registry = [r for r in log if not r.path.startswith("/github/")]
    assert github and registry
    assert all(token in r.headers.get("authorization", "") for r in github)
    assert not any("authorization" in r.headers for r in registry)


# -- sizes ----------------------------------------------------------------------------------------


def test_an_announced_oversized_body_is_refused_before_it_is_read():
    sent = {"bytes": 0}

    def big(req):
        sent["bytes"] += 1
        return Reply(200, b"x" * 2_000_000)

    with LoopbackServer(big) as srv:
        http = Http(loopback_settings(srv.url, max_response_bytes=100_000, http_retries=0))
        with pytest.raises(UpstreamError) as err:
            http.get(srv.url + "/pypi/x/json", what="x")
    assert err.value.kind == "too_large" and "limit 100000" in str(err.value)


def test_an_unannounced_oversized_body_is_cut_off_while_streaming():
    """A server that sends no Content-Length: the cap applies to the bytes as they arrive."""

    class H(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            try:
                for _ in range(300):
                    self.wfile.write(b"z" * 10_000)
            except OSError:
                pass

        def log_message(self, *a):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), H)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        http = Http(loopback_settings(url, max_response_bytes=200_000, http_retries=0))
        with pytest.raises(UpstreamError) as err:
            http.get(url + "/pypi/x/json", what="x")
        assert err.value.kind == "too_large" and "more than 200000" in str(err.value)
    finally:
        server.shutdown()
        server.server_close()


def test_a_50_megabyte_changelog_is_refused_quickly(tmp_path):
    """A 50 MB CHANGELOG.md (about 67 MB of JSON from the contents API) never gets read."""
    world = two_package_world(tmp_path)
    line = "- " + "filler text for a very long changelog line. " * 22 + "\n"  # ~1 KB
    huge = "# Changelog\n\n## 2.0.0\n\n- `oldlib.legacy()` was removed.\n" + line * 54_000
    assert len(huge) > 50 * 1024 * 1024
    (world.upstream / "pip" / "oldlib" / "CHANGELOG.md").write_text(huge)
    with world.serve() as up:
        settings = settings_for(up)  # the default cap: 10 MB
        result = triage(
            settings, repo=world.repo, updates=world.updates, model=RulesModel(),
            out_dir=tmp_path / "out",
        )  # fmt: skip
    verdicts = {v.update.package: v for v in result.verdicts}
    old = verdicts["oldlib"]
    assert old.verdict == "unknown"  # a major whose notes could not be had: never "safe"
    assert "more than" in old.reason or "limit" in old.reason or "too large" in old.reason
    assert verdicts["otherlib"].verdict == "not_affected"
    # refused on its announced length: not one byte of the 50 MB was read
    assert result.stats["http"].get("bytes", 0) < 1024 * 1024


def _release_bomb(tmp_path: Path) -> Path:
    body = "- a release note line that goes on for a while\n" * 40_000  # ~2 MB a release
    releases = [
        {"tag_name": f"v3.0.{i}", "name": f"3.0.{i}", "body": body} for i in range(8, 0, -1)
    ]
    write_tree(tmp_path / "upstream", {"npm/bigrel/releases.json": json.dumps(releases)})
    return tmp_path / "upstream"


def test_a_release_list_over_the_cap_is_an_error_not_a_crash(tmp_path):
    upstream = _release_bomb(tmp_path)
    with FakeUpstream(upstream, versions={("npm", "bigrel"): ["3.0.0"]}) as up:
        settings = loopback_settings(up.url, max_response_bytes=5 * 1024 * 1024)
        fetcher = ChangelogFetcher(settings, Http(settings))
        result = fetcher.fetch("npm", "bigrel", "3.0.0", "3.0.8")
    assert result.sections == []
    assert any("large" in e or "more than" in e for e in result.errors), result.errors
    update = Update("npm", "bigrel", "3.0.0", "3.0.8")
    assert not update.may_break  # a patch: the semver promise decides, and says so
