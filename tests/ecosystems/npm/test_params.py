"""An option of a function's options object that the new major requires: read from the
declarations, and checked against the calls the code makes."""

from __future__ import annotations

import json
from pathlib import Path

from depbot.apidiff import diff_releases
from depbot.ecosystems.npm.api.params import (
    Signatures,
    option_values_narrowed,
    options_now_required,
    options_removed,
    positional_limit,
    signatures,
)
from depbot.symbols.javascript import object_keys, object_strings

OLD = """export = guard;
declare function guard(options: guard.Options): guard.Handler;
declare namespace guard {
    interface Base { secret: string; }
    export interface Options extends Base {
        audience?: string;
        algorithms?: string[];
        [key: string]: any;
    }
    interface Handler { (req: unknown): void; }
}
"""
NEW = """export = guard;
declare function guard(options: guard.Options): guard.Handler;
declare namespace guard {
    interface Base { secret: string; }
    export interface Options extends Base {
        audience?: string;
        algorithms: string[];
        issuer: string;
    }
    interface Handler { (req: unknown): void; }
}
export declare function verify(token: string, opts: VerifyOptions): boolean;
"""


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_an_option_the_new_declarations_require_is_found_through_namespaces_and_extends(
    tmp_path: Path,
):
    old, new = (
        signatures(_write(tmp_path / "o.d.ts", OLD)),
        signatures(_write(tmp_path / "n.d.ts", NEW)),
    )
    assert old.default == "guard"
    assert old.properties("Options") == {
        "secret": True, "audience": False, "algorithms": False,
    }  # fmt: skip
    # optional before, required now; absent before, required now; required both: not a change
    assert options_now_required(old, new, "default") == [(0, "algorithms"), (0, "issuer")]
    assert options_now_required(old, new, "verify") == []  # no such function before


def test_the_diff_lists_it_as_a_change_of_the_default_export(tmp_path: Path):
    for side, text in (("old", OLD), ("new", NEW)):
        _write(tmp_path / side / "index.d.ts", text)
        manifest = {"name": "guardkit", "types": "index.d.ts"}
        _write(tmp_path / side / "package.json", json.dumps(manifest))
    diff = diff_releases("npm", tmp_path / "old", tmp_path / "new")
    found = [(c.kind, c.path, c.detail, c.position) for c in diff.changes]
    assert ("option_now_required", "guardkit", "algorithms", 0) in found
    assert ("option_now_required", "guardkit", "issuer", 0) in found


def test_overloaded_functions_are_not_compared(tmp_path: Path):
    text = (
        "export declare function f(o: A): void;\nexport declare function f(o: A, n: number): void;\n"
        "interface A { x: string; }\n"
    )
    sigs = signatures(_write(tmp_path / "a.d.ts", text))
    assert sigs.function("f") is None
    assert options_now_required(sigs, sigs, "f") == []


def test_the_keys_of_an_object_literal_argument():
    assert object_keys("{ secret }") == ("secret",)
    assert object_keys('{ secret, algorithms: ["HS256"], "a-b": 1 }') == (
        "secret", "algorithms", "a-b",
    )  # fmt: skip
    assert object_keys("{ ...base, secret }") == ("...", "secret")
    assert object_keys("{ [key]: 1, // note\n  f() {} }") == ("...", "f")
    assert object_keys("options") is None


PLUGIN_OLD = """declare class PagePlugin {
    constructor(options?: PagePlugin.Options);
}
declare namespace PagePlugin {
    interface Options {
        sortMode?: 'none' | 'auto' | 'dependency' | ((a: string, b: string) => number);
        inject?: boolean | 'head' | 'body';
        title?: string;
    }
}
export = PagePlugin;
"""
PLUGIN_NEW = """declare class PagePlugin {
    constructor(options?: PagePlugin.Options);
    apply(compiler: unknown): void;
}
declare namespace PagePlugin {
    interface Options {
        sortMode?:
          | 'auto' // the default
          | 'manual'
          | ((a: string, b: string) => number);
        inject?: false | true | 'head' | 'body';
        title?: string;
        mode?: 'a' | 'b';
    }
}
export = PagePlugin;
"""


def test_a_constructor_option_typed_by_fewer_string_literals_is_narrowed(tmp_path: Path):
    old = signatures(_write(tmp_path / "o.d.ts", PLUGIN_OLD))
    new = signatures(_write(tmp_path / "n.d.ts", PLUGIN_NEW))
    assert new.function("default") == old.function("default")  # the constructor's parameters
    assert new.literals["Options"]["sortMode"] == {"auto", "manual"}
    assert "title" not in new.literals["Options"]  # any string
    # sortMode lost 'none' and 'dependency'; inject allows the same strings; mode is new
    assert option_values_narrowed(old, new, "default") == [(0, "sortMode", {"auto", "manual"})]
    # with no declarations of its own in the old release, what the new one allows is all
    # that is known: each option typed by literals is a check a call can fail
    got = option_values_narrowed(Signatures(), new, "default")
    assert [o for _, o, _ in got] == ["inject", "mode", "sortMode"]


def test_the_string_values_an_object_literal_argument_gives_its_keys():
    assert object_strings("{ sortMode: 'dependency', n: 1, inject: true, t: `x` }") == (
        ("sortMode", "dependency"), ("t", "x"),
    )  # fmt: skip
    assert object_strings('{ ...base, mode: "a" }') == (("mode", "a"),)
    assert object_strings("options") is None


def test_an_option_the_new_closed_declarations_no_longer_list_is_removed(tmp_path: Path):
    base = "interface Base { timeout?: number }\n"
    decl = (
        "export interface Opts extends Base { poolSize?: number;%s }\n"
        + base
        + ("export declare function connect(url: string, o?: Opts): void;\n")
    )
    old = signatures(_write(tmp_path / "old.d.ts", decl % " useLegacy?: boolean;"))
    new = signatures(_write(tmp_path / "new.d.ts", decl % ""))
    assert options_removed(old, new, "connect") == [(1, "useLegacy")]
    # an index signature (or a base not declared here) takes any key: nothing is known gone
    opened = signatures(_write(tmp_path / "open.d.ts", decl % " [key: string]: unknown;"))
    assert options_removed(old, opened, "connect") == []
    unseen = signatures(_write(tmp_path / "unseen.d.ts", decl.replace(base, "") % ""))
    assert options_removed(old, unseen, "connect") == []
    # the guard fixture: Options had an index signature before, none now; audience stays
    assert options_removed(signatures(_write(tmp_path / "g1.d.ts", OLD)),
                           signatures(_write(tmp_path / "g2.d.ts", NEW)), "default") == []  # fmt: skip


def test_functions_re_exported_from_other_files_and_their_positional_limit(tmp_path):
    # the entry declares no function itself: `export { run } from './run'` (and a type-only
    # re-export of the same file first, which must not hide the functions)
    for version, run in {
        "old": "export function run(args: A): R;\nexport function run(s: S, src: string, root?: unknown): R;\n"
               "export function each(...items: unknown[]): void;\n",
        "new": "export declare function run(args: A): R;\nexport declare function each(first: unknown): void;\n",
    }.items():  # fmt: skip
        folder = tmp_path / version / "lib"
        folder.mkdir(parents=True)
        (folder / "run.d.ts").write_text(run)
        (tmp_path / version / "index.d.ts").write_text(
            "export type { A } from './lib/run';\nexport { run, each } from './lib/run';\n"
        )
    old, new = signatures(tmp_path / "old/index.d.ts"), signatures(tmp_path / "new/index.d.ts")
    assert positional_limit(old, new, "run") == (3, 1)
    assert positional_limit(old, new, "each") is None  # `...items` took any number
    assert positional_limit(new, old, "run") is None  # more arguments now: nothing breaks


def test_a_const_typed_by_an_interface_method_takes_its_signatures(tmp_path):
    # stop 54: `export const get: IDefaultEnv['get']` (through `type IDefaultEnv = IEnv<…>`)
    # replaced `export function get(name, fallback)`: a false safe when it read as no function
    old = _write(tmp_path / "old.d.ts",
                 "export function get(): Env;\nexport function get(name: string): Opt;\n"
                 "export function get(name: string, fallback: string): Present;\n")  # fmt: skip
    new = _write(tmp_path / "new.d.ts",
                 "interface IEnv<V, C> {\n  get (): C,\n  get (name: keyof C): V;\n"
                 "  from(values: C): IEnv<V, C>;\n}\n"
                 "type IDefaultEnv = IEnv<Opt, Record<string, string>>\n"
                 "export const get: IDefaultEnv['get']\n"
                 "export declare const from: IEnv<Opt, Env>['from'];\n")  # fmt: skip
    old_sigs, new_sigs = signatures(old), signatures(new)
    assert positional_limit(old_sigs, new_sigs, "get") == (2, 1)
    assert [len(o) for o in new_sigs.overloads("get")] == [0, 1]
    assert "get" in new_sigs.callables()
