"""CodeSearch on a fixture checkout with every scope rule: ignore files, vendored and
virtual-environment directories, minified and binary files, symlinks out of the checkout,
secret files, comments and strings, imports under other names, ESM and CommonJS."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from depbot.core.errors import ConfigError, InputError, ToolError
from depbot.core.settings import Settings
from depbot.search.code import CodeSearch
from depbot.search.import_sites import where_imported
from depbot.search.rg import Ripgrep

NEEDLE = "frobnicate"


def write(path: Path, content: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")


# files that must be found, and those that must never be
IN_SCOPE = {
    "src/app.py",
    "src/app.js",
    "src/deep/env/settings.py",  # a dir named env without pyvenv.cfg is ordinary code
    ".eslintrc.json",
    ".github/workflows/ci.yml",
    "setup.cfg",
    "tox.ini",
    "pyproject.toml",
    "babel.config.js",
    "web/esm/index.js",
    "build/webpack.base.conf.js",  # a build/ the project keeps is source
}
OUT_OF_SCOPE = {
    "ignored_dir/a.py",  # .gitignore
    "debug.log",  # .gitignore
    "node_modules/pkg/index.js",
    "web/node_modules/dep/index.js",
    ".venv/lib/site.py",
    "venv/lib/site.py",
    "env/lib/python3.11/site-packages/m.py",  # pyvenv.cfg
    "tools/myenv/lib/x.py",  # pyvenv.cfg one level down
    "vendor/lib.py",
    "third_party/lib.py",
    "dist/out.js",
    "transforms/__testfixtures__/v7/rename.input.js",  # a codemod test's input text
    "out/build/gen.py",  # a git-ignored build/ (.gitignore: out/build/)
    "static/app.min.js",
    "static/bundle.js",  # minified by line length
    "data.bin",
    ".env",
    ".env.local",
    "certs/server.pem",
    "id_rsa",
    ".npmrc",
    ".pypirc",
    ".aws/credentials",
    "config/gcp-credentials.json",
}


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "checkout"
    outside = tmp_path / "outside"
    write(outside / "secret.py", f"{NEEDLE}()  # outside the checkout\n")
    write(root / ".gitignore", "ignored_dir/\n*.log\nout/build/\n")
    for rel in OUT_OF_SCOPE - {"data.bin", "static/bundle.js"}:
        write(root / rel, f"{NEEDLE}()\n")
    write(root / "env" / "pyvenv.cfg", "home = /usr/bin\n")
    write(root / "tools" / "myenv" / "pyvenv.cfg", "home = /usr/bin\n")
    write(root / "data.bin", b"\x00\x01\x02" + NEEDLE.encode() + b"\x00\xff")
    write(root / "static" / "bundle.js", "var a=1;" * 400 + f"{NEEDLE}();" + "var b=2;" * 100)
    os.symlink(outside / "secret.py", root / "link_file.py")
    os.symlink(outside, root / "link_dir")
    write(
        root / "src" / "app.py",
        "import yaml as y\n"
        f"# {NEEDLE} is deprecated\n"
        f'MSG = "call {NEEDLE} later"\n'
        f"def run():\n    return {NEEDLE}(1)\n"
        f'x = "{NEEDLE}"; {NEEDLE}(2)\n',
    )
    write(
        root / "src" / "app.js",
        f"// {NEEDLE} in a comment\n"
        f"const s = `${{{NEEDLE}()}} and {NEEDLE}`;\n"
        f"const t = '{NEEDLE}';\n",
    )
    write(root / "src" / "deep" / "env" / "settings.py", f"{NEEDLE} = True\n")
    write(root / ".eslintrc.json", f'{{\n  "plugins": ["{NEEDLE}"]\n}}\n')
    write(root / ".github" / "workflows" / "ci.yml", f"run: {NEEDLE}\n")
    write(root / "setup.cfg", f"[options]\ninstall_requires = {NEEDLE}\n")
    write(root / "tox.ini", f"[testenv]\ncommands = {NEEDLE}\n")
    write(root / "pyproject.toml", f'[project]\ndependencies = ["{NEEDLE}"]\n')
    write(root / "babel.config.js", f"module.exports = {{ presets: ['{NEEDLE}'] }};\n")
    write(root / "web" / "package.json", '{"name": "web", "type": "module"}\n')
    write(root / "web" / "esm" / "index.js", f"export const {NEEDLE} = 1;\n")
    write(root / "build" / "webpack.base.conf.js", f"module.exports = {{ use: '{NEEDLE}' }};\n")
    return root


def test_scope_finds_exactly_the_in_scope_files(tree):
    res = CodeSearch(tree, Settings()).search_code(NEEDLE, max_hits=200)
    paths = {h.path for h in res.hits}
    assert paths == IN_SCOPE
    assert not paths & OUT_OF_SCOPE
    assert not any("link" in p or "secret" in p for p in paths)
    assert "skipped 1 minified file" in res.note


def test_hits_are_sorted_and_carry_position_text_and_context(tree):
    res = CodeSearch(tree, Settings()).search_code(NEEDLE, path_glob="src/app.py")
    got = [(h.line, h.col, h.context, h.text) for h in res.hits]
    assert got == [
        (2, 3, "comment", f"# {NEEDLE} is deprecated"),
        (3, 13, "string", f'MSG = "call {NEEDLE} later"'),
        (5, 12, "code", f"return {NEEDLE}(1)"),
        # the string match comes first on the line, but the code one decides the context
        (6, 19, "code", f'x = "{NEEDLE}"; {NEEDLE}(2)'),
    ]
    assert res.total == 4 and res.files == 1 and not res.truncated
    assert all(h.path == "src/app.py" for h in res.hits)


def test_javascript_and_config_contexts(tree):
    cs = CodeSearch(tree, Settings())
    js = cs.search_code(NEEDLE, path_glob="src/*.js").hits
    assert [(h.line, h.context) for h in js] == [(1, "comment"), (2, "code"), (3, "string")]
    # a quoted value in a config file is the configuration: it counts as code
    cfg = {h.path: h.context for h in cs.search_code(NEEDLE, max_hits=100).hits}
    for name in (".eslintrc.json", "pyproject.toml", "setup.cfg", "tox.ini", "babel.config.js"):
        assert cfg[name] in ("code", "string"), name
    assert cfg[".eslintrc.json"] == "code" and cfg["pyproject.toml"] == "code"
    assert cs.context_of("src/app.py", 2, 3) == "comment"


def test_scope_rules_are_settings(tree):
    loose = Settings(
        respect_gitignore=False,
        exclude_dirs=(".git", "node_modules", "dist"),
        skip_env_dirs=False,
    )
    paths = {h.path for h in CodeSearch(tree, loose).search_code(NEEDLE, max_hits=500).hits}
    for rel in (
        "ignored_dir/a.py",
        "debug.log",
        "vendor/lib.py",
        "out/build/gen.py",
        ".venv/lib/site.py",
    ):
        assert rel in paths, rel
    assert "env/lib/python3.11/site-packages/m.py" in paths
    assert "node_modules/pkg/index.js" not in paths and "dist/out.js" not in paths
    assert not any(p in paths for p in (".env", "id_rsa", "certs/server.pem"))


def test_gitignore_applies_without_a_git_repository(tree):
    assert not (tree / ".git" / "HEAD").exists()
    cs = CodeSearch(tree, Settings())
    assert cs.search_code(NEEDLE, path_glob="ignored_dir/**").hits == []
    assert "ignored_dir/a.py" not in cs.files()


def test_truncation_reports_the_true_total(tree):
    write(tree / "src" / "many.py", f"{NEEDLE}()\n" * 30)
    cs = CodeSearch(tree, Settings(max_hits=5, max_hits_per_file=3))
    res = cs.search_code(NEEDLE, path_glob="src/**")
    assert len(res.hits) == 5 and res.truncated
    assert res.total == 30 + 4 + 3 + 1  # lines in many.py, app.py, app.js, deep/env/settings.py
    assert res.files == 4
    assert [(h.path, h.line) for h in res.hits] == sorted((h.path, h.line) for h in res.hits)
    assert sum(h.path == "src/many.py" for h in res.hits) <= 3
    assert "showing 5 of 38 matching lines in 4 files" in res.note
    assert cs.search_code(NEEDLE, path_glob="src/**").hits == res.hits  # same every run


def test_long_lines_are_trimmed_around_the_match(tree):
    write(tree / "src" / "long.py", "x = [" + "1, " * 500 + f"{NEEDLE}(3)" + ", 2" * 500 + "]\n")
    (hit,) = (
        CodeSearch(tree, Settings(hit_width=80)).search_code(NEEDLE, path_glob="src/long.py").hits
    )
    assert len(hit.text) <= 80 and NEEDLE in hit.text
    assert hit.text.startswith("…") and hit.text.endswith("…")
    assert hit.col == len("x = [" + "1, " * 500) + 1


def test_columns_count_characters(tree):
    write(tree / "src" / "uni.py", f"s = 'héllo wörld'; {NEEDLE}()\n")
    (hit,) = CodeSearch(tree, Settings()).search_code(NEEDLE, path_glob="src/uni.py").hits
    assert hit.col == "s = 'héllo wörld'; ".__len__() + 1 and hit.context == "code"


def test_literal_regex_word_and_dash_patterns(tree):
    write(
        tree / "src" / "ops.py",
        "a = b.-x\nc = frob.nicate\n--check\nfrobXnicate = 1\nfrobnicated = 2\n",
    )
    cs = CodeSearch(tree, Settings())
    assert [h.line for h in cs.search_code("b.-x", path_glob="src/ops.py").hits] == [1]
    assert [h.line for h in cs.search_code("--check", path_glob="src/ops.py").hits] == [3]
    assert cs.search_code("frob.nicate", path_glob="src/ops.py").total == 1  # literal dot
    assert cs.search_code("frob.nicate", regex=True, path_glob="src/ops.py").total == 2
    assert cs.search_code("frobnicate", word=True, path_glob="src/ops.py").total == 0
    assert cs.search_code("frobnicated", word=True, path_glob="src/ops.py").total == 1


@pytest.mark.parametrize(
    "pattern, regex, fragment",
    [
        ("", False, "empty"),
        ("   ", False, "empty"),
        ("x", False, "single character"),
        ("a" * 201, False, "too long"),
        ("two\nlines", False, "single line"),
        (".", True, "every line"),
        (".*", True, "every line"),
        ("^", True, "every line"),
        ("$", True, "every line"),
        (r"\w", True, "every line"),
        ("[a-z]", True, "every line"),
        ("(foo|.)", True, "every line"),
        ("foo(", True, "invalid regular expression"),
    ],
)
def test_bad_patterns_are_refused_with_a_short_message(tree, pattern, regex, fragment):
    with pytest.raises(ToolError) as err:
        CodeSearch(tree, Settings()).search_code(pattern, regex=regex)
    assert fragment in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize(
    "glob, fragment",
    [
        ("../outside/*.py", "inside the checkout"),
        ("src/../../x", "inside the checkout"),
        ("/etc/*", "relative"),
        ("~/x", "relative"),
        ("**/.env", "secrets"),
        (".env*", "secrets"),
        ("**/*.pem", "secrets"),
        ("id_rsa*", "secrets"),
        ("**/credentials", "secrets"),
        ("  ", "empty"),
    ],
)
def test_bad_globs_are_refused(tree, glob, fragment):
    with pytest.raises(ToolError) as err:
        CodeSearch(tree, Settings()).search_code(NEEDLE, path_glob=glob)
    assert fragment in str(err.value)


def test_globs_select_directories_and_cannot_reach_excluded_files(tree):
    cs = CodeSearch(tree, Settings())
    assert {h.path for h in cs.search_code(NEEDLE, path_glob="src").hits} == {
        "src/app.py",
        "src/app.js",
        "src/deep/env/settings.py",
    }
    assert cs.search_code(NEEDLE, path_glob="node_modules/**").hits == []
    assert cs.search_code(NEEDLE, path_glob="*.json").total == 1  # .eslintrc.json only
    assert {h.path for h in cs.search_code(NEEDLE, path_glob="!src/**", max_hits=100).hits} == (
        IN_SCOPE - {"src/app.py", "src/app.js", "src/deep/env/settings.py"}
    )


def test_read_lines_refuses_secrets_and_paths_out_of_the_checkout(tree):
    cs = CodeSearch(tree, Settings())
    for bad in (
        ".env",
        "certs/server.pem",
        ".aws/credentials",
        "link_file.py",
        "link_dir/secret.py",
        "../outside/secret.py",
        str(tree / "src" / "app.py"),
        "",
        "src/missing.py",
    ):
        with pytest.raises(ToolError):
            cs.read_lines(bad)
    os.symlink(tree / ".env", tree / "src" / "innocent.txt")
    with pytest.raises(ToolError) as err:
        cs.read_lines("src/innocent.txt")
    assert "secrets" in str(err.value)
    assert cs.read_lines("./src//app.py")[0] == "import yaml as y"


def test_read_lines_matches_ripgrep_line_numbers(tree):
    write(
        tree / "src" / "crlf.py",
        b"\xef\xbb\xbfa = 1\r\nb = 2\x0c\r\n" + NEEDLE.encode() + b"()\r\n",
    )
    cs = CodeSearch(tree, Settings())
    assert cs.read_lines("src/crlf.py") == ["a = 1", "b = 2\x0c", f"{NEEDLE}()"]
    (hit,) = cs.search_code(NEEDLE, path_glob="src/crlf.py").hits
    assert (hit.line, hit.col) == (3, 1)


def test_files_lists_the_scope(tree):
    cs = CodeSearch(tree, Settings())
    files = cs.files()
    assert files == sorted(files)
    assert IN_SCOPE <= set(files)
    # minified-by-length and binary files are only recognised when their content is searched
    assert not (set(files) & (OUT_OF_SCOPE - {"static/bundle.js", "data.bin"}))
    assert cs.files(("*.py",)) == ["src/app.py", "src/deep/env/settings.py"]
    assert cs.env_dirs() == ["env", "tools/myenv"]


def test_missing_checkout_and_missing_ripgrep(tmp_path):
    with pytest.raises(InputError) as err:
        CodeSearch(tmp_path / "nope", Settings())
    assert "nope" in str(err.value)
    cs = CodeSearch(tmp_path, Settings(), rg=Ripgrep(tmp_path / "rg-missing"))
    with pytest.raises(ConfigError) as err2:
        cs.search_code("something")
    assert "pip install ripgrep==14.1.0" in str(err2.value)


# -- where_imported ------------------------------------------------------------------------


@pytest.fixture()
def pyrepo(tmp_path: Path) -> Path:
    root = tmp_path / "py"
    write(
        root / "app" / "config.py",
        "import yaml\nimport yaml as y\nfrom yaml import safe_load as sl, dump\n",
    )
    write(root / "app" / "images.py", "from PIL import Image\nimport PIL.ImageDraw\n")
    write(
        root / "app" / "scrape.py",
        "try:\n    from bs4 import BeautifulSoup\nexcept ImportError:\n    BeautifulSoup = None\n",
    )
    write(
        root / "app" / "dates.py", "def f():\n    from dateutil import parser\n    return parser\n"
    )
    write(root / "app" / "notes.py", '# import yaml\nDOC = """\nimport yaml\n"""\nyamlish = 1\n')
    write(root / "app" / "legacy.py", "print 'py2'\nimport yaml\n")
    write(root / "stubs" / "types.pyi", "from yaml import Loader\n")
    write(root / ".venv" / "lib" / "yaml_user.py", "import yaml\n")
    write(root / "vendor" / "yaml_user.py", "import yaml\n")
    write(root / ".env", "import yaml\n")
    return root


def test_where_imported_pip_under_other_names(pyrepo):
    cs = CodeSearch(pyrepo, Settings())
    rep = where_imported(cs, "pip", "PyYAML")
    assert rep.import_names == ["yaml"]
    assert rep.files == ["app/config.py", "app/legacy.py", "stubs/types.pyi"]
    sites = [(s.path, s.line, s.names, s.style) for s in rep.sites]
    assert sites == [
        ("app/config.py", 1, {"yaml": "*"}, "import"),
        ("app/config.py", 2, {"y": "*"}, "import"),
        ("app/config.py", 3, {"sl": "safe_load", "dump": "dump"}, "from"),
        ("app/legacy.py", 2, {"yaml": "*"}, "import"),
        ("stubs/types.pyi", 1, {"Loader": "Loader"}, "from"),
    ]
    assert rep.sites[2].text == "from yaml import safe_load as sl, dump"
    assert rep.note == "imported as yaml in 3 files; 5 sites"

    pil = where_imported(cs, "pip", "Pillow")
    assert [(s.path, s.module, s.subpath, s.names) for s in pil.sites] == [
        ("app/images.py", "PIL", "", {"Image": "Image"}),
        ("app/images.py", "PIL.ImageDraw", "ImageDraw", {"PIL": "*"}),
    ]
    bs4 = where_imported(cs, "pip", "beautifulsoup4")
    (site,) = bs4.sites
    assert (
        site.package == "bs4"
        and site.conditional
        and site.names == {"BeautifulSoup": "BeautifulSoup"}
    )
    (du,) = where_imported(cs, "pip", "python-dateutil").sites
    assert du.conditional and du.names == {"parser": "parser"}


def test_where_imported_pip_none_found(pyrepo):
    rep = where_imported(CodeSearch(pyrepo, Settings()), "pip", "scikit-learn")
    assert rep.sites == [] and rep.files == []
    assert "sklearn" in rep.note


@pytest.fixture()
def jsrepo(tmp_path: Path) -> Path:
    root = tmp_path / "js"
    write(root / "package.json", '{"name": "svc", "dependencies": {"uuid": "3.4.0"}}\n')
    write(root / "src" / "ids.js", "const uuidv4 = require('uuid/v4');\n")
    write(
        root / "src" / "pub.js", "const { v4: uuidv4 } = require('uuid');\n// require('uuid/v1')\n"
    )
    write(
        root / "src" / "lazy.js",
        "function f() {\n  const { v1 } = require('uuid');\n  return v1();\n}\n",
    )
    write(root / "src" / "other.js", "const u = require('uuid-parse');\nconst s = 'uuid';\n")
    write(root / "src" / "mod.mjs", "import { v4 as uuid } from 'uuid';\n")
    write(root / "src" / "old.cjs", "const uuid = require('uuid');\n")
    write(root / "web" / "package.json", '{"type": "module"}\n')
    write(
        root / "web" / "app.js",
        "import * as core from '@acme/core/utils/deep';\nimport { v4 } from 'uuid';\n",
    )
    write(
        root / "web" / "types.ts",
        "import type { Opts } from '@acme/core';\nexport * from '@acme/core';\n",
    )
    write(root / "web" / "lazy.ts", "export async function g() { return import('@acme/core'); }\n")
    write(root / "node_modules" / "uuid" / "index.js", "module.exports = require('uuid/v4');\n")
    write(root / "dist" / "bundle.js", "require('uuid')\n")
    return root


def test_a_tool_config_file_naming_the_package_as_strings_uses_it(tmp_path):
    # jest.config.js: the tool loads the modules it names; a comment or another file's
    # plain string is no use, and an import line is an import
    root = tmp_path / "cfg"
    write(root / "package.json", '{"name": "app", "devDependencies": {"domkit": "8"}}\n')
    write(
        root / "jest.config.js",
        "// was: 'domkit/old-setup'\nconst kit = require('domkit/preset');\n"
        "module.exports = { ...kit, setupFilesAfterEnv: ['domkit/cleanup', \"domkit\"] };\n",
    )
    write(root / "src" / "label.js", "const label = 'domkit/cleanup';\n")
    rep = where_imported(CodeSearch(root, Settings()), "npm", "domkit")
    got = [(s.path, s.line, s.module, s.subpath, s.style) for s in rep.sites]
    assert got == [
        ("jest.config.js", 2, "domkit/preset", "preset", "require"),
        ("jest.config.js", 3, "domkit/cleanup", "cleanup", "config"),
        ("jest.config.js", 3, "domkit", "", "config"),
    ]


def test_a_file_of_the_package_named_by_its_path_in_node_modules_is_a_path_use(tmp_path):
    # angular.json's scripts, a page's <script>, a stylesheet's @import and a karma config
    # load the package's files by path; a comment and the lock file's keys load nothing
    root = tmp_path / "ng"
    write(root / "package.json", '{"name": "app", "dependencies": {"domkit": "2"}}\n')
    write(root / ".angular-cli.json", '{"apps": [{"scripts": [\n'
          '  "../node_modules/domkit/lib/domkit.js"\n]}]}\n')  # fmt: skip
    write(root / "src" / "index.html", '<script src="node_modules/domkit/dist/kit.js"></script>\n'
          '<!-- <script src="node_modules/domkit/dist/old.js"></script>\n'
          '     <link href="node_modules/domkit/old.css"> -->\n')  # fmt: skip
    write(root / "src" / "styles.scss", "// @import '../node_modules/domkit/old.css';\n"
          "@import '../node_modules/domkit/css/kit.css';\n")  # fmt: skip
    write(
        root / "karma.conf.js", "module.exports = { files: ['node_modules/domkit/dist/kit.js'] };\n"
    )
    write(root / "package-lock.json", '{"packages": {"node_modules/domkit/node_modules/x": {}}}\n')
    rep = where_imported(CodeSearch(root, Settings()), "npm", "domkit")
    got = [(s.path, s.line, s.module, s.subpath, s.style) for s in rep.sites]
    assert got == [
        (".angular-cli.json", 2, "domkit/lib/domkit.js", "lib/domkit.js", "path"),
        ("karma.conf.js", 1, "domkit/dist/kit.js", "dist/kit.js", "path"),
        ("src/index.html", 1, "domkit/dist/kit.js", "dist/kit.js", "path"),
        ("src/styles.scss", 2, "domkit/css/kit.css", "css/kit.css", "path"),
    ]


def test_where_imported_npm_styles_subpaths_and_module_kind(jsrepo):
    cs = CodeSearch(jsrepo, Settings())
    rep = where_imported(cs, "npm", "uuid")
    got = [(s.path, s.module, s.subpath, s.names, s.style, s.esm, s.conditional) for s in rep.sites]
    assert got == [
        ("src/ids.js", "uuid/v4", "v4", {"uuidv4": "*"}, "require", False, False),
        ("src/lazy.js", "uuid", "", {"v1": "v1"}, "require", False, True),
        ("src/mod.mjs", "uuid", "", {"uuid": "v4"}, "import", True, False),
        ("src/old.cjs", "uuid", "", {"uuid": "*"}, "require", False, False),
        ("src/pub.js", "uuid", "", {"uuidv4": "v4"}, "require", False, False),
        ("web/app.js", "uuid", "", {"v4": "v4"}, "import", True, False),
    ]
    assert "subpaths: v4" in rep.note and "6 sites" in rep.note

    scoped = where_imported(cs, "npm", "@acme/core")
    got = [(s.path, s.subpath, s.names, s.style, s.type_only) for s in scoped.sites]
    assert got == [
        ("web/app.js", "utils/deep", {"core": "*"}, "import", False),
        ("web/lazy.ts", "", {}, "dynamic-import", False),
        ("web/types.ts", "", {"Opts": "Opts"}, "import", True),
        ("web/types.ts", "", {"*": "*"}, "export-from", False),
    ]
    assert all(s.esm for s in scoped.sites)


def test_is_esm_uses_the_nearest_package_json(jsrepo):
    cs = CodeSearch(jsrepo, Settings())
    assert cs.nearest_package_json("web/app.js") == "web/package.json"
    assert cs.nearest_package_json("src/ids.js") == "package.json"
    assert cs.is_esm("web/app.js") is True
    assert cs.is_esm("src/ids.js") is False
    assert cs.is_esm("src/mod.mjs") is True and cs.is_esm("web/x.cjs") is False
    assert cs.is_esm("README.md") is None


@pytest.mark.parametrize(
    "eco, name, fragment",
    [("cargo", "serde", "ecosystem"), ("npm", "Bad Name!", "npm package"), ("pip", "../x", "pip")],
)
def test_where_imported_validates_input(jsrepo, eco, name, fragment):
    with pytest.raises(ToolError) as err:
        where_imported(CodeSearch(jsrepo, Settings()), eco, name)
    assert fragment in str(err.value)
