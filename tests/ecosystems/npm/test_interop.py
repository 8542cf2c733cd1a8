"""A default import of a CommonJS entry gets the module object unless the module marks
itself ``__esModule`` (#27, stop 52): a release that starts marking itself without a
``default`` breaks ``import tar from 'tar'`` though every name is still exported."""

from __future__ import annotations

from pathlib import Path

import pytest

from depbot.ecosystems.npm.api.interop import module_object_is_default
from depbot.ecosystems.npm.api.model import npm_changes, read_package

PLAIN = "exports.c = exports.create = require('./create.js');\nexports.x = 1;\n"
MARKED = (
    '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\n'
    "exports.c = exports.create = void 0;\nexports.x = 1;\n"
)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (PLAIN, True),
        ("module.exports = { parse() {} };\n", True),
        (MARKED, False),
        (
            'var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);\nmodule.exports = __toCommonJS(src);\n',
            False,
        ),
        ("exports.__esModule = true;\nexports.default = make;\n", False),
        ("export const c = 1;\n", False),  # an ES module: its own `default` or none
        ("console.log('no exports');\n", False),
    ],
)
def test_what_a_default_import_of_a_commonjs_file_gets(tmp_path: Path, source: str, expected):
    entry = tmp_path / "index.js"
    entry.write_text(source)
    assert module_object_is_default(entry) is expected


def _release(root: Path, version: str, source: str) -> Path:
    root.mkdir()
    (root / "package.json").write_text(f'{{"name": "lib", "version": "{version}"}}')
    (root / "index.js").write_text(source)
    (root / "index.d.ts").write_text(
        "export declare const c: () => void;\nexport declare const x: number;\n"
    )
    return root


@pytest.mark.parametrize(
    ("before", "after", "removed"),
    [
        (PLAIN, MARKED, True),  # the module object was the default; now `undefined`
        (PLAIN, PLAIN, False),
        (MARKED, MARKED, False),
        (PLAIN, MARKED + "exports.default = exports;\n", False),
    ],
)
def test_a_module_that_starts_marking_itself_loses_its_default(
    tmp_path: Path, before: str, after: str, removed: bool
):
    old = read_package(_release(tmp_path / "old", "6.0.0", before), "lib-6.0.0", [])
    new = read_package(_release(tmp_path / "new", "7.0.0", after), "lib-7.0.0", [])
    kinds = [c.kind for c in npm_changes(old, new, []) if c.path == "lib"]
    assert ("default_removed" in kinds) is removed


def test_a_module_object_handed_on_from_a_marked_file_is_no_default(tmp_path: Path):
    (tmp_path / "index.js").write_text(
        "if (process.env.NODE_ENV === 'production') {\n"
        "  module.exports = require('./lib.cjs.production.min.js')\n"
        "} else {\n  module.exports = require('./lib.cjs.development.js')\n}\n"
    )
    (tmp_path / "lib.cjs.production.min.js").write_text(
        'Object.defineProperty(exports,"__esModule",{value:!0});exports.merge=m;'
    )
    (tmp_path / "lib.cjs.development.js").write_text(MARKED)
    assert module_object_is_default(tmp_path / "index.js") is False
    (tmp_path / "lib.cjs.production.min.js").write_text(PLAIN)
    (tmp_path / "lib.cjs.development.js").write_text(PLAIN)
    assert module_object_is_default(tmp_path / "index.js") is True
