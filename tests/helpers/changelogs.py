"""Pieces of the changelog tests: a fetcher against a loopback upstream, files for it to serve,
what it returned and asked for; the search candidates of a changelog text."""

from __future__ import annotations

import json
from pathlib import Path

from depbot.changelogs.breaking import extract_candidates
from depbot.changelogs.fetch import ChangelogFetcher
from depbot.core.net import Http
from depbot.fakes.upstream import FakeUpstream
from tests.helpers.settings import loopback_settings

TOKEN = "ghp_FAKE_TOKEN_never_printed_0123456789"


def write(root: Path, rel: str, data: str | list | dict) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")


def make(up: FakeUpstream, cache: Path | None = None, **kw) -> tuple[ChangelogFetcher, Http]:
    kw.setdefault("max_retry_wait", 1.0)
    settings = loopback_settings(up.url, cache, github_token=TOKEN, **kw)
    http = Http(settings)
    return ChangelogFetcher(settings, http), http


def got(result) -> list[str]:
    return [s.version for s in result.sections]


def served(up: FakeUpstream, part: str) -> int:
    return sum(1 for r in up.requests if part in r.path)


def cands(text, package="pkg", names=("pkg",), context=""):
    found, _ = extract_candidates(text, context=context, package=package, import_names=names)
    return [
        (c.symbol, c.kind) + ((c.of,) if c.of else ()) + ((c.arg,) if c.arg else ()) for c in found
    ]
