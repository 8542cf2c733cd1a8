"""Import parsing (Python and JS/TS), npm specifiers, ES-module detection and the pip
distribution → import name mapping."""

from __future__ import annotations

import pytest

from depbot.ecosystems.pip.importnames import KNOWN_IMPORT_NAMES
from depbot.search.imports import (
    PyImport,
    guess_import_names,
    import_names_for,
    is_esm,
    js_imports,
    module_matches,
    normalize_dist,
    package_of,
    python_imports,
)


def py(text: str) -> list[tuple]:
    return [(i.line, i.module, i.name, i.local, i.style) for i in python_imports(text)]


def test_python_import_forms_and_bound_names():
    src = (
        "import os, yaml as y\n"
        "import os.path\n"
        "import numpy.linalg as la\n"
        "from yaml import load as L, dump\n"
        "from PIL.Image import *\n"
        "from . import sibling\n"
        "from .pkg import thing\n"
        "from google import protobuf as pb\n"
    )
    assert py(src) == [
        (1, "os", None, "os", "import"),
        (1, "yaml", None, "y", "import"),
        (2, "os.path", None, "os", "import"),
        (3, "numpy.linalg", None, "la", "import"),
        (4, "yaml", "load", "L", "from"),
        (4, "yaml", "dump", "dump", "from"),
        (5, "PIL.Image", "*", "*", "from"),
        (8, "google", "protobuf", "pb", "from"),
    ]


def test_python_imports_in_try_except_if_and_functions_are_flagged():
    src = (
        "import yaml\n"
        "try:\n"
        "    import ujson as json\n"
        "except ImportError:\n"
        "    import json\n"
        "if TYPE_CHECKING:\n"
        "    from PIL import Image\n"
        "def load():\n"
        "    import bs4\n"
        "    return bs4\n"
        "mod = importlib.import_module('dateutil.parser')\n"
        "__import__('cv2')\n"
    )
    got = {i.module: i for i in python_imports(src)}
    assert not got["yaml"].conditional
    assert got["ujson"].in_try and got["ujson"].conditional
    assert got["json"].in_except and not got["json"].in_try
    assert got["PIL"].in_if and got["bs4"].in_function
    assert (got["dateutil.parser"].style, got["dateutil.parser"].local) == ("dynamic-import", "mod")
    assert got["cv2"].style == "dynamic-import" and got["cv2"].local is None


def test_python_positions_are_one_based_characters():
    src = "x = 'é'; import yaml\nif x:\n    import PIL\n"
    got = {i.module: (i.line, i.col) for i in python_imports(src)}
    assert got == {"yaml": (1, 10), "PIL": (3, 5)}


def test_python_files_that_do_not_parse_fall_back_to_a_line_scan():
    src = (
        "print 'python 2'\n"
        "import yaml, os.path as osp\n"
        "from PIL import (Image,  # the class\n"
        "    ImageDraw as Draw)\n"
        '"""\n'
        "import not_an_import\n"
        '"""\n'
        "# import commented\n"
        "try:\n"
        "    import simplejson\n"
        "except ImportError:\n"
        "    from . import local\n"
    )
    got = py(src)
    assert got == [
        (2, "yaml", None, "yaml", "import"),
        (2, "os.path", None, "osp", "import"),
        (3, "PIL", "Image", "Image", "from"),
        (3, "PIL", "ImageDraw", "Draw", "from"),
        (10, "simplejson", None, "simplejson", "import"),
    ]
    (simplejson,) = [i for i in python_imports(src) if i.module == "simplejson"]
    assert simplejson.in_try and simplejson.conditional


def test_module_matches_reports_subpath_and_bound_names():
    def one(src: str) -> PyImport:
        return python_imports(src)[0]

    assert module_matches(one("import yaml"), "yaml") == ("", {"yaml": "*"})
    assert module_matches(one("import yaml.constructor"), "yaml") == (
        "constructor",
        {"yaml": "*"},
    )
    assert module_matches(one("import urllib3.util.retry as r"), "urllib3") == (
        "util.retry",
        {"r": "*"},
    )
    assert module_matches(one("from yaml import load as L"), "yaml") == ("", {"L": "load"})
    assert module_matches(one("from bs4 import *"), "bs4") == ("", {"*": "*"})
    assert module_matches(one("from google import protobuf as pb"), "google.protobuf") == (
        "",
        {"pb": "*"},
    )
    assert module_matches(one("from google.protobuf import json_format"), "google.protobuf")
    assert module_matches(one("import yamlx"), "yaml") is None
    assert module_matches(one("from google import auth"), "google.protobuf") is None


def js(text: str) -> list[tuple]:
    return [(i.line, i.specifier, i.package, i.subpath, i.names, i.style) for i in js_imports(text)]


def test_js_import_and_require_forms():
    src = (
        "import x from 'pkg';\n"
        'import * as ns from "@scope/pkg/sub/path";\n'
        "import def, { a as b, type C, d } from 'p2';\n"
        "import {\n  e, // note\n  f as g,\n} from 'multi';\n"
        "import 'side-effect';\n"
        "const { h, i: j, ...rest } = require('cjs-pkg');\n"
        "const k = require('uuid/v4');\n"
        "const l = require('pkg3').member;\n"
        "var m = await import('dyn');\n"
        "import('dyn2').then((x) => x);\n"
        "export * from 're1';\n"
        "export { o as p, default as q } from 're2';\n"
        "export * as r from 're3';\n"
        "import t = require('ts-eq');\n"
        "const {\n  u,\n  v\n} = require('multiline');\n"
        "require('dotenv').config();\n"
        "const rel = require('./local');\n"
        "const fs = require('node:fs');\n"
    )
    assert js(src) == [
        (1, "pkg", "pkg", "", {"x": "default"}, "import"),
        (2, "@scope/pkg/sub/path", "@scope/pkg", "sub/path", {"ns": "*"}, "import"),
        (3, "p2", "p2", "", {"def": "default", "b": "a", "C": "C", "d": "d"}, "import"),
        (4, "multi", "multi", "", {"e": "e", "g": "f"}, "import"),
        (8, "side-effect", "side-effect", "", {}, "import"),
        (9, "cjs-pkg", "cjs-pkg", "", {"h": "h", "j": "i", "rest": "*"}, "require"),
        (10, "uuid/v4", "uuid", "v4", {"k": "*"}, "require"),
        (11, "pkg3", "pkg3", "", {"l": "member"}, "require"),
        (12, "dyn", "dyn", "", {"m": "*"}, "dynamic-import"),
        (13, "dyn2", "dyn2", "", {"x": "*"}, "dynamic-import"),
        (14, "re1", "re1", "", {"*": "*"}, "export-from"),
        (15, "re2", "re2", "", {"p": "o", "q": "default"}, "export-from"),
        (16, "re3", "re3", "", {"r": "*"}, "export-from"),
        (17, "ts-eq", "ts-eq", "", {"t": "*"}, "require"),
        (21, "multiline", "multiline", "", {"u": "u", "v": "v"}, "require"),
        (22, "dotenv", "dotenv", "", {}, "require"),
        (23, "./local", "", "", {"rel": "*"}, "require"),
        (24, "node:fs", "", "", {"fs": "*"}, "require"),
    ]


def test_js_type_only_imports_are_marked():
    (imp,) = js_imports("import type { Options } from '@scope/types';\n")
    assert imp.type_only and imp.names == {"Options": "Options"} and imp.package == "@scope/types"
    (dflt,) = js_imports("import type from 'typed';\n")
    assert not dflt.type_only and dflt.names == {"type": "default"}


def test_js_imports_in_comments_and_strings_are_ignored_without_hiding_real_ones():
    src = (
        "// we import stuff here\n"
        "import real from 'real-pkg';\n"
        "/* const a = require('commented'); */\n"
        "const s = \"require('in-string')\";\n"
        "const t = `import x from 'in-template'`;\n"
        "foo.require('method-not-require');\n"
        "const r = require.resolve('resolved-only');\n"
    )
    assert [i.specifier for i in js_imports(src)] == ["real-pkg"]


def test_js_positions_point_at_the_keyword():
    (imp,) = js_imports("const { v4: uuidv4 } = require('uuid');\n")
    assert (imp.line, imp.col) == (1, 24)
    assert imp.names == {"uuidv4": "v4"}


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("lodash", ("lodash", "")),
        ("lodash/fp/map", ("lodash", "fp/map")),
        ("@babel/core", ("@babel/core", "")),
        ("@babel/core/lib/x.js", ("@babel/core", "lib/x.js")),
        ("./rel", None),
        ("../up", None),
        ("/abs/path", None),
        ("node:fs", None),
        ("https://cdn.example/x.js", None),
        ("@scope", None),
        ("#internal", None),
    ],
)
def test_package_of(spec, expected):
    assert package_of(spec) == expected


def test_is_esm_by_extension_and_package_type():
    assert is_esm("a.mjs", None) is True and is_esm("a.mts", "commonjs") is True
    assert is_esm("a.cjs", "module") is False and is_esm("a.cts", "module") is False
    assert is_esm("src/a.js", "module") is True and is_esm("src/a.js", None) is False
    assert is_esm("src/a.ts", "commonjs") is False and is_esm("src/a.tsx", "module") is True
    assert is_esm("a.py", "module") is None


def test_normalize_dist_is_pep503():
    assert normalize_dist("Foo.Bar__baz-Q") == "foo-bar-baz-q"
    assert normalize_dist("PyYAML") == "pyyaml"


def test_known_dist_to_import_mismatches():
    assert len(KNOWN_IMPORT_NAMES) >= 40
    cases = {
        "PyYAML": ["yaml"],
        "pyyaml": ["yaml"],
        "Pillow": ["PIL"],
        "scikit-learn": ["sklearn"],
        "scikit_image": ["skimage"],
        "beautifulsoup4": ["bs4"],
        "python-dateutil": ["dateutil"],
        "opencv-python-headless": ["cv2"],
        "protobuf": ["google.protobuf"],
        "attrs": ["attr", "attrs"],
        "PyJWT": ["jwt"],
        "psycopg2-binary": ["psycopg2"],
        "python-dotenv": ["dotenv"],
        "pyserial": ["serial"],
        "msgpack-python": ["msgpack"],
        "typing_extensions": ["typing_extensions"],
        "Jinja2": ["jinja2"],
        "MarkupSafe": ["markupsafe"],
        "google-cloud-storage": ["google.cloud.storage"],
        "azure-storage-blob": ["azure.storage.blob"],
    }
    for dist, names in cases.items():
        assert import_names_for(dist) == names, dist


def test_unknown_dists_fall_back_to_installed_metadata_then_guesses():
    installed = {"acme-widgets": ("acmewidgets",), "big-ns": ("google",)}
    assert import_names_for("Acme_Widgets", installed) == ["acmewidgets"]
    # a namespace root alone is too broad to stand for one distribution
    assert "google" not in import_names_for("big-ns", installed)
    # the built-in table wins over whatever this environment has installed
    assert import_names_for("PyYAML", {"pyyaml": ("_yaml", "yaml")}) == ["yaml"]
    assert import_names_for("requests") == ["requests"]
    assert guess_import_names("python-foo") == ["python_foo", "foo"]
    assert guess_import_names("pyfoo-py") == ["pyfoo_py", "pyfoo", "foo"]
    assert guess_import_names("PyQt5")[0] == "PyQt5"
    assert "zope.interface" in guess_import_names("zope.interface")
