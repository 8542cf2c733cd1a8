"""uv.lock, Poetry (pyproject tables + poetry.lock), Pipfile / Pipfile.lock, through read_manifest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from depbot.ecosystems.pip.locks import parse_pipfile_lock, parse_uv_lock
from depbot.ecosystems.pip.poetry import poetry_to_pep440
from depbot.updates.manifests.scan import read_manifest
from tests.helpers.locks import (
    PIPFILE,
    PIPFILE_LOCK,
    POETRY_LOCK,
    POETRY_PYPROJECT,
    UV_LOCK,
    UV_PYPROJECT,
)


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def table(deps):
    return {d.name: (d.dependency_kind, d.spec, d.installed) for d in deps}


def test_uv_project_takes_the_locked_versions_of_its_direct_dependencies(tmp_path):
    write(tmp_path, {"pyproject.toml": UV_PYPROJECT, "uv.lock": UV_LOCK})
    deps, warnings = read_manifest(tmp_path / "pyproject.toml", tmp_path)
    assert table(deps) == {
        "flask": ("direct", ">=3.0", "3.0.3"),
        "httpx": ("direct", "", "0.27.0"),
        "pytest": ("dev", ">=8", "8.2.1"),
    }  # blinker is only in the lock: not a candidate
    assert all(d.pinned == d.installed for d in deps) and warnings == []


def test_uv_lock_leaves_out_the_project_itself():
    versions, warnings = parse_uv_lock(UV_LOCK)
    assert "shop" not in versions and versions["blinker"] == "1.8.2" and warnings == []


def test_uv_workspace_member_uses_the_root_lock(tmp_path):
    member = (
        '\n[[package]]\nname = "api"\nversion = "0.1.0"\nsource = { editable = "packages/api" }\n'
    )
    write(
        tmp_path,
        {
            "pyproject.toml": UV_PYPROJECT + '\n[tool.uv.workspace]\nmembers = ["packages/*"]\n',
            "uv.lock": UV_LOCK + member,
            "tools/pyproject.toml": '[project]\nname = "tools"\ndependencies = ["httpx>=0.25"]\n',
            "packages/api/pyproject.toml": '[project]\nname = "api"\ndependencies = ["httpx>=0.25"]\n',
        },
    )
    deps, _ = read_manifest(tmp_path / "packages/api/pyproject.toml", tmp_path)
    assert [(d.name, d.installed, d.manifest) for d in deps] == [
        ("httpx", "0.27.0", "packages/api/pyproject.toml")
    ]
    other, _ = read_manifest(tmp_path / "tools/pyproject.toml", tmp_path)  # not a member
    assert [(d.name, d.installed) for d in other] == [("httpx", None)]


def test_poetry_tables_and_groups_with_the_lock(tmp_path):
    write(tmp_path, {"pyproject.toml": POETRY_PYPROJECT, "poetry.lock": POETRY_LOCK})
    deps, warnings = read_manifest(tmp_path / "pyproject.toml", tmp_path)
    assert table(deps) == {
        "django": ("direct", ">=4.2,<5", "4.2.11"),
        "celery": ("direct", ">=5.3.4,<5.4", "5.3.6"),
        "stripe": ("direct", "==7.8.0", "7.8.0"),
        "pytest": ("dev", ">=7.4,<9", "8.1.1"),
        "ruff": ("dev", "", None),
        "mkdocs": ("dev", ">=1.5,<2", None),
    }
    assert (
        "pyproject.toml: [tool.poetry.dependencies] skipped internal-lib (a path dependency)"
        in warnings
    )
    assert any("skipped gitpkg (a git dependency)" in w for w in warnings)
    # no lock entry and no upper bound: said once, not silently dropped
    assert "ruff has no pinned or locked version in pyproject.toml: nothing to compare" in warnings


@pytest.mark.parametrize(
    ("constraint", "pep440"),
    [
        ("^1.2.3", ">=1.2.3,<2"),
        ("^0.2.3", ">=0.2.3,<0.3"),
        ("^0.0.3", ">=0.0.3,<0.0.4"),
        ("^0", ">=0,<1"),
        ("~1.2.3", ">=1.2.3,<1.3"),
        ("~1", ">=1,<2"),
        ("~=1.2", "~=1.2"),
        ("1.2.3", "==1.2.3"),
        ("1.2.*", "==1.2.*"),
        ("*", ""),
        (">= 1.2, < 1.5", ">=1.2,<1.5"),
        ("^1.0 || ^2.0", None),
        ("^banana", None),
    ],
)
def test_poetry_constraints_to_pep440(constraint, pep440):
    assert poetry_to_pep440(constraint) == pep440


def test_broken_poetry_lock_is_one_warning_and_the_ranges_stay(tmp_path):
    write(tmp_path, {"pyproject.toml": POETRY_PYPROJECT, "poetry.lock": '[[package]\nname = "x'})
    deps, warnings = read_manifest(tmp_path / "pyproject.toml", tmp_path)
    assert table(deps)["django"] == ("direct", ">=4.2,<5", None)
    broken = [w for w in warnings if w.startswith("poetry.lock")]
    assert len(broken) == 1 and "not valid TOML" in broken[0] and broken[0].endswith("lock ignored")


def test_pipfile_with_its_lock(tmp_path):
    write(tmp_path, {"Pipfile": PIPFILE, "Pipfile.lock": json.dumps(PIPFILE_LOCK, indent=4)})
    deps, warnings = read_manifest(tmp_path / "Pipfile", tmp_path)
    assert table(deps) == {
        "requests": ("direct", "", "2.31.0"),
        "flask": ("direct", "==2.3.3", "2.3.3"),
        "sqlalchemy": ("direct", ">=2.0", "2.0.29"),
        "pytest": ("dev", ">=7", "8.1.1"),
    }
    assert "Pipfile: [packages] skipped mylib (a git dependency)" in warnings
    assert "Pipfile: [packages] skipped local-thing (a path dependency)" in warnings
    assert not any("nothing to compare" in w for w in warnings)


def test_pipfile_without_lock_notes_the_open_ranges(tmp_path):
    write(tmp_path, {"Pipfile": PIPFILE})
    deps, warnings = read_manifest(tmp_path / "Pipfile", tmp_path)
    assert table(deps)["flask"] == ("direct", "==2.3.3", None)
    assert "requests has no pinned or locked version in Pipfile: nothing to compare" in warnings
    assert not any(w.startswith("flask has") for w in warnings)


@pytest.mark.parametrize(
    ("files", "start"),
    [
        ({"Pipfile": "[packages]\nrequests = \n"}, "Pipfile: not valid TOML"),
        ({"Pipfile": PIPFILE, "Pipfile.lock": '{"default": '}, "Pipfile.lock: not valid JSON"),
        ({"Pipfile": PIPFILE, "Pipfile.lock": "[1, 2]"}, "Pipfile.lock: not a JSON object"),
        ({"Pipfile": "[packages]\nrequests = 3\n"}, "Pipfile: [packages] skipped requests"),
    ],
)
def test_broken_pipfile_or_lock_is_one_line_naming_it(tmp_path, files, start):
    write(tmp_path, files)
    _, warnings = read_manifest(tmp_path / "Pipfile", tmp_path)
    hits = [w for w in warnings if w.startswith(start)]
    assert len(hits) == 1 and "\n" not in hits[0] and len(hits[0]) < 240


def test_pipfile_lock_keeps_only_exact_versions():
    versions, _ = parse_pipfile_lock(json.dumps(PIPFILE_LOCK))
    assert versions == {
        "requests": "2.31.0",
        "flask": "2.3.3",
        "sqlalchemy": "2.0.29",
        "urllib3": "2.2.1",
        "pytest": "8.1.1",
    }


def test_a_lock_that_links_out_of_the_checkout_is_not_read(tmp_path):
    outside = write(tmp_path / "outside", {"poetry.lock": POETRY_LOCK})
    repo = write(tmp_path / "repo", {"pyproject.toml": POETRY_PYPROJECT})
    (repo / "poetry.lock").symlink_to(outside / "poetry.lock")
    deps, warnings = read_manifest(repo / "pyproject.toml", repo)
    assert all(d.installed is None for d in deps)
    assert any(
        w.startswith("poetry.lock: not read: it is a symbolic link") and w.endswith("lock ignored")
        for w in warnings
    )
