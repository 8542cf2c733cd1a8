"""search_symbol reads like a reviewer (#15 §3): shims, config files, behaviour changes,
module paths and methods of objects the package returns."""

from __future__ import annotations

import pytest

from depbot.core.settings import Settings
from depbot.search.code import CodeSearch
from depbot.symbols.facts import SymbolQuery
from depbot.symbols.search import SymbolSearch
from tests.helpers.worlds import write_tree

FILES = {
    "app/compat.py": (
        "try:\n"
        "    from quillkit import render_text\n"
        "except ImportError:\n"
        "    from quillkit import render_plain as render_text\n"
    ),
    "app/versioned.py": (
        "import quillkit\n\n"
        "if quillkit.VERSION < (3, 0):\n"
        "    OUT = quillkit.render_plain('a')\n"
        "else:\n"
        "    OUT = quillkit.render_text('a')\n"
    ),
    "app/feature.py": (
        "import quillkit\n\n"
        "if hasattr(quillkit, 'render_text'):\n"
        "    R = quillkit.render_text\n"
        "else:\n"
        "    R = quillkit.render_plain\n"
    ),
    "app/plain.py": "from quillkit import render_plain\n\nrender_plain('x')\n",
    "app/lonely.py": (
        "try:\n    from quillkit import render_plain\nexcept ImportError:\n    pass\n"
    ),
    "app/blobs.py": (
        "import quillkit\n\n"
        "def size(key):\n"
        "    data = quillkit.read_blob(key)\n"
        "    return len(data)\n"
    ),
    "app/rows.py": (
        "import quillkit\n\nconn = quillkit.connect('db://')\nrows = conn.fetch_all()\n"
    ),
    "app/counters.py": ("from quillkit import Counter\n\nJOBS = Counter('jobs')\nJOBS.bump()\n"),
    "app/consumer.py": (
        "import quillkit\n\n"
        "a = quillkit.consume(url, 'emails', prefetch=10)\n"
        "b = quillkit.consume(url, 'reports', visibility_timeout=60)\n"
        "c = quillkit.consume(url, 600)\n"
    ),
    "app/subs.py": "from quillkit import legacy\nimport quillkit.legacy.forms\n",
    "web/shim.js": (
        "const q = require('quillkit');\n"
        "const out = typeof q.renderText === 'function' ? q.renderText(s) : q.renderPlain(s);\n"
        "if (typeof q.renderText === 'function') {\n"
        "  q.renderText('a');\n"
        "} else {\n"
        "  q.renderPlain('a');\n"
        "}\n"
        "q.renderPlain('b');\n"
        "q.renderText = q.renderText || q.renderPlain;\n"
    ),
    "web/mkdir.js": (
        "const quillkit = require('quillkit');\n"
        "quillkit(dir, () => done());\n"
        "async function make() {\n  await quillkit(dir);\n}\n"
    ),
    "app/follow.py": (  # #29: imports nothing of the package; an ORM relationship's method
        "class User:\n"
        "    def follow(self, other):\n"
        "        return self.following.fetch_page(other, 20, False)\n"
    ),
    "app/pages.py": (
        "from app.models import Post\n\n"
        "def index(page):\n"
        "    a = Post.query.order_by(Post.id).fetch_page(page, 20, False)\n"
        "    b = Post.query.order_by(Post.id).fetch_page(page=page, per_page=20)\n"
        "    c = 'text'.fetch_page(1, 2)\n"
        "    return a, b, c\n"
    ),
    "shop/store.py": "import quillkit\n\nstore = quillkit.Store()\n",
    "shop/models.py": "from shop.store import store\n\n\nclass Item(Base, store.Model):\n    pass\n",
    "shop/views.py": (
        "from shop.models import Item\n\n"
        "rows = Item.query.order_by(Item.id).fetch_page(2, 20, False)\n"
        "ok = Item.query.fetch_page(page=2)\n"
    ),
    "app/cli.py": (
        "import quillkit\n\n"
        "@quillkit.option('--ns', autocompletion=complete_ns, timeout=3)\n"
        "def main(ns):\n"
        "    pass\n"
    ),
    "setup.cfg": "[metadata]\nname = demo\n\n[tool:quillkit]\nline_width = 80\n",
    "other/setup.cfg": "[flake8]\nmax-line-length = 100\n",
    "pyproject.toml": ("[tool.black]\nline_width = 88\n\n[tool.quillkit]\nline_width = 72\n"),
    ".quillrc": '{"theme": "dark"}\n',
    "requirements.txt": "quillkit==2.4.0\n",
    "package.json": '{"dependencies": {"quillkit": "^2.4.0"}}\n',
}


@pytest.fixture(scope="module")
def symbols(tmp_path_factory):
    root = tmp_path_factory.mktemp("reviewer")
    write_tree(root, FILES)
    return SymbolSearch(CodeSearch(root, Settings()))


def places(result, evidence="strong"):
    return {(h.path, h.line) for h in result.hits if h.evidence == evidence}


def test_python_compat_shims_are_set_aside_with_the_reason(symbols):
    res = symbols.search(SymbolQuery("pip", "quillkit", "render_plain"))
    assert places(res) == {("app/plain.py", 1), ("app/plain.py", 3), ("app/lonely.py", 2)}
    reasons = " ".join(res.excluded)
    assert "except ImportError" in reasons
    assert "version check" in reasons


def test_js_feature_checks_are_set_aside(symbols):
    res = symbols.search(SymbolQuery("npm", "quillkit", "renderPlain"))
    assert places(res) == {("web/shim.js", 8)}
    assert any("feature check" in r for r in res.excluded)
    assert any("the fallback of q.renderText" in r for r in res.excluded)  # line 9
    kept = symbols.search(SymbolQuery("npm", "quillkit", "renderText"))
    assert ("web/shim.js", 9) in places(kept)  # the name kept is a use


def test_a_dropped_config_file_is_a_use(symbols):
    res = symbols.search(SymbolQuery("pip", "quillkit", ".quillrc", kind="config_file"))
    assert places(res) == {(".quillrc", 1)}
    shared = symbols.search(SymbolQuery("pip", "quillkit", "setup.cfg", kind="config_file"))
    assert places(shared) == {("setup.cfg", 4)}  # the [tool:quillkit] section, not [flake8]


def test_a_key_of_a_shared_config_file_counts_only_in_the_packages_section(symbols):
    res = symbols.search(
        SymbolQuery("pip", "quillkit", "line_width", kind="config_key", of="pyproject.toml")
    )
    assert places(res) == {("pyproject.toml", 5)}


def test_behaviour_change_makes_calls_uses_to_verify(symbols):
    res = symbols.search(SymbolQuery("pip", "quillkit", "read_blob", kind="behaviour"))
    assert places(res) == {("app/blobs.py", 4)}
    assert "verify" in res.hits[0].why


def test_module_path_matches_every_import_form(symbols):
    res = symbols.search(SymbolQuery("pip", "quillkit", "quillkit.legacy", kind="module_path"))
    assert places(res) == {("app/subs.py", 1), ("app/subs.py", 2)}


def test_method_of_an_object_the_package_returns(symbols):
    res = symbols.search(SymbolQuery("pip", "quillkit", "Client.fetch_all"))
    assert places(res) == {("app/rows.py", 4)}


def test_a_class_the_package_exports_is_not_the_standard_librarys_namesake(symbols):
    res = symbols.search(SymbolQuery("pip", "quillkit", "Counter.bump"))
    assert places(res) == {("app/counters.py", 4)}


def test_a_required_argument_left_out_among_keywords(symbols):
    res = symbols.search(
        SymbolQuery("pip", "quillkit", "consume", kind="required_arg", arg="visibility_timeout")
    )
    assert places(res) == {("app/consumer.py", 3)}  # c may pass it positionally


def test_the_package_itself_turned_promise_based_its_unawaited_calls_are_uses(symbols):
    res = symbols.search(SymbolQuery("npm", "quillkit", "quillkit", kind="async"))
    assert places(res) == {("web/mkdir.js", 2)}  # the awaited call on line 5 is fine


def test_a_call_with_the_broken_shape_on_an_untyped_receiver_is_weak_evidence(symbols):
    """`Query.fetch_page` takes keywords only now: `x.fetch_page(page, 20, False)` on an object
    the code does not type has the broken shape (weak); the keyword call and a plain value's
    method do not."""
    res = symbols.search(
        SymbolQuery("pip", "quillkit", "Query.fetch_page", kind="positional", max_positional=1)
    )
    assert places(res, "weak") == {("app/pages.py", 4)}
    assert ("app/pages.py", 4) not in places(res)
    (weak,) = [h for h in res.hits if h.evidence == "weak"]
    assert "called the way Query.fetch_page no longer allows" in weak.why


def test_the_broken_shape_where_no_path_leads_from_the_package_is_no_evidence(symbols):
    """#29: `self.following.fetch_page(other, 20, False)` in a file that imports nothing of the
    package, on a receiver that comes from nowhere in the project: before, weak evidence (an
    ORM's `.add` counted against a web framework's `Headers.add` and left updates unknown)."""
    res = symbols.search(
        SymbolQuery("pip", "quillkit", "Query.fetch_page", kind="positional", max_positional=1)
    )
    assert ("app/follow.py", 3) not in places(res) | places(res, "weak")


def test_a_class_based_on_a_package_object_makes_package_objects_two_modules_away(symbols):
    """`class Item(store.Model)` where `store = quillkit.Store()`: `Item.query...fetch_page(2,
    20, False)` in a third module is a call on the package's objects with the broken shape."""
    res = symbols.search(
        SymbolQuery("pip", "quillkit", "Query.fetch_page", kind="positional", max_positional=1)
    )
    assert ("shop/views.py", 3) in places(res)
    assert ("shop/views.py", 4) not in places(res) | places(res, "weak")  # by keyword: fine


def test_a_rare_parameter_given_to_another_function_of_the_package_is_a_use(symbols):
    """Notes name one owner of a parameter its siblings share ("`autocompletion` parameter to
    `Command`") while the code passes it to `option()`: a name that rare, passed to the
    package's own function, is the same parameter; a common one (`timeout`) is not."""
    rare = symbols.search(
        SymbolQuery("pip", "quillkit", "autocompletion", kind="parameter", of="Command")
    )
    assert places(rare) == {("app/cli.py", 3)}
    assert "the notes name it on Command" in rare.hits[0].why
    common = symbols.search(
        SymbolQuery("pip", "quillkit", "timeout", kind="parameter", of="Command")
    )
    assert ("app/cli.py", 3) not in places(common) | places(common, "weak")
