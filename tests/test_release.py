"""#29: a release practice a user can pin to: one version, a changelog, tags, a pinned README."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys

import depbot
from tests.helpers.paths import ROOT


def test_the_version_is_written_once_and_installed_as_written():
    assert importlib.metadata.version("depbot") == depbot.__version__
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject
    assert not re.search(r'^version\s*=\s*"', pyproject, re.M)  # no static version


def test_the_changelog_has_the_current_release_and_the_check_passes():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## {re.escape(depbot.__version__)} — \d{{4}}-\d{{2}}-\d{{2}}$", text, re.M)
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "release.py")],
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0 and done.stdout.strip() == f"release {depbot.__version__}: ok"


def test_the_readme_workflow_pins_depbot_by_a_tag_or_a_sha():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    pins = re.findall(r"uses: [\w.-]+/depbot@(\S+)", text)
    major = depbot.__version__.split(".")[0]
    assert pins and all(re.fullmatch(rf"v{major}(\.\d+\.\d+)?|[0-9a-f]{{40}}", p) for p in pins)
