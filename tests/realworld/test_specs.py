"""Every real-world case spec (tests/realworld/cases/*.toml) parses and validates, and the
corpus is as large as it has been (no network; nothing is built)."""

from __future__ import annotations

from tests.helpers.realworld import CORPUS, load_tool

# Floors: what the corpus holds today; they only rise (the lead raises them).
MIN_TOTAL = 41
MIN_PIP = 22
MIN_NPM = 19
MIN_NEGATIVES = 16
# Targets of issue #15: 40 cases, 15 pip, 15 npm, 10 negatives (expect = "not_affected" with
# `negative` set). Met since the floors passed them.
TARGETS = {"total": 40, "pip": 15, "npm": 15, "negatives": 10}


def test_every_spec_validates():
    tool = load_tool()
    specs, errors = tool.load_specs(CORPUS / "cases")
    assert errors == []
    assert {s.name for s in specs} == {p.stem for p in (CORPUS / "cases").glob("*.toml")}


def test_the_corpus_is_no_smaller_than_its_floors():
    specs, _ = load_tool().load_specs(CORPUS / "cases")
    c = load_tool().counts(specs)
    assert c["total"] >= MIN_TOTAL, c
    assert c["pip"] >= MIN_PIP, c
    assert c["npm"] >= MIN_NPM, c
    assert c["negatives"] >= MIN_NEGATIVES, c


def test_a_bad_spec_gets_one_line_per_field(tmp_path):
    (tmp_path / "pip-x-bad.toml").write_text(
        'description = "x"\necosystem = "npm"\npackage = "x"\nfrom = "1"\nto = "2"\n'
        'expect = "affected"\nfiles = ["a.py"]\n'
        '[client]\nrepo = "nope"\ncommit = "abc"\nlicense = "MIT"\npaths = ["b.py"]\n'
        'manifest = "requirements.txt"\n[upstream]\nrepo = "o/r"\nlicense = "MIT"\n'
    )
    specs, errors = load_tool().load_specs(tmp_path)
    assert specs == []
    keys = [e.split(": ")[1] for e in errors]
    assert all(e.startswith(str(tmp_path / "pip-x-bad.toml")) for e in errors), errors
    assert set(keys) >= {"ecosystem", "symbols", "client.repo", "client.commit", "files"}, errors


def test_the_corpus_meets_the_issue_targets():
    c = load_tool().counts(load_tool().load_specs(CORPUS / "cases")[0])
    assert all(c[k] >= n for k, n in TARGETS.items()), (c, TARGETS)


def test_also_entries_are_validated(tmp_path):
    tool = load_tool()
    base = {"description": "x", "ecosystem": "npm", "package": "a", "from": "1.0.0",
            "to": "2.0.0", "expect": "not_affected",
            "client": {"repo": "o/c", "commit": "a" * 40, "license": "MIT",
                       "paths": ["package.json"], "manifest": "package.json"},
            "upstream": {"repo": "o/a", "license": "MIT"}}  # fmt: skip
    ok = {**base, "also": [{"package": "@types/a", "versions": ["1.0.0"]}]}
    assert tool.validate("npm-a-x", ok, "w") == []
    bad = {**base, "also": [{"package": "a", "versions": []}, {"package": "b", "v": ["1"]},
                            {"package": "../b", "versions": ["1"]}]}  # fmt: skip
    errs = tool.validate("npm-a-x", bad, "w")
    assert any(e.startswith("w: also[1].package") for e in errs), errs
    assert any(e.startswith("w: also[1].versions") for e in errs), errs
    assert any(e.startswith("w: also[2].v: unknown key") for e in errs), errs
    assert any(e.startswith("w: also[3].package") for e in errs), errs
    assert tool.validate("npm-a-x", {**base, "also": "x"}, "w") == [
        "w: also: must be a list of { package = ..., versions = [...] }"
    ]
