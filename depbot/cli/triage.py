"""The commands that triage: ``depbot triage`` (the weekly job) and ``depbot demo`` (the shipped
example, offline), and what both print at the end."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from depbot.cli.common import (
    DEFAULT_OUT,
    DEFAULT_OUT_NOTE,
    check_one_source,
    echo,
    fail_cleanly,
    ignore_in_git,
    model_option,
    out_given,
    out_option,
    update_source_options,
)
from depbot.cli.progress import reporter, stage_event
from depbot.core.errors import InputError
from depbot.pipeline.outcome import (
    DEFAULT_FAIL_ON,
    EXIT_AFFECTED,
    EXIT_DEGRADED,
    EXIT_UNKNOWN,
    FAIL_ON,
    exit_status,
)
from depbot.pipeline.watch import FOUND

if TYPE_CHECKING:
    from depbot.core.settings import Settings
    from depbot.records.update import Update

_fail_on_option = click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON, case_sensitive=False),
    default=DEFAULT_FAIL_ON,
    show_default=True,
    envvar="DEPBOT_FAIL_ON",
    help="What makes the exit status non-zero: 'degraded' (the model endpoint or an "
    "upstream was unavailable, or updates are unknown after failures: 3), 'unknown' (also "
    "any unknown update: 4), 'affected' (also any affected update: 5), 'never' (env "
    "DEPBOT_FAIL_ON).",
)


_STATUS_WHY = {
    EXIT_DEGRADED: "the run was degraded",
    EXIT_UNKNOWN: "some update is unknown",
    EXIT_AFFECTED: "some update is affected",
}


def _print_result(result, out_dir: Path, *extra: str, said: Sequence[str] = ()) -> None:
    """The verdict table, where the files are (and ``extra`` lines), why the run is degraded
    (but for the lines ``said`` on stderr during the run), and the closing line."""
    from depbot.output.drafts import verdict_table
    from depbot.pipeline.outcome import closing_line, no_drafts_line

    closing = closing_line(result.outcome)
    table = verdict_table(result.verdicts).rstrip("\n")
    body, _, counts = table.rpartition("\n")
    echo(body if body and closing.startswith(counts) else table)  # the counts come last
    click.echo(f"\nreport: {out_dir / 'report.json'}")
    click.echo(f"trace:  {out_dir / 'trace.jsonl'}")
    if result.drafts:
        click.echo(
            f"drafts: {len(result.drafts)} in {out_dir / 'drafts'} (review with: depbot drafts"
            + ("" if str(out_dir) == DEFAULT_OUT else f" {out_dir}")
            + ")"
        )
    else:
        click.echo(no_drafts_line(result.outcome))
    for note in result.notes:
        click.echo(f"note: {note}")
    for line in extra:
        click.echo(line)
    for reason in result.outcome.because:
        if f"depbot: {reason}" not in said:  # a refused model key is said when it happens
            echo(f"depbot: {reason}", err=True)
    echo(closing)


def _job_summary(result) -> None:
    """In GitHub Actions the verdict table goes to the job summary too (the library writes none)."""
    from depbot.cli.actions import write_step_summary
    from depbot.output.drafts import render_step_summary
    from depbot.pipeline.outcome import closing_line

    text = render_step_summary(result.verdicts, report_path=str(result.report_path))
    text = text.rstrip("\n") + f"\n\n**{closing_line(result.outcome)}**\n"
    text += "".join(f"- {reason}\n" for reason in result.outcome.because)
    write_step_summary(None, text)


@click.command(
    "triage", short_help="Triage the week's updates against the checkout: the weekly job."
)
@update_source_options
@model_option
@out_option(
    "Where report.json, drafts/ and trace.jsonl go. One run at a "
    "time: the files of the run already there move to DIR/previous/ (replacing it). "
    + DEFAULT_OUT_NOTE
)
@click.option(
    "--resume",
    metavar="DIR",
    type=click.Path(path_type=Path, file_okay=False),
    help="Continue a run that was cut off: keep the verdicts already in DIR's journal "
    "(refused when the checkout, update list, model or settings changed since).",
)
@click.option(
    "--pr",
    metavar="NUMBER|URL",
    help="The updates of --updates come from this Dependabot pull request: drafts link it "
    "and `depbot publish --comment-on-pr` comments on it.",
)
@_fail_on_option
@click.option(
    "-q",
    "--quiet",
    is_flag=True,
    help="No progress on stderr (by default a live line per stage on a terminal, plain "
    "lines elsewhere and in GitHub Actions).",
)
@click.pass_context
@fail_cleanly
def triage_command(
    ctx: click.Context,
    repo: Path,
    updates_file: Path | None,
    dependabot: str | None,
    model: str | None,
    out_dir: Path,
    resume: Path | None,
    pr: str | None,
    fail_on: str,
    quiet: bool,
) -> None:
    """Triage the week's updates against the checkout: the weekly job.

    For each update depbot reads the changelog sections between the two versions,
    searches the checkout for what they break, and concludes affected,
    not_affected or unknown. It writes DIR/report.json, one issue draft per
    affected update in DIR/drafts/, and DIR/trace.jsonl (every model round and
    tool call). The last line says how it came out: "… — ok", or "… — degraded"
    when the model endpoint or a configured upstream was unavailable or updates
    are unknown because something failed (the lines above it say what).

    \b
    Exit status:
      0  verdicts reached from facts (and nothing --fail-on asks to fail on)
      1  the run itself failed
      2  bad input (a flag, a file, a setting; a checkout with no manifest; DIR in
         use by another run; --resume of a journal of other inputs)
      3  degraded (--fail-on degraded, the default; unknown; affected)
      4  some update is unknown (--fail-on unknown or affected)
      5  some update is affected (--fail-on affected)
    Of several, the lowest wins; --fail-on never: 0 unless 1 or 2.

    \b
    Examples:
      depbot triage                           manifests of ., rules model
      depbot triage -u week.json -o out/      an update file
      depbot triage -m gpt-4o-mini            a chat model (OPENAI_API_KEY)
      OPENAI_BASE_URL=http://localhost:11434/v1 depbot triage -m qwen2.5
      depbot triage --resume out/             finish a run that was killed

    Settings also come from the checkout's .github/depbot.yml (model, budgets,
    fail-on, labels, assignees, which updates): a flag wins over its environment
    variable, which wins over the file, which wins over the default. The
    checkout's .github/dependabot.yml (or depbot.yml's updates:) decides which
    updates are triaged, as Dependabot would propose them.
    """
    from depbot.core.settings import Settings
    from depbot.models import make_model
    from depbot.pipeline.run import triage

    _check_inputs(ctx, repo, updates_file, dependabot, pr)
    settings = Settings.from_env(repo=repo)  # flag > environment > .github/depbot.yml > default
    fail_on = _fail_on(ctx, repo, fail_on)
    model_obj = make_model(model, settings)
    target = _claim_out_dir(ctx, resume or out_dir, resumed=resume is not None)
    with reporter(quiet) as say:
        updates = _collect(settings, repo, updates_file, dependabot, pr, say)
        result = triage(
            settings,
            repo=repo,
            updates=updates,
            model=model_obj,
            out_dir=target,
            progress=say,
            resume=resume is not None,
            repo_label=dependabot or None,
        )
    _job_summary(result)
    _print_result(result, target, said=getattr(model_obj, "said", ()))
    ctx.exit(_exit_status(result, fail_on))


# --- the steps of triage ----------------------------------------------------------------


def _check_inputs(
    ctx: click.Context,
    repo: Path,
    updates_file: Path | None,
    dependabot: str | None,
    pr: str | None,
) -> None:
    """Refuse flags that do not go together, and a checkout that is not a folder."""
    check_one_source(ctx, updates_file, dependabot)
    if pr and updates_file is None:
        raise InputError("--pr marks the updates of an update file: give --updates FILE too")
    if not repo.is_dir():
        raise InputError(f"repository path {str(repo)!r} does not exist or is not a folder")


def _fail_on(ctx: click.Context, repo: Path, given: str) -> str:
    """``--fail-on`` (or DEPBOT_FAIL_ON) when given, else ``fail-on:`` of the checkout's
    .github/depbot.yml, else the default."""
    if ctx.get_parameter_source("fail_on") != click.core.ParameterSource.DEFAULT:
        return given
    from depbot.core.config_file import load_depbot_file

    own = load_depbot_file(repo)
    return (own.values.get("fail-on") if own else None) or given


def _claim_out_dir(ctx: click.Context, target: Path, *, resumed: bool) -> Path:
    """``target``, checked free of another run before the update list is collected; the
    default folder inside a checkout gets a .gitignore so it stays out of git status."""
    from depbot.output.runlock import check_free

    check_free(target)  # a folder in use: say so now, before the update list is collected
    if not resumed and not out_given(ctx):
        ignore_in_git(target)  # the default folder inside a checkout stays out of git status
    return target


def _collect(
    settings: Settings,
    repo: Path,
    updates_file: Path | None,
    dependabot: str | None,
    pr: str | None,
    say: Callable[[Any], None],
) -> list[Update]:
    """The update list (marked with its pull request, if any); its warnings go to stderr."""
    from depbot.updates.sources import collect_updates

    updates, warnings = collect_updates(
        settings, repo=repo, updates_file=updates_file, dependabot=dependabot, progress=say
    )
    if pr:
        from depbot.cli.action_inputs import mark_pull_request

        updates = mark_pull_request(updates, pr)
    for w in warnings:
        click.echo(f"depbot: warning: {w}", err=True)
    if not updates:
        click.echo("depbot: no pending updates", err=True)
    n = len(updates)
    say(stage_event(FOUND, n, n, f"{FOUND}: {n}"))
    return updates


def _exit_status(result: Any, fail_on: str) -> int:
    """The exit status ``--fail-on`` asks for, said on stderr with its reason when not 0."""
    code = exit_status(result.outcome, fail_on.lower())
    if code:
        why = _STATUS_WHY.get(code, "")
        click.echo(f"depbot: exit status {code}: {why} (--fail-on {fail_on.lower()})", err=True)
    return code


@click.command(
    "demo", short_help="Triage the example repository that ships inside depbot, offline."
)
@out_option("Where report.json, drafts/ and trace.jsonl go, as with depbot triage --out. "
            + DEFAULT_OUT_NOTE)  # fmt: skip
@click.option("--keep", metavar="DIR", type=click.Path(path_type=Path, file_okay=False),
              help="Keep the copy of the example checkout and the HTTP cache in DIR (default: "
              "a temporary folder, removed when the demo ends).")  # fmt: skip
@model_option
@click.pass_context
@fail_cleanly
def demo_command(ctx: click.Context, out_dir: Path, keep: Path | None, model: str | None) -> None:
    """Triage the example repository that ships inside depbot, offline.

    The example checkout, its week of updates and the release notes of its
    packages ship inside depbot; a loopback fake of the registries and GitHub
    serves them, and the built-in rules model does the triage. Nothing leaves
    this machine. DIR gets what `depbot triage --out DIR` writes, so `depbot
    drafts` and `depbot trace show` read it next. The copy of the example
    checkout and the cache go to a temporary folder that is removed at the end
    (--keep DIR keeps them). Exit status 0 unless the demo itself failed (1).
    """
    from depbot.evals.demo import demo_dir, demo_work_dir, run_demo

    if not out_given(ctx):
        ignore_in_git(out_dir)
    with demo_work_dir(keep) as work, reporter(False) as say:
        result = run_demo(out_dir, work_dir=work, model=model or "rules", progress=say)
        _job_summary(result)
        where = (
            f"checkout: {work / 'repo'} (cache: {work / 'cache'})"
            if keep
            else f"checkout: {demo_dir() / 'repo'} (the example; the copy triaged and the cache "
            "were in a temporary folder, now removed: --keep DIR keeps them)"
        )
        _print_result(result, out_dir, where)
