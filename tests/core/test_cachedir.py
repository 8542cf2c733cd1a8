"""#29: the cache folder has a cap, least recently used first; `depbot cache` shows and clears it."""

from __future__ import annotations

import os
import time
from pathlib import Path

from click.testing import CliRunner

from depbot.cli.main import cli
from depbot.core.cachedir import GRACE, clear, evict, usage

MB = 1_000_000


def fill(root: Path) -> dict[str, Path]:
    """An HTTP cache, three archives and their unpacked folders, each used at another time."""
    (root / "http_cache_v2.sqlite").write_bytes(b"x" * (2 * MB))
    made = {}
    now = time.time()
    for age, name in ((10, "old"), (5, "mid"), (0, "new")):  # hours since last use
        archive = root / "artifacts" / "sha256" / name
        archive.parent.mkdir(parents=True, exist_ok=True)
        archive.write_bytes(b"a" * MB)
        folder = root / "unpacked" / name
        (folder / "pkg").mkdir(parents=True)
        (folder / "pkg" / "__init__.py").write_bytes(b"u" * MB)
        when = now - age * 3600 - 60
        for p in (archive, folder):
            os.utime(p, (when, when))
        made[name] = archive
    return made


def test_usage_counts_every_part(tmp_path):
    fill(tmp_path)
    (tmp_path / "uses").mkdir()
    (tmp_path / "uses" / "k.json").write_bytes(b"x" * MB)  # a kept use-check (#30)
    found = usage(tmp_path)
    assert found.total == 9 * MB
    assert found.by_part() == {"http": (1, 2 * MB), "artifacts": (3, 3 * MB),
                               "unpacked": (3, 3 * MB), "diffs": (0, 0), "uses": (1, MB)}  # fmt: skip


def test_eviction_removes_the_least_recently_used_first(tmp_path):
    made = fill(tmp_path)
    removed, freed = evict(tmp_path, 4 * MB)
    assert (removed, freed) == (4, 4 * MB)  # the old and the mid archive and folder
    assert not made["old"].exists() and not made["mid"].exists()
    assert made["new"].exists() and (tmp_path / "unpacked" / "new").is_dir()
    assert (tmp_path / "http_cache_v2.sqlite").exists()
    assert usage(tmp_path).total <= 4 * MB


def test_what_was_used_within_the_grace_period_stays(tmp_path):
    made = fill(tmp_path)
    os.utime(made["old"])  # used just now by another run
    evict(tmp_path, 1)
    assert made["old"].exists()  # within GRACE, however far over the cap
    assert not made["mid"].exists()
    assert GRACE >= 60


def test_no_cap_removes_nothing_and_clear_removes_all(tmp_path):
    fill(tmp_path)
    assert evict(tmp_path, 0) == (0, 0)
    assert clear(tmp_path) == (7, 8 * MB)
    assert usage(tmp_path).total == 0


def test_the_cache_command_shows_trims_and_clears(tmp_path):
    fill(tmp_path)
    env = {"DEPBOT_CACHE_DIR": str(tmp_path), "DEPBOT_CACHE_MAX_MB": "4", "DEPBOT_NO_CACHE": ""}
    shown = CliRunner().invoke(cli, ["cache"], env=env)
    assert shown.exit_code == 0, shown.output
    assert f"cache: {tmp_path}" in shown.output and "8.0 MB (cap 4 MB" in shown.output
    assert "3 entries  release archives" in shown.output
    trimmed = CliRunner().invoke(cli, ["cache", "trim"], env=env)
    assert trimmed.output.strip() == f"trimmed {tmp_path}: 4 entries, 4.0 MB"
    cleared = CliRunner().invoke(cli, ["cache", "clear"], env=env)
    assert cleared.output.strip() == f"cleared {tmp_path}: 3 entries, 4.0 MB"
    off = CliRunner().invoke(cli, ["cache"], env={"DEPBOT_NO_CACHE": "1"})
    assert "The cache is off" in off.output
