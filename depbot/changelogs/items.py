"""Changelog items: split a section into bullets and paragraphs, and say what kind each is. Pure.

An *item* is a bullet with its continuation lines, or a paragraph, or a sub-heading that
says what it removes ("### Removed `context` argument"); it remembers the sub-heading it sits
under ("Removed", "Bug Fixes", express-style "remove:" lists).
``categorize`` calls an item breaking, a deprecation, a runtime requirement or
information, from the words changelogs use and the heading they use them under.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from depbot.changelogs.markup import closes_fence

REMOVAL_CONTEXT = re.compile(r"\b(remov(e|ed|al|als)|delet(e|ed|ions?)|drop(ped)?|gone)\b", re.I)
_BREAKING_CTX = re.compile(
    r"breaking|backwards?[- ]incompatible|\bincompatib|⚠|\bremov|\bdelet|\bdropped\b"
    r"|\bmajor\s+changes?\b",  # changesets' "### Major Changes" of a released package
    re.I,
)
# "### BREAKING CHANGES" / "### ⚠ BREAKING CHANGES": a conventional-commits generator's heading,
# under which each bullet is a commit's own BREAKING CHANGE note: a break the notes declare; a
# person's "### Breaking Changes" declares its items as much
DECLARED_BREAKS = re.compile(r"^\W{0,4}BREAKING CHANGES?\b", re.I)
DEPRECATION = re.compile(r"deprecat", re.I)
_FIX_CTX = re.compile(r"\b(bug ?fix(es)?|fixe[sd]|fixed|security)\b", re.I)
_NEUTRAL_CTX = re.compile(
    r"\b(features?|added|adds?|new|improvements?|enhancements?|performance|docs?|documentation|"
    r"chores?|maintenance|build|internal|deps|dependencies|misc|other|highlights?|changed?)\b",
    re.I,
)

# a release that says it starts over: every use of the package may break
REWRITE = (
    r"\b(full|complete|total)\s+rewrite\b|\brewritten\s+from\s+(scratch|the\s+ground\s+up)\b"
    r"|\bbrand[- ]new\s+(module|api|library|package|implementation)\b"
)

_BREAKING_WORDS = re.compile(
    r"""(?ix)
    \bbreaking\b | \bbackwards?[- ]incompatible | \bincompatible\b
    | \bremov(e|ed|es|al|als|ing)\b | \bdelet(e|ed|es)\b | \bdropped\b | \bdrop(s)?\s+support
    | \bno\s+longer\b | \bnot\s+longer\b | \brenamed\b | \b(is|are)\s+gone\b | \bno\s+more\b
    | \bmust\s+now\b | \bnow\s+requires?\b | \brequires?\s+the\b | \b(is|are)\s+now\s+required\b
    | \bmandatory\b | \bkeyword[- ]only\b | \bpositionally\b | \b(is|are)\s+now\s+(called|named)\b
    | \b(is|are)\s+(called|named)\s+`[^`\n]{1,80}`\s+now\b
    | \breplaced\s+(by|with)\b | \bmoved\s+(to|out|into)\b | \b(is|are)\s+now\s+private\b
    | \b(is|are)\s+now\s+(an?\s+)?async | \brequires?\s+an?\s+callback\b | \bnow\s+returns?\s+a\s+promise | \bES\s?M(odule)?s?[- ]only
    | \bpure\s+ES\s?M | \bES\s+module\s+only | \bdefault\s+export
    | \binstead\s+of\s+((taking|accepting|using|calling)\s+)?(a\s+|the\s+)?callbacks?\b
    | \bcallbacks?\s+(are|is)\s+no\s+longer\b
    | \b(change|replace|rewrite|update|convert)\s+(any|every|all|each)\s+(instances?|uses?|usages?|calls?|occurrences?)\s+of\b | """
    + REWRITE
)
FUTURE_REMOVAL = re.compile(
    r"\b(will|to)\s+be\s+removed|\bwill\s+go\s+away|\bgoes\s+away\s+in|\bscheduled\s+for\s+removal|"
    r"\bin\s+a\s+future\s+(release|version)|\bwill\s+be\s+dropped|\bwill\s+no\s+longer",
    re.I,
)
# what takes a name away for good; "renamed", "replaced by", "moved" of a deprecated name
# leave it working (an alias that warns)
HARD_REMOVAL = re.compile(
    r"\b(removed|deleted|dropped|gone|removal\s+of|there\s+is\s+no|no\s+longer\s+(exists?|available|"
    r"importable|exported|provided|shipped|included|part\s+of))\b|^\W*remov\w*\b",
    re.I,
)


def deprecates_only(text: str) -> bool:
    """The item deprecates a name that keeps working ("`x` is deprecated in favour of `y`",
    "renamed to `y`; the old name is deprecated", "emits a DeprecationWarning"): nothing
    is removed by it. "`x`, deprecated since 1.2, has been removed" is a removal."""
    if not DEPRECATION.search(text):
        return False
    for s in sentences(text):
        if HARD_REMOVAL.search(s) and not FUTURE_REMOVAL.search(s):
            return False
    return True


_RUNTIME = re.compile(
    r"\b(python|pypy|node(\.js)?|nodejs|npm|deno|bun|ie|internet explorer|safari|chrome|firefox|"
    r"openssl|libressl|windows|macos|linux|ecmascript|es(?:20\d\d|[5-9]|next))\b"
    r"(?!-\d)",  # "NODE-4522": an issue key, not Node.js
    re.I,
)
_EXPLICIT_BREAKING = re.compile(r"\(breaking( change)?\)|\*\*breaking\b|^breaking\b|BREAKING", re.I)
EXPLICIT_BREAKING = _EXPLICIT_BREAKING  # an item that says it breaks, in its own words

# "no longer <verb>" that says a thing is gone (rather than behaves differently)
_GONE_VERBS = (
    "exist", "exists", "available", "importable", "exported", "export", "exports", "supported",
    "support", "accepted", "accepts", "accept", "allowed", "provided", "provides", "works", "work",
    "usable", "part", "shipped", "included", "be", "read", "recognized", "recognised",
    "understood", "honoured", "honored", "has", "have", "takes", "take", "valid",
    "public", "documented", "there", "a", "an", "callable", "re-export", "re-exports",
    "re-exported", "reexport", "reexports", "reexported",
)  # fmt: skip
# "you no longer need the side effect import", "`x` is no longer required": a demand relaxed,
# which code that still meets it does not break; neither gone nor behaving differently
_RELAXED_VERBS = frozenset("need needs needed necessary required mandatory".split())
# active verbs whose object says what is gone only when it is a name ("no longer accepts
# `timeout`"); with a plain-words object ("no longer accepts unsigned tokens") the API stays
# and the values it takes changed
_OBJECT_VERBS = frozenset(
    "accepts accept takes take supports support provides has have allows allow".split()
)
_NAMED_OBJECT = re.compile(r"\s+((the|a|an|any)\s+)?(`|:\w+:`)")
_NO_LONGER = re.compile(r"\bno\s+longer\s+((?:re-?)?\w+)(?:\s+(\w+))?", re.I)
REMOVAL_PHRASE = re.compile(
    r"""(?ix)
    \b(is|are|was|were|has\s+been|have\s+been|got|get)\s+(now\s+)?(removed|deleted|dropped|gone|renamed|
        moved|replaced|private|unexported)\b
    | \b(is|are)\s+gone\b | \blose(s)?\s+(their|its)\b | \brenamed\b | \breplaced\s+(by|with)\b
    | \b(is|are)\s+now\s+(called|named)\b | \b(is|are)\s+(called|named)\s+`[^`\n]{1,80}`\s+now\b
    | \bnow\s+(only\s+)?available\s+as\b | \bno\s+more\b
    | \bthere\s+is\s+no\b
    | \b(change|replace|rewrite|update|convert)\s+(any|every|all|each)\s+(instances?|uses?|usages?|calls?|occurrences?)\s+of\b
    | \b(who\s+(are|were)\s+using|if\s+you\s+(are\s+|were\s+)?(use|used|using))\b[^.;]{0,80}?\b(should|must|need\s+to|have\s+to)\s+(now\s+)?(change|switch|migrate)\s+to\b
    | ^\W*(\*\*[\w-]+:?\*\*:?\s*|[\w-]{1,20}(\([^()]{0,40}\))?!?:\s*)?(removed?|removes|deleted?|drop(ped)?|renamed?|replaced?)\b(?!\s+(?:by|with)\b)
    | \b(and|also|we|has|have)\s+(removed|dropped|deleted)\b | \bremoval\s+of\b
    | \bthis\s+(change|release|version|update|pr|commit)\s+(also\s+)?(removes|drops|deletes)\b
    | \b(is|are)\s+now\s+(the\s+|a\s+)?(named\s+)?export(ed)?\b
    | `\s+(support\s+)?(removed|deleted|dropped)\s*([.,;]|from\b|$) | \b(is|are)\s+(now\s+)?exported\s+as\b
    | ^\W*([\w-]+\s+){1,4}(removed|deleted|dropped)\s*:   # a headline: "Model aliases removed:"
    """
)


# --- spans ---------------------------------------------------------------------------------

CODE_SPAN = re.compile(r"(?<![`\\])(``?)(?!`)(.+?)(?<!`)\1(?!`)")
RST_ROLE = re.compile(
    r":(?:py:)?(?:func|meth|class|attr|data|mod|obj|exc|const|envvar):`~?\.?([^`]+)`"
)
_IGNORED_ROLE = re.compile(r":(?:issue|pr|ghsa|pep|user|bug|cve|gh|doc|ref|commit):`[^`]*`")
_URL = re.compile(r"https?://\S+|\bwww\.\S+")
_MD_LINK = re.compile(r"\[([^\[\]]{0,500})\]\([^()\s]{0,2048}\)")  # bounded: linear


@dataclass
class _Raw:
    text: str
    context: str  # the nearest sub-heading (or "remove:"-style parent) text
    parent: str  # the enclosing bullet's own text
    code: list[str] = field(default_factory=list)
    heading: bool = False  # a heading that names what is gone: the text under it explains it
    blocks: list[list[str]] = field(default_factory=list)  # ``code``, one list per fenced block


_NAMES_A_REMOVAL = re.compile(
    r"^\W*(removed?|removal\s+of|dropped|renamed?)\b"
    # "### The `remove` method has been removed from useQuery", "`a` has been renamed to `b`"
    r"|`[^`]+`[^`]{0,40}?\b(?:has\s+been|have\s+been|is|are|was|were)\s+(?:now\s+)?"
    r"(?:removed|renamed|dropped)\b",
    re.I,
)
# a migration guide's step for code that uses a named API ("### If you were using
# `tippy.setDefaults()`", a diff of the old and new call under it): the API changed
IF_YOU_USED = re.compile(
    r"^\W*if\s+you\s+(?:were\s+|are\s+)?(?:using|used|use|call(?:ed|ing)?)\b", re.I
)
# a guide's heading that tells what to change ("### Replace `allowNode`, `allowedTypes`")
_CHANGE_HEADING = re.compile(r"^\W*(?:change|replace|rename)\s+`", re.I)
_DECLARES_BREAKING = re.compile(r"\bbreaking\s+changes?\b|\bbackwards?[- ]incompatible\b", re.I)
_BULLET = re.compile(r"^(\s*)(?:[-*+•]|\d{1,3}[.)])\s+(.*)$")
_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_UNDERLINE = re.compile(r"^\s*([=\-~^*+#\"'`.:_])\1{2,}\s*$")
_BOLD_LINE = re.compile(r"^\s*\*\*([^*]+)\*\*:?\s*$")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})(.*)$")
_DISCLOSURE = re.compile(r"^\s*</?(?:details|summary)\b[^>]*>(?:[^<]{0,80}</summary>)?\s*$", re.I)


def split_items(body: str) -> list[_Raw]:
    """Split a section body into items, remembering the sub-heading each sits under."""
    lines = body.splitlines()
    reader = _ItemReader()
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        nxt = lines[i + 1].rstrip() if i + 1 < len(lines) else ""
        i += reader.read(line, nxt)
    return reader.items


@dataclass
class _ItemReader:
    """``split_items`` reading a body line by line: the items so far and what is open."""

    items: list[_Raw] = field(default_factory=list)
    context: str = ""  # the sub-heading the next item sits under
    stack: list[tuple[int, _Raw]] = field(default_factory=list)  # open bullets: (indent, item)
    para: _Raw | None = None  # the open paragraph
    in_code: bool = False
    fence: str = ""  # the open code fence: only a run of its character as long closes it
    blank: bool = True  # the line before was blank (or a heading)
    code_target: _Raw | None = None  # the item a fenced code block belongs to
    declared: bool = False  # text before any sub-heading said the release breaks

    def read(self, line: str, nxt: str) -> int:
        """Read ``line`` (``nxt`` follows it); the number of lines used (2 for an underlined
        heading)."""
        fm = _FENCE.match(line)
        if fm and (not self.in_code or self._closes(fm)):
            self.fence = "" if self.in_code else fm.group(1)
            self._fence()
            return 1
        if self.in_code:
            if self.code_target is not None:
                self.code_target.code.append(line)
                self.code_target.blocks[-1].append(line)
            return 1
        if not line.strip():
            self.para, self.blank = None, True
            return 1
        if _DISCLOSURE.match(line):  # "<details><summary>View details</summary>": a fold
            return 1
        heading, used = _sub_heading(line, nxt, self.blank)
        if heading is not None:
            if (_NAMES_A_REMOVAL.search(heading) or IF_YOU_USED.search(heading)) and code_spans(
                heading
            ):
                # a guide's "### Removed `logProvider` and `logLevel` options": the heading
                # names what is gone, the text under it how to do without
                self.items.append(
                    _Raw(text=heading.strip(), context=self.context, parent="", heading=True)
                )
            elif self.declared and _CHANGE_HEADING.search(heading) and code_spans(heading):
                # "### Change `source` to `children`" in a release that said it breaks
                self.items.append(_Raw(text=heading.strip(), context="breaking", parent=""))
            self.context, self.stack, self.para, self.blank = heading, [], None, True
            return used
        if not self.context and _DECLARES_BREAKING.search(line):
            self.declared = True  # "This a major release and therefore contains breaking changes."
        b = _BULLET.match(line)
        if b:
            self._open_bullet(b)
        else:
            self._add_text(line)
        return 1

    def _closes(self, fm: re.Match[str]) -> bool:
        """Whether a fence line closes the open block (``~~~`` inside a ``` block does not)."""
        return closes_fence(self.fence, fm.group(1)) and not fm.group(2).strip()

    def _fence(self) -> None:
        """A code fence opens or closes a block: its lines belong to the open bullet, else
        to the open paragraph, else to the last item."""
        self.in_code = not self.in_code
        if self.in_code:
            self.code_target = (
                self.stack[-1][1]
                if self.stack
                else self.para or (self.items[-1] if self.items else None)
            )
            if self.code_target is not None:
                self.code_target.blocks.append([])

    def _open_bullet(self, b: re.Match[str]) -> None:
        """A bullet: a new item, a child of the open bullet it is indented under."""
        indent = len(b.group(1).expandtabs())
        text = b.group(2).strip()
        while self.stack and self.stack[-1][0] >= indent:
            self.stack.pop()
        parent = self.stack[-1][1] if self.stack else None
        ctx = self.context
        parent_text = ""
        if parent is not None:
            parent_text = parent.text
            if re.fullmatch(r"[\w ]{1,30}:", parent.text.strip()):
                # express-style "* remove:" lists: the label is the context of its children
                ctx = f"{parent.context} / {parent.text.strip()}".strip(" /")
            else:
                ctx = parent.context
        item = _Raw(text=text, context=ctx, parent=parent_text)
        self.items.append(item)
        self.stack.append((indent, item))
        self.para, self.blank = None, False

    def _add_text(self, line: str) -> None:
        """A line of text: more of the open bullet or paragraph, or a new paragraph."""
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if self.stack and (indent > self.stack[-1][0] or not self.blank):
            # continuation of the open bullet (indented, or lazily right after it)
            self.stack[-1][1].text += " " + stripped
        elif self.para is not None:
            self.para.text += " " + stripped
        else:
            self.para = _Raw(text=stripped, context=self.context, parent="")
            self.items.append(self.para)
            self.stack = []
        self.blank = False


def _sub_heading(line: str, nxt: str, blank: bool) -> tuple[str | None, int]:
    """``(heading text, lines used)`` when ``line`` is a sub-heading (Markdown, underlined,
    a bold line, or a "Selected fixes:" label after a blank line), else ``(None, 1)``."""
    m = _MD_HEADING.match(line)
    if m:
        return m.group(1), 1
    if nxt and _UNDERLINE.match(nxt) and not _BULLET.match(line) and len(line.strip()) > 1:
        return line.strip(), 2
    bold = _BOLD_LINE.match(line)
    if bold:
        return bold.group(1), 1
    if (
        blank
        and not _BULLET.match(line)
        and line.strip().endswith(":")
        and len(line.strip()) <= 60
        and not line.startswith((" ", "\t"))
    ):
        return line.strip(), 1  # "Selected fixes:"-style labels
    return None, 1


_RST_LINK = re.compile(r"`([^`<]{0,500}?)\s*<[^<>`]{0,2048}>`__?")  # bounded: linear


def clean(text: str) -> str:
    text = _IGNORED_ROLE.sub("", text)
    text = _RST_LINK.sub(lambda m: m.group(1), text)
    text = _MD_LINK.sub(lambda m: m.group(1), text)
    text = _URL.sub("", text)
    text = re.sub(r"\(\s*\[?#\d+\]?\s*\)|\(#\d+(,\s*#\d+)*\)", "", text)
    text = re.sub(r"\s+", " ", text)
    return text.strip()


def is_gone_no_longer(sentence: str) -> bool | None:
    """True when a 'no longer X' says something is gone; False when behaviour changed; None: absent."""
    found = None
    for m in _NO_LONGER.finditer(sentence):
        verb = m.group(1).lower()
        nxt = (m.group(2) or "").lower()
        if verb == "be" and nxt in ("used", "loaded", "imported", "required", "called", "passed",
                                    "accessed", "set", "given", "found", "needed", "supported"):  # fmt: skip
            return True
        if verb in _RELAXED_VERBS:
            continue
        if verb in _OBJECT_VERBS and not _NAMED_OBJECT.match(sentence, m.end(1)):
            found = False  # "no longer accepts unsigned tokens": what it takes narrowed
            continue
        if verb in _GONE_VERBS and verb != "be":
            return True
        found = False
    return found


def _sentence_kind(sentence: str) -> str:
    """removal | future | deprecation | behaviour | other, for one sentence."""
    if FUTURE_REMOVAL.search(sentence) and not re.search(
        r"\b(was|were|has been|have been)\s+removed\b", sentence, re.I
    ):
        return "future"
    gone = is_gone_no_longer(sentence)
    if REMOVAL_PHRASE.search(sentence) or gone is True:
        return "removal"
    if DEPRECATION.search(sentence):
        return "deprecation"
    if gone is False:
        return "behaviour"
    return "other"


# a version or a range of them (`18.x`, `^20.19.0 || >=23`), or a scoped package
# (`@scope/node`): a span that names no API of the package
_VERSIONS_OR_SCOPED = r"v?[\d.x*]+|[\s\d.x*^~<>=|v-]*\d[\s\d.x*^~<>=|v-]*|@[\w.-]+/[\w.-]+"


def categorize(text: str, context: str, parent: str) -> str:
    """breaking | deprecation | runtime | info for one item."""
    t = text
    ctx = f"{context} {parent}"
    explicit = bool(_EXPLICIT_BREAKING.search(t))
    kinds = {_sentence_kind(s) for s in sentences(t)}
    words = bool(_BREAKING_WORDS.search(t))
    in_break_ctx = bool(_BREAKING_CTX.search(ctx)) and not DEPRECATION.search(context)
    if re.search(r"\bremov", ctx, re.I) and DEPRECATION.search(ctx):
        in_break_ctx = True  # "Removal of prior version deprecations", "deprecated code is removed"
    if not explicit and "removal" not in kinds and kinds & {"future", "deprecation"}:
        return "deprecation"
    if not explicit and deprecates_only(t):
        return "deprecation"
    if DEPRECATION.search(context) and not explicit and "removal" not in kinds:
        return "deprecation"
    if IF_YOU_USED.match(t) and code_spans(t) and len(t) < 120:
        return "breaking"  # a guide's heading: code using that API must change
    if not (explicit or words or in_break_ctx):
        return "info"
    if (
        not (explicit or words)
        and _REMEDY.match(t)
        and not (_OLD_WAY.search(t) or _INSTEAD.search(t))
    ):
        return "info"  # a guide's step ("Specify the `target` option."): the new way, not a break
    if (
        _FIX_CTX.search(context)
        and not explicit
        and not re.search(r"\b(removed|deleted|renamed|drop(ped)? support)\b", t, re.I)
    ):
        return "info"
    # a version ("`18.x`") or a scoped package ("`@scope/node`") names no API of the package
    spans = [s for s in code_spans(t) if not re.fullmatch(_VERSIONS_OR_SCOPED, s)]
    if (
        _RUNTIME.search(t)
        and not spans
        and re.search(r"\d|support|required|minimum|older|newer|later", t, re.I)
    ):
        return "runtime"
    if _TYPES_ONLY.search(t) and not spans and not re.search(r"\b(remov|delet|drop)", t, re.I):
        return "runtime"  # the type declarations changed, naming none: the compiler tells
    return "breaking"


# an item that tells what to do now, in the imperative: the remedy of a break, naming the new
# API ("Specify the `target` option.", "Use your own logger", "Make sure to enable …")
_REMEDY = re.compile(
    r"^\W*(?:use|specify|provide|pass|supply|call|import|install|enable|configure|see|read|"
    r"refer\s+to|consult|switch\s+to|migrate\s+to|make\s+sure|ensure|prefer|consider)\b",
    re.I,
)
_OLD_WAY = re.compile(r"\b(old|previous|former|legacy|prior)\s+(behaviou?r|way|default)", re.I)
# "use ES Module export instead of CommonJS" (a commit subject under BREAKING CHANGES): the
# change it made, from one thing to another, not only the new way
_INSTEAD = re.compile(r"\binstead\s+of\b|\brather\s+than\b|\bin\s+place\s+of\b", re.I)

# "Update types to support more generic usage": a change of the type declarations alone
_TYPES_ONLY = re.compile(
    r"\b(?:update[sd]?|improve[sd]?|change[sd]?|refine[sd]?|stricter|fix(?:e[sd])?)\s+"
    r"(?:the\s+)?(?:typescript\s+)?(?:types|typings|type\s+(?:definitions|declarations))\b",
    re.I,
)


def role_target(target: str) -> str:
    """A Sphinx role's target as code names it: ``_engine.Engine.execute`` → ``Engine.execute``."""
    target = target.strip().lstrip("~.")
    target = re.sub(r"^(_\w+\.)+", "", target)  # private link prefixes some projects use
    return re.sub(r"\s*<.*>$", "", target)  # :meth:`title <target>` → title


def code_spans(text: str) -> list[str]:
    found = [role_target(m.group(1)) for m in RST_ROLE.finditer(text)]
    stripped = RST_ROLE.sub(" ", text)
    found += [m.group(2).strip() for m in CODE_SPAN.finditer(stripped)]
    return [f for f in found if f]


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`:*\"'(])")


def sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text) if s.strip()]
