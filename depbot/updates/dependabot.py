"""Dependabot pull requests to updates: titles, bodies, commit trailers and branch names.

Pure: takes the fields of a pull request (title, body, head branch, URL, number) and
returns ``Update`` records plus warnings. The GitHub call lives in ``sources``.

What is read, in order of trust:

- the title (read in ``dependabot_title.py``): ``Bump requests from 2.31.0 to 2.32.3``,
  ``… in /backend``, ``Update requests requirement from >=2.28,<3 to >=2.28,<4`` (library
  ranges), groups ``Bump the pip group with 3 updates``, ``… across 2 directories with 5
  updates``, ``Bump X from A to B in the G group``; any configured prefix (``chore(deps): ``,
  ``build(deps-dev): ``, ``[Security] ``, gitmoji) and either case of the first word;
- the body: the ``| Package | From | To |`` table, ``Updates `x` from A to B`` lines,
  ``Bumps [x](url) from A to B.``, ``Updates `x` to V`` (requirement updates) and the
  directory of each ``… in the /dir directory`` intro;
- the commit-message trailer when the body carries it (``updated-dependencies:`` with
  ``dependency-name``, ``dependency-version``, ``dependency-type``, ``update-type``);
- the branch ``dependabot/<package_manager>/<dir…>/<name>-<version>`` for the ecosystem
  (``pip``, ``npm_and_yarn``, …) and, when the title does not say, the directory.

When a title names ranges rather than versions and the body gives no versions, the lower
bounds of the two ranges are used; when that yields no upgrade the PR is skipped with a
warning.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from depbot.ecosystems import normalize_ecosystem
from depbot.records.update import Update
from depbot.records.versions import parse_version
from depbot.updates.dependabot_title import Title, parse_title
from depbot.updates.files import dependency_kind_of, manifest_for
from depbot.updates.manifests.scan import spec_lower_bound

BOT_LOGINS = frozenset(
    {"dependabot[bot]", "dependabot-preview[bot]", "app/dependabot", "dependabot"}
)


class PullRequestLike(Protocol):
    number: int
    title: str
    body: str
    head_ref: str
    url: str
    author: str


@dataclass(frozen=True)
class Entry:
    """One dependency a pull request body talks about."""

    name: str
    old: str | None
    new: str | None
    directory: str | None = None


def is_dependabot(head_ref: str, author: str = "") -> bool:
    """Whether a pull request comes from Dependabot (its branch prefix or its bot account)."""
    return bool(re.match(r"^dependabot[/_-]", head_ref or "")) or author.lower() in BOT_LOGINS


# --- branch -------------------------------------------------------------------------------


def parse_branch(head_ref: str) -> tuple[str | None, list[str]]:
    """``(package_manager, rest segments)`` of ``dependabot/<pm>/<dir…>/<name>-<version>``."""
    m = re.match(r"^dependabot([/_-])(.*)$", head_ref or "")
    if not m:
        return None, []
    sep, rest = m.group(1), m.group(2)
    if sep == "/":
        parts = [p for p in rest.split("/") if p]
        return (parts[0], parts[1:]) if parts else (None, [])
    # a configured separator ("-" or "_"): the package manager may itself hold "_"
    pm = re.match(r"^([a-z]+(?:_[a-z]+)*?)(?=[-_/]|$)", rest)
    for candidate in ("npm_and_yarn", "github_actions", "go_modules", "docker_compose"):
        if rest.startswith(candidate):
            return candidate, []
    return (pm.group(1), []) if pm else (None, [])


def _branch_directory(segments: list[str], names: list[str], group: bool) -> str | None:
    if not segments:
        return None
    joined = "/".join(segments)
    for name in names:
        m = re.search(rf"(?:^|/){re.escape(name.lstrip('@'))}-[^/]+$", joined)
        if m:
            return "/" + joined[: m.start()].strip("/")
    if group or len(segments) > 1:
        return "/" + "/".join(segments[:-1])
    return "/"


# --- body ---------------------------------------------------------------------------------

_LINK_NAME = r"\[(?P<lname>[^\[\]\n]{1,300})\]\([^()\s]{0,2048}\)"  # bounded: linear
_CODE_NAME = r"`(?P<cname>[^`]+)`"
_TABLE_ROW = re.compile(
    r"^\|\s*(?:\[(?P<lname>[^\]]+)\]\([^)]*\)|`(?P<cname>[^`]+)`|(?P<pname>[^|\s]+))\s*"
    r"\|\s*`?(?P<old>[^|`]+?)`?\s*\|\s*`?(?P<new>[^|`]+?)`?\s*\|"
)
_UPDATES_FROM = re.compile(
    rf"^(?:Updates|Bumps) (?:{_LINK_NAME}|{_CODE_NAME}) from `?(?P<old>\S+?)`? to `?(?P<new>\S+?)`?\.?(?:\s|$)"
)
_UPDATES_TO = re.compile(rf"^Updates (?:{_LINK_NAME}|{_CODE_NAME}) to `?(?P<new>\S+?)`?\.?(?:\s|$)")
_INTRO_DIR = re.compile(r"\bin the `?(?P<dir>/[^`\s]*)`? directory")
_LINKS = re.compile(_LINK_NAME)


def _name(m: re.Match[str]) -> str:
    d = m.groupdict()
    return (d.get("lname") or d.get("cname") or d.get("pname") or "").strip()


def parse_body(body: str) -> list[Entry]:
    """Every (package, from, to, directory) the body states, in order, without duplicates.

    Multi-directory groups open with one ``Bumps the G group … in the /dir directory:``
    intro per directory (links or a table), then list ``Updates `x` from A to B`` for all
    of them in the same order; the n-th mention of a package gets the n-th directory that
    named it.
    """
    tabled: list[Entry] = []  # table rows: their directory is the intro above them
    listed: list[Entry] = []  # "Updates `x` …" lines: directory found by name below
    dirs_of: dict[str, list[str]] = {}
    current: str | None = None
    for raw in (body or "").splitlines():
        line = raw.strip()
        intro = _INTRO_DIR.search(line)
        if intro and line.startswith(("Bumps", "Updates")):
            current = intro.group("dir")
            for link in _LINKS.finditer(line.split(":", 1)[-1]):
                dirs_of.setdefault(link.group("lname").lower(), []).append(current)
        m = _TABLE_ROW.match(line)
        if m and _name(m).lower() != "package" and not set(m.group("old")) <= set("-: "):
            tabled.append(Entry(_name(m), m.group("old").strip(), m.group("new").strip(), current))
            if current is not None:
                dirs_of.setdefault(_name(m).lower(), []).append(current)
            continue
        m = _UPDATES_FROM.match(line) or _UPDATES_TO.match(line)
        if m:
            old = m.groupdict().get("old")
            listed.append(Entry(_name(m), old, m.group("new"), current))
    seen_count: dict[str, int] = {}
    placed = list(tabled)
    for e in listed:
        dirs = dirs_of.get(e.name.lower(), [])
        n = seen_count.get(e.name.lower(), 0)
        seen_count[e.name.lower()] = n + 1
        directory = dirs[n] if n < len(dirs) else (dirs[-1] if dirs else e.directory)
        placed.append(Entry(e.name, e.old, e.new, directory))
    out: list[Entry] = []
    index: dict[tuple[str, str | None], int] = {}
    for e in placed:
        key = (e.name.lower(), e.directory)
        if key in index:  # the table and the "Updates `x`" list repeat each other
            prev = out[index[key]]
            out[index[key]] = Entry(prev.name, prev.old or e.old, prev.new or e.new, e.directory)
            continue
        index[key] = len(out)
        out.append(e)
    return out


def parse_trailer(body: str) -> list[dict[str, str]]:
    """The ``updated-dependencies:`` YAML list of a Dependabot commit message, if present."""
    lines = (body or "").splitlines()
    start = next((i for i, ln in enumerate(lines) if ln.strip() == "updated-dependencies:"), None)
    if start is None:
        return []
    items: list[dict[str, str]] = []
    for raw in lines[start + 1 :]:
        stripped = raw.strip()
        if stripped in ("...", "---") or (raw and not raw[0].isspace() and not raw.startswith("-")):
            break
        if not stripped:
            continue
        if stripped.startswith("- "):
            items.append({})
            stripped = stripped[2:].strip()
        if not items or ":" not in stripped:
            continue
        key, _, value = stripped.partition(":")
        items[-1][key.strip()] = value.strip().strip("'\"")
    return [i for i in items if i.get("dependency-name")]


# --- putting it together ------------------------------------------------------------------


def _versions(ecosystem: str, old: str | None, new: str | None) -> tuple[str, str] | None:
    """Two versions that make an upgrade, taking lower bounds of ranges when needed."""
    if not old or not new:
        return None
    a, b = spec_lower_bound(ecosystem, old), spec_lower_bound(ecosystem, new)
    if a is None or b is None:
        return None
    va, vb = parse_version(ecosystem, a), parse_version(ecosystem, b)
    if va is None or vb is None or not vb > va:
        return None
    return a, b


def _title_entry(parsed: Title, ecosystem: str, entries: list[Entry]) -> Entry:
    """The one dependency a single (or requirement) update's title names, with the title's
    versions, or the body's when the title gives ranges or git refs."""
    name = parsed.names[0]
    if _versions(ecosystem, parsed.old, parsed.new) and parse_version(ecosystem, parsed.old or ""):
        return Entry(name, parsed.old, parsed.new, parsed.directory)
    # ranges or git refs: prefer the versions the body states
    body_entry = next((e for e in entries if e.name.lower() == name.lower()), None)
    old = body_entry.old if body_entry and body_entry.old else parsed.old
    new = body_entry.new if body_entry and body_entry.new else parsed.new
    return Entry(name, old, new, parsed.directory)


def _listed_entries(
    parsed: Title, entries: list[Entry], trailer: dict[str, dict[str, str]]
) -> list[Entry]:
    """A group update's dependencies: the body's, then (without versions) the names only
    the title or the commit trailer gives."""
    wanted = list(entries)
    known = {e.name.lower() for e in entries}
    extra_names = list(parsed.names) + [t["dependency-name"] for t in trailer.values()]
    for n in extra_names:
        if n.lower() not in known:
            known.add(n.lower())
            wanted.append(Entry(n, None, None))
    return wanted


def _update_of(
    e: Entry,
    *,
    ecosystem: str,
    parsed: Title,
    segments: list[str],
    trailer_item: dict[str, str],
    number: int,
    url: str,
) -> Update | None:
    """The update of one dependency of pull request ``number``, or None when its versions
    (the trailer's new version filling in) make no upgrade."""
    new = e.new or trailer_item.get("dependency-version")
    versions = _versions(ecosystem, e.old, new)
    if versions is None:
        return None
    directory = (
        parsed.directory
        or e.directory
        or _branch_directory(segments, [e.name], parsed.kind == "group")
        or "/"
    )
    kind_raw = trailer_item.get("dependency-type") or (
        "direct:development" if "deps-dev" in parsed.prefix.lower() else "direct"
    )
    extra = {"pr": str(number), "directory": directory}
    if parsed.group:
        extra["group"] = parsed.group
    return Update(
        ecosystem=ecosystem,
        package=e.name,
        from_version=versions[0],
        to_version=versions[1],
        manifest=manifest_for(ecosystem, directory),
        dependency_kind=dependency_kind_of(kind_raw),
        source="dependabot",
        source_ref=url,
        extra=extra,
    )


def parse_pull_request(
    *, number: int, title: str, body: str, head_ref: str, url: str
) -> tuple[list[Update], list[str]]:
    """The updates one Dependabot pull request proposes, and warnings about what was skipped."""
    label = f"pull request #{number}"
    pm, segments = parse_branch(head_ref)
    if pm is None:
        return [], [f"{label}: branch '{head_ref}' is not a Dependabot branch; skipped"]
    try:
        ecosystem = normalize_ecosystem(pm)
    except ValueError:
        return [], [f"{label} updates {pm} dependencies, which depbot does not triage; skipped"]
    parsed = parse_title(title)
    if parsed is None:
        return [], [f"{label}: title '{title}' is not a Dependabot update title; skipped"]
    entries = parse_body(body)
    trailer = {t["dependency-name"].lower(): t for t in parse_trailer(body)}
    if parsed.kind in ("single", "requirement"):
        wanted = [_title_entry(parsed, ecosystem, entries)]
    else:
        wanted = _listed_entries(parsed, entries, trailer)
        if not wanted:
            return [], [f"{label}: no package versions found in its body; skipped"]
    updates: list[Update] = []
    warnings: list[str] = []
    for e in wanted:
        update = _update_of(
            e,
            ecosystem=ecosystem,
            parsed=parsed,
            segments=segments,
            trailer_item=trailer.get(e.name.lower(), {}),
            number=number,
            url=url,
        )
        if update is None:
            warnings.append(
                f"{label}: cannot tell which versions of {e.name} it moves between; skipped"
            )
        else:
            updates.append(update)
    return updates, warnings


def parse_pull_requests(prs: Iterable[PullRequestLike]) -> tuple[list[Update], list[str]]:
    """Updates of every Dependabot pull request among ``prs``; others are ignored silently."""
    updates: list[Update] = []
    warnings: list[str] = []
    for pr in prs:
        if not is_dependabot(pr.head_ref, pr.author):
            continue
        ups, warns = parse_pull_request(
            number=pr.number, title=pr.title, body=pr.body, head_ref=pr.head_ref, url=pr.url
        )
        updates += ups
        warnings += warns
    return updates, warnings
