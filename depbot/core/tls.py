"""TLS trust and proxies for the HTTP seam and the model client, from the settings only.

The environment is read once, by ``Settings.from_env`` (``REQUESTS_CA_BUNDLE``,
``SSL_CERT_FILE``, ``CURL_CA_BUNDLE``, ``SSL_CERT_DIR``, ``HTTPS_PROXY``, ``HTTP_PROXY``,
``NO_PROXY``, ``DEPBOT_TRUSTSTORE``): neither ``requests`` nor ``httpx`` is let read it
(``trust_env`` off), since that would also hand ``.netrc`` credentials to hosts.

- ``ca_bundle``: a PEM file (or a directory of hashed certificates) that replaces the
  built-in roots, as with ``requests`` and pip;
- ``truststore``: verify with the operating system's trust store (``truststore``), for
  machines where a corporate root is installed but no bundle file exists;
- proxies: chosen per URL (``core/proxies.py``), so ``NO_PROXY`` holds for every request.
"""

from __future__ import annotations

import os
import ssl
from typing import Any
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter

from depbot.core.errors import ConfigError
from depbot.core.peer import pool_classes
from depbot.core.proxies import proxy_for
from depbot.core.settings import Settings

TLS_ADVICE = "set REQUESTS_CA_BUNDLE (or SSL_CERT_FILE) to your CA bundle, or DEPBOT_TRUSTSTORE=1"


def tls_failure(host: str) -> str:
    """The sentence for a certificate that could not be verified."""
    return f"TLS verification failed for {host}: {TLS_ADVICE}"


def check_ca_bundle(settings: Settings) -> None:
    """Raise ``ConfigError`` when the configured CA bundle is not there to read."""
    path = settings.ca_bundle
    if path is not None and not (os.path.isfile(path) or os.path.isdir(path)):
        raise ConfigError(
            f"the CA bundle {path} does not exist (REQUESTS_CA_BUNDLE, SSL_CERT_FILE)"
        )


def settings_proxy(settings: Settings, url: str) -> str | None:
    """The proxy the settings send ``url`` through, or None."""
    return proxy_for(
        url,
        https_proxy=settings.https_proxy,
        http_proxy=settings.http_proxy,
        no_proxy=settings.no_proxy,
    )


def ssl_context(settings: Settings) -> ssl.SSLContext | None:
    """The context that verifies servers, or None for the client's default roots."""
    check_ca_bundle(settings)
    bundle = settings.ca_bundle
    if settings.truststore:
        import truststore

        ctx: ssl.SSLContext = truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        if bundle:  # both: the OS store and the bundle
            _load(ctx, bundle)
        return ctx
    if bundle:  # the bundle replaces the built-in roots, as with requests
        if os.path.isdir(bundle):
            return ssl.create_default_context(capath=bundle)
        return ssl.create_default_context(cafile=bundle)
    return None


def _load(ctx: ssl.SSLContext, bundle: str) -> None:
    if os.path.isdir(bundle):
        ctx.load_verify_locations(capath=bundle)
    else:
        ctx.load_verify_locations(cafile=bundle)


class SettingsAdapter(HTTPAdapter):
    """A requests adapter that takes proxies and TLS trust from the settings, per URL."""

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        self._settings = settings
        self._context = ssl_context(settings) if settings.truststore else None
        super().__init__(**kwargs)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        if self._context is not None:
            kwargs["ssl_context"] = self._context
        super().init_poolmanager(*args, **kwargs)
        # direct connections check the address they reached (core/peer.py)
        self.poolmanager.pool_classes_by_scheme = pool_classes(self._guarded)

    def _guarded(self, host: str, port: int) -> bool:
        """Whether a connection to ``host:port`` must reach a global address: every allowed
        host but the endpoints the user configured, unless ``allow_private_hosts``."""
        s = self._settings
        if s.allow_private_hosts:
            return False
        h = host.lower().strip("[]")
        forms = {h, f"{h}:{port}", f"[{h}]", f"[{h}]:{port}"}
        return not forms & s.configured_hosts

    def proxy_manager_for(self, proxy: str, **kwargs: Any) -> Any:
        if self._context is not None:
            kwargs["ssl_context"] = self._context
        return super().proxy_manager_for(proxy, **kwargs)

    def send(self, request: requests.PreparedRequest, *args: Any, **kwargs: Any) -> Any:
        url = request.url or ""
        proxy = settings_proxy(self._settings, url)
        kwargs["proxies"] = {urlsplit(url).scheme: proxy} if proxy else {}
        return super().send(request, *args, **kwargs)


def configure_session(session: requests.Session, settings: Settings) -> None:
    """Point ``session`` at the settings' CA bundle, trust store and proxies."""
    check_ca_bundle(settings)
    session.trust_env = False  # no proxies, CA or .netrc credentials read behind our back
    session.verify = settings.ca_bundle or True
    for prefix in ("https://", "http://"):
        session.mount(prefix, SettingsAdapter(settings))
