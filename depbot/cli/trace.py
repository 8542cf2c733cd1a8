"""``depbot trace show``: a run's trace.jsonl as a transcript."""

from __future__ import annotations

import shutil
from pathlib import Path

import click

from depbot.cli.common import fail_cleanly, out_option
from depbot.core.errors import InputError


@click.group("trace", short_help="Read the trace.jsonl of a run (depbot trace show).")
def trace_group() -> None:
    """Read a run's trace.jsonl."""


@trace_group.command(
    "show", short_help="Tell a run update by update: read, searched, found, concluded, why."
)
@click.argument("trace_file", metavar="[FILE|DIR]", required=False,
                type=click.Path(path_type=Path, dir_okay=True))  # fmt: skip
@out_option("The run's output folder: its trace.jsonl is shown when no FILE|DIR is given "
            "(env DEPBOT_OUT).")  # fmt: skip
@click.option("-U", "--update", "package", metavar="PKG",
              help="Only this package's story.")  # fmt: skip
@click.option("--timings", is_flag=True,
              help="Where the time went: each tool's calls, total and slowest seconds, the "
              "model's rounds, the slowest updates.")  # fmt: skip
@click.option("--rounds", is_flag=True,
              help="The conversation round by round (what the model was sent and said) "
              "instead of the story per update.")  # fmt: skip
@click.option("--json", "raw", metavar="FILE", is_flag=False, flag_value="-", default=None,
              help="The raw trace lines (JSONL), to FILE, or on stdout when FILE is left "
              "out or -.")  # fmt: skip
@click.option(
    "--width",
    type=int,
    default=600,
    show_default=True,
    help="Cut long texts to this many characters.",
)
@fail_cleanly
def trace_show_command(
    trace_file: Path | None,
    out_dir: Path,
    package: str | None,
    timings: bool,
    rounds: bool,
    raw: str | None,
    width: int,
) -> None:
    """Tell a run update by update: what was read, searched, found, set aside and
    concluded, and why; the accounting each verdict rests on closes each update.

    FILE is a trace.jsonl, DIR a run's output folder; without either, the
    trace.jsonl of -o/--out DIR (env DEPBOT_OUT; default depbot-out).

    \b
    Examples:
      depbot trace show                     every update of depbot-out/
      depbot trace show out/ -U PyYAML      one update's story
      depbot trace show --rounds            what the model was sent and said
      depbot trace show --timings           where the time went
      depbot trace show --json | jq .type   the raw lines
    """
    from depbot.agent.story import tell
    from depbot.agent.story import timings as timing_table
    from depbot.agent.trace import read_records, show

    if trace_file is None:
        path = out_dir / "trace.jsonl"
    else:
        path = trace_file / "trace.jsonl" if trace_file.is_dir() else trace_file
    if not path.is_file():
        raise InputError(f"no trace at {str(path)!r}")
    if raw == "-":
        click.echo(path.read_text(encoding="utf-8", errors="replace"), nl=False)
        return
    if raw:
        shutil.copyfile(path, raw)
        return
    if rounds:
        click.echo(show(path, width=width))
        return
    records, notes = read_records(path)
    if timings:
        click.echo(timing_table(records))
        return
    text = tell(records, update=package, width=width)
    if package is not None and "== " not in text:
        raise InputError(f"no update of {package!r} in {str(path)!r}")
    click.echo("\n".join([*notes, text]) if notes else text)
