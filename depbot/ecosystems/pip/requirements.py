"""pip requirements files: ``-r``/``-c`` includes, options, hashes, ``# via`` comments.

Parsing is pure (text in, ``Declared`` out); ``parse_requirements`` reads a file and the
files it includes, each inside the checkout (``core.confine``) and once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement

from depbot.core.confine import SECRET_FLOOR, is_secret, refusal, relative_to
from depbot.core.errors import InputError
from depbot.core.redact import excerpt
from depbot.ecosystems import table
from depbot.ecosystems.reading import read_text, relative
from depbot.records.declared import Declared, first_line, is_dev_name

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
NAME_AND_SPEC = re.compile(r"^\s*[A-Za-z0-9][A-Za-z0-9._-]*\s*(?:\[[^\]]*\])?\s*(?P<spec>[^;]*)")


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


def pinned_version(spec: Any) -> str | None:
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
        m = NAME_AND_SPEC.match(req_text)
        spec = (m.group("spec") if m else str(req.specifier)).strip().strip("()").strip()
        result.deps.append(
            Declared(
                "pip", req.name, spec, pinned_version(req.specifier), None, manifest, kind, number
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
        parsed = parse_requirements_text(read_text(file, label), label)
        warnings.extend(parsed.warnings)
        if constraint:
            for d in parsed.deps:
                if d.pinned:
                    pins.setdefault(table.canonical_name("pip", d.name), d.pinned)
        else:
            deps.extend(parsed.deps)
        for target, line, as_constraint in [(t, n, False) for t, n in parsed.includes] + [
            (t, n, True) for t, n in parsed.constraints
        ]:
            child = (file.parent / target).resolve()
            where = f"{label} line {line}"
            rel = relative(child, root)
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
    visit(path.resolve(), relative(path, root) or path.name, constraint=False)
    out = []
    for d in deps:
        pin = pins.get(table.canonical_name("pip", d.name))
        out.append(replace(d, pinned=pin) if pin and not d.pinned else d)
    return out, warnings


def is_requirements(path: Path) -> bool:
    name = path.name.lower()
    if not name.endswith(".txt"):
        return False
    return "requirements" in name or path.parent.name.lower() in ("requirements", "reqs")
