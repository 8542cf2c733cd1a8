"""A generic type that needs more type arguments than before (#27, stop 52): a dropped
default makes every bare use a compile error, though the name is still exported."""

from __future__ import annotations

import json
from pathlib import Path

from depbot.ecosystems.npm.api.generics import type_parameters
from depbot.ecosystems.npm.api.model import npm_changes, read_package

OLD = """export type Match<P extends object = object> = false | { params: P };
export interface Options<T = any> { value: T }
export declare class Box<T, U = string> { v: T }
declare type Hidden<A = 1> = A;
export declare function match<P extends object>(path: string): Match<P>;
"""
NEW = """export type Match<P extends ParamData> = false | { params: P };
export interface Options<T = any> { value: T }
export declare class Box<T, U> { v: T }
declare type Hidden<A> = A;
export declare function match<P extends ParamData>(path: string): Match<P>;
"""


def test_each_generic_type_with_its_parameters_and_how_many_need_an_argument(tmp_path: Path):
    (tmp_path / "index.d.ts").write_text(OLD)
    assert type_parameters(tmp_path / "index.d.ts") == {
        "Match": (1, 0), "Options": (1, 0), "Box": (2, 1), "Hidden": (1, 0),
    }  # fmt: skip


def _release(root: Path, version: str, types: str) -> Path:
    root.mkdir()
    (root / "package.json").write_text(
        json.dumps({"name": "routes", "version": version, "types": "index.d.ts"})
    )
    (root / "index.js").write_text("exports.match = function () {};\n")
    (root / "index.d.ts").write_text(types)
    return root


def test_a_type_that_needs_more_arguments_is_an_api_change(tmp_path: Path):
    old = read_package(_release(tmp_path / "old", "6.2.0", OLD), "routes-6.2.0", [])
    new = read_package(_release(tmp_path / "new", "8.0.0", NEW), "routes-8.0.0", [])
    got = [(c.path, c.detail) for c in npm_changes(old, new, []) if c.kind == "type_args_required"]
    # Hidden is not exported: no use can name it
    assert got == [("routes:Box", "1 → 2"), ("routes:Match", "0 → 1")]
