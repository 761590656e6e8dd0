"""Determinization of every game: valid states, the seat's view unchanged, hidden cards moved.

Along seeded random sessions, at sampled decisions, the state is determinized for the seat
to act and for another seat; each determinization must: keep the seat's ``view`` identical,
keep the multiset of cards in the hidden zones (and each zone's size), be playable to the end
of the session by random actions with jetons conserved, and (over many samples) deal another
seat different hands.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from bot.ai.motz.determinize import unseen_cards
from bot.ai.registry import determinize
from bot.rules import GAMES

#: Short sessions, so random playouts from a determinization finish quickly.
SHORT = {
    "mus": {"target": 30},
    "michigan": {"rotations": 1},
    "maitre": {"tours": 1},
    "marias": {"rounds": 1},
    "motz": {},
}
GAME_SEATS = [
    ("mus", 4), ("michigan", 4), ("michigan", 3), ("maitre", 3), ("maitre", 5), ("marias", 3), ("motz", 4),
]


def total_jetons(state: Any) -> int:
    pot = state.pot
    return sum(state.stacks) + (sum(pot) if isinstance(pot, (list, tuple)) else pot)


def hidden_cards(game: str, state: Any, seat: int) -> tuple[Counter, list[int]]:
    """(multiset of all cards outside ``seat``'s knowledge, zone sizes) for one game's state."""
    if game == "mus":
        others = [s for s in range(4) if s != seat]
        zones = [state.hands[s] for s in others] + [state.round_disc[s] for s in others]
        zones += [state.stock, state.pile]
    elif game == "michigan":
        zones = [[x for x in range(52) if state.owner[x] == o] for o in range(-1, state.cfg.n) if o != seat]
    elif game == "maitre":
        others = [s for s in range(state.n) if s != seat]
        zones = [state.hands[s] for s in others] + [state.discards[s] for s in others]
        zones.append(list(state.coffre or ()))
    elif game == "marias":
        zones = [state.hands[s] for s in range(3) if s != seat] + [state.talon, state.hands[seat]]
    else:  # motz: the engine keeps no stock, so the hidden places are the other hands and the muet
        zones = [state.hands[s] for s in range(state.n) if s != seat] + [state.muet or []]
    cards: Counter = Counter()
    for z in zones:
        cards.update(z)
    return cards, [len(z) for z in zones]


def other_hand(game: str, state: Any, seat: int) -> str:
    if game == "michigan":
        return json.dumps([x for x in range(52) if state.owner[x] == seat])
    return json.dumps(sorted(state.hands[seat]))


def play_out(state: Any, rng: random.Random, total: int) -> None:
    """Random actions to the session's end, checking conservation after each."""
    for _ in range(50_000):
        if state.is_over():
            return
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        assert legal, "a seat to act has no legal action"
        state.apply(seat, legal[rng.randrange(len(legal))])
        assert total_jetons(state) == total
    raise AssertionError("playout from a determinization never ended")


def check_determinization(game: str, state: Any, seat: int, rng: random.Random, playout: bool) -> None:
    view = json.dumps(state.view(seat), sort_keys=True)
    real_before = json.dumps([state.view(s) for s in range(len(state.stacks))], sort_keys=True)
    d = determinize(game, state, seat, rng)
    assert json.dumps(d.view(seat), sort_keys=True) == view
    assert json.dumps([state.view(s) for s in range(len(state.stacks))], sort_keys=True) == real_before
    cards_real, sizes_real = hidden_cards(game, state, seat)
    cards_det, sizes_det = hidden_cards(game, d, seat)
    assert sizes_det == sizes_real
    if game == "motz":
        assert set(cards_det) <= set(unseen_cards(state, seat))
        assert all(v == 1 for v in cards_det.values())
    else:
        assert cards_det == cards_real
    assert d.to_act() == state.to_act()
    actor = state.to_act()[0]
    if actor == seat:
        assert d.legal_actions(seat) == state.legal_actions(seat)
    if playout:
        play_out(d, rng, total_jetons(state))


def session_points(game: str, seats: int, seed: int, every: int) -> list[Any]:
    """Clones of the states of one random session, one every ``every`` decisions."""
    g = GAMES[game]
    state = g.new_table(seats=seats, options=g.validate_options(SHORT[game]), seed=seed)
    rng = random.Random(seed)
    out = []
    step = 0
    while not state.is_over():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1 and step % every == 0:
            out.append(state.clone())
        step += 1
        state.apply(seat, legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize(("game", "seats"), GAME_SEATS)
def test_determinizations_are_valid_states(game: str, seats: int) -> None:
    rng = random.Random(7)
    for seed in (1, 2):
        points = session_points(game, seats, seed, every=3)
        assert points
        for i, state in enumerate(points):
            actor = state.to_act()[0]
            other = (actor + 1 + i % (seats - 1)) % seats
            check_determinization(game, state, actor, rng, playout=i % 8 == 0)
            check_determinization(game, state, other, rng, playout=False)


@pytest.mark.parametrize(("game", "seats"), GAME_SEATS)
def test_other_hands_vary(game: str, seats: int) -> None:
    rng = random.Random(3)
    state = session_points(game, seats, 5, every=1)[0]
    seat = state.to_act()[0]
    other = (seat + 1) % seats
    real = other_hand(game, state, other)
    seen = {other_hand(game, determinize(game, state, seat, rng), other) for _ in range(40)}
    assert len(seen) > 5
    assert seen - {real}
