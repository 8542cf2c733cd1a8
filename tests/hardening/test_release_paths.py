"""#28 item 8: every path a release's package.json names (types, typings, main, exports) is
read inside the release folder, or not at all: an absolute path or one that climbs out made
the "released API" out of the checkout's own files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from depbot.ecosystems.npm.api.model import declaration_file, read_package, subpath_names


def _release(root: Path, manifest: dict) -> Path:
    root.mkdir(parents=True)
    (root / "package.json").write_text(json.dumps({"name": "lib", **manifest}))
    (root / "index.js").write_text("exports.kept = 1;\n")
    return root


@pytest.fixture()
def outside(tmp_path: Path) -> Path:
    src = tmp_path / "checkout" / "src"
    src.mkdir(parents=True)
    (src / "internal.js").write_text("export function secretThing() {}\n")
    (src / "internal.d.ts").write_text("export declare function secretThing(): void;\n")
    return src


@pytest.mark.parametrize(
    "manifest",
    [
        {"exports": {".": "__ABS__/internal.js"}},
        {"exports": {".": {"types": "__ABS__/internal.d.ts", "default": "./index.js"}}},
        {"types": "../checkout/src/internal.d.ts"},
        {"typings": "__ABS__/internal.d.ts"},
        {"main": "../checkout/src/internal.js"},
    ],
)
def test_a_path_out_of_the_release_is_not_read(tmp_path, outside, manifest):
    text = json.dumps(manifest).replace("__ABS__", str(outside))
    root = _release(tmp_path / "release", json.loads(text))
    notes: list[str] = []
    package = read_package(root, "lib 1.0.0", notes)
    names = subpath_names(package, ".") or set()
    assert "secretThing" not in names
    found = declaration_file(package)
    assert found is None or found.resolve().is_relative_to(root.resolve())


def test_a_path_inside_the_release_is_still_read(tmp_path):
    root = _release(tmp_path / "release", {"types": "./types/index.d.ts"})
    (root / "types").mkdir()
    (root / "types" / "index.d.ts").write_text("export declare function kept(): void;\n")
    package = read_package(root, "lib 1.0.0", [])
    assert declaration_file(package) == root / "./types/index.d.ts"
    assert "kept" in (subpath_names(package, ".") or set())


def test_a_release_whose_package_json_cannot_be_read_is_not_compared(tmp_path):
    # #28 item 6's last point: 100,000 levels deep, or not an object: nothing of it was seen
    from depbot.apidiff import diff_releases

    for n, bad in enumerate(("[" * 100_000 + "]" * 100_000, "[1, 2]")):
        old = tmp_path / str(n) / "old"
        _release(old, {})
        (old / "package.json").write_text(bad)
        new = _release(tmp_path / str(n) / "new", {"version": "2.0.0"})
        diff = diff_releases("npm", old, new)
        assert diff.stats.get("unread") and diff.stats.get("incomplete")
        assert any("package.json" in n for n in diff.notes)
