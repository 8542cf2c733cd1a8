"""``depbot demo``: the whole triage, offline, on the example that ships inside the package."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

from depbot.core.errors import InputError
from depbot.core.settings import Settings
from depbot.evals.run import git_checkout
from depbot.evals.scenarios import load_scenario
from depbot.fakes.upstream import FakeUpstream
from depbot.models import make_model
from depbot.pipeline.run import TriageResult, triage


def demo_dir() -> Path:
    return Path(str(resources.files("depbot").joinpath("demo")))


@contextmanager
def demo_work_dir(keep: Path | None = None) -> Iterator[Path]:
    """The folder for the copy of the example checkout and the cache.

    ``keep`` is used (and left) as it is; otherwise a new temporary folder, removed on exit.
    """
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        yield keep
        return
    work = Path(tempfile.mkdtemp(prefix="depbot-demo-"))
    try:
        yield work
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_demo(
    out_dir: Path,
    *,
    work_dir: Path,
    model: str = "rules",
    progress: Callable[[str], None] | None = None,
) -> TriageResult:
    """Triage the example into ``out_dir`` as ``depbot triage --out`` does.

    The copy of the example checkout goes to ``work_dir/repo`` and the cache to
    ``work_dir/cache``; ``work_dir`` must not be inside ``out_dir`` (they would mix).
    """
    out_dir, work_dir = Path(out_dir), Path(work_dir)
    if work_dir.resolve().is_relative_to(out_dir.resolve()):
        raise InputError(f"the demo's work folder {str(work_dir)!r} is inside its output folder")
    sc = load_scenario(demo_dir())
    work_dir.mkdir(parents=True, exist_ok=True)
    repo = work_dir / "repo"
    if not repo.exists():
        git_checkout(sc.repo, repo)
    base = Settings.from_env()
    with FakeUpstream(sc.upstream, sc.faults, versions=sc.versions(), retry_after=0.5) as up:
        settings = base.replace(
            **up.settings_overrides(),
            cache_dir=work_dir / "cache",
            github_token=None,
            http_timeout=5.0,
        )
        if progress:
            progress(f"serving the example's registries and GitHub at {up.url} (loopback, offline)")
        return triage(
            settings,
            repo=repo,
            updates=sc.updates,
            model=make_model(model, settings),
            out_dir=out_dir,
            progress=progress,
            repo_label="inventory-dashboard (demo)",
        )
