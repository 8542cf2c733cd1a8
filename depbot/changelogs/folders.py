"""Notes kept in folders of the repository tree (``layouts.py`` tells which files): per-release
notes files in docs and changelog folders, a monorepo package's own changelog, and upgrade or
migration guides of a major. A mixin of ``fetch.ChangelogFetcher``: it uses the fetcher's
``github``, ``_twice`` and ``_read`` and the ``FetchState`` of the fetch.

The tree comes from the git trees API in one request (``recursive=1``): at the new version's
tag (immutable there, like every file read at it) or at the default branch (``run.notes``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from depbot.changelogs.breaking import analyze_section
from depbot.changelogs.discovery import CHANGELOG_FILE, candidate_rank
from depbot.changelogs.layouts import (
    MAX_GUIDE_LINES,
    MAX_NOTES_FILES,
    NotesFile,
    guide_files,
    guide_names,
    manifest_candidates,
    manifest_name,
    notes_files,
)
from depbot.changelogs.problems import github_problem
from depbot.changelogs.result import FetchState
from depbot.changelogs.sections import Section, describe_versions, parse_sections, version_key
from depbot.core.cache import IMMUTABLE
from depbot.core.errors import UpstreamError
from depbot.github.client import Entry, GitHubClient
from depbot.records.versions import Version, update_type

__all__ = ["FolderSource", "guide_section"]

T = TypeVar("T")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+]){3,}\s*$")
_ANY_VERSION = re.compile(r"(?<![\w.])v?\d+(?:\.(?:\d+|x))+(?![\w.])|\bv\d+\b", re.I)
_POINTS_TO_GUIDE = re.compile(r"\b(?:upgrad|migrat)", re.IGNORECASE)
# a heading that names only the major it leaves ("Migrating from v14", "Upgrading from 2.x")
_FROM_ONLY = re.compile(r"^(?!.*\bto\b).*\bfrom\s+v?(\d+)(?:\.(?:\d+|x))*\b", re.IGNORECASE)
# what a major's own notes say when they hold its breaks; a first release whose notes say
# none of it (bug fixes and features only) keeps its breaks elsewhere: a guide, the betas
_SAYS_BREAKS = re.compile(r"breaking|\bremov|no\s+longer|\bdropp?|\brenam|deprecat", re.I)
MAX_GUIDED_MAJORS = 3  # majors of one update whose upgrade guides are looked for


def _front_matter_end(lines: list[str]) -> int:
    """The index of the line after a leading YAML front matter (``---`` … ``---``), else 0."""
    if not lines or lines[0].strip() != "---":
        return 0
    for i in range(1, min(len(lines), 60)):
        if lines[i].strip() in ("---", "..."):
            return i + 1
    return 0


def _headings(lines: list[str]) -> list[tuple[int, int, str]]:
    """(line index, level, text) of the Markdown and reStructuredText headings (a docs
    site's front matter, ``title: …`` over ``---``, is none)."""
    out: list[tuple[int, int, str]] = []
    rst_levels: list[str] = []
    fenced = False
    skip = _front_matter_end(lines)
    for i, line in enumerate(lines):
        if i < skip:
            continue
        if line.lstrip().startswith(("```", "~~~")):  # a code fence is not an underline,
            fenced = not fenced  # and a `# comment` inside one is not a heading
            continue
        if fenced:
            continue
        m = _HEADING.match(line)
        if m:
            out.append((i, len(m.group(1)), m.group(2)))
        elif (
            i
            and _UNDERLINE.match(line)
            and lines[i - 1].strip()
            and not _UNDERLINE.match(lines[i - 1])
        ):
            ch = line.strip()[0]
            if ch not in rst_levels:
                rst_levels.append(ch)
            out.append((i - 1, rst_levels.index(ch) + 1, lines[i - 1].strip()))
    return out


def _series(v: Version) -> tuple[int, ...]:
    """The releases one breaking step covers: a major, or a 0.x minor (0.95 may break 0.21)."""
    return (v.major,) if v.major else (0, v.minor)


def guide_section(
    text: str,
    major: int,
    limit: int = MAX_GUIDE_LINES,
    minor: int | None = None,
    *,
    file_names_it: bool = False,
) -> tuple[str, str, int, int] | None:
    """``(heading, body, first line, last line)`` (1-based) of a guide for ``major``: the
    section whose heading names that major (``Upgrading to 3.0``, ``From v2 to v3``; of several,
    the first that says it breaks: ``v3 breaking changes``, ``Removed in 3.0``), else the
    whole guide when no heading names a version; None when headings name only other
    versions (the guide of another major). At most ``limit`` lines. For a 0.x series,
    ``minor`` too: "Upgrading to version 0.95.0+" is the guide of 0.95. A guide whose file
    names the major (``migrating-to-v5.md``, ``file_names_it``) is read whole when no heading
    names it: its headings' versions are of other things ("The minimum required React
    version is now 18.0")."""
    lines = text.splitlines()
    series = rf"{major}\.{minor}" if major == 0 and minor is not None else str(major)
    names = re.compile(rf"(?<![\d.])v?{series}(?:\.(?:\d+|x))*(?![\d])", re.IGNORECASE)
    heads = _headings(lines)
    ranked = sorted(  # of the headings naming the major, one that says it breaks comes first
        range(len(heads)), key=lambda n: not _SAYS_BREAKS.search(heads[n][2])
    )  # ("## v3 changes and discussions" links out; "## v3 breaking changes" lists them)
    for n in ranked:
        start, level, title = heads[n]
        target = re.split(r"\bto\b", title, flags=re.IGNORECASE)[-1]  # "from 2.x to 3.0": 3
        since = _FROM_ONLY.search(title) if major else None  # "Migrating from v14": to 15
        if names.search(target) and not since or since and int(since.group(1)) + 1 == major:
            end = len(lines)
            for nxt, lvl, _t in heads[n + 1 :]:
                if lvl <= level:
                    end = nxt
                    break
            end = min(end, start + 1 + limit)
            body_from = start + (
                2 if start + 1 < len(lines) and _UNDERLINE.match(lines[start + 1]) else 1
            )
            return title, "\n".join(lines[body_from:end]).strip(), start + 1, end
    if not file_names_it and any(_ANY_VERSION.search(t) for _s, _l, t in heads):
        return None
    title = heads[0][2] if heads else "Upgrade guide"
    end = min(len(lines), limit)
    return title, "\n".join(lines[:end]).strip(), 1, end


class FolderSource:
    """Reads notes from the folders of a repository tree (mixed into the fetcher)."""

    github: GitHubClient
    _twice: Callable[[Callable[[], T]], T]
    _read: Callable[..., list[Section] | None]

    # -- the tree --------------------------------------------------------------------------

    def _tree(self, run: FetchState, repo: str, tag: str | None) -> list[Entry] | None:
        ref = tag or run.branches.get(repo) or "HEAD"
        key = f"{repo}@{ref}"
        if key in run.trees:
            return run.trees[key]
        cache = IMMUTABLE if tag else run.notes
        entries: list[Entry] | None
        try:
            entries = self._twice(lambda: self.github.tree(repo, ref, cache=cache))
        except UpstreamError as exc:
            if exc.kind != "not_found":
                run.errors.append(github_problem(exc, f"the file tree of {repo} at {ref}"))
                run.tried.append(f"the file tree of {repo} at {ref} (could not be read)")
            entries = None
        run.trees[key] = entries
        return entries

    def _text(
        self, run: FetchState, repo: str, path: str, tag: str | None
    ) -> tuple[str, str] | None:
        ref = tag or run.branches.get(repo)
        try:
            return self._twice(
                lambda: self.github.read_file(
                    repo, path, ref, immutable=tag is not None, cache=None if tag else run.notes
                )
            )
        except UpstreamError as exc:
            run.errors.append(
                github_problem(exc, f"{path} of {repo} at {ref or 'the default branch'}")
            )
            run.tried.append(f"{path} at {ref or 'the default branch'} (could not be read)")
            return None

    # -- per-release files, monorepo packages ----------------------------------------------

    def _from_layouts(
        self, run: FetchState, repo: str, directory: str | None, tag: str | None
    ) -> None:
        """Per-release notes files and, in a monorepo without a known folder, the package's
        own changelog, found in the tree at ``tag`` (None: the default branch)."""
        tree = self._tree(run, repo, tag)
        if not tree:
            return
        files = [(e.path, e.size) for e in tree if e.type == "file"]
        base = (directory or "").strip("/")
        if not base:
            base = self._package_folder(run, repo, files, tag) or ""
            if base:
                self._folder_changelog(run, repo, tree, base, tag)
                if run.covered():
                    return
        found = notes_files(files, base)
        _add_unlisted(run, found)
        picked = self._pick_notes(run, found)
        for nf in picked:
            self._read_notes_file(run, repo, nf, tag)
            if run.covered():
                break

    def _package_folder(
        self, run: FetchState, repo: str, files: list[tuple[str, int]], tag: str | None
    ) -> str | None:
        """The folder whose package.json / pyproject.toml names the package, if any."""
        for path in manifest_candidates(files, run.package):
            got = self._text(run, repo, path, tag)
            if got is None:
                continue
            name = manifest_name(path, got[0])
            if name and _same_name(name, run.package):
                run.tried.append(f"{path} (names {name}: the package's folder)")
                return path.rsplit("/", 1)[0]
        return None

    def _folder_changelog(
        self, run: FetchState, repo: str, tree: list[Entry], base: str, tag: str | None
    ) -> None:
        inside = [
            e for e in tree
            if e.type == "file" and e.path.rsplit("/", 1)[0] == base and CHANGELOG_FILE.match(e.name)
        ]  # fmt: skip
        for e in sorted(inside, key=lambda e: candidate_rank(e, 0))[:2]:
            if self._read(run, repo, e.path, tag, at_tag=tag is not None):
                return

    def _pick_notes(self, run: FetchState, files: list[NotesFile]) -> list[NotesFile]:
        """The files of the range's versions, newest first: a release's own file, else the
        file of its series (``4.2`` for 4.2.1 when there is no 4.2.1 file); at most
        ``MAX_NOTES_FILES``."""
        keyed: list[tuple[Version, NotesFile]] = []
        for nf in files:
            v = _file_version(run.eco, nf.version)
            if v is not None:
                keyed.append((v, nf))
        exact = {v: nf for v, nf in keyed}
        chosen: dict[str, NotesFile] = {}
        for v in sorted(run.needed, reverse=True):
            if v in run.found:
                continue
            if v in exact:
                chosen.setdefault(exact[v].path, exact[v])
                continue
            series = [
                (k, nf) for k, nf in keyed
                if nf.version.count(".") == 1 and (k.major, k.minor) == (v.major, v.minor)
            ]  # fmt: skip
            for _k, nf in series[:1]:
                chosen.setdefault(nf.path, nf)
        return list(chosen.values())[:MAX_NOTES_FILES]

    def _read_notes_file(self, run: FetchState, repo: str, nf: NotesFile, tag: str | None) -> None:
        ref = tag or run.branches.get(repo) or "the default branch"
        got = self._text(run, repo, nf.path, tag)
        if got is None:
            return
        text, url = got
        source = url or f"{repo}:{nf.path}@{ref}"
        sections = parse_sections(text, source, ecosystem=run.eco, package=run.package)
        own = _file_version(run.eco, nf.version)
        if not any(version_key(run.eco, s.version) == own for s in sections):
            lines = text.splitlines()
            head = next((ln.strip("# ").strip() for ln in lines if ln.strip()), nf.path)
            body = "\n".join(lines[1:MAX_GUIDE_LINES]).strip()
            n = min(len(lines), MAX_GUIDE_LINES)
            sections = [Section(nf.version, head, body, source, 1, n), *sections]
        label = f"{nf.path} at {ref}"
        run.tried.append(f"{label} ({describe_versions(run.eco, [s.version for s in sections])})")
        run.files_read.append(label)
        run.add(sections, label)

    # -- upgrade and migration guides --------------------------------------------------------

    def _wants_guides(self, run: FetchState) -> list[Version]:
        """The first release of each major of a major update (the new one first, then the
        ones crossed on the way, at most ``MAX_GUIDED_MAJORS``) whose notes are missing,
        short, or point to a guide. Below 1.0 each minor is a series of its own (``_series``)."""
        low = _series(run.lo)
        if update_type(run.eco, run.old, run.new) != "major" and _series(run.hi) == low:
            return []
        wanted = []
        for series in sorted({_series(v) for v in run.needed} | {_series(run.hi)}, reverse=True):
            if series <= low or len(wanted) >= MAX_GUIDED_MAJORS:
                continue
            of_series = sorted(v for v in run.needed if _series(v) == series)
            firsts = [
                v for v in of_series if not v.is_prerelease
            ] or of_series  # 15.0.0, not -beta.1
            first = firsts[0] if firsts else run.hi
            found = run.found.get(first)
            if found is None:
                wanted.append(first)
                continue
            body = found.body.strip()
            if (
                body.count("\n") < 2
                or _POINTS_TO_GUIDE.search(body)
                or not _SAYS_BREAKS.search(body)
                or not _names_a_break(body, run.package)
            ):
                wanted.append(first)
        return wanted

    def _from_guides(
        self, run: FetchState, repo: str, directory: str | None, tag: str | None
    ) -> None:
        wanted = self._wants_guides(run)
        if not wanted:
            return
        tree = self._tree(run, repo, tag)
        if not tree:
            return
        files = [(e.path, e.size) for e in tree if e.type == "file"]
        for first in wanted:
            self._guide_of(run, repo, directory, tag, files, first)

    def _guide_of(
        self,
        run: FetchState,
        repo: str,
        directory: str | None,
        tag: str | None,
        files: list[tuple[str, int]],
        first: Version,
    ) -> None:
        """Read the upgrade guide of ``first``'s major, if the tree has one, as its notes."""
        guides = guide_files(files, (directory or "").strip("/")) or guide_files(files)
        named = {g: guide_names(g, first.major, first.minor) for g in guides}
        guides = [g for g in guides if named[g] is not False]
        guides.sort(key=lambda g: named[g] is not True)  # the one naming it first
        for path in guides[:2]:
            got = self._text(run, repo, path, tag)
            if got is None:
                continue
            text, url = got
            ref = tag or run.branches.get(repo) or "the default branch"
            found = guide_section(
                text, first.major, minor=first.minor, file_names_it=named[path] is True
            )
            if found is None or not found[1]:
                run.tried.append(f"{path} (an upgrade guide of other versions)")
                continue
            title, body, start, end = found
            version = run.needed.get(first, str(first))
            old = run.found.get(first)
            if old is not None and old.body.strip():
                body = f"{old.body.strip()}\n\n{body}"
            sec = Section(version, title, body, url or f"{repo}:{path}@{ref}", start, end)
            label = f"{path} at {ref}"
            run.found.pop(first, None)  # the guide's words replace a note that points to it
            run.add([sec], label)
            run.tried.append(f"{label} (upgrade guide, read as the notes of {version})")
            run.files_read.append(label)
            return


def _names_a_break(body: str, package: str) -> bool:
    """Whether a major's first notes name an API among their breaking items: notes that say
    "remove" only of styles and class names keep the major's breaks in its guide."""
    return any(
        it.category == "breaking" and it.candidates for it in analyze_section(body, package=package)
    )


def _same_name(a: str, b: str) -> bool:
    norm = lambda s: re.sub(r"[-_.]+", "-", s.strip().lower())  # noqa: E731
    return norm(a) == norm(b)


def _add_unlisted(run: FetchState, files: list[NotesFile]) -> None:
    """A release of the range whose own notes file is in the tree is needed, listed by the
    registry or not (an unpublished release, a registry that lists only some): its breaks
    reach the update whatever the registry says."""
    for nf in files:
        v = version_key(run.eco, nf.version) if nf.version.count(".") >= 2 else None
        if v is not None and not v.is_prerelease and run.lo < v <= run.hi and v not in run.needed:
            run.needed[v] = nf.version


def _file_version(eco: str, text: str) -> Version | None:
    v = version_key(eco, text)
    if v is None and text.count(".") == 1:
        v = version_key(eco, text + ".0")
    return v
