"""A throwaway certificate authority (trustme) and loopback servers whose certificates it signs.

``LoopbackServer(handler, ssl_context=ca.server_context())`` answers on
``https://127.0.0.1:PORT``; ``ca.bundle`` is the CA's PEM file, what a user would put in
``REQUESTS_CA_BUNDLE``. Nothing else trusts the CA.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from pathlib import Path

import trustme


@dataclass
class OwnCA:
    ca: trustme.CA
    bundle: Path  # the CA certificate, PEM

    def server_context(self) -> ssl.SSLContext:
        """A server context with a certificate for 127.0.0.1 and localhost, signed by this CA."""
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.ca.issue_cert("127.0.0.1", "localhost").configure_cert(ctx)
        return ctx


def own_ca(folder: Path) -> OwnCA:
    """A new CA, its certificate written to ``folder/ca.pem``."""
    ca = trustme.CA()
    bundle = folder / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    return OwnCA(ca=ca, bundle=bundle)
