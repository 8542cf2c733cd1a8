"""A release's options schema (#27, stop 52): webpack's loaders and plugins validate their
options against ``dist/options.json``; a closed schema refuses what it does not list."""

from __future__ import annotations

import json
from pathlib import Path

from depbot.ecosystems.npm.api.model import npm_changes, read_package
from depbot.ecosystems.npm.api.schema import options_schema, schema_changes

SCHEMA = {
    "type": "object",
    "properties": {"lessOptions": {"type": "object"}, "sourceMap": {"type": "boolean"}},
    "additionalProperties": False,
}
LOADS = 'const schema = require("./options.json");\nmodule.exports = function (s) {};\n'


def _release(root: Path, version: str, schema: dict | None, code: str = LOADS) -> Path:
    (root / "dist").mkdir(parents=True)
    (root / "package.json").write_text(
        json.dumps({"name": "pack-loader", "version": version, "main": "dist/index.js"})
    )
    (root / "dist" / "index.js").write_text(code)
    if schema is not None:
        (root / "dist" / "options.json").write_text(json.dumps(schema))
    return root


def test_the_schema_the_code_loads_is_the_options_schema(tmp_path: Path):
    root = _release(tmp_path / "r", "6.0.0", SCHEMA)
    got = options_schema(root, ["dist/options.json", "package.json"], ["dist/index.js"])
    assert got is not None and got.closed and got.properties == {"lessOptions", "sourceMap"}
    (root / "dist" / "index.js").write_text("module.exports = 1;\n")  # loaded by nothing
    assert options_schema(root, ["dist/options.json"], ["dist/index.js"]) is None
    # a schema of some other input the package reads (a data format) is no options schema
    (root / "dist" / "manifest-schema.json").write_text(json.dumps(SCHEMA))
    (root / "dist" / "index.js").write_text('const s = require("./manifest-schema.json");\n')
    assert options_schema(root, ["dist/manifest-schema.json"], ["dist/index.js"]) is None


def _changes(tmp_path: Path, before: dict | None, after: dict | None) -> list[tuple[str, str]]:
    old = read_package(_release(tmp_path / "old", "5.0.0", before), "pack-loader-5.0.0", [])
    new = read_package(_release(tmp_path / "new", "6.0.0", after), "pack-loader-6.0.0", [])
    kinds = ("options_closed", "option_removed", "option_now_required")
    return [(c.kind, c.detail) for c in npm_changes(old, new, []) if c.kind in kinds]


def test_a_closed_schema_where_there_was_none_refuses_every_other_option(tmp_path: Path):
    assert _changes(tmp_path, None, SCHEMA) == [("options_closed", "lessOptions|sourceMap")]


def test_an_option_the_closed_schema_stops_listing_is_removed(tmp_path: Path):
    before = {**SCHEMA, "properties": {**SCHEMA["properties"], "modifyVars": {}}}
    after = {**SCHEMA, "required": ["lessOptions"]}
    assert _changes(tmp_path, before, after) == [
        ("option_removed", "modifyVars"),
        ("option_now_required", "lessOptions"),
    ]


def test_an_open_schema_refuses_nothing(tmp_path: Path):
    open_schema = {**SCHEMA, "additionalProperties": True}
    assert _changes(tmp_path, None, open_schema) == []
    assert schema_changes(None, None, "pack-loader", "pack-loader-6.0.0") == []
