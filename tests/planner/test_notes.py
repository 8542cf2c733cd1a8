"""What a verdict says of a candidate and what it asks the reader to do (``planner.notes``)."""

from __future__ import annotations

from depbot.planner.notes import describe, fix
from depbot.planner.records import Candidate, Entry


def test_a_callable_that_takes_no_arguments_is_said_so_and_the_fix_is_to_drop_them():
    cand = Candidate("Zipper", "positional", max_positional=0)
    entry = Entry("c1.s1", "3.9.0", "remove arguments from `new Zipper()`", (cand,))
    assert describe(cand, "zipkit", "3.9.0", entry) == "`Zipper()` takes no arguments since 3.9.0"
    said = fix([(cand, entry)], "zipkit", "3.10.1")
    assert "without arguments" in said and "by keyword" not in said


def test_a_kind_of_value_whose_handling_changed_is_a_change_to_check_not_a_refusal():
    cand = Candidate("waitMs", "arg_kind", arg="when-number")
    entry = Entry("c1.s1", "2.0.0", "Changed behavior of `waitMs` when set to a number", (cand,))
    said = describe(cand, "slowkit", "2.0.0", entry)
    assert said.startswith("`waitMs` given a number behaves differently since 2.0.0")
    assert "no longer accepts" not in said
    assert "Check each number given to `waitMs`" in fix([(cand, entry)], "slowkit", "3.0.1")
