"""Update files: dependabot-style records, fetch-metadata names, and clear errors."""

import json
from pathlib import Path

import pytest

from depbot.core.errors import InputError
from depbot.records.update import Update
from depbot.updates.files import load_update_file, parse_update_document


def test_json_list_of_records():
    text = json.dumps(
        [
            {
                "ecosystem": "pip",
                "package": "urllib3",
                "from": "1.26.18",
                "to": "2.0.7",
                "manifest": "requirements.txt",
            },
            {
                "ecosystem": "npm_and_yarn",
                "package": "express",
                "from": "4.18.2",
                "to": "5.0.0",
                "dependency-type": "direct:development",
            },
        ]
    )
    ups = parse_update_document(text, "week.json")
    assert [u.update_type for u in ups] == ["major", "major"]
    assert ups[1].ecosystem == "npm"
    assert ups[1].dependency_kind == "dev"
    assert ups[0].source == "file" and ups[0].source_ref == "week.json"
    assert ups[0].key == "pip/urllib3@2.0.7"


def test_scenario_style_toml():
    text = """
description = "x"
[[updates]]
ecosystem = "pip"
package = "Flask"
from = "2.2.5"
to = "2.3.3"
manifest = "requirements.txt"
"""
    (u,) = parse_update_document(text, "scenario.toml")
    assert (u.package, u.from_version, u.to_version, u.update_type) == (
        "Flask",
        "2.2.5",
        "2.3.3",
        "minor",
    )


def test_fetch_metadata_outputs():
    record = {
        "dependency-names": "requests",
        "dependency-type": "direct:production",
        "update-type": "version-update:semver-minor",
        "previous-version": "2.27.1",
        "new-version": "2.28.1",
        "directory": "/backend",
        "package-ecosystem": "pip",
    }
    (u,) = parse_update_document(json.dumps(record), "meta.json")
    assert u.manifest == "backend/requirements.txt"
    assert u.update_type == "minor"


def test_updated_dependencies_json():
    doc = {
        "updated-dependencies-json": json.dumps(
            [
                {
                    "dependencyName": "uuid",
                    "dependencyType": "direct:production",
                    "updateType": "version-update:semver-major",
                    "directory": "/",
                    "packageEcosystem": "npm_and_yarn",
                    "prevVersion": "3.4.0",
                    "newVersion": "9.0.1",
                },
            ]
        )
    }
    (u,) = parse_update_document(json.dumps(doc), "deps.json")
    assert (u.ecosystem, u.package, u.update_type, u.manifest) == (
        "npm",
        "uuid",
        "major",
        "package.json",
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "week.json: not valid JSON"),
        ('[{"package": "x", "from": "1", "to": "2"}]', "record 1: missing field 'ecosystem'"),
        (
            '[{"ecosystem": "cargo", "package": "x", "from": "1", "to": "2"}]',
            "unknown ecosystem 'cargo'",
        ),
        ('[{"ecosystem": "pip", "from": "1", "to": "2"}]', "missing field 'package'"),
        ('[{"ecosystem": "pip", "package": "x", "to": "2"}]', "missing field 'from'"),
        (
            '[{"ecosystem": "pip", "package": "x", "from": "one", "to": "2"}]',
            "'one' is not a pip version",
        ),
        (
            '[{"ecosystem": "pip", "package": "x", "from": "1", "to": "2"}, 7]',
            "record 2: expected a table",
        ),
        ('{"other": 1}', "no 'updates' list"),
        (
            '[{"ecosystem": "pip", "package": "x", "from": "1", "to": "2", "update-type": "huge"}]',
            "unknown update type",
        ),
    ],
)
def test_malformed_files_name_what_is_wrong(text, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_update_document(text, "week.json")


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        load_update_file(tmp_path / "nope.json")


def test_toml_error_names_file(tmp_path):
    p = tmp_path / "week.toml"
    p.write_text("[[updates]\n")
    with pytest.raises(InputError, match="week.toml: not valid TOML"):
        load_update_file(p)


def test_record_round_trip():
    u = Update("npm", "chalk", "4.1.2", "5.3.0", manifest="package.json")
    d = u.to_dict()
    assert d["from"] == "4.1.2" and d["to"] == "5.3.0" and d["update_type"] == "major"
    assert d["may_break"] is True


# --- input that must not be silently changed (#18) --------------------------------------


@pytest.mark.parametrize(
    "text, fmt",
    [
        ('{"ecosystem": "pip", "package": "six", "from": "1.9", "to": 6.10}', "json"),
        ('ecosystem = "pip"\npackage = "six"\nfrom = "1.9"\nto = 6.10\n', "toml"),
        ('{"ecosystem": "npm", "package": "a", "from": 1, "to": "2.0.0"}', "json"),
    ],
)
def test_a_version_given_as_a_number_is_refused_not_rounded(text, fmt):
    with pytest.raises(InputError, match=r"is the number .*write versions as strings"):
        parse_update_document(text, "week." + fmt, fmt=fmt)


def test_a_list_of_packages_is_refused_not_stringified():
    text = '{"ecosystem": "pip", "package": ["a", "b"], "from": "1.0", "to": "2.0"}'
    with pytest.raises(InputError, match=r"'package' must be a string .*got a list"):
        parse_update_document(text, "week.json")


def test_comma_separated_names_are_refused_naming_every_package():
    text = json.dumps(
        {
            "package-ecosystem": "pip",
            "dependency-names": "requests, urllib3,idna",
            "previous-version": "2.31.0",
            "new-version": "2.32.3",
        }
    )
    with pytest.raises(InputError, match=r"3 packages \(requests, urllib3, idna\)"):
        parse_update_document(text, "meta.json")


def test_one_package_listed_twice_with_different_targets_is_refused():
    rec = {"ecosystem": "pip", "package": "PyYAML", "from": "5.4.1", "manifest": "r.txt"}
    text = json.dumps([{**rec, "to": "6.0.1"}, {**rec, "package": "pyyaml", "to": "6.0.2"}])
    with pytest.raises(InputError, match=r"listed twice .*6\.0\.1 and 5\.4\.1 → 6\.0\.2"):
        parse_update_document(text, "week.json")


def test_the_same_update_listed_twice_is_kept_once():
    rec = {"ecosystem": "pip", "package": "PyYAML", "from": "5.4.1", "to": "6.0.1"}
    assert len(parse_update_document(json.dumps([rec, dict(rec)]), "week.json")) == 1


def test_an_update_file_path_over_the_name_limit_is_one_line(tmp_path):
    with pytest.raises(InputError, match=r"update file path is not usable: File name too long"):
        load_update_file(tmp_path / ("a" * 300 + ".json"))


def test_an_update_file_named_beside_the_checkout_is_the_callers(tmp_path, monkeypatch):
    """`-u ../week.json` from inside the checkout names a file outside it: the caller's own,
    read as given (only files inside follow the checkout's rules); `sub/../x` stays refused."""
    repo = tmp_path / "repo"
    (repo / "sub").mkdir(parents=True)
    week = tmp_path / "week.json"
    week.write_text(
        json.dumps([{"ecosystem": "pip", "package": "idna", "from": "3.4", "to": "3.7"}])
    )
    monkeypatch.chdir(repo)
    (u,) = load_update_file(Path("../week.json"), checkout=Path("."))
    assert (u.package, u.to_version) == ("idna", "3.7")
    (repo / "w.json").write_text(week.read_text())
    with pytest.raises(InputError, match="not inside the checkout"):
        load_update_file(Path("sub/../w.json"), checkout=Path("."))
