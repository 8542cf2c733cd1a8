"""The direction of imports between depbot's packages, and the package layout that carries it.

Each package is a stage of the pipeline and imports only the stages below it::

    core < records < ecosystems < github < updates < artifacts < changelogs < search < symbols
         < apidiff < planner < models < agent < output < pipeline < evals < cli

``fakes`` (loopback stand-ins for the registries, GitHub and a model server) stands beside
that order: it imports only ``core``, ``records`` and ``ecosystems``, and only ``evals`` and
``cli`` (and the tests) import it. ``depbot/__init__.py`` and ``depbot/__main__.py`` are the top face and may
import anything; a package may import from the top face only ``__version__``. ``depbot/demo/``
is the client code of an example, not depbot, and is not read.

Every import counts: at module level, inside functions, under ``if TYPE_CHECKING:``, relative
ones, and ``importlib.import_module`` / ``__import__`` of a literal name. No module may take
part in an import cycle, even through a function-level import.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.helpers.paths import ROOT

SRC = ROOT / "depbot"

LAYERS = (
    "core",
    "records",
    "ecosystems",
    "github",
    "updates",
    "artifacts",
    "changelogs",
    "search",
    "symbols",
    "apidiff",
    "planner",
    "models",
    "agent",
    "output",
    "pipeline",
    "evals",
    "cli",
)
RANK = {name: i for i, name in enumerate(LAYERS)}
FAKES = "fakes"
FAKES_MAY_IMPORT = frozenset({"core", "records", "ecosystems"})
MAY_IMPORT_FAKES = frozenset({"evals", "cli"})
PACKAGES = frozenset({*LAYERS, FAKES})
TOP = "the top face"  # depbot/__init__.py and depbot/__main__.py
TOP_FACE_CONSTANTS = frozenset({"__version__"})  # what a package may import from the top face
TOP_MODULES = frozenset({"__init__.py", "__main__.py"})
NOT_DEPBOT = frozenset({"demo", "__pycache__"})
ORDER = " < ".join(LAYERS)


@dataclass(frozen=True)
class Import:
    """One import statement (or one of its names), resolved to the module it loads."""

    source: str  # dotted name of the importing module
    file: str  # the importing file, relative to the folder that holds the package
    line: int
    target: str  # dotted name of the imported module: a submodule when one is named
    names: tuple[str, ...] = ()  # for ``from M import a, b``: the names that are not modules

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


# --- the checker ---------------------------------------------------------------------------


def find_modules(src: Path) -> dict[str, Path]:
    """Dotted name → file, for every module of the package folder ``src``."""
    modules: dict[str, Path] = {}
    for path in sorted(src.rglob("*.py")):
        rel = path.relative_to(src)
        if NOT_DEPBOT & set(rel.parts[:-1]):
            continue
        parts = [src.name, *rel.with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def package_of(module: str) -> str:
    """``depbot.search.code`` → ``search``; the top face for ``depbot`` and ``depbot.__main__``."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] == "__main__":
        return TOP
    return parts[1]


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    if node.level > 1:
        parts = parts[: -(node.level - 1)]
    return ".".join([*parts, *([node.module] if node.module else [])])


def _dynamic_name(node: ast.Call) -> str | None:
    """The literal module name of ``importlib.import_module("x")`` or ``__import__("x")``."""
    f = node.func
    called = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    if called not in ("import_module", "__import__") or not node.args:
        return None
    arg = node.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value[:1] != ".":
        return arg.value
    return None


def _targets(
    node: ast.AST, package: str, modules: dict[str, Path]
) -> Iterator[tuple[str, tuple[str, ...]]]:
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name, ()
    elif isinstance(node, ast.ImportFrom):
        base = _absolute(node, package)
        rest = []
        for alias in node.names:
            if f"{base}.{alias.name}" in modules:
                yield f"{base}.{alias.name}", ()
            else:
                rest.append(alias.name)
        if rest:
            yield base, tuple(rest)
    elif isinstance(node, ast.Call):
        name = _dynamic_name(node)
        if name:
            yield name, ()


def collect_imports(src: Path) -> list[Import]:
    """Every import of the package folder ``src`` that names a module of that package."""
    modules = find_modules(src)
    top = src.name
    found = []
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        file = path.relative_to(src.parent).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=file)
        for node in ast.walk(tree):
            for target, names in _targets(node, package, modules):
                if target == top or target.startswith(top + "."):
                    found.append(Import(name, file, node.lineno, target, names))
    return sorted(found, key=lambda i: (i.file, i.line, i.target))


def _why_not(src: str, dst: str, imp: Import) -> str:
    """Why package ``src`` may not import package ``dst`` here; empty when it may."""
    if dst == TOP:
        if imp.names and set(imp.names) <= TOP_FACE_CONSTANTS:
            return ""
        return (
            "the top face (depbot/__init__.py) is above every package; import from the "
            "package that defines the name"
        )
    if src not in PACKAGES:
        return f"{src} has no place in the order ({ORDER})"
    if dst not in PACKAGES:
        return f"{dst} is not a package of depbot"
    if src == FAKES:
        return "" if dst in FAKES_MAY_IMPORT else "fakes may import only core and records"
    if dst == FAKES:
        return "" if src in MAY_IMPORT_FAKES else "only evals and cli may import fakes"
    if RANK[dst] > RANK[src]:
        return f"{dst} is above {src} ({ORDER})"
    return ""


def layer_violations(imports: Iterable[Import]) -> list[str]:
    """``file:line: A imports B (module): why`` for every import against the direction."""
    found = []
    for imp in imports:
        src, dst = package_of(imp.source), package_of(imp.target)
        if src == TOP or src == dst:
            continue
        why = _why_not(src, dst, imp)
        if why:
            found.append(f"{imp.where}: {src} imports {dst} ({imp.target}): {why}")
    return found


def unknown_targets(imports: Iterable[Import], modules: Iterable[str]) -> list[str]:
    """Imports of a depbot module that does not exist (a name left over from a move)."""
    known = set(modules)
    return [
        f"{imp.where}: {package_of(imp.source)} imports {imp.target}, which is no module"
        for imp in imports
        if imp.target not in known
    ]


def import_cycles(imports: Iterable[Import]) -> list[str]:
    """One line per group of modules that import each other, with one cycle spelled out."""
    edges: dict[str, dict[str, Import]] = {}
    for imp in imports:
        if imp.target != imp.source:
            edges.setdefault(imp.source, {}).setdefault(imp.target, imp)
    found = []
    for group in _strongly_connected(edges):
        if len(group) > 1:
            start = min(group)
            steps = " → ".join(
                f"{i.target} ({i.where})" for i in _cycle_through(start, group, edges)
            )
            found.append(f"cycle among {', '.join(sorted(group))}: {start} → {steps}")
    return sorted(found)


def _strongly_connected(edges: dict[str, dict[str, Import]]) -> list[set[str]]:
    """Tarjan's algorithm over the module graph."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, {})):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            groups.append(group)

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def _cycle_through(
    start: str, group: set[str], edges: dict[str, dict[str, Import]]
) -> list[Import]:
    """The shortest chain of imports from ``start`` back to ``start`` inside ``group``."""
    came: dict[str, Import] = {}
    frontier = [start]
    while frontier:
        nxt_frontier = []
        for node in frontier:
            for nxt, imp in sorted(edges.get(node, {}).items()):
                if nxt not in group or nxt in came:
                    continue
                came[nxt] = imp
                if nxt == start:
                    chain = [imp]
                    while chain[-1].source != start:
                        chain.append(came[chain[-1].source])
                    return chain[::-1]
                nxt_frontier.append(nxt)
        frontier = nxt_frontier
    raise AssertionError(f"{start} is in a cycle but none was found")


def _report(problems: list[str]) -> str:
    return f"{len(problems)} problem(s):\n" + "\n".join(problems)


# --- depbot itself -------------------------------------------------------------------------


def test_imports_point_down_the_layers() -> None:
    problems = layer_violations(collect_imports(SRC))
    assert not problems, _report(problems)


def test_every_import_names_a_module() -> None:
    problems = unknown_targets(collect_imports(SRC), find_modules(SRC))
    assert not problems, _report(problems)


def test_no_import_cycles() -> None:
    problems = import_cycles(collect_imports(SRC))
    assert not problems, _report(problems)


def test_the_docstring_gives_the_order_of_the_layers() -> None:
    said = " ".join((__doc__ or "").split())  # the order line may wrap
    assert ORDER in said, f"write the order of LAYERS in this module's docstring: {ORDER}"


def test_every_package_folder_has_an_init() -> None:
    folders = {
        folder
        for path in find_modules(SRC).values()
        for folder in path.parents
        if folder == SRC or SRC in folder.parents
    }
    missing = sorted(
        f.relative_to(ROOT).as_posix() for f in folders if not (f / "__init__.py").is_file()
    )
    assert not missing, f"package folders without __init__.py: {missing}"


def test_top_level_holds_only_the_packages_and_the_top_face() -> None:
    stray = sorted(p.name for p in SRC.glob("*.py") if p.name not in TOP_MODULES)
    assert not stray, f"stray top-level modules in depbot/ (move them into a package): {stray}"
    folders = {
        p.name
        for p in SRC.iterdir()
        if p.is_dir() and p.name not in NOT_DEPBOT and any(p.rglob("*.py"))
    }
    assert folders - PACKAGES == set(), f"packages with no place in the order: {folders - PACKAGES}"
    assert PACKAGES - folders == set(), (
        f"packages in the order but not in depbot/: {PACKAGES - folders}"
    )


# --- the checker catches what it should ----------------------------------------------------


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "depbot" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "depbot"


def test_checker_reports_an_upward_import_a_fakes_import_and_a_cycle(tmp_path: Path) -> None:
    src = _tree(
        tmp_path,
        {
            "__init__.py": "from depbot.records import y\n",  # the top face: anything
            "__main__.py": "import depbot.cli.b\n",
            "core/__init__.py": "",
            "core/a.py": (
                "from typing import TYPE_CHECKING\n"
                "\n"
                "if TYPE_CHECKING:\n"
                "    from depbot.cli import b\n"  # upward, even if only for types
            ),
            "records/__init__.py": "",
            "records/x.py": "from . import y\n",
            "records/y.py": "def f():\n    from depbot.records.x import g\n",  # closes a cycle
            "models/__init__.py": "",
            "models/m.py": "import importlib\n\nimportlib.import_module('depbot.records.y')\n",
            "fakes/__init__.py": "",
            "fakes/f.py": "from ..records import x\nimport depbot.models.m\n",  # models: not allowed
            "cli/__init__.py": "",
            "cli/b.py": (
                "from depbot import __version__\n"  # allowed: a constant of the top face
                "from depbot.fakes import f\n"  # allowed: cli may use fakes
                "from depbot.records import x\n"
                "\n"
                "def run():\n"
                "    from depbot import make_model\n"  # not allowed: the top face
            ),
            "demo/repo/app.py": "from depbot.cli import b\n",  # client code: not read
        },
    )
    imports = collect_imports(src)
    assert {(i.source, i.target) for i in imports} >= {
        ("depbot.fakes.f", "depbot.records.x"),  # relative, two levels
        ("depbot.records.x", "depbot.records.y"),  # relative, a submodule by name
        ("depbot.models.m", "depbot.records.y"),  # import_module with a literal
    }
    assert layer_violations(imports) == [
        "depbot/cli/b.py:6: cli imports the top face (depbot): the top face (depbot/__init__.py) "
        "is above every package; import from the package that defines the name",
        f"depbot/core/a.py:4: core imports cli (depbot.cli.b): cli is above core ({ORDER})",
        "depbot/fakes/f.py:2: fakes imports models (depbot.models.m): fakes may import only "
        "core and records",
    ]
    assert import_cycles(imports) == [
        "cycle among depbot.records.x, depbot.records.y: depbot.records.x → "
        "depbot.records.y (depbot/records/x.py:1) → depbot.records.x (depbot/records/y.py:2)"
    ]
    assert unknown_targets(imports, find_modules(src)) == []


def test_checker_reports_an_import_of_a_module_that_is_gone(tmp_path: Path) -> None:
    src = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "search/__init__.py": "",
            "search/code.py": "def f():\n    from depbot.search_scope import check\n",
        },
    )
    assert unknown_targets(collect_imports(src), find_modules(src)) == [
        "depbot/search/code.py:2: search imports depbot.search_scope, which is no module"
    ]
