"""The Python API diff over real released code (the scenarios' dist/) and synthetic pairs."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from depbot.apidiff import diff_releases
from depbot.ecosystems.pip.api.deprecations import removal_version
from tests.helpers.paths import ROOT, SHARED_SCENARIOS

SCENARIOS = ROOT / "tests" / "scenarios"
SHARED = SHARED_SCENARIOS


def _dist(scenario: str, package: str) -> Path:
    for base in (SCENARIOS, SHARED):
        folder = base / scenario / "upstream" / "pip" / package / "dist"
        if folder.is_dir():
            return folder
    pytest.skip(f"{scenario}: no released code here")


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def _timed(old: Path, new: Path):
    started = time.perf_counter()
    diff = diff_releases("pip", old, new, old_label=old.name, new_label=new.name)
    print(f"{old.parent.parent.name} {old.name}→{new.name}: {time.perf_counter() - started:.3f}s")
    return diff


def test_urllib3_retry_lost_method_whitelist():
    dist = _dist("pip-urllib3-retry", "urllib3")
    diff = _timed(dist / "1.26.18", dist / "2.0.7")
    lines = {c.line() for c in diff.changes}
    assert (
        "param_removed: urllib3.util.retry.Retry.__init__ (method_whitelist) · urllib3/util/retry.py"
        in lines
    )
    assert any(c.kind == "removed" and c.path == "urllib3.get_host" for c in diff.changes)
    assert not any(c.kind == "base_removed" and c.detail == "object" for c in diff.changes)
    assert not any("._" in c.path.replace(".__", "") for c in diff.changes)  # public paths only
    removal = {d.path: d.removal for d in diff.deprecated}
    assert removal["urllib3.response.BaseHTTPResponse.getheaders"] == "2.1.0"
    assert diff.notes == [] and diff.stats["objects"] > 1000


def test_pyyaml_load_needs_loader():
    dist = _dist("pip-pyyaml-load", "PyYAML")
    diff = _timed(dist / "5.4.1", dist / "6.0.1")
    assert any(
        c.kind == "param_now_required" and c.path == "yaml.load" and c.detail == "Loader"
        for c in diff.changes
    )


def test_moved_but_reexported_is_not_removed(tmp_path):
    old = _write(
        tmp_path / "old",
        {
            "pkg/__init__.py": "from pkg.util import helper\n",
            "pkg/util.py": "def helper(a, b=1):\n    pass\n",
        },
    )
    new = _write(
        tmp_path / "new",
        {
            "pkg/__init__.py": "from pkg._impl import helper\n",
            "pkg/util.py": "from pkg._impl import helper\n",
            "pkg/_impl.py": "def helper(a):\n    pass\n",
        },
    )
    diff = diff_releases("pip", old, new)
    assert not [c for c in diff.changes if c.kind == "removed"]
    assert {(c.kind, c.path, c.detail) for c in diff.changes} >= {
        ("param_removed", "pkg.util.helper", "b")
    }


def test_kwargs_absorbs_a_removed_keyword(tmp_path):
    old = _write(tmp_path / "old", {"pkg/__init__.py": "def f(a, *, retries=3):\n    pass\n"})
    new = _write(tmp_path / "new", {"pkg/__init__.py": "def f(a, **kwargs):\n    pass\n"})
    assert diff_releases("pip", old, new).changes == []


def test_rename_and_deprecations(tmp_path):
    old = _write(tmp_path / "old", {"pkg/__init__.py": "def g(name):\n    pass\nOLD = 1\n"})
    new = _write(
        tmp_path / "new",
        {
            "pkg/__init__.py": (
                "import warnings\n"
                "from typing_extensions import deprecated\n"
                "def g(label):\n"
                "    warnings.warn('g() is deprecated and will be removed in 3.0', DeprecationWarning)\n"
                "@deprecated('use g; removed in version 4.1')\n"
                "def h():\n    pass\n"
                "def __getattr__(name):\n"
                "    if name == 'OLD':\n        return 1\n"
                "    raise AttributeError(name)\n"
            )
        },
    )
    diff = diff_releases("pip", old, new)
    assert [(c.kind, c.detail) for c in diff.changes] == [("param_renamed", "name → label")]
    found = {d.path: (d.category, d.removal, d.lazy) for d in diff.deprecated}
    assert found == {
        "pkg.g": ("DeprecationWarning", "3.0", False),
        "pkg.h": ("@deprecated", "4.1", False),
        "pkg.OLD": ("lazy", "", True),
    }


def test_a_stub_that_does_not_parse_is_a_note(tmp_path):
    files = {"pkg/__init__.py": "def f(a):\n    pass\n", "pkg/extra.pyi": "def broken(:\n"}
    old = _write(tmp_path / "old", {**files, "pkg/gone.py": "def x():\n    pass\n"})
    new = _write(tmp_path / "new", files)
    diff = diff_releases("pip", old, new)
    assert any("new/pkg/extra.pyi: does not parse" in note for note in diff.notes)
    assert [c.path for c in diff.changes] == ["pkg.gone"]


def test_removal_version_in_prose():
    assert removal_version("will be removed in urllib3 v2.1.0.") == "2.1.0"
    assert removal_version("will be removed in a future version") == ""


def test_a_module_of_100000_defs_is_not_loaded_and_says_so(tmp_path):
    body = "".join(f"def f{i}(a, b=1):\n    pass\n" for i in range(100_000))
    old = _write(tmp_path / "old", {"big/__init__.py": body})
    new = _write(tmp_path / "new", {"big/__init__.py": body.replace("def f7(a, b=1)", "def f7(a)")})
    diff = diff_releases("pip", old, new)
    assert diff.changes == [] and diff.stats.get("incomplete") == 1  # never a "clean" diff
    assert any("were not compared" in n for n in diff.notes), diff.notes


def test_a_reexport_of_another_package_gone_is_a_removal(tmp_path):
    old = _write(tmp_path / "old", {
        "webkit/__init__.py": "from tmplkit import Safe, quote\nfrom .app import App\n",
        "webkit/app.py": "class App:\n    pass\n",
        "webkit/_impl.py": "from tmplkit import Hidden\n",
    })  # fmt: skip
    new = _write(tmp_path / "new", {
        "webkit/__init__.py": "from tmplkit import quote\nfrom .app import App\n",
        "webkit/app.py": "class App:\n    pass\n",
        "webkit/_impl.py": "\n",
    })  # fmt: skip
    diff = diff_releases("pip", old, new)
    removed = {(c.path, c.detail, c.where) for c in diff.changes if c.kind == "removed"}
    assert removed == {("webkit.Safe", "re-export", "webkit/__init__.py")}


def test_names_an_old_module_getattr_served_and_the_new_one_lacks_are_removed(tmp_path):
    getattr_old = (
        "def deprecate(*a):\n    pass\n\n"
        "def __getattr__(name):\n"
        "    old = {'SMOOTH': 'LANCZOS', 'SHARP': 'NEAREST'}\n"
        "    if name in old:\n"
        "        deprecate(name, 10, 'use Resample instead')\n"
        "        return old[name]\n"
        "    if name == 'KIND':\n        return 1\n"
        "    raise AttributeError(f'no attribute {name}')\n"
    )
    old = _write(tmp_path / "old", {
        "imgkit/__init__.py": "", "imgkit/image.py": "LANCZOS = 1\nNEAREST = 0\n" + getattr_old,
    })  # fmt: skip
    new = _write(tmp_path / "new", {
        "imgkit/__init__.py": "",
        "imgkit/image.py": "LANCZOS = 1\nNEAREST = 0\n\ndef __getattr__(name):\n"
                           "    if name == 'KIND':\n        return 1\n    raise AttributeError(name)\n",
    })  # fmt: skip
    diff = diff_releases("pip", old, new)
    removed = {c.path for c in diff.changes if c.detail == "served by __getattr__"}
    assert removed == {"imgkit.image.SMOOTH", "imgkit.image.SHARP"}  # not messages, not KIND


def test_a_name_getattr_only_raises_for_is_removed_not_served(tmp_path):
    old = _write(tmp_path / "old", {
        "datakit/__init__.py": "def load_city(): ...\ndef load_sea(): ...\n",
    })  # fmt: skip
    new = _write(tmp_path / "new", {
        "datakit/__init__.py": "def load_sea(): ...\n\n\ndef __getattr__(name):\n"
                               "    if name == 'load_city':\n"
                               "        msg = 'load_city was removed in 2.0: ethical problems'\n"
                               "        raise ImportError(msg)\n"
                               "    raise AttributeError(name)\n",
    })  # fmt: skip
    diff = diff_releases("pip", old, new)
    assert [(c.kind, c.path) for c in diff.changes] == [("removed", "datakit.load_city")]
    assert [d.path for d in diff.deprecated] == []  # a removal stub is no lazy name


def test_a_class_served_from_its_new_place_by_getattr_is_compared_there(tmp_path):
    old = _write(tmp_path / "old", {
        "ormkit/__init__.py": "class BaseQuery:\n"
                              "    def page(self, number=None, size=None, strict=True):\n"
                              "        return number\n",
    })  # fmt: skip
    new = _write(tmp_path / "new", {
        "ormkit/__init__.py": "import importlib\n\n_moved = {'BaseQuery': '.query.Query'}\n\n\n"
                              "def __getattr__(name):\n    if name in _moved:\n"
                              "        path = _moved[name]\n"
                              "        module, _, attr = path.rpartition('.')\n"
                              "        return getattr(importlib.import_module(module, __name__), attr)\n"
                              "    raise AttributeError(name)\n",
        "ormkit/query.py": "class Query:\n"
                           "    def page(self, *, number=None, size=None, strict=True):\n"
                           "        return number\n",
    })  # fmt: skip
    diff = diff_releases("pip", old, new)
    got = {(c.kind, c.path, c.detail.split(":")[0], c.position) for c in diff.changes}
    assert ("param_kind_changed", "ormkit.BaseQuery.page", "number", 0) in got
    assert ("param_kind_changed", "ormkit.BaseQuery.page", "strict", 2) in got
    assert not [c for c in diff.changes if c.kind == "removed"]  # served, so not gone
    assert [d.path for d in diff.deprecated if d.lazy] == ["ormkit.BaseQuery"]


def test_an_alias_to_a_module_outside_the_release_does_not_stop_the_diff(tmp_path):
    # #29: SQLAlchemy 2.1's `sqlalchemy.testing.mock` is `from unittest import mock`, where
    # 1.4 had a module: griffe could not resolve the alias and api_diff crashed (the trial on
    # microblog: "1 api_diff crashed (AliasResolutionError)")
    old = _write(tmp_path / "old", {"pkg/__init__.py": "def gone():\n    pass\n",
                                    "pkg/testing/__init__.py": "",
                                    "pkg/testing/mock.py": "def patch():\n    pass\n"})  # fmt: skip
    new = _write(tmp_path / "new", {"pkg/__init__.py": "\n",
                                    "pkg/testing/__init__.py": "from unittest import mock\n"})  # fmt: skip
    diff = diff_releases("pip", old, new, old_label="old", new_label="new")
    assert "removed: pkg.gone · pkg/__init__.py" in [c.line() for c in diff.changes]
