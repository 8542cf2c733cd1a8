"""Budgets that hold sensibly: the offline planner spends no tokens, and a week too big for a
chat model's budget is said up front (10,000 updates ended 8,168 ``unknown`` from the token
budget even with the rules model)."""

from __future__ import annotations

from depbot.models.rules import RulesModel
from depbot.pipeline.batches import TOKENS_PER_UPDATE
from depbot.pipeline.run import triage
from depbot.records.update import Update
from tests.helpers.scripted import ScriptedModel
from tests.helpers.worlds import settings_for, two_package_world


def test_the_rules_model_is_not_held_to_the_token_budget(tmp_path):
    world = two_package_world(tmp_path)
    said: list[str] = []
    with world.serve() as up:
        result = triage(
            settings_for(up, max_tokens=10), repo=world.repo, updates=world.updates,
            model=RulesModel(), out_dir=tmp_path / "out", progress=said.append,
        )  # fmt: skip
    verdicts = {v.update.package: v.verdict for v in result.verdicts}
    assert verdicts == {"oldlib": "affected", "otherlib": "not_affected"}
    assert not any("token budget" in line for line in said)


def test_a_week_too_big_for_a_chat_models_budget_is_said_up_front(tmp_path):
    world = two_package_world(tmp_path)
    many = [
        Update("pip", f"pkg{i}", "1.0.0", "2.0.0", manifest="requirements.txt") for i in range(5)
    ]
    said: list[str] = []
    stop = {"role": "assistant", "content": "done"}
    model = ScriptedModel(*([stop] * 20))
    with world.serve() as up:
        result = triage(
            settings_for(up, max_tokens=2 * TOKENS_PER_UPDATE, max_format_errors=1),
            repo=world.repo, updates=many, model=model, out_dir=tmp_path / "out",
            progress=said.append,
        )  # fmt: skip
    (warning,) = [line for line in said if "token budget" in line]
    assert "5 updates need about 40,000 tokens" in warning
    assert "about 2 can be triaged" in warning and "DEPBOT_MAX_TOKENS" in warning
    assert len(result.verdicts) == 5  # nothing lost: each update has a verdict


def test_a_week_that_fits_says_nothing(tmp_path):
    world = two_package_world(tmp_path)
    said: list[str] = []
    stop = {"role": "assistant", "content": "done"}
    with world.serve() as up:
        triage(
            settings_for(up, max_format_errors=1), repo=world.repo, updates=world.updates,
            model=ScriptedModel(*([stop] * 5)), out_dir=tmp_path / "out", progress=said.append,
        )  # fmt: skip
    assert not any("token budget" in line for line in said)
