"""The use-check of an API diff against the checkout's imports and uses (pure)."""

from __future__ import annotations

from depbot.apidiff.join import Query, join, queries
from depbot.apidiff.records import ApiChange, ApiDiff, Deprecation
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
