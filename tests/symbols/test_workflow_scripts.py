"""A name searched in the workflows that use an action: only a step's ``script:`` is code."""

from __future__ import annotations

from depbot.search.sites import ImportReport
from depbot.symbols.facts import SymbolQuery
from depbot.symbols.workflow import script_uses

WORKFLOW = """\
jobs:
  greet:
    runs-on: ubuntu-latest
    steps:
      # github.issues.createComment is called below
      - uses: actions/github-script@v4
        with:
          script: |
            const id = context.issue.number
            await github .issues. createComment({issue_number: id, body: 'hi'})
      - run: echo github.issues.createComment
      - uses: other/script-runner@v1
        with:
          script: github.issues.createComment()
"""


def test_only_the_scripts_of_the_actions_steps_are_code():
    report = ImportReport("github_actions", "actions/github-script", [], [], ["w.yml"], "")
    query = SymbolQuery("github_actions", "actions/github-script", "github.issues.createComment()")
    got = script_uses(report, {"w.yml": WORKFLOW}, query)
    assert [(h.line, h.evidence) for h in got.hits] == [(10, "strong")]
    assert got.excluded == {"outside a step's script": 3}  # the comment, the shell, the other
