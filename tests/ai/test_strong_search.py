"""ISMCTS and StrongPolicy: legal answers, no hidden information used, budgets respected."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from bot.ai.levels import strong_policy
from bot.ai.registry import determinize, determinizer, spec_for
from bot.ai.strong import StrongPolicy
from bot.ai.strong import ismcts as ismcts_module
from bot.ai.strong.ismcts import action_key, search
from bot.rules import GAMES

GAMES_SEATS = [("mus", 4), ("michigan", 4), ("maitre", 3), ("marias", 3), ("motz", 4)]


def decisions(game: str, seats: int, seed: int, count: int, every: int = 4) -> list[Any]:
    """Clones of up to ``count`` states of a random session where the seat to act has a choice."""
    g = GAMES[game]
    state = g.new_table(seats=seats, options=g.validate_options({}), seed=seed)
    rng = random.Random(seed)
    out: list[Any] = []
    step = 0
    while not state.is_over() and len(out) < count:
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            if step % every == 0:
                out.append(state.clone())
            step += 1
        state.apply(seat, legal[rng.randrange(len(legal))])
    return out


def views(state: Any) -> str:
    return json.dumps([state.view(s) for s in range(len(state.stacks))], sort_keys=True)


@pytest.mark.parametrize(("game", "seats"), GAMES_SEATS)
def test_strong_returns_a_legal_action_and_leaves_the_state(game: str, seats: int) -> None:
    policy = StrongPolicy(game, budget_ms=10_000, max_iterations=40)
    rng = random.Random(1)
    for state in decisions(game, seats, seed=11, count=6):
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        before = views(state)
        action, result = policy.choose_traced(state.view(seat), legal, rng, state=state)
        assert action in legal
        when = policy.spec.search_when
        if when is None or when(state.view(seat), legal):
            assert result is not None
            assert result.iterations == 40 or (result.paired is not None and result.iterations >= 40)
        else:
            assert result is None  # Mus bets from its equity tables, unsearched
        assert views(state) == before
        state.apply(seat, action)


@pytest.mark.parametrize(("game", "seats"), GAMES_SEATS)
def test_search_ignores_the_hidden_cards(game: str, seats: int) -> None:
    """Two states the seat cannot tell apart give exactly the same search."""
    rng = random.Random(5)
    for state in decisions(game, seats, seed=21, count=3, every=5):
        seat = state.to_act()[0]
        other_world = determinize(game, state, seat, rng)
        runs = [
            search(game, spec_for(game), s, seat, random.Random(99), budget_ms=1e9, max_iterations=60)
            for s in (state, other_world)
        ]
        assert runs[0].visits == runs[1].visits
        assert action_key(runs[0].action) == action_key(runs[1].action)


@pytest.mark.parametrize(("game", "seats"), GAMES_SEATS)
def test_search_sees_only_determinizations(game: str, seats: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every state the search plays on is a determinization, and they spread the hidden cards."""
    state = decisions(game, seats, seed=31, count=1)[0]
    seat = state.to_act()[0]
    real = determinizer(game)
    made: list[Any] = []

    def spy(s: Any, who: int, rng: random.Random) -> Any:
        assert s is state and who == seat
        d = real(s, who, rng)
        made.append(d.clone())
        return d

    monkeypatch.setattr(ismcts_module, "determinizer", lambda name: spy)
    result = search(game, spec_for(game), state, seat, random.Random(3), budget_ms=1e9, max_iterations=30)
    if result.paired is not None:  # paired root (Michigan's leads): every move on each determinization
        assert result.iterations == len(made) * len(result.paired) >= 30
        assert all(len(v) == len(made) for v in result.paired.values())
    else:
        assert result.iterations == len(made) == 30
    other = (seat + 1) % seats
    hidden = {hand_of(game, d, other) for d in made}
    assert len(hidden) > 3
    assert hidden - {hand_of(game, state, other)}


def hand_of(game: str, state: Any, seat: int) -> str:
    if game == "michigan":
        return json.dumps([x for x in range(52) if state.owner[x] == seat])
    return json.dumps(sorted(state.hands[seat]))


def test_budget_and_iteration_cap() -> None:
    game = "michigan"
    state = decisions(game, 4, seed=41, count=1)[0]
    seat = state.to_act()[0]
    tree = dataclasses.replace(spec_for(game), paired_root=None)  # the tree counts iterations
    capped = search(game, tree, state, seat, random.Random(1), budget_ms=1e9, max_iterations=17)
    assert capped.iterations == 17
    # the paired root (Michigan's leads) counts rollouts, whole determinizations at a time
    paired = search(game, spec_for(game), state, seat, random.Random(1), budget_ms=1e9, max_iterations=17)
    moves = len(state.legal_actions(seat))
    assert paired.paired is not None and paired.iterations % moves == 0
    assert 17 <= paired.iterations < 17 + moves
    timed = search(game, spec_for(game), state, seat, random.Random(1), budget_ms=30, max_iterations=None)
    assert timed.iterations >= 1
    assert timed.seconds < 5.0  # generous: the deadline is checked before each iteration


def test_trivial_and_stateless_decisions() -> None:
    game = "michigan"
    policy = strong_policy(game)
    state = decisions(game, 4, seed=51, count=1)[0]
    seat = state.to_act()[0]
    legal = state.legal_actions(seat)
    rng = random.Random(2)
    assert policy.choose_traced(state.view(seat), legal[:1], rng, state=state) == (legal[0], None)
    action, result = policy.choose_traced(state.view(seat), legal, rng)
    assert action in legal and result is None


def test_unknown_game() -> None:
    with pytest.raises(ValueError):
        StrongPolicy("no-such-game")


def test_one_shared_policy_keeps_no_state_between_calls() -> None:
    """The registry shares one instance between worker threads: a decision writes nothing on it."""
    policy = StrongPolicy("motz", budget_ms=10_000, max_iterations=10)
    before = dict(vars(policy))
    rng = random.Random(2)
    for state in decisions("motz", 4, seed=3, count=3):
        seat = state.to_act()[0]
        policy.choose(state.view(seat), state.legal_actions(seat), rng, state=state)
    assert vars(policy) == before
