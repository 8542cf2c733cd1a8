"""Poetry's own tables in pyproject.toml: ``[tool.poetry.dependencies]`` and its groups.

Pure: parsed TOML in, ``Declared`` out. Direct dependencies only: ``[tool.poetry.dependencies]``
(``python`` is the interpreter, not a package), the old ``[tool.poetry.dev-dependencies]`` and
``[tool.poetry.group.<name>.dependencies]``; a group named like dev/test/lint/docs is ``dev``.
Poetry's constraints (``^1.2``, ``~1.2.3``, ``1.2.3``, ``*``) are turned into PEP 440
specifiers so the range check works without a lock; ``git``/``path``/``url`` dependencies
are skipped with a warning. The versions come from poetry.lock (``python_locks``).
Also uv's legacy ``[tool.uv] dev-dependencies`` list, which is PEP 508 like ``[project]``.
"""

from __future__ import annotations

import re
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet

from depbot.core.redact import excerpt
from depbot.records.declared import Declared, is_dev_name

_NUMBERS = re.compile(r"^\d+(?:\.\d+)*")


def _bump(parts: list[int], index: int) -> str:
    upper = parts[: index + 1]
    upper[index] += 1
    return ".".join(str(n) for n in upper)


def _caret(version: str) -> str | None:
    m = _NUMBERS.match(version)
    if not m:
        return None
    parts = [int(p) for p in m.group(0).split(".")]
    first = next((i for i, n in enumerate(parts) if n != 0), len(parts) - 1)
    return f">={version},<{_bump(parts, first)}"


def _tilde(version: str) -> str | None:
    m = _NUMBERS.match(version)
    if not m:
        return None
    parts = [int(p) for p in m.group(0).split(".")]
    return f">={version},<{_bump(parts, 0 if len(parts) == 1 else 1)}"


def poetry_to_pep440(constraint: str) -> str | None:
    """``^1.2.3`` → ``>=1.2.3,<2``; ``~1.2`` → ``>=1.2,<1.3``; ``1.2.3`` → ``==1.2.3``;
    ``*`` → ""; PEP 440 parts pass through. None when it cannot be read (``a || b`` too)."""
    text = constraint.strip()
    if text in ("", "*"):
        return ""
    if "||" in text or "|" in text:
        return None
    out = []
    for part in re.split(r"\s*,\s*|\s+(?=[<>=!~^])", text):
        part = part.strip().replace(" ", "")
        if not part:
            continue
        if part.startswith("^"):
            converted = _caret(part[1:])
        elif part.startswith("~") and not part.startswith("~="):
            converted = _tilde(part[1:])
        elif part[0].isdigit() or part.startswith("v"):
            converted = f"=={part.lstrip('v')}"
        else:
            converted = part
        if converted is None:
            return None
        out.append(converted)
    spec = ",".join(out)
    try:
        SpecifierSet(spec)
    except InvalidSpecifier:
        return None
    return spec


def _exact(spec: str) -> str | None:
    if spec.startswith("==") and "," not in spec and not spec.endswith(".*"):
        return spec[2:]
    return None


def _constraint(value: Any) -> tuple[str | None, str | None]:
    """(the constraint as written, why skipped) of one Poetry dependency value."""
    if isinstance(value, str):
        return value, None
    if isinstance(value, list):  # multiple constraints by marker: the first with a version
        value = next((v for v in value if isinstance(v, dict) and "version" in v), None)
        if value is None:
            return None, "multiple constraints with no version"
    if isinstance(value, dict):
        for source in ("git", "path", "url", "file"):
            if source in value:
                return None, f"a {source} dependency"
        version = value.get("version", "*")
        return (version, None) if isinstance(version, str) else (None, "a version that is not text")
    return None, "a value that is neither a version nor a table"


def _table(
    table: Any, header: str, manifest: str, kind: str, out: list[Declared], warnings: list[str]
) -> None:
    if not isinstance(table, dict):
        if table is not None:
            warnings.append(f"{manifest}: [{header}] is not a table; not read")
        return
    for name, value in table.items():
        if str(name).lower() == "python":
            continue
        written, why = _constraint(value)
        if written is None:
            warnings.append(f"{manifest}: [{header}] skipped {excerpt(name, 60)} ({why})")
            continue
        spec = poetry_to_pep440(written)
        if spec is None:
            spec = written  # sources says it cannot read the range (unless the lock has it)
        out.append(Declared("pip", str(name), spec, _exact(spec), None, manifest, kind, 0))


def parse_poetry(data: dict[str, Any], manifest: str) -> tuple[list[Declared], list[str]]:
    """The direct dependencies of Poetry's tables (and uv's dev-dependencies) of a pyproject."""
    out: list[Declared] = []
    warnings: list[str] = []
    tool = data.get("tool")
    if not isinstance(tool, dict):
        return out, warnings
    poetry = tool.get("poetry")
    if isinstance(poetry, dict):
        _table(
            poetry.get("dependencies"),
            "tool.poetry.dependencies",
            manifest,
            "direct",
            out,
            warnings,
        )
        _table(
            poetry.get("dev-dependencies"),
            "tool.poetry.dev-dependencies",
            manifest,
            "dev",
            out,
            warnings,
        )
        groups = poetry.get("group")
        if isinstance(groups, dict):
            for group, body in groups.items():
                if not isinstance(body, dict):
                    continue
                kind = "dev" if is_dev_name(str(group)) else "direct"
                header = f"tool.poetry.group.{group}.dependencies"
                _table(body.get("dependencies"), header, manifest, kind, out, warnings)
    uv = tool.get("uv")
    if isinstance(uv, dict) and isinstance(uv.get("dev-dependencies"), list):
        for item in uv["dev-dependencies"]:
            try:
                req = Requirement(item) if isinstance(item, str) else None
            except InvalidRequirement:
                req = None
            if req is None:
                warnings.append(
                    f"{manifest}: [tool.uv].dev-dependencies: skipped {excerpt(repr(item), 60)}"
                )
                continue
            if not req.url:
                spec = str(req.specifier)
                out.append(Declared("pip", req.name, spec, _exact(spec), None, manifest, "dev", 0))
    return out, warnings
