"""Tool argument validation (pure)."""

from depbot.agent.schema import validate
from depbot.agent.toolbox import SCHEMAS


def problems(tool, args):
    return validate(args, SCHEMAS[tool]["parameters"])


def test_valid_arguments_pass():
    assert problems("search_symbol", {"package": "x", "symbol": "a.b", "kind": "name"}) == []
    assert (
        problems(
            "conclude", {"package": "x", "verdict": "unknown", "reason": "r", "hit_ids": ["h1"]}
        )
        == []
    )


def test_each_problem_names_the_field_and_what_is_valid():
    assert problems("fetch_changelog", {}) == ["arguments is missing the required field 'package'"]
    assert problems("fetch_changelog", {"package": 3}) == ["package must be a string"]
    assert problems("search_symbol", {"package": "x", "symbol": "y", "kind": "guess"})[
        0
    ].startswith("kind must be one of: name, parameter")
    assert (
        "unknown field(s) path (valid: package)"
        in problems("fetch_changelog", {"package": "x", "path": "/"})[0]
    )
    assert problems("search_code", {"pattern": "x" * 300}) == [
        "pattern is too long (at most 200 characters)"
    ]
    assert problems("search_symbol", {"package": "x", "symbol": "y", "max_positional": True}) == [
        "max_positional must be an integer"
    ]
    assert problems(
        "conclude", {"package": "x", "verdict": "affected", "reason": "r", "hit_ids": ["h"] * 60}
    ) == ["hit_ids has too many items (at most 50)"]
    nested = problems("conclude", {"package": "x", "verdict": "affected", "reason": "r",
                                   "breaking_changes": [{"summary": "s"}]})  # fmt: skip
    assert nested == ["breaking_changes[0] is missing the required field 'source_ref'"]
