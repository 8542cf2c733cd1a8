"""setup.cfg and setup.py (read with ast, never run), through read_manifest and fuzzed."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from depbot.core.settings import Settings
from depbot.ecosystems.pip.setuptools import parse_setup_cfg_text, parse_setup_py_text
from depbot.updates.manifests.scan import find_manifests, read_manifest


def table(deps):
    return {d.name: (d.dependency_kind, d.spec, d.pinned) for d in deps}


SETUP_CFG = """\
[metadata]
name = acme-tools
version = 2.0.1

[options]
packages = find:
python_requires = >=3.9
install_requires =
    requests>=2.28,<3
    click==8.1.7
    importlib-metadata>=4; python_version < "3.10"
    tomli  # for old Pythons

[options.extras_require]
test =
    pytest>=7
    coverage[toml]==7.4.0
yaml = PyYAML>=6,<7

[flake8]
max-line-length = 100
"""


def test_setup_cfg_install_requires_and_extras(tmp_path):
    (tmp_path / "setup.cfg").write_text(SETUP_CFG)
    deps, warnings = read_manifest(tmp_path / "setup.cfg", tmp_path)
    assert table(deps) == {
        "requests": ("direct", "<3,>=2.28", None),
        "click": ("direct", "==8.1.7", "8.1.7"),
        "importlib-metadata": ("direct", ">=4", None),
        "tomli": ("direct", "", None),
        "pytest": ("dev", ">=7", None),
        "coverage": ("dev", "==7.4.0", "7.4.0"),
        "PyYAML": ("direct", "<7,>=6", None),
    }
    assert deps[1].line == 10 and all(d.manifest == "setup.cfg" for d in deps)
    assert "tomli has no pinned or locked version in setup.cfg: nothing to compare" in warnings
    assert "pytest has no pinned or locked version in setup.cfg: nothing to compare" in warnings
    assert not any(w.startswith("requests has") for w in warnings)


def test_broken_setup_cfg_is_one_warning():
    deps, warnings = parse_setup_cfg_text("install_requires = x\n[options\n", "lib/setup.cfg")
    assert deps == [] and len(warnings) == 1 and warnings[0].startswith("lib/setup.cfg: not valid")


SETUP_PY = """\
import os
from setuptools import find_packages, setup

HERE = os.path.dirname(__file__)
REQUIRES = [
    "attrs>=22.2",
    "rich==13.7.1",
]
TESTS = ["pytest>=8"]

def long_description():
    with open(os.path.join(HERE, "README.md")) as f:
        return f.read()

setup(
    name="acme-cli",
    version="0.3.0",
    long_description=long_description(),
    packages=find_packages(),
    install_requires=REQUIRES + ["typer>=0.9,<1"],
    extras_require={"dev": TESTS + ["ruff"], "s3": ["boto3==1.34.0"]},
)
"""


def test_setup_py_literals_and_module_level_names(tmp_path):
    (tmp_path / "setup.py").write_text(SETUP_PY)
    deps, warnings = read_manifest(tmp_path / "setup.py", tmp_path)
    assert table(deps) == {
        "attrs": ("direct", ">=22.2", None),
        "rich": ("direct", "==13.7.1", "13.7.1"),
        "typer": ("direct", "<1,>=0.9", None),
        "pytest": ("dev", ">=8", None),
        "ruff": ("dev", "", None),
        "boto3": ("direct", "==1.34.0", "1.34.0"),
    }
    assert deps[0].line == 6
    assert warnings == [
        "attrs has no pinned or locked version in setup.py: nothing to compare",
        "pytest has no pinned or locked version in setup.py: nothing to compare",
        "ruff has no pinned or locked version in setup.py: nothing to compare",
    ]


def test_setup_py_is_never_executed(tmp_path):
    marker = tmp_path / "ran"
    text = f"open({str(marker)!r}, 'w').write('x')\nimport setuptools\nsetuptools.setup(install_requires=['six==1.16.0'])\n"
    deps, _ = parse_setup_py_text(text, "setup.py")
    assert table(deps) == {"six": ("direct", "==1.16.0", "1.16.0")} and not marker.exists()


def test_computed_requirements_are_a_warning_not_a_guess():
    text = "from setuptools import setup\nsetup(install_requires=open('r.txt').read().split())\n"
    deps, warnings = parse_setup_py_text(text, "setup.py")
    assert deps == [] and warnings == ["setup.py: install_requires is computed; not read"]
    text = "setup(install_requires=A)\nA = B\nB = A\n"  # a cycle of names
    assert parse_setup_py_text(text, "setup.py")[0] == []


def test_broken_setup_py_is_one_line():
    deps, warnings = parse_setup_py_text("setup(install_requires=[\n", "pkg/setup.py")
    assert deps == [] and warnings == ["pkg/setup.py: not valid Python (line 1); not read"]
    _, warnings = parse_setup_py_text("x = 1\0", "setup.py")
    assert len(warnings) == 1 and warnings[0].startswith("setup.py: not valid Python")


def test_find_manifests_finds_setup_files_and_pipfiles(tmp_path):
    for name in ("setup.py", "setup.cfg", "Pipfile", "Pipfile.lock", "lib/setup.py", "poetry.lock"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    found = [p.relative_to(tmp_path).as_posix() for p in find_manifests(tmp_path, Settings())]
    assert found == ["Pipfile", "lib/setup.py", "setup.cfg", "setup.py"]


_PY_BITS = st.sampled_from(
    [
        "setup(",
        "install_requires=",
        "extras_require=",
        "[",
        "]",
        "{",
        "}",
        "(",
        ")",
        ",",
        ":",
        "'a>=1'",
        '"b==2"',
        "X",
        "X = ",
        "+",
        "\n",
        " ",
        "#",
        "\\",
        "'''",
        "lambda",
        "\0",
    ]
)


@settings(max_examples=150, deadline=1000, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=300), st.lists(_PY_BITS, max_size=60).map("".join)))
def test_setup_py_reader_never_raises(text):
    deps, warnings = parse_setup_py_text(text, "setup.py")
    assert isinstance(deps, list) and isinstance(warnings, list)


def test_setup_py_reader_survives_deep_nesting():
    for text in ("setup(install_requires=" + "[" * 5000, "X = " + "(" * 300 + ")" * 300):
        parse_setup_py_text(text, "setup.py")  # no exception


@settings(max_examples=100, deadline=1000)
@given(st.text(max_size=300))
def test_setup_cfg_reader_never_raises(text):
    deps, warnings = parse_setup_cfg_text("[options]\ninstall_requires =\n" + text, "setup.cfg")
    assert isinstance(deps, list) and isinstance(warnings, list)
