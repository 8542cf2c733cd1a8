"""The README tells the truth: its `sh` blocks name real commands and flags, its
configuration table names every DEPBOT_* setting, its exit statuses are the CLI's.

Convention: a fenced block tagged ```sh holds commands that work as written from a clone
of this repository; untagged blocks are output or templates. Commands are parsed with
click's ``make_context`` down to the last subcommand, never run. (Not in resilient mode:
it swallows unknown options, which are what this should catch.)
"""

from __future__ import annotations

import re
import shlex

import click
import pytest

from depbot.cli.main import cli
from tests.helpers.paths import ROOT

README = ROOT / "README.md"
TEXT = README.read_text(encoding="utf-8")
SETTINGS = "\n".join(  # the Settings class and its environment table
    (ROOT / "depbot" / "core" / name).read_text(encoding="utf-8")
    for name in ("settings.py", "settings_env.py")
)
_ASSIGN = re.compile(r"^[A-Z_][A-Z0-9_]*=\S*$")


def sh_commands() -> list[str]:
    """Every ``depbot …`` command of the README's ```sh blocks (comments and env dropped)."""
    found = []
    for block in re.findall(r"^```sh\n(.*?)^```", TEXT, re.S | re.M):
        for line in block.splitlines():
            for part in line.split(" # ", 1)[0].split("&&"):
                words = shlex.split(part, comments=True)
                while words and _ASSIGN.match(words[0]):
                    words = words[1:]
                if words and words[0] == "depbot":
                    found.append(shlex.join(words))
    return found


def parse(args: list[str]) -> list[str]:
    """Parse a command line as depbot would; the names of the commands it reached."""
    ctx = cli.make_context("depbot", list(args))
    cmd: click.Command = cli
    reached = []
    while isinstance(cmd, click.Group):
        protected = getattr(ctx, "_protected_args", None)  # click 8.2+; before: protected_args
        rest = [*(ctx.protected_args if protected is None else protected), *ctx.args]
        if not rest:
            break
        name, sub, rest = cmd.resolve_command(ctx, rest)
        assert sub is not None and name is not None
        reached.append(name)
        ctx = sub.make_context(name, rest, parent=ctx)
        cmd = sub
    return reached


def test_the_readme_has_runnable_blocks():
    commands = sh_commands()
    assert "depbot demo" in commands and len(commands) > 15
    assert all("../" not in c for c in commands), "nothing outside the repository"


@pytest.mark.parametrize("command", sh_commands())
def test_each_readme_command_names_real_commands_and_flags(command):
    words = shlex.split(command)[1:]
    reached = parse(words)
    assert reached, command
    assert reached[0] == words[0]


def test_a_wrong_flag_fails_the_parse():
    with pytest.raises(click.NoSuchOption):
        parse(["drafts", "show", "x", "--nope"])
    with pytest.raises(click.UsageError):
        parse(["no-such-command"])


def _configuration_table() -> str:
    return TEXT.split("\n## Configuration\n", 1)[1].split("\n## ", 1)[0]


def every_depbot_setting() -> set[str]:
    """The DEPBOT_* names settings.from_env reads, and the CLI's own env fallbacks."""
    names = set(re.findall(r'"(DEPBOT_[A-Z_]+)"', SETTINGS))
    stack: list[click.Command] = [cli]
    while stack:
        cmd = stack.pop()
        stack += list(getattr(cmd, "commands", {}).values())
        for p in cmd.params:
            if isinstance(p, click.Option) and str(p.envvar or "").startswith("DEPBOT_"):
                names.add(str(p.envvar))
    return names


def test_the_configuration_table_names_every_depbot_setting():
    names = every_depbot_setting()
    assert {"DEPBOT_MODEL", "DEPBOT_OUT", "DEPBOT_NO_CACHE"} <= names
    table = "\n".join(line for line in _configuration_table().splitlines() if line.startswith("|"))
    assert sorted(n for n in names if not re.search(rf"`{n}[`=]", table)) == []


def test_the_readme_gives_every_exit_status():
    section = TEXT.split("### Exit status\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (\d) \|", section, re.M)
    assert rows == ["0", "1", "2", "3", "4", "5"]


def test_the_readme_lists_every_manifest_updates_help_lists():
    # #29: the README's manifest list was older than `depbot updates --help`
    helptext = (cli.commands["updates"].help or "").split("Examples:")[0]
    named = re.findall(r"[\w*.-]+\.(?:txt|toml|lock|cfg|py|json|yaml)|\bPipfile\b", helptext)
    bullet = TEXT.split("- **Manifests**", 1)[1].split("\n- **", 1)[0]
    missing = sorted({n for n in named if n not in bullet})
    assert named and missing == []
