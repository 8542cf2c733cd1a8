"""Pieces shared by the command modules: error handling and the update-source flags."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from depbot.core.errors import DepbotError, InputError

DEFAULT_OUT = "depbot-out"  # the default output folder of `depbot triage`

F = TypeVar("F", bound=Callable[..., Any])


def fail_cleanly(func: F) -> F:
    """Turn a ``DepbotError`` into one line on stderr and its exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except DepbotError as exc:
            click.echo(f"depbot: error: {exc}", err=True)
            sys.exit(exc.exit_code)

    return wrapper  # type: ignore[return-value]


# --- where the update list comes from (shared by `updates` and `triage`) ---------------


def update_source_options(func: F) -> F:
    """``--repo``, ``--updates`` and ``--dependabot``: the three sources of the update list."""
    func = click.option(
        "-d",
        "--dependabot",
        metavar="OWNER/REPO",
        envvar="DEPBOT_DEPENDABOT_REPO",
        help="Read the open Dependabot pull requests of this GitHub repository "
        "(needs GITHUB_TOKEN; env DEPBOT_DEPENDABOT_REPO).",
    )(func)
    func = click.option(
        "-u",
        "--updates",
        "updates_file",
        metavar="FILE",
        type=click.Path(path_type=Path, dir_okay=False),
        envvar="DEPBOT_UPDATES_FILE",
        help="Read the update list from a JSON or TOML file of Dependabot-style records "
        "(env DEPBOT_UPDATES_FILE).",
    )(func)
    func = click.option(
        "-r",
        "--repo",
        metavar="PATH",
        type=click.Path(path_type=Path),
        default=Path("."),
        show_default=True,
        help="The checkout to read manifests from.",
    )(func)
    return func


def check_one_source(ctx: click.Context, updates_file: Path | None, dependabot: str | None) -> None:
    """``--updates`` and ``--dependabot`` exclude each other; say where each one came from."""
    if updates_file is None or not dependabot:
        return

    def named(param: str, flag: str, env: str) -> str:
        from_env = ctx.get_parameter_source(param) == click.core.ParameterSource.ENVIRONMENT
        return f"{env} (environment)" if from_env else flag

    raise InputError(
        f"{named('updates_file', '--updates', 'DEPBOT_UPDATES_FILE')} and "
        f"{named('dependabot', '--dependabot', 'DEPBOT_DEPENDABOT_REPO')} exclude each other: "
        "give one source of updates"
    )
