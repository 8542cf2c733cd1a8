"""npm / yarn / pnpm workspaces: each member's package.json with the versions of the root lock."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from depbot.ecosystems.npm.workspaces import is_member, workspace_globs
from depbot.updates.manifests.scan import read_manifest
from tests.helpers.locks import BERRY, pkg


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def locked(deps):
    return {d.name: (d.installed, d.manifest) for d in deps}


def test_yarn_berry_workspace_members_use_the_root_lock(tmp_path):
    write(
        tmp_path,
        {
            "package.json": pkg(
                "monorepo", {}, {"typescript": "^5.4.0"}, workspaces=["packages/*"]
            ),
            "yarn.lock": BERRY,
            "packages/ui/package.json": pkg("@acme/ui", {"react": "^18.2.0"}),
            "packages/api/package.json": pkg(
                "@acme/api", {"express": "^4.18.2", "@acme/ui": "workspace:^"}
            ),
            "tools/script/package.json": pkg("script", {"react": "^18.2.0"}),
        },
    )
    root, _ = read_manifest(tmp_path / "package.json", tmp_path)
    ui, _ = read_manifest(tmp_path / "packages/ui/package.json", tmp_path)
    api, warnings = read_manifest(tmp_path / "packages/api/package.json", tmp_path)
    script, _ = read_manifest(tmp_path / "tools/script/package.json", tmp_path)
    assert locked(root) == {"typescript": ("5.4.5", "package.json")}
    assert locked(ui) == {"react": ("18.3.1", "packages/ui/package.json")}
    assert locked(api) == {"express": ("4.19.2", "packages/api/package.json")}
    assert any("skipped @acme/ui (a local or workspace package" in w for w in warnings)
    assert locked(script) == {"react": (None, "tools/script/package.json")}  # not a member


PNPM_WORKSPACE_LOCK = """\
lockfileVersion: '9.0'

importers:

  .:
    devDependencies:
      turbo:
        specifier: ^1.13.0
        version: 1.13.2

  apps/web:
    dependencies:
      '@acme/ui':
        specifier: workspace:*
        version: link:../../packages/ui
      next:
        specifier: ^14.1.0
        version: 14.1.4(react@18.2.0)

  packages/ui:
    dependencies:
      react:
        specifier: ^18.2.0
        version: 18.2.0

packages:

  next@14.1.4:
    resolution: {integrity: sha512-abc}

  react@18.2.0:
    resolution: {integrity: sha512-def}
"""


def test_pnpm_workspace_members_use_their_importer(tmp_path):
    write(
        tmp_path,
        {
            "package.json": pkg("monorepo", {}, {"turbo": "^1.13.0"}),
            "pnpm-workspace.yaml": "packages:\n  - 'apps/*'\n  - 'packages/*'\n  - '!**/test/**'\n",
            "pnpm-lock.yaml": PNPM_WORKSPACE_LOCK,
            "apps/web/package.json": pkg("web", {"next": "^14.1.0", "@acme/ui": "workspace:*"}),
            "packages/ui/package.json": pkg("@acme/ui", {"react": "^18.2.0"}),
        },
    )
    assert locked(read_manifest(tmp_path / "package.json", tmp_path)[0]) == {
        "turbo": ("1.13.2", "package.json")
    }
    web, _ = read_manifest(tmp_path / "apps/web/package.json", tmp_path)
    ui, _ = read_manifest(tmp_path / "packages/ui/package.json", tmp_path)
    assert locked(web) == {"next": ("14.1.4", "apps/web/package.json")}
    assert locked(ui) == {"react": ("18.2.0", "packages/ui/package.json")}


def test_npm_workspace_member_prefers_its_own_nested_lock_entry(tmp_path):
    lock = {
        "name": "monorepo",
        "lockfileVersion": 3,
        "packages": {
            "": {"name": "monorepo", "workspaces": ["packages/*"]},
            "node_modules/lodash": {"version": "4.17.21"},
            "node_modules/chalk": {"version": "5.3.0"},
            "node_modules/cli": {"resolved": "packages/cli", "link": True},
            "packages/cli": {"name": "cli", "version": "1.0.0"},
            "packages/cli/node_modules/chalk": {"version": "4.1.2"},
        },
    }
    write(
        tmp_path,
        {
            "package.json": pkg("monorepo", {}, workspaces={"packages": ["packages/*"]}),
            "package-lock.json": json.dumps(lock),
            "packages/cli/package.json": pkg("cli", {"chalk": "^4.1.0", "lodash": "^4.17.0"}),
        },
    )
    cli, warnings = read_manifest(tmp_path / "packages/cli/package.json", tmp_path)
    assert locked(cli) == {
        "chalk": ("4.1.2", "packages/cli/package.json"),
        "lodash": ("4.17.21", "packages/cli/package.json"),
    }
    assert warnings == []


def test_a_broken_workspace_list_means_no_root_lock(tmp_path):
    write(
        tmp_path,
        {
            "package.json": pkg("monorepo", {}),
            "pnpm-workspace.yaml": "packages: [unclosed\n",
            "pnpm-lock.yaml": PNPM_WORKSPACE_LOCK,
            "packages/ui/package.json": pkg("@acme/ui", {"react": "^18.2.0"}),
        },
    )
    ui, _ = read_manifest(tmp_path / "packages/ui/package.json", tmp_path)
    assert locked(ui) == {"react": (None, "packages/ui/package.json")}


@pytest.mark.parametrize(
    ("folder", "globs", "member"),
    [
        ("packages/ui", ["packages/*"], True),
        ("packages/ui/inner", ["packages/*"], False),
        ("packages/ui/inner", ["packages/**"], True),
        ("apps/web", ["./apps/*/"], True),
        ("apps/test/x", ["apps/**", "!**/test/**"], False),
        ("libs/a", ["packages/*"], False),
        ("x.y", ["x?y"], True),
    ],
)
def test_workspace_globs(folder, globs, member):
    assert is_member(folder, globs) is member


def test_workspace_globs_of_both_spellings():
    assert workspace_globs({"workspaces": ["a/*", 3]}) == ["a/*"]
    assert workspace_globs({"workspaces": {"packages": ["b/*"], "nohoist": ["**/x"]}}) == ["b/*"]
    assert workspace_globs({"packages": ["c/*"]}) == ["c/*"]  # pnpm-workspace.yaml
    assert workspace_globs(["not", "a", "table"]) == []


@pytest.mark.parametrize(
    ("lock_name", "lock_text"),
    [
        ("yarn.lock", '# yarn lockfile v1\n\nlodash@^4.17.0:\n  version "4.17.21"\n'),
        (
            "package-lock.json",
            json.dumps(
                {
                    "lockfileVersion": 3,
                    "packages": {
                        "node_modules/lodash": {"version": "4.17.21"},
                        "node_modules/@acme/core": {"resolved": "packages/core", "link": True},
                    },
                }
            ),  # fmt: skip
        ),
    ],
)
def test_a_range_on_a_package_of_the_same_workspace_is_linked_not_a_registry_update(
    tmp_path, lock_name, lock_text
):
    """npm and yarn link a workspace's own packages whatever range names them: a member's
    `"@acme/core": "^2.0.0"` is no registry update (the published @acme/core is another
    thing); a package outside the workspace of that name would be."""
    write(
        tmp_path,
        {
            "package.json": pkg("monorepo", {}, workspaces=["packages/*"]),
            lock_name: lock_text,
            "packages/core/package.json": pkg("@acme/core", {}),
            "packages/cli/package.json": pkg("cli", {"@acme/core": "^2.0.0", "lodash": "^4.17.0"}),
            "site/package.json": pkg("site", {"@acme/core": "2.0.0"}),
        },
    )
    cli, warnings = read_manifest(tmp_path / "packages/cli/package.json", tmp_path)
    assert locked(cli) == {"lodash": ("4.17.21", "packages/cli/package.json")}
    assert warnings == [
        "packages/cli/package.json line 1: skipped @acme/core "
        "(a package of this workspace, linked from packages/core: '^2.0.0')"
    ]
    site, _ = read_manifest(tmp_path / "site/package.json", tmp_path)
    assert [d.name for d in site] == ["@acme/core"]  # not a member: from the registry


def test_one_scan_walks_a_workspace_once_for_all_its_members(tmp_path, monkeypatch):
    """Every member asks for the workspace's package names: one scan walks the tree once
    (it walked it once per member, node_modules included: 0.95 s for 20 members)."""
    from depbot.ecosystems.npm import workspaces

    walks: list[Path] = []
    real = workspaces._package_jsons
    monkeypatch.setattr(workspaces, "_package_jsons", lambda f: walks.append(f) or real(f))
    files = {
        "package.json": pkg("monorepo", {}, workspaces=["packages/*"]),
        "package-lock.json": "{}",
    }
    for i in range(5):
        files[f"packages/p{i}/package.json"] = pkg(
            f"@acme/p{i}", {f"@acme/p{(i + 1) % 5}": "^1.0.0"}
        )
    write(tmp_path, files)
    memo: dict = {}
    for i in range(5):
        deps, warnings = read_manifest(
            tmp_path / f"packages/p{i}/package.json", tmp_path, memo=memo
        )
        assert deps == [] and "a package of this workspace" in warnings[0]
    assert walks == [tmp_path]
