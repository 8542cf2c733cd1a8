"""Every used name given its fate: over two real unpacked releases built in a folder."""

from __future__ import annotations

import json
from pathlib import Path

from depbot.apidiff import diff_releases
from depbot.apidiff.fates import fates
from depbot.apidiff.join import Finding, JoinResult, fate_findings
from depbot.records.api import UsedName
from depbot.symbols.facts import SymbolHit


def _release(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _fates(diff, names: list[str]) -> dict[str, str]:
    used = [UsedName(n, "app.py", i + 1, text=f"use {n}") for i, n in enumerate(names)]
    return {f.name: f.fate for f in fates(diff, used).fates}


def test_python_names_present_changed_removed_deprecated_unresolved(tmp_path: Path):
    old = _release(tmp_path / "old", {"pkg/__init__.py":
        "from pkg.core import Client\n\ndef load(path, loader=None): ...\n"
        "def dump(x): ...\nVERSION = '1'\n",
        "pkg/core.py": "class Client:\n    def get(self, url): ...\n"})  # fmt: skip
    new = _release(tmp_path / "new", {"pkg/__init__.py":
        "import warnings\nfrom pkg.core import Client\n\ndef load(path, loader): ...\n"
        "VERSION = '2'\n",
        "pkg/core.py": "class Client:\n    def get(self, url): ...\n"})  # fmt: skip
    diff = diff_releases("pip", old, new)
    got = _fates(diff, ["pkg.Client", "pkg.Client.get", "pkg.load", "pkg.dump", "pkg.VERSION.x",
                        "pkg.made_at_run_time", "pkg.core.Client.stream"])  # fmt: skip
    assert got == {
        "pkg.Client": "present",
        "pkg.Client.get": "present",
        "pkg.load": "changed",  # `loader` is now required
        "pkg.dump": "removed",
        "pkg.VERSION.x": "present",  # a member of a value: the value's fate stands
        "pkg.made_at_run_time": "unresolved",  # the old release does not have it
        "pkg.core.Client.stream": "present",  # an attribute the class does not declare
    }
    accounting = fates(diff, [UsedName("pkg.load", "a.py", 1), UsedName("pkg.nope", "a.py", 2)])
    assert not accounting.complete
    assert accounting.summary() == (
        "1 of 2 used name(s) resolved in the old release's API; not found: pkg.nope"
    )


def _npm(root: Path, version: str, files: dict[str, str], **manifest) -> Path:
    manifest = {"name": "lib", "version": version, **manifest}
    return _release(root, {"package.json": json.dumps(manifest), **files})


def test_npm_exports_and_a_removed_member_reached_through_require(tmp_path: Path):
    old = _npm(tmp_path / "old", "1.0.0", {"index.d.ts":
        "export declare function noCache(): void;\nexport declare function frame(): void;\n"
        "export * from 'other-package';\n"}, types="index.d.ts")  # fmt: skip
    new = _npm(
        tmp_path / "new",
        "2.0.0",
        {"index.d.ts": "export declare function frame(): void;\n"},
        types="index.d.ts",
    )
    diff = diff_releases("npm", old, new)
    got = _fates(diff, ["lib", "lib:noCache", "lib:frame", "lib:FromOther", "lib/deep"])
    assert got == {"lib": "present", "lib:noCache": "removed", "lib:frame": "present",
                   "lib:FromOther": "unresolved", "lib/deep": "unresolved"}  # fmt: skip
    used = [UsedName("lib:noCache", "src/a.js", 3, "member", 9, "app.use(lib.noCache());")]
    found = fate_findings(diff, fates(diff, used), JoinResult([], [], []), "lib-2.0.0 tarball")
    assert [
        (f.kind, f.strength, [(h.path, h.line, h.evidence) for h in f.hits]) for f in found
    ] == [("export_removed", "strong", [("src/a.js", 3, "strong")])]
    guarded = [UsedName("lib:noCache", "src/a.js", 3, guarded=True)]
    assert fate_findings(diff, fates(diff, guarded), JoinResult([], [], []), "x") == []
    # every use of the removed name is cited, not only its first
    also = (("src/b.js", 7, 3, "lib.noCache()"), ("src/c.js", 1, 1, "x = lib.noCache"))
    many = [UsedName("lib:noCache", "src/a.js", 3, "member", 9, "lib.noCache()", also=also)]
    found = fate_findings(diff, fates(diff, many), JoinResult([], [], []), "x")
    assert [(h.path, h.line) for h in found[0].hits] == [
        ("src/a.js", 3),
        ("src/b.js", 7),
        ("src/c.js", 1),
    ]


def test_a_model_that_lists_no_names_resolves_none(tmp_path: Path):
    diff = diff_releases("npm", tmp_path / "missing-old", tmp_path / "missing-new")
    accounting = fates(diff, [UsedName("lib:x", "a.js", 1)])
    assert [f.fate for f in accounting.fates] == ["unresolved"]


def test_members_of_a_default_import_are_exports_only_of_a_commonjs_package(tmp_path: Path):
    cjs = _npm(tmp_path / "cjs1", "3.0.0", {"index.js":
        "module.exports = helmet;\nhelmet.noCache = noCache;\nhelmet.frame = frame;\n"})  # fmt: skip
    cjs2 = _npm(tmp_path / "cjs2", "4.0.0", {"index.js":
        "module.exports = helmet;\nhelmet.frame = frame;\n"})  # fmt: skip
    diff = diff_releases("npm", cjs, cjs2)
    assert _fates(diff, ["lib:default.noCache", "lib:default.frame"]) == {
        "lib:default.noCache": "removed", "lib:default.frame": "present"}  # fmt: skip
    esm = _npm(tmp_path / "esm1", "1.0.0", {"index.mjs": "export default {a: 1};\n"},
               type="module", exports="./index.mjs")  # fmt: skip
    esm2 = _npm(tmp_path / "esm2", "2.0.0", {"index.mjs": "export default {b: 1};\n"},
                type="module", exports="./index.mjs")  # fmt: skip
    diff = diff_releases("npm", esm, esm2)
    assert _fates(diff, ["lib:default.a"]) == {"lib:default.a": "present"}  # the value's fate


def test_an_input_neither_action_declares_is_undeclared_not_unseen(tmp_path: Path):
    # an action's action.yml is its whole interface: a `with:` key the old release does not
    # declare is the workflow's own error (ignored before and after), not a part of the
    # action the model could not see; without `whole` the same name stays unresolved
    old = _release(tmp_path / "old", {"action.yml": "inputs:\n  days: {default: '30'}\n"
                                                    "runs: {using: node16, main: a.js}\n"})  # fmt: skip
    new = _release(tmp_path / "new", {"action.yml": "inputs:\n  days: {default: '30'}\n"
                                                    "runs: {using: node24, main: a.js}\n"})  # fmt: skip
    diff = diff_releases("github_actions", old, new)
    used = [UsedName("inputs.days", "ci.yml", 3), UsedName("inputs.lock-days", "ci.yml", 4)]
    whole = fates(diff, used, whole=True)
    assert {f.name: f.fate for f in whole.fates} == {
        "inputs.days": "present", "inputs.lock-days": "undeclared"}  # fmt: skip
    assert whole.complete and [f.name for f in whole.undeclared] == ["inputs.lock-days"]
    seen = fates(diff, used)
    assert {f.name: f.fate for f in seen.fates}["inputs.lock-days"] == "unresolved"
    assert not seen.complete


def test_a_member_the_code_sets_itself_is_present_when_the_new_release_exports_it(tmp_path):
    old = _npm(tmp_path / "old", "1.0.0", {"index.d.ts": "export declare function lookup(): void;\n"},
               types="index.d.ts")  # fmt: skip
    new = _npm(tmp_path / "new", "2.0.0", {"index.d.ts": "export declare function getType(): void;\n"},
               types="index.d.ts")  # fmt: skip
    diff = diff_releases("npm", old, new)
    used = [
        UsedName("lib:getType", "a.js", 2, "assigned"),  # lib.getType = lib.getType || …
        UsedName("lib:getExtension", "a.js", 3, "assigned"),  # in neither release
        UsedName("lib:getType2", "a.js", 4, "member"),
    ]
    got = {f.name: (f.fate, f.detail) for f in fates(diff, used).fates}
    assert got["lib:getType"] == (
        "present",
        "this code sets it on the old release; the new one exports it",
    )
    assert got["lib:getExtension"][0] == "unresolved"
    assert got["lib:getType2"][0] == "unresolved"


def test_a_member_of_a_result_the_old_release_does_not_model_has_no_fate(tmp_path):
    old = _npm(tmp_path / "old", "1.0.0", {"index.d.ts":
        "export interface C { head(): void }\nexport declare function make(): C;\n"
        "export declare function other(): Elsewhere;\n"}, types="index.d.ts")  # fmt: skip
    new = _npm(tmp_path / "new", "2.0.0", {"index.d.ts":
        "export interface C { get(): void }\nexport declare function make(): C;\n"
        "export declare function other(): Elsewhere;\n"}, types="index.d.ts")  # fmt: skip
    diff = diff_releases("npm", old, new)
    got = _fates(diff, ["lib:make().head", "lib:other().x", "lib:make().undeclared"])
    assert got == {"lib:make().head": "removed"}  # the others: no model, no fate (not unseen)


def test_a_member_of_what_a_removed_function_made_is_removed_with_it(tmp_path):
    # `const oauth = lib.create(…)` then `oauth.code.getToken(…)` in another module: create is
    # gone, so is what it made (before: no fate, and the module using it was never cited)
    old = _npm(tmp_path / "old", "1.0.0", {"index.js":
        "exports.create = function (o) { return { code: {} }; };\nexports.keep = 1;\n"})  # fmt: skip
    new = _npm(tmp_path / "new", "2.0.0", {"index.js":
        "exports.Code = class Code {};\nexports.keep = 1;\n"})  # fmt: skip
    diff = diff_releases("npm", old, new)
    got = _fates(diff, ["lib:create()", "lib:create().code.getToken", "lib:keep().x"])
    assert got == {"lib:create()": "removed", "lib:create().code.getToken": "removed"}
    # the join already holds the change (with the maker's own use): the uses of what it made
    # in other modules join that finding, each once, instead of being left out
    held = Finding("export_removed", "lib", "create", "w", "s", "create removed", ("create",),
                   [SymbolHit("src/index.js", 3, 1, "lib.create()", "code", "strong", "")])  # fmt: skip
    made = [UsedName("lib:create().code", "src/auth.js", 2, "member", 9, "oauth.code.x()"),
            UsedName("lib:create().code.getToken", "src/auth.js", 2, "member", 9, "x")]  # fmt: skip
    joined = JoinResult([held], [], [])
    assert fate_findings(diff, fates(diff, made), joined, "lib-2.0.0 tarball") == []
    assert [(h.path, h.line) for h in held.hits] == [("src/index.js", 3), ("src/auth.js", 2)]


# webpack 3's lib/webpack.js shape: `exports = module.exports = fn`, plugins defined through a
# helper's object literal, a namespace made by `exports.ns = {}`; the new release's
# declarations list them in `declare namespace exports { export namespace ns { … } }`
_HELPER_EXPORTS = (
    "exports = module.exports = build;\n"
    "function define(obj, mappings) {\n"
    "  Object.keys(mappings).forEach(n => Object.defineProperty(obj, n, {get: mappings[n]}));\n"
    "}\n"
    "define(exports, {\n  DefinePlugin: () => require('./define'),\n});\n"
    "define(exports.optimize = {}, {\n"
    "  ChunksPlugin: () => require('./chunks'),\n  MergePlugin: () => require('./merge'),\n});\n"
)
_NAMESPACE_DECLARATIONS = (
    "declare function exports(options: object): void;\n"
    "declare namespace exports {\n"
    "  export { DefinePlugin };\n"
    "  export namespace optimize {\n    export { MergePlugin, SplitPlugin };\n  }\n"
    "}\n"
    "declare class DefinePlugin {}\ndeclare class MergePlugin {}\ndeclare class SplitPlugin {}\n"
    "export = exports;\n"
)


def test_a_namespace_member_gone_from_a_namespace_both_releases_show_is_removed(tmp_path: Path):
    old = _npm(tmp_path / "old", "3.0.0", {"lib/index.js": _HELPER_EXPORTS}, main="lib/index.js")
    new = _npm(tmp_path / "new", "5.0.0", {"lib/index.js": "module.exports = build;\n",
               "types.d.ts": _NAMESPACE_DECLARATIONS}, main="lib/index.js", types="types.d.ts")  # fmt: skip
    diff = diff_releases("npm", old, new)
    root = {(c.kind, c.detail) for c in diff.changes if c.path == "lib"}
    assert root == {("export_removed", "optimize.ChunksPlugin")}
    got = _fates(diff, ["lib:default", "lib:DefinePlugin", "lib:optimize",
                        "lib:optimize.ChunksPlugin", "lib:optimize.MergePlugin",
                        "lib:default.optimize.ChunksPlugin", "lib:optimize.Unknown"])  # fmt: skip
    assert got == {
        "lib:default": "present",
        "lib:DefinePlugin": "present",
        "lib:optimize": "present",
        "lib:optimize.ChunksPlugin": "removed",
        "lib:optimize.MergePlugin": "present",
        "lib:default.optimize.ChunksPlugin": "removed",  # module.exports' member, CommonJS
        "lib:optimize.Unknown": "unresolved",  # the old release shows `optimize`'s members
    }


def test_a_namespace_whose_members_a_release_does_not_show_hides_them_not_removes(tmp_path: Path):
    old = _npm(tmp_path / "old", "3.0.0", {"lib/index.js": _HELPER_EXPORTS}, main="lib/index.js")
    new = _npm(tmp_path / "new", "4.0.0", {"lib/index.js":
        "module.exports = {DefinePlugin, optimize: require('./optimize')};\n"},
        main="lib/index.js")  # fmt: skip
    diff = diff_releases("npm", old, new)
    assert not [c for c in diff.changes if c.kind == "export_removed" and c.path == "lib"]
    bare = _npm(tmp_path / "bare", "2.0.0", {"lib/index.js":
        "module.exports = {DefinePlugin, optimize};\n"}, main="lib/index.js")  # fmt: skip
    later = diff_releases("npm", bare, old)
    assert _fates(later, ["lib:optimize.ChunksPlugin"]) == {"lib:optimize.ChunksPlugin": "present"}


def test_a_file_loaded_by_its_path_is_present_while_the_new_release_ships_it(tmp_path: Path):
    # an `exports` map now closes every deep path, but a tool that loads the file by its path
    # (`angular.json` scripts) still finds `dist/kit.js`; `lib/kit.js` is gone from the release
    old = _npm(tmp_path / "old", "1.0.0", {"index.js": "exports.a = 1;\n",
               "lib/kit.js": "window.kit = {};\n", "dist/kit.js": "window.kit = {};\n",
               "dist/kit.min.js": "window.kit={};\n", "fonts/kit.woff": "x"})  # fmt: skip
    new = _npm(tmp_path / "new", "2.0.0", {"index.js": "exports.a = 1;\n",
               "dist/kit.js": "window.kit = {};\n"}, exports={".": "./index.js"})  # fmt: skip
    diff = diff_releases("npm", old, new)
    names = ["lib/lib/kit.js", "lib/dist/kit.js", "lib/dist/kit.min.js", "lib/fonts/kit.woff",
             "lib/dist", "lib/lib"]  # fmt: skip
    used = [UsedName(n, "angular.json", i + 1, "path", 5, n) for i, n in enumerate(names)]
    got = {f.name: f.fate for f in fates(diff, used).fates}
    assert got == {"lib/lib/kit.js": "removed", "lib/dist/kit.js": "present",
                   # kinds of file the release as read need not keep: not known, not vouched
                   "lib/dist/kit.min.js": "unresolved", "lib/fonts/kit.woff": "unresolved",
                   # a folder (sass includePaths) is there while a file in it ships
                   "lib/dist": "present", "lib/lib": "removed"}  # fmt: skip
    found = fate_findings(diff, fates(diff, used), JoinResult([], [], []), "lib-2.0.0 tarball")
    assert [(f.kind, f.path, [(h.path, h.line) for h in f.hits]) for f in found] == [
        ("subpath_removed", "lib/lib/kit.js", [("angular.json", 1)]),
        ("subpath_removed", "lib/lib", [("angular.json", 6)]),
    ]
