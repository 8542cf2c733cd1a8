"""``depbot updates``: the pending updates of a checkout, an update file or Dependabot's PRs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from depbot.cli.common import check_one_source, echo, fail_cleanly, update_source_options
from depbot.core.atomicio import atomic_write_json


@click.command("updates", short_help="List the pending dependency updates, grouped by update type.")
@update_source_options
@click.option(
    "--json",
    "as_json",
    metavar="FILE",
    is_flag=False,
    flag_value="-",
    default=None,
    help="The list as JSON, {updates: [...], warnings: [...]}, to FILE (as eval's --json "
    "FILE), or on stdout when FILE is left out or -.",
)
@click.option(
    "-v", "--verbose", is_flag=True, help="Show progress on stderr (on by default on a terminal)."
)
@click.pass_context
@fail_cleanly
def updates_command(
    ctx: click.Context,
    repo: Path,
    updates_file: Path | None,
    dependabot: str | None,
    as_json: str | None,
    verbose: bool,
) -> None:
    """List the pending dependency updates, grouped by update type.

    By default depbot reads the checkout's manifests with their locks
    (requirements*.txt; pyproject.toml with uv.lock or poetry.lock; Pipfile and
    Pipfile.lock; setup.cfg; setup.py, read, never run; package.json with
    package-lock.json, yarn.lock or pnpm-lock.yaml, workspaces included) and
    asks the package index and the npm registry for each package's newest
    stable release. Or it reads an update file, or the open Dependabot pull
    requests of a repository. The checkout's .github/dependabot.yml (or
    depbot.yml's updates:) decides which updates are listed.

    \b
    Examples:
      depbot updates                          manifests of the current folder
      depbot updates -C ~/src/shop --json     another checkout, as JSON
      depbot updates -u week.json             a list a workflow wrote
      GITHUB_TOKEN=... depbot updates -d acme/shop
                                              open Dependabot PRs of acme/shop

    \b
    Endpoints (environment): DEPBOT_PYPI_URL, DEPBOT_NPM_URL, GITHUB_API_URL,
    GITHUB_TOKEN. A package whose registry lookup fails is listed under
    "errors"; the rest of the list still comes back. Exit code 2: bad input.
    """
    from depbot.core.settings import Settings
    from depbot.updates.sources import collect_updates
    from depbot.updates.table import render_table, to_json

    check_one_source(ctx, updates_file, dependabot)
    settings = Settings.from_env()
    show = verbose or sys.stderr.isatty()
    found, warnings = collect_updates(
        settings,
        repo=repo,
        updates_file=updates_file,
        dependabot=dependabot,
        progress=(lambda msg: click.echo(f"depbot: {msg}", err=True)) if show else None,
    )
    if as_json == "-":
        click.echo(json.dumps(to_json(found, warnings), indent=2))
        return
    if as_json:
        atomic_write_json(as_json, to_json(found, warnings))
        click.echo(f"depbot: wrote {len(found)} update(s) to {as_json}", err=True)
        return
    echo(render_table(found))
    if not found and any(" ignored (" in w for w in warnings):
        echo("Every update found was left out by the repository's update rules (below).")
    for warning in warnings:
        click.echo(f"depbot: warning: {warning}", err=True)
