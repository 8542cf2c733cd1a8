"""Where a package's source lives: ``parse_repository`` reads the GitHub ``owner/repo`` (and
monorepo folder) out of any form npm or PyPI metadata uses. Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

_GITHUB_PATH = re.compile(r"^/+([A-Za-z0-9][\w.-]*)/([\w.-]+?)(?:\.git)?(?:/(.*))?$")
_SSH = re.compile(r"^(?:ssh://)?git@github\.com[:/]([\w.-]+)/([\w.-]+?)(?:\.git)?/?$")
_SHORT = re.compile(r"^(?:github:)?([A-Za-z0-9][\w.-]*)/([\w.-]+?)(?:\.git)?$")


def parse_repository(value: Any) -> tuple[str | None, str | None]:
    """``(owner/repo, directory)`` from any form npm or PyPI metadata uses for a GitHub repo.

    Handles ``git+https://…``, ``git://…``, ``git@github.com:…``, ``github:o/r``, bare
    ``o/r``, ``https://github.com/o/r/tree/main/packages/x`` and npm's
    ``{"type": "git", "url": …, "directory": …}``.
    """
    directory = None
    if isinstance(value, dict):
        directory = value.get("directory") or None
        value = value.get("url")
    if not isinstance(value, str) or not value.strip():
        return None, directory
    text = value.strip()
    m = _SSH.match(text)
    if m:
        return f"{m.group(1)}/{m.group(2)}", directory
    if "://" not in text:
        m = _SHORT.match(text)
        if m and not text.startswith(("gitlab:", "bitbucket:", "gist:")):
            return f"{m.group(1)}/{m.group(2)}", directory
        return None, directory
    text = re.sub(r"^git\+", "", text)
    parts = urlsplit(text)
    host = (parts.hostname or "").lower()
    if host not in ("github.com", "www.github.com"):
        return None, directory
    m = _GITHUB_PATH.match(parts.path)
    if not m:
        return None, directory
    owner, repo, rest = m.group(1), m.group(2), m.group(3)
    if rest and directory is None:
        # https://github.com/o/r/tree/<ref>/<dir>
        bits = rest.split("/")
        if len(bits) >= 3 and bits[0] in ("tree", "blob"):
            directory = "/".join(bits[2:]).strip("/") or None
    return f"{owner}/{repo}", directory
