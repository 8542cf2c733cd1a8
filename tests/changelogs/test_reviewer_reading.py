"""Reading notes like a reviewer (#15 §3): deprecations, moved names, required arguments in
any wording, what is never an API name, dropped configuration and module paths."""

from __future__ import annotations

import pytest

from depbot.changelogs.breaking import analyze_section
from tests.helpers.changelogs import cands


def read(body: str) -> list[tuple[str, list[tuple]]]:
    return [
        (it.category, [(c.symbol, c.kind) + ((c.of,) if c.of else ()) for c in it.candidates])
        for it in analyze_section(body, package="tidewave", import_names=("tidewave",))
    ]


@pytest.mark.parametrize(
    "body",
    [
        "- `old_fetch` is deprecated and will be removed in a future release.",
        "- `Client.get_all` is deprecated in favour of `Client.list`.",
        "- `parse_date` now emits a `DeprecationWarning`; use `parse_datetime`.",
        "- `open_ledger()` has been renamed to `load_ledger()`; the old name is deprecated and still works.",
        "- `OldClient` is deprecated and replaced by `Client`.",
        "### Breaking changes\n\n- `legacy_mode` is deprecated and will be removed in 3.0.",
    ],
)
def test_deprecated_is_not_removed(body):
    ((category, found),) = read(body)
    assert category == "deprecation" and found == []


def test_deprecated_names_are_kept_apart_for_also_deprecated():
    (it,) = analyze_section("- `Client.get_all` is deprecated in favour of `Client.list`.")
    assert [c.symbol for c in it.deprecates] == ["Client.get_all"] and it.candidates == ()


def test_deprecated_since_and_removed_is_a_removal():
    assert read("- `parse_date`, deprecated since 1.2, has been removed.") == [
        ("breaking", [("parse_date", "name")])
    ]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "- `tidewave.contrib.s3` was moved to the separate package `tidewave-s3`.",
            [("tidewave.contrib.s3", "module_path"), ("tidewave.contrib.s3", "name")],
        ),
        ("- The `S3Sink` class has been extracted into `tidewave-s3`.", [("S3Sink", "name")]),
        (
            "- `render_pdf` now lives in the `tidewave-pdf` package.",
            [("tidewave.render_pdf", "module_path"), ("render_pdf", "name")],
        ),
        ("- The `S3Store` backend was split out into `tidewave-s3`.", [("S3Store", "name")]),
    ],
)
def test_a_name_moved_to_another_distribution_breaks_its_imports(body, expected):
    assert read(body) == [("breaking", expected)]


def test_extracted_into_a_helper_is_not_a_move():
    assert read("- The parsing of `parse_row` was extracted into a helper for speed.") == []


@pytest.mark.parametrize(
    "text",
    [
        "`connect()` must now be passed a `timeout`.",
        "The `timeout` argument of `connect()` is no longer optional.",
        "`connect()`: `timeout` is now required.",
        "The `timeout` argument of `connect()` became mandatory.",
        "`connect()` calls always require the `timeout` argument.",
        "`connect()` must pass `timeout`.",
    ],
)
def test_required_arguments_in_any_wording(text):
    assert cands(text) == [("connect", "required_arg", "timeout")]


def test_references_versions_and_own_source_files_are_not_api_names():
    assert cands(
        "Removed `old_api` (#123, GH-45, `abc1234`). See `src/pkg/core.py`, `lib/x.js`, `v2.0.0`."
    ) == [("old_api", "name")]
    assert cands("Dropped the e.g. GitHub hook; i.e. no more CamelCase words.") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Support for `setup.cfg` configuration was removed.", [("setup.cfg", "config_file")]),
        (
            "`.babelrc` files are no longer supported; use `babel.config.json`.",
            [(".babelrc", "config_file")],
        ),
        (
            "The `line_width` key in `pyproject.toml` is no longer read.",
            [("line_width", "config_key", "pyproject.toml")],
        ),
    ],
)
def test_dropped_configuration_files_and_keys(text, expected):
    assert cands(text) == expected


def test_a_removed_module_path_is_searched_as_a_module():
    assert cands("`pkg.sub` removed.") == [("pkg.sub", "module_path"), ("pkg.sub", "name")]


@pytest.mark.parametrize(
    "body",
    [
        "- Return a promise instead of taking a callback.",
        "- The callback API was removed; every function returns a promise.",
        "- Callbacks are no longer supported.",
        "- Promise API instead of callbacks.",
    ],
)
def test_callbacks_to_promises_with_no_name_is_the_packages_own_export_unawaited(body):
    ((category, found),) = read(body)
    assert category == "breaking"
    assert ("tidewave", "async") in found


def test_callbacks_to_promises_of_a_named_function_searches_that_function():
    ((category, found),) = read("- `tidewave.copy()` no longer takes a callback.")
    assert category == "breaking" and found == [("tidewave.copy", "async")]


@pytest.mark.parametrize(
    "body", ["Full rewrite.  Essentially a brand new module.", "- Rewritten from scratch."]
)
def test_a_rewrite_is_announced_as_breaking(body):
    ((category, _found),) = read(body)
    assert category == "breaking"


def test_a_removed_callback_option_is_still_a_removed_option_not_a_promise_api():
    ((category, found),) = read("- Remove the `onDone` callback option.")
    assert category == "breaking" and found == [("onDone", "name")]


def test_methods_of_a_made_object_and_every_subject_of_the_verb_are_searched():
    """ "`Store().load` and `Store().dump` return ``data`` instead of a tuple": both methods
    changed behaviour, named as methods of the object a call makes."""
    ((category, found),) = read(
        "- `Store().load` and `Store().dump` return ``data`` instead of a ``(data, errors)`` tuple."
    )
    assert category == "breaking"
    assert found == [("Store.load", "behaviour"), ("Store.dump", "behaviour")]
