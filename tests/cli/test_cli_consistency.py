"""One consistent CLI (#17): short flags, the output folder, the arrow, the help."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from depbot.cli.common import DEFAULT_OUT, plain_text
from depbot.cli.main import cli
from tests.helpers.paths import ROOT

README = ROOT / "README.md"


def walk(
    cmd: click.Command = cli, path: tuple[str, ...] = ()
) -> Iterator[tuple[str, click.Command]]:
    yield " ".join(path) or "depbot", cmd
    if isinstance(cmd, click.Group):
        for name, sub in cmd.commands.items():
            yield from walk(sub, (*path, name))


def meaning(opt: click.Option) -> tuple[str, str]:
    """What a flag means: its (first) long name and the kind of value it takes."""
    longs = next(o for o in opt.opts + opt.secondary_opts if o.startswith("--"))
    kind = "flag" if opt.is_flag else (opt.metavar or opt.type.name)
    return longs, kind


def short_flags() -> dict[str, dict[tuple[str, str], set[str]]]:
    """short flag -> meaning -> the commands that give it that meaning (shown flags only:
    a hidden older name is kept for scripts and not taught)."""
    seen: dict[str, dict[tuple[str, str], set[str]]] = {}
    for name, cmd in walk():
        for p in cmd.params:
            if not isinstance(p, click.Option) or p.hidden:
                continue
            for o in p.opts + p.secondary_opts:
                if re.fullmatch(r"-[A-Za-z]", o):
                    seen.setdefault(o, {}).setdefault(meaning(p), set()).add(name)
    return seen


def test_each_short_flag_means_one_thing_across_commands():
    clashes = {flag: means for flag, means in short_flags().items() if len(means) > 1}
    assert clashes == {}


def test_each_long_flag_means_one_thing_across_commands():
    # #29: --repo was a PATH in triage and updates and OWNER/REPO in publish
    seen: dict[str, dict[str, set[str]]] = {}
    for name, cmd in walk():
        for p in cmd.params:
            if not isinstance(p, click.Option) or p.hidden:
                continue
            kind = "flag" if p.is_flag else (p.metavar or p.type.name)
            for o in p.opts + p.secondary_opts:
                if o.startswith("--"):
                    seen.setdefault(o, {}).setdefault(kind, set()).add(name)
    clashes = {flag: kinds for flag, kinds in seen.items() if len(kinds) > 1}
    assert clashes == {}


def test_the_older_checkout_flags_still_read_a_path(tmp_path):
    for flag in ("-r", "--repo", "-C", "--checkout"):
        result = CliRunner().invoke(cli, ["updates", flag, str(tmp_path / "nope")])
        assert result.exit_code == 2 and "nope" in result.output, flag
    both = ["updates", "-C", str(tmp_path), "--repo", str(tmp_path)]
    assert CliRunner().invoke(cli, both).exit_code == 2


def _table(heading: str) -> list[list[str]]:
    text = README.read_text(encoding="utf-8")
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return [[c.strip() for c in row.strip("|").split("|")] for row in rows[1:]]


def _top(command: str) -> str:
    """A command as the README's Flags table names it: drafts' subcommands are drafts."""
    return "drafts" if command.startswith("drafts") else command


def test_the_readme_flags_table_is_the_cli():
    documented = {}
    for short, long, _means, commands in _table("Flags"):
        if short.strip("`") == "-h":
            continue
        names = {c.strip() for c in commands.split(",")}
        documented[short.strip("`")] = (long.strip("`").split()[0], names)
    actual = {}
    for flag, means in short_flags().items():
        ((longs, _kind), commands), *_ = means.items()  # one meaning (the test above)
        actual[flag] = (longs, {_top(c) for c in commands})
    assert actual == documented


@pytest.mark.parametrize("name", ["triage", "demo", "drafts", "drafts show", "drafts approve",
                                  "drafts reject", "publish", "trace show"])  # fmt: skip
def test_every_output_folder_is_o_out_with_one_default(name):
    cmd = dict(walk())[name]
    (out,) = [p for p in cmd.params if isinstance(p, click.Option) and "--out" in p.opts]
    assert "-o" in out.opts and out.envvar == "DEPBOT_OUT" and out.default == DEFAULT_OUT


def test_top_level_help_shows_whole_sentences():
    for name, cmd in walk():
        if name == "depbot":
            continue
        assert cmd.short_help and cmd.short_help.endswith("."), name
    result = CliRunner().invoke(cli, ["--help"], terminal_width=100)
    commands = result.output.split("Commands:\n", 1)[1]
    assert "..." not in commands and "(default:" not in commands


def test_the_arrow_falls_back_to_ascii_when_stdout_is_not_utf8(tmp_path):
    week = tmp_path / "week.json"
    week.write_text('[{"ecosystem": "pip", "package": "rich", "from": "12.0.0", "to": "13.7.1"}]')
    args = ["updates", "-r", str(tmp_path), "-u", str(week)]
    assert "12.0.0 → 13.7.1" in CliRunner().invoke(cli, args).stdout
    ascii_out = CliRunner(charset="ascii").invoke(cli, args)
    assert ascii_out.exit_code == 0 and "12.0.0 -> 13.7.1" in ascii_out.stdout
    assert plain_text("1 → 2 — ok", "latin-1") == "1 -> 2 - ok"
    assert plain_text("1 → 2", "utf-8") == "1 → 2"


def _empty_week(folder: Path) -> Path:
    (folder / "week.json").write_text("[]")
    return folder / "week.json"


def test_the_default_folder_in_a_git_checkout_is_ignored_and_every_command_reads_it(
    tmp_path, monkeypatch
):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    monkeypatch.chdir(tmp_path)
    _empty_week(tmp_path)
    runner = CliRunner()
    env = {"DEPBOT_NO_CACHE": "1", "DEPBOT_OUT": None}
    result = runner.invoke(cli, ["triage", "-u", "week.json", "-q"], env=env)
    assert result.exit_code == 0, result.output
    assert (tmp_path / DEFAULT_OUT / ".gitignore").read_text().splitlines()[-1] == "*"
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"],
                            cwd=tmp_path, capture_output=True, text=True, check=True)  # fmt: skip
    assert DEFAULT_OUT not in status.stdout and "week.json" in status.stdout
    shown = runner.invoke(cli, ["trace", "show"], env=env)
    assert shown.exit_code == 0 and shown.output.startswith("run depbot-out")
    assert runner.invoke(cli, ["drafts"], env=env).exit_code == 0


def test_a_folder_given_or_outside_git_gets_no_gitignore(tmp_path):
    week = _empty_week(tmp_path)
    args = ["triage", "-r", str(tmp_path), "-u", str(week), "-q"]
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    result = CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "given")])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "given" / ".gitignore").exists()


def test_publish_takes_the_folder_as_dir_or_out_not_both(tmp_path):
    args = ["publish", str(tmp_path / "a"), "-o", str(tmp_path / "b"), "-R", "acme/app"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and "two output folders" in result.output


def test_old_short_forms_are_gone_with_a_clear_error():
    assert CliRunner().invoke(cli, ["publish", "-r", "acme/app"]).exit_code == 2
    assert CliRunner().invoke(cli, ["drafts", "show", "x", "-d", "out"]).exit_code == 2
