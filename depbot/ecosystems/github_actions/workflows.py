"""The steps of GitHub workflow files and action metadata that use an action. Pure.

``uses_in(text)`` reads a workflow (``.github/workflows/*.yml``: ``jobs.<id>.steps[*].uses``
and a job's own ``uses:`` of a reusable workflow) or an action's ``action.yml`` (a composite
action's ``runs.steps``) with PyYAML's composer, which keeps each node's line and never
constructs objects; ``output_refs(text)`` finds ``steps.<id>.outputs.<name>``. Comments are
read off the raw line: Dependabot writes the version of a SHA pin there
(``uses: actions/checkout@<sha> # v4.1.0``). Nothing in the file is run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import yaml

MAX_BYTES = 1_000_000  # a workflow over this is not read (a generated one is not the user's)
_OWNER = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})"
_REPO = r"[A-Za-z0-9._-]{1,100}"
_PART = r"[A-Za-z0-9._-]+"
ACTION = re.compile(rf"^({_OWNER})/({_REPO})((?:/{_PART})*)$")
_COMMENT = re.compile(r"#\s*(?:tag[=:]\s*)?(v?\d+(?:\.\d+){0,2}(?:-[0-9A-Za-z.-]+)?)\b")
_REF = re.compile(
    r"\bsteps\s*\.\s*([A-Za-z_][\w-]*)\s*\.\s*outputs\s*(?:\.\s*([A-Za-z_][\w-]*)"
    r"|\[\s*['\"]([^'\"]+)['\"]\s*\])"
)


@dataclass(frozen=True)
class Step:
    """One ``uses:`` of an action (or a reusable workflow) in a file."""

    line: int  # of the ``uses:`` value, 1-based
    col: int
    action: str  # owner/repo[/path]
    ref: str  # what follows the @: a tag, a branch or a commit SHA
    comment: str  # the version a comment on the line gives ("v4.1.0"), or ""
    step_id: str  # the step's ``id:`` ("" when none)
    job: str  # the job it belongs to ("" in an action.yml)
    job_lines: tuple[int, int]  # the first and last line of that job (or of the file)
    inputs: dict[str, int] = field(default_factory=dict, hash=False)  # with: key -> line
    script: tuple[int, str] = (0, "")  # ``with: script:`` (first line, text): a script's code
    reusable: bool = False  # a job's ``uses:`` of a reusable workflow


@dataclass(frozen=True)
class Skipped:
    line: int
    value: str
    why: str  # "a local action", "a container image", "no @ref"


@dataclass(frozen=True)
class OutputRef:
    line: int
    col: int
    step_id: str
    output: str


def split_uses(value: str) -> tuple[str, str] | str:
    """(action, ref) of a ``uses:`` value, or why it names no action of a repository."""
    value = value.strip()
    if value.startswith("./") or value.startswith("../"):
        return "a local action"
    if value.startswith("docker://"):
        return "a container image"
    action, at, ref = value.partition("@")
    if not at or not ref:
        return "no @ref"
    if not ACTION.match(action) or ".." in action.split("/"):
        return "not owner/repo[/path]"
    return action, ref


def _value(node: yaml.Node | None, key: str) -> yaml.Node | None:
    if not isinstance(node, yaml.MappingNode):
        return None
    for k, v in node.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            return v
    return None


def _scalar(node: yaml.Node | None) -> str:
    return str(node.value) if isinstance(node, yaml.ScalarNode) else ""


def _last_line(node: yaml.Node) -> int:
    """The last line (1-based) a node covers: its end mark is just past it."""
    return int(node.end_mark.line) + (1 if node.end_mark.column else 0)


def compose(text: str) -> yaml.Node | None:
    """The file's YAML node tree (None: empty); raises ValueError when it is not YAML."""
    if len(text.encode("utf-8", "replace")) > MAX_BYTES:
        raise ValueError(f"over {MAX_BYTES // 1000} kB")
    try:
        return yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise ValueError(f"not valid YAML{where}") from None
    except RecursionError:
        raise ValueError("nested too deeply") from None


def uses_in(text: str) -> tuple[list[Step], list[Skipped]]:
    """Every ``uses:`` of a workflow or action file, and those that name no repository's
    action (local actions, container images) with why. Raises ValueError for a file that
    is not YAML."""
    root = compose(text)
    lines = text.splitlines()
    steps: list[Step] = []
    skipped: list[Skipped] = []
    last = len(lines)
    jobs = _value(root, "jobs")
    groups: list[tuple[str, yaml.Node, tuple[int, int]]] = []
    if isinstance(jobs, yaml.MappingNode):
        for k, job in jobs.value:
            span = (int(k.start_mark.line) + 1, _last_line(job) or last)
            groups.append((_scalar(k), job, span))
    runs = _value(root, "runs")
    if runs is not None:  # action.yml: a composite action's steps
        groups.append(("", runs, (1, last)))
    for job_name, job, span in groups:
        own = _value(job, "uses")
        if own is not None and job_name:  # jobs.<id>.uses: a reusable workflow
            _add(steps, skipped, own, job, job_name, span, lines, reusable=True)
        seq = _value(job, "steps")
        if isinstance(seq, yaml.SequenceNode):
            for step in seq.value:
                uses = _value(step, "uses")
                if uses is not None:
                    _add(steps, skipped, uses, step, job_name, span, lines)
    return steps, skipped


def _add(
    steps: list[Step],
    skipped: list[Skipped],
    uses: yaml.Node,
    holder: yaml.Node,
    job: str,
    span: tuple[int, int],
    lines: list[str],
    *,
    reusable: bool = False,
) -> None:
    value, line = _scalar(uses), int(uses.start_mark.line) + 1
    got = split_uses(value)
    if isinstance(got, str):
        skipped.append(Skipped(line, value, got))
        return
    action, ref = got
    raw = lines[line - 1] if 0 < line <= len(lines) else ""
    m = _COMMENT.search(raw[raw.find(value) + len(value) :] if value in raw else "")
    comment = m.group(1) if m else ""
    inputs: dict[str, int] = {}
    script = (0, "")
    with_node = _value(holder, "with")
    if isinstance(with_node, yaml.MappingNode):
        for k, v in with_node.value:
            key = _scalar(k)
            if key:
                inputs[key] = int(k.start_mark.line) + 1
            if key == "script" and isinstance(v, yaml.ScalarNode):
                block = v.style in ("|", ">")  # its text starts on the next line
                script = (int(v.start_mark.line) + 1 + block, str(v.value))
    steps.append(
        Step(line, int(uses.start_mark.column) + 1, action, ref, comment,
             _scalar(_value(holder, "id")), job, span, inputs, script, reusable)
    )  # fmt: skip


def output_refs(text: str) -> list[OutputRef]:
    """Every ``steps.<id>.outputs.<name>`` (or ``outputs['name']``) in the file."""
    out = []
    for i, line in enumerate(text.splitlines(), start=1):
        for m in _REF.finditer(line):
            out.append(OutputRef(i, m.start() + 1, m.group(1), m.group(2) or m.group(3)))
    return out


def version_of(step: Step) -> str | None:
    """The version the step runs: its tag's, else its SHA pin's comment (None: unknown)."""
    from depbot.ecosystems.github_actions.versions import is_sha, of_ref

    if is_sha(step.ref):
        return of_ref(step.comment) if step.comment else None
    return of_ref(step.ref)
