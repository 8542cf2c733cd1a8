"""Which proxy a request goes through, read the way curl, requests and pip read the environment.

``HTTPS_PROXY`` for https addresses, ``HTTP_PROXY`` for http ones, and ``NO_PROXY`` for the
hosts that go direct: a comma-separated list of names (``example.com`` also covers
``www.example.com``; a leading ``.`` or ``*.`` changes nothing), ``host:port`` entries,
IP addresses and networks (``10.0.0.0/8``), or ``*`` for every host. ``Settings.from_env``
reads the variables; everything here is pure.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

_DEFAULT_PORTS = {"http": 80, "https": 443}


def proxy_for(
    url: str, *, https_proxy: str | None, http_proxy: str | None, no_proxy: str | None
) -> str | None:
    """The proxy URL ``url`` goes through, or None to connect directly."""
    parts = urlsplit(url)
    proxy = https_proxy if parts.scheme == "https" else http_proxy
    if not proxy or not parts.hostname:
        return None
    try:
        port = parts.port or _DEFAULT_PORTS.get(parts.scheme)
    except ValueError:
        port = None
    if bypassed(parts.hostname, port, no_proxy or ""):
        return None
    return proxy


def bypassed(host: str, port: int | None, no_proxy: str) -> bool:
    """Whether ``NO_PROXY`` sends ``host`` (on ``port``) direct."""
    host = host.lower().strip("[]").rstrip(".")
    for raw in no_proxy.replace(" ", ",").split(","):
        entry = raw.strip().lower()
        if not entry:
            continue
        if entry == "*":
            return True
        if _matches(host, port, entry):
            return True
    return False


def _matches(host: str, port: int | None, entry: str) -> bool:
    name, entry_port = _split_port(entry)
    if entry_port is not None and entry_port != port:
        return False
    network = _network(name)
    if network is not None:
        address = _address(host)
        return address is not None and address in network
    name = name.removeprefix("*").lstrip(".").rstrip(".")
    return bool(name) and (host == name or host.endswith("." + name))


def _split_port(entry: str) -> tuple[str, int | None]:
    """``host:port``, ``[v6]:port``; a bare IPv6 address has no port."""
    if entry.startswith("["):
        name, _, rest = entry[1:].partition("]")
        port = rest.removeprefix(":")
        return name, int(port) if port.isdigit() else None
    if entry.count(":") == 1:
        name, _, port = entry.partition(":")
        if port.isdigit():
            return name, int(port)
    return entry, None


def _network(name: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network | None:
    try:
        return ipaddress.ip_network(name, strict=False)
    except ValueError:
        return None


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def proxy_variable(url: str) -> str:
    """The variable that names the proxy for ``url``, for messages."""
    return "HTTPS_PROXY" if urlsplit(url).scheme == "https" else "HTTP_PROXY"


def proxy_host(proxy: str) -> str:
    """``host:port`` of a proxy URL, without the credentials it may carry."""
    parts = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
    host = parts.hostname or "the proxy"
    try:
        port = parts.port
    except ValueError:
        port = None
    if ":" in host:
        host = f"[{host}]"
    return f"{host}:{port}" if port else host


def proxy_refused(proxy: str, url: str) -> str:
    """The sentence for a proxy that refused (or could not be reached for) ``url``."""
    host = urlsplit(url).hostname or "the server"
    return f"the proxy {proxy_host(proxy)} refused the connection to {host} ({proxy_variable(url)})"
