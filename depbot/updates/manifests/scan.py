"""Manifests to declared dependencies: pip requirements files, PEP 621 pyproject.toml, npm package.json.

Parsing is pure (text in, ``Declared`` out). The only I/O is ``parse_requirements``, which
reads the ``-r``/``-c`` files a requirements file includes, ``read_manifest``, which reads one
manifest (and the npm lock beside it), and ``find_manifests``, which walks the checkout.

What is fatal and what is skipped
---------------------------------
Manifests stay inside the checkout: a manifest, lock or ``-r``/``-c`` file that is a
symbolic link (or lies in a linked folder) leaving it, or that links to a file that may hold
secrets, is never read (``core.confine``, the code search's rule); a refused manifest is one
warning naming its path, and the others are read. No message quotes more of a file than a
short, redacted excerpt (``core.redact.excerpt``).

A manifest depbot cannot read is an ``InputError`` (exit code 2) naming the file and line,
because every later answer would rest on a guess:

- a file that is not UTF-8, not valid TOML / JSON, or of the wrong shape
  (``dependencies`` not a list / an object, a version that is not a string);
- a requirements line that is neither an option, a URL / path nor a PEP 508 requirement
  (``requests=>2``), an option without its argument, a ``-r`` / ``-c`` file that does not exist.

A valid entry that depbot cannot check against a registry is skipped with a warning:
editable installs, URLs, VCS and local paths, ``name @ url`` references, unknown pip
options, includes that leave the repository, npm ``workspace:``/``file:``/``git+``/GitHub
shorthand specs, and npm dist-tags (``latest``) with no lock entry. A malformed
``package-lock.json`` is a warning too: the declared ranges are still usable.

More formats live in their own modules and are registered here: Poetry's tables and
uv.lock / poetry.lock (``python_locks``, ``poetry``), Pipfile / Pipfile.lock (``pipfile``),
setup.cfg / setup.py read with ``ast`` (``setuptools``), yarn.lock / pnpm-lock.yaml and
workspaces (``js_locks``, ``workspaces``). Their broken files and every broken lock are one
warning naming the file; a pip requirement with no pin, no lock and no upper bound is a note
(``reading.unlocked_notes``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet

from depbot.core.confine import SECRET_FLOOR, is_secret, refusal, relative_to
from depbot.core.errors import InputError
from depbot.core.redact import excerpt
from depbot.core.settings import Settings
from depbot.records.names import canonical_name
from depbot.records.versions import parse_version
from depbot.updates.manifests.declared import Declared, first_line, is_dev_name
from depbot.updates.manifests.npm import npm_min_version, parse_package_json_text
from depbot.updates.manifests.pipfile import read_pipfile
from depbot.updates.manifests.python_locks import read_pyproject_locks
from depbot.updates.manifests.reading import unlocked_notes
from depbot.updates.manifests.setuptools import read_setuptools
from depbot.updates.manifests.workspaces import read_package_json

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib


# --- pip requirements files ------------------------------------------------------------

# options that take an argument, and those that stand alone; both apply to the whole file
_ARG_OPTIONS = {
    "-i": "--index-url",
    "--index-url": "--index-url",
    "--extra-index-url": "--extra-index-url",
    "-f": "--find-links",
    "--find-links": "--find-links",
    "--no-binary": "--no-binary",
    "--only-binary": "--only-binary",
    "--trusted-host": "--trusted-host",
    "--use-feature": "--use-feature",
    "-r": "-r",
    "--requirement": "-r",
    "-c": "-c",
    "--constraint": "-c",
    "-e": "-e",
    "--editable": "-e",
}
_FLAG_OPTIONS = frozenset({"--no-index", "--prefer-binary", "--require-hashes", "--pre"})
_COMMENT = re.compile(r"(^|\s+)#.*$")
_VIA = re.compile(r"^\s*#\s+via\b\s*(.*)$")
_VIA_MORE = re.compile(r"^\s*#\s{2,}(\S.*)$")
_URL_LIKE = re.compile(
    r"^(?:[a-z][a-z0-9+.-]*://|git\+|hg\+|svn\+|bzr\+|\.{1,2}[/\\]|[/\\~])", re.I
)
_ARCHIVE = re.compile(r"\.(?:whl|tar\.gz|tgz|zip|tar\.bz2)$", re.I)
_NAME_AND_SPEC = re.compile(r"^\s*[A-Za-z0-9][A-Za-z0-9._-]*\s*(?:\[[^\]]*\])?\s*(?P<spec>[^;]*)")


@dataclass
class RequirementsFile:
    """What one requirements file says, before its includes are read."""

    deps: list[Declared] = field(default_factory=list)
    includes: list[tuple[str, int]] = field(default_factory=list)  # (-r path as written, line)
    constraints: list[tuple[str, int]] = field(default_factory=list)  # (-c path, line)
    warnings: list[str] = field(default_factory=list)


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """Join ``\\`` continuations like pip does; each logical line keeps its first line number."""
    out: list[tuple[int, str]] = []
    buf: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        if not buf:
            start = number
        if raw.rstrip().endswith("\\") and not raw.lstrip().startswith("#"):
            buf.append(raw.rstrip()[:-1])
            continue
        buf.append(raw)
        out.append((start, " ".join(part.strip() for part in buf if part.strip())))
        buf = []
    if buf:
        out.append((start, " ".join(part.strip() for part in buf if part.strip())))
    return out


def _pinned_version(spec: Any) -> str | None:
    for s in spec:
        if s.operator == "===" or (s.operator == "==" and not s.version.endswith(".*")):
            return str(s.version)
    return None


def _is_indirect(sources: list[str]) -> bool:
    """pip-compile's ``# via`` sources: only other packages (no ``-r`` file, no project) means indirect."""
    return not any(
        src.startswith("-r ") or re.search(r"\((?:pyproject\.toml|setup\.py|setup\.cfg)\)", src)
        for src in sources
    )


def parse_requirements_text(text: str, manifest: str) -> RequirementsFile:
    """Parse one requirements file's text; ``manifest`` is its repo-relative path (for messages)."""
    result = RequirementsFile()
    kind = "dev" if is_dev_name(Path(manifest).stem) else "direct"
    via: dict[int, list[str]] = {}  # index into result.deps -> pip-compile sources
    last_dep: int | None = None
    collecting = False
    for number, line in _logical_lines(text):
        where = f"{manifest} line {number}"
        stripped = line.strip()
        if stripped.startswith("#"):
            m = _VIA.match(stripped)
            if m and last_dep is not None:
                via[last_dep] = [m.group(1).strip()] if m.group(1).strip() else []
                collecting = True
            elif collecting and last_dep is not None and _VIA_MORE.match(line):
                via[last_dep].append(_VIA_MORE.match(line).group(1).strip())  # type: ignore[union-attr]
            else:
                collecting = False
            continue
        collecting = False
        inline = re.search(r"\s#\s*via\s+(.*)$", line)
        body = _COMMENT.sub("", line).strip()
        if not body:
            continue
        last_dep = None
        if body.startswith("-"):
            _option(body, number, where, result)
            continue
        # per-requirement options (--hash, --config-settings, ...) follow the requirement
        req_text = re.split(r"\s+--[a-zA-Z]", " " + body, maxsplit=1)[0].strip()
        head = re.split(r"[\s;@\[(<>=!~]", req_text, maxsplit=1)[0]
        if (
            _URL_LIKE.match(req_text)
            or "/" in head
            or "\\" in head
            or head in (".", "..")
            or _ARCHIVE.search(head)
        ):
            result.warnings.append(f"{where}: skipped '{excerpt(req_text)}' (a URL or local path)")
            continue
        try:
            req = Requirement(req_text)
        except InvalidRequirement as exc:
            raise InputError(
                f"{where}: '{excerpt(req_text)}' is not a valid requirement "
                f"({excerpt(first_line(str(exc)), 120)})"
            ) from None
        if req.url:
            result.warnings.append(f"{where}: skipped {req.name} (direct reference to a URL)")
            continue
        m = _NAME_AND_SPEC.match(req_text)
        spec = (m.group("spec") if m else str(req.specifier)).strip().strip("()").strip()
        result.deps.append(
            Declared(
                "pip", req.name, spec, _pinned_version(req.specifier), None, manifest, kind, number
            )
        )
        last_dep = len(result.deps) - 1
        if inline:
            via[last_dep] = [inline.group(1).strip()]
    for index, sources in via.items():
        if _is_indirect(sources):
            result.deps[index] = replace(result.deps[index], dependency_kind="indirect")
    return result


def _option(body: str, number: int, where: str, result: RequirementsFile) -> None:
    """One option line of a requirements file."""
    m = re.match(r"^(--?[A-Za-z][\w-]*)(?:=|\s+)?(.*)$", body)
    name, arg = (m.group(1), m.group(2).strip()) if m else (body, "")
    if name in _FLAG_OPTIONS:
        return
    if name not in _ARG_OPTIONS:
        # short options may be glued to their argument: -rbase.txt
        glued = next((o for o in ("-r", "-c", "-e", "-i", "-f") if body.startswith(o)), None)
        if glued is None:
            result.warnings.append(f"{where}: ignored unknown option {excerpt(name, 40)}")
            return
        name, arg = glued, body[len(glued) :].strip()
    canonical = _ARG_OPTIONS[name]
    if not arg:
        raise InputError(f"{where}: option {excerpt(name, 40)} needs an argument")
    if canonical == "-r":
        result.includes.append((arg, number))
    elif canonical == "-c":
        result.constraints.append((arg, number))
    elif canonical == "-e":
        result.warnings.append(f"{where}: skipped editable install '{excerpt(arg)}'")


def _read_text(path: Path, label: str) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{label}: not UTF-8 text") from None
    except OSError as exc:
        raise InputError(f"{label}: cannot be read ({exc.strerror or exc})") from None


def _relative(path: Path, root: Path) -> str | None:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return None


def parse_requirements(
    path: Path, root: Path, secret_files: tuple[str, ...] = SECRET_FLOOR
) -> tuple[list[Declared], list[str]]:
    """Read a requirements file and everything it includes (``-r``), applying ``-c`` pins.

    Included files are resolved relative to the including file; each is read once (cycles
    are safe); files outside ``root`` (through a link too) and files that may hold secrets
    are skipped with a warning. Dependencies keep the path of the file that declares them.
    A ``path`` that may not be read (see ``core.confine.refusal``) is an ``InputError``.
    """
    deps: list[Declared] = []
    warnings: list[str] = []
    pins: dict[str, str] = {}
    seen: set[Path] = set()

    def visit(file: Path, label: str, *, constraint: bool) -> None:
        seen.add(file.resolve())
        parsed = parse_requirements_text(_read_text(file, label), label)
        warnings.extend(parsed.warnings)
        if constraint:
            for d in parsed.deps:
                if d.pinned:
                    pins.setdefault(canonical_name("pip", d.name), d.pinned)
        else:
            deps.extend(parsed.deps)
        for target, line, as_constraint in [(t, n, False) for t, n in parsed.includes] + [
            (t, n, True) for t, n in parsed.constraints
        ]:
            child = (file.parent / target).resolve()
            where = f"{label} line {line}"
            rel = _relative(child, root)
            if rel is None:
                warnings.append(f"{where}: skipped '{excerpt(target)}' (outside the repository)")
                continue
            if is_secret(target, secret_files) or is_secret(rel, secret_files):
                warnings.append(f"{where}: skipped '{excerpt(target)}' (it may hold secrets)")
                continue
            try:
                found = child.is_file()
            except OSError as exc:  # e.g. a name over the file-name limit
                raise InputError(f"{where}: included file is not usable: {exc.strerror}") from None
            if not found:
                raise InputError(f"{where}: included file '{target[:200]}' does not exist")
            if child in seen:
                continue
            visit(child, rel, constraint=constraint or as_constraint)

    top = relative_to(root, path)
    why = refusal(root, top, secret_files) if top else "it is not inside the checkout"
    if why:
        raise InputError(f"{top or path.name}: not read: {why}")
    visit(path.resolve(), _relative(path, root) or path.name, constraint=False)
    out = []
    for d in deps:
        pin = pins.get(canonical_name("pip", d.name))
        out.append(replace(d, pinned=pin) if pin and not d.pinned else d)
    return out, warnings


def spec_lower_bound(ecosystem: str, spec: str) -> str | None:
    """The lowest version a range names (``>=2.28,<3`` → 2.28); a plain version is itself."""
    spec = spec.strip()
    if parse_version(ecosystem, spec) is not None:
        return spec
    if ecosystem == "npm":
        return npm_min_version(spec)
    try:
        specs = SpecifierSet(spec)
    except InvalidSpecifier:
        return None
    lows = [
        s.version.rstrip(".*")
        for s in specs
        if s.operator in (">=", "==", "~=", "===", ">")
        and parse_version("pip", s.version.rstrip(".*"))
    ]
    parsed = [(parse_version("pip", v), v) for v in lows]
    return max(parsed, key=lambda p: p[0])[1] if parsed else None  # type: ignore[arg-type,return-value]


# --- pyproject.toml (PEP 621, PEP 735) ----------------------------------------------------


def _line_of(lines: list[str], needle: str, after: int = 0) -> int:
    for i in range(after, len(lines)):
        if f'"{needle}"' in lines[i] or f"'{needle}'" in lines[i]:
            return i + 1
    return 0


def _section_line(lines: list[str], header: str) -> int:
    pattern = re.compile(rf"^\s*\[\s*{re.escape(header)}\s*\]")
    return next((i for i, line in enumerate(lines) if pattern.match(line)), 0)


def _pep508_list(
    items: Any, where: str, manifest: str, kind: str, lines: list[str], after: int
) -> list[Declared]:
    if not isinstance(items, list):
        raise InputError(f"{where} must be a list of requirement strings")
    out = []
    for item in items:
        if isinstance(item, dict) and "include-group" in item:
            continue  # PEP 735 group include; the included group is read on its own
        if not isinstance(item, str):
            raise InputError(f"{where}: {excerpt(repr(item))} is not a requirement string")
        line = _line_of(lines, item, after)
        try:
            req = Requirement(item)
        except InvalidRequirement as exc:
            raise InputError(
                f"{manifest} line {line}: '{excerpt(item)}' is not a valid requirement "
                f"({excerpt(first_line(str(exc)), 120)})"
            ) from None
        if req.url:
            continue
        m = _NAME_AND_SPEC.match(item)
        spec = (m.group("spec") if m else str(req.specifier)).strip().strip("()").strip()
        out.append(
            Declared(
                "pip", req.name, spec, _pinned_version(req.specifier), None, manifest, kind, line
            )
        )
    return out


def parse_pyproject_text(text: str, manifest: str) -> list[Declared]:
    """``[project].dependencies``, ``[project.optional-dependencies]`` and ``[dependency-groups]``.

    Optional groups and dependency groups named like dev/test/lint/docs/typing are
    ``dev``; the others are ``direct``.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{manifest}: not valid TOML ({exc})") from None
    except RecursionError:
        raise InputError(f"{manifest}: nested too deeply to be a pyproject.toml") from None
    lines = text.splitlines()
    project = data.get("project", {})
    if not isinstance(project, dict):
        raise InputError(f"{manifest}: [project] must be a table")
    out: list[Declared] = []
    start = _section_line(lines, "project")
    if "dependencies" in project:
        out += _pep508_list(
            project["dependencies"],
            f"{manifest}: [project].dependencies",
            manifest,
            "direct",
            lines,
            start,
        )
    optional = project.get("optional-dependencies", {})
    groups = data.get("dependency-groups", {})
    for table, header in (
        (optional, "project.optional-dependencies"),
        (groups, "dependency-groups"),
    ):
        if not isinstance(table, dict):
            raise InputError(f"{manifest}: [{header}] must be a table of lists")
        start = _section_line(lines, header)
        for group, items in table.items():
            kind = "dev" if is_dev_name(str(group)) else "direct"
            where = f"{manifest}: [{header}].{group}"
            out += _pep508_list(items, where, manifest, kind, lines, start)
    return out


# --- finding and reading manifests -----------------------------------------------------


def _is_requirements(path: Path) -> bool:
    name = path.name.lower()
    if not name.endswith(".txt"):
        return False
    return "requirements" in name or path.parent.name.lower() in ("requirements", "reqs")


_MANIFEST_NAMES = ("pyproject.toml", "package.json", "Pipfile", "setup.cfg", "setup.py")


def find_manifests(root: Path, settings: Settings) -> list[Path]:
    """Every requirements*.txt, pyproject.toml, package.json, Pipfile, setup.cfg and setup.py
    under ``root``, sorted.

    Skips ``settings.exclude_dirs`` (node_modules, virtualenvs, build output, ...), hidden
    folders and, when ``settings.skip_env_dirs``, any folder holding a ``pyvenv.cfg``.
    """
    excluded = {d.lower() for d in settings.exclude_dirs}
    found: list[Path] = []
    for current, dirs, files in os.walk(root):
        here = Path(current)
        dirs[:] = sorted(
            d
            for d in dirs
            if d.lower() not in excluded
            and not d.startswith(".")
            and not (settings.skip_env_dirs and (here / d / "pyvenv.cfg").exists())
        )
        for name in sorted(files):
            path = here / name
            if name in _MANIFEST_NAMES or _is_requirements(path):
                found.append(path)
    skip = tuple(p.strip("/") + "/" for p in settings.manifest_exclude if p.strip("/"))
    found = [p for p in found if not p.relative_to(root).as_posix().startswith(skip)]
    if settings.respect_gitignore:
        found = _not_ignored(root, found)
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def _not_ignored(root: Path, paths: list[Path]) -> list[Path]:
    """Drop the paths git ignores (when ``root`` is a git checkout and git is installed)."""
    if not paths:
        return paths
    rels = [p.relative_to(root).as_posix() for p in paths]
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "check-ignore", "--stdin", "-z"],
            input="\0".join(rels) + "\0",
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return paths
    if done.returncode not in (0, 1):  # 128: not a git checkout
        return paths
    ignored = set(filter(None, done.stdout.split("\0")))
    return [p for p, rel in zip(paths, rels, strict=True) if rel not in ignored]


def read_manifest(
    path: Path,
    root: Path,
    secret_files: tuple[str, ...] = SECRET_FLOOR,
    memo: dict[Path, Any] | None = None,
) -> tuple[list[Declared], list[str]]:
    """Parse one manifest found by ``find_manifests`` with its lock (``_read_one``), and
    note each pip requirement that has neither a pin, a lock nor an upper bound. ``memo``:
    what one scan learns once for many manifests (a workspace's member packages)."""
    deps, notes = _read_one(path, root, secret_files, memo)
    return deps, notes + [n for n in unlocked_notes(deps) if n not in notes]


def _read_one(
    path: Path,
    root: Path,
    secret_files: tuple[str, ...] = SECRET_FLOOR,
    memo: dict[Path, Any] | None = None,
) -> tuple[list[Declared], list[str]]:
    """Parse one manifest and its lock (uv.lock / poetry.lock, Pipfile.lock, the npm locks).

    A manifest that may not be read (a link leaving the checkout, a secret file: see
    ``core.confine.refusal``) gives no dependencies and one warning naming its path."""
    rel = relative_to(root, path)
    why = refusal(root, rel, secret_files) if rel else "it is not inside the checkout"
    if why:
        return [], [f"{rel or path.name}: not read: {why}"]
    label = _relative(path, root) or rel
    if path.name == "pyproject.toml":
        text = _read_text(path, label)
        deps = parse_pyproject_text(text, label)
        return read_pyproject_locks(path, root, text, label, deps, secret_files)
    if path.name == "Pipfile":
        return read_pipfile(path, root, secret_files)
    if path.name in ("setup.cfg", "setup.py"):
        return read_setuptools(path, root, secret_files)
    if path.name == "package.json":
        text = _read_text(path, label)
        return read_package_json(path, root, text, label, secret_files, memo)
    return parse_requirements(path, root, secret_files)


__all__ = [
    "Declared",
    "RequirementsFile",
    "find_manifests",
    "is_dev_name",
    "npm_min_version",
    "parse_package_json_text",
    "parse_pyproject_text",
    "parse_requirements",
    "parse_requirements_text",
    "read_manifest",
    "spec_lower_bound",
]
