"""The command line: thin wrappers that parse flags, call the library and print.

Every flag that names an endpoint, a token or a model has an environment fallback;
errors are one line on stderr with exit code 2 for bad input and 1 for a failed run.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from . import __version__
from .errors import DepbotError

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


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "-V", "--version", prog_name="depbot")
def cli() -> None:
    """Triage this week's dependency updates against your code.

    depbot reads the changelog of each pending update between the two versions,
    searches your checkout for the APIs those sections break, and writes an issue
    draft for every update that really touches your code.

    \b
    Start here:
      depbot demo                      triage the shipped example, offline
      depbot updates                   list pending updates of the current checkout
      depbot triage --out out/         the weekly job: report.json, drafts, trace
      depbot drafts out/               review the drafts
      depbot publish out/ --repo o/r   open issues for approved drafts
    """


def main() -> None:
    cli(prog_name="depbot")


if __name__ == "__main__":  # pragma: no cover
    main()
