"""The use-check of an API diff against the checkout's imports and uses (pure)."""

from __future__ import annotations

from depbot.apidiff.join import Query, join, queries
from depbot.records.api import ApiChange, ApiDiff, Deprecation
from depbot.search.import_sites import ImportReport, ImportSite
from depbot.symbols.facts import SymbolHit, SymbolResult

WHEEL = "urllib3-2.0.7 wheel"


def site(module: str, names: dict[str, str], *, style: str = "from", esm: bool | None = None,
         path: str = "app/http.py", line: int = 1) -> ImportSite:  # fmt: skip
    return ImportSite(path, line, 1, f"import {module}", module, module.split("/")[0], "",
                      names, style, esm, False)  # fmt: skip


def report(eco: str, *sites: ImportSite) -> ImportReport:
    return ImportReport(eco, "pkg", ["urllib3"], list(sites), sorted({s.path for s in sites}), "")


def diff(eco: str, *changes: ApiChange, deprecated: tuple[Deprecation, ...] = ()) -> ApiDiff:
    return ApiDiff(eco, "old", "new", list(changes), list(deprecated))


def hit(evidence: str = "strong", line: int = 12) -> SymbolHit:
    return SymbolHit("app/http.py", line, 5, "Retry(method_whitelist=x)", "code", evidence, "why")


RETRY = ApiChange("param_removed", "urllib3.util.retry.Retry.__init__", "method_whitelist",
                  "urllib3/util/retry.py")  # fmt: skip
GONE = ApiChange("removed", "urllib3.util.url.get_host", "", "urllib3/util/url.py")


def test_a_removed_keyword_the_code_passes_is_a_strong_finding():
    rep = report("pip", site("urllib3.util.retry", {"Retry": "Retry"}))
    d = diff("pip", RETRY, ApiChange("param_removed", "urllib3.other.f", "zzz"))
    wanted, notes = queries(d, rep, {"Retry", "method_whitelist"})
    q = Query("method_whitelist", "parameter", of="urllib3.util.retry.Retry.__init__")
    assert wanted == [q] and notes == []  # zzz is never written here: no search for it
    result = SymbolResult("method_whitelist", "parameter", [hit()], 1, False)
    (f,) = join(d, rep, {q: result}, WHEEL).findings
    assert f.where == (
        "urllib3-2.0.7 wheel · urllib3/util/retry.py · Retry.__init__ has no parameter "
        "method_whitelist"
    )
    assert f.source == "urllib3-2.0.7 wheel: urllib3/util/retry.py"
    assert f.strength == "strong" and f.hits == [hit()]


def test_an_imported_removed_name_needs_no_search_and_aliases_resolve():
    rep = report("pip", site("urllib3.util.url", {"gh": "get_host"}))
    wanted, _ = queries(diff("pip", GONE), rep, {"gh", "get_host"})
    assert wanted == []  # the import site itself is the use
    (f,) = join(diff("pip", GONE), rep, {}, WHEEL).findings
    assert f.kind == "removed" and isinstance(f.hits[0], ImportSite)
    # `import urllib3 as u; u.util.url.get_host()`: a name search, resolved by search_symbol
    rep2 = report("pip", site("urllib3", {"u": "*"}, style="import"))
    wanted2, _ = queries(diff("pip", GONE), rep2, {"u", "get_host"})
    assert wanted2 == [Query("urllib3.util.url.get_host", "name")]


def test_a_method_on_an_unknown_receiver_is_weak_and_unused_changes_are_dropped():
    rep = report("pip", site("urllib3", {"urllib3": "*"}, style="import"))
    q = Query("method_whitelist", "parameter", of="urllib3.util.retry.Retry.__init__")
    weak = SymbolResult("method_whitelist", "parameter", [hit("weak")], 1, False)
    (f,) = join(diff("pip", RETRY, GONE), rep, {q: weak}, WHEEL).findings
    assert f.strength == "weak"
    assert join(diff("pip", RETRY), rep, {}, WHEEL).findings == []


def test_a_required_parameter_is_searched_as_required_arg():
    change = ApiChange("param_now_required", "yaml.load", "Loader", "yaml/__init__.py")
    rep = report("pip", site("yaml", {"yaml": "*"}, style="import"))
    wanted, _ = queries(diff("pip", change), rep, {"yaml", "load"})
    assert wanted == [Query("yaml.load", "required_arg", arg="Loader")]


def test_deprecated_names_in_use_are_reported_apart_never_as_findings():
    dep = Deprecation("urllib3.util.retry.Retry", "DeprecationWarning", "use X", "3.0", "r.py")
    rep = report("pip", site("urllib3.util.retry", {"Retry": "Retry"}))
    out = join(diff("pip", deprecated=(dep,)), rep, {}, WHEEL)
    assert out.findings == [] and [d.strength for d in out.deprecated] == ["deprecated"]


def test_npm_esm_only_subpath_default_and_named_exports():
    place = "pkg-2.0.0 tarball · package.json · type"
    d = diff(
        "npm",
        ApiChange("became_esm_only", "pkg", "type: module", place),
        ApiChange("subpath_closed", "pkg/v4", "not in exports", place),
        ApiChange("default_removed", "pkg", "default export", "pkg-2.0.0 tarball · ."),
        ApiChange("export_removed", "pkg", "gone", "pkg-2.0.0 tarball · ."),
    )
    cjs = site("pkg", {"pkg": "*"}, style="require", esm=False, path="a.js")
    esm = site("pkg", {"p": "default", "gone": "gone"}, style="import", esm=True, path="b.mjs")
    deep = site("pkg/v4", {"v4": "*"}, style="require", esm=False, path="c.js")
    found = {
        f.kind: f for f in join(d, report("npm", cjs, esm, deep), {}, "pkg-2.0.0 tarball").findings
    }
    assert [h.path for h in found["became_esm_only"].hits] == ["a.js", "c.js"]
    assert [h.path for h in found["subpath_closed"].hits] == ["c.js"]
    assert [h.path for h in found["default_removed"].hits] == ["b.mjs"]
    assert [h.path for h in found["export_removed"].hits] == ["b.mjs"]
    assert found["became_esm_only"].where == place + " · pkg is an ES module only (type: module)"
    assert found["became_esm_only"].source == "pkg-2.0.0 tarball: package.json"


def test_npm_a_root_default_gone_asks_whether_the_required_module_is_called():
    gone = ApiChange("default_removed", "pkg", "default export", "new · .")
    cjs = site("pkg", {"merge": "*"}, style="require", esm=False, path="conf/a.js")
    wanted, _ = queries(diff("npm", gone), report("npm", cjs), set())
    assert wanted == [Query("pkg", "default_import")]
    called = SymbolHit("conf/a.js", 5, 1, "merge(common, {})", "code", "strong", "calls it")
    answers = {wanted[0]: SymbolResult("pkg", "default_import", [called], 1, False, {}, "")}
    found = join(diff("npm", gone), report("npm", cjs), answers, "pkg-2.0.0 tarball").findings
    assert [(h.path, h.line) for h in found[0].hits] == [("conf/a.js", 5)]
    # nothing asked when no require binds the module object, or the default stays
    named = site("pkg", {"merge": "merge"}, style="require", esm=False, path="conf/a.js")
    assert queries(diff("npm", gone), report("npm", named), set())[0] == []
    assert join(diff("npm", gone), report("npm", cjs), {}, "t").findings == []


def test_a_vanished_reexport_counts_only_where_imported_from_that_path():
    gone = ApiChange("removed", "pkg.hashkey", "re-export", "pkg/__init__.py")
    direct = site("pkg", {"hashkey": "hashkey"}, path="a.py")
    home = site("pkg.keys", {"hashkey": "hashkey"}, path="b.py")
    assert queries(diff("pip", gone), report("pip", direct, home), {"hashkey"})[0] == []
    found = join(diff("pip", gone), report("pip", direct, home), {}, WHEEL).findings
    assert [h.path for h in found[0].hits] == ["a.py"]


def test_a_removed_module_cites_each_import_statement_once():
    gone = ApiChange("removed", "urllib3.fields.html5", "", "urllib3/fields/html5.py")
    both = site("urllib3.fields.html5", {"DateField": "DateField", "EmailField": "EmailField"})
    found = join(diff("pip", gone), report("pip", both), {}, WHEEL).findings
    assert len(found[0].hits) == 1


def test_an_import_guarded_by_try_except_is_left_to_the_shim_aware_search():
    gone = ApiChange("removed", "urllib3.contextfunction", "", "urllib3/__init__.py")
    fallback = ImportSite("app/tags.py", 4, 5, "from urllib3 import contextfunction",
                          "urllib3", "urllib3", "", {"contextfunction": "contextfunction"},
                          "from", None, True, guarded=True)  # fmt: skip
    wanted, _ = queries(diff("pip", gone), report("pip", fallback), {"contextfunction"})
    assert wanted == [Query("urllib3.contextfunction", "name")]
    assert join(diff("pip", gone), report("pip", fallback), {}, WHEEL).findings == []


def test_parameters_made_keyword_only_ask_for_calls_passing_them_positionally():
    kw = [ApiChange("param_kind_changed", "urllib3.Pool.page",
                    f"{name}: positional or keyword → keyword-only", "pool.py", pos)
          for name, pos in (("size", 1), ("number", 0))]  # fmt: skip
    imported = site("urllib3", {"Pool": "Pool"})
    wanted, _ = queries(diff("pip", *kw), report("pip", imported), {"page"})
    assert wanted == [Query("urllib3.Pool.page", "positional", max_positional=0)]
    answers = {wanted[0]: SymbolResult("page", "positional", [hit()], 1, False, {}, "")}
    found = join(diff("pip", *kw), report("pip", imported), answers, WHEEL).findings
    assert [(f.detail.split(":")[0], len(f.hits)) for f in found] == [("number", 1)]


def test_npm_the_root_closed_is_used_by_imports_of_the_root_only():
    # stop 54: `exports` with no `.`; a subpath the map still lists is no use of that change
    place = "pkg-2.0.0 tarball · package.json · exports"
    d = diff("npm", ApiChange("subpath_closed", "pkg", "the root is not in exports", place))
    root = site("pkg", {"Upload": "Upload"}, style="import", esm=True, path="a.ts")
    deep = site("pkg/Upload.js", {"Upload": "default"}, style="import", esm=True, path="b.ts")
    found = join(d, report("npm", root, deep), {}, "pkg-2.0.0 tarball").findings
    assert [h.path for f in found for h in f.hits] == ["a.ts"]
