"""The update list as text for a terminal, and as the JSON document of ``depbot updates --json``.

Pure: updates and warnings in, a string or a dict out.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from depbot.records.update import Update

GROUP_ORDER = ("major", "minor", "patch", "other", "errors")


def grouped(updates: Iterable[Update]) -> dict[str, list[Update]]:
    """Updates by update type, in ``GROUP_ORDER``; failed lookups go to ``errors``."""
    groups: dict[str, list[Update]] = {name: [] for name in GROUP_ORDER}
    for u in updates:
        if u.error:
            groups["errors"].append(u)
        else:
            groups[u.update_type if u.update_type in groups else "other"].append(u)
    return groups


def _origin(u: Update) -> str:
    if u.source == "dependabot" and u.extra.get("pr"):
        return f"PR #{u.extra['pr']}"
    return u.source


def summary_line(updates: list[Update]) -> str:
    groups = grouped(updates)
    total = sum(len(v) for k, v in groups.items() if k != "errors")
    parts = [f"{len(v)} {k}" for k, v in groups.items() if v and k != "errors"]
    text = f"{total} update{'s' if total != 1 else ''}"
    if parts:
        text += ": " + ", ".join(parts)
    if groups["errors"]:
        n = len(groups["errors"])
        text += f"; {n} package{'s' if n != 1 else ''} could not be checked"
    return text


def render_table(updates: list[Update]) -> str:
    """A plain-text table grouped by update type (major, minor, patch, other, then errors)."""
    if not updates:
        return "No pending updates."
    groups = grouped(updates)
    rows: dict[str, list[list[str]]] = {}
    for name, items in groups.items():
        for u in items:
            if u.error:
                change, last = (u.from_version or "?"), u.error
            else:
                change, last = f"{u.from_version} → {u.to_version}", _origin(u)
            kind = u.dependency_kind if u.dependency_kind != "direct" else ""
            rows.setdefault(name, []).append(
                [u.ecosystem, u.package, change, u.manifest or "-", kind, last]
            )
    widths = [0] * 5
    for table in rows.values():
        for row in table:
            widths = [max(w, len(cell)) for w, cell in zip(widths, row[:5], strict=True)]
    lines = [summary_line(updates)]
    for name in GROUP_ORDER:
        if name not in rows:
            continue
        lines += ["", f"{name} ({len(rows[name])})"]
        for row in rows[name]:
            cells = [cell.ljust(w) for cell, w in zip(row[:5], widths, strict=True)] + [row[5]]
            lines.append("  " + "  ".join(cells).rstrip())
    return "\n".join(lines)


def to_json(updates: list[Update], warnings: list[str]) -> dict[str, Any]:
    """``{"updates": [...], "warnings": [...]}``: each update as ``Update.to_dict()``."""
    return {"updates": [u.to_dict() for u in updates], "warnings": list(warnings)}
