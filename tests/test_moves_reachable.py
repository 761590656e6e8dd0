"""Every legal action of every game can be chosen by a human, within Discord's limits (issue: the
Maître's Coffre and double-joker hands had moves past the fifth select of 25, silently dropped).

``bot.views.moves`` lays out a seat's legal actions; when they do not fit, in two steps (a group,
then its moves). For every game of ``GAMES``, every seat count, seeded sessions played by the easy
AI and by random choices (the Maître's 3-seat Coffre of 242 choices and its hands with both
jokers among them), this walks the layout as a player would and checks that every legal action is
reached: at most 5 rows, 5 buttons a row, 25 options a select, labels of at most 80 characters
(Discord: 80 for a button, 100 for an option) and placeholders of at most 150.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ai.registry import easy_policy
from bot.i18n import english
from bot.rules import GAMES
from bot.views import moves
from bot.views.moves import BUTTONS_PER_ROW, MAX_ROWS, SELECT_SIZE, Controls, layout

SEEDS = range(8)
#: Decisions checked per session at most (the long sessions are cut: their deals repeat).
DECISIONS = 400


def within_limits(controls: Controls) -> None:
    assert controls.rows() <= MAX_ROWS
    assert len(controls.buttons) <= 2 * BUTTONS_PER_ROW or not controls.selects
    assert all(len(options) <= SELECT_SIZE and options for _, options in controls.selects)
    for text, _ in [*controls.buttons, *(x for _, options in controls.selects for x in options)]:
        assert 0 < len(text) <= 80, text
    assert all(0 < len(placeholder) <= 150 for placeholder, _ in controls.selects)


def reachable(legal: list[dict[str, Any]], label: Any) -> set[int]:
    """The indices of ``legal`` a player can choose, walking the layout step by step."""
    first = layout(legal, label)
    within_limits(first)
    shown = [i for _, i in first.buttons] + [i for _, options in first.selects for _, i in options]
    assert len(shown) == len(set(shown)), "a choice is offered twice"
    if not getattr(first, "groups", None):  # (read so: the layout before groups fails on reach, not here)
        assert not getattr(first, "back", False)
        return set(shown)
    assert sorted(shown) == list(range(len(first.groups))), "a group cannot be chosen"
    out: set[int] = set()
    for n, members in enumerate(first.groups):
        if len(members) == 1:  # a group of one move is that move
            out.add(members[0])
            continue
        second = moves.group_layout(legal, label, n)
        assert second is not None and second.back and not second.groups
        within_limits(second)
        chosen = [i for _, i in second.buttons] + [i for _, options in second.selects for _, i in options]
        assert sorted(chosen) == members
        out.update(chosen)
    return out


def states(name: str, seats: int, seed: int, easy: bool) -> Any:
    """The decisions of a session (state, seat), its moves chosen by the easy AI or at random."""
    game = GAMES[name]
    rng = random.Random(seed)
    policy = easy_policy(name)
    raw = {"players": seats} if any(spec.name == "players" for spec in game.options) else {}  # as the lobby
    state = game.new_table(seats, game.validate_options(raw), seed)
    for _ in range(DECISIONS):
        if state.is_over():
            return
        for seat in state.to_act():
            yield state, seat
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        action = policy.choose(state.view(seat), legal, rng) if easy else rng.choice(legal)
        state.apply(seat, action)


@pytest.mark.parametrize("name", list(GAMES))
def test_every_legal_action_is_reachable(name: str) -> None:
    game = GAMES[name]
    tr = english()

    def label(action: dict[str, Any]) -> str:
        return game.label(action, tr)

    largest: dict[int, int] = {}
    for seats in range(game.min_seats, game.max_seats + 1):
        for seed in SEEDS:
            for state, seat in states(name, seats, seed, easy=seed % 2 == 0):
                legal = state.legal_actions(seat)
                largest[seats] = max(largest.get(seats, 0), len(legal))
                assert reachable(legal, label) == set(range(len(legal))), (name, seats, seed, len(legal))
    assert all(largest.values())
    print(name, "most legal actions by seat count:", largest)


@pytest.mark.parametrize(("seats", "seed", "phase"), [(3, 850, "coffre"), (4, 29, "play"), (5, 29, "play")])
def test_the_maitres_largest_choices_are_reachable(seats: int, seed: int, phase: str) -> None:
    """The cases found in review: a 3-seat Coffre of 242 choices (seed 850, the first decision), and
    hands with both jokers (126 to 138 moves, random play from seed 29)."""
    game = GAMES["maitre"]
    tr = english()
    rng = random.Random(seed)
    state = game.new_table(seats, game.validate_options({"players": seats}), seed)
    while True:
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if len(legal) > MAX_ROWS * SELECT_SIZE and state.view(None)["phase"] == phase:
            break
        state.apply(seat, rng.choice(legal))
    if phase == "play":
        assert {"X1", "X2"} <= set(state.view(seat)["hand"])
    assert reachable(legal, lambda action: game.label(action, tr)) == set(range(len(legal)))
