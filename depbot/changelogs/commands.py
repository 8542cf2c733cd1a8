"""Command lines a removal names. Pure.

"Remove the ``python -m werkzeug.serving`` CLI", "`npx tool init` was removed", "the `tool
migrate` command is gone": the span is no name code imports but a command something runs (a
script, a CI step). It becomes a ``command`` candidate, searched in every file of the checkout.
A span reads as a command when a launcher runs it (``python -m``, ``npx``, ``pnpm dlx``) or
when its first word is the package's own name followed by a subcommand.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from depbot.changelogs.spans import Span
from depbot.changelogs.wording import Candidate

__all__ = ["command_candidates"]

_LAUNCHED = re.compile(
    r"^(?:(?:python[\d.]*|py)\s+-m\s+[A-Za-z_][\w.]*|(?:npx|bunx|pnpm\s+dlx|yarn\s+dlx)\s+"
    r"[@\w][\w@./-]*)(?:\s+[\w:-]+)?$",
    re.I,
)
_SUBCOMMAND = re.compile(r"^([@\w][\w@./-]*)\s+([a-z][\w:-]*)$")


def command_candidates(spans: Sequence[Span], package: str) -> list[Candidate]:
    """The command lines among a removal's code spans."""
    own = {package.lower(), package.rsplit("/", 1)[-1].lower()} - {""}
    out = []
    for s in spans:
        text = " ".join(s.text.split())
        sub = _SUBCOMMAND.match(text)
        if _LAUNCHED.match(text) or (sub and sub.group(1).lower() in own):
            out.append(Candidate(text, "command"))
    return out
