"""#28 item 3: names and paths are refused at the door. An update file with a package name the
ecosystem forbids (a right-to-left override, spaces, a name npm would refuse) or a manifest
path out of the checkout is an input error: one line naming the record, exit 2."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from depbot.cli.main import cli
from depbot.core.errors import InputError
from depbot.updates.files import parse_update_document


def _doc(**fields) -> str:
    record = {"ecosystem": "pip", "package": "requests", "from": "2.31.0", "to": "2.32.3"}
    return json.dumps({"updates": [{**record, **fields}]})


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"package": "requests\u202e"}, "not a pip distribution name"),
        ({"package": "re quests"}, "not a pip distribution name"),
        ({"package": "requests-"}, "not a pip distribution name"),  # PEP 508: ends alphanumeric
        ({"ecosystem": "npm", "package": "Left Pad", "from": "1.0.0", "to": "1.1.0"}, "npm"),
        ({"ecosystem": "npm", "package": "caf\u00e9", "from": "1.0.0", "to": "1.1.0"}, "npm"),
        ({"ecosystem": "npm", "package": ".hidden", "from": "1.0.0", "to": "1.1.0"}, "npm"),
        ({"manifest": "../../../../etc/passwd"}, "outside the checkout"),
        ({"manifest": "web/../../requirements.txt"}, "outside the checkout"),
        ({"manifest": "C:\\\\Windows\\\\win.ini"}, "outside the checkout"),
        ({"manifest": "req\u202euirements.txt"}, "manifest"),
    ],
)
def test_a_name_or_path_the_ecosystem_refuses_is_an_input_error(fields, says):
    with pytest.raises(InputError, match=says) as err:
        parse_update_document(_doc(**fields), "week.json")
    message = str(err.value)
    assert "\n" not in message and "\u202e" not in message  # one line, the override escaped
    assert message.startswith("week.json: record 1")


@pytest.mark.parametrize(
    "fields",
    [
        {"package": "zope.interface"},
        {"package": "Django_Rest-framework"},
        {"ecosystem": "npm", "package": "@babel/core", "from": "7.0.0", "to": "7.1.0"},
        {"ecosystem": "npm", "package": "JSONStream", "from": "1.0.0", "to": "1.1.0"},  # legacy
        {"manifest": "services/api/requirements.txt"},
        {"manifest": "/backend"},  # Dependabot's directory: the checkout's root is "/"
    ],
)
def test_ordinary_names_and_paths_pass(fields):
    assert parse_update_document(_doc(**fields), "week.json")


def test_the_cli_says_it_in_one_line_and_exits_2(tmp_path):
    bad = tmp_path / "week.json"
    bad.write_text(_doc(manifest="../../../../etc/passwd"))
    result = CliRunner().invoke(cli, ["updates", "-r", str(tmp_path), "-u", str(bad)])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "outside the checkout" in lines[0]
