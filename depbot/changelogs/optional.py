"""A feature the release now leaves to an optional dependency, as an item words it. Pure.

"Email validation is now handled by an optional library, ``email_validator``": code that
uses the feature breaks unless the project installs that library itself, which it did not
need to before. The item names the dependency (a code span shaped like a distribution name)
and the feature in words ("Email validation"); the candidate (``optional_dependency``) is the
dependency, with the feature's words as ``arg``, and is matched the other way round: the
package's names called like a feature word are the hits when no manifest of the checkout
lists the dependency (``symbols/optional``).
"""

from __future__ import annotations

import re

from depbot.changelogs.items import code_spans
from depbot.changelogs.wording import Candidate

__all__ = ["optional_dependency_candidates"]

# "handled by an optional library", "now an optional dependency", "requires `x` to be
# installed", "install `x` separately", "moved to the `email` extra"
_OPTIONAL = re.compile(
    r"\boptional\s+(?:librar(?:y|ies)|packages?|dependenc(?:y|ies)|modules?|extras?|"
    r"requirements?|backends?)\b"
    r"|\b(?:is|are)\s+now\s+(?:an?\s+)?optional\b"
    r"|\bto\s+be\s+installed\b|\binstall(?:ed)?\s+(?:it\s+)?separately\b",
    re.I,
)
# the item's subject: what it says before the verb ("Email validation" is now handled …)
_VERB = re.compile(
    r"\b(?:is|are|was|were|has|have|now|requires?|needs?|uses?|depends?|relies|moved)\b", re.I
)
# it says the feature changed ("is now handled by", "no longer bundles", "moved to"), not
# that one was added ("YAML files are now supported with the optional `pyyaml`")
_CHANGED = re.compile(r"\bnow\b|\bno\s+longer\b|\bmoved\b", re.I)
_ADDED = re.compile(
    r"\bnow\s+(?:supported|supports?|possible|available|works?|accepts?|allowed)\b"
    r"|\b(?:adds?|added|new)\b",
    re.I,
)
_DIST = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,}")
_STOP = {
    "the", "and", "for", "with", "from", "support", "supports", "feature", "features",
    "functionality", "library", "package", "module", "dependency", "optional", "all", "any",
}  # fmt: skip


def _dependency(spans: list[str], package: str) -> str | None:
    """The one code span shaped like a distribution name that is not the package itself."""
    own = {package.lower(), package.lower().replace("-", "_")}
    names = [
        s for s in spans
        if _DIST.fullmatch(s) and s.lower() not in own and not s[:1].isupper()
    ]  # fmt: skip
    return names[0] if len(set(names)) == 1 else None


def feature_words(text: str) -> list[str]:
    """The words that name the feature: the item's subject, outside code spans."""
    plain = re.sub(r"``?[^`]+``?", " ", text)
    verb = _VERB.search(plain)
    subject = plain[: verb.start()] if verb else ""
    return [w for w in _WORD.findall(subject) if w.lower() not in _STOP][:4]


def optional_dependency_candidates(text: str, package: str) -> list[Candidate]:
    """An ``optional_dependency`` candidate of an item that says a feature now needs an
    optional dependency the item names; none when it names no feature or several names."""
    if not package or not _OPTIONAL.search(text):
        return []
    if not _CHANGED.search(text) or _ADDED.search(text):
        return []
    dep = _dependency(code_spans(text), package)
    words = feature_words(text)
    if dep is None or not words:
        return []
    return [Candidate(dep, "optional_dependency", arg="|".join(words))]
