"""Levels and the registry."""

from __future__ import annotations

import pytest

from bot.ai import LEVELS, policy_for
from bot.ai.levels import normalize_level
from bot.ai.policy import FirstLegalPolicy, Policy, RandomPolicy
from bot.rules import GAMES


def test_levels() -> None:
    assert LEVELS == ("first", "random", "easy", "strong", "expert")
    assert normalize_level(0) == "first" and normalize_level(1) == "random" and normalize_level(3) == "random"
    assert normalize_level(" Easy ") == "easy"
    for bad in ("hard", True, None):
        with pytest.raises(ValueError):
            normalize_level(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_policy_for_every_game(name: str) -> None:
    easy = policy_for(name, "easy")
    assert isinstance(easy, Policy)
    assert type(easy).__module__ == f"bot.ai.{name}.easy"
    strong, expert = policy_for(name, "strong"), policy_for(name, "expert")
    assert isinstance(strong, Policy) and isinstance(expert, Policy)
    assert (strong.budget_ms, expert.budget_ms) == (200.0, 900.0)  # type: ignore[attr-defined]
    assert expert.max_iterations == 5 * strong.max_iterations  # type: ignore[attr-defined]
    assert policy_for(name) is easy
    assert isinstance(policy_for(name, "random"), RandomPolicy)
    assert isinstance(policy_for(name, 0), FirstLegalPolicy)


def test_unknown_game() -> None:
    with pytest.raises(ValueError):
        policy_for("poker", "easy")
    assert isinstance(policy_for("poker", "random"), RandomPolicy)
