"""search_symbol on a fixture checkout: receivers, aliases, call shapes and import kinds."""

from __future__ import annotations

import json

import pytest

from depbot.core.settings import Settings
from depbot.search.code import CodeSearch
from depbot.symbols.facts import SymbolQuery
from depbot.symbols.search import SymbolSearch
from tests.helpers.worlds import write_tree

FILES = {
    # --- Python -------------------------------------------------------------------------------
    "py/frames.py": (
        "import pandas as pd\n\n\n"
        "def collect(paths):\n"
        "    frames = []\n"
        "    for p in paths:\n"
        "        frames.append(pd.read_csv(p))\n"
        "    df = pd.read_csv(paths[0])  # DataFrame.append used to be here\n"
        "    df = df.append(frames[0])\n"
        "    df.to_csv('out.csv', line_terminator='\\n')\n"
        "    return df.sort_values('a', False)\n"
    ),
    "py/arrays.py": "import numpy as np\n\nX = np.float_(1.0)\nY = np.float64(2.0)\n",
    "py/db.py": (
        "from sqlalchemy import create_engine\n\n"
        "engine = create_engine('sqlite://')\n"
        "engine.execute('select 1')\n"
        "conn = engine.connect()\n"
        "conn.execute('select 2')\n"
    ),
    "py/images.py": "from PIL import Image\n\n\ndef thumb(img):\n    return img.resize((8, 8), Image.ANTIALIAS)\n",
    "py/loader.py": (
        "import yaml\n\n"
        "def load(stream):\n"
        "    a = yaml.load(stream)\n"
        "    b = yaml.load(stream, Loader=yaml.SafeLoader)\n"
        "    c = yaml.load_all(stream)\n"
        "    return a, b, c\n"
    ),
    "py/jsonuse.py": "import json\nfrom flask import json as fjson\n\nA = json.JSONEncoder\nB = fjson.JSONEncoder\n",
    "py/aio.py": (
        "from pkgasync import fetch\n\n"
        "async def go():\n"
        "    ok = await fetch('a')\n"
        "    bad = fetch('b')\n"
        "    return ok, bad\n"
    ),
    "py/settings.py": "MAX_RETRIES = 3  # read by pkgconf\nimport pkgconf\n",
    "py/submods.py": "from cachetools.ttl import TTLCache\nfrom cachetools import LRUCache\n",
    # --- JavaScript ---------------------------------------------------------------------------
    "package.json": '{"name": "fixture", "version": "1.0.0"}\n',
    "js/fetcher.js": (
        "'use strict';\n"
        "const fetch = require('node-fetch');\n"
        "async function get(url) {\n"
        "  return fetch(url, { headers: {}, timeout: 5000 });\n"
        "}\n"
        "module.exports = { get };\n"
    ),
    "js/esm/package.json": '{"type": "module"}\n',
    "js/esm/fetcher.js": "import fetch from 'node-fetch';\nexport const go = (u) => fetch(u, { timeout: 1 });\n",
    "js/routes.js": (
        "const express = require('express');\n"
        "const router = express.Router();\n"
        "router.param('id', (req, res, next, id) => next());\n"
        "router.get('/:id', (req, res) => {\n"
        "  const id = req.param('id');\n"
        "  res.send('ok');\n"
        "  res.send(404, 'missing');\n"
        "  res.redirect('back');\n"
        "  const list = [];\n"
        "  list.push(id);\n"
        "});\n"
    ),
    "js/ids.js": "const uuidv4 = require('uuid/v4');\nconst { v1 } = require('uuid');\nmodule.exports = () => uuidv4();\n",
    "js/lo.js": "const _ = require('lodash');\nmodule.exports = (xs) => _.pluck(xs, 'id');\n",
    "js/other.js": "// _.pluck is gone\nconst s = '_.pluck';\nconst _ = require('underscore');\n_.pluck([], 'x');\n",
}


@pytest.fixture(scope="module")
def symbols(tmp_path_factory):
    root = tmp_path_factory.mktemp("checkout")
    write_tree(root, FILES)
    return SymbolSearch(CodeSearch(root, Settings()))


def found(result, evidence="strong"):
    return sorted({(h.path, h.line) for h in result.hits if h.evidence == evidence})


def test_list_append_is_not_dataframe_append(symbols):
    r = symbols.search(SymbolQuery("pip", "pandas", "DataFrame.append"))
    assert found(r) == [("py/frames.py", 9)]  # df.append on a frame made by pandas
    assert r.excluded.get("receiver is a plain value (list, dict, string)") == 1
    assert r.excluded.get("in comments") == 1


def test_alias_qualifier(symbols):
    r = symbols.search(SymbolQuery("pip", "numpy", "np.float_"))
    assert found(r) == [("py/arrays.py", 3)]


def test_engine_execute_is_not_conn_execute(symbols):
    r = symbols.search(SymbolQuery("pip", "SQLAlchemy", "Engine.execute"))
    assert found(r) == [("py/db.py", 4)]
    assert found(r, "weak") == [("py/db.py", 6)]


def test_dist_name_differs_from_import_name(symbols):
    r = symbols.search(SymbolQuery("pip", "Pillow", "Image.ANTIALIAS"))
    assert found(r) == [("py/images.py", 5)]


def test_required_argument(symbols):
    r = symbols.search(SymbolQuery("pip", "PyYAML", "yaml.load", kind="required_arg", arg="Loader"))
    assert found(r) == [("py/loader.py", 4)]


def test_keyword_parameter_and_positional(symbols):
    r = symbols.search(
        SymbolQuery("pip", "pandas", "line_terminator", kind="parameter", of="to_csv")
    )
    assert found(r) == [("py/frames.py", 10)]
    r = symbols.search(
        SymbolQuery("pip", "pandas", "sort_values", kind="positional", max_positional=1)
    )
    assert found(r) == [("py/frames.py", 11)]


def test_stdlib_json_is_not_flask_json(symbols):
    r = symbols.search(SymbolQuery("pip", "Flask", "json.JSONEncoder"))
    assert found(r) == [("py/jsonuse.py", 5)]
    assert r.excluded.get("belongs to another module") == 1


def test_not_awaited_calls(symbols):
    r = symbols.search(SymbolQuery("pip", "pkgasync", "fetch", kind="async"))
    assert found(r) == [("py/aio.py", 5)]


def test_config_key_counts_code_and_strings(symbols):
    r = symbols.search(SymbolQuery("pip", "pkgconf", "MAX_RETRIES", kind="config_key"))
    assert ("py/settings.py", 1) in found(r)


def test_removed_submodule(symbols):
    r = symbols.search(SymbolQuery("pip", "cachetools", "cachetools.ttl", kind="module_path"))
    assert found(r) == [("py/submods.py", 1)]


def test_esm_only_package_breaks_commonjs_require_only(symbols):
    r = symbols.search(SymbolQuery("npm", "node-fetch", "node-fetch", kind="module"))
    assert found(r) == [("js/fetcher.js", 2)]


def test_js_option_parameter(symbols):
    r = symbols.search(SymbolQuery("npm", "node-fetch", "timeout", kind="parameter"))
    assert found(r) == [("js/esm/fetcher.js", 2), ("js/fetcher.js", 4)]


def test_conventional_receiver_names(symbols):
    r = symbols.search(SymbolQuery("npm", "express", "req.param"))
    assert found(r) == [("js/routes.js", 5)]
    r = symbols.search(SymbolQuery("npm", "express", "app.param(fn)", kind="signature"))
    assert found(r) == []


def test_call_signatures_and_literals(symbols):
    r = symbols.search(SymbolQuery("npm", "express", "res.send(status, body)", kind="signature"))
    assert found(r) == [("js/routes.js", 7)]
    r = symbols.search(SymbolQuery("npm", "express", "res.send(status)", kind="signature"))
    assert found(r) == []  # res.send('ok') passes a string, not a status
    r = symbols.search(
        SymbolQuery("npm", "express", "res.redirect", kind="literal_arg", arg="back")
    )
    assert found(r) == [("js/routes.js", 8)]


def test_subpath_entry_points(symbols):
    r = symbols.search(SymbolQuery("npm", "uuid", "uuid/v4", kind="subpath"))
    assert found(r) == [("js/ids.js", 1)]


def test_deep_imports_of_the_whole_package(tmp_path):
    # "remove deep requires": every `pkg/…` import, never the root's
    write_tree(tmp_path, {
        "a.js": "const v4 = require('idgen/v4');\n",
        "b.mjs": "import { v1 } from 'idgen';\n",
        "c.js": "const gen = require('idgen/lib/rng.js');\n",
    })  # fmt: skip
    s = SymbolSearch(CodeSearch(tmp_path, Settings()))
    r = s.search(SymbolQuery("npm", "idgen", "idgen", kind="subpath"))
    assert found(r) == [("a.js", 1), ("c.js", 1)]


def test_alias_of_another_package_does_not_count(symbols):
    r = symbols.search(SymbolQuery("npm", "lodash", "_.pluck"))
    assert found(r) == [("js/lo.js", 2)]
    assert r.excluded.get("belongs to another module") == 1
    assert r.excluded.get("in comments") == 1


def test_constructor_parameters_are_searched_on_the_class(tmp_path):
    write_tree(
        tmp_path, {"app.py": "from pkgx import Client\n\nc = Client(retries=3)\nd = Client()\n"}
    )
    s = SymbolSearch(CodeSearch(tmp_path, Settings()))
    r = s.search(SymbolQuery("pip", "pkgx", "retries", kind="parameter", of="Client.__init__"))
    assert found(r) == [("app.py", 3)]


def test_an_object_the_checkouts_own_module_made_from_the_package_is_the_packages(tmp_path):
    write_tree(tmp_path, {
        "api/app.py": "from webkit import App\n\napp = App(__name__)\n",
        "api/run.py": "from app import app\n\n@app.before_first\ndef setup():\n    pass\n",
        "api/other.py": "from helpers import app\n\n@app.before_first\ndef x():\n    pass\n",
        "api/helpers.py": "app = object()\n",
        "web/main.py": "from .site import app\n\napp.before_first(print)\n",
        "web/__init__.py": "",
        "web/site.py": "import webkit\n\napp = webkit.App('x')\n",
    })  # fmt: skip
    s = SymbolSearch(CodeSearch(tmp_path, Settings()))
    r = s.search(SymbolQuery("pip", "webkit", "app.before_first"))
    # one hop through api/app.py and web/site.py; api/helpers.py made its own object
    assert found(r) == [("api/run.py", 3), ("web/main.py", 3)]


def test_an_option_in_the_packages_section_of_a_config_object_is_a_use(tmp_path):
    write_tree(tmp_path, {
        "conf/web.dev.js": "const Mix = require('confmix');\n\nmodule.exports = Mix(base, {\n"
                           "  devHost: {\n    rootDir: 'www', // the (static) root\n"
                           "    'live': { quietLog: true },\n  },\n"
                           "  output: { rootDir: 'out' },\n});\n",
        "conf/other.js": "module.exports = { rootDir: 'x', quietLog: false };\n",
    })  # fmt: skip
    s = SymbolSearch(CodeSearch(tmp_path, Settings()))
    for kind in ("name", "parameter", "config_key"):
        assert found(s.search(SymbolQuery("npm", "bundler-dev-host", "rootDir", kind=kind))) == [
            ("conf/web.dev.js", 5)
        ], kind
    assert found(
        s.search(SymbolQuery("npm", "bundler-dev-host", "quietLog", kind="parameter"))
    ) == [("conf/web.dev.js", 6)]
    # a single trailing word is no section name: `host: {…}` is not bundler-dev-host's
    assert found(s.search(SymbolQuery("npm", "bundler-host", "rootDir"))) == []


def test_a_property_after_a_line_comment_is_still_a_property(tmp_path):
    write_tree(tmp_path, {
        "conf/web.dev.js": "module.exports = {\n  devHost: {\n    port: 9000, // don't (ever) change\n"
                           "    quietLog: false,\n  },\n};\n",
        "conf/run.js": "const a = 'x'; // quietLog\nquietLog();\n",
    })  # fmt: skip
    s = SymbolSearch(CodeSearch(tmp_path, Settings()))
    assert found(s.search(SymbolQuery("npm", "bundler-dev-host", "quietLog"))) == [
        ("conf/web.dev.js", 4)
    ]


def test_an_option_key_passed_to_the_packages_call_is_a_use_not_set_aside(tmp_path):
    write_tree(tmp_path, {
        "src/db.js": "const mongo = require('dbkit');\n"
                     "mongo.connect(uri, { keepAliveLegacy: true, poolsize: 4 });\n"
                     "other.setup({ keepAliveLegacy: true, poolsize: 4 });\n"
                     "const plain = { keepAliveLegacy: 1, poolsize: 4 };\n",
    })  # fmt: skip
    search = SymbolSearch(CodeSearch(tmp_path, Settings()))
    # a name that rare, in the object passed to the package's own call: strong
    rare = search.search(SymbolQuery("npm", "dbkit", "keepAliveLegacy"))
    assert [(h.path, h.line, h.evidence) for h in rare.hits] == [("src/db.js", 2, "strong")]
    # a plain word there may be another option of the same name: weak, not set aside
    plain = search.search(SymbolQuery("npm", "dbkit", "poolsize"))
    weak = [(h.path, h.line, h.why) for h in plain.hits if h.evidence == "weak"]
    assert weak == [("src/db.js", 2, "may be a use: the poolsize key of an object "
                                     "passed to mongo.connect, a call of dbkit")]  # fmt: skip
    assert found(plain) == []  # other.setup's and a plain object's keys stay set aside


def test_a_prop_of_the_packages_jsx_component_is_its_option(tmp_path):
    write_tree(tmp_path, {
        "app.tsx": "import { Presence } from 'motionkit';\nimport { Fade } from './fade';\n"
                   "export const A = () => (\n  <Presence\n    exitFirst\n  >\n"
                   "    <Fade exitFirst />\n    <div exitFirst={1} />\n  </Presence>\n);\n",
        "fade.tsx": "export const Fade = (p: { exitFirst?: boolean }) => null;\n",
    })  # fmt: skip
    s = SymbolSearch(CodeSearch(tmp_path, Settings()))
    r = s.search(SymbolQuery("npm", "motionkit", "exitFirst"))
    assert [(h.path, h.line, h.evidence) for h in r.hits] == [("app.tsx", 5, "strong")]


def test_an_option_given_to_an_inline_require_call_lines_below_it(tmp_path):
    write_tree(tmp_path, {
        "build.js": "require('bundlekit').build({\n  outfile: 'x.js',\n  watch: { onRebuild() {} },\n})\n",
        "other.js": "const w = require('./w');\nw.start({ watch: true });\n",
    })  # fmt: skip
    s = SymbolSearch(CodeSearch(tmp_path, Settings()))
    r = s.search(SymbolQuery("npm", "bundlekit", "watch", kind="parameter"))
    assert [(h.path, h.line) for h in r.hits] == [("build.js", 3)]


def test_imports_of_another_package_the_notes_drop(tmp_path):
    write_tree(tmp_path, {
        "a.js": "const kit = require('@kit/node');\nconst { getHub } = require('@kit/hub');\n",
        "b.ts": "import type { Hub } from '@kit/hub';\n",
    })  # fmt: skip
    s = SymbolSearch(CodeSearch(tmp_path, Settings()))
    r = s.search(SymbolQuery("npm", "@kit/node", "@kit/hub", kind="other_package"))
    assert [(h.path, h.line, h.evidence) for h in r.hits] == [("a.js", 2, "strong")]
    none = s.search(SymbolQuery("npm", "@kit/node", "kit-upload", kind="other_package"))
    assert none.hits == [] and "no import of kit-upload" in none.note


def test_the_installed_version_of_a_package_the_release_needs_newer(tmp_path):
    lock = {
        "lockfileVersion": 2,
        "packages": {"": {"name": "a"}, "node_modules/graphql": {"version": "14.7.0"}},
    }
    write_tree(tmp_path, {
        "package.json": '{"name": "a", "dependencies": {"gqlserver": "^2.16.1", "graphql": "^14.7.0"}}\n',
        "package-lock.json": json.dumps(lock),
        "web/package.json": '{"name": "web", "dependencies": {"graphql": "^15.5.0"}}\n',
        "server.js": "const { ApolloServer } = require('gqlserver');\n",
        "types.ts": "import type { Config } from 'gqlserver';\n",
    })  # fmt: skip
    s = SymbolSearch(CodeSearch(tmp_path, Settings()))
    r = s.search(SymbolQuery("npm", "gqlserver", "graphql", kind="version_floor", arg="15.3.0"))
    # the manifest below the floor, and where the code loads the release that needs more
    assert [(h.path, h.evidence) for h in r.hits] == [("package.json", "strong"),
                                                      ("server.js", "strong")]  # fmt: skip
    assert "14.7.0" in r.hits[0].why and "needs graphql 15.3.0" in r.hits[1].why
    # nothing imports the release (its require commented out): the old graphql is one to
    # check, never a break on its own
    (tmp_path / "server.js").write_text("// const { ApolloServer } = require('gqlserver');\n")
    s = SymbolSearch(CodeSearch(tmp_path, Settings()))
    r = s.search(SymbolQuery("npm", "gqlserver", "graphql", kind="version_floor", arg="15.3.0"))
    assert [(h.path, h.evidence) for h in r.hits] == [("package.json", "weak")]
    assert r.hits[0].why.startswith("may be a use") and "imports gqlserver" in r.hits[0].why
    none = s.search(SymbolQuery("npm", "gqlserver", "react", kind="version_floor", arg="16.8"))
    assert none.hits == [] and "neither declares nor imports react" in none.note


def test_an_installed_version_that_cannot_be_told_is_no_answer(tmp_path):
    from depbot.core.errors import ToolError

    write_tree(tmp_path, {
        "package.json": '{"name": "a", "dependencies": {"react": "latest"}}\n',
        "b/package.json": '{"name": "b", "dependencies": {"left": "^1.0.0"}}\n',
        "b/x.js": "const g = require('graphql');\n",
    })  # fmt: skip
    s = SymbolSearch(CodeSearch(tmp_path, Settings()))
    with pytest.raises(ToolError, match="react is 16.8 or newer cannot be told"):
        s.search(SymbolQuery("npm", "tidy", "react", kind="version_floor", arg="16.8"))
    with pytest.raises(ToolError, match="which no manifest declares"):
        s.search(SymbolQuery("npm", "tidy", "graphql", kind="version_floor", arg="15.3.0"))


def test_a_package_no_manifest_declares_is_read_in_the_lock_that_another_package_brings(tmp_path):
    # the plugin now needs bundler 5; the app declares no bundler, its toolkit brings one: a
    # lock that installs bundler 4 leaves it untold (never safe), one with bundler 5 meets it
    lock = {
        "lockfileVersion": 2,
        "packages": {"": {"name": "a"}, "node_modules/bundler": {"version": "4.46.0"},
                     "node_modules/kit-scripts": {"version": "4.0.3"}},
    }  # fmt: skip
    write_tree(tmp_path, {
        "package.json": '{"name": "a", "devDependencies": {"kit-scripts": "4.0.3", "plug": "^4"}}\n',
        "package-lock.json": json.dumps(lock),
    })  # fmt: skip
    from depbot.core.errors import ToolError

    s = SymbolSearch(CodeSearch(tmp_path, Settings()))
    with pytest.raises(ToolError, match="installs bundler 4.46.0, which another package brings"):
        s.search(SymbolQuery("npm", "plug", "bundler", kind="version_floor", arg="5"))
    lock["packages"]["node_modules/bundler"]["version"] = "5.1.0"
    (tmp_path / "package-lock.json").write_text(json.dumps(lock))
    s = SymbolSearch(CodeSearch(tmp_path, Settings()))
    met = s.search(SymbolQuery("npm", "plug", "bundler", kind="version_floor", arg="5"))
    assert met.hits == [] and "meets 5" in met.note
