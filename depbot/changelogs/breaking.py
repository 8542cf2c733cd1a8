"""Reading a changelog section like a reviewer: which items break, and what to search for. Pure.

``analyze_section`` splits a section body into items (a bullet with its continuation
lines, or a paragraph), decides whether each item is breaking, a deprecation, a runtime
requirement or just information, and for breaking items extracts *candidates*: what a
search must find in the client code for the item to matter there, and how to recognise
it (a removed name, a removed parameter, a newly required argument, an ES-module-only
package, a removed sub-path import, ...).

The rules are general: they read the language changelogs use ("X was removed; use Y",
"X no longer accepts `a`", "`f()` now requires the `Loader` argument") and never any
package's name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from depbot.changelogs.candidates import extract_candidates
from depbot.changelogs.examples import replaced_values
from depbot.changelogs.items import (
    DEPRECATION,
    IF_YOU_USED,
    categorize,
    clean,
    code_spans,
    deprecates_only,
    sentences,
    split_items,
)
from depbot.changelogs.optional import optional_dependency_candidates
from depbot.changelogs.requires import required_use_candidates
from depbot.changelogs.spans import CALL, DOTTED, span_positions
from depbot.changelogs.wording import Candidate, behaviour_change, moved_out

# --- categories -----------------------------------------------------------------------------

CANDIDATE_KINDS = (
    "name",  # a removed or renamed function / class / attribute / constant
    "parameter",  # a removed keyword argument or option (of = the callable, when known)
    "required_arg",  # calls of `symbol` that do not pass `arg` now fail
    "positional",  # calls of `symbol` with more than `max_positional` positional arguments
    "signature",  # a removed call form `f(a, b)`: calls of f with that shape
    "literal_arg",  # calls of `symbol` that pass the literal `arg`
    "arg_kind",  # calls of `symbol` passing a value of the kind `arg` (string, number, …) it dropped
    "module",  # the package is ES-module-only: require() from CommonJS breaks
    "default_import",  # the default export is gone
    "subpath",  # a removed entry point such as `pkg/sub`
    "module_path",  # a removed (sub)module such as `pkg.sub`
    "config_key",  # a configuration key / environment variable no longer read
    "async",  # calls of `symbol` that are not awaited
    "behaviour",  # calls of `symbol`, whose behaviour changed: each must be verified
    "config_file",  # a configuration file (`.babelrc`, `setup.cfg`) the release no longer reads
    "required_use",  # a name the release now requires: code using the package without it breaks
    "optional_dependency",  # a feature (arg: its words) now needs the dependency `symbol` installed
    "callback_arg",  # calls of any of the package's API (symbol: the package) passing a callback
    "other_package",  # another package (symbol) the release drops or stops publishing: its imports
    "version_floor",  # another package (symbol) the release needs at version arg or newer
    "command",  # a command line (`python -m pkg.cli`, `tool init`) the release no longer runs
    "returned_member",  # the member `arg` of what the function `symbol` returns, removed
    "string_value",  # a string value (`horizontalBar` chart type) the release no longer accepts
    "options_given",  # the package's options reshaped (symbol: the package): the options given it
    "side_effect_import",  # `import 'pkg'` for its side effects no longer does them (symbol: pkg)
)


@dataclass(frozen=True)
class Item:
    """One changelog item (a bullet with its continuation lines, or a paragraph)."""

    text: str
    category: str  # breaking | deprecation | runtime | info
    candidates: tuple[Candidate, ...] = ()
    replacements: tuple[str, ...] = ()
    removes_deprecated: bool = False
    old_code: tuple[str, ...] = field(default=())  # removed lines of a diff example
    deprecates: tuple[Candidate, ...] = ()  # a deprecation: the names it deprecates (still working)
    context: str = ""  # the heading or lead-in the item sits under


# "- [Removal of `Severity` Enum](./MIGRATION.md#removal-of-severity-enum)": an entry of a
# guide's table of contents, a link to a section of the same notes, read where it stands
_CONTENTS_ENTRY = re.compile(
    r"\[[^\[\]]{1,300}\]\((?:\.{1,2}/)?(?:[\w.-]+/){0,6}(?:[\w.-]+\.(?:md|mdx|markdown|rst))?"
    r"#[\w.%-]{1,200}\)\W{0,3}"
)


def analyze_section(
    body: str, *, package: str = "", import_names: tuple[str, ...] = ()
) -> list[Item]:
    """Every non-trivial item of a section with its category and search candidates."""
    out: list[Item] = []
    explained = ""  # a heading that names what is gone, searched: the text under it explains
    for raw in split_items(body):
        text = clean(raw.text)
        if not text or _CONTENTS_ENTRY.fullmatch(raw.text.strip()):
            continue  # a guide's table of contents: the section it points to is read there
        if explained and raw.context.strip() == explained and not raw.heading:
            if _explains(text, explained):  # "Previously, remove method used to …": how
                continue
        category = categorize(text, raw.context, clean(raw.parent))
        if category == "info" and _changes_named_api(text, f"{raw.context} {raw.parent}"):
            category = "breaking"
        removes_deprecated = bool(_REMOVES_DEPRECATED.search(text))
        old_code = tuple(
            line.strip()[1:].strip()
            for line in raw.code
            if line.strip().startswith("-") and not line.strip().startswith("---")
        )
        cands: list[Candidate] = []
        news: list[str] = []
        if category == "breaking":
            cands, news = extract_candidates(
                text,
                context=f"{raw.context} {raw.parent}",
                package=package,
                import_names=import_names,
                old_code=old_code,
            )
            if not cands and IF_YOU_USED.match(text):
                continue  # a guide's "If you were using `x`" whose diff shows no old call of it
            if not cands:  # "now requires an accompanying plugin" + its example's import
                cands = required_use_candidates(text, raw.context, raw.code, package, import_names)
        if (
            category in ("info", "breaking")
            and not cands
            and not _NOT_A_BREAK_CTX.search(f"{raw.context} {raw.parent}")
        ):  # "Email validation is now handled by an optional library, `email_validator`"
            optional = optional_dependency_candidates(text, package)
            if optional:
                category, cands = "breaking", optional
        if (
            category in ("info", "breaking")
            and not cands
            and not _NOT_A_BREAK_CTX.search(f"{raw.context} {raw.parent}")
        ):  # "To upgrade, change: <old config> Into: <new one>": the values the old one drops
            replaced = replaced_values(text, raw.blocks)
            if replaced:
                category, cands = "breaking", replaced
        if category == "info" and not removes_deprecated:
            continue
        deprecates: list[Candidate] = []
        if category == "deprecation":
            context = f"{raw.context} {raw.parent}"
            deprecates = _as_removed(text, package, import_names, context)[0]
            if deprecates and _lists_the_removed(out, text, context):
                category, cands, deprecates = "breaking", deprecates, []
        explained = raw.text.strip() if raw.heading and cands else explained
        out.append(
            Item(
                text=text,
                category=category,
                candidates=tuple(cands),
                replacements=tuple(dict.fromkeys(news)),
                removes_deprecated=removes_deprecated,
                old_code=old_code,
                deprecates=tuple(deprecates),
                context=f"{raw.context} {raw.parent}".strip(),
            )
        )
    return out


_REMOVES_DEPRECATED = re.compile(
    r"deprecat\w*(?:.{0,40}|[^.]{0,100}?)\b(remov|gone|delet|dropp)|\bremov\w*.{0,40}deprecat", re.I
)


def _lists_the_removed(out: list[Item], text: str, context: str) -> bool:
    """ "All deprecated properties … have been removed" and then a table of them ("| FSTDEP017
    | You are accessing the deprecated `request.routerPath` property. | Use …"): the table's
    deprecated names are the ones removed, not deprecations that still work."""
    lead = out[-1] if out else None
    return (
        text.lstrip().startswith("|")
        and lead is not None
        and lead.category == "breaking"
        and lead.removes_deprecated
        and not lead.candidates
        and lead.context == context.strip()
    )


# how a paragraph under a removal's heading goes on about it: "Previously, …", "This …"
_EXPLAINS = re.compile(
    r"^\W*(?:previously|before|this|these|that|it|they|since|because|if\s+you|instead|you\s+can|"
    r"to\s+achieve|in\s+v?\d|but|however)\b",
    re.I,
)


def _explains(text: str, heading: str) -> bool:
    """A paragraph in plain words (no code spans) under a heading that names what is gone,
    which speaks of it (its name, or "Previously, …", "This …"): how, not another break."""
    if code_spans(text):
        return False
    names = {w for span in code_spans(heading) for w in re.findall(r"[A-Za-z_$][\w$-]*", span)}
    said = any(re.search(rf"(?<![\w$-]){re.escape(n)}(?![\w$-])", text) for n in names)
    return said or bool(_EXPLAINS.match(text))


_NOT_A_BREAK_CTX = re.compile(
    r"\b(features?|added|new|improvements?|enhancements?|bug ?fix(es)?|fixe[sd]|docs?)\b", re.I
)


def _changes_named_api(text: str, context: str) -> bool:
    """A name moved to another distribution, or a named API behaves differently: breaking,
    though none of the removal words is there (outside feature and fix lists)."""
    if _NOT_A_BREAK_CTX.search(context) or deprecates_only(text):
        return False
    return any(
        moved_out(s) >= 0 or (behaviour_change(s) and _names_api(s)) for s in sentences(text)
    )


def _names_api(sentence: str) -> bool:
    """A code span, or a plain dotted name or call (``jwt.encode``, ``load()``) when the
    sentence has no code spans."""
    if code_spans(sentence):
        return True
    return any(DOTTED.match(s.text) or CALL.match(s.text) for s in span_positions(sentence))


def _as_removed(
    text: str, package: str, import_names: tuple[str, ...], context: str = ""
) -> tuple[list[Candidate], list[str]]:
    """A deprecation read as the removal it announces: the names it deprecates (a bare
    ``- `name``` under "Deprecated rules" is one of the rules)."""
    text = re.sub(r"\b(is|are)\s+(now\s+)?deprecated\b", "is removed", text, flags=re.I)
    text = re.sub(r"`*\b\w*DeprecationWarning\b`*", "a warning", text)
    text = re.sub(r"\bdeprecat\w*", "removed", text, flags=re.I)
    context = re.sub(r"\bdeprecat\w*", "removed", context, flags=re.I)
    return extract_candidates(
        text, context=f"removed {context}", package=package, import_names=import_names
    )


def deprecated_names(
    body: str, *, package: str = "", import_names: tuple[str, ...] = ()
) -> list[Item]:
    """Deprecation notes of a section read as removals: what a 'removed deprecated code' release drops."""
    out = []
    for raw in split_items(body):
        text = clean(raw.text)
        if not DEPRECATION.search(text + " " + raw.context):
            continue
        cands, news = _as_removed(text, package, import_names)
        if cands:
            out.append(
                Item(
                    text=text,
                    category="deprecation",
                    candidates=tuple(cands),
                    replacements=tuple(news),
                )
            )
    return out


__all__ = [
    "Candidate",
    "Item",
    "analyze_section",
    "categorize",
    "deprecated_names",
    "extract_candidates",
    "split_items",
]
