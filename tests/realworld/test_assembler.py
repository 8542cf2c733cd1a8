"""tools/realworld.py on a tiny synthetic mirror: the built folder is exactly a scenario."""

from __future__ import annotations

import io
import json
import os
import subprocess
import tarfile
import zipfile
from pathlib import Path

from depbot.evals.scenarios import load_scenario
from depbot.fakes.upstream import FakeUpstream
from tests.helpers.realworld import load_tool

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@localhost", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@localhost", "GIT_CONFIG_GLOBAL": os.devnull}  # fmt: skip


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, env={**os.environ, **GIT_ENV},
                          capture_output=True, text=True, check=True, timeout=30)  # fmt: skip
    return done.stdout.strip()


def _mirror(root: Path, repo: str, files: dict[str, str], tag: str = "") -> str:
    """A bare mirror of ``repo`` at root/<owner>+<name>/repo; returns the commit."""
    work = root / "work" / repo.replace("/", "+")
    for rel, text in files.items():
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        (work / rel).write_text(text)
    _git(work, "init", "-q")
    _git(work, "add", "-A")
    _git(work, "commit", "-q", "-m", "c", "--no-gpg-sign")
    if tag:
        _git(work, "tag", tag)
    dest = root / repo.replace("/", "+") / "repo"
    _git(root, "clone", "-q", "--bare", str(work), str(dest))
    return _git(work, "rev-parse", "HEAD")


SPEC = """description = "yaml.load needs Loader in 6.0; app/cfg.py calls yaml.load(f)"
ecosystem = "pip"
package = "PyYAML"
from = "5.4.1"
to = "6.0.1"
expect = "affected"
files = ["app/cfg.py"]
symbols = ["load"]
negative = ""

[client]
repo = "acme/client"
commit = "{commit}"
license = "MIT"
paths = ["app/cfg.py", "requirements.txt"]
manifest = "requirements.txt"

[upstream]
repo = "yaml/pyyaml"
license = "MIT"
notes = [{{ path = "docs/CHANGES.rst", ref = "6.0.1" }}]
directory = ""
dist = false
"""


def _mirrors(
    tmp_path: Path, client: tuple[str, dict[str, str]], upstream: tuple[str, dict[str, str], str]
) -> tuple[Path, str]:
    """A mirror root with the client (repo, files) and the upstream (repo, files, tag); the
    root and the client's commit."""
    mirrors = tmp_path / "mirrors"
    mirrors.mkdir()
    commit = _mirror(mirrors, *client)
    _mirror(mirrors, *upstream)
    return mirrors, commit


def _build_argv(tmp_path: Path, cases: Path, mirrors: Path) -> list[str]:
    """``build`` of every spec in ``cases`` into tmp_path/built, downloads cached in dl."""
    return ["build", "--cases", str(cases), "--mirror", str(mirrors),
            "--out", str(tmp_path / "built"), "--downloads", str(tmp_path / "dl")]  # fmt: skip


def _one_case(tmp_path: Path, name: str, spec: str) -> Path:
    """A cases folder holding the one spec ``name``.toml."""
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / f"{name}.toml").write_text(spec)
    return cases


def _registry(root: Path, versions: list[str]) -> FakeUpstream:
    """A loopback PyPI that lists PyYAML's ``versions``."""
    folder = root / "pip" / "PyYAML"
    folder.mkdir(parents=True)
    (folder / "meta.json").write_text(json.dumps({"versions": versions}))
    return FakeUpstream(root).start()


def test_build_makes_exactly_the_scenario(tmp_path: Path, capsys, monkeypatch):
    registry = _registry(tmp_path / "registry", ["5.4.0", "5.4.1", "6.0b1", "6.0", "6.0.1", "6.1"])
    monkeypatch.setenv("DEPBOT_PYPI_URL", registry.url)
    mirrors = tmp_path / "mirrors"
    mirrors.mkdir()
    commit = _mirror(mirrors, "acme/client", {
        "app/cfg.py": "import yaml\nconf = yaml.load(open('c.yml'))\n",
        "requirements.txt": "requests==2.31.0\nPyYAML>=5\n", "README.md": "not kept\n",
    })  # fmt: skip
    _mirror(mirrors, "yaml/pyyaml", {"docs/CHANGES.rst": "6.0\n* Loader required\n"}, "6.0.1")
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "pip-pyyaml-x.toml").write_text(SPEC.format(commit=commit))
    out = tmp_path / "built"
    argv = ["build", "--cases", str(cases), "--mirror", str(mirrors), "--out", str(out),
            "--downloads", str(tmp_path / "dl")]  # fmt: skip
    try:
        assert load_tool().main(argv) == 0
    finally:
        registry.stop()
    assert capsys.readouterr().out.splitlines()[-1] == "built 1 cases, skipped 0"
    case = out / "pip-pyyaml-x"
    files = sorted(str(p.relative_to(case)) for p in case.rglob("*") if p.is_file())
    assert files == ["SOURCES.txt", "repo/app/cfg.py", "repo/requirements.txt", "scenario.toml",
                     "upstream/pip/PyYAML/docs/CHANGES.rst", "upstream/pip/PyYAML/meta.json"]  # fmt: skip
    assert (case / "repo/requirements.txt").read_text() == "requests==2.31.0\nPyYAML==5.4.1\n"
    meta = json.loads((case / "upstream/pip/PyYAML/meta.json").read_text())
    # the releases the registry lists from `from` to `to`: what a real run sees between them
    assert meta == {"repository": "https://github.com/yaml/pyyaml",
                    "versions": ["5.4.1", "6.0b1", "6.0", "6.0.1"]}  # fmt: skip
    sources = (case / "SOURCES.txt").read_text()
    assert (
        commit in sources and "manifest rewritten" in sources and "client license: MIT" in sources
    )
    sc = load_scenario(case)
    (u,) = sc.updates
    assert (u.package, u.from_version, u.to_version) == ("PyYAML", "5.4.1", "6.0.1")
    exp = sc.expect["pyyaml"]
    assert (exp.verdict, exp.files, exp.symbols) == ("affected", ("app/cfg.py",), ("load",))


def test_a_missing_mirror_skips_the_case_and_says_how(tmp_path: Path, capsys):
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "pip-pyyaml-x.toml").write_text(SPEC.format(commit="a" * 40))
    argv = ["build", "--cases", str(cases), "--mirror", str(tmp_path), "--out",
            str(tmp_path / "built"), "--downloads", str(tmp_path / "dl")]  # fmt: skip
    assert load_tool().main(argv) == 1
    out = capsys.readouterr().out
    assert "mirror of acme/client missing" in out and "github:acme/client" in out
    assert out.splitlines()[-1] == "built 0 cases, skipped 1 (mirror missing 1)"


def test_package_json_is_pinned_in_place(tmp_path: Path):
    (tmp_path / "package.json").write_text(json.dumps({"dependencies": {"uuid": "^3.0.0"}}))
    note = load_tool().pin_manifest(tmp_path, "package.json", "npm", "uuid", "3.4.0")
    assert "uuid" in note
    assert json.loads((tmp_path / "package.json").read_text()) == {
        "dependencies": {"uuid": "3.4.0"}
    }
    assert load_tool().pin_manifest(tmp_path, "package.json", "npm", "uuid", "3.4.0") == ""


def test_artifacts_are_trimmed_as_the_readme_says():
    dist = load_tool().dist
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name in ("pkg/__init__.py", "pkg/tests/test_a.py", "pkg/x.pyi", "pkg/py.typed",
                     "pkg/data.json", "pkg-1.dist-info/LICENSE", "pkg-1.dist-info/METADATA"):  # fmt: skip
            zf.writestr(name, "x")
    assert sorted(dist.trim_wheel(buf.getvalue())) == [
        "pkg-1.dist-info/LICENSE", "pkg/__init__.py", "pkg/py.typed", "pkg/x.pyi"]  # fmt: skip
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name in ("package/package.json", "package/index.js", "package/index.d.ts",
                     "package/LICENSE", "package/README.md", "package/index.js.map"):  # fmt: skip
            info = tarfile.TarInfo(name)
            info.size = 1
            tf.addfile(info, io.BytesIO(b"x"))
    assert sorted(dist.trim_npm(buf.getvalue())) == [
        "LICENSE", "index.d.ts", "index.js", "package.json"]  # fmt: skip


def test_also_packages_are_built_as_dist_only_folders(tmp_path: Path, monkeypatch, capsys):
    tool = load_tool()
    mirrors, commit = _mirrors(
        tmp_path,
        ("acme/client", {"app/cfg.py": "import yaml\n", "requirements.txt": "PyYAML>=5\n"}),
        ("yaml/pyyaml", {"docs/CHANGES.rst": "6.0\n* Loader required\n"}, "6.0.1"),
    )
    asked = []

    def fake_pip(package: str, version: str, cache: Path):
        asked.append((package, version))
        files = {f"{package.lower()}/__init__.py": f"V = {version!r}\n".encode()}
        return tool.dist.Artifact(
            version, f"https://x/{package}-{version}.whl", "f", "0" * 64, files
        )

    monkeypatch.setattr(tool.dist, "pip_artifact", fake_pip)
    spec = SPEC.format(commit=commit) + (
        '\n[[also]]\npackage = "types-PyYAML"\nversions = ["5.4.0", "6.0.0"]\n'
    )
    out = tmp_path / "built"
    cases = _one_case(tmp_path, "pip-pyyaml-x", spec)
    assert tool.main(_build_argv(tmp_path, cases, mirrors)) == 0, capsys.readouterr().out
    assert asked == [("types-PyYAML", "5.4.0"), ("types-PyYAML", "6.0.0")]  # dist = false
    also = out / "pip-pyyaml-x" / "upstream" / "pip" / "types-PyYAML"
    files = sorted(str(p.relative_to(also)) for p in also.rglob("*") if p.is_file())
    assert files == ["dist/5.4.0/types-pyyaml/__init__.py", "dist/6.0.0/types-pyyaml/__init__.py",
                     "meta.json"]  # fmt: skip
    assert json.loads((also / "meta.json").read_text()) == {"versions": ["5.4.0", "6.0.0"]}
    assert "also types-PyYAML 6.0.0" in (out / "pip-pyyaml-x" / "SOURCES.txt").read_text()


NPM_SPEC = """description = "x 2 removed f; src/a.ts calls it"
ecosystem = "npm"
package = "x"
from = "1.2.0"
to = "2.0.0"
expect = "affected"
files = ["src/a.ts"]
symbols = ["f"]
negative = ""

[client]
repo = "acme/web"
commit = "{commit}"
license = "MIT"
paths = ["src/a.ts", "package.json"]
manifest = "package.json"

[upstream]
repo = "acme/x"
license = "MIT"
notes = [{{ path = "CHANGELOG.md", ref = "v2.0.0" }}]
directory = ""
dist = true
"""


def test_the_types_release_depbot_reads_is_served_beside_an_untyped_release(
    tmp_path: Path, monkeypatch, capsys
):
    # a real registry serves `@types/x` too: depbot reads it for a release without
    # declarations, so the built case serves the release it would pick for each side
    tool = load_tool()
    client = {"src/a.ts": "import { f } from 'x'\nf()\n",
              "package.json": '{"dependencies": {"x": "^1.2.0"}}'}  # fmt: skip
    mirrors, commit = _mirrors(
        tmp_path,
        ("acme/web", client),
        ("acme/x", {"CHANGELOG.md": "## 2.0.0\n- removed `f`\n"}, "v2.0.0"),
    )
    asked = []

    def fake_npm(package: str, version: str, cache: Path):
        asked.append((package, version))
        typed = version == "2.0.0" or package.startswith("@types/")  # 2.0.0 ships its own
        name = "index.d.ts" if typed else "index.js"
        files = {"package.json": b"{}", name: b"export declare function f(): void;\n"}
        return tool.dist.Artifact(version, f"https://x/{package}-{version}.tgz", "f", "0" * 64,
                                  files)  # fmt: skip

    published = {"@types/x": ["0.9.0", "1.1.3", "1.2.5", "1.3.0", "2.0.0"]}

    def fake_published(package: str, cache: Path):
        if package not in published:
            raise tool.dist.DistError(f"{package}: 404")
        return published[package]

    monkeypatch.setattr(tool.dist, "npm_artifact", fake_npm)
    monkeypatch.setattr(tool.dist, "npm_published", fake_published)
    monkeypatch.setattr(tool.dist, "released_versions", lambda *a: ["1.2.0", "2.0.0"])
    out = tmp_path / "built"
    cases = _one_case(tmp_path, "npm-x-2-f", NPM_SPEC.format(commit=commit))
    assert tool.main(_build_argv(tmp_path, cases, mirrors)) == 0, capsys.readouterr().out
    # the old side (1.2.0, untyped) takes the newest of its major.minor; 2.0.0 needs none
    assert asked == [("x", "1.2.0"), ("x", "2.0.0"), ("@types/x", "1.2.5")]
    types = out / "npm-x-2-f" / "upstream" / "npm" / "@types/x"
    assert json.loads((types / "meta.json").read_text()) == {"versions": ["1.2.5"]}
    assert (types / "dist" / "1.2.5" / "index.d.ts").is_file()
    assert "also @types/x 1.2.5" in (out / "npm-x-2-f" / "SOURCES.txt").read_text()
