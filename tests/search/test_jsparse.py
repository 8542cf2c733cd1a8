"""The tree-sitter JS/TS/TSX parse (``jsparse``) behind the lexical scan and import reading:
the cases a token-level guess gets wrong, syntax errors, and the size cap."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from depbot.search import jsparse
from depbot.search.imports import js_imports
from depbot.search.lexical import scan


def kinds(src: str, needle: str, path: str | None = None) -> list[tuple[int, str]]:
    lex = scan(src, "javascript", path=path)
    out = []
    for ln, line in enumerate(src.split("\n"), 1):
        at = line.find(needle)
        while at != -1:
            out.append((ln, lex.kind_at(ln, at + 1)))
            at = line.find(needle, at + 1)
    return out


@pytest.mark.parametrize("path", ["a.js", "a.ts", "a.tsx", None])
def test_division_is_code_and_regex_literals_are_strings(path):
    src = "x = a / needle / c; y = /needle/g.test(s) / needle;\nreturn /needle/.exec(t);\n"
    assert kinds(src, "needle", path) == [(1, "code"), (1, "string"), (1, "code"), (2, "string")]


@pytest.mark.parametrize("path", ["a.mjs", "a.mts", None])
def test_nested_templates_keep_comment_marks_as_text(path):
    src = "const s = `x ${ `y ${needle}` } /* needle */`; // needle\nneedle();\n"
    assert kinds(src, "needle", path) == [(1, "code"), (1, "string"), (1, "comment"), (2, "code")]


@pytest.mark.parametrize("path", ["view.jsx", "view.js", "view.tsx", None])
def test_jsx_text_is_text_not_a_comment(path):
    src = "const el = <div title='needle'>// needle {needle}</div>; // needle\nneedle();\n"
    assert kinds(src, "needle", path) == [
        (1, "string"),
        (1, "string"),
        (1, "code"),
        (1, "comment"),
        (2, "code"),
    ]


@pytest.mark.parametrize("path", ["a.ts", "a.tsx", None])
def test_typescript_generics_are_not_comparisons_or_regexes(path):
    src = (
        "let m: Array<Map<string, number>> = needle(a < b, c > /needle/);\n"
        "const f = <T,>(x: T): Promise<Array<T>> => needle(x) / 2; // needle\n"
    )
    assert kinds(src, "needle", path) == [(1, "code"), (1, "string"), (2, "code"), (2, "comment")]


def test_typescript_type_assertions_parse_in_ts_files():
    src = "const v = <Foo>needle; const r = a < b ? /needle/ : c; // needle\n"
    assert kinds(src, "needle", "a.ts") == [(1, "code"), (1, "string"), (1, "comment")]


def test_grammar_follows_the_extension():
    assert [jsparse.dialect_for(f"x.{e}") for e in ("js", "cjs", "jsx", "ts", "cts", "tsx")] == [
        "javascript",
        "javascript",
        "javascript",
        "typescript",
        "typescript",
        "tsx",
    ]
    assert jsparse.dialect_for("App.vue") is None and jsparse.dialect_for("x.py") is None
    assert jsparse.parse("let a = 1;", path="a.cts").dialect == "typescript"
    assert jsparse.parse("<template></template>", path="App.vue") is None


def test_syntax_errors_recover_and_never_raise():
    src = (
        "function (( { 'needle' /* needle */ x = \n"
        "if (x {\n  y = 'needle' + needle;\n}}}\n"
        'const s = "needle unterminated\n'
        "needle(); // needle\n"
        "z = `open needle ${a}\nneedle\n"
    )
    tree = jsparse.parse(src, path="broken.js")
    assert tree is not None and tree.has_error
    assert kinds(src, "needle", "broken.js") == [
        (1, "string"),
        (1, "comment"),
        (3, "string"),
        (3, "code"),
        (5, "string"),
        (6, "code"),
        (6, "comment"),
        (7, "string"),  # an unterminated template runs to the end of the file
        (8, "string"),
    ]
    assert [i.specifier for i in js_imports("import { a from 'x';\nrequire('y');\n")] == ["y"]


def test_columns_are_characters_on_non_ascii_lines():
    src = "const é = 'ü'; // ß needle\nconst ñ = `${needle}`;\n"
    assert kinds(src, "needle", "a.js") == [(1, "comment"), (2, "code")]
    (imp,) = js_imports("const ü = 'é'; const x = require('pkg');\n")
    assert (imp.line, imp.col) == (1, 26)


def test_imports_follow_the_tree():
    src = (
        "import type { X } from 'types-only';\n"
        "import { type Y, z } from 'mixed';\n"
        "export type { W } from 'reexported-type';\n"
        "import cfg = require('ts-eq');\n"
        "const q = require('chain').a.b;\n"
        "const { c } = (await import('dyn'));\n"
        "const el = <p>import x from 'in-jsx-text'; require('no')</p>;\n"
        "const t = `${require('in-template-code')}`;\n"
    )
    got = [(i.specifier, i.names, i.style, i.type_only) for i in js_imports(src, path="a.tsx")]
    assert got == [
        ("types-only", {"X": "X"}, "import", True),
        ("mixed", {"Y": "Y", "z": "z"}, "import", False),
        ("reexported-type", {"W": "W"}, "export-from", True),
        ("ts-eq", {"cfg": "*"}, "require", False),
        ("chain", {"q": "a.b"}, "require", False),
        ("dyn", {"c": "c"}, "dynamic-import", False),
        ("in-template-code", {}, "require", False),
    ]


def test_the_callback_of_a_dynamic_imports_then_binds_the_module():
    # `import('m').then(({ a }) => …)` takes `a` from the module as `const { a } = await
    # import('m')` does; a bare parameter is the whole namespace; any other `.then` is not
    src = (
        "import('vitals').then(({ getCLS, onINP: inp }) => { getCLS(f); inp(f) });\n"
        "import('ns').then(function (m) { m.a() });\n"
        "import('typed').then((mod: Mod) => mod.c);\n"
        "import('bare').then(load);\n"
        "import('side-effect');\n"
        "other.then(({ x }) => x);\n"
    )
    got = [(i.specifier, i.names) for i in js_imports(src, path="a.ts")]
    assert got == [
        ("vitals", {"getCLS": "getCLS", "inp": "onINP"}),
        ("ns", {"m": "*"}),
        ("typed", {"mod": "*"}),
        ("bare", {}),
        ("side-effect", {}),
    ]


def test_parsed_tree_api_for_use_sites():
    src = "const app = express();\napp.listen(3000);\n"
    tree = jsparse.parse(src, path="server.js")
    node = tree.node_at(2, 5)
    assert node.type == "property_identifier" and tree.node_text(node) == "listen"
    assert node.parent.type == "member_expression"
    assert tree.position(node.start_byte) == (2, 5)
    call = tree.captures("(call_expression) @call")["call"][1]
    assert tree.enclosing(node, "call_expression") == call
    chained = jsparse.parse("a.b().c[0].d(x);", path="x.ts")
    callees = chained.captures("(call_expression function: (_) @f)")["f"]
    member = max(callees, key=lambda n: n.end_byte - n.start_byte)
    assert chained.chain(member) == ("a", "b", "()", "c", "[]", "d")
    calls = tree.captures("(call_expression) @call")["call"]
    assert [tree.node_text(c) for c in calls] == ["express()", "app.listen(3000)"]
    assert jsparse.parse(src, path="server.js") is tree  # parsed once per text


def test_a_5mb_minified_bundle_is_not_parsed_and_stays_fast(tmp_path: Path):
    unit = "function q(b){return b.map(function(c){return c/2+d[c]||e.f(g,h)},/x[/]y/g)};"
    body = unit * (5_100_000 // len(unit))
    bundle = tmp_path / "vendor.min.js"
    bundle.write_text("var lib=require('left-pad');" + body + "\n// needle\n")
    src = bundle.read_text()
    assert len(src) > 5_000_000 > jsparse.MAX_PARSE_BYTES
    t0 = time.perf_counter()
    assert jsparse.parse(src, path=bundle.name) is None  # over the cap: the regex scan
    lex = scan(src, "javascript", path=bundle.name)
    imports = js_imports(src, path=bundle.name)
    assert time.perf_counter() - t0 < 2.5  # about 0.5 s on an idle machine
    assert lex.kind_at(2, 4) == "comment" and lex.kind_at(1, 30) == "code"
    assert [(i.specifier, i.names) for i in imports] == [("left-pad", {"lib": "*"})]


def test_a_call_with_a_string_is_a_require_only_when_it_calls_require():
    """Once the file has an import, the query's `#eq? @fn "require"` alone let any
    `f('x')` through as an import of package 'x' (tree-sitter 0.26)."""
    text = (
        "import { model, Schema } from 'dockkit';\n"
        "export const Post = model('Post', new Schema({}));\n"
        "const title = t('home.title');\n"
        "const db = require('./db');\n"
    )
    for path in ("m.ts", "m.js"):
        found = [(i.specifier, i.style) for i in js_imports(text, path=path)]
        assert found == [("dockkit", "import"), ("./db", "require")], path
