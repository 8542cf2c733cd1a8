"""Small on-disk worlds for loop tests: a checkout and the upstream its updates come from."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from depbot.core.settings import Settings
from depbot.fakes.upstream import FakeUpstream
from depbot.records.update import Update


@dataclass
class World:
    repo: Path
    upstream: Path
    updates: list[Update]
    faults: list[dict[str, Any]] = field(default_factory=list)

    def serve(self) -> FakeUpstream:
        versions: dict[tuple[str, str], list[str]] = {}
        for u in self.updates:
            versions.setdefault((u.ecosystem, u.package), []).extend([u.from_version, u.to_version])
        return FakeUpstream(
            self.upstream, self.faults, versions=versions, retry_after=0.05, timeout_delay=1.5
        )


def settings_for(up: FakeUpstream, **overrides: Any) -> Settings:
    values: dict[str, Any] = dict(
        up.settings_overrides(),
        cache_dir=None,
        http_timeout=1.0,
        retry_backoff=0.01,
        max_retry_wait=0.5,
        model_retries=0,
        # the fake answers as PyPI, npm and GitHub on one loopback host: fault cells that time
        # out several upstreams at once would trip the per-host breaker meant for one upstream
        breaker_failures=1000,
    )
    values.update(overrides)
    return Settings(**values)


def write_tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")


OLDLIB_CHANGES = """# Changelog

## 2.0.0

- `oldlib.legacy()` was removed; use `oldlib.modern()` instead.
- Python 3.7 is no longer supported.

## 1.5.0

- New `oldlib.modern()` helper.
"""

OTHERLIB_CHANGES = """# Changelog

## 1.2.1

- Fix a crash when the input is empty.
"""


def two_package_world(tmp_path: Path, *, oldlib_changes: str = OLDLIB_CHANGES) -> World:
    """`oldlib` 1.5.0 → 2.0.0 removes `legacy()`, which app/main.py calls; `otherlib` gets a patch."""
    repo = tmp_path / "repo"
    write_tree(
        repo,
        {
            "requirements.txt": "oldlib==1.5.0\notherlib==1.2.0\n",
            "app/__init__.py": "",
            "app/main.py": "import oldlib\nimport otherlib\n\n\ndef run():\n    return oldlib.legacy(otherlib.VALUE)\n",
            "app/notes.py": "# we used to call oldlib.legacy() here\nTEXT = 'oldlib.legacy'\n",
            ".env": "API_KEY=sk-canary-secret-value-1234567890\n",
        },
    )
    upstream = tmp_path / "upstream"
    write_tree(
        upstream,
        {
            "pip/oldlib/CHANGELOG.md": oldlib_changes,
            "pip/oldlib/meta.json": json.dumps({"repository": "https://github.com/example/oldlib"}),
            "pip/otherlib/CHANGELOG.md": OTHERLIB_CHANGES,
            "pip/otherlib/meta.json": json.dumps(
                {"repository": "https://github.com/example/otherlib"}
            ),
        },
    )
    updates = [
        Update("pip", "oldlib", "1.5.0", "2.0.0", manifest="requirements.txt"),
        Update("pip", "otherlib", "1.2.0", "1.2.1", manifest="requirements.txt"),
    ]
    return World(repo, upstream, updates)


N_MANY = 6


def many_updates_world(tmp_path: Path) -> World:
    """Six majors: lib0, lib2, lib4 are called by the code (affected), the others not."""
    repo, upstream = tmp_path / "repo", tmp_path / "upstream"
    code = "".join(f"import lib{i}\n" for i in range(N_MANY))
    code += "\n\ndef run():\n" + "".join(f"    lib{i}.old{i}()\n" for i in range(0, N_MANY, 2))
    code += "".join(f"    lib{i}.new{i}()\n" for i in range(1, N_MANY, 2))
    write_tree(
        repo,
        {"requirements.txt": "".join(f"lib{i}==1.0.0\n" for i in range(N_MANY)), "app.py": code},
    )
    for i in range(N_MANY):
        write_tree(
            upstream / "pip" / f"lib{i}",
            {
                "CHANGELOG.md": f"# Changes\n\n## 2.0.0\n\n- `lib{i}.old{i}()` was removed; use "
                f"`lib{i}.new{i}()`.\n\n## 1.0.0\n\n- First release.\n",
                "meta.json": json.dumps({"repository": f"https://github.com/example/lib{i}"}),
            },
        )
    updates = [
        Update("pip", f"lib{i}", "1.0.0", "2.0.0", manifest="requirements.txt")
        for i in range(N_MANY)
    ]
    return World(repo, upstream, updates)


def removed_function_world(tmp_path: Path) -> World:
    """One pip update, lib 1.0.0 → 2.0.0, whose released code removes ``old()``, which the
    checkout calls; no notes (the fake GitHub has none)."""
    repo, upstream = tmp_path / "repo", tmp_path / "upstream"
    write_tree(repo, {"requirements.txt": "lib==1.0.0\n", "app.py": "import lib\nlib.old()\n"})
    meta = {"repository": "https://github.com/example/lib", "versions": ["1.0.0", "2.0.0"]}
    write_tree(upstream / "pip" / "lib", {
        "meta.json": json.dumps(meta),
        "dist/1.0.0/lib/__init__.py": "def old():\n    pass\n",
        "dist/2.0.0/lib/__init__.py": "def new():\n    pass\n",
    })  # fmt: skip
    updates = [Update("pip", "lib", "1.0.0", "2.0.0", manifest="requirements.txt")]
    return World(repo, upstream, updates, [])


def triage_cached(tmp_path: Path, w: World, out: str) -> Any:
    """``triage`` of the world with the rules model, its cache in ``tmp_path/cache`` (kept
    from one call to the next), its output in ``tmp_path/out``."""
    from depbot.models.rules import RulesModel
    from depbot.pipeline.run import triage

    with w.serve() as up:
        settings = settings_for(up, cache_dir=tmp_path / "cache")
        return triage(settings, repo=w.repo, updates=w.updates, model=RulesModel(),
                      out_dir=tmp_path / out)  # fmt: skip
