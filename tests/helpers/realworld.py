"""The assembler script ``tools/realworld.py``, imported for the tests (tools/ is not a package),
and the corpus folder it builds from."""

from __future__ import annotations

import importlib.util
import sys

from tests.helpers.paths import ROOT

CORPUS = ROOT / "tests" / "realworld"


def load_tool():  # noqa: ANN201 - a module
    name = "realworld_tool"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / "realworld.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]
