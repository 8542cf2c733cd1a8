"""`export * from 'other'`: the packages a release re-exports, their versions, their names."""

from __future__ import annotations

import json
from pathlib import Path

from depbot.apidiff import diff_releases
from depbot.ecosystems.npm.api.reexports import dependency_range, newest_in_range, re_exported


def _release(root: Path, manifest: dict, files: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    (root / "package.json").write_text(json.dumps(manifest), encoding="utf-8")
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def _dom(root: Path, version: str, core_range: str, own: str = "") -> Path:
    manifest = {"name": "dom", "version": version, "types": "index.d.ts",
                "dependencies": {"@kit/core": core_range}}  # fmt: skip
    body = 'export * from "@kit/core";\nexport * from "./extra";\n'
    return _release(root, manifest, {"index.d.ts": body, "extra.d.ts": own})


def _core(root: Path, names: list[str]) -> Path:
    text = "".join(f"export declare function {n}(): void;\n" for n in names)
    return _release(root, {"name": "@kit/core", "types": "index.d.ts"}, {"index.d.ts": text})


def test_the_packages_a_release_re_exports_are_found_through_its_own_files(tmp_path: Path):
    root = _dom(tmp_path / "dom", "1.0.0", "^1.2.0", 'export * from "other/sub";\n')
    assert re_exported(root) == ["@kit/core", "other"]
    assert dependency_range(root, "@kit/core") == "^1.2.0"
    assert dependency_range(root, "other") is None  # not a dependency: no version to read


def test_the_version_read_is_the_newest_stable_one_its_range_allows():
    published = ["1.1.0", "1.2.0", "1.4.1", "1.5.0-beta.1", "2.0.0"]
    assert newest_in_range("^1.2.0", published) == "1.4.1"
    assert newest_in_range("1.2.0", published) == "1.2.0"
    assert newest_in_range("^3.0.0", published) is None


def test_names_re_exported_from_a_dependency_are_part_of_the_api(tmp_path: Path):
    old = _dom(tmp_path / "old", "1.0.0", "1.0.0")
    new = _dom(tmp_path / "new", "2.0.0", "2.0.0")
    core1 = _core(tmp_path / "core1", ["Switch", "Route", "useHistory"])
    core2 = _core(tmp_path / "core2", ["Routes", "Route"])
    foreign = {"old": {"@kit/core": core1}, "new": {"@kit/core": core2}}
    diff = diff_releases("npm", old, new, foreign=foreign)
    removed = {c.detail for c in diff.changes if c.kind == "export_removed"}
    assert removed == {"Switch", "useHistory"}
    assert {"dom:Route", "dom:Switch"} <= set(diff.old_api or {})
    assert "dom:Routes" in (diff.new_api or {})
    assert not [n for n in diff.notes if "not read" in n]


def test_a_re_exported_package_that_was_not_read_is_said_and_hides_nothing_as_removed(
    tmp_path: Path,
):
    old = _dom(tmp_path / "old", "1.0.0", "1.0.0", "export declare const a: 1;\n")
    new = _dom(tmp_path / "new", "2.0.0", "2.0.0", "export declare const a: 1;\n")
    core1 = _core(tmp_path / "core1", ["Switch"])
    diff = diff_releases("npm", old, new, foreign={"old": {"@kit/core": core1}})
    assert "new: re-exports all of @kit/core, not read" in diff.notes
    # Switch may still come in through the unread package: not a removal, not `present`
    assert "dom:Switch" not in (diff.new_api or {})
    assert not [c for c in diff.changes if c.kind == "export_removed"]
    assert any("maybe re-exported from @kit/core" in n for n in diff.notes)


def _atoms(root: Path, version: str, files: dict[str, str]) -> Path:
    manifest = {"name": "atoms", "version": version, "types": "./index.d.ts",
                "exports": {".": {"types": "./index.d.ts", "default": "./index.js"},
                            "./*": {"types": "./*.d.ts", "default": "./*.js"}}}  # fmt: skip
    return _release(root, manifest, files)


def test_a_release_re_exporting_its_own_entry_points_through_an_exports_pattern(tmp_path: Path):
    # 1: every name in index; 2: index re-exports `atoms/react` (a pattern), `atoms/devtools`
    # is gone (the pattern still matches it, no file does), `atoms/utils` lost a name
    old = _atoms(tmp_path / "old", "1.0.0", {
        "index.d.ts": "export declare function atom(): void;\nexport declare function useAtom(): void;\n",
        "index.js": "", "devtools.d.ts": "export declare function useDevtools(): void;\n",
        "devtools.js": "", "utils.d.ts": "export declare function derive(): void;\n"
                                          "export declare function split(): void;\n",
        "utils.js": "",
    })  # fmt: skip
    new = _atoms(tmp_path / "new", "2.0.0", {
        "index.d.ts": "export * from 'atoms/vanilla';\nexport * from 'atoms/react';\n",
        "index.js": "", "vanilla.d.ts": "export declare function atom(): void;\n", "vanilla.js": "",
        "react.d.ts": "export declare function useAtom(): void;\n", "react.js": "",
        "utils.d.ts": "export declare function split(): void;\n", "utils.js": "",
    })  # fmt: skip
    diff = diff_releases("npm", old, new)
    changes = {(c.kind, c.path, c.detail) for c in diff.changes}
    assert ("subpath_removed", "atoms/devtools", "no such file") in changes
    assert ("export_removed", "atoms/utils", "derive") in changes
    assert not [c for c in changes if c[0] == "export_removed" and c[1] == "atoms"]  # kept
    assert not [n for n in diff.notes if "not read" in n]


def test_a_stylesheet_code_imports_is_a_file_of_the_release(tmp_path: Path):
    from depbot.artifacts.keep import target
    from depbot.ecosystems.npm.api.model import read_package
    from depbot.ecosystems.npm.api.surface import npm_surface

    # the artifact keeps the text files code may import, not images
    assert target("npm", "tarball", "package/dist/tip.css") == "dist/tip.css"
    assert target("npm", "tarball", "package/dist/logo.png") is None
    js = "module.exports = function tip() {};\n"
    old = _release(tmp_path / "old", {"name": "tip", "main": "dist/tip.js"},
                   {"dist/tip.js": js, "dist/tip.css": ".tip{}", "dist/theme.css": ".t{}"})  # fmt: skip
    new = _release(tmp_path / "new", {"name": "tip", "main": "dist/tip.js"},
                   {"dist/tip.js": js, "dist/tip.css": ".tip{}"})  # fmt: skip
    surface = npm_surface(read_package(old, "tip-1", []), "tip")
    assert surface["tip/dist/tip.css"] == "file"
    changes = {(c.kind, c.path) for c in diff_releases("npm", old, new).changes}
    assert ("subpath_removed", "tip/dist/theme.css") in changes
    assert ("subpath_removed", "tip/dist/tip.css") not in changes
