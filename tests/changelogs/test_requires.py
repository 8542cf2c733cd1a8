"""A use the release now requires (``changelogs.requires``, ``breaking.analyze_section``)."""

from __future__ import annotations

from depbot.changelogs.breaking import analyze_section
from depbot.changelogs.requires import example_imports, required_use_candidates, says_required

GUIDE = """### A Plugin is Now Required

Bundle Loader v4 now requires an accompanying webpack plugin to function properly:

```js
const { BundlePlugin } = require('bundle-loader')
module.exports = { plugins: [new BundlePlugin()] }
```
"""


def test_the_wordings_of_a_requirement():
    for text in (
        "v4 now requires an accompanying plugin",
        "A Plugin is Now Required",
        "You must now register the adapter",
        "The store now has to be created first",
    ):
        assert says_required(text), text
    assert not says_required("A plugin for webpack")
    assert not says_required("Requires no setup")


def test_names_the_example_imports_from_the_package_only():
    code = [
        "const { BundlePlugin, helper: h } = require('bundle-loader')",
        "import { Other } from 'other-pkg'",
        "import { type Opts, Wrap as W } from 'bundle-loader/wrap'",
        "-const { Gone } = require('bundle-loader')",  # a diff's removed line
        "import Def from 'bundle-loader/sub'",
        "const made = require('bundle-loader').make",
    ]
    assert example_imports(code, "bundle-loader") == [
        "BundlePlugin",
        "helper",
        "Wrap",
        "Def",
        "make",
    ]  # fmt: skip  (a type is no runtime requirement)
    assert example_imports(["from kit.ext import Adapter, Base"], "kit-dist", ("kit",)) == [
        "Adapter",
        "Base",
    ]
    assert example_imports(["const { A } = require('bundle-loader-extra')"], "bundle-loader") == []


def test_a_guide_section_yields_a_required_use_candidate():
    items = analyze_section(GUIDE, package="bundle-loader")
    cands = [c for it in items for c in it.candidates]
    assert [(c.symbol, c.kind) for c in cands] == [("BundlePlugin", "required_use")]


def test_no_requirement_without_the_wording_or_the_package_import():
    code = ["const { BundlePlugin } = require('bundle-loader')"]
    assert required_use_candidates("Faster builds", "Features", code, "bundle-loader") == []
    assert (
        required_use_candidates("now requires Node 18", "", ["node --version"], "bundle-loader")
        == []
    )
    assert required_use_candidates("now requires it", "", code, "") == []
    # required only of some uses: which uses, no search of names can tell
    conditional = (
        "the store's types now require that you must use `BundlePlugin` if you want to pass "
        "your own array of plugins:"
    )
    assert required_use_candidates(conditional, "", code, "bundle-loader") == []


def test_a_removal_with_its_replacement_in_the_example_stays_a_removal():
    body = (
        "- `oldPlugin()` was removed; you must now use the class:\n\n"
        "  ```js\n  const { BundlePlugin } = require('bundle-loader')\n  ```\n"
    )
    cands = [c for it in analyze_section(body, package="bundle-loader") for c in it.candidates]
    assert cands and all(c.kind != "required_use" for c in cands)
