"""The breaking items no search can clear. Pure.

An item that announces a break ("BREAKING:", "now requires …"), a change of behaviour, or a
removal without a name to search for ("Removed: 76 rules", "Remove Tooltip legacy
placement", "Remove deprecated `.extend` API"), or that a generator lists under its "BREAKING
CHANGES" heading ("use ES Module export instead of CommonJS"), leaves ``not_affected``
unproven: the update is ``unknown``, quoting it. Words about the items (a label, "detailed below", a codemod), a
lead-in to the items read after it, a closed issue's title and a package's housekeeping
("Remove `debug` dependency") are not such items.
"""

from __future__ import annotations

import re

from depbot.changelogs.items import REWRITE
from depbot.changelogs.trim import TRIMMED_MARK
from depbot.changelogs.wording import behaviour_change, issue_report
from depbot.core.fence import unfence
from depbot.planner.records import Changelog, Entry

__all__ = ["module_format_item", "unnamed_breaks", "unnamed_indices"]

# "[BREAKING CHANGE]", "BREAKING:", "(breaking)", "breaking change": a break said outright;
# "now requires React 18", "must now be wrapped in a <Provider>", "a plugin is now required":
# a requirement the code may not meet, which no name search can clear
_ANNOUNCED_BREAK = re.compile(
    r"\bBREAKING\b|\(breaking(?: change)?\)|\bbreaking changes?\b|\bbackwards?[- ]incompatible\b|"
    r"\bnow\s+(?:requires?|required|must|has\s+to|have\s+to|needs?\s+to)\b|"
    r"\b(?:is|are)\s+now\s+(?:required|mandatory)\b|\bmust\s+now\b|" + REWRITE,
    re.I,
)
# "breaking:", "**Removed:**": a heading the notes wrote as a list item, not an item
_LABEL = re.compile(r"[\W_]*[\w -]{1,30}:[\W_]*")
# "Please note the breaking changes detailed below", "What's changed in X 2.0, including
# breaking changes": words about the items that follow (and are read), not an item
_POINTS_BELOW = re.compile(
    r"\b(?:detailed|listed|described|explained)\s+below\b|^\W*what'?s\s+(?:changed|new)\b"
    r"|^\W*this\s+(?:release|version)\s+(?:contains|includes|has|introduces)\s+"
    r"(?:some\s+|several\s+|a\s+few\s+)?(?:(?:significant|major|notable)\s+(?:or|and|/)\s+)?"
    r"breaking\s+changes\W*$"  # "This release contains significant or breaking changes."
    r"|^\W*this\s+(?:page|document|guide|section|file)\s+(?:lists|describes|covers|documents|"
    r"explains|summari[sz]es)\b"
    # "most of the \"breaking\" changes should not have an actual effect": the items as a group
    r"|\b(?:most|many|all|none|some)\s+of\s+(?:the|these|those)\s+\W{0,2}breaking\W{0,2}\s+changes\b"
    r"|[\"\u201c']breaking[\"\u201d']"  # the word in quotes: talk about it, not a break
    r"|\(\s*\W{1,3}\s*=\s*breaking(?:\s+changes?)?\s*\)"  # "(⚠ = breaking changes)": a legend
    r"|\bcode\s?mods?\b",  # a note on the codemod that migrates the breaks, not one of them
    re.I,
)
# "We've gone 4 years without any breaking changes", "does not mention breaking changes":
# "non-breaking change": the words deny a break; they announce none
_NO_BREAKS = re.compile(
    r"\bnon-?breaking\b|"
    r"\b(?:without|no|never|not\s+mention|does\s+not\s+mention|doesn't\s+mention)\s+"
    r"(?:any\s+)?breaking\s+changes?\b|"
    r"\b(?:is|are|was|were)(?:\s+not|n't)\s+(?:an?\s+)?(?:actual\s+)?breaking(?:\s+changes?)?\b",
    re.I,
)
# "the ones earlier in the chain that would no longer apply": a hypothesis (why a change was
# made, what would happen otherwise), not what the release does
_HYPOTHETICAL = re.compile(r"\b(?:would|could|might)\s+(?:not\s+)?(?:no\s+longer|now)\s+\w+", re.I)
_GENERIC_BREAKS = re.compile(
    r"\b(?:(?:some|a\s+few|several|a\s+number\s+of|the\s+following|these|few)\s+)?"
    r"(?:potentially\s+)?breaking\s+changes?\b",
    re.I,
)
# "Removed: 76 rules deprecated in 15.0.0", "dropped support for processors": things the code
# may use are gone, and the item does not say which; a fix that removes something is no break
_REMOVED_UNNAMED = re.compile(
    r"(?<!the )(?<!any )\b(?:remov(?:e|ed|es|al\s+of)|dropp?(?:ed|s)?|delet(?:e|ed|es))\b[^.;]{0,40}?"
    r"\b(?:rules?|options?|methods?|functions?|apis?|propert(?:y|ies)|exports?|class(?:es)?|"
    r"components?|commands?|flags?|arguments?|parameters?|hooks?|events?|aliases?|helpers?|"
    r"settings?|support\s+for(?!\s+(?:python|node|nodejs|node\.js|ie\b|internet|older|old|"
    r"legacy\s+(?:browsers|node|python)|browsers|java|ruby|php|deno|bun|pypy|cpython|windows|"
    r"macos|linux|v?\d)))\b(?!-\w)",  # "class-based integrations": a kind word as an adjective
    re.I,
)
# "Remove Tooltip legacy placement", "Removed the old sizing": an item that leads with a
# removal but names nothing to search for. What it removed may be something the code uses, so
# it is a break no search cleared; removals of the package's own housekeeping are not
_REMOVAL_LEAD = re.compile(
    r"^\W*(?:\[[^\]]{1,30}\]\s*|[\w-]{1,20}(?:\([^)]{0,30}\))?!?:\s*)?"  # "[Button] ", "feat(x): "
    r"(?:remov(?:e|ed|es)|drop(?:ped|s)?|delet(?:e|ed|es))\s",
    re.I,
)
# "`global` was removed from the defaults namespace", "`x` is no longer exported": the
# subject is code; "Named groups are no longer available by position" says how, not what
_REMOVED_AFTER = re.compile(
    r"`[^`]+`\W{0,3}\s+(?:\w+\s+){0,3}?(?:was|were|is|are|been|has\s+been|have\s+been)\s+"
    r"(?:now\s+)?(?:removed|dropped|deleted)\b"
    r"|`[^`]+`\W{0,3}\s+(?:is|are)\s+no\s+longer\s+(?:re-?exported|exported|available|provided)\b"
    r"|\bno\s+longer\s+(?:re-?exports?|exports?)\b",
    re.I,
)
# what a package removes from itself: its dependencies, files, builds, warnings, dead code;
# "previously deprecated code", "deprecations for 10.0" have the released code's diff to
# account for them (``wants_api``); "error stubs" only threw
_HOUSEKEEPING = re.compile(
    r"^\W*(?:perf|pref|build|ci|style|deps?|meta|readme|lint|chore|refactor|tests?|docs?)\b|\bdependenc|\bdeps\b|\bdevdep|\btarball\b|"
    r"\bfiles?\s+from\b|\bfrom\s+(?:the\s+)?(?:package|bundle|npm|published|dist)\b|\bbuilds?\b|"
    r"\bwarnings?\b|\busage\b|\b(?:remov|dropp?|delet)\w*\s+(?:\w+\s+){0,2}?"
    r"(?:temporary|unused|unnecessary|redundant|extraneous)\b|\bdead\s+code\b|\bdeprecated\s+code\b|\bdeprecations\b|\berror\s+stubs?\b|\btests?\b|\bdocs?\b|\bdocumentation\b|"
    r"\bcomments?\b|\btypos?\b|\blog(?:s|ging)?\b|\bconsole\b|\bduplicat|\binternal(?:ly)?\b|"
    r"\bpolyfills?\b|\bsupport\s+for\b|\b(?:node|nodejs|python|ie)\s*v?\d",
    re.I,
)
_A_FIX = re.compile(
    r"^\W*(?:fix(?:ed|es)?|bug\s*fix(?:es)?|docs?|chore|refactor|perf|test)\b", re.I
)
# "so you don't need to have `less` in your `package.json`, we already supply it": a demand
# relaxed, which code that still meets it does not trip over, though listed as a break
_RELAXED = re.compile(
    r"\b(?:do\s+not|don'?t|no\s+longer|won'?t|will\s+not)\s+need\s+to\b|\bno\s+(?:more\s+)?need\s+to\b"
    r"|\b(?:is|are)\s+no\s+longer\s+(?:needed|required|necessary)\b",
    re.I,
)
# "Remove subpath exports from package.json", "yargs is now ESM first", "drop the CommonJS
# build": what the item breaks is the package's module format or its entry points, which the
# released code's comparison reads (package.json, every entry file, every subpath); not the
# format of what a tool emits ("use ES Module export instead of CommonJS" for a loader's output)
_MODULE_FORMAT = re.compile(
    r"\bsubpath\s+(?:exports?|imports?|patterns?)\b|\bdeep\s+(?:imports?|requires?)\b"
    r"|\b`?exports`?\s+(?:map|field)\b|\bESM[- ](?:only|first)\b|\bpure\s+ESM\b"
    r"|\bis\s+now\s+(?:an?\s+)?(?:ESM|ES\s?modules?)(?:\s+(?:only|first|package))?\s*[.!]?\s*$"
    r"|\b(?:drop(?:ped|s)?|remov(?:e|ed|es))\s+(?:the\s+)?(?:support\s+for\s+)?(?:CommonJS|CJS)"
    r"(?:\s+(?:build|builds|support|entry|entries|version|bundle))?\s*[.!]?\s*$"
    r"|\bno\s+longer\s+(?:ships?|provides?|publish(?:es)?)\s+(?:an?\s+)?(?:CommonJS|CJS)\b"
    # "Breaking: changed exports. See README.", "Remove React Native extra files."
    r"|\bchanged\s+(?:the\s+)?(?:package'?s?\s+|module'?s?\s+)?exports\s*(?:[.!]|$)"
    r"|^\W*remov(?:e|ed|es)\s+(?:the\s+|some\s+)?(?:[A-Z][\w-]*\s+){0,3}(?:extra|unused|"
    r"unnecessary|redundant)\s+files\s*[.!]?\s*$",
    re.I,
)
_EMPHASIS = re.compile(r"(?<![A-Za-z0-9])[*_]+|[*_]+(?![A-Za-z0-9])")  # markdown emphasis


def module_format_item(item: str) -> bool:
    """Whether a breaking item says only that the package's module format or entry points
    changed: a clean comparison of the released code accounts for it."""
    return bool(_MODULE_FORMAT.search(_EMPHASIS.sub("", " ".join(unfence(item).split()))))


def unnamed_breaks(cl: Changelog) -> list[str]:
    """The breaking items of an update that may break (coverage needed) that announce a break
    or a change of behaviour without naming an API to search for: no search can clear them."""
    read = [" ".join(unfence(cl.breaking[i].item).split()) for i in unnamed_indices(cl)]
    unshown = [" ".join(unfence(t).split()) for t in cl.announced_not_shown]
    more = max(cl.announced_not_shown_count - len(unshown), 0)  # counted, not quoted
    # an item the notes repeat (the same section listed again) is one item
    return list(dict.fromkeys(read + unshown)) + ["(an item the result left out)"] * more


def unnamed_indices(cl: Changelog) -> list[int]:
    """Where in ``cl.breaking`` the items of ``unnamed_breaks`` are."""
    if not (cl.coverage and cl.coverage.needed):
        return []
    entries = list(cl.breaking)
    out = []
    for i, e in enumerate(entries):
        t = " ".join(unfence(e.item).split())
        plain = _EMPHASIS.sub("", t)  # "**this is _not_ a breaking change**"
        if cl.breaking_lines_cut and TRIMMED_MARK.search(t):  # breaking lines cut to fit the
            out.append(i)  # budget: what they said was never read, so no search cleared it
            continue
        if (
            e.candidates
            or _LABEL.fullmatch(t)
            or _POINTS_BELOW.search(plain)
            or issue_report(t)
            or _leads_in(e, plain, entries[i + 1 : i + 2])
        ):
            continue
        rest = _HYPOTHETICAL.sub("", _NO_BREAKS.sub("", plain))
        if _ANNOUNCED_BREAK.search(rest) or behaviour_change(rest) or _removes_unnamed(rest):
            out.append(i)
        elif e.declared and not (
            _HOUSEKEEPING.search(plain) or _A_FIX.search(plain) or _RELAXED.search(plain)
        ):
            out.append(i)  # "use ES Module export instead of CommonJS" under BREAKING CHANGES
    return out


def _removes_unnamed(text: str) -> bool:
    """The item says a kind of thing the code may use was removed, without names."""
    if _A_FIX.search(text):
        return False
    if _REMOVED_UNNAMED.search(text):
        return True
    # a removal ("Remove deprecated `.extend` API", "`global` was removed from the defaults")
    # whose reading gave no search: what it names may be used here, and nothing looked
    said = _REMOVAL_LEAD.search(text) or _REMOVED_AFTER.search(text)
    return bool(said) and not _HOUSEKEEPING.search(text)


def _leads_in(e: Entry, plain: str, after: list[Entry]) -> bool:
    """Whether an item is a lead-in ("This change does include some breaking changes, but
    …:") to the items read right after it in the same section: they are the breaks it
    announces. With nothing read after it, it stays an item (the list may be lost)."""
    if not (plain.rstrip().endswith(":") and after and after[0].ref == e.ref):
        return False
    rest = _GENERIC_BREAKS.sub("", plain)  # what it says beyond "some breaking changes"
    return not (_ANNOUNCED_BREAK.search(rest) or behaviour_change(rest))
