"""Dependabot pull requests to updates: titles, bodies, trailers, branches."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from depbot.updates.dependabot import (
    is_dependabot,
    parse_body,
    parse_branch,
    parse_pull_request,
    parse_pull_requests,
    parse_title,
    parse_trailer,
)

URL = "https://github.com/acme/shop/pull/{}"


def parse(number, title, body, head_ref):
    return parse_pull_request(
        number=number, title=title, body=body, head_ref=head_ref, url=URL.format(number)
    )


# Bodies modelled on real Dependabot pull requests (release-notes cascades shortened).

SINGLE_BODY = """\
Bumps [requests](https://github.com/psf/requests) from 2.31.0 to 2.32.3.
<details>
<summary>Release notes</summary>
<p><em>Sourced from <a href="https://github.com/psf/requests/releases">requests's releases</a>.</em></p>
<blockquote>
<h2>v2.32.3</h2>
<h2>2.32.3 (2024-05-29)</h2>
<p><strong>Bugfixes</strong></p>
<ul>
<li>Fixed bug breaking the ability to specify custom SSLContexts in sub-classes of HTTPAdapter. (<a href="https://redirect.github.com/psf/requests/issues/6716">#6716</a>)</li>
</ul>
</blockquote>
</details>
<details>
<summary>Commits</summary>
<ul>
<li><a href="https://github.com/psf/requests/commit/0e322af"><code>0e322af</code></a> v2.32.3</li>
<li>See full diff in <a href="https://github.com/psf/requests/compare/v2.31.0...v2.32.3">compare view</a></li>
</ul>
</details>
<br />

[![Dependabot compatibility score](https://dependabot-badges.githubapp.com/badges/compatibility_score?dependency-name=requests&package-manager=pip&previous-version=2.31.0&new-version=2.32.3)](https://docs.github.com/en/github/managing-security-vulnerabilities/about-dependabot-security-updates#about-compatibility-scores)

Dependabot will resolve any conflicts with this PR as long as you don't alter it yourself.

---

<details>
<summary>Dependabot commands and options</summary>
<br />

You can trigger Dependabot actions by commenting on this PR:
- `@dependabot rebase` will rebase this PR
</details>
"""

GROUP_LIST_BODY = """\
Bumps the npm_and_yarn group with 2 updates in the / directory: [express](https://github.com/expressjs/express) and [body-parser](https://github.com/expressjs/body-parser).

Updates `express` from 4.18.2 to 4.19.2
<details>
<summary>Release notes</summary>
<p><em>Sourced from <a href="https://github.com/expressjs/express/releases">express's releases</a>.</em></p>
<blockquote>
<h2>4.19.2</h2>
<ul>
<li>Improved fix for open redirect allow list bypass</li>
</ul>
</blockquote>
</details>
<br />

Updates `body-parser` from 1.20.1 to 1.20.2
<details>
<summary>Commits</summary>
<ul>
<li><a href="https://github.com/expressjs/body-parser/commit/ee91374"><code>ee91374</code></a> 1.20.2</li>
</ul>
</details>
<br />

Dependabot will resolve any conflicts with this PR as long as you don't alter it yourself.
"""

GROUP_TABLE_BODY = """\
Bumps the python-packages group with 4 updates:

| Package | From | To |
| --- | --- | --- |
| [urllib3](https://github.com/urllib3/urllib3) | `1.26.18` | `2.2.1` |
| [pytest](https://github.com/pytest-dev/pytest) | `7.4.4` | `8.0.2` |
| [black](https://github.com/psf/black) | `23.12.1` | `24.2.0` |
| [types-requests](https://github.com/python/typeshed) | `2.31.0.6` | `2.31.0.20240218` |


Updates `urllib3` from 1.26.18 to 2.2.1
<details>
<summary>Release notes</summary>
<blockquote>
<h2>2.0.0</h2>
<p>Removed support for Python 2.7 ... the <code>method_whitelist</code> argument of Retry</p>
</blockquote>
</details>
<br />

Updates `pytest` from 7.4.4 to 8.0.2
<details><summary>Commits</summary></details>

Updates `black` from 23.12.1 to 24.2.0
<details><summary>Commits</summary></details>

Updates `types-requests` from 2.31.0.6 to 2.31.0.20240218
<details><summary>Commits</summary></details>

---
updated-dependencies:
- dependency-name: urllib3
  dependency-type: direct:production
  update-type: version-update:semver-major
  dependency-group: python-packages
- dependency-name: pytest
  dependency-type: direct:development
  update-type: version-update:semver-major
  dependency-group: python-packages
- dependency-name: black
  dependency-type: direct:development
  update-type: version-update:semver-major
  dependency-group: python-packages
- dependency-name: types-requests
  dependency-type: direct:development
  update-type: version-update:semver-patch
  dependency-group: python-packages
...
"""

MULTI_DIR_BODY = """\
Bumps the pip group with 2 updates in the /backend directory: [django](https://github.com/django/django) and [celery](https://github.com/celery/celery).
Bumps the pip group with 1 update in the /worker directory: [celery](https://github.com/celery/celery).


Updates `django` from 4.2.7 to 4.2.11
<details><summary>Commits</summary></details>

Updates `celery` from 5.3.4 to 5.3.6
<details><summary>Commits</summary></details>

Updates `celery` from 5.2.7 to 5.3.6
<details><summary>Commits</summary></details>
"""

REQUIREMENT_BODY = """\
Updates the requirements on [pydantic](https://github.com/pydantic/pydantic) to permit the latest version.
Updates `pydantic` to 2.6.3
<details>
<summary>Release notes</summary>
<blockquote><h2>v2.6.3 2024-02-27</h2></blockquote>
</details>
"""


# --- titles ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "title, kind, names, old, new, directory, group",
    [
        ("Bump requests from 2.31.0 to 2.32.3", "single", ("requests",), "2.31.0", "2.32.3", None, None),
        ("bump requests from 2.31.0 to 2.32.3 in /backend", "single", ("requests",), "2.31.0", "2.32.3", "/backend", None),
        ("chore(deps): bump axios from 1.6.0 to 1.6.7 in /web", "single", ("axios",), "1.6.0", "1.6.7", "/web", None),
        ("build(deps-dev): Bump @types/node from 20.1.0 to 20.11.5", "single", ("@types/node",), "20.1.0", "20.11.5", None, None),
        ("[Security] Bump urllib3 from 1.26.17 to 1.26.18", "single", ("urllib3",), "1.26.17", "1.26.18", None, None),
        ("⬆️ Bump lodash from 4.17.20 to 4.17.21", "single", ("lodash",), "4.17.20", "4.17.21", None, None),
        ("Upgrade: Bump eslint from 8.56.0 to 8.57.0", "single", ("eslint",), "8.56.0", "8.57.0", None, None),
        ("Update requests requirement from >=2.28,<3 to >=2.28,<4", "requirement", ("requests",), ">=2.28,<3", ">=2.28,<4", None, None),
        ("Update react requirement from ^17.0.2 to ^18.2.0 in /app", "requirement", ("react",), "^17.0.2", "^18.2.0", "/app", None),
        ("Bump the pip group with 3 updates", "group", (), None, None, None, "pip"),
        ("chore(deps): bump the npm_and_yarn group across 2 directories with 5 updates", "group", (), None, None, None, "npm_and_yarn"),
        ("Bump the dev-tools group in /frontend with 1 update", "group", (), None, None, "/frontend", "dev-tools"),
        ("Bump flask from 2.3.3 to 3.0.2 in the pip group", "single", ("flask",), "2.3.3", "3.0.2", None, "pip"),
        ("bump flask from 2.3.3 to 3.0.2 in the web group in /api", "single", ("flask",), "2.3.3", "3.0.2", "/api", "web"),
        ("Bump express and body-parser in /server", "names", ("express", "body-parser"), None, None, "/server", None),
        ("Update requirements for black, isort and flake8", "names", ("black", "isort", "flake8"), None, None, None, None),
    ],
)  # fmt: skip
def test_titles(title, kind, names, old, new, directory, group):
    t = parse_title(title)
    assert t is not None
    assert (t.kind, t.names, t.old, t.new, t.directory, t.group) == (
        kind,
        names,
        old,
        new,
        directory,
        group,
    )


def test_titles_that_are_not_dependabot_updates():
    assert parse_title("Fix the login page") is None
    assert parse_title("Update README") is None


def test_branches():
    assert parse_branch("dependabot/pip/requests-2.32.3") == ("pip", ["requests-2.32.3"])
    assert parse_branch("dependabot/npm_and_yarn/web/types/node-20.11.5") == (
        "npm_and_yarn",
        ["web", "types", "node-20.11.5"],
    )
    assert parse_branch("dependabot-npm_and_yarn-lodash-4.17.21")[0] == "npm_and_yarn"
    assert parse_branch("feature/login") == (None, [])
    assert is_dependabot("dependabot/pip/x-1") and is_dependabot("my-branch", "dependabot[bot]")
    assert not is_dependabot("feature/dependabot-docs", "alice")


# --- whole pull requests ---------------------------------------------------------------------


def test_single_update():
    (u,), warnings = parse(
        412, "Bump requests from 2.31.0 to 2.32.3", SINGLE_BODY, "dependabot/pip/requests-2.32.3"
    )
    assert warnings == []
    assert (u.ecosystem, u.package, u.from_version, u.to_version, u.update_type) == (
        "pip",
        "requests",
        "2.31.0",
        "2.32.3",
        "minor",
    )
    assert u.source == "dependabot" and u.source_ref == "https://github.com/acme/shop/pull/412"
    assert u.extra["pr"] == "412" and u.manifest == "requirements.txt"
    assert u.dependency_kind == "direct"


def test_single_update_in_a_subdirectory_with_a_dev_prefix():
    (u,), _ = parse(
        7,
        "build(deps-dev): bump @types/node from 20.1.0 to 20.11.5 in /web",
        "Bumps [@types/node](https://github.com/DefinitelyTyped/DefinitelyTyped/tree/HEAD/types/node) from 20.1.0 to 20.11.5.",
        "dependabot/npm_and_yarn/web/types/node-20.11.5",
    )
    assert (u.ecosystem, u.package, u.manifest, u.dependency_kind) == (
        "npm",
        "@types/node",
        "web/package.json",
        "dev",
    )
    assert u.extra["directory"] == "/web"


def test_directory_from_the_branch_when_the_title_lacks_it():
    (u,), _ = parse(
        8,
        "Bump @types/node from 20.1.0 to 20.11.5",
        "",
        "dependabot/npm_and_yarn/services/api/types/node-20.11.5",
    )
    assert u.manifest == "services/api/package.json"


def test_grouped_update_with_a_list():
    ups, warnings = parse(
        31,
        "Bump the npm_and_yarn group with 2 updates",
        GROUP_LIST_BODY,
        "dependabot/npm_and_yarn/npm_and_yarn-4b1d5e6f7a",
    )
    assert warnings == []
    assert [(u.package, u.from_version, u.to_version, u.update_type) for u in ups] == [
        ("express", "4.18.2", "4.19.2", "minor"),
        ("body-parser", "1.20.1", "1.20.2", "patch"),
    ]
    assert all(u.ecosystem == "npm" and u.manifest == "package.json" for u in ups)
    assert ups[0].extra == {"pr": "31", "directory": "/", "group": "npm_and_yarn"}


def test_grouped_update_with_a_table_and_a_trailer():
    ups, warnings = parse(
        77,
        "chore(deps): bump the python-packages group with 4 updates",
        GROUP_TABLE_BODY,
        "dependabot/pip/python-packages-0f9e8d7c6b",
    )
    assert warnings == []
    got = [(u.package, u.from_version, u.to_version, u.update_type, u.dependency_kind) for u in ups]
    assert got == [
        ("urllib3", "1.26.18", "2.2.1", "major", "direct"),
        ("pytest", "7.4.4", "8.0.2", "major", "dev"),
        ("black", "23.12.1", "24.2.0", "major", "dev"),
        ("types-requests", "2.31.0.6", "2.31.0.20240218", "other", "dev"),  # four numbers
    ]


def test_grouped_update_across_directories():
    ups, warnings = parse(
        90,
        "Bump the pip group across 2 directories with 3 updates",
        MULTI_DIR_BODY,
        "dependabot/pip/pip-a1b2c3d4e5",
    )
    assert warnings == []
    got = [(u.package, u.from_version, u.manifest) for u in ups]
    assert got == [
        ("django", "4.2.7", "backend/requirements.txt"),
        ("celery", "5.3.4", "backend/requirements.txt"),
        ("celery", "5.2.7", "worker/requirements.txt"),
    ]


def test_single_update_in_a_group_title():
    (u,), _ = parse(
        5,
        "Bump flask from 2.3.3 to 3.0.2 in the pip group",
        "Bumps the pip group with 1 update: [flask](https://github.com/pallets/flask).",
        "dependabot/pip/pip-1234567890",
    )
    assert (u.package, u.from_version, u.to_version, u.extra["group"]) == (
        "flask",
        "2.3.3",
        "3.0.2",
        "pip",
    )


def test_requirement_update_takes_the_version_from_the_body():
    (u,), _ = parse(
        12,
        "Update pydantic requirement from <2.6,>=2.4 to >=2.4,<2.7",
        REQUIREMENT_BODY,
        "dependabot/pip/pydantic-gte-2.4-and-lt-2.7",
    )
    assert (u.from_version, u.to_version, u.update_type) == ("2.4", "2.6.3", "minor")


def test_requirement_update_falls_back_to_the_lower_bounds():
    (u,), _ = parse(
        13,
        "Update react requirement from ^17.0.2 to ^18.2.0",
        "Updates the requirements on [react](https://github.com/facebook/react) to permit the latest version.",
        "dependabot/npm_and_yarn/react-18.2.0",
    )
    assert (u.from_version, u.to_version, u.update_type) == ("17.0.2", "18.2.0", "major")
    ups, warnings = parse(
        14,
        "Update requests requirement from >=2.28,<3 to >=2.28,<4",
        "Updates the requirements on [requests](https://github.com/psf/requests) to permit the latest version.",
        "dependabot/pip/requests-gte-2.28-and-lt-4",
    )
    assert ups == []  # both lower bounds are 2.28: nothing tells what it moves to
    assert warnings == [
        "pull request #14: cannot tell which versions of requests it moves between; skipped"
    ]


def test_trailer_gives_versions_missing_from_the_body():
    body = """Bumps the pip group with 1 update.

---
updated-dependencies:
- dependency-name: idna
  dependency-version: '3.7'
  dependency-type: indirect
  update-type: version-update:semver-minor
...
"""
    assert parse_trailer(body) == [
        {
            "dependency-name": "idna",
            "dependency-version": "3.7",
            "dependency-type": "indirect",
            "update-type": "version-update:semver-minor",
        }
    ]
    ups, warnings = parse(3, "Bump the pip group with 1 update", body, "dependabot/pip/pip-0a")
    assert ups == [] and "cannot tell which versions of idna" in warnings[0]


def test_unsupported_and_unreadable_pull_requests_are_skipped_with_a_warning():
    ups, warnings = parse(
        40,
        "Bump actions/checkout from 3 to 4",
        "Bumps [actions/checkout](https://github.com/actions/checkout) from 3 to 4.",
        "dependabot/github_actions/actions/checkout-4",
    )
    assert [(u.ecosystem, u.package, u.from_version, u.to_version) for u in ups] == [
        ("github_actions", "actions/checkout", "3", "4")
    ]  # an ecosystem depbot reads since #31
    assert warnings == []
    ups, warnings = parse(
        41,
        "Bump python from 3.11 to 3.12",
        "Bumps python from 3.11 to 3.12.",
        "dependabot/docker/python-3.12",
    )
    assert ups == []
    assert warnings == [
        "pull request #41 updates docker dependencies, which depbot does not triage; skipped"
    ]
    ups, warnings = parse(
        41,
        "Bump mylib from `3f2a1b0` to `9c8d7e6`",
        "Bumps [mylib](https://github.com/acme/mylib) from `3f2a1b0` to `9c8d7e6`.",
        "dependabot/pip/mylib-9c8d7e6",
    )
    assert ups == [] and "cannot tell which versions of mylib" in warnings[0]
    ups, warnings = parse(42, "Bump the pip group with 2 updates", "", "dependabot/pip/pip-1f")
    assert ups == [] and "no package versions found" in warnings[0]


def test_body_parser_merges_table_and_list():
    entries = parse_body(GROUP_TABLE_BODY)
    assert [(e.name, e.old, e.new) for e in entries][:2] == [
        ("urllib3", "1.26.18", "2.2.1"),
        ("pytest", "7.4.4", "8.0.2"),
    ]
    assert len(entries) == 4


@dataclass
class PR:
    number: int
    title: str
    body: str
    head_ref: str
    url: str
    author: str


def test_only_dependabot_pull_requests_are_read():
    prs = [
        PR(1, "Bump lodash from 4.17.20 to 4.17.21", "", "dependabot/npm_and_yarn/lodash-4.17.21", "u1", "dependabot[bot]"),
        PR(2, "Bump my version from 1.0 to 2.0", "", "release/2.0", "u2", "alice"),
        PR(3, "Add login", "", "feature/login", "u3", "bob"),
    ]  # fmt: skip
    ups, warnings = parse_pull_requests(prs)
    assert [u.package for u in ups] == ["lodash"] and warnings == []
