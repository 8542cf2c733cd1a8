"""GitHub Actions glue, pure: the action's inputs, the depbot commands they become, step outputs.

The composite action (``action.yml``) passes its inputs to ``python -m depbot.cli.actions``
as ``DEPBOT_INPUT_*`` environment variables (never by pasting ``${{ }}`` into a script).
This module turns them into the ``depbot triage`` / ``depbot publish`` argument lists and
turns a finished report into ``$GITHUB_OUTPUT`` lines and a job-summary footer. The file
and process work lives in ``depbot.cli.actions``.

Also ``mark_pull_request``: updates read from a file (``dependabot/fetch-metadata``'s
``updated-dependencies-json``) carry no pull request; ``depbot triage --pr`` marks them as
coming from one, so drafts link it and ``depbot publish --comment-on-pr`` comments on it.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from depbot.core.errors import InputError
from depbot.pipeline.outcome import DEFAULT_FAIL_ON, FAIL_ON
from depbot.records.update import Update
from depbot.updates.files import update_from_record

# action input name -> environment variable the action sets for the main step
INPUT_ENV: dict[str, str] = {
    "mode": "DEPBOT_INPUT_MODE",
    "path": "DEPBOT_INPUT_PATH",
    "source": "DEPBOT_INPUT_SOURCE",
    "updates-json": "DEPBOT_INPUT_UPDATES_JSON",
    "pr": "DEPBOT_INPUT_PR",
    "model": "DEPBOT_INPUT_MODEL",
    "out-dir": "DEPBOT_INPUT_OUT_DIR",
    "repository": "DEPBOT_INPUT_REPOSITORY",
    "publish": "DEPBOT_INPUT_PUBLISH",
    "comment-on-pr": "DEPBOT_INPUT_COMMENT_ON_PR",
    "artifact-name": "DEPBOT_INPUT_ARTIFACT_NAME",
    "fail-on": "DEPBOT_INPUT_FAIL_ON",
}
MODES = ("triage", "publish")
PUBLISH_VALUES = ("false", "true", "dry-run")
UPDATES_FILE = "input-updates.json"  # where updates-json is written, inside the output folder

_REPO_RE = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_ARTIFACT_BAD = re.compile(r'[\\/":<>|*?\r\n]')


@dataclass(frozen=True)
class StepInputs:
    """The action's inputs, as the main step receives them (all strings, as Actions gives them)."""

    mode: str = "triage"
    path: str = "."
    source: str = "manifests"
    updates_json: str = ""
    pr: str = ""
    model: str = "rules"
    out_dir: str = ""
    repository: str = ""
    publish: str = "false"
    comment_on_pr: str = "false"
    artifact_name: str = ""
    fail_on: str = DEFAULT_FAIL_ON  # depbot triage --fail-on

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> StepInputs:
        """Read ``DEPBOT_INPUT_*``; an unset or blank variable takes the default."""
        values: dict[str, str] = {}
        for name, var in INPUT_ENV.items():
            raw = env.get(var)
            if raw is not None and raw.strip():
                values[name.replace("-", "_")] = raw if name == "updates-json" else raw.strip()
        return cls(**values)

    def validate(self) -> None:
        """Raise ``InputError`` naming the input that is wrong and what it may be."""
        if self.mode not in MODES:
            raise InputError(f"input 'mode' must be one of {', '.join(MODES)}, not {self.mode!r}")
        if self.publish_mode() not in PUBLISH_VALUES:
            raise InputError(
                f"input 'publish' must be one of {', '.join(PUBLISH_VALUES)}, not {self.publish!r}"
            )
        flag("comment-on-pr", self.comment_on_pr)
        if self.repository and not _REPO_RE.match(self.repository):
            raise InputError(f"input 'repository' must be OWNER/NAME, not {self.repository!r}")
        if self.artifact_name and _ARTIFACT_BAD.search(self.artifact_name):
            raise InputError(
                "input 'artifact-name' may not contain / \\ \" : < > | * ? or line breaks"
            )
        if self.pr:
            parse_pr(self.pr)
        if self.fail_on.lower() not in FAIL_ON:
            raise InputError(
                f"input 'fail-on' must be one of {', '.join(FAIL_ON)}, not {self.fail_on!r}"
            )

    def publish_mode(self) -> str:
        return self.publish.strip().lower() or "false"


def flag(name: str, value: str) -> bool:
    """An action input that is a yes/no switch (``true``/``false``, any case; blank is false)."""
    text = (value or "").strip().lower()
    if text in ("true", "yes", "1"):
        return True
    if text in ("", "false", "no", "0"):
        return False
    raise InputError(f"input {name!r} must be true or false, not {value!r}")


# --- the Dependabot pull request a file of updates came from -----------------------------

_PR_PATH = re.compile(r"^/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+/pull/(\d+)/?$")


def parse_pr(text: str) -> tuple[str, str]:
    """``(number, url)`` of ``123``, ``#123`` or ``https://github.com/o/r/pull/123`` (url "")."""
    raw = (text or "").strip()
    bare = raw[1:] if raw.startswith("#") else raw
    if bare.isdigit() and int(bare) > 0:
        return str(int(bare)), ""
    parts = urlsplit(raw)
    m = _PR_PATH.match(parts.path)
    if parts.scheme == "https" and parts.netloc and "@" not in parts.netloc and m:
        if not parts.query and not parts.fragment and int(m.group(1)) > 0:
            return str(int(m.group(1))), raw.rstrip("/")
    raise InputError(
        f"--pr takes a pull request number or its https://…/OWNER/REPO/pull/N address, not {raw!r}"
    )


def mark_pull_request(updates: Iterable[Update], pr: str) -> list[Update]:
    """The updates, marked as coming from Dependabot pull request ``pr`` (number or URL)."""
    number, url = parse_pr(pr)
    return [
        replace(u, source="dependabot", source_ref=url, extra={**u.extra, "pr": number})
        for u in updates
    ]


# --- from inputs to depbot command lines --------------------------------------------------


def filter_update_records(text: str) -> tuple[list[Any], list[str]]:
    """The records of ``updates-json`` that depbot can triage, and a warning per one it cannot.

    Accepts a JSON list of update records (fetch-metadata's ``updated-dependencies-json``)
    or an object holding one. A record depbot's update-file reader rejects (a grouped
    pull request may leave a dependency without versions) is left out with a warning,
    so one odd entry does not stop the rest.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"input 'updates-json' is not JSON (line {exc.lineno}: {exc.msg})"
        ) from None
    if isinstance(data, dict) and "updated-dependencies-json" in data:
        data = data["updated-dependencies-json"]
        if isinstance(data, str):
            return filter_update_records(data)
    if isinstance(data, dict):
        data = data.get("updates", [data])
    if not isinstance(data, list):
        raise InputError("input 'updates-json' must be a JSON list of update records")
    kept, warnings = [], []
    for i, record in enumerate(data, 1):
        try:
            update_from_record(record, where=f"updates-json: record {i}")
        except InputError as exc:
            warnings.append(f"{exc}; left out")
            continue
        kept.append(record)
    return kept, warnings


def triage_argv(
    inputs: StepInputs, *, out_dir: str | Path, updates_file: str | Path | None = None
) -> list[str]:
    """The arguments of ``depbot triage`` for these inputs (without the program name).

    ``updates_file`` is where ``updates-json`` was written, when it was given.
    """
    argv = ["triage", "--checkout", inputs.path, "--out", str(out_dir)]
    argv += ["--fail-on", inputs.fail_on.lower(), "--model", inputs.model]
    source = inputs.source or "manifests"
    if updates_file is not None:
        if source != "manifests":
            raise InputError("give either input 'updates-json' or input 'source', not both")
        argv += ["--updates", str(updates_file)]
    elif source == "dependabot":
        if not inputs.repository:
            raise InputError("source 'dependabot' needs input 'repository' (OWNER/NAME)")
        argv += ["--dependabot", inputs.repository]
    elif source != "manifests":
        argv += ["--updates", source]
    if inputs.pr:
        if "--updates" not in argv:
            raise InputError(
                "input 'pr' marks updates read from a file or from 'updates-json'; "
                "with source 'manifests' or 'dependabot' leave it empty"
            )
        argv += ["--pr", inputs.pr]
    return argv


def publish_argv(inputs: StepInputs, *, out_dir: str | Path) -> list[str]:
    """The arguments of ``depbot publish``: every draft not rejected (``--all``).

    In Actions the output folder is new on every run, so no draft was approved in it;
    publishing is the opt-in itself. ``publish`` on an issue already made updates it
    instead of opening a second one (its marker), so weekly runs never duplicate.
    """
    if not inputs.repository:
        raise InputError("publishing needs input 'repository' (OWNER/NAME)")
    argv = ["publish", str(out_dir), "--all", "--repo", inputs.repository]
    if inputs.publish_mode() == "dry-run":
        argv.append("--dry-run")
    if flag("comment-on-pr", inputs.comment_on_pr):
        argv.append("--comment-on-pr")
    return argv


def artifact_name(inputs: StepInputs) -> str:
    """The artifact's name: the input, else ``depbot-OWNER-NAME`` (unique per repository)."""
    if inputs.artifact_name:
        return inputs.artifact_name
    if inputs.repository:
        return "depbot-" + inputs.repository.replace("/", "-")
    return "depbot"


# --- after the run: step outputs and the summary footer -----------------------------------


def step_outputs(out_dir: str | Path, report: Mapping[str, Any] | None) -> dict[str, str]:
    """What the step writes to ``$GITHUB_OUTPUT``; counts are empty when there is no report."""
    out = Path(out_dir)
    outputs = {
        "out-dir": str(out),
        "report": str(out / "report.json") if report is not None else "",
        "drafts-dir": str(out / "drafts"),
    }
    names = ("total", "affected", "not-affected", "unknown", "drafts", "degraded")
    if report is None:
        outputs.update({n: "" for n in names}, status="failed")
        return outputs
    updates = [u for u in report.get("updates", []) if isinstance(u, Mapping)]
    verdicts = [u.get("verdict") for u in updates]
    count = {v: verdicts.count(v) for v in ("affected", "not_affected", "unknown")}
    outputs.update(
        {
            "total": str(len(updates)),
            "affected": str(count["affected"]),
            "not-affected": str(count["not_affected"]),
            "unknown": str(count["unknown"]),
            "drafts": str(sum(1 for u in updates if u.get("draft"))),
            "status": str((report.get("stats") or {}).get("status") or "finished"),
            "degraded": "true" if (report.get("stats") or {}).get("degraded") else "false",
        }
    )
    return outputs


def format_outputs(outputs: Mapping[str, str]) -> str:
    """``$GITHUB_OUTPUT`` text: ``name=value`` lines, a heredoc block for multi-line values."""
    lines = []
    for name, value in outputs.items():
        if "\n" in value or "\r" in value:
            delim = f"ghadelimiter_{secrets.token_hex(8)}"
            lines += [f"{name}<<{delim}", value, delim]
        else:
            lines.append(f"{name}={value}")
    return "\n".join(lines) + "\n"


def summary_footer(
    outputs: Mapping[str, str], *, artifact: str, publish: str, repository: str = ""
) -> str:
    """Markdown under triage's verdict table: where the files are and what happens next."""
    whose = f" of `{repository}`" if repository else ""
    lines = [
        "",
        f"Report, drafts and trace{whose}: artifact `{artifact}` "
        "(report.json, drafts/, trace.jsonl).",
    ]
    drafts = outputs.get("drafts") or "0"
    if publish == "false":
        if drafts != "0":
            lines.append(
                f"Publishing is off: {drafts} draft(s) wait for review. Download the artifact, "
                "then `depbot drafts DIR`, `depbot drafts approve ID`, `depbot publish DIR`."
            )
    elif publish == "dry-run":
        lines.append("Publishing: dry run (the log lists what would be created; nothing is sent).")
    else:
        lines.append(f"Publishing: on, {drafts} draft(s) (one issue per update, never twice).")
    return "\n".join(lines) + "\n"
