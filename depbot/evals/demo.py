"""``depbot demo``: the whole triage, offline, on the example that ships inside the package."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from pathlib import Path

from depbot.core.settings import Settings
from depbot.evals.run import git_checkout
from depbot.evals.scenarios import load_scenario
from depbot.fakes.upstream import FakeUpstream
from depbot.models.base import make_model
from depbot.triage.run import TriageResult, triage


def demo_dir() -> Path:
    return Path(str(resources.files("depbot").joinpath("demo")))


def run_demo(
    target: Path, *, model: str = "rules", progress: Callable[[str], None] | None = None
) -> TriageResult:
    """Copy the example checkout to ``target/repo``, serve its upstream, triage into ``target/out``."""
    sc = load_scenario(demo_dir())
    target.mkdir(parents=True, exist_ok=True)
    repo = target / "repo"
    if not repo.exists():
        git_checkout(sc.repo, repo)
    base = Settings.from_env()
    with FakeUpstream(sc.upstream, sc.faults, versions=sc.versions(), retry_after=0.5) as up:
        settings = base.replace(
            **up.settings_overrides(),
            cache_dir=target / "cache",
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
            out_dir=target / "out",
            progress=progress,
            repo_label="inventory-dashboard (demo)",
        )
