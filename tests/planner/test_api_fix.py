"""#29: a break seen in the released code gets a fix that says the replacement where the diff
shows it, not 'adapt the uses'. The `where` lines are those join.py writes."""

from __future__ import annotations

import pytest

from depbot.planner.records import CodeHit, Finding
from depbot.planner.released import api_fix


def finding(kind: str, where: str, *symbols: str) -> Finding:
    return Finding("a1", "strong", symbols, f"pkg-2.0.0 wheel · pkg/mod.py · {where}", (), kind)


@pytest.mark.parametrize(
    ("f", "says"),
    [
        (finding("param_now_required", "yaml.load now requires Loader", "yaml.load", "Loader"),
         "Pass `Loader` in every call of `yaml.load()` listed"),
        (finding("param_kind_changed",
                 "BaseSchema.dump parameter many: positional or keyword → keyword-only",
                 "marshmallow.schema.BaseSchema.dump"),
         "Pass `many=` by keyword in the calls of `dump()` listed"),
        (finding("param_renamed", "Retry.__init__ renamed parameter method_whitelist → "
                 "allowed_methods", "urllib3.Retry"),
         "Pass `allowed_methods=` instead of `method_whitelist=` to `Retry()`"),
        (finding("kind_changed", "rq.job.Job.id changed kind (function → attribute)",
                 "rq.job.Job.id"),
         "Read `id` as an attribute, without calling it"),
        (finding("default_removed", "webpack-merge has no default export", "webpack-merge"),
         "Import a named export of pkg instead of its default export"),
        (finding("option_values_narrowed", "the chunksSortMode option of html-webpack-plugin "
                 "allows only the strings 'auto', 'manual'", "chunksSortMode"),
         "Give `chunksSortMode` one of the values pkg 2.0.0 still allows ('auto', 'manual')"),
        # stop 51: what the module object is; an interface a `declare module` block augments
        (finding("not_constructible", "pkg's module object is no constructor now", "pkg"),
         "Call pkg's module object without `new`: in 2.0.0 it is an arrow function"),
        (finding("now_class", "pkg's module object is a class now", "pkg"),
         "Make pkg's module object with `new`: in 2.0.0 it is a class"),
        (Finding("a1", "strong", ("pkg",), "pkg-2.0.0 tarball · . · pkg no longer exports "
                 "DefaultRootState", (CodeHit("h1", "src/a.d.ts", 5, why="this code augments "
                 "pkg:DefaultRootState (declare module)"),), "export_removed"),
         "Drop `DefaultRootState` from the `declare module 'pkg'` block"),
    ],
)  # fmt: skip
def test_the_fix_names_the_replacement(f, says):
    text = api_fix([f], "pkg", "2.0.0")
    assert says in text and text.endswith("Then run the tests against pkg 2.0.0.")
    assert "Adapt the uses" not in text


def test_without_a_replacement_it_says_to_adapt_the_uses():
    text = api_fix([finding("removed", "pkg.old is gone", "pkg.old")], "pkg", "2.0.0")
    assert text.startswith("Adapt the uses listed to the API of pkg 2.0.0")
