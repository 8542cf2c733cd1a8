"""The members of a value a declaration file types by a class or an interface, across the
files of the release: what ``faker.company.companyName()`` uses, and when a release drops it."""

from __future__ import annotations

import json
from pathlib import Path

from depbot.apidiff import diff_releases
from depbot.apidiff.fates import fates
from depbot.records.api import UsedName

MANIFEST = {"name": "fk", "main": "index.js", "types": "index.d.ts"}
# old: the value's class and its module's class each in a file of their own
OLD = {
    "index.d.ts": "import { Faker } from './faker';\nexport { Faker };\n"
    "export declare const faker: Faker;\nexport default faker;\n",
    "faker.d.ts": "import { Company } from './company';\nimport { Helpers } from './helpers';\n"
    "declare class Base { seed(n: number): void; }\n"
    "export declare class Faker extends Base {\n  locale: string;\n  readonly company: Company;\n"
    "  readonly helpers: Helpers;\n  private secret: string;\n}\n",
    "company.d.ts": "export declare class Company {\n  companyName(): string;\n  name(): string;\n}\n",
}
# new: one bundled chunk that exports its classes under short names, as bundlers write them
NEW = {
    "index.d.ts": "import { F as Faker } from './chunk.js';\ndeclare const faker: Faker;\n"
    "export { faker, Faker };\nexport default faker;\n",
    "chunk.d.ts": "declare class SimpleFaker { seed(n: number): void; }\n"
    "declare class CompanyModule { name(): string; catchPhrase(): string; }\n"
    "declare class Faker extends SimpleFaker {\n  readonly company: CompanyModule;\n"
    "  readonly helpers: Helpers;\n}\nexport { Faker as F, CompanyModule as K };\n",
}


def _package(root: Path, files: dict[str, str], manifest: dict | None = None) -> Path:
    root.mkdir(parents=True)
    (root / "package.json").write_text(json.dumps(manifest or MANIFEST))
    for rel, text in files.items():
        (root / rel).write_text(text)
    return root


def test_a_typed_value_has_its_class_s_members_two_levels_down_across_files(tmp_path):
    diff = diff_releases("npm", _package(tmp_path / "old", OLD), _package(tmp_path / "new", NEW))
    assert {
        "fk:faker.locale", "fk:faker.company", "fk:faker.company.companyName",
        "fk:faker.company.name", "fk:faker.seed", "fk:default.company.companyName",
    } <= set(diff.old_api)  # fmt: skip
    assert "fk:faker.secret" not in diff.old_api  # private
    # `Helpers` is declared in no file of the release: its members are not modelled
    assert "fk:faker.helpers" in diff.old_api
    assert not [n for n in diff.old_api if n.startswith("fk:faker.helpers.")]
    assert {"fk:faker.company.catchPhrase", "fk:faker.seed"} <= set(diff.new_api)
    removed = sorted(c.detail for c in diff.changes if c.kind == "export_removed")
    assert removed == ["default.company.companyName", "default.locale",
                       "faker.company.companyName", "faker.locale"]  # fmt: skip


def test_a_member_whose_owner_the_new_release_no_longer_models_is_hidden_not_removed(tmp_path):
    new = dict(NEW, **{"chunk.d.ts": NEW["chunk.d.ts"].replace(
        "declare class CompanyModule { name(): string; catchPhrase(): string; }\n", "")})  # fmt: skip
    diff = diff_releases("npm", _package(tmp_path / "old", OLD), _package(tmp_path / "new", new))
    assert "fk:faker.company" in diff.new_api
    removed = sorted(c.detail for c in diff.changes if c.kind == "export_removed")
    assert removed == ["default.locale", "faker.locale"]  # companyName: not seen, not gone


def test_each_used_member_gets_the_fate_of_the_deepest_part_the_old_release_shows(tmp_path):
    diff = diff_releases("npm", _package(tmp_path / "old", OLD), _package(tmp_path / "new", NEW))
    names = ["fk:faker.company.companyName", "fk:faker.company.name", "fk:faker.company.zip",
             "fk:faker.helpers.arrayElement"]  # fmt: skip
    used = [UsedName(n, "seed.ts", i + 1, text=n) for i, n in enumerate(names)]
    got = {f.name: (f.fate, f.found) for f in fates(diff, used).fates}
    assert got["fk:faker.company.companyName"] == ("removed", "fk:faker.company.companyName")
    assert got["fk:faker.company.name"] == ("present", "fk:faker.company.name")
    # the old release shows Company's members, and `zip` is not one: not seen, never vouched
    assert got["fk:faker.company.zip"][0] == "unresolved"
    # `helpers` is shown without members: its own fate stands for them, as for any value
    assert got["fk:faker.helpers.arrayElement"] == ("present", "fk:faker.helpers")


def test_an_exports_map_without_types_reads_the_declarations_typesversions_maps(tmp_path):
    manifest = {"name": "fk", "types": "index.d.ts",
                "exports": {".": {"require": "./dist/cjs/index.js"}},
                "typesVersions": {">=4.0": {"*": ["dist/types/*"]}}}  # fmt: skip
    files = {f"dist/types/{k}": v for k, v in OLD.items()} | {
        "dist/cjs/index.js": "exports.x = 1;\n"
    }
    root = tmp_path / "old"
    root.mkdir()
    (root / "package.json").write_text(json.dumps(manifest))
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    diff = diff_releases("npm", root, _package(tmp_path / "new", NEW))
    assert "fk:faker.company.companyName" in diff.old_api  # from dist/types/index.d.ts
