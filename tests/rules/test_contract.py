"""Contract checks that every game must pass, whatever its rules (DESIGN.md section 2)."""

import random

import pytest

from bot.rules import GAMES
from tests.rules.harness import snapshot

NAMES = sorted(GAMES)


def _walk(name: str, seed: int, steps: int):
    game = GAMES[name]
    state = game.new_table(seats=game.min_seats, options=game.validate_options({}), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        seat = state.to_act()[0]
        yield state, seat
        state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("name", NAMES)
def test_legal_actions_list_is_the_callers_own(name):
    """Clearing or extending the returned list (an AI sorting it, say) never changes the state."""
    game = GAMES[name]
    for state, seat in _walk(name, 3, 60):
        before = snapshot(state, game.min_seats)
        expected = [dict(a) for a in state.legal_actions(seat)]
        mine = state.legal_actions(seat)
        mine.reverse()
        mine.append({"type": "injected"})
        assert state.legal_actions(seat) == expected
        clone = state.clone()
        clone.legal_actions(seat).clear()
        assert state.legal_actions(seat) == expected
        assert snapshot(state, game.min_seats) == before


@pytest.mark.parametrize("name", NAMES)
def test_every_view_has_the_common_fields(name):
    common = {"phase", "to_act", "stacks", "pot", "dealer", "deal", "closing", "hand"}
    game = GAMES[name]
    for state, _ in _walk(name, 4, 40):
        for seat in [*range(game.min_seats), None]:
            view = state.view(seat)
            assert common <= set(view), sorted(common - set(view))
            assert view["to_act"] == list(state.to_act())
            assert view["stacks"] == list(state.stacks)
        assert state.view(None)["hand"] == []


@pytest.mark.parametrize("name", NAMES)
def test_labels_and_narration_are_text(name):
    game = GAMES[name]
    names = [f"P{i}" for i in range(game.max_seats)]
    for state, seat in _walk(name, 5, 80):
        for action in state.legal_actions(seat):
            label = game.label(action)
            assert isinstance(label, str) and label
        action = state.legal_actions(seat)[0]
        for event in state.clone().apply(seat, action):
            text = game.narrate(event, lambda i: names[i])
            assert text is None or (isinstance(text, str) and text)


@pytest.mark.parametrize("name", NAMES)
def test_every_engine_is_a_base_state_with_a_full_clone(name):
    """One shape: the shared BaseState surface; a clone played to the end leaves the original alone."""
    from bot.rules.base import BaseState

    game = GAMES[name]
    for state, _seat in _walk(name, 5, 40):
        assert isinstance(state, BaseState)
        before = snapshot(state, game.min_seats)
        clone = state.clone()
        rng = random.Random(1)
        while not clone.is_over():
            s = clone.to_act()[0]
            clone.apply(s, rng.choice(clone.legal_actions(s)))
        assert clone.to_act() == () and clone.legal_actions(-1) == []
        assert snapshot(state, game.min_seats) == before
