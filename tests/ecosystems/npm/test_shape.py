"""What a release's module object is (#27, stop 51): a constructor, an arrow function `new`
cannot make, or a class a plain call cannot run; and the API change when that shape moves."""

from __future__ import annotations

from pathlib import Path

import pytest

from depbot.ecosystems.npm.api.model import npm_changes, read_package
from depbot.ecosystems.npm.api.shape import module_shape
from depbot.records.api import DEFAULT_KEPT


@pytest.mark.parametrize(
    ("source", "shape"),
    [
        ("function Lib(o) {}\nmodule.exports = Lib;\n", "function"),
        ("module.exports = function (o) {};\n", "function"),
        ("module.exports = (cfg) => ({ cfg });\n", "arrow"),
        ("const make = (cfg) => cfg;\nmodule.exports = make;\n", "arrow"),
        ("class Client {}\nmodule.exports = Client;\n", "class"),
        ("exports = module.exports = class {};\n", "class"),
        ("export default class Client {}\n", "class"),
        ("export default (cfg) => cfg;\n", "arrow"),
        ("module.exports = { parse() {} };\n", "object"),  # an object: not callable
        # only named exports set on the exports object (a TypeScript or Rollup CJS build)
        (
            "Object.defineProperty(exports, '__esModule', { value: true });\n"
            "exports.transform = function () {};\n",
            "object",
        ),
        ("exports.parse = () => 1;\nmodule.exports = function () {};\n", "function"),
        ("module.exports = make();\n", None),  # what a call returns: not known
        ("module.exports = Lib;\n", None),  # declared nowhere in the file
        # the last assignment is what `require` gives
        ("module.exports = function () {};\nmodule.exports = () => 1;\n", "arrow"),
    ],
)
def test_the_shape_of_the_module_object(tmp_path: Path, source: str, shape: str | None):
    entry = tmp_path / "index.js"
    entry.write_text(source)
    assert module_shape(entry, tmp_path) == shape


def test_a_required_file_gives_its_shape(tmp_path: Path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "main.js").write_text("module.exports = (cfg) => cfg;\n")
    (tmp_path / "index.js").write_text("module.exports = require('./lib/main');\n")
    assert module_shape(tmp_path / "index.js", tmp_path) == "arrow"


def _release(root: Path, version: str, source: str) -> Path:
    root.mkdir()
    (root / "package.json").write_text(f'{{"name": "lib", "version": "{version}"}}')
    (root / "index.js").write_text(source)
    return root


@pytest.mark.parametrize(
    ("before", "after", "kind"),
    [
        ("function Lib(o) {}\nmodule.exports = Lib;\n", "module.exports = (o) => o;\n",
         "not_constructible"),
        ("class Lib {}\nmodule.exports = Lib;\n", "module.exports = (o) => o;\n",
         "not_constructible"),
        ("function Lib(o) {}\nmodule.exports = Lib;\n", "class Lib {}\nmodule.exports = Lib;\n",
         "now_class"),
        ("module.exports = function (o) {};\n", "exports.transform = function () {};\n",
         "not_callable"),
        # a default export kept: still no function for `require` (the detail says so)
        ("module.exports = function (o) {};\n",
         "exports.__esModule = true;\nexports.default = function (o) {};\n", "not_callable"),
        ("module.exports = function (o) {};\n", "exports.default = function (o) {};\n",
         "not_callable"),
        # no change of shape, or one no use can trip over: no change
        ("module.exports = { a: 1 };\n", "exports.a = 1;\n", None),
        ("module.exports = (o) => o;\n", "module.exports = function (o) {};\n", None),
        ("class Lib {}\nmodule.exports = Lib;\n", "class Lib {}\nmodule.exports = Lib;\n", None),
    ],
)  # fmt: skip
def test_a_change_of_shape_is_an_api_change(tmp_path: Path, before: str, after: str, kind):
    old = read_package(_release(tmp_path / "old", "1.0.0", before), "lib-1.0.0", [])
    new = read_package(_release(tmp_path / "new", "2.0.0", after), "lib-2.0.0", [])
    changes = npm_changes(old, new, [])
    found = [
        c.kind for c in changes if c.kind in ("not_constructible", "now_class", "not_callable")
    ]
    assert found == ([kind] if kind else [])
    kept = [c for c in changes if c.kind == "not_callable" and c.detail.endswith(DEFAULT_KEPT)]
    # only a module marked __esModule gives a default import its `.default`
    assert bool(kept) == ("__esModule" in after and "exports.default" in after)
