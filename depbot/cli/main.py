"""The command line: thin wrappers that parse flags, call the library and print.

Every flag that names an endpoint, a token or a model has an environment fallback;
errors are one line on stderr with exit code 2 for bad input and 1 for a failed run.
``depbot triage`` adds 3 (degraded), 4 (some update unknown) and 5 (some update
affected), as its ``--fail-on`` selects (``pipeline.outcome``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from depbot import __version__
from depbot.cli.commands import run_commands
from depbot.cli.common import (
    DEFAULT_OUT,
    check_one_source,
    echo,
    fail_cleanly,
    out_option,
    update_source_options,
)
from depbot.core.errors import InputError


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

    Every command reads and writes the same output folder: -o/--out DIR, by
    default depbot-out in the current folder (env DEPBOT_OUT). Inside a git
    checkout depbot puts a .gitignore of '*' into that default folder.

    Exit status: 0 ok, 1 the run failed, 2 bad input; depbot triage also 3
    degraded, 4 unknown, 5 affected (see depbot triage --help, --fail-on).
    """


@cli.command("updates", short_help="List the pending dependency updates, grouped by update type.")
@update_source_options
@click.option(
    "--json", "as_json", is_flag=True, help="Print JSON: {updates: [...], warnings: [...]}."
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
    as_json: bool,
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
      depbot updates -r ~/src/shop --json     another checkout, as JSON
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
    if as_json:
        click.echo(json.dumps(to_json(found, warnings), indent=2))
        return
    echo(render_table(found))
    if not found and any(" ignored (" in w for w in warnings):
        echo("Every update found was left out by the repository's update rules (below).")
    for warning in warnings:
        click.echo(f"depbot: warning: {warning}", err=True)


# --- review and publish (drafts, publish) ---------------------------------------------


class _DraftsGroup(click.Group):
    """``depbot drafts [DIR]`` lists; ``depbot drafts show|approve|reject …`` act on drafts.

    A first word that is not a subcommand is the output folder (``depbot drafts out/``).
    """

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return ["[DIR]", "| COMMAND [ARGS]..."]

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and not args[0].startswith("-") and args[0] not in self.commands:
            ctx.meta["depbot.drafts_dir"] = args[0]
            args = args[1:]
        return super().parse_args(ctx, args)


def _out_dir(ctx: click.Context, given: Path | None) -> Path:
    """The folder of ``-o DIR`` here, else ``depbot drafts DIR …``, else ``drafts -o DIR``."""
    if (
        given is not None
        and ctx.get_parameter_source("out_dir") == click.core.ParameterSource.COMMANDLINE
    ):
        return Path(given)
    named = ctx.meta.get("depbot.drafts_dir")
    return Path(named or given or DEFAULT_OUT)


_dir_option = out_option(
    f"The triage output folder (default: {DEFAULT_OUT}; env DEPBOT_OUT; --dir: the older name).",
    hidden_alias=True,
)


@cli.group(
    "drafts",
    cls=_DraftsGroup,
    invoke_without_command=True,
    short_help="Review the issue drafts: list, show, approve or reject them.",
)
@_dir_option
@click.pass_context
@fail_cleanly
def drafts_command(ctx: click.Context, out_dir: Path | None) -> None:
    """Review the issue drafts of a triage output folder (default: depbot-out).

    \b
      depbot drafts [DIR]                        list: package, versions, hits, status
      depbot drafts show ID [-o DIR]             print one draft
      depbot drafts approve ID... [-o DIR]       publish will open issues for these
      depbot drafts reject ID... --why "..."     publish will never open issues for these

    DIR is the folder depbot triage wrote: the first word, or -o/--out DIR (env
    DEPBOT_OUT), else depbot-out. Edit a draft file by hand before publishing if
    you like: depbot never overwrites your edit (a later triage writes its new
    render beside it as ID.new.md). Status lives in DIR/drafts/review.json.
    """
    if (
        out_dir is not None
        and ctx.get_parameter_source("out_dir") != click.core.ParameterSource.DEFAULT
    ):
        ctx.meta.setdefault("depbot.drafts_dir", str(out_dir))
    if ctx.invoked_subcommand is None:
        from depbot.output.review import drafts_table, list_drafts

        out = _out_dir(ctx, None)
        echo(drafts_table(list_drafts(out), out), nl=False)


@drafts_command.command("show", short_help="Print one draft with its review status.")
@click.argument("draft_id", metavar="ID")
@_dir_option
@click.pass_context
@fail_cleanly
def drafts_show_command(ctx: click.Context, draft_id: str, out_dir: Path | None) -> None:
    """Print a draft with its review status."""
    from depbot.output.review import show

    info, text = show(_out_dir(ctx, out_dir), draft_id)
    rec = info.record
    status = rec.status + (f" ({rec.why})" if rec.why else "")
    if info.edited:
        status += ", edited by hand"
    if rec.published:
        status += f", published as #{rec.published.issue} {rec.published.url}"
    click.echo(f"{info.file}  [{status}]\n")
    click.echo(text, nl=not text.endswith("\n"))


@drafts_command.command(
    "approve", short_help="Approve drafts: depbot publish opens issues for them."
)
@click.argument("draft_ids", metavar="ID...", nargs=-1, required=True)
@_dir_option
@click.pass_context
@fail_cleanly
def drafts_approve_command(
    ctx: click.Context, draft_ids: tuple[str, ...], out_dir: Path | None
) -> None:
    """Approve drafts: `depbot publish` opens issues for them."""
    from depbot.output.review import approve

    for rec in approve(_out_dir(ctx, out_dir), draft_ids):
        click.echo(f"approved {rec.id}")


@drafts_command.command(
    "reject",
    short_help="Reject drafts, with the reason: depbot publish never opens issues for them.",
)
@click.argument("draft_ids", metavar="ID...", nargs=-1, required=True)
@click.option("--why", required=True, help="Why the draft is wrong or not wanted.")
@_dir_option
@click.pass_context
@fail_cleanly
def drafts_reject_command(
    ctx: click.Context, draft_ids: tuple[str, ...], why: str, out_dir: Path | None
) -> None:
    """Reject drafts (with the reason): `depbot publish` never opens issues for them."""
    from depbot.output.review import reject

    for rec in reject(_out_dir(ctx, out_dir), draft_ids, why):
        click.echo(f"rejected {rec.id}: {rec.why}")


@cli.command(
    "publish", short_help="Open GitHub issues for the approved drafts of an output folder."
)
@click.argument(
    "dir_arg", metavar="[DIR]", required=False, type=click.Path(path_type=Path, file_okay=False)
)
@out_option(f"The triage output folder, as DIR (default: {DEFAULT_OUT}; env DEPBOT_OUT).")
@click.option(
    "-R",
    "--repo",
    metavar="OWNER/REPO",
    envvar="GITHUB_REPOSITORY",
    help="The GitHub repository to open issues in (env GITHUB_REPOSITORY; -R as in gh: "
    "-r is the checkout PATH of triage and updates).",
)
@click.option("--all", "all_drafts", is_flag=True, help="Publish every draft not rejected.")
@click.option(
    "--dry-run", is_flag=True, help="Show what would be created or updated; send nothing."
)
@click.option(
    "--comment-on-pr",
    is_flag=True,
    help="Also keep one comment linking the issue on the Dependabot pull request.",
)
@click.option("--reopen", is_flag=True, help="Reopen a closed issue of the same update.")
@click.option("--write-interval", type=float, default=1.0, hidden=True)
@fail_cleanly
def publish_command(
    dir_arg: Path | None,
    out_dir: Path,
    repo: str | None,
    all_drafts: bool,
    dry_run: bool,
    comment_on_pr: bool,
    reopen: bool,
    write_interval: float,
) -> None:
    """Open GitHub issues for the approved drafts of DIR.

    DIR is the folder depbot triage wrote (DIR or -o/--out DIR; env DEPBOT_OUT;
    default depbot-out).

    Never opens a second issue for the same package and target version: an open
    issue is updated when its draft changed, a closed one is left alone (unless
    --reopen). Safe to run again after an interruption.

    \b
    Environment: GITHUB_TOKEN (needs issues: write; pull-requests: write for
    --comment-on-pr), GITHUB_API_URL (GitHub Enterprise), GITHUB_REPOSITORY.
    """
    from depbot.core.errors import PublishError
    from depbot.core.settings import Settings
    from depbot.output.publish import publish

    if not repo:
        raise InputError("say which repository: --repo OWNER/REPO (or set GITHUB_REPOSITORY)")
    ctx = click.get_current_context()
    if (
        dir_arg is not None
        and out_dir != dir_arg
        and ctx.get_parameter_source("out_dir") == click.core.ParameterSource.COMMANDLINE
    ):
        raise InputError(
            f"two output folders: DIR {str(dir_arg)!r} and --out {str(out_dir)!r}: give one"
        )
    summary = publish(
        dir_arg or out_dir,
        Settings.from_env(repo=Path(".")),  # labels/assignees of ./.github/depbot.yml
        repo=repo,
        all_drafts=all_drafts,
        dry_run=dry_run,
        comment_on_pr=comment_on_pr,
        reopen=reopen,
        progress=lambda action: echo(action.line(dry_run)),
        write_interval=write_interval,
    )
    echo(summary.totals())
    failed = summary.count("failed")
    if failed:
        raise PublishError(f"{failed} draft(s) could not be published; see the lines above")


for _command in run_commands():
    cli.add_command(_command)


def main() -> None:
    cli(prog_name="depbot")


if __name__ == "__main__":  # pragma: no cover
    main()
