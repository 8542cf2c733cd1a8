"""A use the release now requires, as a changelog item words it and its example shows. Pure.

"Vue Loader v15 now requires an accompanying webpack plugin" under "A Plugin is Now
Required", with an example that imports ``VueLoaderPlugin`` from the package: code that
uses the package but never that name breaks. The break is an absence, so the candidate
(``required_use``) is matched the other way round: the package's uses are the hits when
the required name occurs nowhere in the checkout.

Only an item whose example imports the name from the package itself yields one, and only
an item that names no other change (a removal with a replacement in its example is a
removal: the replacement is advice, not a new requirement).
"""

from __future__ import annotations

import re

from depbot.changelogs.wording import Candidate

__all__ = ["required_use_candidates", "says_required"]

_REQUIRED = re.compile(
    r"\bnow\s+requires?\b"
    r"|\b(?:is|are)\s+(?:now\s+)?(?:required|mandatory)\b"
    r"|\b(?:must|need\s+to|have\s+to)\s+(?:now\s+)?(?:add|use|register|call|apply|include|"
    r"install|create|instantiate|initiali[sz]e|wrap)\b"
    r"|\bnow\s+(?:must|needs?\s+to|has\s+to)\b",
    re.I,
)
# a requirement of only some uses: "if you want to pass your own array", "when you use SSR"
_ONLY_IF = re.compile(
    r"\b(?:if|when|whenever|in\s+case|unless)\s+(?:you|your|they|their|the\s+app)\b", re.I
)
_IDENT = r"[A-Za-z_$][\w$]*"
_SPEC = r"""['"](?P<spec>[^'"\s]+)['"]"""
_DESTRUCTURED = re.compile(
    rf"(?:const|let|var)\s*\{{(?P<names>[^}}]{{1,300}})\}}\s*=\s*require\(\s*{_SPEC}\s*\)"
)
_NAMED_IMPORT = re.compile(
    rf"\bimport\s*(?:type\s+)?\{{(?P<names>[^}}]{{1,300}})\}}\s*from\s*{_SPEC}"
)
_DEFAULT_IMPORT = re.compile(rf"\bimport\s+(?P<names>{_IDENT})\s+from\s*{_SPEC}")
_MEMBER_REQUIRE = re.compile(
    rf"(?:const|let|var)\s+{_IDENT}\s*=\s*require\(\s*{_SPEC}\s*\)\s*\.\s*(?P<names>{_IDENT})"
)
_PY_IMPORT = re.compile(r"^\s*from\s+(?P<spec>[\w.]+)\s+import\s+\(?(?P<names>[\w\s,]{1,300})")


def says_required(text: str) -> bool:
    """Does the text say something is now required (``now requires``, ``is now required``,
    ``you must now add``)?"""
    return bool(_REQUIRED.search(text))


def _own(spec: str, roots: set[str]) -> bool:
    return any(spec == r or spec.startswith(r + "/") or spec.startswith(r + ".") for r in roots)


def _names(group: str) -> list[str]:
    out = []
    for part in group.split(","):
        name = re.split(r"\s*(?::|\bas\b)\s*", part.strip(), maxsplit=1)[0].strip()
        if re.fullmatch(_IDENT, name) and name != "type":  # `type X`: no runtime name
            out.append(name)
    return out


def example_imports(
    code: list[str] | tuple[str, ...], package: str, import_names: tuple[str, ...] = ()
) -> list[str]:
    """The names an example's lines import from the package (``{ A } = require('pkg')``,
    ``import { A } from 'pkg/sub'``, ``from pkg import A``); a diff's removed lines are not
    the example."""
    roots = {package, *import_names} - {""}
    found: list[str] = []
    for raw in code:
        line = raw.strip()
        if line.startswith("-") and not line.startswith("--"):
            continue
        line = line[1:] if line.startswith("+") else line
        for pattern in (_DESTRUCTURED, _NAMED_IMPORT, _DEFAULT_IMPORT, _MEMBER_REQUIRE, _PY_IMPORT):
            for m in pattern.finditer(line):
                if _own(m.group("spec"), roots):
                    found += _names(m.group("names"))
    return list(dict.fromkeys(found))


def required_use_candidates(
    text: str,
    context: str,
    code: list[str] | tuple[str, ...],
    package: str,
    import_names: tuple[str, ...] = (),
) -> list[Candidate]:
    """``required_use`` candidates of an item that says something is now required (in its
    text or its heading) and whose example imports names from the package: each such name."""
    if not package or not (says_required(text) or says_required(context)):
        return []
    if _ONLY_IF.search(text):  # "you must use `Tuple` if you want to pass your own array":
        return []  # required of the code that does that, which no search of names tells
    return [
        Candidate(name, "required_use") for name in example_imports(code, package, import_names)
    ]
