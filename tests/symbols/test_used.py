"""The names a checkout takes from a package (``SymbolSearch.used_names``), over real files."""

from __future__ import annotations

from pathlib import Path

from depbot.core.settings import Settings
from depbot.search.code import CodeSearch
from depbot.symbols.search import SymbolSearch


def _used(tmp_path: Path, files: dict[str, str], ecosystem: str, package: str) -> dict[str, str]:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    got = SymbolSearch(CodeSearch(tmp_path, Settings())).used_names(ecosystem, package)
    return {u.name: f"{u.path}:{u.line} {u.how}{' guarded' if u.guarded else ''}" for u in got}


def test_python_imports_and_members_through_module_objects(tmp_path: Path):
    used = _used(tmp_path, {
        "app.py": "import yaml\nfrom yaml.loader import SafeLoader as SL\n\n"
                  "data = yaml.load(open('x'), Loader=SL)\nyaml.dump(data).strip()\n"
                  "yaml.constructor.Constructor().add(1)\n",
        "opt.py": "try:\n    from yaml import CLoader\nexcept ImportError:\n    CLoader = None\n",
        "other.py": "import json\njson.dumps(1)\n",
    }, "pip", "PyYAML")  # fmt: skip
    assert used == {
        "yaml": "app.py:1 import",
        "yaml.loader.SafeLoader": "app.py:2 import",
        "yaml.load": "app.py:4 member",
        "yaml.dump": "app.py:5 member",
        "yaml.constructor": "app.py:6 member",
        "yaml.constructor.Constructor": "app.py:6 member",  # the chain stops at the call
        "yaml.CLoader": "opt.py:2 import guarded",
    }


def test_javascript_named_default_and_members_of_a_required_module(tmp_path: Path):
    used = _used(tmp_path, {
        "src/a.js": "const helmet = require('helmet');\n// helmet.noSniff() is gone\n"
                    "app.use(helmet.noCache());\napp.use(helmet.hpkp({ maxAge: 1 }));\n",
        "src/b.mjs": "import helmet, { frameguard } from 'helmet';\nhelmet.other();\n",
        "src/c.ts": "import type { Options } from 'helmet';\n",
    }, "npm", "helmet")  # fmt: skip
    assert used == {
        "helmet": "src/a.js:1 import",
        "helmet:noCache": "src/a.js:3 member",
        "helmet:hpkp": "src/a.js:4 member",
        "helmet:default": "src/b.mjs:1 import",
        "helmet:default.other": "src/b.mjs:2 member",  # module.exports' member if CommonJS
        "helmet:frameguard": "src/b.mjs:1 import",
        "helmet:Options": "src/c.ts:1 import",  # a type: the compiler looks it up
    }


def test_a_name_read_only_as_the_fallback_of_a_kept_name_is_guarded(tmp_path: Path):
    used = _used(tmp_path, {
        "lib/read.js": "const mime = require('mime');\n"
                       "mime.getType = mime.getType || mime.lookup; // 2.x vs 1.x\n"
                       "mime.extension ??= mime.getExtension;\n"
                       "module.exports = (p) => mime.getType(p);\n",
        "lib/old.js": "const mime = require('mime');\nmime.charset = mime.charset || mime.load;\n"
                      "mime.load('x');\n",
    }, "npm", "mime")  # fmt: skip
    assert used["mime:lookup"] == "lib/read.js:2 member guarded"
    assert used["mime:getExtension"] == "lib/read.js:3 member guarded"
    assert used["mime:getType"] == "lib/read.js:2 assigned"  # the kept name: set by the code
    assert used["mime:extension"] == "lib/read.js:3 assigned"
    assert used["mime:load"] == "lib/old.js:3 member"  # a plain call elsewhere wins


def test_names_destructured_from_a_module_object_are_its_members(tmp_path: Path):
    used = _used(tmp_path, {
        "lib/a.mjs": "import * as Z from 'zipkit';\n\nconst { inflateRaw: raw, inflate } = Z;\n",
        "lib/b.js": "const zk = require('zipkit');\nconst { gunzip } = zk.sync;\n"
                    "const { made } = zk.open();\n",
    }, "npm", "zipkit")  # fmt: skip
    assert used["zipkit:inflateRaw"] == "lib/a.mjs:3 member"
    assert used["zipkit:inflate"] == "lib/a.mjs:3 member"
    assert "zipkit:raw" not in used
    assert "zipkit:sync" in used and "zipkit:made" not in used  # a call's result is no export


def test_an_inline_require_and_a_type_only_import_name_what_they_take(tmp_path: Path):
    used = _used(tmp_path, {
        "lib/a.js": "module.exports = (b, cb) => require('zipkit').inflateRaw(b, cb);\n",
        "lib/b.ts": "import type { ClientOptions } from 'zipkit';\n",
    }, "npm", "zipkit")  # fmt: skip
    assert used["zipkit:inflateRaw"] == "lib/a.js:1 member"
    assert used["zipkit:ClientOptions"] == "lib/b.ts:1 import"


def test_members_of_what_a_call_of_the_package_returns(tmp_path: Path):
    used = _used(tmp_path, {
        "src/a.ts": "import { createClient } from 'httpkit';\n\nconst client = createClient<Opts>();\n"
                    "client.head('/');\n",
        "src/b.js": "const h = require('httpkit');\nlet c = await h.connect();\nc?.close();\n",
    }, "npm", "httpkit")  # fmt: skip
    assert used["httpkit:createClient().head"] == "src/a.ts:4 member"
    assert used["httpkit:connect().close"] == "src/b.js:3 member"


def test_keys_destructured_from_what_a_call_of_the_package_returns(tmp_path: Path):
    used = _used(tmp_path, {
        "src/a.tsx": "import useThing from 'hk';\n\nconst { data: sub, revalidate } = useThing<Sub>(\n"
                     "  key,\n);\n",
        "src/b.js": "const hk = require('hk');\nconst { mutate } = await hk.connect();\n",
    }, "npm", "hk")  # fmt: skip
    assert used["hk:default().data"] == "src/a.tsx:3 member"
    assert used["hk:default().revalidate"] == "src/a.tsx:3 member"
    assert used["hk:connect().mutate"] == "src/b.js:2 member"


def test_members_of_what_new_makes_of_a_class_of_the_package(tmp_path: Path):
    used = _used(tmp_path, {
        "src/a.ts": "import { Pool } from 'poolkit';\nconst pool = new Pool(4);\npool.drain();\n",
        "src/b.mjs": "import Lib from 'poolkit';\nconst l = new Lib();\nl.end();\n",
        "src/c.js": "const pk = require('poolkit');\nconst p = new pk.Pool();\np.query('x');\n",
    }, "npm", "poolkit")  # fmt: skip
    assert used["poolkit:new Pool().drain"] == "src/a.ts:3 member"
    assert used["poolkit:new default().end"] == "src/b.mjs:3 member"
    assert used["poolkit:new Pool().query"] == "src/c.js:3 member"


def test_the_imports_of_a_local_module_that_re_exports_the_package_are_its(tmp_path: Path):
    used = _used(tmp_path, {
        "src/vendor.js": "module.exports = require('zipkit');\n",
        "src/app.js": "const z = require('./vendor');\nexports.run = (b) => z.inflateRaw(b);\n",
        "src/more.mjs": "import { inflate } from './vendor.js';\ninflate(1);\n",
    }, "npm", "zipkit")  # fmt: skip
    assert used["zipkit:inflateRaw"] == "src/app.js:2 member"
    assert used["zipkit:inflate"] == "src/more.mjs:1 import"


def test_the_module_object_handed_to_a_function_of_another_module_is_followed(tmp_path: Path):
    """`setup(server, restify)` with `module.exports = function (server, restify)` in
    ./controllers/setup.js: that parameter is the package there (one module on)."""
    used = _used(tmp_path, {
        "app.js": "var restify = require('restify');\nvar setup = require('./controllers/setup');\n"
                  "var server = restify.createServer();\nsetup(server, restify, 3);\n",
        "controllers/setup.js": "module.exports = function(server, restify, n) {\n"
                                "  server.use(restify.bodyParser());\n};\n",
        "other.ts": "import * as lib from 'restify';\nimport route from './route';\nroute(lib);\n",
        "route.ts": "export default async function route(api: typeof import('restify')) {\n"
                    "  api.queryParser();\n}\n",
        "unrelated.js": "module.exports = function(server, restify) { restify.nothing(); };\n",
    }, "npm", "restify")  # fmt: skip
    assert used["restify:createServer"] == "app.js:3 member"
    assert used["restify:bodyParser"] == "controllers/setup.js:2 member"
    assert used["restify:queryParser"] == "route.ts:2 member"
    assert "restify:nothing" not in used  # nothing hands it the package


def test_a_value_the_module_object_made_handed_to_another_module_is_followed(tmp_path: Path):
    """`const oauth = lib.create(…)` then `authInit(oauth)` with `module.exports = (oauth) =>`
    in ./auth.js: the parameter there holds what `create()` made (one module on)."""
    used = _used(tmp_path, {
        "index.js": "const lib = require('oauthkit');\nconst authInit = require('./auth');\n"
                    "const oauth = lib.create({ id });\nmodule.exports = authInit(oauth);\n",
        "auth.js": "module.exports = (oauth) => {\n"
                   "  return oauth.code.authorizeURL({ scope });\n};\n",
        "other.js": "module.exports = (oauth) => oauth.code.nothing();\n",
    }, "npm", "oauthkit")  # fmt: skip
    assert used["oauthkit:create"] == "index.js:3 member"
    assert used["oauthkit:create().code"] == "auth.js:2 member"
    assert used["oauthkit:create().code.authorizeURL"] == "auth.js:2 member"
    assert "oauthkit:create().code.nothing" not in used  # nothing hands it the value


def test_the_names_a_barrel_takes_from_export_star_are_the_packages(tmp_path: Path):
    used = _used(tmp_path, {
        "src/lib/index.js": "export * from 'zipkit';\nexport const local = 1;\n",
        "src/app.js": "import { inflateRaw, local } from './lib';\ninflateRaw(local);\n",
    }, "npm", "zipkit")  # fmt: skip
    assert used["zipkit:inflateRaw"] == "src/app.js:1 import"
    assert "zipkit:local" not in used  # the barrel's own export


def test_a_member_read_by_its_quoted_name(tmp_path: Path):
    used = _used(tmp_path, {
        "src/a.js": "const zk = require('zipkit');\nmodule.exports = (b) => zk['inflateRaw'](b);\n",
    }, "npm", "zipkit")  # fmt: skip
    assert used["zipkit:inflateRaw"] == "src/a.js:2 member"


def test_a_member_of_a_namespace_of_the_module_is_a_name_too(tmp_path: Path):
    used = _used(tmp_path, {
        "build/prod.js": "const webpack = require('webpack');\n"
                         "module.exports = { plugins: [\n"
                         "  new webpack.optimize.ChunksPlugin({ name: 'vendor' }),\n"
                         "  new webpack.DefinePlugin({}),\n] };\n",
    }, "npm", "webpack")  # fmt: skip
    assert used == {
        "webpack": "build/prod.js:1 import",
        "webpack:optimize": "build/prod.js:3 member",
        "webpack:optimize.ChunksPlugin": "build/prod.js:3 member",
        "webpack:DefinePlugin": "build/prod.js:4 member",
    }


def test_every_use_of_a_name_is_kept_beside_its_first(tmp_path: Path):
    files = {
        "a.ts": "import * as run from 'runner'\nawait run.shell('ls')\nawait run.shell('pwd')\n",
        "b.ts": "import * as run from 'runner'\nrun.shell('x')\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    used = {u.name: u for u in SymbolSearch(CodeSearch(tmp_path, Settings())).used_names(
        "npm", "runner")}  # fmt: skip
    shell = used["runner:shell"]
    assert (shell.path, shell.line) == ("a.ts", 2)
    assert [(p, n, t) for p, n, _c, t in shell.also] == [
        ("a.ts", 3, "await run.shell('pwd')"),
        ("b.ts", 2, "run.shell('x')"),
    ]


def test_a_guarded_use_is_not_cited_beside_a_plain_one(tmp_path: Path):
    files = {
        "a.js": "const mime = require('mime')\nmime.lookup('x')\n",
        "b.js": "const mime = require('mime')\nmime.getType = mime.getType || mime.lookup\n"
                "mime.lookup('y')\n",
    }  # fmt: skip
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    used = {u.name: u for u in SymbolSearch(CodeSearch(tmp_path, Settings())).used_names(
        "npm", "mime")}  # fmt: skip
    lookup = used["mime:lookup"]
    assert (lookup.path, lookup.line, lookup.guarded) == ("a.js", 2, False)
    assert [(p, n) for p, n, _c, _t in lookup.also] == [("b.js", 3)]


def test_a_package_named_with_dot_js_keeps_its_name(tmp_path: Path):
    used = _used(tmp_path, {
        "src/a.js": "import Plot from 'plot.js';\nnew Plot(el, cfg);\n",
        "src/b.js": "const { draw } = require('plot.js/dist/plot.js');\n",
    }, "npm", "plot.js")  # fmt: skip
    assert used["plot.js:default"] == "src/a.js:1 import"
    assert used["plot.js"] == "src/a.js:1 import"
    assert used["plot.js/dist/plot:draw"] == "src/b.js:1 import"  # a file of it: no suffix


def test_a_module_specifier_in_quotes_is_no_member_use(tmp_path: Path):
    used = _used(tmp_path, {
        "src/tip.js": "import tippy from 'tippy.js';\nimport 'tippy.js/dist/tippy.css';\n"
                      "tippy.setDefaults({});\n",
    }, "npm", "tippy.js")  # fmt: skip
    assert "tippy.js:default.setDefaults" in used
    assert not [n for n in used if n.endswith((".js", ".css")) and ":" in n]


def test_a_member_of_a_named_import_is_a_name_the_code_takes(tmp_path: Path):
    used = _used(tmp_path, {
        "package.json": '{"dependencies": {"antd": "3.23.1"}}',
        "src/F.tsx": "import { Form } from 'antd'\n\nexport default Form.create<P>()(Login)\n",
    }, "npm", "antd")  # fmt: skip
    assert used["antd:Form"] == "src/F.tsx:1 import"
    assert used["antd:Form.create"] == "src/F.tsx:3 member"


def test_a_declare_module_block_of_a_file_that_imports_the_package_augments_its_names(
    tmp_path: Path,
):
    # stop 51: the block relies on the package's interface; nested members are not names
    used = _used(tmp_path, {
        "src/augment.d.ts": "import 'storekit';\nimport { RootState } from './index';\n\n"
                            "declare module 'storekit' {\n"
                            "  interface DefaultRootState extends RootState {}\n"
                            "  export type Extra = {\n    interface: string;\n  };\n}\n"
                            "declare module 'other' {\n  interface Other {}\n}\n",
        # no import of the package: an ambient module that declares it, augmenting nothing
        "src/ambient.d.ts": "declare module 'storekit' {\n  interface Ambient {}\n}\n",
    }, "npm", "storekit")  # fmt: skip
    assert used == {
        "storekit": "src/augment.d.ts:1 import",
        "storekit:DefaultRootState": "src/augment.d.ts:5 augments",
        "storekit:Extra": "src/augment.d.ts:6 augments",
    }


def test_members_of_what_new_makes_held_in_a_field_of_the_class(tmp_path: Path):
    # stop 54: `this.validator = new Validator()` in a constructor, then
    # `this.validator.isMongoId(v)` in a method: the instance's member, as with a const
    used = _used(tmp_path, {
        "src/pipe.ts": "import { Validator } from 'checkkit';\n"
                       "export class Pipe {\n  protected validator: Validator;\n"
                       "  constructor() {\n    this.validator = new Validator();\n  }\n"
                       "  run(v: string) {\n    return this.validator.isMongoId(v);\n  }\n}\n",
    }, "npm", "checkkit")  # fmt: skip
    assert used["checkkit:new Validator().isMongoId"] == "src/pipe.ts:8 member"


def test_members_a_subclass_reads_on_this_or_super_are_the_base_class_s(tmp_path: Path):
    # stop 54: "classes the code derives from it": `class Cart extends Store` then
    # `this.persist()` reads what `new Store()` makes
    used = _used(tmp_path, {
        "src/cart.ts": "import { Store } from 'storekit';\n"
                       "export class Cart extends Store<Item> {\n  add(i: Item) {\n"
                       "    this.persist(i);\n    return super.load();\n  }\n}\n",
        "src/log.js": "const sk = require('storekit');\nclass Log extends sk.Store {\n"
                      "  write() { this.flush(); }\n}\n",
    }, "npm", "storekit")  # fmt: skip
    assert used["storekit:new Store().persist"] == "src/cart.ts:4 member"
    assert used["storekit:new Store().load"] == "src/cart.ts:5 member"
    assert used["storekit:new Store().flush"] == "src/log.js:3 member"


def test_members_read_through_a_service_that_holds_what_the_package_made(tmp_path: Path):
    # stop 54 (a blind-batch false safe): the service module made the PubSub and hands it on
    # through a getter; the resolver reads `this.pubsubService.pubsub.asyncIterator(…)`
    used = _used(tmp_path, {
        "src/pubsub/pubsub.service.ts": "import { PubSub } from 'subkit';\nconst pubsub = new PubSub();\n"
                                        "export class PubsubService {\n  get pubsub() {\n    return pubsub;\n  }\n}\n",
        "src/subs/subs.resolver.ts": "import { PubsubService } from '../pubsub/pubsub.service';\n"
                                     "export class Subs {\n  constructor(private readonly pubsubService: PubsubService) {}\n"
                                     "  created() {\n    return this.pubsubService.pubsub.asyncIterator('created');\n  }\n}\n",
        "src/jobs/job.ts": "import { Queue } from 'subkit';\nexport class Jobs {\n  readonly queue = new Queue();\n}\n",
        "src/jobs/run.ts": "import { Jobs } from './job';\nconst jobs = new Jobs();\njobs.queue.drain();\n",
        "src/other/svc.ts": "export class PubsubService { pubsub = { asyncIterator() {} } }\n",
        "src/other/use.ts": "import { PubsubService } from './svc';\n"
                            "const s: PubsubService = new PubsubService();\ns.pubsub.asyncIterator();\n",
    }, "npm", "subkit")  # fmt: skip
    assert used["subkit:new PubSub().asyncIterator"] == "src/subs/subs.resolver.ts:5 member"
    assert used["subkit:new Queue().drain"] == "src/jobs/run.ts:3 member"
    # the same class name from a module that holds nothing of the package: no use
    assert not any(
        k.endswith("asyncIterator") and v.startswith("src/other") for k, v in used.items()
    )


def test_a_value_the_package_made_and_a_module_exports_is_followed_to_its_importers(
    tmp_path: Path,
):
    """`export const Rules = struct(…)`, `module.exports = new NextI18Next(…)` and a variable
    exported afterwards: the modules that import those exports hold what the package made
    (one module on), through a relative path or a tsconfig alias."""
    used = _used(tmp_path, {
        "tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["./*"]}}}',
        "src/rules.js": "import { struct } from 'shapes'\nconst Rule = struct({ a: 'string' })\n"
                        "export const Rules = struct([Rule])\n",
        "src/run.js": "import { Rules } from './rules'\nexport function run(r) {\n"
                      "  Rules(r)\n  return Rules.schema\n}\n",
        "i18n/instance.js": "const I18n = require('shapes').default\n"
                            "module.exports = new I18n({ lang: 'cs' })\n",
        "pages/index.jsx": "import { withTranslation } from '@/i18n/instance'\n"
                           "export default withTranslation('common')(() => null)\n",
        "store.js": "const lib = require('shapes')\nconst store = lib.createStore(reducer)\n"
                    "module.exports = { store, other }\n",
        "app.js": "const { store } = require('./store')\nstore.dispatch({ type: 'x' })\n",
        "notes.js": "const Rules = [];\nRules.schema\n",  # its own `Rules`: imports nothing
    }, "npm", "shapes")  # fmt: skip
    assert used["shapes:struct()"] == "src/run.js:1 import"
    assert used["shapes:struct().schema"] == "src/run.js:4 member"
    assert used["shapes:new default().withTranslation"] == "pages/index.jsx:1 import"
    assert used["shapes:createStore().dispatch"] == "app.js:2 member"
    assert not any(v.startswith("notes.js") for v in used.values())
