"""Which TypeScript imports the compiler turns into ``require`` (``search.tsemit``), over real
files and the import sites ``where_imported`` reports."""

from __future__ import annotations

from pathlib import Path

from depbot.core.settings import Settings
from depbot.search.code import CodeSearch
from depbot.search.import_sites import where_imported
from depbot.search.tsemit import value_used

CLIENT = "import kit, { HTTPError } from 'kit'\nexport const go = () => kit.post('/x')\n"
TYPES = "import { Options } from 'kit'\nexport interface S { options: Options }\n"


def _compiled(tmp_path: Path, tsconfig: str, files: dict[str, str]) -> dict[str, bool]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "package.json").write_text('{"name": "app", "dependencies": {"kit": "^2"}}')
    if tsconfig:
        (tmp_path / "tsconfig.json").write_text(tsconfig)
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    rep = where_imported(CodeSearch(tmp_path, Settings()), "npm", "kit")
    return {s.path: s.compiled_require for s in rep.sites}


def test_a_commonjs_build_compiles_value_imports_to_require(tmp_path: Path):
    config = '{\n  // tsc emits dist/\n  "compilerOptions": {"module": "CommonJS", "outDir": "dist",},\n}'
    got = _compiled(tmp_path, config, {"src/a.ts": CLIENT, "src/t.ts": TYPES,
                                       "src/b.mts": CLIENT, "src/c.cts": CLIENT})  # fmt: skip
    # an import only types use is dropped; a .mts file stays an ES module
    assert got == {"src/a.ts": True, "src/t.ts": False, "src/b.mts": False, "src/c.cts": True}


def test_a_bundled_or_esm_build_keeps_imports(tmp_path: Path):
    bundled = '{"compilerOptions": {"module": "commonjs", "noEmit": true}}'
    assert _compiled(tmp_path / "a", bundled, {"src/a.ts": CLIENT}) == {"src/a.ts": False}
    esm = '{"compilerOptions": {"module": "esnext"}}'
    assert _compiled(tmp_path / "b", esm, {"src/a.ts": CLIENT}) == {"src/a.ts": False}
    assert _compiled(tmp_path / "c", "", {"src/a.ts": CLIENT}) == {"src/a.ts": False}  # unsaid
    # node16: as Node loads the file (no "type": "module" here: CommonJS)
    node = '{"compilerOptions": {"module": "Node16"}}'
    assert _compiled(tmp_path / "d", node, {"src/a.ts": CLIENT}) == {"src/a.ts": True}


def test_options_a_config_extends_from_a_file_of_the_checkout(tmp_path: Path):
    # a monorepo's package config sets no `module`; the base it extends does
    (tmp_path / "config").mkdir(parents=True)
    (tmp_path / "config" / "base.json").write_text('{"compilerOptions": {"module": "commonjs"}}')
    (tmp_path / "tsconfig.esm.json").write_text('{"compilerOptions": {"module": "esnext"}}')
    child = '{"extends": "./config/base", "compilerOptions": {"strict": true}}'
    assert _compiled(tmp_path, child, {"src/a.ts": CLIENT}) == {"src/a.ts": True}
    later = '{"extends": ["./config/base.json", "./tsconfig.esm.json"]}'  # the last one wins
    assert _compiled(tmp_path, later, {"src/a.ts": CLIENT}) == {"src/a.ts": False}
    own = '{"extends": "./config/base.json", "compilerOptions": {"module": "es2020"}}'
    assert _compiled(tmp_path, own, {"src/a.ts": CLIENT}) == {"src/a.ts": False}
    # a package's base is not in the checkout: nothing said
    package = '{"extends": "@tsconfig/node16/tsconfig.json"}'
    assert _compiled(tmp_path, package, {"src/a.ts": CLIENT}) == {"src/a.ts": False}


def test_value_uses_are_calls_members_called_new_instanceof_and_passing():
    assert value_used("kit('/x')", ["kit"])
    assert value_used("await kit.default.post(u)", ["kit"])
    assert value_used("if (e instanceof HTTPError) {}", ["HTTPError"])
    assert value_used("register(kit, 1)", ["kit"])
    assert not value_used(
        "let r: kit.Response<string>;\nfunction f(o: Options) {}", ["kit", "Options"]
    )
