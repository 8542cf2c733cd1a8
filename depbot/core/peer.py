"""The address connected to is the address checked (#28 item 13: DNS rebinding).

``Http.check_url`` refuses a guarded host (one that only fetched data names, not one the
user configured) that resolves to a private, loopback or reserved address. A name can
resolve to a public address for that check and to ``127.0.0.1`` a moment later, when the
connection resolves it again. So the connection itself checks: once the socket is
connected, its peer address must be global, or the socket is closed before a byte is sent.
Connections through a proxy are the proxy's to resolve and are not checked here.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from typing import Any

from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import NewConnectionError

PRIVATE_PEER = "connected to a private, loopback or reserved address"

# ``guarded(host, port)``: whether a connection to that host must reach a global address
Guard = Callable[[str, int], bool]


def global_address(address: str) -> bool:
    """Whether ``address`` (IPv4 or IPv6, a zone id allowed) is a global one."""
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_global
    except ValueError:
        return False


def _checked(conn: Any, sock: Any, guarded: Guard) -> Any:
    if guarded(str(conn.host), int(conn.port or 0)):
        peer = sock.getpeername()[0]
        if not global_address(str(peer)):
            sock.close()
            raise NewConnectionError(conn, f"{conn.host}: {PRIVATE_PEER} ({peer})")
    return sock


def pool_classes(guarded: Guard) -> dict[str, type]:
    """The urllib3 pool classes, by scheme, whose connections check their peer."""

    class PeerHTTPConnection(HTTPConnection):
        def _new_conn(self) -> Any:
            return _checked(self, super()._new_conn(), guarded)

    class PeerHTTPSConnection(HTTPSConnection):
        def _new_conn(self) -> Any:
            return _checked(self, super()._new_conn(), guarded)

    class PeerHTTPPool(HTTPConnectionPool):
        ConnectionCls = PeerHTTPConnection

    class PeerHTTPSPool(HTTPSConnectionPool):
        ConnectionCls = PeerHTTPSConnection

    return {"http": PeerHTTPPool, "https": PeerHTTPSPool}
