"""What ``fetch_changelog`` sends: a long migration guide still shows every name to search for."""

from __future__ import annotations

import json

from depbot.agent.observations import ReadSection, changelog_observation, success
from depbot.changelogs.breaking import Item
from depbot.changelogs.result import ChangelogResult
from depbot.changelogs.sections import Section
from depbot.changelogs.wording import Candidate
from depbot.records.update import Update


def _fence(text: str, source: str, limit: int) -> str:
    return f"<<<F source={source}>>>\n{text[:limit]}\n<<<END>>>"


def _guide(named: int, unnamed: int) -> list[ReadSection]:
    prose = "This changes how charts are drawn in ways that most apps will notice. " * 6
    items = [Item(f"`opt{i}` was removed. {prose}", "breaking", (Candidate(f"opt{i}"),))
             for i in range(named)]  # fmt: skip
    items += [Item(f"Behaviour {i} changed. {prose}", "breaking") for i in range(unnamed)]
    body = "\n".join(f"- {it.text}" for it in items)
    section = Section("3.0.0", "## v3 migration", body, "o/r:docs/v3-migration.md@v3", 1, 400)
    return [ReadSection("c1.s1", section, items)]


def test_a_guide_over_the_limit_still_shows_every_name_to_search_for():
    update = Update("npm", "charts", "2.9.4", "3.9.1")
    read = _guide(named=150, unnamed=150)
    result = ChangelogResult("npm", "charts", "2.9.4", "3.9.1", [r.section for r in read])
    outcome = success(changelog_observation("c1", update, result, read, [], _fence))
    sent = json.loads(outcome.content)
    assert "over the 48000-character limit" in sent["note_from_depbot"]
    shown = {c["symbol"] for e in sent["breaking"] for c in e.get("candidates", [])}
    assert shown == {f"opt{i}" for i in range(150)}
    assert sent["breaking_not_shown"] == 150  # the items that name nothing, counted
    assert "name nothing to search for" in sent["breaking_note"]


def test_a_short_guide_is_sent_whole():
    update = Update("npm", "charts", "2.9.4", "3.9.1")
    read = _guide(named=3, unnamed=2)
    result = ChangelogResult("npm", "charts", "2.9.4", "3.9.1", [r.section for r in read])
    obs = changelog_observation("c1", update, result, read, [], _fence)
    assert len(obs.compact["breaking"]) == 5 and "breaking_not_shown" not in obs.compact


def test_a_release_whose_section_was_left_out_of_what_was_read_is_not_covered():
    from depbot.agent.observations import ReadSection, range_coverage
    from depbot.changelogs.result import ChangelogResult
    from depbot.changelogs.sections import Section

    def sec(v: str) -> Section:
        return Section(v, f"## {v}", "- fixed a thing", "https://x/CHANGELOG.md", 1, 2)

    update = Update("npm", "ui", "1.9.0", "2.1.0")
    shown = [sec("2.1.0")]  # 2.0.0 (the new major) was found, then left out of the display
    result = ChangelogResult("npm", "ui", "1.9.0", "2.1.0", shown,
                             published=["2.0.0", "2.1.0"], analysed=shown)  # fmt: skip
    cov = range_coverage(update, result, [ReadSection("c1.s1", shown[0], [])])
    assert "2.0.0" in cov.missing


def test_the_summary_marks_the_items_that_announce_a_break_no_search_can_clear():
    from depbot.agent.observations import changelog_summary
    from depbot.core.fence import fence

    update = Update("npm", "ui", "1.9.0", "2.0.0")
    items = [
        Item("`Tooltip.legacy` was removed", "breaking", (Candidate("Tooltip.legacy"),)),
        Item("Remove Tooltip legacy placement", "breaking"),
        Item("Node 12 is no longer supported", "runtime"),
        Item("Remove the `debug` dependency", "breaking"),
        Item("BREAKING: a timeout now rejects the promise", "breaking"),
    ]
    body = "\n".join(f"- {it.text}" for it in items)
    section = Section("2.0.0", "## 2.0.0", body, "o/r:CHANGELOG.md@v2", 1, 9)
    read = [ReadSection("c1.s1", section, items)]
    result = ChangelogResult("npm", "ui", "1.9.0", "2.0.0", [section])

    def real_fence(text: str, source: str, limit: int) -> str:
        return fence(text, source=source, nonce="n0", limit=limit)

    obs = changelog_observation("c1", update, result, read, [], real_fence)
    got = changelog_summary(result, obs.body, read)["items"]
    assert [(i["text"], bool(i.get("unclearable"))) for i in got] == [
        ("`Tooltip.legacy` was removed", False),
        ("Remove Tooltip legacy placement", True),
        ("Node 12 is no longer supported", False),
        ("Remove the `debug` dependency", False),
        ("BREAKING: a timeout now rejects the promise", True),
    ]


def test_an_item_the_notes_repeat_for_a_release_is_accounted_once():
    # stop 51: a generator that lists each pre-release again under every later one names the
    # same item of the same release several times; the accounting lists it once, and the
    # planner counts it once among the items no search clears
    from depbot.agent.observations import changelog_summary
    from depbot.core.fence import fence
    from depbot.planner.records import Changelog
    from depbot.planner.unnamed import unnamed_breaks

    update = Update("npm", "ui", "1.9.0", "2.0.0")
    items = [
        Item("when creating a `Client` instance `new` is now required", "breaking"),
        Item("Dropped support for Node 12", "runtime"),
    ]
    body = "\n".join(f"- {it.text}" for it in items)
    read = [
        ReadSection(
            f"c1.s{n}", Section("2.0.0", "## 2.0.0", body, f"o/r:CHANGELOG.md#{n}", n, 9), items
        )  # fmt: skip
        for n in range(1, 4)
    ]
    result = ChangelogResult("npm", "ui", "1.9.0", "2.0.0", [r.section for r in read])

    def real_fence(text: str, source: str, limit: int) -> str:
        return fence(text, source=source, nonce="n0", limit=limit)

    obs = changelog_observation("c1", update, result, read, [], real_fence)
    got = changelog_summary(result, obs.body, read)["items"]
    assert [(i["text"], bool(i.get("unclearable"))) for i in got] == [
        ("when creating a `Client` instance `new` is now required", True),
        ("Dropped support for Node 12", False),
    ]
    assert len(unnamed_breaks(Changelog.read(obs.body))) == 1


def test_items_left_out_of_a_result_over_the_limit_still_say_they_announce_a_break():
    from depbot.core.fence import fence
    from depbot.planner.records import Changelog
    from depbot.planner.unnamed import unnamed_breaks

    def real_fence(text: str, source: str, limit: int) -> str:
        return fence(text, source=source, nonce="n0", limit=limit)

    prose = "This changes how charts are drawn in ways that most apps will notice. " * 6
    items = [Item(f"`opt{i}` was removed. {prose}", "breaking", (Candidate(f"opt{i}"),))
             for i in range(150)]  # fmt: skip
    items += [Item(f"Remove the legacy placement {i}. {prose}", "breaking") for i in range(7)]
    items += [Item(f"Renders {i} faster now. {prose}", "breaking") for i in range(140)]
    body = "\n".join(f"- {it.text}" for it in items)
    section = Section("3.0.0", "## v3 migration", body, "o/r:docs/v3-migration.md@v3", 1, 400)
    read = [ReadSection("c1.s1", section, items)]
    update = Update("npm", "charts", "2.9.4", "3.9.1")
    result = ChangelogResult("npm", "charts", "2.9.4", "3.9.1", [section])
    sent = json.loads(
        success(changelog_observation("c1", update, result, read, [], real_fence)).content
    )
    assert sent["breaking_not_shown"] == 147
    assert sent["announced_not_shown_count"] == 7 and len(sent["announced_not_shown"]) == 5
    assert "Remove the legacy placement 0." in sent["announced_not_shown"][0]
    said = unnamed_breaks(Changelog.read(sent))  # what the rules planner reads of it
    assert len(said) == 7 and said[0].startswith("Remove the legacy placement 0.")
