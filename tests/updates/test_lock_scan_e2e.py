"""The real scan over checkouts of lock-file projects, against the loopback fake registry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from depbot.fakes.loopback import LoopbackServer
from depbot.updates.sources import collect_updates
from tests.helpers.fake_registry import FakeRegistry
from tests.helpers.locks import (
    BERRY,
    PIPFILE,
    PIPFILE_LOCK,
    PNPM_V9,
    POETRY_LOCK,
    POETRY_PYPROJECT,
    UV_LOCK,
    UV_PYPROJECT,
    pkg,
)
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


def found(updates):
    return {
        (u.manifest, u.package): (u.from_version, u.to_version, u.dependency_kind)
        for u in updates
        if not u.error
    }


def test_python_locks_end_to_end(upstream, tmp_path):
    fake, srv = upstream
    for name, versions in {
        "Django": ("4.2.11", "4.2.13", "5.0.6"),
        "celery": ("5.3.6", "5.4.0"),
        "stripe": ("7.8.0",),
        "pytest": ("8.1.1", "8.2.1", "8.2.2"),
        "ruff": ("0.4.4",),
        "mkdocs": ("1.5.3", "1.6.0"),
        "flask": ("2.3.3", "3.0.3", "3.0.4"),
        "httpx": ("0.27.0",),
        "requests": ("2.31.0", "2.32.3"),
        "sqlalchemy": ("2.0.29", "2.0.30"),
        "attrs": ("23.2.0",),
        "six": ("1.16.0", "1.17.0"),
    }.items():
        fake.add_pypi(name, *versions)
    write(
        tmp_path,
        {
            "billing/pyproject.toml": POETRY_PYPROJECT,
            "billing/poetry.lock": POETRY_LOCK,
            "shop/pyproject.toml": UV_PYPROJECT,
            "shop/uv.lock": UV_LOCK,
            "legacy/Pipfile": PIPFILE,
            "legacy/Pipfile.lock": json.dumps(PIPFILE_LOCK),
            "lib/setup.py": "from setuptools import setup\nsetup(install_requires=['six==1.16.0'])\n",
            "tool/setup.cfg": "[options]\ninstall_requires =\n    attrs\n",
            "broken/Pipfile": "[packages\nrequests = '*'\n",
        },
    )
    updates, warnings = collect_updates(loopback_settings(srv.url), repo=tmp_path)
    assert found(updates) == {
        ("billing/pyproject.toml", "django"): ("4.2.11", "5.0.6", "direct"),
        ("billing/pyproject.toml", "celery"): ("5.3.6", "5.4.0", "direct"),
        ("billing/pyproject.toml", "pytest"): ("8.1.1", "8.2.2", "dev"),
        ("shop/pyproject.toml", "flask"): ("3.0.3", "3.0.4", "direct"),
        ("shop/pyproject.toml", "pytest"): ("8.2.1", "8.2.2", "dev"),
        ("legacy/Pipfile", "requests"): ("2.31.0", "2.32.3", "direct"),
        ("legacy/Pipfile", "flask"): ("2.3.3", "3.0.4", "direct"),
        ("legacy/Pipfile", "sqlalchemy"): ("2.0.29", "2.0.30", "direct"),
        ("legacy/Pipfile", "pytest"): ("8.1.1", "8.2.2", "dev"),
        ("lib/setup.py", "six"): ("1.16.0", "1.17.0", "direct"),
    }
    assert (
        [w for w in warnings if w.startswith("broken/Pipfile")]
        == [w for w in warnings if w.startswith("broken/Pipfile: not valid TOML")]
        != []
    )
    assert "attrs has no pinned or locked version in tool/setup.cfg: nothing to compare" in warnings
    assert (
        "ruff has no pinned or locked version in billing/pyproject.toml: nothing to compare"
        in warnings
    )


def test_npm_locks_and_workspaces_end_to_end(upstream, tmp_path):
    fake, srv = upstream
    for name, versions in {
        "typescript": ("5.4.3", "5.4.5", "5.5.2"),
        "react": ("18.2.0", "18.3.1"),
        "express": ("4.19.2", "4.21.0", "5.0.0"),
        "@tanstack/react-query": ("5.28.6", "5.29.0"),
        "lodash": ("4.17.21",),
        "string-width": ("4.2.3", "7.1.0"),
    }.items():
        fake.add_npm(name, *versions)
    pnpm_pkg = json.dumps(
        {
            "dependencies": {
                "react": "^18.2.0",
                "@tanstack/react-query": "^5.28.0",
                "lodash": "^4.17.20",
                "string-width-cjs": "npm:string-width@^4.2.0",
            },
            "devDependencies": {"typescript": "~5.4.0"},
        }
    )
    write(
        tmp_path,
        {
            "mono/package.json": pkg(
                "monorepo", {}, {"typescript": "^5.4.0"}, workspaces=["packages/*"]
            ),
            "mono/yarn.lock": BERRY,
            "mono/packages/ui/package.json": pkg("@acme/ui", {"react": "^18.2.0"}),
            "mono/packages/api/package.json": pkg("@acme/api", {"express": "^4.18.2"}),
            "dash/package.json": pnpm_pkg,
            "dash/pnpm-lock.yaml": PNPM_V9,
            "broken/package.json": pkg("b", {"react": "^18.2.0"}),
            "broken/yarn.lock": '__metadata:\n  version: 8\n"react@npm:^18": [\n',
        },
    )
    updates, warnings = collect_updates(loopback_settings(srv.url), repo=tmp_path)
    assert found(updates) == {
        ("mono/package.json", "typescript"): ("5.4.5", "5.5.2", "dev"),
        ("mono/packages/api/package.json", "express"): ("4.19.2", "5.0.0", "direct"),
        ("dash/package.json", "react"): ("18.2.0", "18.3.1", "direct"),
        ("dash/package.json", "@tanstack/react-query"): ("5.28.6", "5.29.0", "direct"),
        ("dash/package.json", "string-width"): ("4.2.3", "7.1.0", "direct"),
        ("dash/package.json", "typescript"): ("5.4.3", "5.5.2", "dev"),
        ("broken/package.json", "react"): ("18.2.0", "18.3.1", "direct"),  # the range's floor
    }
    assert [w for w in warnings if w.startswith("broken/yarn.lock")] == [
        next(w for w in warnings if w.startswith("broken/yarn.lock: not valid YAML"))
    ]
