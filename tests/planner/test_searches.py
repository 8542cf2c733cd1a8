"""The planner's search budget: over the cap, the new major's and the target's items first."""

from __future__ import annotations

from depbot.planner.records import Candidate, Entry
from depbot.planner.searches import within_budget


def _pair(symbol: str, version: str, kind: str = "name") -> tuple[Candidate, Entry]:
    return Candidate(symbol, kind), Entry("c1.s1", version)


def test_over_the_cap_the_majors_and_the_targets_items_are_searched_first():
    flood = [_pair(f"old_{i}", f"5.{i}.1") for i in range(6)]  # patch releases, each naming one
    major, target = _pair("connect", "6.0"), _pair("Schema.set", "v6.2.0")
    behaviour = _pair("find", "6.0", "behaviour")
    cands = [*flood, behaviour, major, target]
    got, asks, pending = within_budget(
        cands, {}, [], "lib", 3, False, frozenset({"6.0.0", "6.2.0"})
    )
    assert (asks, pending) == ([], False)
    assert [c.symbol for c, _ in got] == ["connect", "Schema.set", "old_0"]
    unranked, _, _ = within_budget(cands, {}, [], "lib", 3, False)
    assert [c.symbol for c, _ in unranked] == ["old_0", "old_1", "old_2"]  # changelog order


def test_over_the_cap_a_calls_shape_is_searched_before_the_bare_names_a_guide_lists():
    guide = [_pair(f"lib.helper{i}", "2.0") for i in range(5)]  # a guide's list of names
    shape = _pair("lib.stub", "3.0", "positional")  # "calling `lib.stub` with three arguments"
    got, _, _ = within_budget(
        [*guide, shape], {}, [], "lib", 3, False, frozenset({"2.0.0", "3.0.0"})
    )
    assert [c.symbol for c, _ in got] == ["lib.stub", "lib.helper0", "lib.helper1"]


def test_over_the_cap_a_kebab_case_key_is_prefiltered_like_a_name_and_named_in_the_pattern():
    # before: the prefilter left out a kebab-case rule name and then dropped it unsearched
    from depbot.agent.accounting import names_in
    from depbot.planner.records import CodeHit, SearchResult
    from depbot.planner.searches import prefilter_patterns

    cands = [_pair(f"gone{i}", "5.0") for i in range(4)]
    cands.append(_pair("prefer-query-object-syntax", "5.0", "config_key"))
    hit = (CodeHit("h1", "a.js", 3),)
    (pattern,) = prefilter_patterns(cands)
    assert names_in(pattern, {"prefer-query-object-syntax"})  # the accounting sees it asked
    line = "```\nh1 .eslintrc.js:3: 'prefer-query-object-syntax': 'error',\n```"
    code = {pattern: SearchResult(hit, total=1, lines=line)}
    got, asks, _ = within_budget(cands, code, [], "lib", 3, True, frozenset({"5.0.0"}))
    assert asks == [] and [c.symbol for c, _ in got] == ["prefer-query-object-syntax"]
    code = {pattern: SearchResult(hit, total=1, lines="```\nh1 a.js:3: x = gone1-1\n```")}
    got, _, _ = within_budget(cands, code, [], "lib", 3, True, frozenset({"5.0.0"}))
    assert [c.symbol for c, _ in got] == ["gone1"]  # `gone1-1` in code is the name gone1
