"""An object a project's module fills under computed keys with what the package made (the
loader of model files: ``db[model.name] = orm.import(file)``) holds the package's objects
under every key it does not write out."""

from __future__ import annotations

from depbot.core.settings import Settings
from depbot.search.code import CodeSearch
from depbot.symbols.facts import SymbolQuery
from depbot.symbols.javascript import assignments, callback_receivers
from depbot.symbols.search import SymbolSearch
from tests.helpers.worlds import write_tree

LOADER = """const Ormkit = require('ormkit');
const db = {};
let orm;
if (process.env.URL) {
  orm = new Ormkit(process.env.URL);
} else {
  orm = new Ormkit('sqlite://');
}
for (const file of files) {
  const model = MODEL;
  db[model.name] = model;
}
db.orm = orm;
db.helpers = require('./helpers');
module.exports = db;
"""
ROUTE = (
    "const models = require('../models');\nmodels.User.findById(1);\nmodels.helpers.findById(2);\n"
)


def _strong(tmp_path, model: str) -> list[int]:
    write_tree(tmp_path, {
        "src/models/index.js": LOADER.replace("MODEL", model),
        "src/models/helpers.js": "module.exports = { findById: (id) => id };\n",
        "src/routes/users.js": ROUTE,
    })  # fmt: skip
    res = SymbolSearch(CodeSearch(tmp_path, Settings())).search(
        SymbolQuery("npm", "ormkit", "findById", "name")
    )
    return [h.line for h in res.hits if h.evidence == "strong"]


def test_a_member_of_an_object_filled_with_what_the_package_made(tmp_path):
    # models.User: ormkit's model; models.helpers: a key the module writes out, the project's
    assert _strong(tmp_path, "orm.import(file)") == [2]


def test_an_object_filled_with_what_something_else_made_is_not_the_packages(tmp_path):
    assert _strong(tmp_path, "loadModel(orm, file)") == []


def test_a_name_declared_bare_takes_what_each_branch_gives_it():
    got, _ = assignments(
        "let orm;\nif (a) {\n  orm = new Ormkit(x);\n} else {\n  orm = new Ormkit(y);\n}\n"
        "let n = 1;\nn = other();\nif (orm == n) {}\n"
    )
    assert got["orm"] == ["chain:Ormkit()", "chain:Ormkit()"]
    assert got["n"] == ["literal:str"]  # declared with a value: later ones are not followed


def test_a_model_file_given_the_orm_passes_the_removed_option_to_it(tmp_path):
    # the model file never imports ormkit: the loader calls its export with the orm. The call
    # is spelled as the notes spell it (`orm.define`), receiver and all; another receiver's
    # `define` is not
    write_tree(tmp_path, {
        "models/user.js": "module.exports = (orm, DataTypes) => orm.define('User', {}, {\n"
                          "  classMethods: { associate() {} },\n});\n",
        "lib/registry.js": "module.exports = (registry) => registry.define('x', {}, {\n"
                           "  classMethods: {},\n});\n",
    })  # fmt: skip
    res = SymbolSearch(CodeSearch(tmp_path, Settings())).search(
        SymbolQuery("npm", "ormkit", "classMethods", "parameter", of="orm.define")
    )
    assert [(h.path, h.evidence) for h in res.hits] == [
        ("models/user.js", "strong"),
        ("lib/registry.js", "weak"),  # the receiver's type unknown: never a use alone
    ]


def test_the_parameter_of_a_callback_given_to_a_package_objects_method(tmp_path):
    # `wss.on('connection', (ws) => …)`: what the package passes its listener is its object;
    # a callback of an iterating method gets list elements, and a parameter that some other
    # function also declares is not known
    assert callback_receivers("wss.on('connection', (ws) => ws.x);", "ws") == ["wss"]
    assert callback_receivers("rows.map((ws) => ws.x);", "ws") == ["?"]
    assert callback_receivers("function handle(ws) {}\nwss.on('c', (ws) => 1);", "ws") == [
        "?",
        "wss",
    ]
    write_tree(tmp_path, {
        "server.js": "const Kit = require('sockkit');\nconst wss = new Kit.Server({});\n"
                     "wss.on('connection', (ws) => {\n  console.log(ws.upgradeReq.url);\n});\n",
        "other.js": "const Kit = require('sockkit');\nconst http = require('http');\n"
                    "http.createServer().on('upgrade', (ws) => ws.upgradeReq);\n",
    })  # fmt: skip
    res = SymbolSearch(CodeSearch(tmp_path, Settings())).search(
        SymbolQuery("npm", "sockkit", "upgradeReq", "name")
    )
    assert [(h.path, h.evidence) for h in res.hits if h.evidence == "strong"] == [
        ("server.js", "strong")
    ]
