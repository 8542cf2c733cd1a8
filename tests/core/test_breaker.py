"""The per-host breaker and the run's deadline in the HTTP seam, over real sockets on 127.0.0.1.

Every server here binds 127.0.0.1 and stops when its ``with`` block ends; timeouts are a
few tenths of a second, so each test ends within about 2 s.
"""

from __future__ import annotations

import socket
import threading
import time

import pytest

from depbot.core.breaker import Breaker, announcement, endpoint_of
from depbot.core.errors import UpstreamError
from depbot.core.net import Http
from depbot.core.settings import Settings
from depbot.fakes.loopback import LoopbackServer, Reply
from tests.helpers.silent import Silent

UNUSED = "http://127.0.0.1:9"  # the discard port: only a placeholder for the other endpoints
GITHUB_TAIL = "continuing with registry metadata"


def _settings(github: str, **kw: object) -> Settings:
    values: dict[str, object] = dict(
        pypi_url=UNUSED,
        npm_url=f"{UNUSED}/npm",
        github_api_url=github,
        allow_private_hosts=True,
        http_timeout=0.3,
        connect_timeout=0.3,
        http_retries=0,
        retry_backoff=0.01,
        max_retry_wait=0.2,
    )
    values.update(kw)
    return Settings(**values)  # type: ignore[arg-type]


def _http(settings: Settings, sleep=None) -> tuple[Http, list[str]]:
    http = Http(settings) if sleep is None else Http(settings, sleep=sleep)
    lines: list[str] = []
    http.stderr = lines.append
    return http, lines


def _fails(http: Http, url: str) -> UpstreamError:
    with pytest.raises(UpstreamError) as err:
        http.get(url, what="releases of o/r")
    return err.value


def test_a_silent_host_is_marked_down_after_three_timeouts_then_refused_at_once():
    with Silent() as srv:
        http, lines = _http(_settings(srv.url))
        url = f"{srv.url}/repos/o/r/releases"
        first, second = _fails(http, url), _fails(http, url)
        assert (first.kind, second.kind) == ("timeout", "timeout") and lines == []
        third = _fails(http, url)
        assert third.kind == "unreachable"
        assert lines == [
            f"depbot: GitHub API ({srv.url}) unreachable: no answer in time; {GITHUB_TAIL}"
        ]
        accepted = srv.accepted
        started = time.monotonic()
        fourth = _fails(http, url)
        assert time.monotonic() - started < 0.05
        assert srv.accepted == accepted == 3  # the 4th request sent nothing
    assert fourth.kind == "unreachable"
    assert "GitHub API unreachable: no answer in time (marked down after 3 failures)" in str(fourth)
    assert len(lines) == 1
    assert http.unreachable() == {"GitHub API": "no answer in time"}


def test_a_refused_port_trips_inside_one_send_and_ends_its_retries():
    with socket.create_server(("127.0.0.1", 0)) as s:
        url = f"http://127.0.0.1:{s.getsockname()[1]}"
    sleeps: list[float] = []
    http, lines = _http(_settings(url, http_retries=5), sleep=sleeps.append)
    err = _fails(http, f"{url}/repos/o/r")
    assert err.kind == "unreachable" and "marked down after 3 failures" in str(err)
    assert len(sleeps) == 2  # three attempts, not six
    assert len(lines) == 1 and lines[0].startswith(f"depbot: GitHub API ({url}) unreachable: ")
    assert list(http.unreachable()) == ["GitHub API"]


def test_a_dns_failure_says_dns(tmp_path):
    # .invalid never resolves (RFC 6761); the private-address check resolves it first
    url = "https://depbot-breaker-test.invalid"
    http, lines = _http(_settings(url, allow_private_hosts=False, http_retries=3))
    first, second = (_fails(http, f"{url}/repos/o/r/releases") for _ in range(2))
    assert (first.kind, second.kind) == ("dns", "dns") and lines == []  # not retried
    err = _fails(http, f"{url}/repos/o/r/releases")
    assert err.kind == "unreachable" and "DNS lookup failed" in str(err)
    assert lines == [f"depbot: GitHub API ({url}) unreachable: DNS lookup failed; {GITHUB_TAIL}"]
    assert http.unreachable() == {"GitHub API": "DNS lookup failed"}


def test_an_answer_between_failures_starts_the_count_again():
    replies = iter([Reply(drop=True)] * 2 + [Reply(500, "boom")] + [Reply(drop=True)] * 9)
    with LoopbackServer(lambda req: next(replies)) as srv:
        http, lines = _http(_settings(srv.url, pypi_url=srv.url))
        kinds = [_fails(http, f"{srv.url}/pypi/x/json").kind for _ in range(5)]
        assert lines == [] and http.unreachable() == {}  # drop, drop, 500, drop, drop
        assert kinds == ["connection", "connection", "server_error", "connection", "connection"]
        assert _fails(http, f"{srv.url}/pypi/x/json").kind == "unreachable"
    assert len(lines) == 1 and "PyPI and GitHub API" in lines[0]


def test_parallel_threads_trip_it_once_and_waiting_requests_return_promptly():
    # eight threads, each allowed 3 retries with a 1-1.5 s backoff: the host goes down after
    # 3 timeouts in total, and the sleeping threads wake at once instead of finishing the wait
    with Silent() as srv:
        http, lines = _http(_settings(srv.url, http_retries=3, retry_backoff=1.0, max_retry_wait=2))
        errors: list[UpstreamError] = []

        def one() -> None:
            try:
                http.get(f"{srv.url}/repos/o/r", what="repository o/r")
            except UpstreamError as exc:
                errors.append(exc)

        threads = [threading.Thread(target=one) for _ in range(8)]
        started = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=5)
        elapsed = time.monotonic() - started
        assert srv.accepted == 8  # one attempt each: nobody retried a host that was down
    assert elapsed < 1.0
    assert len(errors) == 8 and {e.kind for e in errors} == {"unreachable"}
    assert len(lines) == 1


def test_the_deadline_refuses_new_requests_and_cuts_a_slow_one_short():
    calls = []

    def slow(req):
        calls.append(req.path)
        return Reply(200, {"ok": True}, delay=3.0)

    with LoopbackServer(slow) as srv:
        http, lines = _http(_settings(srv.url, http_timeout=5.0, connect_timeout=5.0))
        http.set_deadline(time.monotonic() + 0.3)
        started = time.monotonic()
        cut = _fails(http, f"{srv.url}/github/slow")
        assert time.monotonic() - started < 1.0  # not the 5 s read timeout, not the 3 s answer
        assert cut.kind == "deadline" and "the run's deadline (0.3 s) passed" in str(cut)
        refused = _fails(http, f"{srv.url}/github/fast")
        assert refused.kind == "deadline" and calls == ["/github/slow"]
    assert lines == [] and http.unreachable() == {}  # the deadline is not the host's fault


def test_no_deadline_and_a_future_one_let_requests_through():
    with LoopbackServer(lambda req: Reply(200, {"ok": True})) as srv:
        http, _ = _http(_settings(srv.url))
        assert http.get_json(f"{srv.url}/a", what="a") == {"ok": True}
        http.set_deadline(time.monotonic() + 60)
        assert http.get_json(f"{srv.url}/b", what="b") == {"ok": True}
        http.set_deadline(None)
        assert http.deadline is None


def test_labels_and_tails_name_the_endpoint_and_what_the_run_does_without_it():
    s = Settings(pypi_url="https://mirror.corp/api/pypi", npm_url="https://registry.corp/npm")
    pypi = endpoint_of(s, "https://mirror.corp/api/pypi/requests/json")
    assert announcement(pypi, "could not connect") == (
        "depbot: PyPI (https://mirror.corp/api/pypi) unreachable: could not connect; "
        "continuing without it: pip updates that may break stay unknown"
    )
    assert endpoint_of(s, "https://api.github.com/repos/o/r").label == "GitHub API"
    assert endpoint_of(s, "https://elsewhere.example/x").label == "elsewhere.example"


def test_the_breaker_counts_across_callers_and_a_down_host_stays_down():
    b = Breaker(3)
    assert [b.failed("h", "timed out") for _ in range(2)] == [False, False]
    b.succeeded("h")
    assert [b.failed("h", "refused") for _ in range(3)] == [False, False, True]
    b.succeeded("h")
    assert b.down("h") == "refused" and b.failed("h", "again") is False
    assert b.all_down() == {"h": "refused"} and b.down("other") is None


def test_a_host_found_down_is_remembered_by_the_next_run_for_a_few_minutes(tmp_path):
    """#30: a silent host cost the next run its three timeouts again; now the run that finds
    it down writes it to the cache folder, and a run within DEPBOT_DOWN_HOST_MINUTES takes it
    as down at once, saying so once."""
    with Silent() as srv:
        settings = _settings(srv.url, cache_dir=tmp_path)
        first, _ = _http(settings)
        url = f"{srv.url}/repos/o/r/releases"
        for _ in range(3):
            _fails(first, url)
        accepted = srv.accepted
        again, lines = _http(settings)  # the next run, same cache folder
        started = time.monotonic()
        err = _fails(again, url)
        assert time.monotonic() - started < 0.05 and srv.accepted == accepted  # nothing sent
        assert err.kind == "unreachable" and "found down 1 min ago" in str(err)
        _fails(again, url)
        assert len(lines) == 1 and "unreachable: no answer in time (found down" in lines[0]
        later, _ = _http(settings.replace(down_host_minutes=0))  # remembering turned off
        assert _fails(later, url).kind == "timeout" and srv.accepted == accepted + 1
