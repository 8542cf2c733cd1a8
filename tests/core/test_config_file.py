""".github/depbot.yml: checked with one-line errors, and below flags and the environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from depbot.core.config_file import FAIL_ON_CHOICES, load_depbot_file
from depbot.core.errors import ConfigError
from depbot.core.settings import Settings


def write_config(repo: Path, text: str, name: str = "depbot.yml") -> Path:
    (repo / ".github").mkdir(parents=True, exist_ok=True)
    (repo / ".github" / name).write_text(text)
    return repo


FULL = """
model: gpt-4o-mini
max-tokens: 500000
max-seconds: 600
max-rounds: 12
batch-size: 4
concurrency: 2
fail-on: affected
labels: [deps-triage, "needs review"]
assignees: [alice, bob]
"""


def test_no_file_is_no_config_and_changes_nothing(tmp_path):
    assert load_depbot_file(tmp_path) is None
    assert Settings.from_env({}, repo=tmp_path) == Settings.from_env({})


def test_a_full_file_sets_the_settings(tmp_path):
    s = Settings.from_env({}, repo=write_config(tmp_path, FULL))
    assert (s.model, s.max_tokens, s.max_seconds, s.max_rounds) == ("gpt-4o-mini", 500000, 600, 12)
    assert (s.batch_size, s.concurrency) == (4, 2)
    assert s.labels == ("deps-triage", "needs review") and s.assignees == ("alice", "bob")
    assert load_depbot_file(tmp_path).values["fail-on"] == "affected"


def test_yaml_spelling_is_read_too(tmp_path):
    write_config(tmp_path, "max-tokens: 7\n", name="depbot.yaml")
    assert Settings.from_env({}, repo=tmp_path).max_tokens == 7


def test_precedence_flag_over_environment_over_file_over_default(tmp_path):
    repo = write_config(tmp_path, "max-tokens: 1000\nmodel: from-file\nmax-rounds: 5\n")
    env = {"DEPBOT_MAX_TOKENS": "2000", "DEPBOT_MAX_ROUNDS": ""}  # an empty variable is unset
    s = Settings.from_env(env, repo=repo, model="from-flag")
    assert s.model == "from-flag"  # flag > file
    assert s.max_tokens == 2000  # environment > file
    assert s.max_rounds == 5  # file > default
    assert s.max_seconds == Settings.max_seconds  # default
    assert Settings.from_env(env).max_tokens == 2000  # without repo the file is not read
    assert Settings.from_env({"DEPBOT_LABELS": "a, b"}, repo=repo).labels == ("a", "b")


@pytest.mark.parametrize(
    "text, message",
    [
        ("modle: x\n", "unknown key 'modle' (did you mean 'model'?)"),
        ("max_tokens: 5\n", "unknown key 'max_tokens' (did you mean 'max-tokens'?)"),
        ("colour: red\n", "unknown key 'colour'"),
        ("max-tokens: lots\n", "max-tokens: must be a whole number, got text"),
        ("max-tokens: 1.5\n", "max-tokens: must be a whole number, got a number"),
        ("max-tokens: true\n", "max-tokens: must be a whole number, got true/false"),
        ("max-seconds: 0\n", "max-seconds: must be more than 0, got 0"),
        (
            "fail-on: sometimes\n",
            "fail-on: must be one of never, degraded, unknown, affected, got 'sometimes'",
        ),
        ("labels: {a: 1}\n", "labels: must be a list of names, got a mapping"),
        ("labels: [ok, 3]\n", "labels[1]: must be a non-empty text, got a number"),
        ("assignees: ['a,b']\n", "assignees[0]: a name may not hold a comma: 'a,b'"),
        ("model: ''\n", "model: must be a non-empty text, got text"),
        ("updates: {pip: 1}\n", "updates: must be a list of entries, got a mapping"),
        ("- a\n- b\n", "must be a mapping, got a list"),
        ("model: [unclosed\n", "line 2: expected ',' or ']', but got '<stream end>'"),
        ("version: 3\n", "version: must be 1 or 2 (it may be left out), got 3"),
    ],
)
def test_problems_are_one_line_naming_file_and_key(tmp_path, text, message):
    write_config(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        Settings.from_env({}, repo=tmp_path)
    assert str(err.value) == f".github/depbot.yml: {message}"
    assert "\n" not in str(err.value)


def test_an_empty_file_is_no_settings(tmp_path):
    write_config(tmp_path, "# nothing yet\n")
    assert Settings.from_env({}, repo=tmp_path) == Settings.from_env({})


def test_fail_on_choices_are_the_cli_ones():
    from depbot.pipeline.outcome import FAIL_ON

    assert tuple(FAIL_ON) == FAIL_ON_CHOICES
