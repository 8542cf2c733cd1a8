"""``required_option``: calls of the package's function whose options object lacks an option
the new release requires. A literal without it is strong; a variable or a spread may hold it."""

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
