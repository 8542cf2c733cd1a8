"""A small threaded HTTP server on 127.0.0.1 for fakes that speak real wire formats.

The fake upstream of ``eval`` and ``demo``, the scripted model servers of the tests and
the benchmark all build on it. A handler gets a ``Request`` and returns a ``Reply``;
the server adds ETag revalidation (304) for GET answers when asked, and can misbehave
on purpose (delay, drop the connection, cut the body short).
"""

from __future__ import annotations

import hashlib
import json
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass
class Request:
    method: str
    path: str  # without the query string
    query: dict[str, str]
    headers: dict[str, str]  # lower-cased names
    body: bytes = b""

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8") or "null")


@dataclass
class Reply:
    status: int = 200
    body: bytes | str | dict | list | None = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds to wait before answering
    drop: bool = False  # close the connection without an answer (connection reset)
    truncate: bool = False  # announce the full length, send half the body

    def encoded(self) -> tuple[bytes, dict[str, str]]:
        headers = dict(self.headers)
        body = self.body
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode("utf-8")
            headers.setdefault("Content-Type", "application/json; charset=utf-8")
        elif isinstance(body, str):
            body = body.encode("utf-8")
            headers.setdefault("Content-Type", "text/plain; charset=utf-8")
        elif body is None:
            body = b""
        return body, headers


Handler = Callable[[Request], Reply]


class _TLSServer(ThreadingHTTPServer):
    """Each accepted connection in TLS; the handshake runs in the connection's own thread."""

    ssl_context: ssl.SSLContext

    def get_request(self) -> tuple[socket.socket, Any]:
        sock, addr = super().get_request()
        return self.ssl_context.wrap_socket(
            sock, server_side=True, do_handshake_on_connect=False
        ), addr

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that does not trust the certificate hangs up: no traceback


class LoopbackServer:
    """``with LoopbackServer(handler) as srv: ... srv.url ...``"""

    def __init__(
        self, handler: Handler, *, etags: bool = False, ssl_context: ssl.SSLContext | None = None
    ) -> None:
        self.handler = handler
        self.etags = etags
        self.log: list[Request] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        outer = self

        class _H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # headers and body go out in separate writes: without TCP_NODELAY every answer on
            # a kept-alive connection waits ~40 ms for the client's delayed ACK
            disable_nagle_algorithm = True

            def log_message(self, *args: Any) -> None:  # silence
                pass

            def _handle(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                req = Request(
                    method=self.command,
                    path=parts.path,
                    query={k: v[-1] for k, v in parse_qs(parts.query).items()},
                    headers={k.lower(): v for k, v in self.headers.items()},
                    body=body,
                )
                with outer._lock:
                    outer.log.append(req)
                try:
                    reply = outer.handler(req)
                except Exception as exc:  # noqa: BLE001 - a fake must answer something
                    reply = Reply(500, {"message": f"fake server error: {type(exc).__name__}"})
                outer._send(self, req, reply)

            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _handle

        if ssl_context is None:
            self._server = ThreadingHTTPServer(("127.0.0.1", 0), _H)
        else:  # https:// with this server certificate (tests/helpers/tls.py)
            self._server = _TLSServer(("127.0.0.1", 0), _H)
            self._server.ssl_context = ssl_context
        self._server.daemon_threads = True
        # a short poll interval: stop() returns in ~50 ms instead of the default 0.5 s
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def _send(self, h: BaseHTTPRequestHandler, req: Request, reply: Reply) -> None:
        if reply.delay:
            # wait in small steps so that stop() is never held up by a slow answer
            end = time.monotonic() + reply.delay
            while time.monotonic() < end and not self._stopping.is_set():
                time.sleep(0.02)
        if reply.drop:
            try:
                h.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            h.close_connection = True
            return
        body, headers = reply.encoded()
        status = reply.status
        if self.etags and req.method == "GET" and status == 200:
            etag = '"' + hashlib.sha1(body).hexdigest() + '"'
            headers.setdefault("ETag", etag)
            if req.headers.get("if-none-match") == headers["ETag"]:
                status, body = 304, b""
        try:
            h.send_response(status)
            for k, v in headers.items():
                h.send_header(k, v)
            h.send_header("Content-Length", str(len(body)))
            h.end_headers()
            if reply.truncate:
                h.wfile.write(body[: len(body) // 2])
                h.wfile.flush()
                h.connection.shutdown(socket.SHUT_RDWR)
                h.close_connection = True
                return
            h.wfile.write(body)
        except OSError:
            h.close_connection = True

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        scheme = "https" if isinstance(self._server, _TLSServer) else "http"
        return f"{scheme}://{host}:{port}"

    def start(self) -> LoopbackServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> LoopbackServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def requests(self, path_prefix: str = "") -> list[Request]:
        with self._lock:
            return [r for r in self.log if r.path.startswith(path_prefix)]
