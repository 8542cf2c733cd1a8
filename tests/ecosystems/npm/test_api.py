"""The npm API diff over real released code (the scenarios' dist/) and synthetic packages."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from depbot.apidiff import diff_releases
from depbot.ecosystems.npm.api.engines import node_minimum
from tests.helpers.paths import ROOT, SHARED_SCENARIOS

BASES = (ROOT / "tests" / "scenarios", SHARED_SCENARIOS)


def _pair(scenario: str, package: str, old: str, new: str):
    for base in BASES:
        folder = base / scenario / "upstream" / "npm" / package / "dist"
        if (folder / old).is_dir() and (folder / new).is_dir():
            started = time.perf_counter()
            diff = diff_releases(
                "npm",
                folder / old,
                folder / new,
                old_label=f"{package}-{old}",
                new_label=f"{package}-{new}",
            )
            print(f"{package} {old}→{new}: {time.perf_counter() - started:.3f}s")
            return diff
    pytest.skip(f"{scenario}: no released code here")


def _kinds(diff) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for change in diff.changes:
        found.setdefault(change.kind, []).append(change.path)
    return found


def test_node_fetch_3_is_esm_only():
    diff = _pair("npm-node-fetch-esm", "node-fetch", "2.6.9", "3.3.2")
    esm = [c for c in diff.changes if c.kind == "became_esm_only"]
    assert [c.where for c in esm] == ["node-fetch-3.3.2 · package.json · type"]
    assert "engines_raised" in _kinds(diff)


def test_uuid_deep_paths_closed_by_exports():
    diff = _pair("npm-uuid-deep-require", "uuid", "3.4.0", "9.0.1")
    closed = _kinds(diff)["subpath_closed"]
    assert {"uuid/v4", "uuid/v1", "uuid/lib/rng"} <= set(closed)
    assert "became_esm_only" not in _kinds(diff)  # 9.x keeps a require condition


def test_chalk_5_is_esm_only():
    diff = _pair("npm-chalk-esm-negative", "chalk", "4.1.2", "5.3.0")
    assert _kinds(diff)["became_esm_only"] == ["chalk"]


def test_express_5_removed_request_helpers():
    diff = _pair("npm-weekly-express", "express", "4.18.2", "5.0.0")
    removed = {(c.path, c.detail) for c in diff.changes if c.kind == "export_removed"}
    assert ("express/lib/request", "param") in removed


def _package(root: Path, manifest: dict, files: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    (root / "package.json").write_text(json.dumps(manifest))
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_declarations_export_equals_star_and_default(tmp_path):
    old = _package(
        tmp_path / "old",
        {"name": "p", "types": "index.d.ts"},
        {
            "index.d.ts": "declare namespace p { function a(): void; const b: number; }\nexport = p;\n",
        },
    )
    new = _package(
        tmp_path / "new",
        {
            "name": "p",
            "types": "index.d.ts",
            "exports": {".": {"types": "./index.d.ts", "import": "./index.mjs"}},
        },
        {
            "index.d.ts": "export * from './more';\nexport function a(): void;\n",
            "more.d.ts": "export { x as y } from './z';\nexport default function q(): void;\n",
        },
    )
    diff = diff_releases("npm", old, new, old_label="p-1", new_label="p-2")
    assert {(c.kind, c.detail) for c in diff.changes} == {
        ("became_esm_only", "exports has no require condition"),
        ("default_removed", "default export"),
        ("export_removed", "b"),
    }


def test_a_default_export_merged_with_a_namespace_exports_its_members_but_never_stubs(tmp_path):
    decl = (
        "declare function shield(o?: object): void;\n"
        "declare namespace shield {\n    var frame: () => void;\n    var %s\n}\n"
        "export default shield;\n"
    )
    manifest = {"name": "shield", "main": "index.js", "types": "index.d.ts"}
    old = _package(tmp_path / "old", manifest, {"index.d.ts": decl % "noCache: () => void;"})
    new = _package(tmp_path / "new", manifest, {"index.d.ts": decl % "noCache: () => never;"})
    diff = diff_releases("npm", old, new)
    assert [(c.kind, c.detail) for c in diff.changes] == [("export_removed", "noCache")]
    assert {"shield:frame", "shield:default"} <= set(diff.new_api)


def test_a_value_s_members_are_read_from_its_object_type_or_merged_namespace_through_re_exports(
    tmp_path,
):
    # old: `declare const toast: { configure(): void; … }`, exported from a sub-file and
    # re-exported by name; new: a function merged with a namespace that lacks `configure`
    manifest = {"name": "toaster", "main": "index.js", "types": "index.d.ts"}
    old = _package(tmp_path / "old", manifest, {
        "index.d.ts": "export { toast } from './core/toast';\n",
        "core/toast.d.ts": "declare const toast: {\n  (content: string): number;\n"
                           "  success(content: string): number;\n  configure(c?: object): void;\n"
                           "  POSITION: { TOP: string };\n};\nexport { toast };\n",
    })  # fmt: skip
    new = _package(tmp_path / "new", manifest, {
        "index.d.ts": "export { toast as toast } from './core/toast';\n",
        "core/toast.d.ts": "declare function toast(content: string): number;\n"
                           "declare namespace toast {\n  var success: (c: string) => number;\n"
                           "  var POSITION: { TOP: string };\n}\nexport { toast };\n",
    })  # fmt: skip
    diff = diff_releases("npm", old, new)
    assert [(c.kind, c.detail) for c in diff.changes] == [("export_removed", "toast.configure")]
    assert {"toaster:toast.success", "toaster:toast.POSITION"} <= set(diff.new_api)


def test_a_value_whose_members_the_new_release_does_not_show_loses_none(tmp_path):
    manifest = {"name": "toaster", "main": "index.js", "types": "index.d.ts"}
    old = _package(tmp_path / "old", manifest, {
        "index.d.ts": "export declare const toast: { configure(): void };\n",
    })  # fmt: skip
    new = _package(
        tmp_path / "new", manifest, {"index.d.ts": "export declare const toast: Toaster;\n"}
    )
    assert not [c for c in diff_releases("npm", old, new).changes if c.kind == "export_removed"]


def test_commonjs_exports(tmp_path):
    old = _package(
        tmp_path / "old",
        {"name": "c", "main": "main.js"},
        {"main.js": "module.exports = {a, b: 1};\nexports.c = 2;\n"},
    )
    new = _package(
        tmp_path / "new",
        {"name": "c", "main": "main.js"},
        {"main.js": "Object.defineProperty(exports, 'a', {get() {}});\n"},
    )
    diff = diff_releases("npm", old, new)
    assert {(c.kind, c.detail) for c in diff.changes} == {
        ("default_removed", "default export"),
        ("export_removed", "b"),
        ("export_removed", "c"),
    }


def test_node_minimum():
    assert node_minimum("^12.20.0 || ^14.13.1 || >=16.0.0") == (12, 20, 0)
    assert node_minimum("4.x || >=6.0.0") == (4, 0, 0)
    assert node_minimum("") is None


def test_ambient_module_blocks_export_their_declarations_without_export(tmp_path):
    files = {f"helper_{i}/index.d.ts": "export declare const x: number;\n" for i in range(60)}
    old = _package(tmp_path / "old", {"name": "dt", "typings": "./typings.d.ts"}, {
        **files,
        "typings.d.ts": "declare module 'dt' {\n  function spanWords(d: Date): string\n"
                        "  namespace spanWords {}\n  function addDays(d: Date): Date\n}\n"
                        "declare module 'dt/span_words' {\n  import {spanWords} from 'dt'\n"
                        "  export = spanWords\n}\n",
    })  # fmt: skip
    new = _package(tmp_path / "new", {"name": "dt", "typings": "./typings.d.ts"}, {
        **files,
        "typings.d.ts": "declare module 'dt' {\n  export type Unit = string\n}\n"
                        "declare module 'dt' {\n  function formatSpan(d: Date): string\n"
                        "  function addDays(d: Date): Date\n}\n"
                        "declare module 'dt/keep' {\n  const k: number\n  export { k }\n}\n",
    })  # fmt: skip
    diff = diff_releases("npm", old, new)
    assert {(c.kind, c.detail) for c in diff.changes} == {("export_removed", "spanWords")}


def test_names_copied_onto_the_exports_from_a_required_file_and_under_an_if_are_exported(tmp_path):
    """`Object.keys(plugins).forEach(function (k) { module.exports[k] = plugins[k]; })` in an
    `if (!process.env.CLIENT_ONLY) { … }` block: each name of ./plugins is an export."""
    index = ("module.exports = { createClient: 1 };\n"
             "if (!process.env.CLIENT_ONLY) {\n  module.exports.createServer = 2;\n"
             "  var plugins = require('./plugins');\n"
             "  Object.keys(plugins).forEach(function (k) {\n    module.exports[k] = plugins[k];\n  });\n}\n")  # fmt: skip
    old = _package(tmp_path / "old", {"name": "srv", "main": "lib/index.js"}, {
        "lib/index.js": index,
        "lib/plugins/index.js": "module.exports = { bodyParser: 1, queryParser: 2 };\n",
    })  # fmt: skip
    new = _package(tmp_path / "new", {"name": "srv", "main": "lib/index.js"}, {
        "lib/index.js": "module.exports = { createServer: 1, plugins: {} };\n",
    })  # fmt: skip
    diff = diff_releases("npm", old, new)
    assert {"srv:createServer", "srv:bodyParser", "srv:queryParser"} <= set(diff.old_api or {})
    removed = {c.detail for c in diff.changes if c.kind == "export_removed"}
    assert removed == {"bodyParser", "queryParser", "createClient"}


def test_an_entry_that_loads_a_build_by_environment_has_that_build_s_names_only(tmp_path):
    """`if (NODE_ENV === 'production') module.exports = require('./x.prod.js') else …`: the
    module object is the build's `exports`; no default when the build sets none."""
    entry = ("if (process.env.NODE_ENV === 'production') {\n"
             "  module.exports = require('./m.prod.js')\n} else {\n"
             "  module.exports = require('./m.dev.js')\n}\n")  # fmt: skip
    build = "exports.merge = merge;\nexports.unique = unique;\n"
    old = _package(tmp_path / "old", {"name": "m", "main": "index.js"},
                   {"index.js": "module.exports = function merge() {};\n"})  # fmt: skip
    new = _package(tmp_path / "new", {"name": "m", "main": "index.js"},
                   {"index.js": entry, "m.prod.js": build, "m.dev.js": build})  # fmt: skip
    diff = diff_releases("npm", old, new)
    assert {"m:merge", "m:unique"} <= set(diff.new_api or {})
    assert ("default_removed", "default export") in {(c.kind, c.detail) for c in diff.changes}


def test_names_a_destructuring_export_binds_are_exported(tmp_path):
    """`export const { program, Command } = commander` (an ESM wrapper of a CommonJS entry)."""
    body = "import c from './index.js';\nexport const {\n  program,\n  Command: Cmd,\n} = c;\n"
    old = _package(tmp_path / "old", {"name": "cli"}, {"esm.mjs": body, "index.js": ""})
    body = "import c from './index.js';\nexport const { program, ...rest } = c, [first] = [];\n"
    new = _package(tmp_path / "new", {"name": "cli"}, {"esm.mjs": body, "index.js": ""})
    diff = diff_releases("npm", old, new)
    assert {"cli/esm.mjs:program", "cli/esm.mjs:Cmd"} <= set(diff.old_api or {})
    assert {"cli/esm.mjs:rest", "cli/esm.mjs:first"} <= set(diff.new_api or {})
    assert {c.detail for c in diff.changes if c.kind == "export_removed"} == {"Cmd"}


def test_a_module_block_exporting_a_namespace_of_the_file_has_that_namespace_s_members(tmp_path):
    """`declare module 'shell' { export = Shell }` (a namespace declared at the file's top level),
    then `export = Shell.Exports` (a namespace inside it): the members are those namespaces'."""
    old = _package(tmp_path / "old", {"name": "shell", "types": "shell.d.ts"}, {
        "shell.d.ts": "declare namespace Shell {\n  const app: App;\n  interface App {}\n"
                      "  const remote: Remote;\n  interface Remote {}\n}\n"
                      "declare module 'shell' {\n  export = Shell;\n}\n",
    })  # fmt: skip
    new = _package(tmp_path / "new", {"name": "shell", "types": "shell.d.ts"}, {
        "shell.d.ts": "declare namespace Shell {\n  interface App {}\n"
                      "  namespace Exports {\n    const app: App;\n    type App = Shell.App;\n  }\n}\n"
                      "declare module 'shell' {\n  export = Shell.Exports;\n}\n",
    })  # fmt: skip
    diff = diff_releases("npm", old, new)
    assert {"shell:app", "shell:App", "shell:remote"} <= set(diff.old_api or {})
    assert {(c.kind, c.detail) for c in diff.changes} == {
        ("export_removed", "Remote"),
        ("export_removed", "remote"),
    }


def test_each_release_is_walked_once_however_many_subpaths(tmp_path, monkeypatch):
    """A package of one file per function (lodash: ~1,000) was walked once per subpath and
    per declaration lookup: 24 s for one patch diff. The file list is read once per release."""
    from depbot.ecosystems.npm.api import model as npm_api

    walks: list[str] = []
    real = npm_api._walk

    def walk(pkg):  # counts the walks the memo does not answer
        if "walk" not in pkg.memo:
            walks.append(pkg.label)
        return real(pkg)

    monkeypatch.setattr(npm_api, "_walk", walk)
    for version in ("1.0.0", "1.0.1"):
        root = tmp_path / version
        root.mkdir()
        (root / "package.json").write_text(json.dumps({"name": "many", "version": version}))
        for i in range(300):
            (root / f"fn{i}.js").write_text(f"module.exports = function fn{i}() {{}};\n")
    diff = diff_releases(
        "npm", tmp_path / "1.0.0", tmp_path / "1.0.1", old_label="a", new_label="b"
    )
    assert diff.changes == []
    assert walks == ["a", "b"]  # each release's tree is walked once (JS, declarations, assets)


def test_a_release_without_declarations_names_its_types_companion_of_the_same_major(tmp_path):
    from depbot.ecosystems.npm.api.types import matching_version, types_companion

    plain = _package(tmp_path / "plain", {"name": "rk", "main": "index.js"}, {"index.js": ""})
    typed = _package(tmp_path / "typed", {"name": "rk"}, {"index.js": "", "index.d.ts": ""})
    assert types_companion("rk", plain) == "@types/rk"
    assert types_companion("@scope/rk", plain) == "@types/scope__rk"
    assert types_companion("rk", typed) is None and types_companion("@types/rk", plain) is None
    published = ["1.3.0", "1.4.1", "1.4.2", "1.5.0", "2.0.0", "1.4.3-beta.1"]
    assert matching_version("1.4.0", published) == "1.4.2"  # the same major.minor, newest
    assert matching_version("1.9.0", published) == "1.5.0"  # else the newest of the major
    assert matching_version("3.0.0", published) is None
    # the old side only: types that lagged behind the package stand in, never on the new side
    assert matching_version("3.0.0", published, below=True) == "2.0.0"
    assert matching_version("1.4.0", published, below=True) == "1.4.2"


def test_the_old_api_is_read_from_its_companion_when_the_release_shows_none(tmp_path):
    old = _package(tmp_path / "old", {"name": "rk", "main": "index.js"},
                   {"index.js": "module.exports = require('./lib/bundle.min');\n"})  # fmt: skip
    types = _package(tmp_path / "types", {"name": "@types/rk", "types": "index.d.ts"},
                     {"index.d.ts": "export declare function Switch(): void;\n"
                                    "export declare function Route(): void;\n"})  # fmt: skip
    new = _package(tmp_path / "new", {"name": "rk", "types": "index.d.ts"},
                   {"index.d.ts": "export declare function Route(): void;\n"})  # fmt: skip
    alone = diff_releases("npm", old, new)  # the old side shows only its module object
    assert [(c.kind, c.detail) for c in alone.changes] == [("default_removed", "default export")]
    diff = diff_releases("npm", old, new, companions={"old": types})
    assert [(c.kind, c.detail) for c in diff.changes] == [("export_removed", "Switch")]
    assert {"rk:Switch", "rk:Route"} <= set(diff.old_api)


def test_a_value_the_companion_declares_that_the_code_run_does_not_export_is_not_there(tmp_path):
    # @types/tar 6 still declares `function Extract`, which tar 3 removed from its code: the
    # code the release runs says which values it exports; the companion adds its types
    old = _package(tmp_path / "old", {"name": "tr", "main": "index.js"},
                   {"index.js": "exports.Extract = Extract;\nexports.Pack = Pack;\n"})  # fmt: skip
    new = _package(tmp_path / "new", {"name": "tr", "main": "index.js"},
                   {"index.js": "exports.x = exports.extract = x;\nexports.Pack = Pack;\n"})  # fmt: skip
    types = _package(tmp_path / "types", {"name": "@types/tr", "types": "index.d.ts"},
                     {"index.d.ts": "export declare function Extract(o: Options): void;\n"
                                    "export function extract(o: Options): void;\n"
                                    "export class Pack {}\nexport interface Options {}\n"})  # fmt: skip
    diff = diff_releases("npm", old, new, companions={"old": types, "new": types})
    assert ("export_removed", "Extract") in [(c.kind, c.detail) for c in diff.changes]
    assert {"tr:extract", "tr:Pack", "tr:Options", "tr:x"} <= set(diff.new_api)
    assert "tr:Extract" not in diff.new_api


def test_a_deep_path_no_file_of_the_new_release_answers_is_removed(tmp_path):
    old = _package(tmp_path / "old", {"name": "pk", "main": "index.js"},
                   {"index.js": "", "lib/a.js": "", "b/index.js": "", "c.js": ""})  # fmt: skip
    new = _package(tmp_path / "new", {"name": "pk", "main": "index.js"},
                   {"index.js": "", "lib/a.cjs": "", "c/index.js": ""})  # fmt: skip
    diff = diff_releases("npm", old, new)
    removed = [(c.kind, c.path) for c in diff.changes if c.kind == "subpath_removed"]
    assert removed == [("subpath_removed", "pk/b")]  # lib/a and c still resolve


def test_an_exported_instance_has_its_makers_methods_and_a_class_its_static_ones(tmp_path):
    manifest = {"name": "m", "main": "index.js"}
    old = _package(
        tmp_path / "old",
        manifest,
        {
            "index.js": (
                "function Mime() {\n  this.types = {};\n  function inner() { this.no = 1; }\n}\n"
                "Mime.prototype.lookup = function (p) {};\n"
                "Mime.prototype.define = function (m) {};\n"
                "var mime = new Mime();\nmime.charsets = {};\nmodule.exports = mime;\n"
            ),
        },
    )
    new = _package(
        tmp_path / "new",
        manifest,
        {
            "index.js": "const Mime = require('./Mime');\nmodule.exports = new Mime();\n",
            "Mime.js": (
                "class Mime {\n  constructor() { this._types = {}; }\n  define(m) {}\n"
                "  getType(p) {}\n  static create() {}\n}\nmodule.exports = Mime;\n"
            ),
        },
    )
    diff = diff_releases("npm", old, new)
    assert {"m:lookup", "m:define", "m:types", "m:charsets"} <= set(diff.old_api)
    assert "m:no" not in diff.old_api  # a nested function's `this` is another object
    assert {"m:define", "m:getType", "m:_types"} <= set(diff.new_api)
    assert "m:create" not in diff.new_api  # a static method is the class's, not the instance's
    removed = {c.detail for c in diff.changes if c.kind == "export_removed"}
    assert {"lookup", "types", "charsets"} <= removed and "define" not in removed


def test_an_exported_class_has_its_static_methods(tmp_path):
    files = {
        "index.js": "class Base {\n  static create() {}\n  run() {}\n}\nmodule.exports = Base;\n"
    }
    root = _package(tmp_path / "p", {"name": "k", "main": "index.js"}, files)
    diff = diff_releases("npm", root, root)
    assert "k:create" in diff.old_api and "k:run" not in diff.old_api


def test_an_instance_whose_maker_no_file_shows_is_opaque_not_empty(tmp_path):
    manifest = {"name": "m", "main": "index.js"}
    old = _package(tmp_path / "old", manifest, {"index.js": "exports.lookup = 1;\n"})
    files = {"index.js": "const Maker = require('maker');\nmodule.exports = new Maker();\n"}
    new = _package(tmp_path / "new", manifest, files)
    diff = diff_releases("npm", old, new)
    assert diff.new_api.get("m") == "opaque"
    assert not [c for c in diff.changes if c.kind == "export_removed"]  # not known gone


def test_members_of_what_a_declared_function_returns_are_names_of_the_release(tmp_path):
    decl = (
        "export interface Client extends Base {\n  get(u: string): Promise<string>;\n%s}\n"
        "interface Base { close(): void }\ninterface Base { ping(): void }\n"
        "export declare function createClient(): Client;\n"
        "export declare function connect(): Promise<Client>;\n"
        "export declare function other(): Elsewhere;\n"
        "export declare class Pool { query(): void; static create(): Pool; private secret(): void }\n"
        "export declare function pool(): Pool;\n"
    )
    manifest = {"name": "h", "main": "index.js", "types": "index.d.ts"}
    old = _package(tmp_path / "old", manifest, {"index.d.ts": decl % "  head(u: string): void;\n"})
    new = _package(tmp_path / "new", manifest, {"index.d.ts": decl % ""})
    diff = diff_releases("npm", old, new)
    assert {
        "h:createClient()", "h:createClient().get", "h:createClient().head",
        "h:createClient().close", "h:createClient().ping", "h:connect().head", "h:pool().query",
    } <= set(diff.old_api)  # fmt: skip
    assert "h:other()" not in diff.old_api  # a type the file does not declare: not modelled
    assert "h:pool().create" not in diff.old_api and "h:pool().secret" not in diff.old_api
    assert {"h:new Pool()", "h:new Pool().query"} <= set(diff.old_api)  # an exported class
    assert "h:new Client()" not in diff.old_api  # an interface is made by no `new`
    removed = sorted(c.detail for c in diff.changes if c.kind == "export_removed")
    assert removed == ["connect().head", "createClient().head"]


def test_a_result_the_new_release_no_longer_models_hides_its_members_not_removes_them(tmp_path):
    manifest = {"name": "h", "main": "index.js", "types": "index.d.ts"}
    old = _package(tmp_path / "old", manifest, {"index.d.ts":
        "export interface Client { head(): void }\nexport declare function createClient(): Client;\n"})  # fmt: skip
    new = _package(tmp_path / "new", manifest, {"index.d.ts":
        "import { Client } from './client';\nexport declare function createClient(): Client;\n"})  # fmt: skip
    diff = diff_releases("npm", old, new)
    assert not [c for c in diff.changes if "()." in c.detail]


def test_what_a_hook_returns_is_read_across_the_release_files(tmp_path):
    # old: a function in another file, exported again as the default, returning an object
    # type alias of a third file; new: a constant typed by a callable interface of the
    # package's own entry point `hk/_internal`, exported as the default
    manifest = {"name": "hk", "main": "index.js", "types": "index.d.ts"}
    old = _package(tmp_path / "old", manifest, {
        "index.d.ts": "import { default as useThing } from './use-thing';\nexport default useThing;\n",
        "use-thing.d.ts": "import { Response } from './types';\n"
                          "declare function useThing(key: string): Response<any>;\nexport default useThing;\n",
        "types.d.ts": "export declare type Response<D> = { data?: D; revalidate: () => void };\n",
    })  # fmt: skip
    new = _package(tmp_path / "new", {**manifest, "exports": {
        ".": {"types": "./index.d.ts"}, "./_internal": {"types": "./internal/index.d.ts"}}}, {
        "index.d.ts": "import { Hook } from 'hk/_internal';\ndeclare const useThing: Hook;\n"
                      "export { useThing as default };\n",
        "internal/index.d.ts": "interface Response<D> { data?: D; mutate(): void }\n"
                               "interface Hook { <D = any>(key: string): Response<D>; }\n"
                               "export { Hook, Response };\n",
    })  # fmt: skip
    diff = diff_releases("npm", old, new)
    assert {"hk:default()", "hk:default().data", "hk:default().revalidate"} <= set(diff.old_api)
    assert {"hk:default()", "hk:default().mutate"} <= set(diff.new_api)
    removed = sorted(c.detail for c in diff.changes if c.kind == "export_removed")
    assert removed == ["default().revalidate"]


def test_an_mjs_file_is_a_deep_path_by_its_full_name(tmp_path):
    old = _package(tmp_path / "old", {"name": "cm", "main": "index.js"},
                   {"index.js": "", "esm.mjs": "export const a = 1;\n", "lib/x.js": ""})  # fmt: skip
    manifest = {"name": "cm", "main": "index.js",
                "exports": {".": "./index.js", "./esm.mjs": "./esm.mjs"}}  # fmt: skip
    new = _package(tmp_path / "new", manifest, {"index.js": "", "esm.mjs": "export const a = 1;\n"})
    diff = diff_releases("npm", old, new)
    closed = sorted(c.path for c in diff.changes if c.kind == "subpath_closed")
    assert closed == ["cm/lib/x"]  # cm/esm.mjs stays an entry point; cm/esm never was one
    assert "cm/esm.mjs" in diff.old_api and "cm/esm" not in diff.old_api


def test_commonjs_names_defined_by_a_call_on_the_exports(tmp_path):
    old = _package(
        tmp_path / "old",
        {"name": "c", "main": "main.js"},
        {
            "main.js": "Object.assign(module.exports, {a, b: 1});\n"
            "Object.defineProperties(exports, {c: {get() {}}});\n"
            "define(exports.ns = {}, {x: () => 1, y: () => 2});\n"
            "configure(settings, {notExported: 1});\n"
        },  # fmt: skip
    )
    new = _package(
        tmp_path / "new",
        {"name": "c", "main": "main.js"},
        {"main.js": "exports = module.exports = c;\nc.a = 1;\nexports.ns = {x: 1};\n"},
    )
    diff = diff_releases("npm", old, new)
    assert {(c.kind, c.detail) for c in diff.changes} == {
        ("export_removed", "b"),
        ("export_removed", "c"),  # `ns` stays: its members the new release does not show
    }
    assert "c:default" in diff.new_api and "c:notExported" not in diff.old_api


def test_declarations_that_re_export_do_not_hide_the_module_object_the_entry_file_sets(tmp_path):
    """`module.exports = Sequelize` in the entry file, `export * from './lib/sequelize'` in the
    declarations beside it (which carries no default): require('pkg') still gets a value."""
    old = _package(
        tmp_path / "old",
        {"name": "orm", "main": "index.js"},
        {"index.js": "class Orm {}\nmodule.exports = Orm;\nmodule.exports.Orm = Orm;\n"},
    )
    new = _package(
        tmp_path / "new",
        {"name": "orm", "main": "index.js", "types": "types/index.d.ts"},
        {
            "index.js": "class Orm {}\nmodule.exports = Orm;\nmodule.exports.Orm = Orm;\n",
            "types/index.d.ts": "export * from './lib/orm';\n",
            "types/lib/orm.d.ts": "export class Orm {}\nexport default Orm;\n",
        },
    )
    diff = diff_releases("npm", old, new)
    assert "default_removed" not in {c.kind for c in diff.changes}


def test_an_entry_file_that_requires_another_file_whole_exports_what_that_file_does(tmp_path):
    """`index.js`: `module.exports = require('./lib/orm')`; lib/orm.js sets the class and
    its statics, one through a chain (`Orm.prototype.Op = Orm.Op = Op`)."""
    lib = (
        "class Orm { define() {} }\nconst Op = {};\n"
        "Orm.prototype.Op = Orm.Op = Op;\nOrm.Utils = {};\n"
        "module.exports = Orm;\nmodule.exports.Orm = Orm;\n"
    )
    manifest = {"name": "orm", "main": "index"}
    files = {
        "index.js": "'use strict';\nmodule.exports = require('./lib/orm');\n",
        "lib/orm.js": lib,
    }
    old = _package(tmp_path / "old", manifest, files)
    new = _package(
        tmp_path / "new", manifest, {**files, "lib/orm.js": lib.replace("Orm.Utils = {};\n", "")}
    )
    diff = diff_releases("npm", old, new)
    assert {"orm:Op", "orm:Utils", "orm:Orm", "orm:default"} <= set(diff.old_api)
    root = [(c.kind, c.detail) for c in diff.changes if c.path == "orm"]
    assert root == [("export_removed", "Utils")]


def test_an_exports_map_of_subpaths_only_closes_the_root(tmp_path):
    # stop 54: 15.x's `exports` lists `./GraphQLUpload.js` and its siblings but no `.`: every
    # `import … from 'gu'` fails to resolve (was read as "ES module only")
    old = _package(tmp_path / "old", {"name": "gu", "main": "public/index.js"},
                   {"public/index.js": "exports.Upload = 1;\n", "public/Upload.js": ""})  # fmt: skip
    manifest = {
        "name": "gu",
        "exports": {"./Upload.js": "./Upload.js", "./package.json": "./package.json"},
    }
    new = _package(tmp_path / "new", manifest, {"Upload.js": "module.exports = 1;\n"})
    diff = diff_releases("npm", old, new)
    root = [c for c in diff.changes if c.kind == "subpath_closed" and c.path == "gu"]
    assert [c.detail for c in root] == ["the root is not in exports"]
    assert "became_esm_only" not in _kinds(diff)
    # a map that keeps `.` closes nothing at the root
    kept = _package(
        tmp_path / "kept", {**manifest, "exports": {".": "./Upload.js"}}, {"Upload.js": ""}
    )
    assert not [
        c
        for c in diff_releases("npm", old, kept).changes
        if c.path == "gu" and c.kind == "subpath_closed"
    ]


def test_what_a_re_exported_class_makes_is_the_root_s_too(tmp_path):
    # stop 54: `export { PubSub } from './pubsub'` carried `PubSub` to the root but not
    # `new PubSub().asyncIterator`, so a removed method of it was no change of the root
    manifest = {"name": "sk", "main": "dist/index.js", "types": "dist/index.d.ts"}
    files = {"dist/index.js": "", "dist/index.d.ts": "export { PubSub } from './pubsub';\n"}
    old = _package(tmp_path / "old", manifest, {**files, "dist/pubsub.d.ts":
                   "export declare class PubSub {\n  publish(t: string): void;\n  asyncIterator(t: string): unknown;\n}\n"})  # fmt: skip
    new = _package(tmp_path / "new", manifest, {**files, "dist/pubsub.d.ts":
                   "export declare class PubSub {\n  publish(t: string): void;\n  asyncIterableIterator(t: string): unknown;\n}\n"})  # fmt: skip
    diff = diff_releases("npm", old, new)
    assert {"sk:new PubSub()", "sk:new PubSub().asyncIterator"} <= set(diff.old_api)
    gone = [(c.path, c.detail) for c in diff.changes if c.kind == "export_removed"]
    assert ("sk", "new PubSub().asyncIterator") in gone


def test_a_module_wrapped_in_a_function_run_at_once_exports_what_the_wrapper_sets(tmp_path):
    # CoffeeScript's output: the whole module inside `(function () { … }).call(this);`
    wrapped = ("(function() {\n  var Connection, Request;\n  Connection = (function() {})();\n"
               "  module.exports.Connection = Connection;\n  module.exports.Request = Request;\n"
               "}).call(this);\n")  # fmt: skip
    manifest = {"name": "db", "main": "index.js"}
    old = _package(tmp_path / "old", manifest, {"index.js": wrapped})
    # the new release adds what another object holds: its names are not all known, so none
    # is said to be gone
    assigned = ("const base = require('./base');\nclass ConnectionPool {}\n"
                "module.exports = Object.assign({ ConnectionPool }, base.exports);\n")  # fmt: skip
    new = _package(
        tmp_path / "new", manifest, {"index.js": assigned, "base.js": "exports.x = 1;\n"}
    )
    diff = diff_releases("npm", old, new)
    assert {"db:Connection", "db:Request"} <= set(diff.old_api)
    assert not [c for c in diff.changes if c.kind == "export_removed"]
    # a wrapper that takes parameters is a UMD factory's, not read as the module's body
    umd = "(function (root, factory) {\n  module.exports.inner = 1;\n})(this, function () {});\n"
    third = _package(tmp_path / "umd", manifest, {"index.js": umd})
    assert "db:inner" not in diff_releases("npm", third, new).old_api


def test_what_module_exports_is_set_to_gives_its_members_or_says_they_are_not_seen(tmp_path):
    # stop 56: `module.exports = make(config)` and `const api = {…}; module.exports = api`
    # were read as "only a default", so every name of the old release looked removed
    manifest = {"name": "db", "main": "index.js"}
    old = _package(
        tmp_path / "old", manifest, {"index.js": "exports.connect = 1;\nexports.close = 1;\n"}
    )

    def removed(index: str) -> set[str]:
        new = _package(tmp_path / str(abs(hash(index))), manifest, {"index.js": index})
        return {c.detail for c in diff_releases("npm", old, new).changes
                if c.kind == "export_removed"}  # fmt: skip

    assert removed("const api = { connect() {} };\nmodule.exports = api;\n") == {"close"}
    assert removed("module.exports = make({ debug: false });\n") == set()  # not seen
    assert removed("const api = make();\nmodule.exports = api;\n") == set()
    assert removed("module.exports = process.env.A ? require('./a') : other;\n") == set()
    # a function, a class or an instance: what is set on it is all it has
    assert removed("function db() {}\ndb.connect = 1;\nmodule.exports = db;\n") == {"close"}
    assert removed("module.exports = function connect() {};\n") == {"connect", "close"}
    # a relative require, a wrapper of a function of the module's: read as before
    assert removed("const S = require('./constructor');\nmodule.exports = S;\n") == {
        "connect", "close"}  # fmt: skip
    wrapped = "function db() {}\nmodule.exports = deprecate.function(db, 'use x');\n"
    assert removed(wrapped) == {"connect", "close"}
