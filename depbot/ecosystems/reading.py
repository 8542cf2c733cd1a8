"""Reading one more file of the checkout (a lock, a workspace list) under the checkout's rule.

The lock and format readers (``python_locks``, ``pipfile``, ``setuptools``, ``workspaces``)
read every file through ``read_confined``: the same rule as ``scan.read_manifest``
(``core.confine.refusal``: never through a link that leaves the checkout, never a file that
may hold secrets), and a problem is one warning naming the file, never an exception. Also
the helpers they share: the one-line message for a file that does not parse, the locked
version put on a declaration, and the note for a requirement with nothing to compare.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from depbot.core.confine import refusal, relative_to
from depbot.core.errors import InputError
from depbot.core.redact import excerpt
from depbot.ecosystems import table
from depbot.records.declared import Declared, first_line
from depbot.records.versions import parse_version


def label_of(root: Path, path: Path) -> str:
    """``path`` relative to ``root`` for messages (its own name when it is not under it)."""
    return relative_to(root, path) or path.name


def read_confined(
    root: Path, path: Path, secret_files: Iterable[str]
) -> tuple[str | None, str | None]:
    """(the file's text, None), or (None, a one-line warning naming the file)."""
    rel = relative_to(root, path)
    why = refusal(root, rel, tuple(secret_files)) if rel else "it is not inside the checkout"
    label = rel or path.name
    if why:
        return None, f"{label}: not read: {why}"
    try:
        return path.read_text(encoding="utf-8-sig"), None
    except UnicodeDecodeError:
        return None, f"{label}: not UTF-8 text"
    except OSError as exc:
        return None, f"{label}: cannot be read ({excerpt(exc.strerror or exc, 80)})"


def broken(label: str, kind: str, exc: BaseException | str) -> str:
    """One line for a file that does not parse: the file, the format, a short reason."""
    return f"{label}: not valid {kind} ({excerpt(first_line(str(exc)), 120)}); not read"


def highest(versions: Iterable[str], ecosystem: str = "pip") -> str | None:
    """The highest of some versions (a package locked twice, for two platforms)."""
    best: tuple[object, str] | None = None
    for v in versions:
        parsed = parse_version(ecosystem, v)
        if parsed is None:
            continue
        if best is None or parsed > best[0]:  # type: ignore[operator]
            best = (parsed, v)
    return best[1] if best else None


def apply_pip_lock(deps: list[Declared], locked: dict[str, str]) -> list[Declared]:
    """Declarations with the version the lock records (``locked``: canonical name → version).

    The locked version is what is installed: it becomes ``installed`` and ``pinned``, so the
    update is measured from it (as a lock file update is) whatever range the manifest states.
    """
    out = []
    for d in deps:
        version = locked.get(table.canonical_name(d.ecosystem, d.name))
        out.append(replace(d, pinned=version, installed=version) if version else d)
    return out


def unlocked_notes(deps: Iterable[Declared]) -> list[str]:
    """One note per pip requirement with no pin, no lock and no upper bound.

    Such a range allows the newest release whatever it is: there is nothing to compare it
    with, so no update can ever be proposed for it; say so instead of listing nothing.
    """
    notes = []
    for d in deps:
        if d.pinned or d.installed or d.dependency_kind == "indirect":
            continue
        if table.get(d.ecosystem).open_ended(d.spec):
            note = f"{d.name} has no pinned or locked version in {d.manifest}: nothing to compare"
            if note not in notes:
                notes.append(note)
    return notes


def read_text(path: Path, label: str) -> str:
    """A manifest's text; ``InputError`` naming ``label`` when it is not UTF-8 or unreadable."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{label}: not UTF-8 text") from None
    except OSError as exc:
        raise InputError(f"{label}: cannot be read ({exc.strerror or exc})") from None


def relative(path: Path, root: Path) -> str | None:
    """``path`` relative to ``root`` after links are resolved, or None outside it."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return None
