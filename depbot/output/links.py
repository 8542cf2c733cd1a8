"""Links in drafts: permalinks into the checkout's repository, and which URLs may be linked. Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import quote, urlsplit

from depbot.output.mdsafe import code_span


def web_url_from_api(api_url: str) -> str:
    """The GitHub web address for an API address.

    ``https://api.github.com`` → ``https://github.com``; GitHub Enterprise Server's
    ``https://host/api/v3`` → ``https://host``; anything else is kept as it is.
    """
    parts = urlsplit(api_url.rstrip("/"))
    host, path = parts.netloc, parts.path
    if host.lower().startswith("api."):
        host = host[4:]
    if path.lower().endswith("/api/v3"):
        path = path[: -len("/api/v3")]
    return f"{parts.scheme}://{host}{path}".rstrip("/")


@dataclass(frozen=True)
class RepoLink:
    """Where the checkout lives on GitHub, for permalinks to the lines drafts cite."""

    owner_repo: str  # "owner/repo"
    commit: str  # full SHA of the checked-out commit
    web_url: str = "https://github.com"  # see web_url_from_api
    root: str = ""  # folder of the checkout inside the repository ("" = its root)
    dirty: frozenset[str] = field(default_factory=frozenset)  # changed since commit: no link

    def permalink(self, path: str, line: int) -> str | None:
        """``https://github.com/o/r/blob/<sha>/<path>#L<line>``, or None when it would lie."""
        if not self.commit or not re.fullmatch(r"[0-9a-fA-F]{7,64}", self.commit):
            return None
        full = "/".join(p for p in (self.root.strip("/"), path.lstrip("/")) if p)
        if full in self.dirty or ".." in full.split("/"):
            return None
        return (
            f"{self.web_url.rstrip('/')}/{quote(self.owner_repo)}/blob/{self.commit}/"
            f"{quote(full)}#L{int(line)}"
        )


def safe_http_url(url: str) -> str | None:
    """``url`` fit to put in a Markdown link target, or None when it is not plain http(s)."""
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    if "@" in parts.netloc or any(c.isspace() for c in url) or any(ord(c) < 32 for c in url):
        return None
    return quote(url, safe=":/?#[]@!$&'*+,;=%~-._")


def _link_label(url: str) -> str:
    path = urlsplit(url).path.rstrip("/")
    label = path.rsplit("/", 1)[-1] or urlsplit(url).netloc
    label = re.sub(r"[^\w.\-+ ]", "", label)[:80]
    return label or "source"


def source_ref(source: str) -> str:
    """A link to where a quote was read, or the path in a code span when it is not a URL."""
    url = safe_http_url(source)
    if url:
        return f"[{_link_label(url)}]({url})"
    return code_span(source) if source.strip() else "the changelog"


__all__ = ["RepoLink", "safe_http_url", "source_ref", "web_url_from_api"]
