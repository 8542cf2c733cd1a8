"""Where a GitHub workflow uses an action: its steps, their ``with:`` keys, and the reads of
their outputs (the ``github-workflow`` language of ``where_imported``).

Each step that uses the action is an ``ImportSite`` of style ``uses`` (``names``: the inputs
it gives; ``subpath``: its ``id``); each input it gives is one of style ``with`` at that
key's line (``subpath``: the input); each ``steps.<id>.outputs.<name>`` of such a step, in
its job, is one of style ``output`` (``subpath``: the output). The join meets an action's
API changes with them (``apidiff.join``). Workflows are read as YAML nodes; nothing runs.
"""

from __future__ import annotations

from depbot.ecosystems.base import Ecosystem
from depbot.ecosystems.github_actions.workflows import Step, output_refs, uses_in
from depbot.search.code import CodeSearch
from depbot.search.scope import rust_escape, trim_line
from depbot.search.sites import ImportReport, ImportSite

STYLES = ("uses", "with", "output")


def uses_pattern(action: str) -> str:
    """A ripgrep regex for a line that may use ``action`` (quoted or not, any ref)."""
    return r"uses:\s*['\"]?" + rust_escape(action) + "@"


def where_workflow(cs: CodeSearch, eco: Ecosystem, action: str) -> ImportReport:
    sites: list[ImportSite] = []
    want = action.lower()
    for path in cs.files_containing("(?i)" + uses_pattern(action), eco.source_globs):
        lines = cs.read_lines(path)
        text = "\n".join(lines)
        try:
            steps, _ = uses_in(text)
        except ValueError:
            continue
        refs = output_refs(text)
        for step in steps:
            if step.action.lower() == want:
                sites += _sites(path, lines, step, refs, action, cs.settings.hit_width)
    sites.sort(key=lambda s: (s.path, s.line, s.col))
    files = sorted({s.path for s in sites})
    steps = sum(1 for s in sites if s.style == "uses")
    note = (f"{action} is used by {steps} step(s) in {len(files)} file(s)" if steps
            else f"no workflow step uses {action}")  # fmt: skip
    return ImportReport(eco.name, action, [action], sites, files, note)


def _sites(
    path: str, lines: list[str], step: Step, refs: list, action: str, width: int
) -> list[ImportSite]:
    def site(line: int, col: int, sub: str, names: dict[str, str], style: str) -> ImportSite:
        text = trim_line(lines[line - 1] if 0 < line <= len(lines) else "", 1, width)
        return ImportSite(path, line, col, text, step.action, action, sub, names, style, None,
                          False)  # fmt: skip

    out = [site(step.line, step.col, step.step_id, {k: k for k in step.inputs}, "uses")]
    out += [site(line, 1, key, {key: key}, "with") for key, line in step.inputs.items()]
    if step.step_id:
        first, last = step.job_lines
        for r in refs:
            if r.step_id == step.step_id and first <= r.line <= last:
                out.append(site(r.line, r.col, r.output, {r.output: r.output}, "output"))
    return out
