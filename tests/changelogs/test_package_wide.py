"""Items about the package as a whole (#27): "remove callback support" reaches every call of
its API that passes a callback, whatever ticket key stands in front of it; and the package's
own module is never a name its notes removed."""

from __future__ import annotations

from depbot.changelogs.breaking import analyze_section
from depbot.changelogs.candidates import extract_candidates


def test_callback_support_removed_yields_the_package_wide_callback_search():
    (item,) = analyze_section("* **NODE-4522:** remove callback support (#3499)\n", package="lib")
    assert item.category == "breaking"
    assert ("lib", "callback_arg") in {(c.symbol, c.kind) for c in item.candidates}


def test_an_issue_key_is_not_a_runtime_but_a_runtime_item_stays_one():
    items = analyze_section(
        "### BREAKING CHANGES\n\n"
        "* **NODE-4436:** update minimum supported node version (#3496)\n"
        "* **NODE-4950:** remove bson-ext import (#3523)\n",
        package="lib",
    )
    assert [i.category for i in items] == ["runtime", "breaking"]


def test_the_package_itself_is_not_a_removed_name():
    cands, _ = extract_candidates(
        "singleton usage of yargs `yargs.foo`, `yargs().argv`, has been removed.",
        context="BREAKING CHANGES",
        package="yargs",
    )
    assert "yargs" not in {c.symbol for c in cands if c.kind == "name"}
    assert "yargs.foo" in {c.symbol for c in cands}


def test_a_removal_table_gives_its_first_column_and_takes_the_second_as_replacements():
    table = (
        "| Removed in v5 | Official Alternative | | :------ | :------ | "
        "| Sequelize.prototype.Op | Sequelize.Op | | findById, findByPrimary | findByPk | "
        "| all | findAll |"
    )
    cands, news = extract_candidates(table, context="Removed aliases", package="orm")
    assert [c.symbol for c in cands] == ["Sequelize.prototype.Op", "findById", "findByPrimary"]
    assert news == ["Sequelize.Op", "findByPk", "findAll"]
    # any other table is read as before
    other, _ = extract_candidates("| Option | Default | | --- | --- | | `retries` | 3 |")
    assert "Option" not in {c.symbol for c in other}


def test_a_headline_that_says_removed_before_a_colon_removes_what_follows():
    cands, news = extract_candidates(
        "Model aliases removed: `findById` and `findByPrimary` (use `findByPk`).",
        context="Breaking changes",
        package="orm",
    )
    assert [c.symbol for c in cands] == ["findById", "findByPrimary"] and news == ["findByPk"]


def test_a_kebab_case_rule_or_option_removed_is_a_configuration_key():
    cands, _ = extract_candidates(
        "Removed: the `indentation` and `string-quotes` rules deprecated in 15.0.0.",
        context="16.0.0",
        package="lint",
    )
    kinds = {(c.symbol, c.kind) for c in cands}
    assert ("string-quotes", "config_key") in kinds and ("indentation", "name") in kinds
    # not a removal, or no configuration noun: nothing of the kind
    none, _ = extract_candidates("The `string-quotes` rule now accepts `backtick`.", package="lint")
    assert ("string-quotes", "config_key") not in {(c.symbol, c.kind) for c in none}


def test_a_runtime_statement_naming_scoped_packages_is_a_runtime_item():
    from depbot.changelogs.items import categorize

    # the spans name the vendor's packages, not an API of the package: still a runtime floor
    text = ("**Node.js**: We now officially support Node 14.18+ for our CJS package. This applies "
            "to `@acme/node` and all of our server-side SDKs (`@acme/next`). We no longer "
            "support Node 8.")  # fmt: skip
    assert categorize(text, "Breaking changes", "") == "runtime"
    # a range of versions in a span is no API either
    ranged = "minimum node.js versions now `^20.19.0 || ^22.12.0 || >=23`."
    assert categorize(ranged, "BREAKING CHANGES", "") == "runtime"
    # a span that names code keeps it an item to read
    assert categorize("Node 18+ is required for `fetchAll`.", "Breaking changes", "") == "breaking"


def test_a_re_export_that_ends_removes_the_name():
    cands, _ = extract_candidates("`makeSchema` is no longer re-exported.", package="lib")
    assert [(c.symbol, c.kind) for c in cands] == [("makeSchema", "name")]


def test_a_guide_s_table_of_contents_is_read_where_its_sections_stand():
    from depbot.changelogs.breaking import analyze_section

    body = (
        "### Breaking\n\n"
        "- [Removal of class-based integrations](./MIGRATION.md#removal-of-class-based)\n"
        "- [Removal of `Severity` Enum](#removal-of-severity-enum)\n\n"
        "#### Removal of `Severity` Enum\n\nThe `Severity` enum has been removed.\n"
    )
    texts = [i.text for i in analyze_section(body, package="lib")]
    assert texts == ["Removal of `Severity` Enum", "The `Severity` enum has been removed."]
    # a link to another site is not a contents entry: the item stays
    other = analyze_section(
        "### Breaking\n\n- [Removed `walk`](https://x.org/pr/1)\n", package="lib"
    )
    assert [i.text for i in other] == ["Removed `walk`"]


def test_a_span_with_alternatives_names_each_of_them():
    # stop 51: "`scales.[x/y]Axes` arrays were removed" removes two names, not none
    cands, _ = extract_candidates(
        "`scales.[x/y]Axes` arrays were removed.",
        context="Breaking changes",
        package="charts",
    )
    assert [c.symbol for c in cands] == ["scales.xAxes", "scales.yAxes"]
    cands, _ = extract_candidates("`{get,set}Value` were removed", package="lib")
    assert [c.symbol for c in cands] == ["getValue", "setValue"]
    cands, _ = extract_candidates("`a[0]` was removed", package="lib")  # an index, not a choice
    assert cands == []
