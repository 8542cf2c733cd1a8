"""Every text transform is linear (or capped): hostile notes cannot buy minutes of CPU.

The issue's case: a 120 KB breaking bullet of nested ``![`` took 213 s with a 30 s budget,
and the Markdown cleaning alone was super-linear on ``"[" * 50000 + "x" + "](" * 20000``.
Two properties hold it: each transform handles a 24 KB adversarial input of every family
below in well under the time a quadratic one needs (seconds at this size; linear ones take
milliseconds), and every regular expression of the package searches 12 KB of each family
quickly. A run over its limit is confirmed by growth (tests/helpers/growth): a loaded
machine slows linear code down, but does not make it grow 16x for 4x the input.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import depbot
from depbot.changelogs import breaking, items, sections, spans, trim
from depbot.output import mdsafe
from depbot.pipeline.run import triage
from tests.helpers.growth import growth_if_slow
from tests.helpers.injection import TRUTH, injection_world
from tests.helpers.worlds import OLDLIB_CHANGES, settings_for

FAMILIES: dict[str, Callable[[int], str]] = {
    "issue-brackets": lambda n: "[" * (n * 5 // 7) + "x" + "](" * (n // 7),
    "images": lambda n: "![" * (n // 2),
    "nested-images": lambda n: "![" * (n // 4) + "x" + "](y)" * (n // 8),
    "open-links": lambda n: "[a](" * (n // 4),
    "rst-links": lambda n: "`a <" * (n // 4),
    "roles": lambda n: ":func:`" * (n // 7),
    "underscores": lambda n: "_" * n + "x",
    "letters": lambda n: "a" * n + "!",
    "backticks": lambda n: "``a`" * (n // 4),
    "stars": lambda n: "*" * (n // 2) + "em" + "*" * (n // 2),
    "www": lambda n: "www." * (n // 4),
    "urls": lambda n: "http://a" * (n // 8),
    "tags": lambda n: "<a " * (n // 3),
    "entities": lambda n: "&#" * (n // 2),
    "parens": lambda n: "f(" * (n // 2),
    "dotted": lambda n: "a." * (n // 2),
    "words": lambda n: "deprecated removed default export now requires the x argument " * (n // 64),
    "no-longer": lambda n: "no longer " * (n // 10),
    "quotes": lambda n: "> " * (n // 2) + "quote",
    "lines": lambda n: "- x\n  " * (n // 6),
}

TRANSFORMS: dict[str, Callable[[str], object]] = {
    "mdsafe.neutralize": mdsafe.neutralize,
    "mdsafe.neutralize_line": mdsafe.neutralize_line,
    "items.clean": items.clean,
    "items.split_items": items.split_items,
    "items.sentences": items.sentences,
    "items.code_spans": items.code_spans,
    "items.categorize": lambda s: items.categorize(s, s, s),
    "spans.span_positions": spans.span_positions,
    "breaking.extract_candidates": lambda s: breaking.extract_candidates(s, context=s),
    "breaking.analyze_section": lambda s: breaking.analyze_section("- " + s),
    "sections.parse_sections": lambda s: sections.parse_sections(
        "# 2.0.0\n\n- " + s + "\n\n# 1.0.0\n", "x", ecosystem="pip"
    ),
    "trim.deprecation_notes": trim.deprecation_notes,
}

SIZE = 24_000
LIMIT_S = 1.0  # a quadratic transform needs several seconds at this size; linear ones ~0.05 s


@pytest.mark.parametrize("name", sorted(TRANSFORMS))
def test_each_transform_is_linear_on_every_hostile_family(name):
    fn = TRANSFORMS[name]
    slow = {}
    for family, make in FAMILIES.items():
        growth = growth_if_slow(fn, make, SIZE, LIMIT_S)
        if growth is not None:
            slow[family] = f"{growth}x from {SIZE // 4} to {SIZE} characters"
    assert slow == {}, f"{name} is super-linear on {slow}"


def _package_patterns() -> dict[str, re.Pattern[str]]:
    found: dict[str, re.Pattern[str]] = {}

    def collect(value: object, where: str) -> None:
        if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
            found.setdefault(value.pattern, value)
            found[value.pattern] = value
            names[value.pattern] = where
        elif isinstance(value, (list, tuple, frozenset, set)):
            for v in value:
                collect(v, where)
        elif isinstance(value, dict):
            for v in value.values():
                collect(v, where)

    names: dict[str, str] = {}
    for info in pkgutil.walk_packages(depbot.__path__, "depbot."):
        if info.name.endswith(("__main__", ".actions")):
            continue  # they run the CLI on import
        mod = importlib.import_module(info.name)
        source = Path(mod.__file__ or "").read_text(encoding="utf-8")
        for key, value in vars(mod).items():
            collect(value, f"{info.name}.{key}")
            if isinstance(value, re.Pattern) and not _searched_anywhere(key, source):
                anchored.add(value.pattern)
    _package_patterns.names = names  # type: ignore[attr-defined]
    return found


anchored: set[str] = set()  # patterns their module only ever uses with match / fullmatch


def _searched_anywhere(name: str, source: str) -> bool:
    """Whether the module hands pattern ``name`` to anything but ``match``/``fullmatch``."""
    uses = re.findall(rf"\b{re.escape(name)}\b(\.\w+)?", source)
    return any(use not in (".match", ".fullmatch", ".pattern") for use in uses[1:])


def test_every_regular_expression_of_the_package_is_linear():
    patterns = _package_patterns()
    names = _package_patterns.names  # type: ignore[attr-defined]
    assert len(patterns) > 150  # the walk found the package's patterns
    slow = []
    for pattern, rx in patterns.items():
        use = rx.match if pattern in anchored else rx.search
        for family, make in FAMILIES.items():
            growth = growth_if_slow(use, make, 12_000, 0.5)  # quadratic: seconds on 12 KB
            if growth is not None:
                slow.append(f"{names[pattern]} on {family}: {growth}x from 3 KB to 12 KB")
                break
    assert slow == []


def test_a_120_kb_nested_image_bullet_fits_a_30_second_budget(tmp_path):
    """The whole triage, parsing and draft rendering included, well inside DEPBOT_MAX_SECONDS."""
    world = injection_world(tmp_path, "", "none")
    bullet = "- `oldlib.legacy()` was removed " + "![" * 60_000 + "\n"
    path = world.upstream / "pip" / "oldlib" / "CHANGELOG.md"
    path.write_text(OLDLIB_CHANGES.replace("## 1.5.0", bullet + "\n## 1.5.0"))
    t0 = time.monotonic()
    with world.serve() as up:
        from depbot.models.rules import RulesModel

        result = triage(
            settings_for(up, max_seconds=30.0), repo=world.repo, updates=world.updates,
            model=RulesModel(), out_dir=tmp_path / "out",
        )  # fmt: skip
    took = time.monotonic() - t0
    assert took < 30.0
    verdicts = {v.update.package: v.verdict for v in result.verdicts}
    assert verdicts == TRUTH
