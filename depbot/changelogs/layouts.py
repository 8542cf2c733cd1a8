"""Where released notes live besides one changelog file, told from a repository's tree. Pure.

Every rule is about the layout of the tree and the wording of its names, never about a
package:

- per-release notes files in a docs folder (``docs/releases/4.2.rst``,
  ``doc/source/whatsnew/v2.0.0.rst``, ``docs/changelog/1.2.0.md``) or in a changelog folder
  at the root (``changes/``, ``changelog.d/``, ``CHANGELOG/``, ``changelogs/``): a file
  whose name is a version, under a folder whose name says release notes. Towncrier
  fragments (``123.feature.rst``, ``+abc.bugfix.md``) and changesets (``.changeset/``) are
  unreleased work, never notes;
- upgrade and migration guides (``UPGRADING.md``, ``MIGRATION.md``, ``MIGRATING-3.md``,
  ``docs/guide/migrating-to-v3.md``), and the versioned files of a guides folder under docs
  (``docs/migration-guide/to-16.md``, ``docs/upgrading/v5.md``);
- a monorepo's package folders (``packages/<name>/``) and their manifests.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "GUIDE_FILE",
    "MAX_GUIDE_LINES",
    "MAX_MANIFESTS_READ",
    "MAX_NOTES_FILES",
    "NotesFile",
    "guide_files",
    "is_fragment",
    "manifest_candidates",
    "notes_files",
]

MAX_NOTES_FILES = 12  # per-release files read for one update (the range and its coverage)
MAX_GUIDE_LINES = 400  # a guide without version headings is read this far
MAX_MANIFESTS_READ = 4  # package.json / pyproject.toml read to find a package's folder

_NOTES_EXT = r"(?:\.md|\.markdown|\.mdx|\.rst|\.txt)?"
# a folder whose name says release notes (at any depth under doc*/, or at the root)
_NOTES_DIR = re.compile(
    r"^(?:releases?|release[-_]?notes|releasenotes|changelogs?|changes|change[-_]?log\.d|"
    r"changelog\.d|news|whats[-_]?new|history)$",
    re.IGNORECASE,
)
_ROOT_NOTES_DIR = re.compile(
    r"^(?:changes|changelog\.d|changelogs?|releases|release[-_]?notes)$", re.I
)
_DOCS_DIR = re.compile(r"^docs?$|^documentation$", re.IGNORECASE)
# a file named by a version: 4.2.rst, v2.0.0.rst, 1.2.0.md, release-4.2.txt, version-2.1.md,
# whatsnew-2.0.rst, 2.0.0-notes.md, changelog-1.3.md
_VERSION_FILE = re.compile(
    r"^(?:(?:release|version|changes?|changelog|whats[-_]?new|notes?)[-_ ]?)?v?"
    r"(?P<version>\d+(?:\.\d+){1,3}(?:(?:a|b|rc|alpha|beta|-alpha|-beta|-rc)\.?\d*)?)"
    r"(?:[-_ ]?(?:notes|changes|changelog|release))?" + _NOTES_EXT + r"$",
    re.IGNORECASE,
)
# a series' file named by its version without the dot (changelog_20.rst holds the 2.0.x
# releases, changelog_14.rst the 1.4.x): two digits only, behind a notes word
_SERIES_FILE = re.compile(
    r"^(?:changelog|changes|release[-_]?notes|whats[-_]?new|notes)[-_]"
    r"(?P<major>\d)(?P<minor>\d)" + _NOTES_EXT + r"$",
    re.IGNORECASE,
)
# towncrier: <issue or +anything>.<type>[.<n>].<ext>; never a released version
_FRAGMENT = re.compile(r"^(?:\d+|\+[^.]*|[A-Za-z]+-\d+)\.[a-z_]+(?:\.\d+)?" + _NOTES_EXT + "$")
# the English edition of a translated guide (migration-v4.en-US.md); other languages are not read
_ENGLISH = r"(?:\.en(?:[-_][A-Za-z]{2})?)?"
GUIDE_FILE = re.compile(  # migrating-to-v3.md, UPGRADING.md, v3-migration.md
    r"^(?:v?\d+(?:\.[\dx]+)*[-_ ])?(?:upgrad|migrat)[a-z_-]*(?:[-_ ]?(?:to[-_ ]?)?v?\d+(?:\.\d+)*)?(?:[-_ ][a-z0-9_-]*)?"
    + _ENGLISH
    + _NOTES_EXT
    + "$",
    re.IGNORECASE,
)
# a folder of guides, one file per major (docs/migration-guide/to-16.md, docs/upgrading/v5.md)
_GUIDES_DIR = re.compile(r"^(?:upgrad|migrat)[a-z_-]*$", re.IGNORECASE)
_GUIDES_DIR_FILE = re.compile(
    r"^(?:(?:from[-_]?v?\d+(?:\.[\dx]+)*[-_])?to[-_]?)?v?\d+(?:\.[\dx]+)*" + _NOTES_EXT + "$",
    re.IGNORECASE,
)
_GUIDE_VERSION = re.compile(r"(?:^|[^\d.])v?(\d+)(?:\.(\d+))?(?:\.\d+)*(?=[^\d]|$)")
_UNRELEASED_DIRS = (".changeset", ".changes/unreleased", "unreleased", "newsfragments", "news.d")


@dataclass(frozen=True)
class NotesFile:
    """A notes file of one release or one series, named by its version."""

    path: str
    version: str  # as the file name writes it (e.g. "4.2", "2.0.0")
    size: int = 0


def _parts(path: str) -> list[str]:
    return [p for p in path.split("/") if p]


def is_fragment(name: str) -> bool:
    """A towncrier fragment of unreleased work (``123.feature.rst``, ``+abc.bugfix.md``)."""
    return bool(_FRAGMENT.match(name)) and not _VERSION_FILE.match(name)


def _unreleased(path: str) -> bool:
    low = path.lower()
    return any(f"/{d}/" in f"/{low}" for d in _UNRELEASED_DIRS)


def _in_notes_folder(parts: list[str], base: str) -> bool:
    """The file's folders (below ``base``) include one that says release notes, under a docs
    folder or at the top (``changes/``, ``changelog.d/``, ``CHANGELOG/``)."""
    if base:
        parts = parts[len(_parts(base)) :]
    folders = parts[:-1]
    if not folders:
        return False
    if _ROOT_NOTES_DIR.match(folders[0]):
        return True
    return bool(_DOCS_DIR.match(folders[0])) and any(_NOTES_DIR.match(f) for f in folders[1:])


def notes_files(paths: list[tuple[str, int]], base: str = "") -> list[NotesFile]:
    """The per-release notes files of a tree (``(path, size)`` of its files), under ``base``
    (a package's folder in a monorepo, or the root); fragments and unreleased folders left out."""
    prefix = f"{base.strip('/')}/" if base.strip("/") else ""
    out: list[NotesFile] = []
    for path, size in paths:
        if prefix and not path.startswith(prefix):
            continue
        parts = _parts(path)
        if not parts or _unreleased(path) or is_fragment(parts[-1]):
            continue
        if not _in_notes_folder(parts, base.strip("/")):
            continue
        m = _VERSION_FILE.match(parts[-1])
        series = _SERIES_FILE.match(parts[-1])
        if m:
            out.append(NotesFile(path, m.group("version"), size))
        elif series:
            out.append(NotesFile(path, f"{series['major']}.{series['minor']}", size))
    return out


def guide_files(paths: list[tuple[str, int]], base: str = "") -> list[str]:
    """Upgrade and migration guides: at the root (or ``base``), or anywhere under a docs
    folder; nearest first."""
    prefix = f"{base.strip('/')}/" if base.strip("/") else ""
    found: list[tuple[int, str]] = []
    for path, _size in paths:
        if prefix and not path.startswith(prefix):
            continue
        parts = _parts(path[len(prefix) :])
        if not parts:
            continue
        # under a docs folder, or a top-level folder of guides (migration_guides/…)
        in_docs = len(parts) > 1 and bool(_DOCS_DIR.match(parts[0]) or _GUIDES_DIR.match(parts[0]))
        if GUIDE_FILE.match(parts[-1]) and (len(parts) == 1 or in_docs):
            found.append((len(parts), path))
        elif in_docs and _GUIDES_DIR.match(parts[-2]) and _GUIDES_DIR_FILE.match(parts[-1]):
            found.append((len(parts), path))
    return [p for _, p in sorted(found)]


def guide_major(path: str) -> int | None:
    """The major a guide names in its file name (``migrating-to-v3.md`` -> 3), if any."""
    name = re.sub(r"\.(md|markdown|mdx|rst|txt)$", "", _parts(path)[-1], flags=re.I)
    to = re.search(
        r"(?:^|[-_ ])to[-_ ]?(v?\d.*)$", name, re.I
    )  # from-v4-to-v5: the one it leads to
    m = _GUIDE_VERSION.search(to.group(1) if to else name)
    return int(m.group(1)) if m else None


def guide_names(path: str, major: int, minor: int) -> bool | None:
    """Whether a guide's file name names the release ``major.minor`` (``migrating-to-v3.md``,
    ``upgrade-3.1.md``, or the dotless ``migration_20.rst`` for 2.0); None: it names none."""
    found = guide_major(path)
    if found is None:
        return None
    return found == major or str(found) == f"{major}{minor}"


def manifest_candidates(paths: list[tuple[str, int]], package: str) -> list[str]:
    """``package.json`` / ``pyproject.toml`` files of folders that may be ``package``'s in a
    monorepo: a folder whose name is the package's name (without an npm scope), or ends
    with it; nearest first."""
    bare = package.split("/")[-1].lower()
    loose = re.sub(r"[-_.]+", "-", bare)
    out: list[tuple[int, str]] = []
    for path, _size in paths:
        parts = _parts(path)
        if len(parts) < 2 or parts[-1] not in ("package.json", "pyproject.toml"):
            continue
        if any(p.startswith(".") or p == "node_modules" for p in parts):
            continue
        folder = re.sub(r"[-_.]+", "-", parts[-2].lower())
        if folder == loose:
            out.append((len(parts), path))
        elif folder.endswith("-" + loose) or loose.endswith("-" + folder):
            out.append((len(parts) + 10, path))
    return [p for _, p in sorted(out)][:MAX_MANIFESTS_READ]


def manifest_name(path: str, text: str) -> str | None:
    """The package name a ``package.json`` or ``pyproject.toml`` declares."""
    if path.endswith("package.json"):
        m = re.search(r'"name"\s*:\s*"([^"]+)"', text)
        return m.group(1) if m else None
    m = re.search(r"(?ms)^\[(?:project|tool\.poetry)\]\s*$.*?^name\s*=\s*[\"']([^\"']+)[\"']", text)
    return m.group(1) if m else None
