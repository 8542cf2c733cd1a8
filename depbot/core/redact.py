"""Secrets out of text that leaves depbot: tool results, drafts, the trace, error excerpts. Pure.

``redact`` is depbot's one redactor, and ``MARK`` (``[REDACTED]``) the one word it writes
in place of what it hides. It runs two passes, in this order:

- ``patterns``: the given secret values (the run's own tokens) and depbot's patterns of
  well-known token shapes (private key blocks, AWS / GitHub / OpenAI / Slack / Google / npm
  / PyPI keys, JWTs, ``password = value`` assignments). Cheap and safe on any text, JSON
  included; but its assignment rule also takes a word of prose ("Password: hashing …").
- ``detectors``: detect-secrets' plugins (keyword assignments, passwords in URLs, private
  keys, AWS / GitHub / GitLab / Slack / Stripe / npm / PyPI / OpenAI tokens, JWTs,
  high-entropy quoted strings) line by line, replacing each value they find and keeping
  the rest of the line: ``SECRET_KEY = "[REDACTED]"`` still shows a use of the name, and
  prose keeps its words. But a value they find in JSON text may end in the backslash of
  an escape: replacing it would break the JSON.

A line of a file gets both (the default); a tool result, prose that may quote a key word,
only the detectors (``patterns=False``); the trace, whose strings may be JSON, only the
patterns (``detectors=False``).

The plugins are called directly (``analyze_string``), never through detect-secrets' global
settings, so redaction is thread-safe and never verifies a secret over the network. Cost
(``tools/bench_redact.py``): a cheap prefilter sends a line to the detector only when it
has an ``=``, a ``:`` or a long token (``MIN_TOKEN``); inside, each group of plugins runs
only on lines that can hold what it finds (``_TOKENISH``, the keyword words,
``_QUOTED_RUN``); a line's findings are cached (a hit line is seen twice), and a long line
is scanned in overlapping windows (``MAX_LINE``), which bounds the plugins' regexes on
hostile text.

``private_key_lines`` finds the lines of a PEM private key block in a file (a hit on one is
key material however it looks); ``excerpt`` is what an error message may quote of a file:
one line, redacted, cut short.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

__all__ = [
    "KEY_BLOCK_LINE",
    "MARK",
    "PREFILTER",
    "detected",
    "detected_cached",
    "excerpt",
    "private_key_lines",
    "redact",
    "redact_value",
]

MARK = "[REDACTED]"  # what every redacted value becomes
KEY_BLOCK_LINE = "[REDACTED: a line of a private key block]"  # a search hit on key material
MIN_TOKEN = 20  # a run of token characters this long may be a key even with no "=" or ":"
MAX_LINE = 600  # longer lines are scanned in windows of this size (regex cost)
OVERLAP = 200  # ... overlapping by this much, so that a secret across a cut is still seen
PREFILTER = re.compile(rf"[=:]|[A-Za-z0-9+/_.~-]{{{MIN_TOKEN},}}")
# what each group of detectors needs to find anything at all, so a line skips the others:
# the token plugins a run of 15 token characters (the shortest, a Slack token, has "xox"), a
# URL or a key header; the entropy plugins a quoted run of at least 9 (hex above 3.0 bits)
_TOKENISH = re.compile(r"[A-Za-z0-9+/_=\\-]{15,}|://|BEGIN|PuTTY|(?i:xox)")
_QUOTED_RUN = re.compile(r"""(['"])[A-Za-z0-9+/\\_=-]{9,}\1""")
# env-style lines (KEY=value, export KEY=value): keyword values need no quotes there
_ENV_LINE = re.compile(r"^\s*(?:export\s+|ENV\s+)?[A-Za-z_][A-Za-z0-9_.]*=[^\s=]")
# a hit line of a search result: "h3 src/app.py:12: text" (the path picks the file type)
_HIT_LINE = re.compile(r"^h\d+ (?P<path>[^\s:]+):\d+: ")


# --- depbot's token patterns ---------------------------------------------------------------

_SECRET_PATTERNS = [
    re.compile(
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|\Z)", re.S
    ),
    re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),  # AWS access key id
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}\b"),  # GitHub tokens
    re.compile(r"\bgithub_pat_[A-Za-z0-9_]{20,}\b"),
    re.compile(r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}\b"),  # OpenAI / Anthropic style keys
    re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}\b"),  # Slack
    re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"),  # Google API key
    re.compile(r"\b(?:npm_[A-Za-z0-9]{36}|pypi-[A-Za-z0-9_-]{40,})\b"),
    re.compile(r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b"),  # JWT
]
# the key word may sit anywhere in a name (DB_PASSWORD, app.secret); the pattern starts at the
# key word itself: a leading "[\w.-]*" would try every start of a long run of word characters
# (quadratic: seconds for one line of a hostile changelog). An unquoted value that is code
# (``token = self.token``, ``password = get_password()``, ``os.environ[...]``) is kept.
_ASSIGNMENT = re.compile(
    r"""(?ix)
    ((?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|auth)\b
     \s*["']?\s*[:=]\s*)
    (["']?)(?!\d+\b)(?:(?<=["'])|(?!(?:[A-Za-z_]\w*\.)+[A-Za-z_]|[A-Za-z_][\w.]*[(\[]))
    ([^\s"',;]{4,})(\2)
    """
)


_KEY_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
_KEY_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
# inside a block: base64 lines (maybe quoted, maybe with a "\n"), header lines, blank lines
_KEY_BODY = re.compile(r"""^[\s"'`+(]*(?:[A-Za-z0-9+/=]{8,}|[A-Za-z-]+:.*)?(?:\\n)?[\s"'`,;+)]*$""")


def private_key_lines(lines: list[str]) -> set[int]:
    """1-based numbers of the lines that belong to a PEM private key block in ``lines``.

    The redactor sees one line at a time, so the body of a key embedded in a source file
    (a string literal) looks like any other text; a search hit on it is still key material.
    A block runs from its BEGIN line over key-looking lines to its END line.
    """
    out: set[int] = set()
    block: list[int] = []
    for i, line in enumerate(lines, 1):
        if not block:
            if _KEY_BEGIN.search(line):
                block = [i]
                if _KEY_END.search(line[_KEY_BEGIN.search(line).end() :]):  # type: ignore[union-attr]
                    out.update(block)
                    block = []
            continue
        if _KEY_END.search(line):
            out.update(block + [i])
            block = []
        elif _KEY_BODY.match(line):
            block.append(i)
        else:  # not key material after all (code that mentions the marker)
            out.add(block[0])
            block = []
    out.update(block)  # a block cut off at the end of the file
    return out


def _known(text: str, extra: Iterable[str]) -> str:
    """The given secret values and depbot's token patterns replaced by ``MARK``."""
    for value in extra:
        if value and len(value) >= 4:
            text = text.replace(value, MARK)
    for pattern in _SECRET_PATTERNS:
        text = pattern.sub(MARK, text)
    return _ASSIGNMENT.sub(lambda m: f"{m.group(1)}{m.group(2)}{MARK}{m.group(4)}", text)


# --- detect-secrets' plugins ---------------------------------------------------------------


@dataclass(frozen=True)
class _Kit:
    """detect-secrets' pieces, imported on first use (the package takes ~0.15 s to load)."""

    patterns: tuple[tuple[re.Pattern[str], int], ...]  # (pattern, group of the secret)
    plugins: tuple[Any, ...]  # the others, through their own analyze_string (JWT validates)
    keywordish: re.Pattern[str]  # a line without one of the keyword plugin's words has no value
    keyword: Any
    entropy: tuple[Any, ...]
    config_groups: Any
    by_filetype: Any
    filetype: Any
    heuristic: Any


@lru_cache(maxsize=1)
def _kit() -> _Kit:
    from detect_secrets.filters import heuristic
    from detect_secrets.plugins.aws import AWSKeyDetector
    from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
    from detect_secrets.plugins.basic_auth import BasicAuthDetector
    from detect_secrets.plugins.discord import DiscordBotTokenDetector
    from detect_secrets.plugins.github_token import GitHubTokenDetector
    from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
    from detect_secrets.plugins.high_entropy_strings import (
        Base64HighEntropyString,
        HexHighEntropyString,
    )
    from detect_secrets.plugins.jwt import JwtTokenDetector
    from detect_secrets.plugins.keyword import (
        CONFIG_DENYLIST_REGEX_TO_GROUP,
        REGEX_BY_FILETYPE,
        KeywordDetector,
    )
    from detect_secrets.plugins.mailchimp import MailchimpDetector
    from detect_secrets.plugins.npm import NpmDetector
    from detect_secrets.plugins.openai import OpenAIDetector
    from detect_secrets.plugins.private_key import PrivateKeyDetector
    from detect_secrets.plugins.pypi_token import PypiTokenDetector
    from detect_secrets.plugins.sendgrid import SendGridDetector
    from detect_secrets.plugins.slack import SlackDetector
    from detect_secrets.plugins.square_oauth import SquareOAuthDetector
    from detect_secrets.plugins.stripe import StripeDetector
    from detect_secrets.plugins.twilio import TwilioKeyDetector
    from detect_secrets.util.filetype import determine_file_type

    # the plugins whose first group is the secret (a URL's password, an npm token); the
    # others match the secret whole (analyze_string would give "ghp" of a GitHub token)
    grouped = (AWSKeyDetector, BasicAuthDetector, NpmDetector)
    plugins = (
        AWSKeyDetector, AzureStorageKeyDetector, BasicAuthDetector, DiscordBotTokenDetector,
        GitHubTokenDetector, GitLabTokenDetector, JwtTokenDetector, MailchimpDetector,
        NpmDetector, OpenAIDetector, PrivateKeyDetector, PypiTokenDetector, SendGridDetector,
        SlackDetector, SquareOAuthDetector, StripeDetector, TwilioKeyDetector,
    )  # fmt: skip
    # patterns with a group go through finditer (findall would give the group), the rest
    # through the plugin's analyze_string (JWT checks the token decodes)
    patterns = tuple(
        (pattern, 1 if cls in grouped and pattern.groups else 0)
        for cls in plugins
        if any(p.groups for p in cls.denylist)
        for pattern in cls.denylist
    )
    from detect_secrets.plugins.keyword import DENYLIST

    return _Kit(
        patterns=patterns,
        plugins=tuple(cls() for cls in plugins if not any(p.groups for p in cls.denylist)),
        keywordish=re.compile("|".join(DENYLIST), re.IGNORECASE),
        keyword=KeywordDetector(),
        entropy=(Base64HighEntropyString(), HexHighEntropyString()),
        config_groups=CONFIG_DENYLIST_REGEX_TO_GROUP,
        by_filetype=REGEX_BY_FILETYPE,
        filetype=determine_file_type,
        heuristic=heuristic,
    )


def _keyword_values(line: str, filename: str) -> Iterator[str]:
    """Values assigned to secret-sounding names (``password``, ``api_key``, ``secret``…).

    A quoted literal counts anywhere (the plugin's per-language patterns); a bare value only
    in a config file (YAML, INI, TOML, properties) or on an env-style line (``KEY=value``,
    ``export KEY=value``), so prose and code (``token = self.token``) keep their words."""
    kit = _kit()
    groups = kit.by_filetype.get(kit.filetype(filename)) if filename else None
    yield from kit.keyword.analyze_string(line, groups)
    if groups is None and _ENV_LINE.match(line):  # a shell value ends at a space
        for value in kit.keyword.analyze_string(line, kit.config_groups):
            yield value.split()[0] if value.split() else value


def _entropy_values(line: str) -> Iterator[str]:
    for plugin in _kit().entropy:
        for value in plugin.analyze_string(line):
            if plugin.calculate_shannon_entropy(value) > plugin.entropy_limit:
                yield value


def detected(line: str, filename: str) -> set[str]:
    """The secret values detect-secrets' plugins report on one line, after its heuristics."""
    kit = _kit()
    heuristic = kit.heuristic
    values: set[str] = set()
    if _TOKENISH.search(line):
        for pattern, group in kit.patterns:
            values.update(m.group(group) or "" for m in pattern.finditer(line))
        for plugin in kit.plugins:
            values.update(plugin.analyze_string(line))
    if kit.keywordish.search(line):
        values.update(
            v
            for v in _keyword_values(line, filename)
            if len(v) >= 3
            and not heuristic.is_indirect_reference(line)
            and not heuristic.is_likely_id_string(v, line, kit.keyword)
        )
    if _QUOTED_RUN.search(line):
        values.update(_entropy_values(line))
    return {
        v
        for v in values
        if v
        and MARK[:-1] not in v  # already redacted (also KEY_BLOCK_LINE)
        and not heuristic.is_templated_secret(v)
        and not heuristic.is_prefixed_with_dollar_sign(v)
        and not heuristic.is_sequential_string(v)
        and not heuristic.is_not_alphanumeric_string(v)
    }


@lru_cache(maxsize=8192)
def detected_cached(line: str, filename: str) -> frozenset[str]:
    # a hit line is seen twice (the toolbox redacts its text, then the result holding it)
    return frozenset(detected(line, filename))


def _detected_line(line: str, filename: str = "") -> str:
    """``line`` with every secret value the detectors find replaced by ``MARK``.

    ``filename`` (the file the line comes from, if known) picks the keyword rules."""
    hit = _HIT_LINE.match(line)
    body = line[hit.end() :] if hit else line
    if not PREFILTER.search(body):
        return line
    filename = filename or (hit.group("path") if hit else "")
    # a long line is scanned in overlapping windows: some of the plugins' patterns are
    # quadratic on hostile text ("api_key" repeated), so a window bounds their cost
    step = MAX_LINE - OVERLAP
    values: set[str] = set()
    for i in range(0, max(len(body) - OVERLAP, 1), step):
        values |= detected_cached(body[i : i + MAX_LINE], filename)
    for value in sorted(values, key=len, reverse=True):  # a longer value may hold a shorter one
        line = re.sub(rf"(?<![\w]){re.escape(value)}(?![\w])", MARK, line)
        if value in line and not value.isidentifier():
            line = line.replace(value, MARK)
    return line


def _detected(text: str, filename: str = "") -> str:
    """``_detected_line`` on every line of ``text`` (line ends kept)."""
    if not PREFILTER.search(text):
        return text
    out = []
    for part in text.splitlines(keepends=True):
        line = part.rstrip("\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
        out.append(_detected_line(line, filename) + part[len(line) :])
    return "".join(out)


# --- the redactor --------------------------------------------------------------------------


def redact(
    text: str,
    extra: Iterable[str] = (),
    *,
    filename: str = "",
    patterns: bool = True,
    detectors: bool = True,
) -> str:
    """``text`` with its secrets replaced by ``MARK``: with ``patterns``, the ``extra`` values
    (this run's own secrets) and depbot's token patterns; then, with ``detectors``, what
    detect-secrets' plugins find on each line (``filename``, the file the text comes from
    when known, picks their keyword rules). The module's docstring says which text gets which."""
    if patterns:
        text = _known(text, extra)
    return _detected(text, filename) if detectors else text


def redact_value(value: Any) -> Any:
    """Every string inside a JSON-shaped value (keys too) through the detectors (a tool result:
    prose keeps its words); other values as they are."""
    if isinstance(value, str):
        return redact(value, patterns=False)
    if isinstance(value, dict):
        return {redact_value(k): redact_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_value(v) for v in value]
    if isinstance(value, tuple):
        return tuple(redact_value(v) for v in value)
    return value


def excerpt(text: Any, limit: int = 80) -> str:
    """What an error message may quote of a file's content: its first line, secret values
    replaced (detect-secrets and depbot's token patterns), at most ``limit`` characters."""
    raw = str(text)
    lines = raw.strip().splitlines() or [""]
    line = redact(lines[0].strip())
    more = len(lines) > 1
    if len(line) > limit:
        line, more = line[: max(limit - 1, 1)], True
    return line + ("…" if more else "")
