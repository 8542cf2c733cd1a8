"""The three sources of the update list, against loopback registries and a fake GitHub."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from depbot.core.errors import ConfigError, InputError
from depbot.core.net import Http
from depbot.fakes.loopback import LoopbackServer, Reply
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
    with LoopbackServer(fake) as srv:
        fake.base_url = srv.url
        yield fake, srv


def run(srv, repo, **kw):
    settings = loopback_settings(srv.url, **kw.pop("settings", {}))
    return collect_updates(settings, repo=repo, **kw)


def table(updates):
    return {u.package: (u.from_version, u.to_version, u.update_type) for u in updates}


# --- manifests against the registries ---------------------------------------------------------


def test_pins_ranges_and_locks_against_both_registries(upstream, tmp_path):
    fake, srv = upstream
    fake.add_pypi("requests", "2.31.0", "2.32.0", "2.32.3", "2.33.0rc1")
    fake.add_pypi("Flask", "2.2.5", "2.3.3", "3.0.3", "3.1.0", yanked=("3.1.0",))
    fake.add_pypi("attrs", "22.1.0", "22.2.0", "23.1.0")
    fake.add_pypi("idna", "3.3", "3.4")
    fake.add_npm("express", "4.18.2", "4.19.2", "5.0.0", "5.0.1", deprecated=("5.0.1",))
    fake.add_npm("@types/node", "20.1.0", "20.2.0", "21.0.0-beta.1")
    fake.add_npm("lodash", "4.17.20", "4.17.21")
    write(
        tmp_path,
        {
            "requirements.txt": "requests==2.31.0\nflask>=2.2,<3\nattrs>=22,<24\nidna==3.4\n",
            "package.json": json.dumps(
                {
                    "dependencies": {"express": "^4.18.0", "@types/node": "20.1.0"},
                    "devDependencies": {"lodash": "^4.17.0"},
                }
            ),
            "package-lock.json": json.dumps(
                {"lockfileVersion": 3, "packages": {"node_modules/express": {"version": "4.18.2"}}}
            ),
        },
    )
    updates, warnings = run(srv, tmp_path)
    assert warnings == []
    assert table(updates) == {
        "express": ("4.18.2", "5.0.0", "major"),  # from the lock; 5.0.1 is deprecated
        "@types/node": ("20.1.0", "20.2.0", "minor"),  # the beta is not offered to a stable pin
        "lodash": ("4.17.0", "4.17.21", "patch"),  # no lock: the range's lowest version
        "requests": ("2.31.0", "2.32.3", "minor"),  # the rc is skipped
        "flask": ("2.3.3", "3.0.3", "major"),  # highest allowed -> newest outside (3.1.0 yanked)
    }  # attrs: 23.1.0 is inside >=22,<24; idna is current
    lodash = next(u for u in updates if u.package == "lodash")
    assert lodash.dependency_kind == "dev" and lodash.manifest == "package.json"
    flask = next(u for u in updates if u.package == "flask")
    assert flask.source == "registry" and flask.source_ref == f"{srv.url}/pypi/flask/json"
    assert flask.extra == {"spec": ">=2.2,<3", "line": "2"}
    # each package was asked for exactly once
    assert len(srv.requests("/pypi/")) == 4 and len(srv.requests("/npm/")) == 3


@pytest.mark.parametrize(
    "eco, pin, published, expected",
    [
        ("pip", "1.0.0rc1", ["1.0.0rc1", "1.0.0rc2"], ("1.0.0rc1", "1.0.0rc2", "other")),
        ("pip", "1.0.0rc1", ["1.0.0rc1", "1.0.0rc2", "1.0.0"], ("1.0.0rc1", "1.0.0", "other")),
        ("npm", "2.0.0-beta.1", ["2.0.0-beta.1", "2.0.0-beta.2"], ("2.0.0-beta.1", "2.0.0-beta.2", "other")),
        ("npm", "2.0.0-beta.1", ["1.9.0", "2.0.0-beta.1", "2.0.0"], ("2.0.0-beta.1", "2.0.0", "other")),
        ("pip", "0.3", ["0.3", "0.4"], ("0.3", "0.4", "minor")),
        ("npm", "0.3.0", ["0.3.0", "0.3.1", "0.4.0"], ("0.3.0", "0.4.0", "minor")),
        ("pip", "1!1.0", ["1!1.0", "1!2.0", "3.0"], ("1!1.0", "1!2.0", "other")),
        ("pip", "2.0", ["1!0.1", "2.0"], ("2.0", "1!0.1", "other")),
        ("pip", "1.0.0+local.7", ["1.0.0", "1.0.1"], ("1.0.0+local.7", "1.0.1", "other")),
        ("pip", "1.0.post1", ["1.0", "1.0.post1", "1.0.post2"], ("1.0.post1", "1.0.post2", "patch")),
        ("pip", "2.0", ["2.0", "2.0.0", "1.9"], None),
        ("npm", "1.2.3", ["1.2.3", "1.2.3+build.5"], None),
    ],
)  # fmt: skip
def test_version_edge_cases(upstream, tmp_path, eco, pin, published, expected):
    fake, srv = upstream
    if eco == "pip":
        fake.add_pypi("pkg", *published)
        write(tmp_path, {"requirements.txt": f"pkg==={pin}\n"})
    else:
        fake.add_npm("pkg", *published)
        write(tmp_path, {"package.json": json.dumps({"dependencies": {"pkg": pin}})})
    updates, _ = run(srv, tmp_path)
    assert table(updates).get("pkg") == expected
    if expected and expected[:2] == ("0.3", "0.4"):
        assert updates[0].may_break  # a 0.x minor can break


def test_registry_500_then_200_recovers(upstream, tmp_path):
    fake, srv = upstream
    fake.add_pypi("requests", "2.31.0", "2.32.3")
    fake.add_npm("lodash", "4.17.20", "4.17.21")
    fake.faults["requests"] = [Reply(500, "<html>Internal Server Error</html>")]
    fake.faults["lodash"] = [Reply(503, "busy", {"Retry-After": "0"})]
    write(
        tmp_path,
        {
            "requirements.txt": "requests==2.31.0\n",
            "package.json": '{"dependencies": {"lodash": "4.17.20"}}',
        },
    )
    updates, warnings = run(srv, tmp_path)
    assert warnings == [] and all(u.error is None for u in updates)
    assert table(updates) == {
        "requests": ("2.31.0", "2.32.3", "minor"),
        "lodash": ("4.17.20", "4.17.21", "patch"),
    }
    assert len(srv.requests("/pypi/requests")) == 2 and len(srv.requests("/npm/lodash")) == 2


def test_garbage_and_missing_packages_carry_an_error_and_the_rest_comes_back(upstream, tmp_path):
    fake, srv = upstream
    fake.add_pypi("requests", "2.31.0", "2.32.3")
    fake.add_pypi("flask", "2.3.3", "3.0.3")
    fake.faults["flask"] = [Reply(200, "<!doctype html><p>maintenance</p>")] * 10
    fake.add_npm("express", "4.18.2", "4.19.2")
    fake.faults["express"] = [Reply(200, '{"versions": ')] * 10
    write(
        tmp_path,
        {
            "requirements.txt": "requests==2.31.0\nflask>=2.2,<3\nno-such-package==1.0\n",
            "package.json": '{"dependencies": {"express": "~4.18.2"}}',
        },
    )
    updates, warnings = run(srv, tmp_path, settings={"http_retries": 1})
    by = {u.package: u for u in updates}
    assert by["requests"].error is None and by["requests"].to_version == "2.32.3"
    assert by["flask"].error == "package index entry for flask: got an HTML page instead of JSON"
    assert (by["flask"].from_version, by["flask"].to_version) == ("2.2", "2.2")  # lower bound
    assert by["flask"].update_type == "other"
    assert by["express"].error == "npm registry entry for express: the answer was not valid JSON"
    assert by["express"].from_version == by["express"].to_version == "4.18.2"
    assert "not found" in by["no-such-package"].error
    assert "maintenance" not in json.dumps([u.to_dict() for u in updates])
    assert warnings == []


def test_a_registry_answer_of_the_wrong_shape_is_an_error_not_a_crash(upstream, tmp_path):
    fake, srv = upstream
    fake.faults["weird"] = [Reply(200, {"info": "yes", "releases": 3})]
    write(tmp_path, {"requirements.txt": "weird==1.0\n"})
    (u,), _ = run(srv, tmp_path)
    assert u.error and "weird" in u.error


def test_range_that_no_release_satisfies_is_a_warning(upstream, tmp_path):
    fake, srv = upstream
    fake.add_pypi("attrs", "22.1.0", "23.1.0")
    write(tmp_path, {"requirements.txt": "attrs>=99\n"})
    updates, warnings = run(srv, tmp_path)
    assert updates == []
    assert warnings == [
        "attrs has no pinned or locked version in requirements.txt: nothing to compare",
        "requirements.txt: no published version of attrs satisfies '>=99'",
    ]


def test_progress_and_one_http_for_the_run(upstream, tmp_path):
    fake, srv = upstream
    for name in ("a", "b", "c"):
        fake.add_pypi(name, "1.0", "1.1")
    write(
        tmp_path,
        {"requirements.txt": "a==1.0\nb==1.0\nc==1.0\n", "sub/requirements.txt": "a==1.0\n"},
    )
    settings = loopback_settings(srv.url, registry_concurrency=2)
    http = Http(settings)
    messages: list[str] = []
    updates, _ = collect_updates(settings, repo=tmp_path, http=http, progress=messages.append)
    assert len(updates) == 4  # a in two manifests, each its own update
    assert http.stats["requests"] == 3  # but asked for once
    assert messages[0] == "checking 3 packages against the registries"
    counters = [m.split(" ")[0] for m in messages[1:]]
    names = sorted(m.split(" ")[2] for m in messages[1:])
    assert counters == ["[1/3]", "[2/3]", "[3/3]"] and names == ["a:", "b:", "c:"]
    assert all(m.endswith(": ok") for m in messages[1:])


def test_an_empty_folder_is_an_input_error_not_an_empty_week(upstream, tmp_path):
    # #29: an empty folder, or one with no manifests, ended "0 updates … — ok", exit 0
    _, srv = upstream
    (tmp_path / "README.md").write_text("no manifests here\n")
    with pytest.raises(InputError, match=r"no manifest or lock file under .*-C PATH"):
        run(srv, tmp_path)
    assert srv.log == []


def test_manifests_that_declare_nothing_are_an_empty_week(upstream, tmp_path):
    _, srv = upstream
    (tmp_path / "requirements.txt").write_text("# nothing yet\n")
    updates, warnings = run(srv, tmp_path)
    assert updates == [] and "no dependencies found" in warnings[0]
    assert srv.log == []


# --- bad input -----------------------------------------------------------------------------


def test_missing_repository_path(upstream, tmp_path):
    _, srv = upstream
    with pytest.raises(InputError) as err:
        run(srv, tmp_path / "nope")
    assert str(err.value) == f"repository path '{tmp_path / 'nope'}' does not exist"


def test_both_sources_at_once(upstream, tmp_path):
    _, srv = upstream
    with pytest.raises(InputError, match="not both"):
        run(srv, tmp_path, updates_file=tmp_path / "u.json", dependabot="acme/shop")


def test_a_broken_manifest_is_reported_and_the_others_are_read(upstream, tmp_path):
    """A broken fixture manifest aborted the whole run (exit 2); now it is one warning."""
    fake, srv = upstream
    fake.add_pypi("requests", "2.31.0", "2.32.0")
    write(
        tmp_path,
        {
            "requirements.txt": "requests==2.31.0\n",
            "tests/fixtures/broken/requirements.txt": "flask=>2\n",
        },
    )
    updates, warnings = run(srv, tmp_path)
    assert table(updates) == {"requests": ("2.31.0", "2.32.0", "minor")}
    (warning,) = [w for w in warnings if "broken" in w]
    assert "tests/fixtures/broken/requirements.txt line 1" in warning
    assert "skipped, the other manifests are read" in warning


def test_a_manifest_over_the_size_limit_is_not_read(upstream, tmp_path):
    fake, srv = upstream
    fake.add_pypi("requests", "2.31.0", "2.32.0")
    big = "".join(f"pkg{i}==1.0.0\n" for i in range(400))
    write(tmp_path, {"requirements.txt": "requests==2.31.0\n", "big/requirements.txt": big})
    updates, warnings = run(srv, tmp_path, settings={"max_manifest_bytes": 2000})
    assert table(updates) == {"requests": ("2.31.0", "2.32.0", "minor")}
    assert any("big/requirements.txt: not read:" in w and "DEPBOT_MAX_MANIFEST_BYTES" in w
               for w in warnings)  # fmt: skip
    assert not any("pkg1" in line for line in map(str, srv.log))


def test_no_more_distinct_packages_than_the_cap_are_looked_up(upstream, tmp_path):
    fake, srv = upstream
    for i in range(30):
        fake.add_pypi(f"pkg{i:02}", "1.0.0", "1.1.0")
    write(tmp_path, {"requirements.txt": "".join(f"pkg{i:02}==1.0.0\n" for i in range(30))})
    updates, warnings = run(srv, tmp_path, settings={"max_packages": 10})
    assert len(updates) == 10 and len(srv.log) == 10
    (warning,) = [w for w in warnings if "distinct packages" in w]
    assert "30 distinct packages declared: only the first 10" in warning
    assert "skipped: pkg10, pkg11, pkg12, pkg13, pkg14 and 15 more" in warning


# --- an update file ------------------------------------------------------------------------


def test_update_file_is_read_as_is(upstream, tmp_path):
    _, srv = upstream
    write(tmp_path, {"requirements.txt": "urllib3==1.26.18\n"})
    (tmp_path / "week.json").write_text(
        json.dumps([{"ecosystem": "pip", "package": "urllib3", "from": "1.26.18", "to": "2.0.7"}])
    )
    (u,), warnings = run(srv, tmp_path, updates_file=tmp_path / "week.json")
    assert (u.package, u.update_type, u.source) == ("urllib3", "major", "file")
    assert u.manifest == "requirements.txt"  # placed in the manifest that declares it
    assert warnings == [] and srv.log == []


# --- open Dependabot pull requests -----------------------------------------------------------

BODY_GROUP = """\
Bumps the pip group with 2 updates in the /backend directory: [django](https://github.com/django/django) and [celery](https://github.com/celery/celery).

Updates `django` from 4.2.7 to 4.2.11
<details><summary>Commits</summary></details>

Updates `celery` from 5.3.4 to 5.3.6
<details><summary>Commits</summary></details>
"""


def test_dependabot_pull_requests_with_pagination(upstream, tmp_path):
    fake, srv = upstream
    fake.per_page = 2
    fake.pulls["acme/shop"] = [
        pull(
            101,
            "Bump requests from 2.31.0 to 2.32.3",
            "Bumps [requests](https://github.com/psf/requests) from 2.31.0 to 2.32.3.",
            "dependabot/pip/requests-2.32.3",
        ),
        pull(102, "Add a login page", "Adds the login page.", "feature/login", author="alice"),
        pull(
            103,
            "Bump the pip group in /backend with 2 updates",
            BODY_GROUP,
            "dependabot/pip/backend/pip-5a6b7c8d9e",
        ),
        pull(
            104,
            "Bump actions/checkout from 3 to 4",
            "Bumps [actions/checkout](https://github.com/actions/checkout) from 3 to 4.",
            "dependabot/github_actions/actions/checkout-4",
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
            "requirements.txt": "requests==2.31.0\n",
            "backend/pyproject.toml": "[project]\nname='b'\nversion='1'\ndependencies=['django==4.2.7', 'celery==5.3.4']\n",
            "web/package.json": '{"devDependencies": {"jest": "29.6.4"}}',
        },
    )
    updates, warnings = run(
        srv, tmp_path, dependabot="acme/shop", settings={"github_token": "ghp_fake"}
    )
    got = [(u.package, u.to_version, u.manifest, u.dependency_kind, u.extra["pr"]) for u in updates]
    assert got == [
        ("requests", "2.32.3", "requirements.txt", "direct", "101"),
        ("django", "4.2.11", "backend/pyproject.toml", "direct", "103"),
        ("celery", "5.3.6", "backend/pyproject.toml", "direct", "103"),
        ("actions/checkout", "4", ".github/workflows", "direct", "104"),
        ("jest", "29.7.0", "web/package.json", "dev", "105"),
    ]
    assert all(u.source == "dependabot" for u in updates)
    assert updates[0].source_ref == "https://github.com/acme/shop/pull/101"
    assert warnings == []
    pages = srv.requests("/github/repos/acme/shop/pulls")
    assert [r.query.get("page", "1") for r in pages] == ["1", "2", "3"]
    assert all(r.headers.get("authorization", "").endswith(" ghp_fake") for r in pages)


def test_dependabot_without_a_token_makes_no_request(upstream, tmp_path):
    fake, srv = upstream
    fake.pulls["acme/shop"] = []
    with pytest.raises(ConfigError) as err:
        run(srv, tmp_path, dependabot="acme/shop")
    assert "GITHUB_TOKEN" in str(err.value)
    assert srv.log == []


def test_dependabot_bad_repository_name(upstream, tmp_path):
    _, srv = upstream
    with pytest.raises(InputError, match="OWNER/REPO"):
        run(srv, tmp_path, dependabot="just-a-name", settings={"github_token": "t"})
    assert srv.log == []


def test_a_registry_entry_over_the_response_cap_is_read_up_to_the_metadata_cap(upstream, tmp_path):
    """npm entries of packages with every nightly they published run to 10-30 MB: the
    registry's own cap (DEPBOT_MAX_METADATA_BYTES) applies, not the general one, and an entry
    over it names the setting."""
    fake, srv = upstream
    fake.add_npm("bigpkg", *[f"1.0.{i}" for i in range(400)], "2.0.0")
    write(tmp_path, {"package.json": json.dumps({"dependencies": {"bigpkg": "1.0.0"}})})
    got, _ = run(srv, tmp_path, settings={"max_response_bytes": 2000})
    assert table(got) == {"bigpkg": ("1.0.0", "2.0.0", "major")}
    small, _ = run(srv, tmp_path, settings={"max_response_bytes": 2000, "max_metadata_bytes": 2000})
    (err,) = [u.error for u in small if u.error]
    assert "DEPBOT_MAX_METADATA_BYTES" in err
