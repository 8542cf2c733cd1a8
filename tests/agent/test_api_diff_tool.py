"""The api_diff tool: use-checked findings only, citable in conclude; problems as notes."""

from __future__ import annotations

import json
from typing import Any

from depbot.agent.ledger import Ledger
from depbot.agent.toolbox import Toolbox
from depbot.apidiff.join import ReleaseDiff
from depbot.output.drafts import render_draft
from depbot.records.api import ApiChange, ApiDiff
from depbot.records.update import Update
from depbot.symbols.facts import SymbolHit
from tests.helpers.fake_services import FakeServices, import_site, section

NONCE = "0123456789ab"
OLDLIB = Update("pip", "oldlib", "1.4.0", "2.0.0")
APP = "import oldlib\n\n\ndef main():\n    return oldlib.Client(timeout=3, legacy=1)\n"
CHANGES = [
    ApiChange("param_removed", "oldlib.Client.__init__", "legacy", "oldlib/client.py"),
    ApiChange("removed", "oldlib.unused_fn", "", "oldlib/__init__.py"),
]
USE = SymbolHit(
    "app/main.py", 5, 37, APP.splitlines()[4].strip(), "code", "strong", "passes legacy="
)


def make(
    diff: ReleaseDiff | None = None, notes: str = "- Faster.\n", hit: SymbolHit = USE
) -> Toolbox:
    services = FakeServices(
        changelogs={"oldlib": [section("2.0.0", notes)]},
        files={"app/main.py": APP},
        imports={"oldlib": [import_site("app/main.py", 1, "oldlib")]},
        kinded={("legacy", "parameter"): [hit]},
    )
    if diff is not None:
        services.diffs["oldlib"] = diff
    return Toolbox([OLDLIB], Ledger(), services, NONCE)


def run(box: Toolbox, name: str, args: dict[str, Any]) -> dict[str, Any]:
    return json.loads(box.execute(name, json.dumps(args)).content)


def released(*changes: ApiChange) -> ReleaseDiff:
    return ReleaseDiff(ApiDiff("pip", "oldlib-1.4.0 wheel", "oldlib-2.0.0 wheel", list(changes)),
                       "oldlib-2.0.0 wheel")  # fmt: skip


def conclude(box: Toolbox, ref: str, hits: list[str]) -> dict[str, Any]:
    return run(box, "conclude", {
        "package": "oldlib", "verdict": "affected", "reason": "legacy= is gone",
        "breaking_changes": [{"summary": "Client(legacy=) removed", "source_ref": ref}],
        "hit_ids": hits,
    })  # fmt: skip


def test_only_findings_that_touch_a_use_come_back_and_conclude_can_cite_them():
    box = make(released(*CHANGES))
    body = run(box, "api_diff", {"package": "oldlib"})
    assert body["compared"] and body["changes_in_diff"] == 2
    (finding,) = body["findings"]  # unused_fn is never used here
    assert finding["id"] == "a1" and finding["strength"] == "strong"
    assert (
        "oldlib-2.0.0 wheel · oldlib/client.py · Client.__init__ has no parameter legacy"
        in (finding["where"])
    )
    assert f"<<<UNTRUSTED-{NONCE}" in finding["where"]  # upstream text is fenced
    hit_id = finding["hits"][0]["id"]
    assert conclude(box, "a1", [hit_id])["accepted"]
    (verdict,) = box.ledger.verdicts.values()
    (bc,) = verdict.breaking_changes
    assert bc.source == "oldlib-2.0.0 wheel: oldlib/client.py" and bc.section_ref == "a1"
    body = render_draft(verdict).body
    assert "release notes do not mention this break" in body and "oldlib/client.py" in body


def test_a_weak_finding_alone_is_not_enough_for_affected():
    weak = SymbolHit(USE.path, USE.line, USE.col, USE.text, "code", "weak", "receiver unknown")
    box = make(released(*CHANGES), hit=weak)
    body = run(box, "api_diff", {"package": "oldlib"})
    (finding,) = body["findings"]
    assert finding["strength"] == "weak"
    answer = conclude(box, "a1", [finding["hits"][0]["id"]])
    assert "weak" in answer["error"]


def test_no_artifacts_become_notes_and_a_fallback_to_the_notes():
    box = make()
    body = run(box, "api_diff", {"package": "oldlib"})
    assert body["compared"] is False and body["findings"] == []
    assert "no files in the registry" in body["notes"] and "release notes" in body["fallback"]
    assert "a1" not in box.ledger.api_findings


def test_a_finding_of_another_package_or_an_unknown_id_is_refused():
    box = make(released(*CHANGES))
    run(box, "api_diff", {"package": "oldlib"})
    assert "not a section" in conclude(box, "a9", ["h1"])["error"]
