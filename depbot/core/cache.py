"""The cache policy: how long an answer of the on-disk HTTP cache may be used without asking.

Pure values and rules, no I/O; ``core/net.py`` turns a ``CachePolicy`` into requests-cache's
per-request options, and the callers pick the policy because they know what they asked for:

- ``REVALIDATE`` (the default): a mutable thing (a changelog at the default branch, the
  repository's default branch, a folder listing, a list of releases or tags). Every use is
  a request; a conditional one (``If-None-Match`` / ``If-Modified-Since``, answered 304
  without a body) when the stored answer has an ETag or Last-Modified. An answer without
  either is not stored at all.
- ``ttl(seconds)``: registry metadata. Used with no request while younger than the TTL,
  then revalidated (or fetched again when it has no validator: a mirror without ETag is
  cached for the TTL, never longer).
- ``notes_policy(published, now)``: what is read at the default branch for an update (the
  repository's default branch, folder listings, the changelog file), by the age of the
  release the update brings (after Renovate: notes are edited after a release, most in its
  first days): revalidated every time while under a day old, fresh for an hour while days
  old, a day once over 30 days old, ten days once over a year; an unknown date revalidates.
- ``IMMUTABLE``: a file read at a release tag, a released artifact by digest. Used with no
  request once stored.
- ``CACHED_ONLY``: whatever the cache holds, of any age, and never a request (a miss is a
  504 "not cached", as HTTP says for ``only-if-cached``). The changelog fetcher reads the
  release list this way first and keeps it only when every release it needs is settled.

Freshness is stored with each answer and set again by each use (a revalidation with a
longer TTL extends it), so one URL is best always asked with the same policy.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

# bump when the meaning of stored expiries changes: the cache of depbot before per-request
# policies stored every answer as "never expires" (it revalidated every use instead), and a TTL
# request would take such an entry as fresh forever
CACHE_NAME = "http_cache_v2"
LEGACY_CACHE_FILES = ("http_cache.sqlite",)

# "never" as a max-age that is valid on the wire (the directive goes out with the request,
# where requests-cache's -1 would be malformed); a year is never for a weekly job
IMMUTABLE_SECONDS = 365 * 24 * 3600

HOUR = 3600
DAY = 24 * HOUR
# notes_policy: (a release at least this old, seconds its default-branch reads stay fresh),
# oldest first; a release younger than the last age (a day) is revalidated every time
NOTES_TTL = ((365 * DAY, 10 * DAY), (30 * DAY, DAY), (DAY, HOUR))


@dataclass(frozen=True)
class CachePolicy:
    """How one GET may be answered from the cache."""

    max_age: int = 0  # seconds an answer is used with no request; 0: ask every time
    cached_only: bool = False  # never send: the stored answer whatever its age, or a 504
    reason: str = "mutable"  # for reading traces and tests: mutable, ttl, immutable, cached
    store: bool = True  # False: never written to the cache (a released artifact is kept by
    # digest beside it, no need for a second copy in the HTTP cache)

    def request_options(self) -> tuple[dict[str, object], dict[str, str]]:
        """The keyword arguments of ``requests_cache.CachedSession.request``, and extra headers.

        ``expire_after`` goes out as ``Cache-Control: max-age=N`` (0 also makes
        requests-cache revalidate an answer stored with a longer life); ``only_if_cached``
        with ``max-stale`` takes a stored answer of any age and never sends.
        """
        if self.cached_only:
            return {"only_if_cached": True}, {"Cache-Control": f"max-stale={IMMUTABLE_SECONDS}"}
        if not self.store:
            return {}, {"Cache-Control": "no-store"}  # HTTP's own word: neither read nor kept
        return {"expire_after": self.max_age}, {}


REVALIDATE = CachePolicy()
IMMUTABLE = CachePolicy(max_age=IMMUTABLE_SECONDS, reason="immutable")
CACHED_ONLY = CachePolicy(cached_only=True, reason="cached")
UNCACHED = CachePolicy(reason="uncached", store=False)


def ttl(seconds: float) -> CachePolicy:
    """Fresh for ``seconds`` (whole seconds, rounded up; 0 or less: revalidate every time)."""
    whole = int(-(-seconds // 1)) if seconds > 0 else 0
    return CachePolicy(max_age=min(whole, IMMUTABLE_SECONDS), reason="ttl") if whole else REVALIDATE


def notes_policy(published: datetime | None, now: datetime) -> CachePolicy:
    """The policy of the default-branch reads for an update whose new release is ``published``.

    No date, or one in the future: revalidate (``NOTES_TTL`` gives the ages and their TTLs).
    """
    if published is None:
        return REVALIDATE
    if published.tzinfo is None:
        published = published.replace(tzinfo=timezone.utc)
    age = (now - published).total_seconds()
    for older_than, seconds in NOTES_TTL:
        if age >= older_than:
            return ttl(seconds)
    return REVALIDATE


def vary_without(vary: str | None, unstored: Iterable[str]) -> str | None:
    """A ``Vary`` header without the request headers the cache does not store.

    The cache keeps no credentials (requests-cache redacts ``Authorization`` from what it
    stores), so it can never check a ``Vary: Authorization`` and takes every such answer as
    a miss: GitHub sends it on every authenticated answer, and a warm run with a token would
    download all of GitHub again. depbot sends one token per run and reads what that token may
    read, so the answer is kept whatever the token (None: no ``Vary`` left).
    """
    if not vary:
        return vary
    drop = {h.lower() for h in unstored}
    kept = [h.strip() for h in vary.split(",") if h.strip() and h.strip().lower() not in drop]
    return ", ".join(kept) or None


def settled(published: datetime | None, now: datetime, settle_days: float) -> bool:
    """A release published at least ``settle_days`` before ``now``: its notes are taken as final.

    No date (a draft, a mirror that drops it) or a date in the future is never settled.
    """
    if published is None:
        return False
    if published.tzinfo is None:
        published = published.replace(tzinfo=timezone.utc)
    return published <= now - timedelta(days=max(0.0, settle_days))


__all__ = [
    "CACHED_ONLY",
    "CACHE_NAME",
    "IMMUTABLE",
    "REVALIDATE",
    "NOTES_TTL",
    "CachePolicy",
    "notes_policy",
    "settled",
    "ttl",
    "vary_without",
]
