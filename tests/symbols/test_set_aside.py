"""A match is set aside only for a reason that was verified: an import path in a string and a
name passed by reference that nothing in the file binds are uses, not "strings" or "locals"."""

from __future__ import annotations

from depbot.core.settings import Settings
from depbot.search.code import CodeSearch
from depbot.symbols.facts import SymbolQuery
from depbot.symbols.search import SymbolSearch
from tests.helpers.worlds import write_tree


def _search(root, query: SymbolQuery):
    return SymbolSearch(CodeSearch(root, Settings())).search(query)


def test_a_dotted_import_path_in_a_string_is_a_strong_use(tmp_path):
    write_tree(tmp_path, {
        "site/settings.py": 'STORAGE = "whitekit.django.GzipStorage"\n'
                            'OTHER = "otherkit.django.GzipStorage"\n'
                            'TITLE = "GzipStorage"\n',
        "tests/test_static.py": "from unittest import mock\n\n"
                                '@mock.patch("whitekit.django.GzipStorage")\n'
                                "def test_it(storage):\n    pass\n",
    })  # fmt: skip
    r = _search(tmp_path, SymbolQuery("pip", "whitekit", "whitekit.django.GzipStorage"))
    strong = [(h.path, h.line) for h in r.hits if h.evidence == "strong"]
    assert strong == [("site/settings.py", 1), ("tests/test_static.py", 3)]
    assert [h for h in r.hits if h.evidence == "weak"] == []
    assert r.excluded.get("in strings") == 2  # another package's path, and a plain word


def test_a_dotted_path_into_another_part_of_the_package_is_not_this_name(tmp_path):
    write_tree(tmp_path, {"app.py": 'A = "whitekit.storage.GzipStorage"\n'})
    r = _search(tmp_path, SymbolQuery("pip", "whitekit", "whitekit.django.GzipStorage"))
    assert r.hits == []


def test_a_name_passed_by_reference_that_nothing_binds_is_a_weak_use(tmp_path):
    write_tree(tmp_path, {
        "package.json": '{"name": "app", "version": "1.0.0"}\n',
        "src/routes.js": "const auth = require('authkit');\n"
                         "router.post('/logout', logoutSession);\n"
                         "router.post('/in', auth.authenticate('local'));\n",
        "src/own.js": "const auth = require('authkit');\n"
                      "function logoutSession(req) { return req; }\n"
                      "router.post('/logout', logoutSession);\n",
        "src/plain.js": "router.post('/logout', logoutSession);\n",
    })  # fmt: skip
    r = _search(tmp_path, SymbolQuery("npm", "authkit", "logoutSession"))
    weak = [(h.path, h.line) for h in r.hits if h.evidence == "weak"]
    assert weak == [("src/routes.js", 2)]
    assert "may be a use" in r.hits[0].why
    assert [h for h in r.hits if h.evidence == "strong"] == []


def test_python_a_name_passed_by_reference_is_weak_unless_the_file_defines_it(tmp_path):
    write_tree(tmp_path, {
        "app/hooks.py": "import authkit\n\nregister(logout_session)\n",
        "app/own.py": "import authkit\n\n\ndef logout_session():\n    pass\n\n\n"
                      "register(logout_session)\n",
    })  # fmt: skip
    r = _search(tmp_path, SymbolQuery("pip", "authkit", "authkit.logout_session"))
    assert [(h.path, h.line, h.evidence) for h in r.hits] == [("app/hooks.py", 3, "weak")]


def test_a_role_named_package_is_configured_under_its_leading_words_in_a_role_key():
    from depbot.symbols.matchjs import package_key, role_key

    assert role_key("stylekit-loader") == ("stylekit", "loader")
    assert role_key("@scope/fancy-docs-plugin") == ("fancyDocs", "plugin")
    assert role_key("stylekit") == ("", "")
    # css.loaderOptions.stylekit.data: innermost key first
    assert package_key(("stylekit", "loaderOptions", "css"), "stylekit-loader") == (
        "loaderOptions.stylekit"
    )
    # the leading words alone, outside a key naming the role, are any object's key
    assert package_key(("stylekit", "theme"), "stylekit-loader") == ""
    assert package_key(("lesskit", "loaderOptions", "css"), "stylekit-loader") == ""
    assert package_key(("stylekitLoader",), "stylekit-loader") == "stylekitLoader"


def test_a_two_part_dotted_string_is_a_use_only_as_a_mock_patch_target(tmp_path):
    write_tree(tmp_path, {
        "app/notes.py": "TEXT = 'whitekit.compress'\n",
        "tests/test_io.py": "from unittest import mock\n\n"
                            "@mock.patch('whitekit.compress')\ndef test_it(c):\n    pass\n",
    })  # fmt: skip
    r = _search(tmp_path, SymbolQuery("pip", "whitekit", "whitekit.compress"))
    assert [(h.path, h.line, h.evidence) for h in r.hits] == [("tests/test_io.py", 3, "strong")]


def test_a_name_destructured_from_the_module_object_is_the_packages(tmp_path):
    write_tree(tmp_path, {
        "package.json": '{"name": "app", "version": "1.0.0"}\n',
        "src/a.js": "const lib = require('authkit');\n"
                    "const { logoutSession, other: renamed } = lib;\n"
                    "router.post('/x', logoutSession);\n"
                    "router.post('/y', renamed);\n",
        "src/b.js": "const plain = { logoutSession: 1 };\n"
                    "const { logoutSession } = plain;\nuse(logoutSession);\n",
    })  # fmt: skip
    search = SymbolSearch(CodeSearch(tmp_path, Settings()))
    r = search.search(SymbolQuery("npm", "authkit", "logoutSession"))
    assert [(h.path, h.line, h.evidence) for h in r.hits] == [
        ("src/a.js", 2, "strong"),  # the pattern reads lib.logoutSession
        ("src/a.js", 3, "strong"),
    ]
    assert "resolves to authkit.logoutSession" in r.hits[1].why
    other = search.search(SymbolQuery("npm", "authkit", "other"))
    # `other: renamed` binds `renamed` to lib.other: the key is the read of the member
    assert [(h.path, h.line, h.evidence) for h in other.hits] == [("src/a.js", 2, "strong")]


def test_a_value_the_package_made_is_followed_one_module_on(tmp_path):
    write_tree(tmp_path, {
        "package.json": '{"name": "app", "version": "1.0.0"}\n',
        "src/models/user.js": "const db = require('dockkit');\n"
                              "module.exports = db.model('User', new db.Schema({}));\n",
        "src/models/post.ts": "import { model, Schema } from 'dockkit';\n"
                              "export const Post = model('Post', new Schema({}));\n",
        "src/models/plain.js": "module.exports = { findByIdAndRemove() {} };\n",
        "src/routes.ts": "import { Post } from './models/post';\n"
                         "const User = require('./models/user');\n"
                         "const Plain = require('./models/plain');\n"
                         "User.findByIdAndRemove(1);\nPost.findByIdAndRemove(2);\n"
                         "Plain.findByIdAndRemove(3);\n",
    })  # fmt: skip
    r = _search(tmp_path, SymbolQuery("npm", "dockkit", "Model.findByIdAndRemove"))
    got = [(h.path, h.line, h.evidence) for h in r.hits]
    assert got == [("src/routes.ts", 4, "strong"), ("src/routes.ts", 5, "strong")]


def test_this_in_a_class_that_extends_the_packages_is_its_object(tmp_path):
    write_tree(tmp_path, {
        "package.json": '{"name": "app", "version": "1.0.0"}\n',
        "src/guard.js": "const lib = require('authkit');\n"
                        "class Guard extends lib.Strategy {\n"
                        "  run() { return this.legacyVerify(); }\n}\n",
        "src/own.js": "class Own extends Base {\n  run() { return this.legacyVerify(); }\n}\n",
    })  # fmt: skip
    r = _search(tmp_path, SymbolQuery("npm", "authkit", "Strategy.legacyVerify"))
    assert [(h.path, h.line, h.evidence) for h in r.hits] == [("src/guard.js", 3, "strong")]


def test_an_inline_require_and_a_local_module_that_re_exports_the_package(tmp_path):
    write_tree(tmp_path, {
        "package.json": '{"name": "app", "version": "1.0.0"}\n',
        "lib/a.js": "module.exports = (b) => require('zipkit').inflateRaw(b);\n",
        "src/vendor.js": "module.exports = require('zipkit');\n",
        "src/app.js": "const z = require('./vendor');\nexports.run = (b) => z.inflateRaw(b);\n",
        "src/other.js": "const y = require('./elsewhere');\ny.inflateRaw(1);\n",
    })  # fmt: skip
    search = SymbolSearch(CodeSearch(tmp_path, Settings()))
    r = search.search(SymbolQuery("npm", "zipkit", "inflateRaw"))
    assert [(h.path, h.line, h.evidence) for h in r.hits] == [
        ("lib/a.js", 1, "strong"),
        ("src/app.js", 2, "strong"),
    ]


def test_a_parameter_is_the_package_when_a_call_in_the_module_passes_it(tmp_path):
    write_tree(tmp_path, {
        "package.json": '{"name": "app", "version": "1.0.0"}\n',
        "src/a.js": "function unpack(lib, buf) {\n  return lib.inflateRaw(buf);\n}\n"
                    "module.exports = (b) => unpack(require('zipkit'), b);\n",
        "src/b.js": "const zk = require('zipkit');\nconst run = async (codec, b) => codec.inflateRaw(b);\n"
                    "run(zk, 1);\n",
        "src/c.js": "require('zipkit');\nfunction other(lib) {\n  return lib.inflateRaw(1);\n}\n"
                    "other({ inflateRaw() {} });\n",
    })  # fmt: skip
    search = SymbolSearch(CodeSearch(tmp_path, Settings()))
    r = search.search(SymbolQuery("npm", "zipkit", "inflateRaw"))
    strong = [(h.path, h.line) for h in r.hits if h.evidence == "strong"]
    assert strong == [("src/a.js", 2), ("src/b.js", 2)]  # c.js passes its own object


def test_a_field_the_class_sets_to_the_package_or_what_it_made(tmp_path):
    write_tree(tmp_path, {
        "package.json": '{"name": "app", "version": "1.0.0"}\n',
        "src/svc.js": "const zk = require('zipkit');\nclass U {\n  constructor() {\n"
                      "    this.codec = zk;\n    this.pool = zk.open();\n    this.other = {};\n  }\n"
                      "  run(b) {\n    this.other.inflateRaw(b);\n    this.pool.drain();\n"
                      "    return this.codec.inflateRaw(b);\n  }\n}\n",
    })  # fmt: skip
    search = SymbolSearch(CodeSearch(tmp_path, Settings()))
    raw = search.search(SymbolQuery("npm", "zipkit", "inflateRaw"))
    assert [(h.path, h.line) for h in raw.hits if h.evidence == "strong"] == [("src/svc.js", 11)]
    made = search.search(SymbolQuery("npm", "zipkit", "Pool.drain"))
    assert [(h.path, h.line) for h in made.hits] == [("src/svc.js", 10)]


def test_an_option_in_an_object_a_declaration_binds_then_passed_to_the_package(tmp_path):
    write_tree(tmp_path, {
        "package.json": '{"name": "app", "version": "1.0.0"}\n',
        "src/db.js": "const db = require('dbkit');\nconst options = {\n  useLegacyParser: true,\n};\n"
                     "db.connect(url, options);\n",
        "src/other.js": "const db = require('dbkit');\nconst flags = { useLegacyParser: true };\n"
                        "parse(text, flags);\n",
        "config/db.js": "module.exports = { options: { useLegacyParser: true } };\n",
    })  # fmt: skip
    search = SymbolSearch(CodeSearch(tmp_path, Settings()))
    r = search.search(SymbolQuery("npm", "dbkit", "useLegacyParser", kind="parameter"))
    got = {(h.path, h.line): h.evidence for h in r.hits}
    assert got == {("src/db.js", 3): "strong", ("config/db.js", 1): "weak"}  # other.js: parse()
    assert "passed to db.connect" in next(h.why for h in r.hits if h.path == "src/db.js")


def test_a_name_imported_from_a_barrel_that_re_exports_the_package_is_the_packages(tmp_path):
    write_tree(tmp_path, {
        "package.json": '{"name": "app", "version": "1.0.0"}\n',
        "src/lib/index.js": "export * from 'zipkit';\nexport function inflateLocal() {}\n",
        "src/app.js": "import { inflateRaw, inflateLocal } from './lib';\n"
                      "inflateRaw(1);\ninflateLocal(2);\n",
    })  # fmt: skip
    search = SymbolSearch(CodeSearch(tmp_path, Settings()))
    r = search.search(SymbolQuery("npm", "zipkit", "inflateRaw"))
    assert ("src/app.js", 2, "strong") in [(h.path, h.line, h.evidence) for h in r.hits]
    local = search.search(SymbolQuery("npm", "zipkit", "inflateLocal"))
    assert not [h for h in local.hits if h.evidence == "strong"]


def test_a_member_read_by_its_quoted_name_is_a_use_a_plain_string_is_not(tmp_path):
    write_tree(tmp_path, {
        "package.json": '{"name": "app", "version": "1.0.0"}\n',
        "src/a.js": "const zk = require('zipkit');\nconst f = zk['inflateRaw'];\n"
                    "const other = {}; other['inflateRaw'] = 1;\nlog('inflateRaw');\n",
    })  # fmt: skip
    search = SymbolSearch(CodeSearch(tmp_path, Settings()))
    r = search.search(SymbolQuery("npm", "zipkit", "inflateRaw"))
    assert [(h.path, h.line, h.evidence) for h in r.hits] == [("src/a.js", 2, "strong")]


def test_a_method_of_what_another_package_made_is_set_aside(tmp_path):
    # `const app = express()`: `app.use` is Express's, though the notes of formguard name
    # `app.use` (before: "same receiver as in the changelog", a strong use)
    write_tree(tmp_path, {
        "app.js": "const express = require('express');\nconst app = express();\n"
                  "app.use(express.json());\n",
        "mount.js": "module.exports = function mount(app) {\n  app.use(require('formguard')());\n};\n",
    })  # fmt: skip
    res = _search(tmp_path, SymbolQuery("npm", "formguard", "app.use", "name"))
    assert [h.path for h in res.hits if h.evidence == "strong"] == ["mount.js"]
    assert any("another module" in why for why in res.excluded)


def test_a_function_the_notes_name_is_not_an_option_key_of_the_same_name(tmp_path):
    write_tree(tmp_path, {
        "src/thumb.ts": "import imgkit from 'imgkit';\n\n"
                        "export const thumb = (b: Buffer) =>\n"
                        "  imgkit(b).resize({\n    width: 64,\n    tint: 'rgba(0,0,0,0)',\n  }).toBuffer();\n",
        "src/old.ts": "import imgkit from 'imgkit';\nimgkit(b).tint('#fff');\n",
    })  # fmt: skip
    # "`tint` was removed": maybe the option, maybe the function: the option key is a use
    either = _search(tmp_path, SymbolQuery("npm", "imgkit", "tint"))
    assert {(h.path, h.line) for h in either.hits} == {("src/thumb.ts", 6), ("src/old.ts", 2)}
    # "Remove functions …: `tint`": only the call
    called = _search(tmp_path, SymbolQuery("npm", "imgkit", "tint", arg="call"))
    assert [(h.path, h.line) for h in called.hits] == [("src/old.ts", 2)]
    assert called.excluded.get("an option key, not the function the notes name") == 1


def test_an_option_beside_another_loader_s_name_is_that_loader_s(tmp_path):
    # stop 51: `{ loader: 'css-loader', options: { sourceMap } }` is css-loader's option; a
    # plain value beside a key (`mode: 'development'`) names no package
    write_tree(tmp_path, {
        "webpack.config.js": "module.exports = { mode: 'development', module: { rules: [\n"
                             "  { loader: 'css-loader', options: { sourceMap: true } },\n"
                             "  ['@acme/preset-css', { sourceMap: true }],\n"
                             "  { loader: 'inject-loader', options: { sourceMap: true } },\n"
                             "] }, output: { sourceMap: true } };\n",
    })  # fmt: skip
    r = _search(tmp_path, SymbolQuery("npm", "inject-loader", "sourceMap", "parameter"))
    assert [(h.line, h.evidence) for h in r.hits] == [(4, "strong"), (5, "weak")]
    assert r.excluded == {
        "an option of css-loader, named beside it": 1,
        "an option of @acme/preset-css, named beside it": 1,
    }


def test_the_module_object_made_called_or_extended_by_how_the_change_reaches_it(tmp_path):
    write_tree(tmp_path, {
        "package.json": '{"dependencies": {"envkit": "27.5.1"}}',
        "env.js": "const Base = require('envkit');\n\nclass E2E extends Base {}\nmodule.exports = E2E;\n",
        "call.js": "const make = require('envkit');\nmake({ a: 1 });\n",
        "named.js": "const { TestEnvironment } = require('envkit');\nnew TestEnvironment();\n",
    })  # fmt: skip

    def where(arg: str) -> set[str]:
        res = _search(tmp_path, SymbolQuery("npm", "envkit", "envkit", "default_import", arg=arg))
        return {h.path for h in res.hits}

    assert where("made") == {"env.js", "call.js"}  # no longer a function: any making breaks
    assert where("new") == {"env.js"}  # no constructor: `new` and `extends` break
    assert where("call") == {"call.js"}  # a class now: only plain calls break
    # a default export kept: a default import still gets it, `require` gets the object
    (tmp_path / "esm.js").write_text("import Make from 'envkit';\nMake();\n")
    assert where("made") == {"env.js", "call.js", "esm.js"}
    assert where("made_required") == {"env.js", "call.js"}
