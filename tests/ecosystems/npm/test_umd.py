"""UMD bundles: the module object a wrapper hands to `module.exports`, and its members."""

from __future__ import annotations

import json
from pathlib import Path

from depbot.apidiff import diff_releases
from depbot.ecosystems.npm.api.exports import file_exports
from depbot.records.api import BUNDLED_DEFAULT

WRAPPED = """;(function (factory) {
  if (typeof define === 'function' && define.amd) { define(factory); }
  if (typeof exports === 'object') { module.exports = factory(); }
  else { window.Jar = factory(); }
}(function () {
  function init (converter) {
    function api (key) { return converter(key); }
    api.get = function (key) { return api(key); };
    api.%s = function () { return api(); };
    api.withConverter = init;
    return api;
  }
  return init(function () {});
}));
"""

MINIFIED = """/*! jar */
!function(e,t){"object"==typeof exports&&"undefined"!=typeof module?module.exports=t():e.Jar=t()}
(this,(function(){"use strict";function n(c,a){function s(){}return Object.create({set:s,get:s,
remove:function(){},withConverter:function(){return n()}},{attributes:{value:Object.freeze(a)}})}
return n({},{})}));
"""

HANDED = """(function (global, factory) {
  typeof exports === 'object' && typeof module !== 'undefined' ? factory(exports) :
  (global = global || self, factory(global.Jar = {}));
}(this, (function (exports) { 'use strict';
  function parse () {}
  exports.parse = parse;
  Object.defineProperty(exports, '__esModule', { value: true });
  Object.defineProperty(exports, 'format', { enumerable: true, get: function () {} });
})));
"""

COMPUTED = """(function (root, factory) {
  if (typeof exports === 'object') module.exports = factory(); else root.Jar = factory();
}(this, function () {
  function Jar () {}
  ['Bar', 'Line'].forEach(function (kind) { Jar[kind] = function () {}; });
  return Jar;
}));
"""


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "jar.js"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_factory_s_returned_object_is_the_module_and_its_members_are_the_names(tmp_path):
    names = file_exports(_file(tmp_path, WRAPPED % "getJSON"), tmp_path)
    assert names == {"default", "get", "getJSON", "withConverter"}


def test_a_minified_wrapper_and_object_create_are_read(tmp_path):
    names = file_exports(_file(tmp_path, MINIFIED), tmp_path)
    assert names == {"default", "set", "get", "remove", "withConverter", "attributes"}


def test_a_factory_handed_the_exports_object_sets_the_names_on_it(tmp_path):
    assert file_exports(_file(tmp_path, HANDED), tmp_path) == {"parse", "format"}


def test_members_made_under_a_computed_key_leave_the_object_unread_not_empty(tmp_path):
    assert file_exports(_file(tmp_path, COMPUTED), tmp_path) == {"default", "*"}


def _release(root: Path, text: str, version: str) -> Path:
    root.mkdir(parents=True)
    manifest = {"name": "jar", "version": version, "main": "src/jar.js"}
    (root / "package.json").write_text(json.dumps(manifest), encoding="utf-8")
    (root / "src").mkdir()
    (root / "src" / "jar.js").write_text(text, encoding="utf-8")
    return root


def test_a_member_the_new_bundle_no_longer_sets_is_removed(tmp_path):
    old = _release(tmp_path / "old", WRAPPED % "getJSON", "2.2.0")
    new = _release(tmp_path / "new", WRAPPED % "getAll", "3.0.0")
    diff = diff_releases("npm", old, new)
    assert {c.detail for c in diff.changes if c.kind == "export_removed"} == {"getJSON"}
    assert (diff.old_api or {}).get("jar") == "cjs"  # `Jar.get` is the export `get`


def test_an_unread_bundle_compares_nothing_rather_than_everything_removed(tmp_path):
    old = _release(tmp_path / "old", WRAPPED % "getJSON", "2.2.0")
    new = _release(tmp_path / "new", COMPUTED, "3.0.0")
    diff = diff_releases("npm", old, new)
    assert not [c for c in diff.changes if c.kind == "export_removed"]
    assert any("not compared" in n for n in diff.notes)


def test_an_import_gets_the_module_file_of_a_bundle_whose_require_file_has_a_default(tmp_path):
    """`main` is a UMD bundle (`require` gets its object); `module` has only named exports:
    what a bundler gives `import X from 'jar'` has no default."""
    old = _release(tmp_path / "old", WRAPPED % "getJSON", "2.2.0")
    new = _release(tmp_path / "new", WRAPPED % "getJSON", "3.0.0")
    manifest = json.loads((new / "package.json").read_text())
    manifest.update({"module": "src/jar.mjs", "types": "types/index.d.ts"})
    (new / "package.json").write_text(json.dumps(manifest), encoding="utf-8")
    (new / "src" / "jar.mjs").write_text("export function get() {}\n", encoding="utf-8")
    (new / "types").mkdir()
    (new / "types" / "index.d.ts").write_text("export declare function get(): void;\n")
    diff = diff_releases("npm", old, new)
    assert "default_removed" in {c.kind for c in diff.changes}


def test_an_unread_module_object_is_still_known_to_be_the_default_import(tmp_path):
    """No file shows the old bundle's members, but that its module object is the default is
    known: a new `module` file with named exports only takes the default import away, while
    the same unread bundle in both releases compares nothing."""
    old = _release(tmp_path / "old", COMPUTED, "2.9.0")
    same = _release(tmp_path / "same", COMPUTED, "2.9.1")
    assert not diff_releases("npm", old, same).changes
    new = _release(tmp_path / "new", COMPUTED, "3.0.0")
    manifest = json.loads((new / "package.json").read_text())
    manifest["module"] = "src/jar.mjs"
    (new / "package.json").write_text(json.dumps(manifest), encoding="utf-8")
    (new / "src" / "jar.mjs").write_text("export class Jar {}\nexport function register() {}\n")
    diff = diff_releases("npm", old, new)
    assert [(c.kind, c.detail) for c in diff.changes] == [("default_removed", BUNDLED_DEFAULT)]
    assert (diff.old_api or {}).get("jar:default") == "export"
    assert (diff.old_api or {}).get("jar") == "opaque"
