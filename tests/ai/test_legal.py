"""Every policy returns one of the legal actions, from the view alone, without mutating it."""

from __future__ import annotations

import copy
import json
import random

import pytest

from bot.ai import policy_for
from bot.ai.strong import StrongPolicy
from bot.rules import GAMES

SHORT = {  # shorter sessions where a game has a length option
    "motz": {"rotations": 1},
    "michigan": {"rotations": 1},
    "marias": {"rounds": 1},
    "maitre": {"tours": 1},
    "mus": {"target": 30},
}

CASES = [(name, seats) for name, g in GAMES.items() for seats in range(g.min_seats, g.max_seats + 1)]


#: Strong decisions searched per test (each one a short, capped search on the real state).
STRONG_SEARCHES = 6


def drive(name: str, seats: int, seed: int, levels: list, check_views: bool) -> int:
    """Play one session with ``levels[seat % len(levels)]`` per seat; return decisions checked.

    A strong seat gets the real state (the way the table service calls it) for its first
    ``STRONG_SEARCHES`` decisions with a choice, with a small iteration cap; the test fails if it
    never searched, and the state must come out of each search unchanged.
    """
    game = GAMES[name]
    opts = {k: v for k, v in SHORT.get(name, {}).items() if any(o.name == k for o in game.options)}
    state = game.new_table(seats=seats, options=game.validate_options(opts), seed=seed)
    rng = random.Random(seed)
    checked = searched = 0
    strong = StrongPolicy(name, budget_ms=60_000, max_iterations=8)
    while not state.is_over():
        seat = state.to_act()[0]
        level = levels[seat % len(levels)]
        policy = policy_for(name, level)
        view = state.view(seat)
        legal = state.legal_actions(seat)
        when = strong.spec.search_when  # Mus bets from its equity tables, unsearched
        if level == "strong" and searched < STRONG_SEARCHES and len(legal) > 1 and (
            when is None or when(view, legal)
        ):
            before = [state.view(s) for s in range(seats)]
            action, result = strong.choose_traced(copy.deepcopy(view), copy.deepcopy(legal), rng, state)
            assert result is not None, f"{name}: the strong seat did not search"
            assert [state.view(s) for s in range(seats)] == before, f"{name}: the search changed the state"
            searched += 1
        elif check_views:
            view_copy, legal_copy = copy.deepcopy(view), copy.deepcopy(legal)
            action = policy.choose(view_copy, legal_copy, rng)
            assert view_copy == view, f"{name}: the policy changed its view"
            assert legal_copy == legal, f"{name}: the policy changed the legal actions"
        else:
            action = policy.choose(view, legal, rng)
        assert action in legal, f"{name}: {action} is not legal in phase {view['phase']}"
        state.apply(seat, action)
        checked += 1
    assert "strong" not in levels or searched, f"{name}: no strong decision searched"
    return checked


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_easy_is_always_legal(name: str, seats: int) -> None:
    for seed in range(5):
        assert drive(name, seats, 100 + seed, ["easy"], check_views=seed == 0) > 0
        drive(name, seats, 200 + seed, ["easy", "random"], check_views=seed == 0)


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("level", ["first", "random", "strong", 0, 1])
def test_other_levels_are_legal(name: str, level: str | int) -> None:
    g = GAMES[name]
    drive(name, g.default_seats or g.min_seats, 7, [level, "easy"], check_views=True)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_easy_depends_only_on_view_legal_and_rng(name: str) -> None:
    """Same (view, legal, rng seed) → same action, even through a JSON round trip of the view."""
    game = GAMES[name]
    seats = game.default_seats or game.min_seats
    state = game.new_table(seats=seats, options=game.validate_options({}), seed=3)
    policy = policy_for(name, "easy")
    rng = random.Random(0)
    for _ in range(60):
        if state.is_over():
            break
        seat = state.to_act()[0]
        view, legal = state.view(seat), state.legal_actions(seat)
        a = policy.choose(view, legal, random.Random(9))
        b = policy.choose(json.loads(json.dumps(view)), json.loads(json.dumps(legal)), random.Random(9))
        assert a == b
        state.apply(seat, policy.choose(view, legal, rng))
