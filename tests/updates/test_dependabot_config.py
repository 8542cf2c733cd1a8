"""dependabot.yml (and depbot.yml's ``updates:``) decide which updates are collected.

Real files in a tmp checkout, the loopback fake registry, ``collect_updates`` as callers use it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from depbot.core.errors import ConfigError
from depbot.fakes.loopback import LoopbackServer
from depbot.updates.sources import collect_updates
from tests.helpers.fake_registry import FakeRegistry, pull
from tests.helpers.settings import loopback_settings


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


@pytest.fixture
def upstream():
    fake = FakeRegistry()
    fake.add_pypi("requests", "2.31.0", "2.32.3", "3.0.0", "3.1.0")
    fake.add_pypi("Django", "4.2.7", "4.2.11", "5.0.1")
    fake.add_pypi("django-extensions", "3.2.0", "3.2.3")
    fake.add_pypi("pytest", "7.4.4", "8.0.0")
    fake.add_pypi("idna", "3.4", "3.7")
    fake.add_npm("express", "4.18.2", "4.19.2", "5.0.0", "5.1.0")
    fake.add_npm("@types/node", "20.1.0", "20.2.0", "21.0.0")
    fake.add_npm("jest", "29.6.4", "29.7.0", "30.0.0")
    with LoopbackServer(fake) as srv:
        fake.base_url = srv.url
        yield fake, srv


def run(srv, repo, **kw):
    settings = loopback_settings(srv.url, **kw.pop("settings", {}))
    return collect_updates(settings, repo=repo, **kw)


def table(updates):
    return {u.package: u.to_version for u in updates}


PIP = "requests==2.31.0\nDjango==4.2.7\ndjango_extensions==3.2.0\n"
NPM = json.dumps(
    {
        "dependencies": {"express": "4.18.2", "@types/node": "20.1.0"},
        "devDependencies": {"jest": "29.6.4"},
    }
)


def checkout(tmp_path: Path, config: str, **more: str) -> Path:
    files = {
        ".github/dependabot.yml": config,
        "requirements.txt": PIP,
        "requirements-dev.txt": "pytest==7.4.4\n",
        "package.json": NPM,
    }
    files.update(more)
    return write(tmp_path, files)


def test_without_dependabot_yml_nothing_is_filtered(upstream, tmp_path):
    _, srv = upstream
    write(tmp_path, {"requirements.txt": PIP})
    updates, warnings = run(srv, tmp_path)
    assert len(updates) == 3
    assert not any("dependabot.yml" in w for w in warnings)


def test_name_wildcards_ignore_every_update_of_the_matches(upstream, tmp_path):
    _, srv = upstream
    config = """
version: 2
updates:
  - package-ecosystem: pip
    directory: "/"
    schedule: {interval: weekly}
    ignore:
      - dependency-name: "django*"        # Django and django-extensions (PEP 503 names)
  - package-ecosystem: npm
    directory: "/"
    ignore:
      - dependency-name: "@types/*"
"""
    updates, warnings = run(srv, checkout(tmp_path, config))
    assert table(updates) == {
        "requests": "3.1.0",
        "pytest": "8.0.0",
        "express": "5.1.0",
        "jest": "30.0.0",
    }
    assert "dependabot.yml: 3 updates ignored (3 by ignore rules)" in warnings


def test_pip_versions_ranges_move_the_update_below_them(upstream, tmp_path):
    _, srv = upstream
    config = """
version: 2
updates:
  - package-ecosystem: pip
    directory: "/"
    ignore:
      - dependency-name: requests
        versions: [">=3.0"]              # Dependabot then proposes 2.32.3
      - dependency-name: Django
        versions: [">=4.2.8, <5", "5.0.1"]  # nothing left above 4.2.7
"""
    updates, warnings = run(srv, checkout(tmp_path, config, **{"package.json": "{}"}))
    assert table(updates) == {
        "requests": "2.32.3",
        "django_extensions": "3.2.3",
        "pytest": "8.0.0",
    }
    moved = next(u for u in updates if u.package == "requests")
    assert moved.update_type == "minor"
    assert (
        "dependabot.yml: 1 update ignored (1 by ignore rules); "
        "1 moved to the newest version the ignore rules allow"
    ) in warnings


def test_npm_versions_ranges_in_npm_syntax(upstream, tmp_path):
    _, srv = upstream
    config = """
version: 2
updates:
  - package-ecosystem: npm
    directory: "/"
    ignore:
      - dependency-name: express
        versions: ["5.x"]
      - dependency-name: jest
        versions: ["^30.0.0 || >=31"]
      - dependency-name: "@types/node"
        versions: [">= 20.2.0"]
"""
    files = {"requirements.txt": "", "requirements-dev.txt": ""}
    updates, warnings = run(srv, checkout(tmp_path, config, **files))
    assert table(updates) == {"express": "4.19.2", "jest": "29.7.0"}
    assert any("1 update ignored (1 by ignore rules); 2 moved" in w for w in warnings)


def test_update_types_ignore_majors_for_everything(upstream, tmp_path):
    _, srv = upstream
    config = """
version: 2
updates:
  - package-ecosystem: pip
    directory: "/"
    ignore:
      - dependency-name: "*"
        update-types: ["version-update:semver-major"]
  - package-ecosystem: npm
    directory: "/"
    ignore:
      - dependency-name: "*"
        update-types: ["version-update:semver-major", "version-update:semver-patch"]
"""
    updates, _ = run(srv, checkout(tmp_path, config))
    assert table(updates) == {
        "requests": "2.32.3",  # 3.x is major: the newest minor instead
        "Django": "4.2.11",
        "django_extensions": "3.2.3",
        "express": "4.19.2",  # a minor: neither major nor patch
        "@types/node": "20.2.0",
        "jest": "29.7.0",
    }  # pytest has nothing but 8.0.0 above 7.4.4: ignored
    assert {u.update_type for u in updates} == {"minor", "patch"}


def test_directories_and_globs(upstream, tmp_path):
    _, srv = upstream
    config = """
version: 2
updates:
  - package-ecosystem: pip
    directories: ["/services/*", "/libs/**"]
  - package-ecosystem: npm
    directory: "/web"
"""
    write(
        tmp_path,
        {
            ".github/dependabot.yml": config,
            "requirements.txt": "requests==2.31.0\n",  # the root: not configured
            "services/api/requirements.txt": "Django==4.2.7\n",
            "services/api/deep/requirements.txt": "idna==3.4\n",  # * stays in one folder
            "libs/a/b/requirements.txt": "pytest==7.4.4\n",
            "libs/requirements.txt": "django-extensions==3.2.0\n",  # libs/** includes libs
            "package.json": json.dumps({"dependencies": {"express": "4.18.2"}}),
            "web/package.json": json.dumps({"dependencies": {"@types/node": "20.1.0"}}),
        },
    )
    updates, warnings = run(srv, tmp_path)
    assert sorted((u.package, u.manifest) for u in updates) == [
        ("@types/node", "web/package.json"),
        ("Django", "services/api/requirements.txt"),
        ("django-extensions", "libs/requirements.txt"),
        ("pytest", "libs/a/b/requirements.txt"),
    ]
    assert "dependabot.yml: 3 updates ignored (3 outside the configured directories)" in warnings


def test_allow_dependency_types(upstream, tmp_path):
    _, srv = upstream
    config = """
version: 2
updates:
  - package-ecosystem: npm
    directory: "/"
    allow:
      - dependency-type: development
  - package-ecosystem: pip
    directory: "/"
    allow:
      - dependency-type: production
        dependency-name: "django*"
"""
    updates, warnings = run(srv, checkout(tmp_path, config))
    assert table(updates) == {"jest": "30.0.0", "Django": "5.0.1", "django_extensions": "3.2.3"}
    assert "dependabot.yml: 4 updates ignored (4 not matched by the allow rules)" in warnings


def test_indirect_needs_allow_indirect_or_all(upstream, tmp_path):
    _, srv = upstream
    files = {  # pip-compile output: idna came in through requests only
        "requirements.txt": "requests==2.31.0\n    # via -r requirements.in\n"
        "idna==3.4\n    # via requests\n",
        "requirements-dev.txt": "",
        "package.json": "{}",
    }
    base = "version: 2\nupdates:\n  - package-ecosystem: pip\n    directory: /\n"
    kinds = {}
    for allow in (
        "",
        "    allow: [{dependency-type: indirect}]\n",
        "    allow: [{dependency-type: all}]\n",
    ):
        updates, _ = run(srv, checkout(tmp_path, base + allow, **files))
        kinds[allow.split(":")[-1].strip(" }]\n") or "default"] = sorted(
            (u.package, u.dependency_kind) for u in updates
        )
    indirect = [k for k in kinds["all"] if k[1] == "indirect"]
    assert indirect == [("idna", "indirect")], kinds
    assert all(k[1] != "indirect" for k in kinds["default"])  # direct ones by default
    assert kinds["indirect"] == indirect
    assert set(kinds["all"]) == set(kinds["default"]) | set(indirect)


def test_other_ecosystems_get_one_note_and_unconfigured_ones_are_skipped(upstream, tmp_path):
    _, srv = upstream
    config = """
version: 2
updates:
  - package-ecosystem: github-actions
    directory: "/"
  - package-ecosystem: docker
    directory: "/"
  - package-ecosystem: pip
    directory: "/"
"""
    updates, warnings = run(srv, checkout(tmp_path, config))
    assert {u.ecosystem for u in updates} == {"pip"}
    assert (
        "dependabot.yml: docker not read (depbot triages pip, npm and github-actions updates)"
        in warnings
    )
    assert (
        "dependabot.yml: 3 updates ignored (3 of an ecosystem it does not configure); it has no `npm` entry (an `updates:` list in .github/depbot.yml replaces its rules)"
        in warnings
    )


def test_a_broken_dependabot_yml_is_a_warning_and_is_not_applied(upstream, tmp_path):
    _, srv = upstream
    config = """
version: 2
updates:
  - package-ecosystem: pip
    directory: "/"
    ignore:
      - dependency-name: requests
        update-types: ["semver-major"]
"""
    updates, warnings = run(srv, checkout(tmp_path, config))
    assert len(updates) == 7
    assert (
        ".github/dependabot.yml: updates[0].ignore[0].update-types[0]: 'semver-major' is not one "
        "of version-update:semver-major, version-update:semver-minor, "
        "version-update:semver-patch; dependabot.yml is not applied"
    ) in warnings


def test_depbot_yml_updates_override_dependabot_yml(upstream, tmp_path):
    _, srv = upstream
    repo = checkout(
        tmp_path, "version: 2\nupdates:\n  - package-ecosystem: npm\n    directory: /\n"
    )
    write(
        repo,
        {
            ".github/depbot.yml": """
updates:
  - package-ecosystem: pip            # no directory: the whole checkout
    ignore:
      - dependency-name: pytest
""",
        },
    )
    updates, warnings = run(srv, repo)
    assert {u.ecosystem for u in updates} == {"pip"}
    assert "pytest" not in table(updates)
    assert (
        "depbot.yml: 4 updates ignored (1 by ignore rules, 3 of an ecosystem it does not configure); it has no `npm` entry"
        in warnings
    )

    (repo / ".github/depbot.yml").write_text("updates: []\n")  # no rules at all
    updates, warnings = run(srv, repo)
    assert len(updates) == 7 and not any("ignored" in w for w in warnings)


def test_depbot_yml_errors_end_the_collection_before_any_request(upstream, tmp_path):
    _, srv = upstream
    write(
        tmp_path,
        {
            "requirements.txt": PIP,
            ".github/depbot.yml": "updates:\n  - package-ecosystem: pip\n    ignore:\n"
            "      - dependency-name: a\n      - dependency_name: b\n",
        },
    )
    with pytest.raises(ConfigError) as err:
        run(srv, tmp_path)
    assert str(err.value) == (
        ".github/depbot.yml: updates[0].ignore[1]: unknown key 'dependency_name' "
        "(did you mean 'dependency-name'?)"
    )
    assert srv.log == []


@pytest.mark.parametrize(
    "entry, message",
    [
        (
            "  - package-ecosystem: cargo\n",
            "updates[0].package-ecosystem: must be pip, npm or github-actions, got 'cargo'",
        ),
        (
            "  - package-ecosystem: pip\n    ignore: [{dependency-name: a, versions: ['>>2']}]\n",
            "updates[0].ignore[0].versions[0]: '>>2' is not a PEP 440 version specifier",
        ),
        (
            "  - package-ecosystem: npm\n    ignore: [{dependency-name: a, versions: ['^^x']}]\n",
            "updates[0].ignore[0].versions[0]: '^^x' is not an npm range",
        ),
        (
            "  - package-ecosystem: npm\n    allow: [{dependency-type: dev}]\n",
            "updates[0].allow[0].dependency-type: 'dev' is not one of direct, indirect, all, "
            "production, development",
        ),
        (
            "  - package-ecosystem: pip\n    directory: [/a]\n",
            "updates[0].directory: must be one text (use 'directories' for a list)",
        ),
        (
            "  - package-ecosystem: pip\n    ignore: {dependency-name: a}\n",
            "updates[0].ignore: must be a list of entries, got a mapping",
        ),
        (
            "  - package-ecosystem: pip\n    ignore: [{dependency-name: a, versions: []}]\n",
            "updates[0].ignore[0].versions: must be a non-empty list of texts, got a list",
        ),
        (
            "  - package-ecosystem: pip\n    directories: []\n",
            "updates[0].directories: must be a non-empty list of texts, got a list",
        ),
        (
            "  - package-ecosystem: pip\n    ignore: [{versions: ['>1']}]\n",
            "updates[0].ignore[0]: needs a 'dependency-name' (use '*' for every dependency)",
        ),
        (
            "  - package-ecosytem: pip\n",
            "updates[0]: unknown key 'package-ecosytem' (did you mean 'package-ecosystem'?)",
        ),
    ],
)
def test_depbot_yml_entry_problems_name_the_key_path(upstream, tmp_path, entry, message):
    _, srv = upstream
    write(tmp_path, {"requirements.txt": PIP, ".github/depbot.yml": "updates:\n" + entry})
    with pytest.raises(ConfigError) as err:
        run(srv, tmp_path)
    assert str(err.value) == f".github/depbot.yml: {message}"


def test_dependabot_pull_requests_are_filtered_the_same_way(upstream, tmp_path):
    fake, srv = upstream
    fake.pulls["acme/shop"] = [
        pull(
            101,
            "Bump requests from 2.31.0 to 3.1.0",
            "Bumps [requests](https://github.com/psf/requests) from 2.31.0 to 3.1.0.",
            "dependabot/pip/requests-3.1.0",
        ),
        pull(
            102,
            "Bump django from 4.2.7 to 4.2.11",
            "Bumps [django](https://github.com/django/django) from 4.2.7 to 4.2.11.",
            "dependabot/pip/django-4.2.11",
        ),
        pull(
            105,
            "build(deps-dev): bump jest from 29.6.4 to 29.7.0 in /web",
            "Bumps [jest](https://github.com/jestjs/jest) from 29.6.4 to 29.7.0.",
            "dependabot/npm_and_yarn/web/jest-29.7.0",
        ),
    ]
    write(
        tmp_path,
        {
            "requirements.txt": "requests==2.31.0\ndjango==4.2.7\n",
            "web/package.json": '{"devDependencies": {"jest": "29.6.4"}}',
            ".github/dependabot.yml": """
version: 2
updates:
  - package-ecosystem: pip
    directory: /
    ignore: [{dependency-name: requests, update-types: [version-update:semver-major]}]
  - package-ecosystem: npm
    directory: /
""",
        },
    )
    updates, warnings = run(
        srv, tmp_path, dependabot="acme/shop", settings={"github_token": "ghp_fake"}
    )
    assert [u.package for u in updates] == ["django"]
    assert (
        "dependabot.yml: 2 updates ignored (1 by ignore rules, 1 outside the configured "
        "directories)"
    ) in warnings


def test_workspace_members_and_requirements_folders_belong_to_their_root(upstream, tmp_path):
    """Dependabot updates npm workspace members from the root's directory, and reads a
    pip directory's ``requirements/`` folder."""
    _, srv = upstream
    config = """
version: 2
updates:
  - package-ecosystem: npm
    directory: "/"
  - package-ecosystem: pip
    directory: "/"
"""
    write(
        tmp_path,
        {
            ".github/dependabot.yml": config,
            "package.json": json.dumps({"workspaces": ["packages/*"]}),
            "packages/a/package.json": json.dumps({"dependencies": {"express": "4.18.2"}}),
            "tools/x/package.json": json.dumps({"dependencies": {"jest": "29.6.4"}}),
            "requirements/base.txt": "requests==2.31.0\n",
            "other/requirements/base.txt": "idna==3.4\n",
        },
    )
    updates, warnings = run(srv, tmp_path)
    assert sorted((u.package, u.manifest) for u in updates) == [
        ("express", "packages/a/package.json"),
        ("requests", "requirements/base.txt"),
    ]
    assert "dependabot.yml: 2 updates ignored (2 outside the configured directories)" in warnings
