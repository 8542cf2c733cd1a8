"""The lexical scanner: code, comment or string at a position, per language."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from depbot.search.lexical import (
    LANGUAGES,
    context_at,
    is_config_file,
    language_for,
    scan,
)


def kinds(text: str, language: str, needle: str) -> list[tuple[int, str]]:
    """(line, kind) of every occurrence of ``needle``."""
    lex = scan(text, language)
    out = []
    for ln, line in enumerate(text.split("\n"), 1):
        start = line.find(needle)
        while start != -1:
            out.append((ln, lex.kind_at(ln, start + 1)))
            start = line.find(needle, start + 1)
    return out


def test_language_for_names_and_extensions():
    assert language_for("a/b.py") == "python"
    assert language_for("x.pyi") == "python"
    for ext in ("js", "mjs", "cjs", "jsx", "ts", "tsx", "mts", "cts", "vue"):
        assert language_for(f"src/x.{ext}") == "javascript"
    assert language_for("tsconfig.json") == "json"
    assert language_for(".eslintrc.json") == "json"
    assert language_for(".eslintrc", '{"rules": {}}') == "json"
    assert language_for(".eslintrc", "rules:\n  semi: error\n") == "yaml"
    assert language_for("ci.yml") == "yaml" and language_for("pyproject.toml") == "toml"
    assert language_for("setup.cfg") == "ini" and language_for("tox.ini") == "ini"
    assert language_for("src\\win\\path.py") == "python"
    assert language_for("README.md") is None and language_for("Makefile") is None


def test_config_files_count_as_config():
    for name in (
        ".eslintrc",
        ".eslintrc.js",
        ".eslintrc.json",
        "babel.config.js",
        "babel.config.json",
        "jest.config.ts",
        "setup.cfg",
        "tox.ini",
        "pyproject.toml",
        "sub/.babelrc",
        "config.yaml",
    ):
        assert is_config_file(name), name
    assert not is_config_file("src/app.py") and not is_config_file("src/index.js")


def test_python_comments_strings_docstrings_and_fstrings():
    src = (
        '"""Module doc: yaml.load is unsafe."""\n'
        "import yaml  # yaml.load here\n"
        "x = 'yaml.load' + \"yaml.load\" + f\"{yaml.load}\" + rb'yaml.load'\n"
        "def f():\n"
        "    '''\n"
        "    yaml.load in a docstring\n"
        "    '''\n"
        "    return yaml.load(s)  # ok\n"
        "s = 'it''s' + \"a \\\" yaml.load\" + r'\\\\' yaml.load\n"
    )
    assert kinds(src, "python", "yaml.load") == [
        (1, "string"),
        (2, "comment"),
        (3, "string"),
        (3, "string"),
        (3, "string"),
        (3, "string"),
        (6, "string"),
        (8, "code"),
        (9, "string"),
        (9, "code"),  # r'\\' is a whole raw string: the text after it is code
    ]


def test_python_hash_inside_a_string_is_not_a_comment():
    src = "url = 'http://x/#frag'; call(yaml)  # yaml\n"
    assert kinds(src, "python", "yaml") == [(1, "code"), (1, "comment")]


def test_python_unterminated_string_stops_at_the_line_end():
    src = "x = 'oops\nneedle()\n"
    assert kinds(src, "python", "needle") == [(2, "code")]


def test_javascript_comments_strings_templates_and_regexes():
    src = (
        "#!/usr/bin/env node\n"
        "// pluck in a comment\n"
        "const a = _.pluck(xs, 'id'); /* pluck\n"
        "   still pluck */ const b = 'pluck';\n"
        'const c = "pluck" + `pluck ${_.pluck(ys, `x ${pluck} y`)} pluck`;\n'
        "const r = /pluck\\/[/]x/g.test(s) / pluck;\n"
        "return /pluck/.exec(t);\n"
    )
    assert kinds(src, "javascript", "pluck") == [
        (2, "comment"),
        (3, "code"),
        (3, "comment"),
        (4, "comment"),
        (4, "string"),
        (5, "string"),
        (5, "string"),
        (5, "code"),
        (5, "code"),
        (5, "string"),
        (6, "string"),
        (6, "code"),  # after a division, not a regex
        (7, "string"),
    ]


def test_javascript_template_braces_nest_with_object_literals():
    src = "const s = `a ${ {k: needle}.k } b needle`; needle();\n"
    assert kinds(src, "javascript", "needle") == [(1, "code"), (1, "string"), (1, "code")]


def test_json_strings_and_jsonc_comments():
    src = '{\n  // plugin: needle\n  "extends": ["needle"], /* needle */ "n": 1\n}\n'
    assert kinds(src, "json", "needle") == [(2, "comment"), (3, "string"), (3, "comment")]


def test_yaml_comments_need_whitespace_and_quotes_start_values():
    src = (
        "# needle at top\n"
        "key: value#needle   # needle\n"
        "other: 'needle'\n"
        "plain: don't needle\n"
        'dq: "a # needle"\n'
    )
    assert kinds(src, "yaml", "needle") == [
        (1, "comment"),
        (2, "code"),
        (2, "comment"),
        (3, "string"),
        (4, "code"),
        (5, "string"),
    ]


def test_toml_and_ini():
    toml = 'a = "needle" # needle\nb = """\nneedle\n"""\nneedle = 1\n'
    assert kinds(toml, "toml", "needle") == [
        (1, "string"),
        (1, "comment"),
        (3, "string"),
        (5, "code"),
    ]
    ini = "[tool]\n; needle\n# needle\nkey = needle ; needle\n"
    assert kinds(ini, "ini", "needle") == [
        (2, "comment"),
        (3, "comment"),
        (4, "code"),
        (4, "comment"),
    ]


def test_unknown_language_is_all_code():
    assert context_at("# needle\n", None, 1, 3) == "code"


def test_multiline_spans_are_split_per_line():
    lex = scan("a = '''x\nyy\nz''' + b\n", "python")
    assert lex.spans(1) == [(4, 8, "string")]
    assert lex.spans(2) == [(0, 2, "string")]
    assert lex.spans(3) == [(0, 4, "string")]
    assert lex.kind_at(3, 5) == "code" and lex.kind_at(3, 8) == "code"
    assert lex.kind_at(99, 1) == "code"


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("ab '\"`#/*\\\n{}$;[]=:")), max_size=200),
    st.sampled_from(LANGUAGES),
)
def test_scanner_never_fails_and_answers_one_of_three(text, language):
    lex = scan(text, language)
    lines = text.split("\n")
    for ln, line in enumerate(lines, 1):
        for col in range(1, len(line) + 2):
            assert lex.kind_at(ln, col) in ("code", "comment", "string")
        for start, end, _ in lex.spans(ln):
            assert 0 <= start < end <= len(line)
