"""``depbot trace show``: a run's trace.jsonl as a transcript."""

from __future__ import annotations

from pathlib import Path

import click

from depbot.cli.common import fail_cleanly, out_option
from depbot.core.errors import InputError


@click.group("trace", short_help="Read the trace.jsonl of a run (depbot trace show).")
def trace_group() -> None:
    """Read a run's trace.jsonl."""


@trace_group.command(
    "show", short_help="Print a run's trace.jsonl as a transcript, round by round."
)
@click.argument("trace_file", metavar="[FILE|DIR]", required=False,
                type=click.Path(path_type=Path, dir_okay=True))  # fmt: skip
@out_option("The run's output folder: its trace.jsonl is shown when no FILE|DIR is given "
            "(env DEPBOT_OUT).")  # fmt: skip
@click.option(
    "--width",
    type=int,
    default=600,
    show_default=True,
    help="Cut long texts to this many characters.",
)
@fail_cleanly
def trace_show_command(trace_file: Path | None, out_dir: Path, width: int) -> None:
    """Print a run as a transcript, round by round.

    FILE is a trace.jsonl, DIR a run's output folder; without either, the
    trace.jsonl of -o/--out DIR (env DEPBOT_OUT; default depbot-out).
    """
    from depbot.agent.trace import show

    if trace_file is None:
        path = out_dir / "trace.jsonl"
    else:
        path = trace_file / "trace.jsonl" if trace_file.is_dir() else trace_file
    if not path.is_file():
        raise InputError(f"no trace at {str(path)!r}")
    click.echo(show(path, width=width))
