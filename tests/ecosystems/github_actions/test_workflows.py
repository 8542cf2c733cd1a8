"""The steps of a workflow that use an action, read as YAML nodes (lines kept, nothing run)."""

from __future__ import annotations

import pytest

from depbot.ecosystems.github_actions.workflows import output_refs, split_uses, uses_in, version_of

WORKFLOW = """\
name: ci
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v3
        with:
          fetch-depth: 0
      - id: setup
        uses: actions/setup-node@8f152de45cc393bb48ce5d89d36b731f54556e65 # v4.0.0
        with:
          node-version: 20
      - run: echo ${{ steps.setup.outputs.node-version }} ${{ steps.setup.outputs['cache-hit'] }}
      - uses: ./.github/actions/local
      - uses: docker://alpine:3
      - uses: "github/codeql-action/init@v3"
  other:
    runs-on: ubuntu-latest
    steps:
      - run: echo ${{ steps.setup.outputs.node-version }}
  call:
    uses: org/repo/.github/workflows/release.yml@v1
    with:
      dry-run: true
"""


def test_every_step_that_uses_an_action_with_its_lines_and_inputs():
    steps, skipped = uses_in(WORKFLOW)
    got = [(s.line, s.action, s.ref, s.step_id, s.job, dict(s.inputs)) for s in steps]
    assert got == [
        (7, "actions/checkout", "v3", "", "build", {"fetch-depth": 9}),
        (11, "actions/setup-node", "8f152de45cc393bb48ce5d89d36b731f54556e65", "setup", "build",
         {"node-version": 13}),
        (17, "github/codeql-action/init", "v3", "", "build", {}),
        (23, "org/repo/.github/workflows/release.yml", "v1", "", "call", {"dry-run": 25}),
    ]  # fmt: skip
    assert steps[-1].reusable and not steps[0].reusable
    assert [(k.line, k.why) for k in skipped] == [(15, "a local action"), (16, "a container image")]


def test_a_sha_pin_takes_its_version_from_the_comment_dependabot_writes():
    steps, _ = uses_in(WORKFLOW)
    assert steps[1].comment == "v4.0.0"
    assert [version_of(s) for s in steps] == ["3", "4.0.0", "3", "1"]


def test_output_reads_in_both_spellings():
    refs = output_refs(WORKFLOW)
    assert [(r.line, r.step_id, r.output) for r in refs] == [
        (14, "setup", "node-version"), (14, "setup", "cache-hit"), (21, "setup", "node-version"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("value", "why"),
    [("./x", "a local action"), ("docker://a:1", "a container image"), ("a/b", "no @ref"),
     ("a/../b@v1", "not owner/repo[/path]"), ("a@v1", "not owner/repo[/path]")],
)  # fmt: skip
def test_uses_values_that_name_no_repository_action(value, why):
    assert split_uses(value) == why


def test_a_file_that_is_not_yaml_or_too_big_is_refused_in_words():
    with pytest.raises(ValueError, match="not valid YAML at line 3"):
        uses_in("jobs:\n  a: [\n")
    with pytest.raises(ValueError, match="over 1000 kB"):
        uses_in("#" * 1_000_001)


def test_a_yaml_bomb_is_only_composed_never_expanded():
    bomb = "a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\njobs:\n  j:\n    steps: [*c]\n"
    steps, _ = uses_in(bomb)  # aliases are nodes the composer shares, not copies
    assert steps == []
