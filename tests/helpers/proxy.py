"""A forward HTTP proxy on 127.0.0.1, as a corporate proxy would be, small and bounded.

It tunnels ``CONNECT host:port`` (what clients send for https:// addresses) and forwards
plain requests sent with an absolute URI (http:// addresses), both only to 127.0.0.1,
and records what it saw: ``connects`` ("host:port") and ``forwarded`` (absolute URLs).
``refuse=True`` answers 403 to everything, as a proxy that does not allow the host.
A tunnel lives at most ``tunnel_seconds``; ``stop()`` ends every tunnel within ~50 ms.
"""

from __future__ import annotations

import http.client
import selectors
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

_LOOPBACK = ("127.0.0.1", "localhost")
_HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "proxy-authorization",
               "transfer-encoding", "te", "trailer", "upgrade"}  # fmt: skip


class LoopbackProxy:
    """``with LoopbackProxy() as proxy: ... HTTPS_PROXY=proxy.url ... proxy.connects ...``"""

    def __init__(self, *, refuse: bool = False, tunnel_seconds: float = 5.0) -> None:
        self.refuse = refuse
        self.tunnel_seconds = tunnel_seconds
        self.connects: list[str] = []
        self.forwarded: list[str] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        outer = self

        class _H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_CONNECT(self) -> None:  # noqa: N802 - the http.server naming
                outer._connect(self)

            def _forward(self) -> None:
                outer._forward(self)

            do_GET = do_POST = do_HEAD = _forward

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _H)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    # -- CONNECT --------------------------------------------------------------------------

    def _connect(self, h: BaseHTTPRequestHandler) -> None:
        h.close_connection = True
        with self._lock:
            self.connects.append(h.path)
        host, _, port = h.path.rpartition(":")
        if self.refuse or host not in _LOOPBACK or not port.isdigit():
            self._answer(h, 403, b"proxy: not allowed")
            return
        try:
            upstream = socket.create_connection((host, int(port)), timeout=2.0)
        except OSError:
            self._answer(h, 502, b"proxy: could not connect")
            return
        h.send_response(200, "Connection established")
        h.end_headers()
        h.wfile.flush()
        with upstream:
            self._pipe(h.connection, upstream)

    def _pipe(self, client: socket.socket, upstream: socket.socket) -> None:
        """Copy bytes both ways until one side closes, the deadline passes or stop()."""
        end = time.monotonic() + self.tunnel_seconds
        other = {client: upstream, upstream: client}
        with selectors.DefaultSelector() as sel:
            for sock in other:
                sel.register(sock, selectors.EVENT_READ)
            while time.monotonic() < end and not self._stopping.is_set():
                for key, _ in sel.select(timeout=0.05):
                    try:
                        data = key.fileobj.recv(64 * 1024)  # type: ignore[union-attr]
                        if not data:
                            return
                        other[key.fileobj].sendall(data)  # type: ignore[index]
                    except OSError:
                        return

    # -- plain requests with an absolute URI ------------------------------------------------

    def _forward(self, h: BaseHTTPRequestHandler) -> None:
        h.close_connection = True
        with self._lock:
            self.forwarded.append(h.path)
        parts = urlsplit(h.path)
        length = int(h.headers.get("Content-Length") or 0)
        body = h.rfile.read(length) if length else None
        if self.refuse or parts.scheme != "http" or parts.hostname not in _LOOPBACK:
            self._answer(h, 403, b"proxy: not allowed")
            return
        headers = {k: v for k, v in h.headers.items() if k.lower() not in _HOP_BY_HOP}
        conn = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=2.0)
        try:
            path = parts.path + (f"?{parts.query}" if parts.query else "")
            conn.request(h.command, path or "/", body=body, headers=headers)
            resp = conn.getresponse()
            status, reply_headers, content = resp.status, resp.getheaders(), resp.read()
        except OSError:
            self._answer(h, 502, b"proxy: upstream failed")
            return
        finally:
            conn.close()
        h.send_response(status)
        for k, v in reply_headers:
            if k.lower() not in _HOP_BY_HOP and k.lower() != "content-length":
                h.send_header(k, v)
        h.send_header("Content-Length", str(len(content)))
        h.send_header("Connection", "close")
        h.end_headers()
        h.wfile.write(content)

    @staticmethod
    def _answer(h: BaseHTTPRequestHandler, status: int, body: bytes) -> None:
        h.send_response(status)
        h.send_header("Content-Length", str(len(body)))
        h.send_header("Connection", "close")
        h.end_headers()
        h.wfile.write(body)

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> LoopbackProxy:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> LoopbackProxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
