"""Proof that the seam is real (#25): an ecosystem no production module knows, in this module.

"toy" has its own version grammar (``r<major>.<minor>``), its own manifest (``toy.deps``,
one ``name version`` a line), and its own registry, a tiny loopback server whose JSON entry
carries the releases and, in a long description, the notes (their headings write the plain
number, "## 2.0", as notes do whatever the tags say). Its code is Python. It is
registered with one line (``ecosystems.register(TOY)``, in the fixture), and then
``depbot updates`` and ``depbot triage --model rules`` run end to end on a small checkout
with it: no production file names it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from depbot import ecosystems
from depbot.cli.main import cli
from depbot.ecosystems import table
from depbot.fakes.loopback import LoopbackServer, Reply, Request
from depbot.records import versions
from depbot.records.api import ApiDiff
from depbot.records.artifact import Choice, NoArtifact
from depbot.records.declared import Declared
from depbot.records.package import PackageInfo
from depbot.records.versions import Version

_VERSION = re.compile(r"^r?(\d+)\.(\d+)$")
_LINE = re.compile(r"^\s*([a-z][a-z0-9_]*)\s+(r?\d+\.\d+)\s*$")

NOTES = """# toylib changelog

## 2.0 (2026-11-30)

- Removed `toylib.old_call()`: use `toylib.new_call()` instead.

## 1.5

- Faster start.
"""


class Toy:
    """A made-up ecosystem: everything an ``Ecosystem`` supplies, in forty lines."""

    name = "toy"
    aliases: tuple[str, ...] = ()
    dependabot = ("toy",)
    language = "python"
    source_globs = ("*.py",)
    default_manifest = "toy.deps"
    registry_label = "toy registry"
    url_setting = ""  # its URL comes by name: DEPBOT_REGISTRY_URLS=toy=...
    range_syntax = "a toy version"
    name_noun = "a toy package name"
    requirements_folder = None

    def parse_version(self, raw: str) -> Version | None:
        m = _VERSION.match(raw)
        if m is None:
            return None
        release = (int(m[1]), int(m[2]), 0)
        return Version("toy", raw, release, False, True, release)

    def forgiving_version(self, text: str) -> str | None:
        return None

    def canonical_name(self, name: str) -> str:
        return name.lower()

    def valid_name(self, name: str) -> bool:
        return bool(re.fullmatch(r"[a-z][a-z0-9_]*", name))

    def is_manifest(self, path: Path) -> bool:
        return path.name == "toy.deps"

    def read_manifest(
        self, path: Path, root: Path, label: str, secret_files: tuple[str, ...], memo: Any
    ) -> tuple[list[Declared], list[str]]:
        deps = []
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if m := _LINE.match(line):
                deps.append(Declared("toy", m[1], m[2], m[2], None, label, "direct", number))
        return deps, []

    def lower_bound(self, spec: str) -> str | None:
        return spec if self.parse_version(spec) else None

    def open_ended(self, spec: str) -> bool:
        return False

    def valid_range(self, text: str) -> bool:
        return self.parse_version(text) is not None

    def in_ranges(self, version: str, texts: tuple[str, ...]) -> bool:
        return version in texts

    def version_in_use(self, name, spec, pinned, installed, released):  # noqa: ANN001, ANN201
        return pinned, None

    def range_allows(self, spec: str, pinned: str | None, version: str) -> bool:
        return False

    def workspace_globs(self, repo: Path, root: str) -> list[str]:
        return []

    def in_workspace(self, rel: str, globs: list[str]) -> bool:
        return False

    def metadata_url(self, base: str, name: str) -> str:
        return f"{base}/pkg/{name}"

    def description_page(self, base: str, name: str) -> str | None:
        return f"{base}/pkg/{name}"

    def package_info(self, name: str, data: dict[str, Any], url: str) -> PackageInfo:
        releases = tuple(str(v) for v in data.get("releases", ()))
        return PackageInfo(
            "toy", name, releases, releases[-1] if releases else None,
            description=str(data.get("notes") or ""), url=url,
        )  # fmt: skip

    def choose_artifact(self, document: dict[str, Any], version: str) -> Choice | NoArtifact:
        return NoArtifact("the toy registry ships no release files")

    def keep_member(self, kind: str, parts: list[str]) -> str | None:
        return None

    def api_changes(self, old_root: Path, new_root: Path, diff: ApiDiff) -> None:
        diff.notes.append("toy: no API model")

    def companion(self, package: str, version: str, root: Path, versions, *, older=False) -> None:  # noqa: ANN001
        return None

    def re_exported(self, package: str, version: str, root: Path, versions) -> list:  # noqa: ANN001
        return []

    def import_names(self, package: str, *, environment: bool = False) -> list[str]:
        return [package]


TOY = Toy()


def registry(request: Request) -> Reply:
    """The toy registry: ``GET /pkg/<name>`` → its releases and notes."""
    if request.path == "/pkg/toylib":
        return Reply(200, {"name": "toylib", "releases": ["r1.0", "r1.5", "r2.0"], "notes": NOTES})
    return Reply(404, {"error": "not found"})


@pytest.fixture
def toy() -> Iterator[Toy]:
    saved = (dict(table.ECOSYSTEMS), dict(table._BY_NAME), list(table.NAMES))
    ecosystems.register(TOY)  # the one line a new ecosystem needs
    yield TOY
    table.ECOSYSTEMS.clear(), table.ECOSYSTEMS.update(saved[0])
    table._BY_NAME.clear(), table._BY_NAME.update(saved[1])
    table.NAMES[:] = saved[2]
    versions._GRAMMARS.pop("toy", None)


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "app").mkdir(parents=True)
    (repo / "toy.deps").write_text("toylib r1.0\n")
    (repo / "app" / "jobs.py").write_text(
        "import toylib\n\n\ndef run():\n    return toylib.old_call(3)\n"
    )
    (repo / "app" / "other.py").write_text("def old_call():\n    return 1\n")
    return repo


def _env(url: str, tmp_path: Path) -> dict[str, str]:
    closed = "http://127.0.0.1:9"  # nothing listens: GitHub is out of reach, as it may be
    return {
        "DEPBOT_REGISTRY_URLS": f"toy={url}",
        "GITHUB_API_URL": closed,
        "DEPBOT_RAW_URL": closed,
        "DEPBOT_CACHE_DIR": str(tmp_path / "cache"),
        "DEPBOT_CONNECT_TIMEOUT": "0.5",
        "DEPBOT_HTTP_TIMEOUT": "0.5",
    }


def test_depbot_updates_lists_the_new_ecosystem_s_update(
    toy: Toy, checkout: Path, tmp_path: Path
) -> None:
    with LoopbackServer(registry) as server:
        env = _env(server.url, tmp_path)
        result = CliRunner().invoke(cli, ["updates", "-r", str(checkout), "--json"], env=env)
    assert result.exit_code == 0, result.output
    listed = json.loads(result.stdout)
    rows = listed if isinstance(listed, list) else listed["updates"]
    assert [(u["ecosystem"], u["package"], u["from"], u["to"], u["update_type"]) for u in rows] == [
        ("toy", "toylib", "r1.0", "r2.0", "major")
    ]


def test_depbot_triage_with_rules_finds_the_break_in_the_new_ecosystem(
    toy: Toy, checkout: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    with LoopbackServer(registry) as server:
        env = _env(server.url, tmp_path)
        args = ["triage", "-r", str(checkout), "-m", "rules", "-o", str(out), "--fail-on", "never"]
        result = CliRunner().invoke(cli, args, env=env)
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text())
    (update,) = report["updates"]
    assert (update["ecosystem"], update["package"], update["verdict"]) == (
        "toy", "toylib", "affected",
    )  # fmt: skip
    assert {(h["path"], h["line"]) for h in update["hits"]} >= {("app/jobs.py", 5)}
    assert update["draft"] and "old_call" in (out / update["draft"]).read_text()
