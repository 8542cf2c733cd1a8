"""A Python parameter is followed to the calls of its function (#27, TAPIR's value flow into
parameters): in this module and in the modules that import the function by name, across an
application kept in a folder of the checkout (``final/catalog/...``)."""

from __future__ import annotations

from depbot.core.settings import Settings
from depbot.search.code import CodeSearch
from depbot.symbols.facts import SymbolQuery
from depbot.symbols.search import SymbolSearch
from tests.helpers.worlds import write_tree

DECORATOR = (
    "def parse_with(schema):\n"
    "    def deco(view):\n"
    "        def wrapper(**kw):\n"
    "            data, errors = schema.load({})\n"
    "            return view(data)\n"
    "        return wrapper\n"
    "    return deco\n"
)
QUERY = SymbolQuery("pip", "formschema", "Schema.load", "behaviour")


def _hits(root):
    r = SymbolSearch(CodeSearch(root, Settings())).search(QUERY)
    return [(h.path, h.line, h.evidence) for h in r.hits]


def test_a_parameter_passed_a_subclass_instance_from_another_module_is_the_package_s(tmp_path):
    write_tree(tmp_path, {
        "final/catalog/__init__.py": "",
        "final/catalog/schemas.py": "from formschema import Schema\n\n"
                                    "class Base(Schema):\n    pass\n\n"
                                    "class ItemSchema(Base):\n    pass\n",
        "final/catalog/utils.py": DECORATOR,
        "final/catalog/views.py": "from catalog.schemas import ItemSchema\n"
                                  "from catalog.utils import parse_with\n\n"
                                  "@parse_with(ItemSchema())\n"
                                  "def create(data):\n    return data\n",
    })  # fmt: skip
    assert _hits(tmp_path) == [("final/catalog/utils.py", 4, "strong")]


def test_a_parameter_only_ever_passed_the_project_s_own_object_is_not(tmp_path):
    write_tree(tmp_path, {
        "app/schemas.py": "from formschema import Schema\n\nclass ItemSchema(Schema):\n    pass\n",
        "app/legacy.py": "class Parser:\n    def load(self, d):\n        return d, {}\n",
        "app/utils.py": DECORATOR,
        "app/views.py": "from app.legacy import Parser\nfrom app.utils import parse_with\n\n"
                        "@parse_with(Parser())\ndef create(data):\n    return data\n",
    })  # fmt: skip
    assert _hits(tmp_path) == []


def test_the_keyword_a_call_passes_it_by_counts_too(tmp_path):
    write_tree(tmp_path, {
        "app/schemas.py": "from formschema import Schema\n\nclass ItemSchema(Schema):\n    pass\n",
        "app/utils.py": DECORATOR,
        "app/views.py": "from app.schemas import ItemSchema\nfrom app.utils import parse_with\n\n"
                        "deco = parse_with(schema=ItemSchema())\n",
    })  # fmt: skip
    assert _hits(tmp_path) == [("app/utils.py", 4, "strong")]
