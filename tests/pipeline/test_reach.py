"""who_loads over a real checkout and the loopback registry: each thing that may load a
package no file imports, and what it cannot look at."""

from __future__ import annotations

import json
from pathlib import Path

from depbot.core.net import Http
from depbot.fakes.upstream import FakeUpstream
from depbot.pipeline.services import LiveServices
from depbot.records.update import Update
from tests.helpers.settings import loopback_settings

UPDATE = Update("npm", "zone-clock", "1.4.0", "3.0.0", manifest="package.json")


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _world(tmp_path: Path, *, peer: bool = False) -> tuple[Path, Path]:
    repo, up = tmp_path / "repo", tmp_path / "upstream"
    deps = {"zone-clock": "^1.4.0", "ui-kit": "^2.0.0"}
    _write(repo, "package.json", json.dumps({"name": "app", "dependencies": deps}))
    _write(repo, "src/index.js", "const kit = require('ui-kit');\nkit.draw();\n")
    for v in ("1.4.0", "3.0.0"):
        _write(up, f"npm/zone-clock/dist/{v}/package.json",
               json.dumps({"name": "zone-clock", "version": v, "bin": {"zclock": "cli.js"}}))  # fmt: skip
    needs = {"peerDependencies": {"zone-clock": ">=1"}} if peer else {}
    _write(up, "npm/ui-kit/manifests/2.0.0.json", json.dumps(needs))
    return repo, up


def _reach(repo: Path, up_dir: Path, **settings: object):
    with FakeUpstream(up_dir, versions={("npm", "zone-clock"): ["1.4.0", "3.0.0"]}) as up:
        live = LiveServices(
            loopback_settings(up.url, **settings), repo, Http(loopback_settings(up.url))
        )
        return live.who_loads(UPDATE)


def test_nothing_reaches_it_and_every_look_is_said(tmp_path):
    got = _reach(*_world(tmp_path))
    assert got.unreached and not got.reached
    assert any("`zclock`" in line for line in got.looked)
    assert any("1 other package(s)" in line for line in got.looked)


def test_its_command_in_a_workflow_reaches_it(tmp_path):
    repo, up = _world(tmp_path)
    _write(
        repo, ".github/workflows/times.yml", "jobs:\n  t:\n    steps:\n      - run: npx zclock\n"
    )
    got = _reach(repo, up)
    assert not got.unreached and "`zclock` named at .github/workflows/times.yml:4" in got.reached


def test_a_commented_out_import_reaches_nothing_but_a_string_naming_it_does(tmp_path):
    repo, up = _world(tmp_path)
    _write(repo, "src/old.js", "// import clock from 'zone-clock';\n/* zone-clock */\nexport {};\n")
    assert _reach(repo, up).unreached
    _write(repo, "src/load.js", "// the clock\nconst m = await import(name || 'zone-clock');\n")
    got = _reach(repo, up)
    assert not got.unreached and "`zone-clock` named at src/load.js:2" in got.reached


def test_a_property_of_another_value_named_like_its_command_is_no_load(tmp_path):
    # stop 56: `client.zclock(contract)` reads a property of the client, not the package
    repo, up = _world(tmp_path)
    _write(repo, "src/run.ts", "const c = await client.zclock(contract);\nx?.zclock;\n")
    assert _reach(repo, up).unreached
    _write(repo, "src/views.js", "render('views/page.zclock');\n")  # a string still names it
    assert "`zclock` named at src/views.js:1" in _reach(repo, up).reached


def test_an_address_naming_it_loads_a_copy_served_elsewhere(tmp_path):
    # stop 51: `<script src="https://js.zone-clock.com/v3/">` is no load of the npm package
    repo, up = _world(tmp_path)
    _write(repo, "public/index.html", '<script src="https://js.zone-clock.com/v3/"></script>\n')
    assert _reach(repo, up).unreached
    _write(repo, "public/app.js", "loadScript('zone-clock');\n")  # a string naming it still does
    assert not _reach(repo, up).unreached


def test_a_declared_package_that_asks_it_as_a_peer_reaches_it(tmp_path):
    got = _reach(*_world(tmp_path, peer=True))
    assert got.reached == (
        "ui-kit 2.0.0 needs it as a peer (`>=1`); it is imported at src/index.js:1",
    )


def test_a_peer_of_a_package_nothing_loads_is_not_reached(tmp_path):
    # stop 54: a declared plugin nothing imports asks the package as a peer; neither is loaded
    repo, up = _world(tmp_path, peer=True)
    _write(repo, "src/index.js", "const x = 1;\n")
    got = _reach(repo, up)
    assert got.unreached
    said = next(line for line in got.looked if "ui-kit 2.0.0 needs it" in line)
    assert "nothing here loads ui-kit: no file imports or names `ui-kit`" in said


def test_a_needer_is_reached_through_what_needs_it_in_turn_or_its_command(tmp_path):
    repo, up = _world(tmp_path, peer=True)
    _write(repo, "src/index.js", "const x = require('app-shell');\nx.start();\n")
    deps = {"zone-clock": "^1.4.0", "ui-kit": "^2.0.0", "app-shell": "1.0.0"}
    _write(repo, "package.json", json.dumps({"name": "app", "dependencies": deps}))
    _write(up, "npm/app-shell/manifests/1.0.0.json",
           json.dumps({"dependencies": {"ui-kit": "^2.0.0"}}))  # fmt: skip
    got = _reach(repo, up)
    assert got.reached == ("ui-kit 2.0.0 needs it as a peer (`>=1`); app-shell needs it and it "
                           "is imported at src/index.js:1",)  # fmt: skip
    _write(repo, "src/index.js", "const x = 1;\n")
    assert _reach(repo, up).unreached
    _write(up, "npm/ui-kit/manifests/2.0.0.json",
           json.dumps({"peerDependencies": {"zone-clock": ">=1"}, "bin": {"kit": "k.js"}}))  # fmt: skip
    _write(repo, "Makefile", "build:\n\tnpx kit build\n")
    assert "it is named at Makefile:2" in _reach(repo, up).reached[0]


def test_what_cannot_be_read_is_unseen_never_clean(tmp_path):
    repo, up = _world(tmp_path)
    (up / "npm" / "ui-kit" / "manifests" / "2.0.0.json").unlink()
    (up / "npm" / "ui-kit" / "manifests").rmdir()
    (up / "npm" / "ui-kit").rmdir()  # the registry does not list it (a private package)
    got = _reach(repo, up)
    assert not got.unreached and "ui-kit 2.0.0" in got.unseen[0]
    repo2, up2 = _world(tmp_path / "big")
    _write(repo2, "data/huge.json", "x" * 5000)
    got = _reach(repo2, up2, max_filesize="1K")
    assert not got.unreached and "too big to search" in got.unseen[0]


def test_a_package_another_workspace_declares_is_read_too(tmp_path):
    repo, up = _world(tmp_path)
    _write(repo, "packages/web/package.json",
           json.dumps({"name": "web", "dependencies": {"charts": "1.0.0"}}))  # fmt: skip
    _write(up, "npm/charts/manifests/1.0.0.json",
           json.dumps({"peerDependencies": {"zone-clock": "*"}}))  # fmt: skip
    _write(repo, "packages/web/src/app.js", "import { bar } from 'charts';\nbar();\n")
    _write(repo, "src/index.js", "const x = 1;\n")
    got = _reach(repo, up)
    assert got.reached == ("charts 1.0.0 needs it as a peer (`*`); it is imported at "
                           "packages/web/src/app.js:1",)  # fmt: skip


def test_a_declared_name_with_no_release_at_all_needs_nothing(tmp_path):
    # `"fs": "^0.0.1-security"`: the registry lists the name with no version (a security
    # holding package) and installs nothing; a package it does not list at all (a private
    # one) is still not seen
    repo, up = _world(tmp_path)
    deps = {"zone-clock": "^1.4.0", "ui-kit": "^2.0.0", "fs": "^0.0.1-security",
            "corp-kit": "^1.0.0"}  # fmt: skip
    _write(repo, "package.json", json.dumps({"name": "app", "dependencies": deps}))
    _write(up, "npm/fs/meta.json", json.dumps({"versions": []}))
    got = _reach(repo, up)
    assert not got.unreached
    assert [
        u for u in got.unseen if "fs" in u.split()[3:4] or u.startswith("the release of fs")
    ] == []
    assert any("corp-kit" in u for u in got.unseen)
    _write(repo, "package.json", json.dumps({"name": "app", "dependencies": {
        "zone-clock": "^1.4.0", "ui-kit": "^2.0.0", "fs": "^0.0.1-security"}}))  # fmt: skip
    assert _reach(repo, up).unreached  # nothing loads it, and every declared name was read


def test_an_import_read_only_in_a_comment_reaches_nothing(tmp_path):
    # `const clock = require('zone-clock')` whose only other mention is a call commented out
    repo, up = _world(tmp_path)
    _write(repo, "src/clock.js", "const clock = require('zone-clock');\n// clock.start();\n"
           "/* clock.stop() */\nmodule.exports = {};\n")  # fmt: skip
    assert _reach(repo, up).unreached
    _write(repo, "src/clock.js", "const clock = require('zone-clock');\nclock.start(); // go\n")
    assert not _reach(repo, up).unreached


def test_a_workspace_of_this_checkout_is_read_from_its_own_package_json(tmp_path):
    # `"@app/common": "^1.0.0"` in a lerna monorepo: the registry does not know it (not
    # published, or private), and need not: the checkout has the package
    repo, up = _world(tmp_path)
    deps = {"zone-clock": "^1.4.0", "ui-kit": "^2.0.0", "@app/common": "^1.0.0"}
    _write(repo, "package.json", json.dumps({"name": "app", "dependencies": deps}))
    _write(
        repo,
        "packages/common/package.json",
        json.dumps({"name": "@app/common", "version": "1.0.0"}),
    )
    assert _reach(repo, up).unreached
    # a workspace that asks for it as a peer needs it: nothing loads the workspace, so not
    # reached; once code loads the workspace, reached through it
    _write(repo, "packages/common/package.json", json.dumps(
        {"name": "@app/common", "version": "1.0.0", "peerDependencies": {"zone-clock": ">=1"}}))  # fmt: skip
    assert _reach(repo, up).unreached
    _write(repo, "src/use.js", "const common = require('@app/common');\ncommon.tick();\n")
    got = _reach(repo, up)
    assert any("@app/common" in r and "packages/common/package.json" in r for r in got.reached)
