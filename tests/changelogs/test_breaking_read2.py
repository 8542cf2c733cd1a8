"""Reading changelog items, the read2 rules: default exports given in commit-style lines,
wildcards and rename lists, arguments made keyword-only, behaviour vs removal. Invented text."""

import pytest

from depbot.changelogs.breaking import analyze_section
from depbot.changelogs.candidates import extract_candidates
from depbot.changelogs.wording import Candidate
from tests.helpers.changelogs import cands


@pytest.mark.parametrize(
    "text",
    [
        "feat(makeClient): explicit import fetchkit (BREAKING CHANGE)",
        "removed callable default export; use the named export `makeClient`",
        "BREAKING CHANGE: removed the default export, use `makeClient`",
        "The module is no longer callable: import `makeClient` instead (BREAKING)",
    ],
)
def test_a_default_export_taken_away_in_any_wording(text):
    assert ("fetchkit", "default_import") in cands(text, package="fetchkit", names=("fetchkit",))


def test_an_explicit_import_wording_outside_a_break_is_nothing():
    items = analyze_section("- feat: support explicit import of plugins", package="fetchkit")
    assert not any(c.kind == "default_import" for i in items for c in i.candidates)


def test_a_rename_arrow_list_searches_the_old_names():
    body = (
        "- **BREAKING**: helpers renamed:\n"
        "  - `spanOfDays` → `daysInSpan`\n"
        "  - `toNowWords` -> `formatToNow`\n"
        "  - `en` → `en-US`\n"
    )
    items = analyze_section(body, package="timekit")
    found = [(c.symbol, c.kind) for i in items for c in i.candidates]
    assert ("spanOfDays", "name") in found and ("toNowWords", "name") in found
    assert not any(s in ("daysInSpan", "formatToNow", "en") for s, _ in found)
    assert any("daysInSpan" in i.replacements for i in items)


def test_a_rename_list_of_bare_names_gives_each_old_name():
    # stop 56: "getUniqueID -> getUniqueId" under "BREAKING CHANGE: capitalization changes"
    # was read as an announcement naming nothing, and the calls of getUniqueID never searched
    body = (
        "- BREAKING CHANGE: more capitalization changes for API calls (see below)\n"
        "  - getUniqueID -> getUniqueId\n"
        "  - isAirPlaneMode -> isAirplaneMode\n"
        "  - getDeviceTypeSync --> getDeviceType\n"
        "  - Node 10 -> 12\n"
    )
    items = analyze_section(body, package="devkit")
    found = {c.symbol for i in items for c in i.candidates}
    assert {"getUniqueID", "isAirPlaneMode", "getDeviceTypeSync"} <= found
    assert not found & {"getUniqueId", "isAirplaneMode", "getDeviceType", "Node"}
    assert any("getUniqueId" in i.replacements for i in items)


def test_an_arrow_in_a_feature_list_is_no_rename():
    items = analyze_section("### Features\n\n- `parse` → `parseStrict` fallback added\n")
    assert not any(i.candidates for i in items)


def test_a_wildcard_removal_is_a_prefix_candidate():
    text = "Breaking: removed `lax*` functions. Use `parse`, `parseAll` instead, now strict."
    assert cands(text, package="yamlet", names=("yamlet",)) == [("lax*", "name", "call")]


def test_a_label_before_removed_is_still_a_removal():
    assert cands("Breaking: removed `getLegacy` helper.") == [("getLegacy", "name")]
    assert ("proxyHost", "parameter") in cands(
        "refactor: remove legacy options `proxyHost` and `proxyTable` (BREAKING CHANGE)"
    )


def test_a_list_of_names_before_one_role_word_shares_it():
    found = cands("the `staticRoot`, `staticIndex` and `watchStatic` options were removed")
    assert found == [
        ("staticRoot", "parameter"),
        ("staticIndex", "parameter"),
        ("watchStatic", "parameter"),
    ]
    # a qualified name in the list stays a name
    assert ("pkg.Client", "name") in cands("`pkg.Client` and `timeout` option were removed")


@pytest.mark.parametrize(
    ("text", "narrowed"),
    [
        ("The check() function no longer accepts unsigned tickets by default.", True),
        ("`open_pool()` now rejects sizes below 4.", True),
        ("`Client.connect()` no longer accepts `timeout`; pass it to the constructor.", False),
        ("`read_blob()` now returns `str` instead of `bytes`.", False),
    ],
)
def test_narrowed_input_is_told_from_a_removed_parameter(text, narrowed):
    from depbot.changelogs.wording import narrows_input

    assert narrows_input(text) is narrowed


def test_no_longer_accepts_plain_words_is_a_behaviour_not_a_removal():
    text = "The check() function no longer accepts unsigned tickets by default."
    assert cands(text, package="ticketlib", names=("ticketlib",)) == [("check", "behaviour")]


def test_a_type_level_note_under_a_removal_heading_removes_nothing():
    body = (
        "### Removed and changed types\n\n"
        "- The `Store`, `StoreMap`, and `makeStore`/`setupStore` types/function take an "
        "additional `Preloaded` generic which defaults to `S`.\n"
        "- The `LegacyAction` type was removed; use `UnknownAction`.\n"
    )
    found = [
        (c.symbol, c.kind) for i in analyze_section(body, package="statekit") for c in i.candidates
    ]
    assert found == [("LegacyAction", "name")]


def test_the_owner_after_from_various_is_context_not_a_removed_name():
    found = cands("Removed the `app` parameter from various `Database` methods.")
    assert ("Database", "name") not in found and ("app", "parameter") in found


def test_a_return_type_change_of_a_named_call_is_a_behaviour_to_verify():
    body = (
        "### Changes\n\n"
        "- Return signatures as string not bytes (#88) by @dev\n"
        "- Update return type for sigkit.sign (#91) by @dev\n"
        "- Update README badges (#92) by @dev\n"
    )
    items = analyze_section(body, package="sigkit", import_names=("sigkit",))
    found = [(c.symbol, c.kind) for i in items for c in i.candidates]
    assert found == [("sigkit.sign", "behaviour")]


@pytest.mark.parametrize(
    "text",
    [
        "Dropped support for `manylinux2010` wheels; `manylinux2014` is now the minimum.",
        "Drop `musllinux_1_1` and `cp37` wheels",
        "Removed `setup.cfg`; the project now uses `pyproject.toml` only.",
        "**Breaking**: migrated build configuration from `setup.py` to `pyproject.toml`.",
    ],
)
def test_platform_tags_and_the_packages_own_build_files_are_not_searched(text):
    # #29: manylinux, pyproject.toml and setup.cfg were searched as symbols
    assert cands(text, package="fetchkit") == []


def test_a_tool_that_stops_reading_a_config_file_still_makes_the_file_a_use():
    text = "fetchkit no longer reads `setup.cfg`; use `fetchkit.toml`."
    assert cands(text, package="fetchkit") == [("setup.cfg", "config_file")]


@pytest.mark.parametrize(
    ("text", "gone", "new"),
    [
        ("`github.issues.createComment(...)` is now `github.rest.issues.createComment(...)`",
         ["github.issues.createComment"], ["github.rest.issues.createComment(...)"]),
        ("`config.timeout` is now called `config.deadline`", ["config.timeout"],
         ["config.deadline"]),
        ("`timeout` is now `30`", [], []),  # a value, not a rename
        # a declaration's keyword is no part of the name; "now" may follow the new name
        ("For example, `type WorkerPool` is called `type Pool` now.", ["WorkerPool"], ["Pool"]),
        ("The `fooBar` option is now named `fooBaz`.", ["fooBar"], ["fooBaz"]),
        ("`client.retry` is now `None` by default", [], []),
    ],
)  # fmt: skip
def test_a_rename_in_words_under_a_breaking_heading(text, gone, new):
    from depbot.changelogs.candidates import extract_candidates

    cands, news = extract_candidates(text, context="Breaking changes", package="p")
    assert [c.symbol for c in cands] == gone and news == new


def test_a_rename_in_words_is_a_breaking_item_of_a_major_s_section():
    # no breaking heading, no "breaking" word: "is now named" / "is called `x` now" say it
    body = (
        "- The `fooBar` option is now named `fooBaz`.\n- `type Pool` is called `type Swim` now.\n"
    )
    got = [(i.category, [c.symbol for c in i.candidates]) for i in analyze_section(body)]
    assert got == [("breaking", ["fooBar"]), ("breaking", ["Pool"])]


def test_module_shape_items_of_the_whole_package():
    # "no more default export", "remove deep requires": the package's import forms
    no_default = "For native ESM usage in Node.js only named exports are exposed, there is no more default export."
    assert cands(no_default, package="idgen", names=("idgen",)) == [("idgen", "default_import")]
    assert cands("remove deep requires (daf72b8)", package="idgen", names=("idgen",)) == [
        ("idgen", "subpath")
    ]
    assert ("idgen", "subpath") in cands(
        "Deep imports are no longer supported.", package="idgen", names=("idgen",)
    )
    assert cands("add deep imports for the locales", package="idgen", names=("idgen",)) == []


def test_a_callable_named_in_plain_words_before_the_kind_it_no_longer_takes():
    assert cands("remove deprecated v4 string parameter (88ce3ca)") == [
        ("v4", "arg_kind", "string")
    ]
    assert cands("Remove legacy `parse` string argument") == [("parse", "arg_kind", "string")]
    # adjectives and articles are not callables
    assert cands("remove the old function argument") == []
    assert cands("drop the first string argument") == []


def test_calls_with_a_number_of_arguments_that_now_fails():
    from depbot.changelogs.candidates import extract_candidates

    def counts(text):
        found, _ = extract_candidates(text, package="mocker", import_names=("mocker",))
        return [(c.symbol, c.kind, c.max_positional) for c in found]

    assert counts(
        "Calling `mocker.stub` with three arguments will throw an Error. This was deprecated"
        " with `mocker@2` and has been removed with `mocker@3`"
    ) == [("mocker.stub", "positional", 2)]
    assert counts("Calling `spy.reset()` with more than one argument is no longer supported.") == [
        ("spy.reset", "positional", 1)
    ]
    # no failure said: a note on how to call it, not a break
    assert counts("Calling `mocker.stub` with three arguments is documented below.") == []


def test_a_removed_call_of_the_packages_own_name_is_the_module_called():
    # `bodyParser()` of body-parser: the module itself, called (under any local name)
    text = "Remove deprecated `formParse()` combination middleware"
    assert cands(text, package="form-parse", names=("form-parse",)) == [
        ("form-parse", "default_import")
    ]
    # a member of it is a name as before
    assert cands("Remove `formParse.text()`", package="form-parse", names=("form-parse",)) == [
        ("formParse.text", "name")
    ]
    # a usage example in words, chained ("clikit().argv"), is not the module called
    usage = "singleton usage of clikit clikit.foo, clikit().argv, has been removed."
    assert ("clikit", "default_import") not in cands(usage, package="clikit", names=("clikit",))


def test_removal_of_a_name_makes_it_the_removed_one():
    # "of" usually marks context ("the `a` option of `f`"); after "removal" it is the object
    assert cands("Removal of `getCurrentHub()`") == [("getCurrentHub", "name")]
    assert cands("Removal of `Span` class export from SDK packages") == [("Span", "name")]


def test_support_dropped_for_passing_an_option_is_that_option_removed():
    text = "Dropped support for passing the `schemaDirectives` option to the `Server` constructor."
    assert cands(text) == [("schemaDirectives", "parameter", "Server")]
    assert cands("We no longer support passing the `verbose` flag to `run()`.") == [
        ("verbose", "parameter", "run")
    ]


def test_support_dropped_for_a_named_option_or_method_is_that_name_removed():
    # "support for" read as context: the item announced a break and named nothing to search
    assert cands("Dropped support for `headers` option") == [("headers", "parameter")]
    assert cands("Dropped support for `onLimitReached` method") == [
        ("onLimitReached", "name", "call")
    ]
    assert cands("Removed support for `referencesKey`, use a references object") == [
        ("referencesKey", "name")
    ]
    # a runtime, a language word or a value is no API name
    assert cands("Dropped support for `Node 10`") == []
    assert cands("Drop support for `async` functions") == []


def test_an_option_of_a_callable_that_now_behaves_otherwise_reaches_calls_passing_it():
    text = (
        "The `mocks` option of the `Gateway` constructor now uses another mocking library,"
        " which causes some breaking changes."
    )
    assert cands(text) == [("Gateway", "behaviour", "mocks")]


def test_this_change_removes_names_what_it_removes_and_not_what_it_introduces():
    text = (
        "Move incremental builds to a new `context` API This change removes the `incremental`"
        " and `watch` options as well as the `serve()` method, and introduces a new"
        " `context()` method."
    )
    assert cands(text) == [
        ("incremental", "parameter"),
        ("watch", "parameter"),
        ("serve", "name", "call"),  # "the `serve()` method"
    ]


def test_other_packages_a_release_drops_or_stops_publishing():
    hub = "`@kit/hub` has been removed and will no longer be published. Its exports moved to `@kit/core`."
    assert cands(hub, package="@kit/node", names=("@kit/node",)) == [("@kit/hub", "other_package")]
    caches = "The `kit-cache-redis` and `kit-cache-memcached` packages are no longer published."
    assert cands(caches, package="@kit/node", names=("@kit/node",)) == [
        ("kit-cache-redis", "other_package"),
        ("kit-cache-memcached", "other_package"),
    ]
    uploads = "Dropped built-in support for file uploads via the `kit-upload` package."
    assert cands(uploads, package="@kit/node", names=("@kit/node",)) == [
        ("kit-upload", "other_package")
    ]
    # a kebab name that is no package (a rule) is read as before
    assert cands("Removed `string-quotes` rule") == [("string-quotes", "config_key")]


def test_another_package_needed_at_a_lowest_version():
    from depbot.changelogs.floors import floor_candidates

    def floors(text):
        return [(c.symbol, c.arg) for c in floor_candidates(text, "gqlserver")]

    assert floors("Dropped support for versions of the `graphql` library prior to `15.3.0`.") == [
        ("graphql", "15.3.0")
    ]
    assert floors("TypeScript 4.1+ is now required") == [("typescript", "4.1")]
    assert floors("Now requires `react` 16.8 or newer.") == [("react", "16.8")]
    # stop 52: the lowest version said outright, or the version no longer supported
    assert floors("minimum support webpack version is `4`") == [("webpack", "4")]
    assert floors("The minimum supported version of `webpack` is now 5") == [("webpack", "5")]
    assert floors("`2` version of `less` is not supported anymore") == [("less", "3")]
    assert floors("Drop support for TypeScript 3.9") == [("typescript", "3.10")]
    assert floors("webpack 4 is no longer supported") == [("webpack", "5")]
    # a removal worded as a label or after the name; a list of versions drops the newest too
    assert floors("remove: support for koa 1") == [("koa", "2")]
    assert floors("dropped koa 1 support") == [("koa", "2")]
    assert floors("Drop support for ESLint v3 and v4 (2326231)") == [("eslint", "5")]
    assert floors("webpack@4 no longer supported") == [("webpack", "5")]
    assert floors("**Breaking change** Remove support rollup 1.x (actually some …)") == [
        ("rollup", "2")
    ]
    # runtimes are no packages a manifest installs
    assert floors("Drop support for Node v10") == []
    assert floors("Commander 9 requires Node.js v12.20.0 or higher") == []
    assert floors("Drop support for Node < 14; browsers need ES2018") == []


def test_a_telegraphic_removal_names_the_span_before_it():
    assert cands("`Watcher` removed from `useForm`") == [("Watcher", "name")]
    assert cands("Global static `Lib.raw` support dropped, use instance `lib.raw` instead.") == [
        ("Lib.raw", "name")
    ]
    # "`f` supports `x`" says what `f` takes: `f` is the owner, nothing went
    assert cands("`connect` supports `tls` now") == []
    assert cands("`connect` no longer accepts `timeout`") == [("timeout", "parameter", "connect")]


def test_the_form_an_example_says_a_call_is_now_is_its_replacement():
    text = "`embed('north')` is now `resize(w, h, { fit: 'contain' })`, `max()` is now `fit()`."
    assert cands(text, context="removed") == [("embed", "name"), ("max", "name")]


def test_a_sentence_of_what_was_added_removes_nothing():
    text = "Removed the `tint` function. Per-operation `tint` options added to `resize`."
    assert cands(text, context="removed") == [("tint", "name", "call")]


def test_a_conventional_scope_is_where_the_change_is_not_what_goes():
    text = '**MemoryServer:** remove "getConnectionString" ([9abf04f](https://x.test/c/9abf04f))'
    assert cands(text) == [("getConnectionString", "name")]
    assert cands("**auth:** `login()` removed") == [("login", "name")]


def test_names_a_sentence_calls_functions_are_called_not_option_keys():
    text = "Remove functions previously deprecated in v0.21.0: `tint`, `crop` and `embed`."
    assert cands(text) == [("tint", "name", "call"), ("crop", "name", "call"),
                           ("embed", "name", "call")]  # fmt: skip
    assert cands("Removed the `bar()` method and the `baz` option.") == [
        ("bar", "name", "call"),
        ("baz", "parameter"),
    ]


def test_an_event_no_longer_emitted_names_its_listeners():
    text = 'the Link will now emit a "connect_error" event instead of "error"'
    found, news = extract_candidates(text, context="BREAKING CHANGES", package="wirelink")
    assert [(c.symbol, c.kind, c.arg) for c in found] == [
        ("on", "literal_arg", "error"), ("once", "literal_arg", "error"),
        ("addListener", "literal_arg", "error"),
    ]  # fmt: skip
    assert news == ["connect_error"]
    assert [c.arg for c in cands_of('The pool no longer emits the "drain" or "idle" events.')] == [
        "drain", "drain", "drain", "idle", "idle", "idle"]  # fmt: skip
    assert [c.arg for c in cands_of('The "ready" event was removed; use `whenReady()`.')][:1] == [
        "ready"
    ]


def cands_of(text):
    return extract_candidates(text, context="Breaking", package="pkg")[0]


def test_a_rename_list_of_pairs_names_each_old_name():
    text = "Renamed function `typeof` to `typeOf`, `var` to `variance`, and `eval` to `evaluate`."
    found, news = extract_candidates(text, context="Breaking changes", package="calc")
    assert [c.symbol for c in found] == ["typeof", "var", "eval"]
    assert news == ["typeOf", "variance", "evaluate"]


def test_a_guide_step_for_code_using_an_api_names_it_when_its_diff_shows_the_old_call():
    body = (
        "## Static methods\n\n### If you were using `tip.setDefaults()`\n\n<details>\n"
        "<summary>View details</summary>\n\n```diff\n- tip.setDefaults({});\n"
        "+ tip.setDefaultProps({});\n```\n\n</details>\n\n"
        "### If you were using `tip.hideAll()`\n\nNothing to do.\n"
    )
    items = analyze_section(body, package="tip")
    assert [(i.category, [c.symbol for c in i.candidates]) for i in items] == [
        ("breaking", ["tip.setDefaults"])
    ]


@pytest.mark.parametrize(
    "text",
    [
        "- Make `strict: true` the default for Record#load: #2006",
        "- `strict: true` is now the default of Record#load",
    ],
)
def test_a_new_default_of_a_member_written_the_jsdoc_way_is_a_behaviour(text):
    items = analyze_section(text, package="rowkit")
    found = [(c.symbol, c.kind) for i in items for c in i.candidates]
    assert found == [("Record.load", "behaviour")]


def test_an_issue_number_is_no_member():
    items = analyze_section("- Make `strict: true` the default, PR#2006", package="rowkit")
    assert not any(c.symbol.endswith("2006") for i in items for c in i.candidates)


GUIDE_TABLE = """### Streamlined access to the job definition

All deprecated properties relating to the job definition have been removed
and are now accessed via `job.options`.

| Code | Description | How to solve |
| ---- | ----------- | ------------ |
| DEP012 | You are accessing the deprecated `job.spec` property. | Use `job.options.spec`. |
| DEP017 | You are accessing the deprecated `job.queuePath` property. | Use `job.options.url`. |
"""


def test_a_table_of_the_deprecated_names_a_removal_lists_is_what_is_removed():
    items = analyze_section(GUIDE_TABLE, package="jobkit")
    table = [i for i in items if i.text.startswith("|")]
    assert [i.category for i in table] == ["breaking"]
    assert [(c.symbol, c.kind) for c in table[0].candidates] == [
        ("job.spec", "name"),
        ("job.queuePath", "name"),
    ]


def test_a_table_of_deprecations_on_its_own_stays_deprecations():
    text = GUIDE_TABLE.replace(
        "have been removed\nand are now accessed", "are deprecated,\nand are"
    )
    items = analyze_section(text, package="jobkit")
    assert not any(c.symbol == "job.spec" for i in items for c in i.candidates)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("- remove deprecated compress option (3d6e9e9)", [("compress", "parameter")]),
        ("- remove unref method", [("unref", "name")]),
        # a plural names a group, an adjective names none
        ("- Removed deprecated logger functions.", []),
        ("- remove unused option", []),
    ],
)
def test_one_plain_word_before_the_kind_of_api_it_is_names_it(text, found):
    got = [
        (c.symbol, c.kind) for i in analyze_section(text, package="lesskit") for c in i.candidates
    ]
    assert got == found


def test_a_way_of_calling_removed_makes_the_callable_s_calls_ones_to_verify():
    # stop 53: "the variadic signature of `.listen()` has been removed" was an item no search
    # could clear; a call of `.listen()` may or may not be made that way, so each is to verify
    # (stop 54: but the calls passing an options object first, the kept form)
    from depbot.changelogs.wording import VARIADIC

    body = ("- The variadic argument signature of the `.listen()` method has been removed. "
            "This means that you can no longer call `.listen()` with a variable number of "
            "arguments.\n")  # fmt: skip
    got = [c for i in analyze_section(body, package="serverkit") for c in i.candidates]
    assert [(c.symbol, c.kind, c.arg) for c in got] == [("listen", "behaviour", VARIADIC)]
    # a callable removed outright stays a removed name
    got = [c for i in analyze_section("- Removed `closeAll()`.\n", package="serverkit")
           for c in i.candidates]  # fmt: skip
    assert [(c.symbol, c.kind) for c in got] == [("closeAll", "name")]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("`horizontalBar` chart type was removed. Use the `indexAxis` option", "horizontalBar"),
        ("The `legacy` mode is no longer supported.", "legacy"),
        ("Remove the `fast` preset.", "fast"),
        ("`DefaultRootState` type was removed", None),  # a TypeScript type, a name
        ("`scale` option was removed", None),  # an option
    ],
)
def test_a_string_value_the_release_no_longer_accepts(text, want):
    got = [c.symbol for i in analyze_section(f"- {text}\n", package="chartkit")
           for c in i.candidates if c.kind == "string_value"]  # fmt: skip
    assert got == ([want] if want else [])


@pytest.mark.parametrize(
    ("item", "want"),
    [
        ("move less-specific options to the `lessOptions` option, please look at README", True),
        ("options are now validated against a JSON schema", True),
        ("validate loader options", True),
        ("the `options` argument is now required", False),  # code giving none breaks
        ("new options `a` and `b` added", False),
    ],
)
def test_options_reshaped_as_a_whole_search_the_options_given(item, want):
    # stop 54: an item about the package's options, naming none, was one no search cleared
    body = f"### BREAKING CHANGES\n\n* {item}\n"
    got = [(c.symbol, c.kind) for i in analyze_section(body, package="pack-loader")
           for c in i.candidates]  # fmt: skip
    assert (("pack-loader", "options_given") in got) is want


def test_a_migration_s_change_any_instance_of_names_the_old_form():
    # stop 54: "Change any instance of `env.get(target, default)` to …" under a major's notes
    # read as no item at all: the old call form is what breaks
    body = ("## 6.0.0\n\nMigration from 5.x to 6.0.0 should be smooth. Change any instance of\n"
            "`env.get(target, default)` to `env.get(target).default(default)`. For example:\n")  # fmt: skip
    items = analyze_section(body, package="envkit")
    assert [(i.category, [(c.symbol, c.kind) for c in i.candidates]) for i in items] == [
        ("breaking", [("env.get(target, default)", "signature")])
    ]
    got = [(c.symbol, c.kind) for i in analyze_section("- Replace all uses of `foo()` with "
           "`bar()`.\n", package="x") for c in i.candidates]  # fmt: skip
    assert got == [("foo", "name")]


def test_a_kebab_case_key_renamed_is_a_configuration_key():
    # stop 54: "renamed `valid-describe` to `valid-describe-callback`" (an ESLint rule) gave
    # no candidate: a kebab-case name is no code name, but a key some config sets
    body = "### BREAKING CHANGES\n\n* **valid-describe:** renamed `valid-describe` to `valid-describe-callback`\n"
    got = [(c.symbol, c.kind) for i in analyze_section(body, package="lint-plugin-jest")
           for c in i.candidates]  # fmt: skip
    assert got == [("valid-describe", "config_key")]


def test_the_old_side_effect_import_users_should_change():
    # stop 54: both spans read as new; the old one is the root imported for its side effects
    body = ("### BREAKING CHANGES\n\n* Users who are using `import 'presetkit'` should change "
            "to `import 'presetkit/setup-jest'`\n")  # fmt: skip
    items = analyze_section(body, package="presetkit")
    assert [(c.symbol, c.kind) for i in items for c in i.candidates] == [
        ("presetkit", "side_effect_import")
    ]
    assert items[0].replacements == ("import 'presetkit/setup-jest'",)


def test_a_config_key_is_never_the_package_s_name_nor_the_new_name():
    # stop 54 (a blind-batch false draft): "The CLI helper tool is now called just
    # `eslint-config-prettier` instead of `eslint-config-prettier-check`" made the package's
    # own name a config key ("config" inside the name read as the noun), found in package.json
    body = ("- Changed: The CLI helper tool is now called just `lint-config-pretty` instead of "
            "`lint-config-pretty-check`.\n")  # fmt: skip
    got = [(c.symbol, c.kind) for i in analyze_section(body, package="lint-config-pretty")
           for c in i.candidates]  # fmt: skip
    assert ("lint-config-pretty", "config_key") not in got
    body = "- the `lint-config-pretty` and `max-depth` rules were removed\n"
    got = [(c.symbol, c.kind) for i in analyze_section(body, package="lint-config-pretty")
           for c in i.candidates]  # fmt: skip
    assert got == [("max-depth", "config_key")]


@pytest.mark.parametrize(
    "text",
    [
        "Update types of `load`, and remove arguments from `new Zipper()` (see #752)",
        "`new Zipper()` no longer accepts arguments",
        "`Zipper()` now takes no arguments",
    ],
)
def test_a_callable_that_takes_no_arguments_any_more_reaches_only_calls_passing_some(text):
    # before: an announced break that named nothing, or every call of it to verify
    assert extract_candidates(text, context="Breaking", package="pkg")[0] == [
        Candidate("Zipper", "positional", max_positional=0)
    ]


def test_a_callable_that_now_takes_arguments_is_not_one_that_takes_none():
    assert extract_candidates("`Zipper()` now takes arguments", package="pkg")[0] == []


def test_a_behaviour_changed_for_one_kind_of_value_reaches_what_is_given_that_kind():
    # "Changed behavior of `delayMs` when set to a number" named nothing to search
    text = "Changed behavior of `waitMs` when set to a number"
    assert extract_candidates(text, context="Breaking", package="pkg")[0] == [
        Candidate("waitMs", "arg_kind", arg="when-number")
    ]
    text = "Changed the behaviour of `parse()` when given a string"
    assert extract_candidates(text, context="Breaking", package="pkg")[0] == [
        Candidate("parse", "arg_kind", arg="when-string")
    ]


def test_a_before_and_after_example_names_the_values_the_old_form_passes():
    # "To upgrade, change: <old config> Into: <new>": the string values only the old block
    # passes are searched as literals (a config file's `extends` entries); an item without
    # such a pair, or with no word that the old form must go, gives none
    body = (
        "- Changed: All configs have been merged into one!\n\n  To upgrade, change:\n\n"
        '  ```json\n  {"extends": ["other", "prettier", "prettier/react", "plugin:x/y"]}\n  ```\n\n'
        '  Into:\n\n  ```json\n  {"extends": ["other", "prettier", "plugin:x/y"]}\n  ```\n'
    )
    (item,) = analyze_section(body)
    assert (item.category, [(c.symbol, c.kind) for c in item.candidates]) == (
        "breaking", [("prettier/react", "string_value")])  # fmt: skip
    optional = body.replace("To upgrade, change", "You can simplify")  # a way that also works
    assert analyze_section(optional) == []
    two = body.replace("To upgrade, change:", "To upgrade, see:").replace("Into:", "Or:")
    assert analyze_section(two) == []  # two examples, no before and after
    words = body.replace('"prettier/react"', '"react"')  # a plain word is not searched alone
    assert analyze_section(words) == []
