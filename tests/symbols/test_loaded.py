"""File-level reach (stop 51): a use in a file whose only loader is commented out (or is such
a file itself) may never run, so it is weak; a file named nowhere, or loaded by convention,
counts as loaded (something this reading does not know may run it)."""

from __future__ import annotations

from depbot.core.settings import Settings
from depbot.search.code import CodeSearch
from depbot.symbols.facts import SymbolQuery
from depbot.symbols.loaded import Loaded
from depbot.symbols.search import SymbolSearch
from tests.helpers.worlds import write_tree

TREE = {
    "package.json": '{"name": "app", "dependencies": {"redux-logger": "1", "imkit": "3"}}\n',
    "client/index.js": "import { make } from './store/createStore';\nmake();\n",
    "client/store/createStore.js": (
        "// import logger from './middleware/logger';  // uncomment to log\n"
        "export const make = () => [/* logger */];\n"
    ),
    "client/store/middleware/logger.js": (
        "import { createLogger } from 'redux-logger';\n"
        "import toPlain from '../../utils/toPlain';\n"
        "export default createLogger({ transform: toPlain });\n"
    ),
    "client/utils/toPlain.js": (
        "import { Iterable } from 'imkit';\n"
        "export default (s) => (Iterable.isIterable(s) ? s.toJS() : s);\n"
    ),
    "client/utils/settings.js": (  # it loads a file of its own: no file left out (stop 54)
        "import { Iterable } from 'imkit';\nimport base from './base';\nexport const on = Iterable;\n"
    ),
    "client/utils/notes.js": "// TODO: write the settings back\nexport const n = 1;\n",
    "client/utils/format.js": "import { Iterable } from 'imkit';\nexport const f = Iterable;\n",
    "client/view.js": "import { f } from './utils/format';\nexport const v = f;\n",
}


def test_a_file_whose_only_loader_is_commented_out_is_unloaded(tmp_path):
    write_tree(tmp_path, TREE)
    loaded = Loaded(CodeSearch(tmp_path, Settings()))
    assert "only comments name it" in (loaded.unloaded("client/store/middleware/logger.js") or "")
    # named only by an unloaded file: unloaded too, saying which
    why = loaded.unloaded("client/utils/toPlain.js")
    assert why is not None and "client/store/middleware/logger.js" in why
    # a plain word in a comment ("the settings") is no commented-out load
    assert loaded.unloaded("client/utils/settings.js") is None
    # named nowhere (a tool or a command may run it), named by live code, or by convention
    assert loaded.unloaded("client/view.js") is None
    assert loaded.unloaded("client/utils/format.js") is None
    assert loaded.unloaded("client/index.js") is None
    assert loaded.unloaded("package.json") is None


def test_a_use_in_an_unloaded_file_is_weak_and_says_why(tmp_path):
    write_tree(tmp_path, TREE)
    search = SymbolSearch(CodeSearch(tmp_path, Settings()))
    r = search.search(SymbolQuery("npm", "imkit", "Iterable", "name"))
    got = {h.path: h.evidence for h in r.hits}
    assert got["client/utils/toPlain.js"] == "weak"
    assert got["client/utils/format.js"] == "strong"
    assert got["client/utils/settings.js"] == "strong"
    weak = next(h for h in r.hits if h.path == "client/utils/toPlain.js")
    assert "which nothing in this checkout loads" in weak.why
    assert weak.context == "code" and "2 of them in files nothing in this checkout loads" in r.note


def test_a_folder_read_whole_loads_its_files(tmp_path):
    write_tree(tmp_path, {
        **TREE,
        "client/store/middleware/index.js": (
            "const fs = require('fs');\n"
            "fs.readdirSync(__dirname).forEach((f) => require('./' + f));\n"
        ),
    })  # fmt: skip
    loaded = Loaded(CodeSearch(tmp_path, Settings()))
    assert loaded.unloaded("client/store/middleware/logger.js") is None
    assert loaded.unloaded("client/utils/toPlain.js") is None


def test_a_file_left_out_of_a_folder_loaded_by_path_is_unloaded(tmp_path):
    # stop 54: webpack.dev.js requires loaders/css-prod.js; loaders/css-dev.js, named nowhere
    # and loading nothing itself, is left out: a use in it may never run
    write_tree(tmp_path, {
        "webpack.dev.js": "const css = require('./build/loaders/css-prod.js');\n"
                          "module.exports = { module: { rules: [css] } };\n",
        "build/loaders/css-prod.js": "module.exports = { use: ['css-loader'] };\n",
        "build/loaders/css-dev.js": "module.exports = { use: [{ loader: 'style-loader' }] };\n",
        "build/loaders/entry.js": "const p = require('./css-prod');\nmodule.exports = p;\n",
        "build/tasks/zip.js": "module.exports = () => 'zip';\n",
        "build/tasks/clean.js": "module.exports = () => 'clean';\n",
    })  # fmt: skip
    loaded = Loaded(CodeSearch(tmp_path, Settings()))
    assert "files beside it are loaded" in (loaded.unloaded("build/loaders/css-dev.js") or "")
    # it loads a file of the checkout: an entry something runs, most likely
    assert loaded.unloaded("build/loaders/entry.js") is None
    # no file of its folder is loaded by path: a command or a tool may run it
    assert loaded.unloaded("build/tasks/zip.js") is None


def test_a_config_folder_s_module_left_out_is_unloaded_too(tmp_path):
    # stop 54: config/webpack/optimization.js, required by nothing since the environment
    # stopped merging it, made a false draft; a config folder is loaded by convention, but
    # its files named nowhere beside files loaded by path are left out all the same
    write_tree(tmp_path, {
        "config/webpack/development.js": "const environment = require('./environment');\n"
                                         "module.exports = environment.toWebpackConfig();\n",
        "config/webpack/environment.js": "module.exports = { toWebpackConfig() { return {}; } };\n",
        "config/webpack/optimization.js": "const T = require('minikit');\n"
                                          "module.exports = { minimizer: [new T({ cache: true })] };\n",
        "config/index.js": "module.exports = { port: 3000 };\n",
    })  # fmt: skip
    loaded = Loaded(CodeSearch(tmp_path, Settings()))
    assert "config folder" in (loaded.unloaded("config/webpack/optimization.js") or "")
    assert loaded.unloaded("config/webpack/development.js") is None  # it loads a sibling
    assert loaded.unloaded("config/webpack/environment.js") is None  # named by one
    assert loaded.unloaded("config/index.js") is None  # an entry name
