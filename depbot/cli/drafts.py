"""Review and publish: ``depbot drafts [show|approve|reject]`` and ``depbot publish``."""

from __future__ import annotations

from pathlib import Path

import click

from depbot.cli.common import DEFAULT_OUT, echo, fail_cleanly, out_option
from depbot.core.errors import InputError


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


@click.group(
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


@click.command(
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
    help="The GitHub repository to open issues in (env GITHUB_REPOSITORY; -R as in gh; "
    "the checkout of triage and updates is -C/--checkout PATH).",
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
