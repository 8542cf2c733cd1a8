"""Calls judged by their arguments. ``required_option``: the options object lacks an option the
new release requires (a literal without it is strong; a variable or a spread may hold it).
``arg_kind``: a value of a kind the call no longer accepts (a literal of it is strong; a
variable may be one)."""

from __future__ import annotations

from depbot.core.settings import Settings
from depbot.search.code import CodeSearch
from depbot.symbols.facts import SymbolQuery
from depbot.symbols.search import SymbolSearch
from tests.helpers.worlds import write_tree


def test_calls_are_judged_by_their_options_object(tmp_path):
    write_tree(tmp_path, {
        "package.json": '{"name": "api", "version": "1.0.0"}\n',
        "src/a.js": "const guard = require('guardkit');\n"
                    "app.use(guard({ secret }));\n"
                    "app.use(guard({ secret, algorithms: ['HS256'] }));\n"
                    "app.use(guard(options));\n"
                    "app.use(guard({ ...defaults, secret }));\n"
                    "app.use(guard());\n",
        "src/b.js": "const guard = require('./local-guard');\napp.use(guard({ secret }));\n",
    })  # fmt: skip
    query = SymbolQuery(
        "npm", "guardkit", "guard", "required_option", arg="algorithms", max_positional=0
    )
    r = SymbolSearch(CodeSearch(tmp_path, Settings())).search(query)
    got = {(h.path, h.line): h.evidence for h in r.hits}
    assert got == {
        ("src/a.js", 2): "strong",
        ("src/a.js", 4): "weak",
        ("src/a.js", 5): "weak",
        ("src/a.js", 6): "strong",
    }
    assert r.excluded.get("passes algorithms") == 1
    assert all("may be a use" in h.why for h in r.hits if h.evidence == "weak")


def test_a_literal_of_the_dropped_kind_is_strong_and_a_variable_weak(tmp_path):
    write_tree(tmp_path, {
        "app/db.py": "import querykit\nfrom querykit import text\n\n"
                     "engine = querykit.create_engine('sqlite://')\n"
                     "conn = engine.connect()\n"
                     "conn.execute('SELECT 1')\n"
                     "conn.execute(text('SELECT 2'))\n"
                     "conn.execute(statement)\n",
    })  # fmt: skip
    query = SymbolQuery("pip", "querykit", "Connection.execute", "arg_kind", arg="string")
    r = SymbolSearch(CodeSearch(tmp_path, Settings())).search(query)
    assert {(h.line, h.evidence) for h in r.hits} == {(6, "strong"), (8, "weak")}
    assert r.excluded.get("passes no string") == 1


def test_an_exact_owner_does_not_stretch_to_its_siblings(tmp_path):
    """The notes may name one owner of a parameter its siblings share; an API diff's owner
    is exact: `jwtkit.decode(…, algorithms=…)` is not a call of `PyJWT.__init__`."""
    write_tree(tmp_path, {
        "app/auth.py": "import jwtkit\n\n"
                       "data = jwtkit.decode(token, key, algorithms=['HS256'])\n",
    })  # fmt: skip
    search = SymbolSearch(CodeSearch(tmp_path, Settings()))
    loose = SymbolQuery("pip", "jwtkit", "algorithms", "parameter", of="jwtkit.PyJWT.__init__")
    exact = SymbolQuery(
        "pip", "jwtkit", "algorithms", "parameter", of="jwtkit.PyJWT.__init__", exact=True
    )
    assert [h.line for h in search.search(loose).hits] == [3]
    assert search.search(exact).hits == []


def test_a_string_the_option_no_longer_allows_is_a_use_and_an_allowed_one_not(tmp_path):
    write_tree(tmp_path, {
        "package.json": '{"name": "site", "version": "1.0.0"}\n',
        "build/webpack.prod.conf.js":
            "const PagePlugin = require('pagekit-plugin');\n"
            "module.exports = { plugins: [\n"
            "  new PagePlugin({ filename: 'index.html', sortMode: 'dependency' }),\n"
            "  new PagePlugin({ sortMode: 'auto' }),\n"
            "  new PagePlugin({ sortMode: mode }),\n"
            "  new PagePlugin(),\n"
            "] };\n",
    })  # fmt: skip
    query = SymbolQuery(
        "npm", "pagekit-plugin", "PagePlugin", "option_value", arg="sortMode=auto|manual",
        max_positional=0,
    )  # fmt: skip
    r = SymbolSearch(CodeSearch(tmp_path, Settings())).search(query)
    assert [(h.path, h.line, h.evidence) for h in r.hits] == [
        ("build/webpack.prod.conf.js", 3, "strong")
    ]
    assert "'dependency'" in r.hits[0].why
    assert r.excluded.get("passes no other string as sortMode") == 3


def test_a_change_reaching_only_the_calls_passing_an_argument_skips_the_others(tmp_path):
    write_tree(tmp_path, {
        "app/cache.py": "from memokit import cachedmethod\n\n"
                        "class A:\n"
                        "    @cachedmethod(lambda self: self._c)\n"
                        "    def f(self): ...\n\n"
                        "    @cachedmethod(lambda self: self._c, key=my_key)\n"
                        "    def g(self): ...\n\n"
                        "    @cachedmethod(lambda self: self._c, my_key)\n"
                        "    def h(self): ...\n",
    })  # fmt: skip
    query = SymbolQuery("pip", "memokit", "cachedmethod", "behaviour", arg="key")
    r = SymbolSearch(CodeSearch(tmp_path, Settings())).search(query)
    assert [h.line for h in r.hits] == [7, 10]  # by keyword, or positionally where it may sit
    assert r.excluded.get("not passing key") == 1


def test_a_removed_variadic_form_spares_the_calls_passing_an_options_object_first(tmp_path):
    # stop 54: "the variadic argument signature of `.listen()` has been removed": a call whose
    # first argument is an options object is the form kept; one passing a port is to verify
    write_tree(tmp_path, {
        "src/index.ts": "import serverkit from 'serverkit';\n"
                        "const app = serverkit();\n"
                        "await app.listen({ port }, (err) => log(err));\n"
                        "app.listen(3000, '0.0.0.0');\n",
    })  # fmt: skip
    query = SymbolQuery("npm", "serverkit", "listen", "behaviour", arg="?variadic")
    r = SymbolSearch(CodeSearch(tmp_path, Settings())).search(query)
    assert [(h.line, h.evidence) for h in r.hits] == [(4, "weak")]
    assert "verify this call" in r.hits[0].why
    assert r.excluded.get("called with an options object first, not argument by argument") == 1


def test_a_rule_named_under_a_short_name_of_the_package_is_a_use(tmp_path):
    # stop 54: `'jest/prefer-to-be-null': 'error'` in a shared ESLint config was a weak
    # "mentions the setting"; the short name is a word of the plugin package's name
    write_tree(tmp_path, {
        "src/jest.js": "module.exports = {\n  plugins: ['jest'],\n"
                       "  rules: { 'jest/prefer-to-be-null': 'error', 'other/prefer-to-be-null': 1 },\n};\n",
        "src/style.js": "module.exports = { rules: { 'prefer-to-be-null': 'off' } };\n",
    })  # fmt: skip
    query = SymbolQuery("npm", "lint-plugin-jest", "prefer-to-be-null", "config_key")
    r = SymbolSearch(CodeSearch(tmp_path, Settings())).search(query)
    got = {(h.path, h.line): h.evidence for h in r.hits}
    assert got[("src/jest.js", 3)] == "strong" and "'jest/prefer-to-be-null'" in r.hits[0].why
    assert got[("src/style.js", 1)] == "weak"  # not under the package's name: may be another's


def test_imports_that_bind_nothing_are_the_side_effect_imports(tmp_path):
    # stop 54: "Users who are using `import 'pkg'` should change to `import 'pkg/setup'`"
    write_tree(tmp_path, {
        "src/setup.ts": "import 'presetkit';\nimport 'presetkit/setup';\n",
        "src/legacy.js": "require('presetkit');\n",
        "src/use.ts": "import { configure } from 'presetkit';\nconfigure();\n",
    })  # fmt: skip
    query = SymbolQuery("npm", "presetkit", "presetkit", "side_effect_import")
    r = SymbolSearch(CodeSearch(tmp_path, Settings())).search(query)
    assert sorted((h.path, h.line, h.evidence) for h in r.hits) == [
        ("src/legacy.js", 1, "strong"), ("src/setup.ts", 1, "strong")
    ]  # fmt: skip


def test_a_method_on_what_a_module_that_imports_the_package_hands_on_is_to_verify(tmp_path):
    # stop 54: a false safe. The resolver reads `this.pubsubService.pubsub.asyncIterator(…)`;
    # the service module made the PubSub. The receiver's type is not known: a weak hit, never
    # "a different receiver"
    write_tree(tmp_path, {
        "src/pubsub/pubsub.service.ts": "import { PubSub } from 'subkit';\nconst pubsub = new PubSub();\n"
                                        "export class PubsubService {\n  get pubsub() { return pubsub; }\n}\n",
        "src/subs/subs.resolver.ts": "import { PubsubService } from '../pubsub/pubsub.service';\n"
                                     "export class Subs {\n  constructor(private readonly pubsubService: PubsubService) {}\n"
                                     "  created() { return this.pubsubService.pubsub.asyncIterator('created'); }\n}\n",
        "src/other/stream.ts": "export const s = (x: any) => x.asyncIterator('y');\n",
    })  # fmt: skip
    query = SymbolQuery("npm", "subkit", "PubSubEngine.asyncIterator", "name")
    r = SymbolSearch(CodeSearch(tmp_path, Settings())).search(query)
    # stop 55: the service's getter returns the PubSub its module made: the value is followed
    assert [(h.path, h.line, h.evidence) for h in r.hits] == [
        ("src/subs/subs.resolver.ts", 4, "strong")
    ]
    # a service whose member the code cannot follow (set from what a caller passes): the
    # receiver one module on is still a use to verify
    service = ("import { PubSub } from 'subkit';\nexport class PubsubService {\n"
               "  engine: any;\n  use(e: any) { this.engine = e; }\n  get pubsub() { return this.engine; }\n}\n")  # fmt: skip
    write_tree(tmp_path, {"src/pubsub/pubsub.service.ts": service})
    r = SymbolSearch(CodeSearch(tmp_path, Settings())).search(query)
    assert [(h.path, h.line, h.evidence) for h in r.hits] == [
        ("src/subs/subs.resolver.ts", 4, "weak")
    ]
    assert "src/pubsub/pubsub.service.ts" in r.hits[0].why


def test_an_option_set_as_a_property_of_the_package_s_object_is_that_option(tmp_path):
    # stop 56: `log.transports.file.resolvePath = fn` ("`resolvePath` option is renamed")
    # was set aside as "not an option property", and the update called safe
    write_tree(tmp_path, {
        "package.json": '{"name": "app", "version": "1.0.0"}\n',
        "src/log.ts": "import * as log from 'logkit';\n"
                      "log.transports.file.resolvePath = vars => vars.dir;\n"
                      "const p = log.transports.file.resolvePath;\n"
                      "if (log.transports.file.resolvePath === p) {}\n",
        "src/own.ts": "const cfg = { file: {} };\ncfg.file.resolvePath = () => 'x';\n",
    })  # fmt: skip
    query = SymbolQuery("npm", "logkit", "resolvePath", "parameter")
    r = SymbolSearch(CodeSearch(tmp_path, Settings())).search(query)
    got = {(h.path, h.line): h.evidence for h in r.hits}
    assert got == {("src/log.ts", 2): "strong"}  # reads of it, and the code's own object: no


def test_a_constructor_that_takes_no_arguments_any_more_reaches_the_calls_passing_some(tmp_path):
    write_tree(tmp_path, {
        "package.json": '{"name": "api", "version": "1.0.0"}\n',
        "src/a.ts": "import Zipper from 'zipkit';\n"
                    "const z = new Zipper();\n"
                    "const y = new Zipper(data);\n",
    })  # fmt: skip
    query = SymbolQuery("npm", "zipkit", "Zipper", "positional", max_positional=0)
    r = SymbolSearch(CodeSearch(tmp_path, Settings())).search(query)
    assert [(h.path, h.line, h.evidence) for h in r.hits] == [("src/a.ts", 3, "strong")]
    assert r.excluded.get("no extra positional arguments") == 1


def test_a_removed_option_given_in_shorthand_is_a_use(tmp_path):
    # `{ makeId, plugins }`: the key was never read (the search looked for `makeId:` only)
    write_tree(tmp_path, {
        "package.json": '{"name": "api", "version": "1.0.0"}\n',
        "src/a.js": "import { create } from 'stylekit';\n"
                    "const makeId = () => 'x';\n"
                    "const sheet = create({\n"
                    "  makeId,\n"
                    "  plugins: [],\n"
                    "});\n"
                    "create({ plugins: [], makeId });\n"
                    "create({\n  plugins: [],\n  makeId\n});\n"
                    "const mine = { makeId };\n",
    })  # fmt: skip
    query = SymbolQuery("npm", "stylekit", "makeId", "parameter")
    r = SymbolSearch(CodeSearch(tmp_path, Settings())).search(query)
    got = [(h.line, h.evidence) for h in r.hits]
    # an object built here, its call not followed: weak, as for `{ makeId: 1 }`
    assert got == [(4, "strong"), (7, "strong"), (10, "strong"), (12, "weak")]


def test_an_option_whose_handling_of_one_kind_changed_is_met_by_values_of_that_kind(tmp_path):
    write_tree(tmp_path, {
        "package.json": '{"name": "api", "version": "1.0.0"}\n',
        "src/a.ts": "import slow from 'slowkit';\n"
                    "export const a = slow({ after: 75, waitMs: 500 // grows per hit\n});\n"
                    "export const b = slow({ waitMs: (used) => used * 1000 });\n"
                    "export const c = slow({ waitMs: delay });\n",
    })  # fmt: skip
    query = SymbolQuery("npm", "slowkit", "waitMs", "arg_kind", arg="when-number")
    r = SymbolSearch(CodeSearch(tmp_path, Settings())).search(query)
    got = {h.line: (h.evidence, h.why) for h in r.hits}
    assert got[2] == (
        "strong",
        "sets waitMs to a number in a call of slowkit, whose handling of one changed",
    )
    assert got[5][0] == "weak"
    assert 4 not in got and r.excluded.get("gives waitMs no number") == 1
