"""A breaking item that names no API is not cleared by searching the others (#26): the
verdict is unknown, quoting it; a label, words about the items below, or a change of the
type declarations alone are not such items."""

from __future__ import annotations

import pytest

from tests.helpers.planner import MAJOR, Convo, changelog, item

COVERED = {"coverage": {"needed": ["2.0.0"], "covered": ["2.0.0"], "missing": []}}


def conclude(*entries: dict, **extra: object) -> dict:
    c = Convo(MAJOR)
    c.step()
    c.answer(changelog("oldlib", list(entries), **COVERED, **extra))
    calls = c.step()
    assert calls[0][0] == "where_imported"
    results = [{"id": "w1", "hits": []}] + [
        {"id": f"s{i}", "hits": []} for i in range(1, len(calls))
    ]
    c.answer(*results)
    ((name, args),) = c.step()
    assert name == "conclude"
    return args


def named(symbol: str = "gone") -> dict:
    entry = item({"symbol": symbol, "kind": "name"})
    entry["item"] = f"`{symbol}` was removed"
    return entry


def unnamed(text: str) -> dict:
    entry = item()
    entry["item"] = text
    return entry


def test_a_break_said_in_words_only_keeps_the_verdict_unknown_though_the_rest_was_searched():
    args = conclude(named(), unnamed("*Breaking:* options are stored safely by default, "
                                     "not as properties on the command"))  # fmt: skip
    assert args["verdict"] == "unknown"
    assert "`gone`" in args["reason"] and "not as properties on the command" in args["reason"]


@pytest.mark.parametrize(
    "text",
    [
        "breaking:",  # a heading written as a list item
        "Please note the **breaking changes** detailed below.",
        "What's changed in Lib 2.0, including breaking changes and new features",
        "We've gone 4+ years without any breaking changes.",  # words that deny a break
        "[**closed**] Changelog for v2.0 does not mention breaking changes #171",
        "Non-breaking: the internal queue was rewritten for speed.",  # a break denied
        "This page lists known potentially breaking changes in each of those packages.",
        # the items as a group, and the word in quotes
        'In practice, **most of the "breaking" changes should not have an actual effect**.',
        "These are technically \u201cbreaking\u201d, but should be transparent to end users.",
        # a break denied through emphasis
        "Strictly speaking, **this is _not_ a breaking change**, nor is it new in 5.0.",
        # a hypothesis: why the change was made, not what the release does
        "`next` would be typed to have all of the extensions that would no longer apply.",
        "This release contains significant or breaking changes.",  # a guide's first words
        # a list's legend (stop 51)
        "Major pull requests included in this release (cf. #742) (\u26a0 = breaking changes):",
        "Fixed: remove the unused helpers option from the docs",  # a fix, not a removal
    ],
)
def test_words_about_the_items_are_not_an_item(text):
    assert conclude(named(), unnamed(text))["verdict"] == "not_affected"


@pytest.mark.parametrize(
    "text",
    [
        "This package now requires React 18 or later.",
        "Hooks must now be called below a store provider.",
        "A store provider is now required around the app.",
        "The plugin now needs to be registered before the loader rule.",
        # stop 57: read as naming no API, it let a search of the other items (8e74916) call
        # the update safe (express-slow-down 3, a false safe for one commit)
        "Changed behavior of `waitMs` when the store is remote",
    ],
)
def test_a_requirement_that_names_no_api_keeps_the_verdict_unknown(text):
    args = conclude(named(), unnamed(text))
    assert args["verdict"] == "unknown"
    assert text[:30] in args["reason"]


def test_a_closed_issue_s_title_is_a_report_not_an_announced_break():
    args = conclude(named(), unnamed("[**closed**] Lib breaking with 'class' declaration #170"))
    assert args["verdict"] == "not_affected"
    # a break said outright in a merged change's line still counts
    args = conclude(named(), unnamed("[**merged**] BREAKING: drop the legacy loader #171"))
    assert args["verdict"] == "unknown"


def test_a_lead_in_is_not_an_item_when_the_items_it_announces_are_read_after_it():
    lead = unnamed("This change does include some breaking changes, but should not matter:")
    assert conclude(named(), lead, named("other"))["verdict"] == "not_affected"
    # nothing read after it: the list it leads into may be lost, so it stays an item
    assert conclude(named(), lead)["verdict"] == "unknown"
    # a lead-in that states a requirement of its own is still an item
    need = unnamed("The types now require that you must use `Tuple` if you pass an array:")
    assert conclude(named(), need, named("other"))["verdict"] == "unknown"


def test_a_language_level_build_target_is_a_build_change_not_an_unnamed_break():
    from depbot.changelogs.items import categorize

    text = "**Build output is no longer transpiled!** Instead we target modern JS (ES2020)."
    assert categorize(text, "Breaking changes", "") == "runtime"


@pytest.mark.parametrize(
    "text",
    [
        "Removed: 76 rules deprecated in 15.0.0.",
        "**NODE-3489:** remove cursor close options",
        "Dropped support for processors",
        "remove the legacy helpers",
        # no kind noun and no code-like name (stop 49): before, not counted at all, so the
        # update read as safe ("none naming an API")
        "🚮 Remove Tooltip legacy placement. #2188",
        "feat(menu)!: remove the old sizing",
        "[Select] Removed legacy dropdown alignment",
        # code named, but no search made of it (stop 49)
        "Remove deprecated `.extend` API, by @maint (see #1908)",
    ],
)
def test_a_removal_of_unnamed_things_keeps_the_verdict_unknown(text):
    # the kind of thing the code may use is gone and no name says which: before, only the
    # words "breaking" or "now requires" kept the verdict open, and these read as safe
    args = conclude(named(), unnamed(text))
    assert args["verdict"] == "unknown" and text[:20] in args["reason"]


@pytest.mark.parametrize(
    "text",
    [
        "Remove additional markdown files from tarball",
        "Remove `debug` dependency",
        "[**V2**] Remove fs and path dependencies #152",
        "Remove the minified UMD build from the package.",
        "Removed `end value has mixed support` warning since `end` now has good support.",
        "perf: remove slow string split in parse",
        "Remove previously deprecated code.",  # the released code's diff accounts for it
        "Remove temporary file when error is raised",
        "[meta] remove extraneous code backticks",  # the repository's own housekeeping
    ],
)
def test_a_package_s_housekeeping_removal_is_no_unnamed_break(text):
    args = conclude(named(), unnamed(text))
    assert args["verdict"] == "not_affected", args["reason"]


def test_lines_of_breaking_notes_cut_to_fit_keep_the_verdict_unknown():
    # the notes were longer than the budget and lines under a breaking heading were cut:
    # what they said was never read, so the searches of the rest do not clear them
    cut = named("bindCallback")
    cut["item"] = "**bindCallback:** remove result selector [\u2026 28 lines trimmed \u2026]"
    args = conclude(cut, breaking_lines_cut=True)
    assert args["verdict"] == "unknown" and "28 lines trimmed" in args["reason"]
    assert conclude(named("bindCallback"))["verdict"] == "not_affected"  # nothing cut: safe
    # lines cut where the budget kept every breaking line said no break: nothing unread
    assert conclude(cut)["verdict"] == "not_affected"


@pytest.mark.parametrize(
    "text",
    [
        # a demand relaxed: code that still meets it does not break (stop 51)
        "For Node SDKs you no longer need the side effect import, you can remove all "
        "references to `@scope/tracing`.",
        "Calling `init()` first is no longer required.",
        # "class-based": the kind word as an adjective, not a class that was removed
        "Removal of class-based integrations",
    ],
)
def test_a_relaxed_demand_or_a_kind_word_as_an_adjective_is_no_unnamed_break(text):
    args = conclude(named(), unnamed(text))
    assert args["verdict"] == "not_affected", args["reason"]
    # the same sentences that remove or change something still keep the verdict open
    assert conclude(named(), unnamed("Removal of class helpers"))["verdict"] == "unknown"
    assert (
        conclude(named(), unnamed("The side effect import is now required."))["verdict"]
        == "unknown"
    )


def test_an_item_a_generator_lists_under_breaking_changes_keeps_the_verdict_unknown():
    # stop 51 (a false safe before): "use ES Module export instead of CommonJS" under the
    # conventional-changelog "BREAKING CHANGES" heading names nothing, yet the notes say it
    # breaks; the same words anywhere else are a change among others
    text = "use ES Module export instead of CommonJS (3c7bf2c)"
    declared = unnamed(text)
    declared["declared"] = True
    args = conclude(named(), declared)
    assert args["verdict"] == "unknown" and "use ES Module export" in args["reason"]
    assert conclude(named(), unnamed(text))["verdict"] == "not_affected"
    # the package's own housekeeping under that heading is still no break of this code
    chore = unnamed("**deps:** update the bundled parser")
    chore["declared"] = True
    assert conclude(named(), chore)["verdict"] == "not_affected"
    # a demand relaxed under that heading (stop 52): code that still meets it keeps working
    relaxed = unnamed("bundle `3` of the parser, so you don't need to have it in `package.json`")
    relaxed["declared"] = True
    assert conclude(named(), relaxed)["verdict"] == "not_affected"


def test_a_commit_subject_that_says_what_it_uses_instead_is_a_break_not_a_remedy():
    from depbot.changelogs.breaking import analyze_section

    body = (
        "### Features\n\n* use ES Module export instead of CommonJS (#69)\n\n"
        "### BREAKING CHANGES\n\n* use ES Module export instead of CommonJS (#69)\n"
        "* Use the `esModule` option.\n"  # a guide's step: the new way only
    )
    got = [(i.category, i.context) for i in analyze_section(body, package="lib")]
    assert got == [("breaking", "BREAKING CHANGES")]


def test_an_item_about_the_package_s_module_format_is_one_the_api_diff_reads():
    from depbot.planner.unnamed import module_format_item

    for text in ("Remove subpath exports from *package.json*.", "yargs is now ESM first",
                 "The package is now pure ESM.", "Drop CommonJS build",
                 "remove deep requires (daf72b8)", "`exports` map closes `lib/*`",
                 "Breaking: changed exports. See README.", "Remove React Native extra files."):  # fmt: skip
        assert module_format_item(text), text
    # the format of what a tool emits, a behaviour, a demand on the code: not the entry points
    for text in ("use ES Module export instead of CommonJS (3c7bf2c)",
                 "drop commonjs support and require node 18",
                 "command names are not derived from modules passed to `command`.",
                 "Make millisecond timer namespace specific",
                 "changed exports of `parse` to return a promise",
                 "Remove support for config files", "Remove legacy `.babelrc` files"):  # fmt: skip
        assert not module_format_item(text), text


def test_a_person_s_breaking_changes_heading_declares_its_items_too():
    # stop 54 (a blind-batch false safe): "### Breaking Changes\nAliases always need to be
    # provided as an array" read as an item naming no API, so the update was not_affected
    from depbot.changelogs.items import DECLARED_BREAKS

    for heading in (
        "BREAKING CHANGES",
        "⚠ BREAKING CHANGES",
        "Breaking Changes",
        "Breaking change",
    ):
        assert DECLARED_BREAKS.match(heading), heading
    for heading in ("Breaking news", "Features", "Non-breaking changes"):
        assert not DECLARED_BREAKS.match(heading), heading
