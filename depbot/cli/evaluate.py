"""``depbot eval``: replay scenarios against loopback fakes and score the verdicts."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from depbot.cli.common import fail_cleanly, model_option


@click.command("eval", short_help="Replay scenarios and score verdicts, evidence and cost.")
@click.argument("scenario_dirs", nargs=-1, required=True, type=click.Path(path_type=Path))
@model_option
@click.option("--json", "json_file", metavar="FILE", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the summary (per scenario and totals) as JSON.")  # fmt: skip
@click.option("--repeat", metavar="K", type=click.IntRange(1, 100), default=1, show_default=True,
              help="Run each scenario K times; it passes only if all K pass (pass^K).")  # fmt: skip
@click.option("--keep", metavar="DIR", type=click.Path(path_type=Path, file_okay=False),
              help="Keep each run's checkout, report and trace under DIR.")  # fmt: skip
@fail_cleanly
def eval_command(
    scenario_dirs: tuple[Path, ...],
    model: str | None,
    json_file: Path | None,
    repeat: int,
    keep: Path | None,
) -> None:
    """Replay scenarios and score verdicts, evidence and cost.

    Each SCENARIO_DIR is a scenario (scenario.toml, repo/, upstream/) or a folder
    of them. Every scenario runs in isolation against a loopback fake of the
    registries and GitHub that serves its upstream/ with its faults. Prints one
    row per scenario and ends with "N passed, M failed"; exits 1 when any failed.

    \b
    Examples:
      depbot eval tests/scenarios --model rules      the scenarios of depbot's repository
      depbot eval depbot/demo                        the demo's scenario
      depbot eval my-scenarios/ --model gpt-4o-mini --repeat 3 --json eval.json
    """
    from depbot.core.settings import Settings
    from depbot.evals.run import run_eval, write_json

    base = Settings.from_env()
    name = model or base.model
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
    summary = run_eval(
        list(scenario_dirs), model_name=name, base=base, repeat=repeat, keep=keep,
        progress=lambda line: click.echo(line),
    )  # fmt: skip
    totals = summary.totals()
    click.echo(
        f"\nverdicts: tp={totals['tp']} fp={totals['fp']} fn={totals['fn']} tn={totals['tn']} "
        f"unknown_ok={totals['unknown_ok']}  precision={totals['precision']} recall={totals['recall']} "
        f"evidence_recall={totals['evidence_recall']}"
    )
    safe = ", ".join(totals["false_safe_cases"])
    click.echo(
        f"precision {totals['precision']:.2f}  recall {totals['recall']:.2f}  "
        f"false-safe {totals['false_safe']}" + (f" ({safe})" if safe else "")
    )
    click.echo(
        f"cost: {totals['turns']} turns, {totals['tool_calls']} tool calls, "
        f"{totals['prompt_tokens']}+{totals['completion_tokens']} tokens, {totals['seconds']}s"
    )
    if json_file:
        write_json(summary, json_file)
    click.echo(f"{totals['passed']} passed, {totals['failed']} failed")
    if totals["failed"]:
        sys.exit(1)
