"""The API diff of an action: its action.yml at two releases (inputs, outputs, runtime)."""

from __future__ import annotations

from pathlib import Path

from depbot.apidiff import diff_releases

OLD = """\
name: x
inputs:
  keep: {description: k}
  gone: {description: g}
  later: {description: l, required: false}
  mode: {description: m, default: fast}
outputs:
  id: {description: i}
  old-name: {description: o}
runs: {using: node16, main: dist/index.js}
"""
NEW = """\
name: x
inputs:
  keep: {description: k, deprecationMessage: use something else}
  later: {description: l, required: true}
  mode: {description: m, default: safe}
  token: {description: t, required: true, default: "${{ github.token }}"}
outputs:
  id: {description: i}
runs: {using: node20, main: dist/index.js}
"""


def release(root: Path, text: str | None, name: str = "action.yml") -> Path:
    root.mkdir(parents=True)
    if text is not None:
        (root / name).write_text(text)
    return root


def test_inputs_outputs_and_runtime_of_two_releases(tmp_path):
    diff = diff_releases("github_actions", release(tmp_path / "a", OLD),
                         release(tmp_path / "b", NEW, "action.yaml"))  # fmt: skip
    assert sorted((c.kind, c.path) for c in diff.changes) == [
        ("input_now_required", "inputs.later"),
        ("input_removed", "inputs.gone"),
        ("output_removed", "outputs.old-name"),
    ]  # a required input with a default (token) breaks nothing
    said = sorted((d.category, d.path, d.message) for d in diff.deprecated)
    assert said == [
        ("default changed", "inputs.mode", "default 'fast' → 'safe'"),
        ("deprecated input", "inputs.keep", "use something else"),
        ("runtime", "runs.using", "node16 → node20"),
    ]
    assert diff.old_api["inputs.gone"] == "input" and "inputs.gone" not in diff.new_api
    assert not diff.stats.get("incomplete")


def test_a_release_without_readable_metadata_is_not_compared(tmp_path):
    diff = diff_releases("github_actions", release(tmp_path / "a", OLD),
                         release(tmp_path / "b", "inputs: [unclosed\n"))  # fmt: skip
    assert diff.stats.get("unread") and diff.changes == []
    assert any("not valid YAML" in n for n in diff.notes)
    diff = diff_releases("github_actions", release(tmp_path / "c", OLD),
                         release(tmp_path / "d", None))  # fmt: skip
    assert diff.stats.get("unread") and any("no action.yml" in n for n in diff.notes)
