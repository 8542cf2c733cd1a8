"""The cache policy against loopback servers: what a warm rerun asks again, and what it does not.

Every server binds 127.0.0.1 on a free port and stops with its ``with`` block; requests time
out after 2 s (``loopback_settings``). The TTL tests sleep 1.1 s past a 1 s TTL (requests-cache
keeps expiries in whole seconds), so the file takes about 3 s.
"""

from __future__ import annotations

import base64
import json
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import requests_cache

from depbot.changelogs.fetch import ChangelogFetcher
from depbot.core.cache import (
    CACHED_ONLY,
    IMMUTABLE,
    REVALIDATE,
    UNCACHED,
    notes_policy,
    settled,
    ttl,
    vary_without,
)
from depbot.core.errors import UpstreamError
from depbot.core.net import Http
from depbot.core.settings import Settings
from depbot.fakes.loopback import LoopbackServer, Reply
from depbot.fakes.upstream import FakeUpstream
from depbot.github.client import GitHubClient
from depbot.updates.registries import Registries
from tests.helpers.settings import loopback_settings

NOW = datetime.now(timezone.utc)
TOKEN = "ghp_FAKE_TOKEN_for_the_cache_tests_0123456789"
GITHUB_VARY = {"Vary": "Accept, Authorization, Cookie, X-GitHub-OTP"}  # as api.github.com sends


class Script:
    """Answers a fixed sequence of replies, then repeats the last one."""

    def __init__(self, *replies: Reply) -> None:
        self.replies = list(replies)
        self.calls = 0

    def __call__(self, req):
        self.calls += 1
        return self.replies[min(self.calls, len(self.replies)) - 1]


def write(root: Path, rel: str, data: str | list | dict) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")


def day(days_ago: float) -> str:
    return (NOW - timedelta(days=days_ago)).strftime("%Y-%m-%dT%H:%M:%SZ")


def fetcher(up: FakeUpstream, cache: Path, **kw) -> tuple[ChangelogFetcher, Http]:
    kw.setdefault("github_token", TOKEN)  # GitHub answers a token with Vary: Authorization
    http = Http(loopback_settings(up.url, cache, **kw))
    return ChangelogFetcher(http.settings, http), http


def asked(up: FakeUpstream, since: int, part: str, ref: str | None = None) -> list:
    return [
        r
        for r in up.requests[since:]
        if part in r.path and (ref is None or r.query.get("ref") == ref)
    ]


# -- the policy values (pure) -------------------------------------------------------------------


def test_policy_values():
    assert ttl(0) is REVALIDATE and ttl(-5) is REVALIDATE
    assert ttl(0.2).max_age == 1 and ttl(21600).max_age == 21600  # whole seconds, rounded up
    assert REVALIDATE.request_options() == ({"expire_after": 0}, {})
    options, headers = CACHED_ONLY.request_options()
    assert options == {"only_if_cached": True} and headers["Cache-Control"].startswith("max-stale=")
    assert settled(NOW - timedelta(days=4), NOW, 3) and not settled(NOW - timedelta(days=2), NOW, 3)
    assert not settled(None, NOW, 3) and not settled(NOW + timedelta(days=9), NOW, 3)
    assert settled(datetime(2020, 1, 1), NOW, 3)  # a naive date is taken as UTC
    assert vary_without(GITHUB_VARY["Vary"], ["Authorization"]) == "Accept, Cookie, X-GitHub-OTP"
    assert vary_without("authorization", ["Authorization"]) is None


def test_settings_read_the_ttl_and_settle_days_from_the_environment():
    s = Settings.from_env({"DEPBOT_REGISTRY_TTL": "60", "DEPBOT_RELEASE_SETTLE_DAYS": "0.5"})
    assert (s.registry_ttl, s.release_settle_days) == (60.0, 0.5)
    assert (Settings().registry_ttl, Settings().release_settle_days) == (6 * 3600.0, 3.0)


# -- requests-cache itself: why the seam does not use always_revalidate ---------------------------


def test_requests_cache_always_revalidate_overrides_a_per_request_expire_after(tmp_path):
    """requests-cache 1.x: with ``always_revalidate=True`` every stored answer with an ETag is
    revalidated even when the request says it is fresh for an hour; without it, the request's
    ``expire_after`` decides (what the seam relies on)."""
    with LoopbackServer(Script(Reply(200, "notes")), etags=True) as srv:
        for always, want in ((True, 2), (False, 1)):
            session = requests_cache.CachedSession(
                str(tmp_path / f"c{always}"), backend="sqlite", always_revalidate=always
            )
            before = len(srv.log)
            for _ in range(2):
                session.get(srv.url + f"/n{always}", expire_after=3600, timeout=2)
            session.close()
            assert len(srv.log) - before == want, always


# -- the seam ---------------------------------------------------------------------------------


def test_immutable_is_used_with_no_request_and_counted_as_a_cache_hit(tmp_path):
    with LoopbackServer(Script(Reply(200, "artifact bytes")), etags=True) as srv:
        http = Http(loopback_settings(srv.url, tmp_path / "cache"))
        url = srv.url + "/files/sha256-abc.whl"
        assert http.get(url, what="artifact", category="artifact", cache=IMMUTABLE).text
        # a new process with the same cache folder: still nothing sent
        again = Http(loopback_settings(srv.url, tmp_path / "cache"))
        resp = again.get(url, what="artifact", category="artifact", cache=IMMUTABLE)
    assert resp.text == "artifact bytes" and resp.from_cache and not resp.sent
    assert len(srv.log) == 1
    assert http.stats["requests"] == 1 and http.stats["artifact:downloads"] == 1
    assert again.stats["requests"] == 0 and again.stats["cache_hits"] == 1
    assert again.stats.get("artifact:downloads", 0) == 0


def test_an_answer_varying_on_the_token_is_reused_by_another_token(tmp_path):
    """The cache stores no token, so requests-cache cannot check ``Vary: Authorization`` and,
    left alone, sends every such request again in full (GitHub's answers to a token)."""
    with LoopbackServer(Script(Reply(200, {"tag": "v2"}, dict(GITHUB_VARY))), etags=True) as srv:
        url = srv.url + "/github/repos/o/x/contents/CHANGELOG.md?ref=v2"
        for token in ("token A", "token A", "token B"):
            http = Http(loopback_settings(srv.url, tmp_path / "cache"))
            http.get(url, what="file", headers={"Authorization": token}, cache=IMMUTABLE)
        http.get(srv.url + "/m", what="m", headers={"Authorization": "token A"})
        http.get(srv.url + "/m", what="m", headers={"Authorization": "token B"})
    assert [r.path for r in srv.log] == ["/github/repos/o/x/contents/CHANGELOG.md", "/m", "/m"]
    assert srv.log[2].headers.get("if-none-match")  # the mutable one: a 304, no body
    # the last Http: token B's read at the tag from the cache, then /m sent twice
    assert (http.stats["cache_hits"], http.stats["requests"], http.stats["revalidated"]) == (
        1,
        2,
        1,
    )


def test_mutable_is_revalidated_every_time(tmp_path):
    with LoopbackServer(Script(Reply(200, "# Changelog")), etags=True) as srv:
        http = Http(loopback_settings(srv.url, tmp_path / "cache"))
        for _ in range(3):
            http.get(srv.url + "/c", what="c", category="changelog")
    assert len(srv.log) == 3 and all(r.headers.get("if-none-match") for r in srv.log[1:])
    assert http.stats["requests"] == 3 and http.stats["revalidated"] == 2
    assert http.stats.get("cache_hits", 0) == 0


def test_cached_only_never_sends_and_a_miss_is_not_retried(tmp_path):
    with LoopbackServer(Script(Reply(200, "page")), etags=True) as srv:
        http = Http(loopback_settings(srv.url, tmp_path / "cache"))
        miss = http.send("GET", srv.url + "/p", what="p", cache=CACHED_ONLY)
        http.get(srv.url + "/p", what="p")  # stored under REVALIDATE: stale at once
        hit = http.send("GET", srv.url + "/p", what="p", cache=CACHED_ONLY)
        nocache = Http(loopback_settings(srv.url, None))
        none = nocache.send("GET", srv.url + "/p", what="p", cache=CACHED_ONLY)
    assert miss.status == 504 and not miss.sent
    assert hit.status == 200 and hit.text == "page" and not hit.sent
    assert none.status == 504 and not none.sent
    assert len(srv.log) == 1  # only the revalidating GET
    assert http.stats["requests"] == 1 and http.stats.get("retries", 0) == 0
    assert http.stats["cache_misses"] == 1 and http.stats["cache_hits"] == 1


def test_the_old_never_expiring_cache_file_is_not_read(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "http_cache.sqlite").write_bytes(b"old entries stored as never expiring")
    Http(loopback_settings("http://127.0.0.1:9", cache)).close()
    assert not (cache / "http_cache.sqlite").exists()


# -- registry metadata: a TTL ------------------------------------------------------------------


def test_registry_metadata_is_fresh_for_the_ttl_then_revalidated(tmp_path):
    up_dir = tmp_path / "upstream"
    write(up_dir, "pip/lib/CHANGELOG.md", "## 1.1.0\n\n- x\n\n## 1.0.0\n\n- y\n")
    with FakeUpstream(up_dir) as up:
        settings = loopback_settings(up.url, tmp_path / "cache", registry_ttl=1.0)

        def info() -> Http:
            http = Http(settings)
            assert "1.1.0" in Registries(settings, http).info("pip", "lib").versions
            return http

        info()
        within = info()  # a rerun within the TTL
        n = len(up.requests)
        time.sleep(1.1)
        after = info()  # the TTL passed: one conditional request, answered 304
    assert n == 1 and within.stats["requests"] == 0 and within.stats["cache_hits"] == 1
    assert len(up.requests) == 2 and up.requests[1].headers.get("if-none-match")
    assert after.stats["revalidated"] == 1 and after.stats.get("registry:downloads", 0) == 0


def test_a_mirror_without_etag_is_cached_for_the_ttl_only(tmp_path):
    old = {"info": {"name": "lib", "version": "1.0.0"}, "releases": {"1.0.0": []}}
    new = {"info": {"name": "lib", "version": "1.1.0"}, "releases": {"1.0.0": [], "1.1.0": []}}
    script = Script(Reply(200, old), Reply(200, new))
    with LoopbackServer(script, etags=False) as srv:  # no ETag, no Last-Modified
        settings = loopback_settings(srv.url, tmp_path / "cache", registry_ttl=1.0)

        def latest() -> str | None:
            return Registries(settings, Http(settings)).info("pip", "lib").latest

        first, within = latest(), latest()
        time.sleep(1.1)
        after = latest()
    assert (first, within, after) == ("1.0.0", "1.0.0", "1.1.0")
    assert script.calls == 2 and not srv.log[1].headers.get("if-none-match")


# -- an unreadable answer is never kept --------------------------------------------------------

HTML = Reply(
    200, "<!DOCTYPE html><html><body>Proxy error</body></html>", {"Content-Type": "text/html"}
)


def test_an_error_page_with_a_200_is_not_kept_for_the_ttl(tmp_path):
    good = {"info": {"name": "lib", "version": "1.0.0"}, "releases": {"1.0.0": []}}
    with LoopbackServer(Script(HTML, Reply(200, good)), etags=True) as srv:
        settings = loopback_settings(srv.url, tmp_path / "cache")  # registry_ttl: 6 hours
        with pytest.raises(UpstreamError) as err:
            Registries(settings, Http(settings)).info("pip", "lib")
        assert err.value.kind == "bad_response"
        assert Registries(settings, Http(settings)).info("pip", "lib").latest == "1.0.0"
    assert len(srv.log) == 2 and not srv.log[1].headers.get("if-none-match")


def test_an_error_page_at_a_tag_is_not_kept_as_immutable(tmp_path):
    text = "## 2.0.0\n\n- at the tag\n"
    item = {"type": "file", "name": "CHANGELOG.md", "path": "CHANGELOG.md", "size": len(text),
            "encoding": "base64", "content": base64.b64encode(text.encode()).decode(),
            "html_url": "https://github.com/o/x/blob/v2.0.0/CHANGELOG.md",
            "url": "http://x/repos/o/x/contents/CHANGELOG.md?ref=v2.0.0"}  # fmt: skip
    with LoopbackServer(Script(HTML, Reply(200, item, dict(GITHUB_VARY))), etags=True) as srv:
        http = Http(loopback_settings(srv.url, tmp_path / "cache", github_token=TOKEN))
        gh = GitHubClient(http.settings, http)
        with pytest.raises(UpstreamError):
            gh.read_file("o/x", "CHANGELOG.md", "v2.0.0", immutable=True)
        for _ in range(2):  # the retry asks again; then the good copy is kept
            assert gh.read_file("o/x", "CHANGELOG.md", "v2.0.0", immutable=True)[0] == text
    assert len(srv.log) == 2 and http.stats["cache_hits"] == 1


# -- changelogs: notes at a tag, at the default branch, and releases -----------------------------


def test_notes_at_a_tag_are_read_once_and_the_default_branch_is_revalidated(tmp_path):
    up_dir = tmp_path / "upstream"
    write(up_dir, "npm/x/CHANGELOG.md", "## 1.0.0\n\n- main\n")
    write(up_dir, "npm/x/at-v2/CHANGELOG.md", "## 2.0.0\n\n- stable\n\n## 1.0.0\n\n- main\n")
    write(up_dir, "npm/x/meta.json", {"repository": "https://github.com/o/x", "refs": {"v2.0.0": "at-v2"}})  # fmt: skip
    with FakeUpstream(up_dir) as up:
        cold, _ = fetcher(up, tmp_path / "cache")
        assert [s.version for s in cold.fetch("npm", "x", "1.0.0", "2.0.0").sections] == ["2.0.0"]
        n = len(up.requests)
        warm, http = fetcher(up, tmp_path / "cache")
        r = warm.fetch("npm", "x", "1.0.0", "2.0.0")
    assert [s.version for s in r.sections] == ["2.0.0"] and r.note == cold.fetch("npm", "x", "1.0.0", "2.0.0").note  # fmt: skip
    assert len(asked(up, 0, "/contents/CHANGELOG.md", "v2.0.0")) == 1  # the cold run only
    # read at the new tag first (it has 2.0.0): the default branch is not read at all, and the
    # warm run knows the tag (changelogs/tagmemo.py): no tag list, no request to GitHub
    assert not [r for r in asked(up, 0, "/contents/CHANGELOG.md") if "ref" not in r.query]
    assert up.requests[n:] == []
    assert not asked(up, n, "/npm/")  # the registry entry: within its TTL
    assert http.stats["requests"] == len(up.requests) - n and http.stats["cache_hits"] >= 2


@pytest.mark.parametrize(
    ("published", "clock_days", "asked_again"),
    [
        (10, 0, False),  # published 10 days ago: settled, its cached notes are final
        (1, 0, True),  # published yesterday: the page is revalidated
        (1, 5, False),  # the same release five days later (an injected clock)
    ],
)
def test_settled_releases_are_used_from_the_cache(tmp_path, published, clock_days, asked_again):
    up_dir = tmp_path / "upstream"
    rels = [
        {"tag_name": "v1.1.0", "name": "v1.1.0", "body": "- new", "published_at": day(published)},
        {"tag_name": "v1.0.0", "name": "v1.0.0", "body": "- old", "published_at": day(400)},
    ]
    write(up_dir, "npm/rel/releases.json", rels)
    write(up_dir, "npm/rel/meta.json", {"repository": "https://github.com/o/rel"})
    with FakeUpstream(up_dir) as up:
        cold, _ = fetcher(up, tmp_path / "cache")
        assert [s.version for s in cold.fetch("npm", "rel", "1.0.0", "1.1.0").sections] == ["1.1.0"]
        n = len(up.requests)
        http = Http(loopback_settings(up.url, tmp_path / "cache"))
        later = NOW + timedelta(days=clock_days)
        warm = ChangelogFetcher(http.settings, http, clock=lambda: later)
        r = warm.fetch("npm", "rel", "1.0.0", "1.1.0")
    assert [s.body for s in r.sections] == ["- new"]
    again = asked(up, n, "/releases")
    assert len(again) == (1 if asked_again else 0)
    assert all(r.headers.get("if-none-match") for r in again)
    assert http.stats.get("changelog:downloads", 0) == 0


# -- the default-branch reads: a TTL by the age of the release --------------------------------


@pytest.mark.parametrize(
    ("age", "seconds"),
    [
        (timedelta(hours=2), 0),  # under a day: revalidated every time
        (timedelta(hours=23, minutes=59), 0),
        (timedelta(days=1), 3600),  # days old: an hour
        (timedelta(days=29), 3600),
        (timedelta(days=30), 24 * 3600),  # over 30 days: a day
        (timedelta(days=364), 24 * 3600),
        (timedelta(days=365), 10 * 24 * 3600),  # over a year: ten days
        (timedelta(days=3000), 10 * 24 * 3600),
        (timedelta(days=-2), 0),  # a date in the future: revalidated
    ],
)
def test_notes_policy_thresholds(age, seconds):
    policy = notes_policy(NOW - age, NOW)
    assert policy.max_age == seconds and (policy is REVALIDATE) == (seconds == 0)


def test_notes_policy_without_a_date_revalidates():
    assert notes_policy(None, NOW) is REVALIDATE
    assert notes_policy(datetime(2020, 1, 1), NOW).max_age == 10 * 24 * 3600  # naive: UTC


def registry_entry(eco: str, published: str) -> dict:
    """The registry JSON of package x (1.0.0 old, 1.1.0 at ``published``) in ``eco``'s shape."""
    source = "https://github.com/o/x"
    if eco == "pip":
        files = {v: [{"filename": f"x-{v}.tar.gz", "upload_time_iso_8601": t}]
                 for v, t in (("1.0.0", day(900)), ("1.1.0", published))}  # fmt: skip
        info = {"name": "x", "version": "1.1.0", "project_urls": {"Source": source}}
        return {"info": info, "releases": files}
    versions = {v: {"name": "x", "version": v} for v in ("1.0.0", "1.1.0")}
    return {"name": "x", "versions": versions, "dist-tags": {"latest": "1.1.0"},
            "repository": {"type": "git", "url": f"git+{source}.git"},
            "time": {"1.0.0": day(900), "1.1.0": published}}  # fmt: skip


@pytest.mark.parametrize(
    ("eco", "days_ago", "asked_again"),
    [
        ("pip", 400, False),  # a year old: ten days with no request
        ("npm", 400, False),
        ("npm", 40, False),  # months old: a day
        ("pip", 3, False),  # days old: an hour
        ("pip", 0.1, True),  # published today: revalidated, as before
        ("npm", 0.1, True),
    ],
)
def test_default_branch_reads_follow_the_age_of_the_release(tmp_path, eco, days_ago, asked_again):
    up_dir = tmp_path / "upstream"
    write(up_dir, f"{eco}/x/CHANGELOG.md", "## 1.1.0\n\n- new\n\n## 1.0.0\n\n- old\n")
    write(up_dir, f"{eco}/x/meta.json", {"repository": "https://github.com/o/x"})
    entry = Script(Reply(200, registry_entry(eco, day(days_ago))))
    with FakeUpstream(up_dir) as up, LoopbackServer(entry, etags=True) as registry:
        where = {"pypi_url": registry.url} if eco == "pip" else {"npm_url": registry.url}

        def fetch() -> tuple[list[str], Http]:
            http = Http(loopback_settings(up.url, tmp_path / "cache", github_token=TOKEN, **where))
            got = ChangelogFetcher(http.settings, http).fetch(eco, "x", "1.0.0", "1.1.0")
            return [s.version for s in got.sections], http

        assert fetch()[0] == ["1.1.0"]
        n = len(up.requests)
        found, http = fetch()  # a rerun the same day
    again = up.requests[n:]
    assert found == ["1.1.0"] and entry.calls == 1  # the registry entry: within its TTL
    assert {r.path.rsplit("/x", 1)[-1] for r in up.requests[:n]} == {"", "/tags", "/contents/", "/contents/CHANGELOG.md"}  # fmt: skip
    if asked_again:  # the repository, the root listing and the file, each a 304
        assert len(again) == n and all(r.headers.get("if-none-match") for r in again)
        assert http.stats["revalidated"] == n
    else:
        assert again == [] and http.stats["requests"] == 0
    assert http.stats.get("changelog:downloads", 0) == 0


def test_an_uncached_answer_is_never_stored_and_may_have_its_own_size_cap(tmp_path):
    """Artifacts: kept by digest elsewhere, so the HTTP cache keeps no second copy; their size
    cap is their own, every other answer keeps max_response_bytes; all counted in one Http."""
    seen = []

    def handle(req):
        seen.append({k.lower(): v for k, v in req.headers.items()})
        return Reply(200, b"x" * 2000, {"ETag": '"a"', "Content-Type": "application/zip"})

    with LoopbackServer(handle) as srv:
        http = Http(Settings(pypi_url=srv.url, cache_dir=tmp_path, max_response_bytes=100))
        for _ in range(2):
            got = http.get(f"{srv.url}/a.whl", what="a", cache=UNCACHED, max_bytes=5000)
            assert len(got.content) == 2000 and not got.from_cache
        with pytest.raises(UpstreamError, match=r"limit 100"):
            http.get(f"{srv.url}/a.whl", what="a")
    assert [h.get("cache-control") for h in seen] == ["no-store", "no-store", "max-age=0"]
    assert "if-none-match" not in seen[2]  # nothing was stored to revalidate
    assert http.stats["requests"] == 3
