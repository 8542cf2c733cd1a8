"""PEP 621 and PEP 735 pyproject.toml: ``[project]`` dependencies, optional groups, dependency groups. Pure."""

from __future__ import annotations

import re
import sys
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement

from depbot.core.errors import InputError
from depbot.core.redact import excerpt
from depbot.ecosystems.pip.requirements import NAME_AND_SPEC, pinned_version
from depbot.records.declared import Declared, first_line, is_dev_name

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib


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
        m = NAME_AND_SPEC.match(item)
        spec = (m.group("spec") if m else str(req.specifier)).strip().strip("()").strip()
        out.append(
            Declared(
                "pip", req.name, spec, pinned_version(req.specifier), None, manifest, kind, line
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
