"""The pure rules of what may load an npm package that no file imports."""

from __future__ import annotations

from depbot.ecosystems.npm import reach


def test_bins_of_a_string_and_of_a_map():
    assert reach.bins({"name": "@acme/tool", "bin": "cli.js"}) == ["tool"]
    assert reach.bins({"name": "x", "bin": {"x-run": "a.js", "xr": "b.js"}}) == ["x-run", "xr"]
    assert reach.bins({"name": "x"}) == []


def test_a_word_is_a_name_not_a_part_of_one():
    w = reach.word("ejs")
    assert w.search("app.set('view engine', 'ejs')")
    assert w.search("res.render('views/index.ejs')")
    assert w.search("require('ejs/lib/utils')")
    assert not w.search("import '@types/ejs'")
    assert not w.search("npx ejs-lint views")
    assert not w.search("const ejsOptions = {}")


def test_prose_and_locks_load_nothing():
    assert reach.skipped_file("docs/setup.md") and reach.skipped_file("yarn.lock")
    assert reach.skipped_file("web/package-lock.json")
    assert not reach.skipped_file("webpack.config.js")
    assert not reach.skipped_file(".github/workflows/ci.yml")


def test_a_manifest_without_its_dependency_lists_keeps_scripts_and_tool_sections():
    text = '{"name": "app", "dependencies": {"ejs": "3"}, "scripts": {"b": "ejs x"}, "jest": {}}'
    rest = reach.manifest_rest(text)
    assert rest is not None and '"ejs x"' in rest and '"3"' not in rest
    assert reach.manifest_rest("[1, 2]") is None and reach.manifest_rest("{") is None


def test_loaded_by_convention():
    assert "TypeScript" in reach.by_convention("@types/node", [])
    assert "plugin" in reach.by_convention("eslint-plugin-react", [])
    assert "preset" in reach.by_convention("@babel/preset-env", [])
    assert "karma" in reach.by_convention("karma-chrome-launcher2", ["karma"])
    assert reach.by_convention("babel-loader", ["@babel/core", "vite"]) == ""
    assert reach.by_convention("luxon", ["react", "lux"]) == ""


def test_a_kind_word_that_ends_the_name_leaves_no_short_name_to_load_it_by():
    assert reach.by_convention("webpack-manifest-plugin", ["react"]) == ""
    assert reach.by_convention("karma-chrome-launcher", []) == ""
    assert "karma" in reach.by_convention("karma-chrome-launcher", ["karma"])
    assert "plugin" in reach.by_convention("@scope/eslint-plugin", [])  # loaded as `@scope`


def test_needs_a_peer_always_and_a_dependency_only_when_its_range_takes_the_new_version():
    takes = lambda spec: spec in ("*", ">=1")  # noqa: E731
    assert "peer" in reach.needs({"peerDependencies": {"luxon": "^1"}}, "luxon", takes)
    assert "takes" in reach.needs({"dependencies": {"luxon": "*"}}, "luxon", takes)
    assert reach.needs({"dependencies": {"luxon": "^1"}}, "luxon", takes) == ""
    assert reach.needs({"dependencies": {"other": "*"}}, "luxon", takes) == ""


def test_an_import_is_never_read_only_when_each_name_it_binds_occurs_once():
    names = {"Clock": "default"}
    assert reach.never_read("import", names, 'import Clock from "c";\nconst x = 1;')
    for read in ("new Clock()", "`${Clock}`", "// Clock is unused", "<Clock />", "{ Clock }"):
        assert not reach.never_read("import", names, f'import Clock from "c";\n{read}')
    assert not reach.never_read("import", {}, 'import "c";')  # a side effect: loaded
    assert not reach.never_read("export-from", names, 'export { default as Clock } from "c"')
    assert not reach.never_read("import", {"*": "*"}, 'export * from "c"')
    assert reach.never_read("require", {"c": "*"}, 'const c = require("c");', "c")
    assert not reach.never_read("require", {"c": "*"}, 'const c = require("c");')  # "c" read
    assert not reach.never_read("require", {"c": "*"}, 'const c = require("c"); c.go()', "c")


def test_a_name_extends_another_s_only_past_a_dash_and_within_its_scope():
    assert reach.extends("karma-chrome-launcher", "karma")
    assert reach.extends("@acme/lint-rules", "@acme/lint")
    assert not reach.extends("@other/lint-rules", "@acme/lint")
    assert not reach.extends("reactstrap", "react")  # no dash: another name
    assert not reach.extends("react", "react")
