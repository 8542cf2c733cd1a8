"""The main step of the GitHub Action: ``python -m depbot.cli.actions [triage|publish]``.

``triage`` (the default) reads the action's inputs from ``DEPBOT_INPUT_*`` (see ``action_inputs``),
writes ``updates-json`` to a file when given, runs ``depbot triage`` (which appends its
verdict table to ``$GITHUB_STEP_SUMMARY``), then appends where the files are to the
summary and writes the step outputs (report path, output folder, drafts folder, counts,
artifact name) to ``$GITHUB_OUTPUT``. ``publish`` runs ``depbot publish DIR --all`` on
an output folder, or says there is nothing to publish when it holds no draft.

``--dry-run`` prints the depbot command the step would run, and runs nothing.
The exit code is depbot's, and so is the step output ``exit-code``: 0 verdicts reached
from facts, 1 a failed run, 2 bad input, 3 degraded, 4 some update unknown, 5 some update
affected (3-5 as input ``fail-on`` selects; ``depbot triage --help``). The action runs this
step with ``continue-on-error`` and fails the job in its last step, after the upload and
publishing, so a degraded run still leaves its summary, outputs and artifact.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from depbot.cli.action_inputs import (
    UPDATES_FILE,
    StepInputs,
    artifact_name,
    filter_update_records,
    format_outputs,
    publish_argv,
    step_outputs,
    summary_footer,
    triage_argv,
)
from depbot.core.errors import InputError

# settings a blank action input must not turn into an empty value (an empty base URL)
_DROP_WHEN_BLANK = ("OPENAI_BASE_URL", "OPENAI_API_KEY", "GITHUB_TOKEN", "GH_TOKEN", "DEPBOT_MODEL")
# the step passes these as flags; a stray variable must not add a second source
_ALWAYS_DROP = ("DEPBOT_UPDATES_FILE", "DEPBOT_DEPENDABOT_REPO", "DEPBOT_OUT")


def default_out_dir(env: Mapping[str, str]) -> Path:
    """Outside the checkout (so the search never reads the run's own trace): ``$RUNNER_TEMP``."""
    base = env.get("RUNNER_TEMP") or tempfile.gettempdir()
    return Path(base) / "depbot-out"


def child_env(env: Mapping[str, str]) -> dict[str, str]:
    """The environment for depbot: blank settings removed, conflicting sources removed."""
    out = dict(env)
    for name in _DROP_WHEN_BLANK:
        if not out.get(name, "").strip():
            out.pop(name, None)
    for name in _ALWAYS_DROP:
        out.pop(name, None)
    return out


def write_outputs(env: Mapping[str, str], outputs: Mapping[str, str]) -> bool:
    """Append ``outputs`` to ``$GITHUB_OUTPUT``; False when it is not set (outside Actions)."""
    target = env.get("GITHUB_OUTPUT")
    if not target:
        return False
    with open(target, "a", encoding="utf-8") as fh:
        fh.write(format_outputs(outputs))
    return True


def write_step_summary(path: str | Path | None, markdown: str) -> bool:
    """Append ``markdown`` to ``path`` (default ``$GITHUB_STEP_SUMMARY``); False when unset.

    The one writer of the job summary: ``depbot triage`` appends its verdict table, the
    step appends where the files are.
    """
    target = path or os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        return False
    with open(target, "a", encoding="utf-8") as fh:
        fh.write(markdown if markdown.endswith("\n") else markdown + "\n")
    return True


def _say(msg: str) -> None:
    print(f"depbot: {msg}", file=sys.stderr, flush=True)


def _run_depbot(argv: Sequence[str], env: Mapping[str, str], dry_run: bool) -> int:
    if dry_run:
        print(shlex.join(["depbot", *argv]))
        return 0
    done = subprocess.run([sys.executable, "-m", "depbot", *argv], env=child_env(env))
    return done.returncode


def _read_report(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def run_triage(inputs: StepInputs, env: Mapping[str, str], *, dry_run: bool = False) -> int:
    """Triage, then write outputs and the summary footer. Returns the exit code."""
    out_dir = Path(inputs.out_dir) if inputs.out_dir else default_out_dir(env)
    name = artifact_name(inputs)
    base = {"out-dir": str(out_dir), "artifact-name": name}
    if not dry_run:
        write_outputs(env, base)  # even if what follows fails: the upload finds the trace
    updates_file = None
    if inputs.updates_json:
        records, warnings = filter_update_records(inputs.updates_json)
        for w in warnings:
            _say(f"warning: {w}")
        updates_file = out_dir / UPDATES_FILE
        if not dry_run:
            out_dir.mkdir(parents=True, exist_ok=True)
            updates_file.write_text(json.dumps(records, indent=2) + "\n", encoding="utf-8")
    argv = triage_argv(inputs, out_dir=out_dir, updates_file=updates_file)
    code = _run_depbot(argv, env, dry_run)
    if dry_run:
        return code
    outputs = {**step_outputs(out_dir, _read_report(out_dir / "report.json")), **base}
    outputs["exit-code"] = str(code)
    write_outputs(env, {k: v for k, v in outputs.items() if k not in base})  # base is written
    if outputs["report"]:
        footer = summary_footer(
            outputs, artifact=name, publish=inputs.publish_mode(), repository=inputs.repository
        )
        write_step_summary(env.get("GITHUB_STEP_SUMMARY") or None, footer)
    return code


def run_publish(inputs: StepInputs, env: Mapping[str, str], *, dry_run: bool = False) -> int:
    """Publish the drafts of the output folder (``out-dir``); nothing to do without drafts."""
    if not inputs.out_dir:
        raise InputError("publishing needs input 'out-dir': the folder triage wrote")
    out_dir = Path(inputs.out_dir)
    argv = publish_argv(inputs, out_dir=out_dir)
    drafts = out_dir / "drafts"
    has_drafts = drafts.is_dir() and any(
        not p.name.endswith(".new.md") for p in drafts.glob("*.md")
    )
    if not has_drafts and not dry_run:
        # an artifact keeps no empty folder: no drafts/ simply means no update was affected
        print(f"nothing to publish: no drafts in {out_dir}")
        return 0
    return _run_depbot(argv, env, dry_run)


def main(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m depbot.cli.actions",
        description="The GitHub Action's main step; inputs come from DEPBOT_INPUT_* variables.",
    )
    parser.add_argument("command", nargs="?", choices=("triage", "publish"), default="triage")
    parser.add_argument(
        "--dry-run", action="store_true", help="print the depbot command; run nothing"
    )
    args = parser.parse_args(argv)
    env = os.environ if env is None else env
    try:
        inputs = StepInputs.from_env(env)
        inputs.validate()
        if args.command == "publish":
            return run_publish(inputs, env, dry_run=args.dry_run)
        return run_triage(inputs, env, dry_run=args.dry_run)
    except InputError as exc:
        print(f"depbot: error: {exc}", file=sys.stderr)
        if args.command == "triage" and not args.dry_run:
            write_outputs(env, {"exit-code": str(exc.exit_code)})
        return exc.exit_code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
