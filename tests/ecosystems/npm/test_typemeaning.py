"""Which exported names of a declaration file can be written as types, and the diff that
finds a type turned into a value only."""

from __future__ import annotations

import json
from pathlib import Path

from depbot.apidiff import diff_releases
from depbot.ecosystems.npm.api.typemeaning import type_meanings

INDEX = """import { Engine } from './lib/engine'
import Other from './lib/other'
export { Engine as Client, Other }
export declare const Value: typeof Engine;
export declare class Kit {}
export interface Options {}
export type Mode = 'a' | 'b';
export declare function connect(): Engine;
export enum Level { low }
export { Far, Near as Close } from './lib/far'
declare namespace tools { const x: number }
export { tools };
"""


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def test_each_kind_of_declaration_has_its_meaning_and_re_exports_are_followed(tmp_path):
    _write(tmp_path, {
        "index.d.ts": INDEX,
        "lib/engine.d.ts": "export declare class Engine {}\n",
        "lib/other.d.ts": "declare function other(): void;\nexport default other;\n",
        "lib/far.d.ts": "export interface Far {}\nexport declare const Near: number;\n",
    })  # fmt: skip
    assert type_meanings(tmp_path / "index.d.ts", tmp_path) == {
        "Client": True, "Other": False, "Value": False, "Kit": True, "Options": True,
        "Mode": True, "connect": False, "Level": True, "Far": True, "Close": False,
        "tools": False,
    }  # fmt: skip


def test_merged_declarations_and_export_equals_give_the_default_its_meaning(tmp_path):
    _write(tmp_path, {"old.d.ts": "declare function Knex(): void;\ndeclare namespace Knex {}\n"
                                  "interface Knex {}\nexport = Knex;\n",
                      "new.d.ts": "declare function knex(): void;\ndeclare namespace knex {}\n"
                                  "export default knex;\nexport interface Knex {}\n"})  # fmt: skip
    assert type_meanings(tmp_path / "old.d.ts", tmp_path) == {"default": True}
    assert type_meanings(tmp_path / "new.d.ts", tmp_path) == {"default": False, "Knex": True}


def test_a_name_whose_declaration_is_not_found_is_not_known(tmp_path):
    _write(tmp_path, {"index.d.ts": "import { A } from 'elsewhere'\nexport { A, B }\n"})
    assert type_meanings(tmp_path / "index.d.ts", tmp_path) == {}


def _release(root: Path, version: str, declaration: str) -> Path:
    manifest = {"name": "kit", "version": version, "main": "index.js", "types": "index.d.ts"}
    _write(root, {"package.json": json.dumps(manifest), "index.js": "exports.Client = 1;\n",
                  "index.d.ts": declaration})  # fmt: skip
    return root


def test_the_diff_finds_a_type_that_is_a_value_only_now(tmp_path):
    old = _release(tmp_path / "old", "4.0.0", "export declare class Client {}\n")
    new = _release(
        tmp_path / "new", "5.0.0", "declare class C {}\nexport declare const Client: typeof C;\n"
    )
    same = _release(tmp_path / "same", "4.1.0", "declare class C {}\nexport { C as Client };\n")
    got = [(c.kind, c.path) for c in diff_releases("npm", old, new).changes]
    assert ("no_longer_type", "kit:Client") in got
    assert not [c for c in diff_releases("npm", old, same).changes if c.kind == "no_longer_type"]
