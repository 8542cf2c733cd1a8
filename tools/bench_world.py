"""The dependencies, updates and upstream of ``tools/bench.py``'s generated week.

``make_deps(seed, n)`` gives ``n`` dependencies (pip and npm) with the week's update of each:
mostly patch bumps, some minor ones, and in every block of 100 updates ten major or
0.x-minor bumps whose notes carry breaking changes in the wording real changelogs use
(removed functions and options with backticked names, an ES-module-only release, runtime
support dropped); three of those ten are really affected (the code calls what was
removed, see ``bench_repo``), the other seven are not (the code does not use it; once in a
while a comment still names it). ``Dep.truth`` is the verdict a careful reviewer gives.

``write_upstream`` writes ``upstream/<eco>/<pkg>/`` for them (the layout of
``depbot.fakes.upstream``): a changelog file in one of several heading styles (Keep a
Changelog, plain Markdown, reStructuredText, ``### vX / date``), or GitHub releases only
(``releases.json``), or both, with older history and some long patch notes; ``meta.json``
names the GitHub repository.

Dependency ``i`` is built from ``(seed, i)`` alone, so the week of ``2n`` updates holds the
week of ``n`` as its first half (the scaling run measures growth, not a different week).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

FILES_PER_DEP = 5
BLOCK = 100  # per block of updates: BREAKING_PER_BLOCK breaking, AFFECTED_PER_BLOCK affected
BREAKING_PER_BLOCK = 10
AFFECTED_PER_BLOCK = 3

_PRE = (
    "velo quill brisk lumen orbit tessel kiln marl pylon ferro nimbus cobalt sable glint drift "
    "haven ember flint ridge spruce aster birch cinder delta fable garnet harbor iris jasper "
    "kestrel lattice mosaic nova onyx prism quartz raven summit tundra umber vortex willow "
    "yarrow zephyr alder bramble cask dune echo fern grove heron"
).split()
_SUF = (
    "cache store auth queue kit parse log http sql schema mail crypt img retry cli conf grid "
    "stream tz csv json yaml form router pool lock task metrics trace search"
).split()
VERBS = (
    "load save build render fetch parse format merge split resolve encode decode "
    "validate normalize publish collect refresh archive export import_ compute rank"
).split()
NOUNS = (
    "invoice order account user session report payment shipment ticket record batch token "
    "schedule profile message event customer product coupon refund audit cart address"
).split()
AREAS = (
    "billing orders accounts shipping catalog support reports notifications auth search "
    "checkout inventory analytics admin pricing"
).split()
_PROBLEMS = (
    "a crash when {x} is empty",
    "a race condition in `{X}.close()`",
    "wrong timezone offsets in `{x}` around DST changes",
    "a memory leak when the {x} pool is exhausted",
    "an off-by-one error in `{x}` pagination",
    "handling of non-ASCII {x} names",
    "a spurious warning when `{x}` is called twice",
    "incorrect type hints for `{x}`",
    "retries of idempotent {x} requests after a connection reset",
    "the `{x}` error message, which now names the offending field",
)
_ADDED = (
    "`{x}()` accepts an optional `timeout`.",
    "New `{X}.{x}()` method for batch use.",
    "Support for {x} streams.",
    "`{x}` can be configured through the `{XU}_MODE` environment variable.",
)
_CHORES = (
    "Bumped the development dependencies.",
    "Documentation: a new page on {x} recipes.",
    "CI runs on the latest LTS images.",
    "Internal: refactored the {x} module for readability.",
    "Test suite runs in parallel.",
    "Typo fixes in the docstrings of `{x}`.",
)
_STYLES = ("keepachangelog", "markdown", "rst", "history", "releases")


def _snake(*words: str) -> str:
    return "_".join(w.rstrip("_") for w in words)


def camel(*words: str) -> str:
    words = tuple(w.rstrip("_") for w in words)
    return words[0] + "".join(w.capitalize() for w in words[1:])


@dataclass
class Dep:
    """One dependency, its update and what its notes and the code say about it."""

    index: int
    eco: str
    name: str
    module: str  # pip import name / npm package name
    alias: str  # local name the code binds it to
    api: list[str]  # functions the code may call
    from_v: str
    to_v: str
    kind: str  # patch | minor | breaking
    affected: bool = False
    removed: list[tuple[str, str, str]] = field(default_factory=list)  # (kind, symbol, of)
    esm_only: bool = False
    style: str = "markdown"
    users: list[int] = field(default_factory=list)  # file slots that use it
    breakers: list[int] = field(default_factory=list)  # slots that call what the update removes
    truth: str = "not_affected"

    @property
    def key(self) -> str:
        return f"{self.eco}/{self.name}@{self.to_v}"


# --- dependencies and their updates --------------------------------------------------------


def _names(seed: int, n: int) -> list[tuple[str, str]]:
    combos = [(p, s) for p in _PRE for s in _SUF]
    random.Random(f"{seed}:names").shuffle(combos)
    out = []
    for i in range(n):
        p, s = combos[i % len(combos)]
        out.append((p, s if i < len(combos) else f"{s}{i // len(combos) + 1}"))
    return out


def _block_roles(seed: int, block: int) -> dict[int, str]:
    rng = random.Random(f"{seed}:block:{block}")
    picks = rng.sample(range(BLOCK), BREAKING_PER_BLOCK)
    return {p: ("affected" if j < AFFECTED_PER_BLOCK else "breaking") for j, p in enumerate(picks)}


def make_deps(seed: int, n: int) -> list[Dep]:
    names = _names(seed, n)
    deps = []
    for i in range(n):
        rng = random.Random(f"{seed}:dep:{i}")
        role = _block_roles(seed, i // BLOCK).get(i % BLOCK, "")
        eco = "pip" if rng.random() < 0.45 else "npm"
        p, s = names[i]
        if eco == "pip":
            name = f"{p}-{s}" if rng.random() < 0.6 else f"{p}{s}"
            module = name.replace("-", "_")
            alias = module
            api = [_snake(rng.choice(VERBS), rng.choice(NOUNS)) for _ in range(6)]
        else:
            name = f"@{p}/{s}" if rng.random() < 0.15 else f"{p}-{s}"
            module = name
            alias = camel(p, s)
            api = [camel(rng.choice(VERBS), rng.choice(NOUNS)) for _ in range(6)]
        api = list(dict.fromkeys(api))
        if role:
            kind = "breaking"
        else:
            kind = "minor" if rng.random() < 0.12 else "patch"
        from_v, to_v = _versions(rng, kind)
        dep = Dep(i, eco, name, module, alias, api, from_v, to_v, kind)
        dep.style = rng.choice(_STYLES)
        if kind == "breaking":
            _breaking(rng, dep, affected=role == "affected")
        # most dependencies are imported somewhere; a file slot below 5*(i+1) always exists
        if dep.affected or rng.random() < 0.8:
            k = rng.choice((1, 1, 2, 2, 3, 4, 6))
            dep.users = sorted({rng.randrange(FILES_PER_DEP * (i + 1)) for _ in range(k)})
            if dep.affected:
                dep.breakers = dep.users[: rng.choice((1, 1, 2))]
        elif dep.kind == "breaking":
            dep.users = []
        deps.append(dep)
    return deps


def _versions(rng: random.Random, kind: str) -> tuple[str, str]:
    if kind == "breaking" and rng.random() < 0.4:  # a 0.x minor bump
        m, p = rng.randint(2, 14), rng.randint(0, 6)
        return f"0.{m}.{p}", f"0.{m + 1}.{rng.randint(0, 2)}"
    major, minor, patch = rng.randint(1, 6), rng.randint(0, 24), rng.randint(0, 9)
    if kind == "patch":
        return f"{major}.{minor}.{patch}", f"{major}.{minor}.{patch + rng.choice((1, 1, 1, 2, 3))}"
    if kind == "minor":
        return f"{major}.{minor}.{patch}", f"{major}.{minor + 1}.{rng.choice((0, 0, 1))}"
    return f"{major}.{minor}.{patch}", f"{major + 1}.0.{rng.choice((0, 0, 1, 2))}"


def _breaking(rng: random.Random, dep: Dep, *, affected: bool) -> None:
    """Pick what the release removes; an affected dependency has the code call it."""
    dep.affected = affected
    dep.truth = "affected" if affected else "not_affected"
    py = dep.eco == "pip"
    verb, noun = rng.choice(VERBS), rng.choice(NOUNS)
    old = _snake("legacy", verb, noun) if rng.random() < 0.3 else _snake(verb, noun, "sync")
    if not py:
        old = camel(*old.split("_"))
    dep.removed.append(("name", old, ""))
    if rng.random() < 0.5:
        opt = rng.choice(("strict", "retries", "verify_ssl", "encoding", "legacy_mode"))
        dep.removed.append(("parameter", opt if py else camel(*opt.split("_")), dep.api[0]))
    if not py and rng.random() < 0.25:
        dep.esm_only = True


# --- changelogs -----------------------------------------------------------------------------


_CLASSES = "Client Pool Session Connection Reader Writer Cache Queue Parser Scheduler".split()


def _fill(rng: random.Random, template: str, dep: Dep) -> str:
    x = rng.choice(dep.api + [rng.choice(NOUNS)])
    env = dep.module.lstrip("@").replace("/", "_").replace("-", "_").upper()
    return template.format(x=x, X=rng.choice(_CLASSES), XU=env)


def _history(rng: random.Random, dep: Dep) -> list[tuple[str, dict[str, list[str]]]]:
    """(version, {heading: items}) newest first: the range, then some older releases."""
    fmaj, fmin, fpat = (int(x) for x in dep.from_v.split("."))
    tmaj, tmin, tpat = (int(x) for x in dep.to_v.split("."))
    in_range: list[str] = []
    if (fmaj, fmin) == (tmaj, tmin):
        in_range = [f"{tmaj}.{tmin}.{p}" for p in range(fpat + 1, tpat + 1)]
    else:
        if rng.random() < 0.4:
            in_range.append(f"{fmaj}.{fmin}.{fpat + 1}")  # a last fix on the old line
        in_range += [f"{tmaj}.{tmin}.{p}" for p in range(0, tpat + 1)]
    out = []
    first_new = f"{tmaj}.{tmin}.0"
    for v in reversed(in_range):
        if v == first_new and dep.kind == "breaking":
            out.append((v, _breaking_section(rng, dep)))
        elif v == first_new and dep.kind == "minor":
            out.append((v, _minor_section(rng, dep)))
        else:
            out.append((v, _patch_section(rng, dep)))
    older = [f"{fmaj}.{fmin}.{p}" for p in range(fpat, -1, -1)]
    older += [f"{fmaj}.{m}.0" for m in range(fmin - 1, max(-1, fmin - 6), -1)]
    for v in older[: rng.randint(3, 12)]:
        out.append((v, _patch_section(rng, dep, short=True)))
    return out


def _patch_section(rng: random.Random, dep: Dep, short: bool = False) -> dict[str, list[str]]:
    n_fix = rng.randint(1, 3) if short else rng.randint(1, 5)
    sec = {"Fixed": [f"Fixed {_fill(rng, rng.choice(_PROBLEMS), dep)} (#{rng.randint(100, 4000)})"
                     for _ in range(n_fix)]}  # fmt: skip
    if not short and rng.random() < 0.15:  # a long patch release
        sec["Fixed"] += [
            f"Fixed {_fill(rng, rng.choice(_PROBLEMS), dep)} (#{rng.randint(100, 4000)})"
            for _ in range(rng.randint(15, 35))
        ]
        sec["Internal"] = [_fill(rng, rng.choice(_CHORES), dep) for _ in range(rng.randint(5, 15))]
    return sec


def _minor_section(rng: random.Random, dep: Dep) -> dict[str, list[str]]:
    sec = {"Added": [_fill(rng, rng.choice(_ADDED), dep) for _ in range(rng.randint(1, 4))]}
    if rng.random() < 0.4:
        old, new = dep.api[-1], dep.api[0]
        sec["Deprecated"] = [
            f"`{old}()` is deprecated and will be removed in the next major release; "
            f"use `{new}()` instead."
        ]
    sec.update(_patch_section(rng, dep))
    return sec


def _breaking_section(rng: random.Random, dep: Dep) -> dict[str, list[str]]:
    items = []
    for kind, sym, of in dep.removed:
        if kind == "name":
            items.append(
                rng.choice(
                    (
                        f"`{sym}()` was removed; use `{dep.api[1]}()` instead. (#{rng.randint(100, 4000)})",
                        f"Removed `{sym}` in favor of `{dep.api[1]}`.",
                        f"The deprecated `{sym}()` function has been removed. Use `{dep.api[1]}()` instead.",
                    )
                )
            )
        else:
            items.append(
                rng.choice(
                    (
                        f"The `{sym}` argument of `{of}()` was removed; configure it on the client instead.",
                        f"`{of}()` no longer accepts `{sym}`; pass it to the constructor.",
                    )
                )
            )
    if dep.esm_only:
        items.append("This package is now pure ESM: it can no longer be loaded with `require()`.")
    if rng.random() < 0.6:
        items.append(
            "Python 3.8 is no longer supported."
            if dep.eco == "pip"
            else "Dropped support for Node.js 16; the minimum is Node.js 18."
        )
    sec = {"Breaking changes": items}
    sec["Added"] = [_fill(rng, rng.choice(_ADDED), dep) for _ in range(rng.randint(1, 3))]
    sec["Fixed"] = _patch_section(rng, dep)["Fixed"]
    return sec


def _date(rng: random.Random, age: int) -> str:
    day = 14 - min(age, 13) if age < 7 else max(1, 28 - age % 28)
    month = 6 if age < 7 else max(1, 5 - age // 28)
    return f"2024-{month:02d}-{day:02d}"


def _code(text: str, rst: bool) -> str:
    return text.replace("`", "``") if rst else text


def render_changelog(rng: random.Random, dep: Dep) -> tuple[str, str, list[dict]]:
    """(file name, file text, releases) for the dependency's style."""
    history = _history(rng, dep)
    style, rst = dep.style, dep.style == "rst"
    lines: list[str] = []
    releases = []
    if style == "keepachangelog":
        lines += ["# Changelog", "", "All notable changes to this project are documented here.",
                  "", "## [Unreleased]", ""]  # fmt: skip
    elif style == "markdown":
        lines += ["# Changes", ""]
    elif style == "rst":
        lines += ["Changelog", "=========", ""]
    elif style == "history":
        lines += ["History", "=======", ""]
    for age, (v, sec) in enumerate(history):
        date = _date(rng, age)
        head = {
            "keepachangelog": f"## [{v}] - {date}",
            "markdown": f"## {v} ({date})",
            "rst": f"{v} ({date})\n{'-' * len(f'{v} ({date})')}",
            "history": f"### v{v} / {date}",
            "releases": f"## {v}",
        }[style]
        body: list[str] = []
        for heading, items in sec.items():
            if style in ("keepachangelog", "releases"):
                body += [f"### {heading}", ""]
            elif rst:
                body += [f"**{heading}**", ""]
            elif heading != "Fixed" or len(sec) > 1:
                body += [f"**{heading}**", ""]
            bullet = "*" if style == "rst" else "-"
            body += [f"{bullet} {_code(item, rst)}" for item in items] + [""]
        if style == "releases" or (style != "releases" and age < 2 and rng.random() < 0.2):
            releases.append({"tag_name": f"v{v}", "name": f"v{v}", "body": "\n".join(body)})
        if style != "releases":
            lines += [head, ""] + body
    name = {"keepachangelog": "CHANGELOG.md", "markdown": "CHANGELOG.md", "rst": "CHANGES.rst",
            "history": "HISTORY.md", "releases": ""}[style]  # fmt: skip
    return name, "\n".join(lines).rstrip() + "\n", releases


# --- the upstream -------------------------------------------------------------------------


def write_upstream(upstream: Path, deps: list[Dep], seed: int) -> None:
    for dep in deps:
        rng = random.Random(f"{seed}:upstream:{dep.index}")
        folder = upstream / dep.eco / dep.name
        folder.mkdir(parents=True, exist_ok=True)
        owner = dep.name.lstrip("@").split("/")[0]
        repo = dep.name.split("/")[-1]
        url = f"https://github.com/{owner}-dev/{repo}"
        if dep.eco == "npm" and rng.random() < 0.5:
            url = f"git+{url}.git"
        # the repository tags its releases (as real ones do): the notes can be read at the tag
        meta = {"repository": url, "tags": [f"v{dep.to_v}", f"v{dep.from_v}"]}
        (folder / "meta.json").write_text(json.dumps(meta) + "\n", encoding="utf-8")
        name, text, releases = render_changelog(rng, dep)
        if name:
            target = folder / ("docs" if rng.random() < 0.05 else "") / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        if releases:
            (folder / "releases.json").write_text(json.dumps(releases, indent=1), encoding="utf-8")
        (folder / "README.md").write_text(f"# {dep.name}\n\nSee the changelog.\n", encoding="utf-8")
        (folder / "LICENSE").write_text("MIT License\n", encoding="utf-8")
