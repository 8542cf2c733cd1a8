"""The options a release checks against a JSON schema before it runs (webpack's loaders and
plugins validate theirs with ``schema-utils``: ``dist/options.json``). Pure (reads files).

``{ "type": "object", "properties": { "lessOptions": …, "sourceMap": … },
"additionalProperties": false }``: the options the release takes, and whether it refuses
any other. A release whose schema is closed throws on an option it does not list, though
the same call worked with the release before (which had no schema, or listed the option).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from depbot.records.api import ApiChange

__all__ = ["OptionsSchema", "options_schema", "schema_changes"]

MAX_BYTES = 500_000
# `options.json`, `plugin-options.json`, `ForkTsCheckerWebpackPluginOptions.json`, babel-loader's
# `schema.json`: what the file is named says it is a schema of options
_OPTIONS_FILE = re.compile(r"(?i:.*options?.*|schema)\.json")
# the release's code loads the schema: `require("./options.json")`, `import schema from …`
_LOADS = r"""(?:require\(\s*|from\s+|import\(\s*)['"]\.{{1,2}}/(?:[\w.-]+/)*{name}['"]"""


@dataclass(frozen=True)
class OptionsSchema:
    file: str  # its path in the release
    properties: frozenset[str]
    closed: bool  # ``additionalProperties: false``: any other option is refused
    required: frozenset[str]


def options_schema(root: Path, files: list[str], code: list[str]) -> OptionsSchema | None:
    """The one options schema the release's code loads (``files``: the release's files,
    ``code``: its JavaScript files); None when it has none, or more than one (a plugin's
    and a loader's: which a use passes is not known here)."""
    read = [
        (schema, rel.rsplit("/", 1)[-1])
        for rel in files
        if _OPTIONS_FILE.fullmatch(rel.rsplit("/", 1)[-1])
        and "node_modules/" not in rel
        and (schema := _read(root / rel, rel)) is not None
    ]  # a schema of some other input (a data format the package reads) is none
    loaded = _loaded(root, code, {name for _, name in read}) if read else set()
    found = [schema for schema, name in read if name in loaded]
    return found[0] if len(found) == 1 else None


def _read(path: Path, rel: str) -> OptionsSchema | None:
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("type") != "object":
        return None
    props = data.get("properties")
    if not isinstance(props, dict) or not props:
        return None
    required = data.get("required") if isinstance(data.get("required"), list) else []
    return OptionsSchema(
        rel,
        frozenset(k for k in props if isinstance(k, str)),
        data.get("additionalProperties") is False,
        frozenset(r for r in required if isinstance(r, str)),
    )


def _loaded(root: Path, code: list[str], names: set[str]) -> set[str]:
    """Which of the file ``names`` the release's code loads (each code file read once)."""
    patterns = {name: re.compile(_LOADS.format(name=re.escape(name))) for name in names}
    found: set[str] = set()
    for rel in code:
        try:
            text = (root / rel).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        found |= {name for name, pattern in patterns.items() if pattern.search(text)}
        if found == names:
            break
    return found


def schema_changes(
    before: OptionsSchema | None, after: OptionsSchema | None, pkg: str, label: str
) -> list[ApiChange]:
    """What a closed options schema of the new release (``after``, of the release ``label``)
    refuses: any option it does not list when the old release had no schema
    (``options_closed``, detail the allowed names ``a|b|c``), else each option the old
    schema listed and the new one does not; and each option the new one newly requires."""
    if after is None:
        return []
    where = f"{label} · {after.file} · options"
    if before is None:
        if not after.closed:
            return []
        return [ApiChange("options_closed", pkg, "|".join(sorted(after.properties)), where, 0)]
    gone = sorted(before.properties - after.properties) if after.closed else []
    needed = sorted(after.required - before.required)
    return [ApiChange("option_removed", pkg, o, where, 0) for o in gone] + [
        ApiChange("option_now_required", pkg, o, where, 0) for o in needed
    ]
