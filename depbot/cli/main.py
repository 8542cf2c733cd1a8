"""The command line: thin wrappers that parse flags, call the library and print.

Every flag that names an endpoint, a token or a model has an environment fallback;
errors are one line on stderr with exit code 2 for bad input and 1 for a failed run.
``depbot triage`` adds 3 (degraded), 4 (some update unknown) and 5 (some update
affected), as its ``--fail-on`` selects (``pipeline.outcome``).

This module builds the ``depbot`` group and adds the commands, one module per concept:
``triage`` (triage, demo), ``updates``, ``drafts`` (drafts, publish), ``evaluate`` (eval)
and ``trace`` (trace show); ``common`` holds what they share.
"""

from __future__ import annotations

import click

from depbot import __version__
from depbot.cli.cache import cache_group
from depbot.cli.drafts import drafts_command, publish_command
from depbot.cli.evaluate import eval_command
from depbot.cli.trace import trace_group
from depbot.cli.triage import demo_command, triage_command
from depbot.cli.updates import updates_command


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
      depbot triage                    the weekly job: report.json, drafts, trace
      depbot drafts                    review the drafts
      depbot publish --repo o/r        open issues for approved drafts
      depbot cache                     where the cache is and its size (clear, trim)

    Every command reads and writes the same output folder: -o/--out DIR, by
    default depbot-out in the current folder (env DEPBOT_OUT). Inside a git
    checkout depbot puts a .gitignore of '*' into that default folder.

    Exit status: 0 ok, 1 the run failed, 2 bad input; depbot triage also 3
    degraded, 4 unknown, 5 affected (see depbot triage --help, --fail-on).
    """


for _command in (
    updates_command,
    drafts_command,
    publish_command,
    triage_command,
    eval_command,
    demo_command,
    trace_group,
    cache_group,
):
    cli.add_command(_command)


def main() -> None:
    cli(prog_name="depbot")


if __name__ == "__main__":  # pragma: no cover
    main()
