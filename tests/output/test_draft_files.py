"""Draft files on disk and their review state: edits kept, approvals reset, stale drafts."""

from __future__ import annotations

import json

import pytest

from depbot.core.errors import InputError
from depbot.output.draft_files import write_drafts
from depbot.output.drafts import RepoLink
from depbot.output.review import approve, list_drafts, load_review, reject
from depbot.records.verdict import Hit
from tests.helpers.samples import simple_verdict, urllib3_verdict


def _verdicts():
    v1 = urllib3_verdict()
    v2 = simple_verdict("requests", "2.32.3", verdict="not_affected")
    v3 = simple_verdict("left-pad", "2.0.0", verdict="unknown", ecosystem="npm")
    return [v1, v2, v3]


def test_drafts_only_for_affected_with_records(tmp_path):
    verdicts = _verdicts()
    drafts = write_drafts(tmp_path, verdicts, RepoLink("acme/statuspoller", "a" * 40))
    assert [d.id for d in drafts] == ["pip-urllib3-2.0.7"]
    assert verdicts[0].draft == "drafts/pip-urllib3-2.0.7.md"
    assert verdicts[1].draft is None and verdicts[2].draft is None
    text = (tmp_path / "drafts/pip-urllib3-2.0.7.md").read_text()
    assert text.startswith("# urllib3 1.26.18 → 2.0.7 breaks 1 call site in 1 file\n\n")
    assert "blob/" + "a" * 40 in text
    rec = load_review(tmp_path)["pip-urllib3-2.0.7"]
    assert (rec.key, rec.package, rec.from_version, rec.to_version) == (
        "pip/urllib3@2.0.7",
        "urllib3",
        "1.26.18",
        "2.0.7",
    )
    assert rec.status == "pending" and rec.hits == 1 and rec.files == 1


def test_hand_edited_draft_is_never_overwritten(tmp_path):
    v = urllib3_verdict()
    write_drafts(tmp_path, [v])
    path = tmp_path / "drafts/pip-urllib3-2.0.7.md"
    edited = path.read_text().replace("## Suggested fix", "## Suggested fix\n\nOur own plan.")
    path.write_text(edited)
    approve(tmp_path, ["pip-urllib3-2.0.7"])
    # the next triage finds one more call site
    v2 = urllib3_verdict(
        hits=[*v.hits, Hit("h9", "statuspoller/checks.py", 5, "method_whitelist=x")]
    )
    (draft,) = write_drafts(tmp_path, [v2])
    assert path.read_text() == edited  # the person's text stays
    new = tmp_path / "drafts/pip-urllib3-2.0.7.new.md"
    assert "breaks 2 call sites in 2 files" in new.read_text()
    assert "kept your edited drafts/pip-urllib3-2.0.7.md" in draft.note
    assert v2.draft == "drafts/pip-urllib3-2.0.7.md"
    (info,) = list_drafts(tmp_path)
    assert info.edited and info.record.status == "approved"
    assert info.record.new_render == "drafts/pip-urllib3-2.0.7.new.md"


def test_changed_render_needs_review_again_unchanged_keeps_it(tmp_path):
    write_drafts(tmp_path, [urllib3_verdict()])
    approve(tmp_path, ["pip-urllib3-2.0.7"])
    write_drafts(tmp_path, [urllib3_verdict()])  # same findings
    assert load_review(tmp_path)["pip-urllib3-2.0.7"].status == "approved"
    more = urllib3_verdict(hits=[Hit("h1", "statuspoller/http.py", 30, "method_whitelist=a")])
    (draft,) = write_drafts(tmp_path, [more])
    rec = load_review(tmp_path)["pip-urllib3-2.0.7"]
    assert rec.status == "pending" and "changed since it was approved" in draft.note
    assert ":30`" in (tmp_path / draft.path).read_text()
    assert not (tmp_path / "drafts/pip-urllib3-2.0.7.new.md").exists()


def test_stale_drafts_and_name_collisions(tmp_path):
    write_drafts(tmp_path, [simple_verdict("flask", "3.0.0"), urllib3_verdict()])
    reject(tmp_path, ["pip-flask-3.0.0"], why="we pin flask")
    scoped = simple_verdict("@acme/web-kit", "2.0.0", ecosystem="npm")
    plain = simple_verdict("acme-web-kit", "2.0.0", ecosystem="npm")
    drafts = write_drafts(tmp_path, [urllib3_verdict(), scoped, plain])
    ids = [d.id for d in drafts]
    assert ids[1] == "npm-acme-web-kit-2.0.0"
    assert ids[2].startswith("npm-acme-web-kit-2.0.0-") and len(set(ids)) == 3
    records = load_review(tmp_path)
    assert records["pip-flask-3.0.0"].stale and records["pip-flask-3.0.0"].status == "rejected"
    assert not records["pip-urllib3-2.0.7"].stale
    assert records[ids[2]].key == "npm/acme-web-kit@2.0.0"


def test_unreadable_review_file_does_not_sink_a_triage(tmp_path):
    write_drafts(tmp_path, [urllib3_verdict()])
    approve(tmp_path, ["pip-urllib3-2.0.7"])
    (tmp_path / "drafts/review.json").write_text("{ broken by hand")
    with pytest.raises(InputError, match="review.json is not readable JSON"):
        list_drafts(tmp_path)
    (draft,) = write_drafts(tmp_path, [urllib3_verdict()])
    assert (tmp_path / "drafts/review.json.unreadable").read_text() == "{ broken by hand"
    assert load_review(tmp_path)[draft.id].status == "pending"  # approval must be given again


@pytest.mark.parametrize(
    "text", ['{"schema": 1, "drafts": ["x"]}', '{"schema": 1, "drafts": []}', '["x"]', "7"]
)
def test_a_review_file_of_another_shape_is_one_line_not_a_traceback(tmp_path, text):
    (tmp_path / "drafts").mkdir()
    (tmp_path / "drafts/review.json").write_text(text)
    with pytest.raises(InputError, match=r"review.json.*expected an object"):
        load_review(tmp_path)
    assert load_review(tmp_path, salvage=True) == {}
    assert (tmp_path / "drafts/review.json.unreadable").read_text() == text


def test_wrong_typed_fields_of_a_record_fall_back_to_their_defaults(tmp_path):
    (tmp_path / "drafts").mkdir()
    record = {"status": 5, "hits": "many", "rendered": [1, "abc"], "stale": "yes", "why": "ok",
              "published": {"issue": "12", "url": "u", "marker": "m", "body_hash": "h"}}  # fmt: skip
    (tmp_path / "drafts/review.json").write_text(json.dumps({"drafts": {"pip-x-1.0": record}}))
    rec = load_review(tmp_path)["pip-x-1.0"]
    assert (rec.status, rec.hits, rec.rendered, rec.stale, rec.why) == (
        "pending",
        0,
        ["abc"],
        False,
        "ok",
    )
    assert rec.published is None
