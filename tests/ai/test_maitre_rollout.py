"""The Maître rollouts' easy move read from the state (``bot.ai.maitre.rollout``).

It must be exactly the easy policy's choice from the seat's view: on hand-checked positions and
on every decision of sessions played by a mix of easy and random moves (3 to 6 seats).
"""

from __future__ import annotations

import random

from bot.ai.maitre.easy import EasyPolicy
from bot.ai.maitre.rollout import easy_choice
from bot.ai.registry import spec_for
from bot.rules import GAMES
from tests.rules.test_maitre import start, table

MAITRE_HAND = ["3H", "9S", "5S", "6S", "7S", "8S", "10S", "5D", "6D", "7D", "8D", "9D", "10D",
               "JC", "QC", "4H", "X1", "2C"]


def _deal() -> object:
    """Seat 0 is Maître (Coffre 3H / 9S); seat 1 leads first and holds KH and 7C; seat 2 holds 7H."""
    state = table(3, 0, {0: MAITRE_HAND, 1: ["KH", "7C"], 2: ["7H"]})
    start(state, "3H", "9S")
    return state


def test_a_player_takes_a_pair() -> None:
    state = _deal()
    state.apply(1, {"type": "play", "card": "7C"})
    legal = state.legal_actions(2)
    # 7H pairs the 7C: a trick worth 1 + 0.5 + 0.5 to a player, taken at once
    assert easy_choice(state, 2, legal, random.Random(0)) == {"type": "play", "card": "7H"}


def test_the_maitre_discards_his_cheapest_card_from_a_bad_trick() -> None:
    state = _deal()
    state.apply(1, {"type": "play", "card": "KH"})
    state.apply(2, {"type": "discard", "card": "7H"})
    legal = state.legal_actions(0)
    # KH is Mineure: the trick is worth −10 to the Maître; his joker as a king would pair it but
    # only at −13, so he discards. 2C has no card of rank 1–3 beside it (cost 2/13); JC has
    # 10S, 10D, QC (6 + 11/13); the valued 4H costs 10 + 4 more, the joker 50.
    choice = easy_choice(state, 0, legal, random.Random(0))
    assert choice == {"type": "discard", "card": "2C"}
    assert choice is EasyPolicy().choose(state.view(0), legal, random.Random(0))


def test_same_choice_as_the_easy_policy_on_every_decision() -> None:
    g = GAMES["maitre"]
    easy = EasyPolicy()
    checked = 0
    for session in range(24):
        seats = 3 + session % 4
        state = g.new_table(seats=seats, options=g.validate_options({"tours": 1}), seed=9000 + session)
        rng = random.Random(session)
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            want = easy.choose(state.view(seat), legal, random.Random(1))
            assert easy_choice(state, seat, legal, random.Random(1)) is want
            checked += 1
            state.apply(seat, want if rng.random() < 0.7 else rng.choice(legal))
    assert checked > 4000


def test_the_maitre_search_uses_it() -> None:
    assert spec_for("maitre").rollout_fast is easy_choice


def test_it_decides_from_the_view_alone() -> None:
    """No peeking (``tests/ai/test_no_peeking.py``'s harness): a real state and its redealt twin
    (same view, other hidden cards and Coffre) get the same move, at 30 decision points."""
    from tests.ai.test_no_peeking import hidden, same_decisions, twins

    def rollout_move(state: object, seat: int, rng: random.Random) -> object:
        return easy_choice(state, seat, state.legal_actions(seat), rng)  # type: ignore[attr-defined]

    pairs = twins("maitre", seed=11, count=30)
    assert sum(hidden("maitre", s, seat) != hidden("maitre", t, seat) for s, t, seat in pairs) >= 25
    assert same_decisions(rollout_move, pairs)


def test_shared_action_keys_are_the_computed_ones() -> None:
    """The Maître's shared action dicts have their search keys precomputed (``share_keys``): the
    same keys as computed afresh for equal dicts, and equal dicts get equal keys."""
    from bot.ai.strong.keys import _SHARED, action_key
    from bot.rules.maitre.tables import COFFRE, DISCARD, LEAD, PLAY, TAKE

    samples = [TAKE, DISCARD[0], DISCARD[53], LEAD[52][7], PLAY[(12, 12, "tete", True)],
               COFFRE[(2, 22)]]
    for a in samples:
        assert id(a) in _SHARED
        assert action_key(a) == action_key(dict(a)) == tuple(sorted(a.items()))
    assert action_key(dict(LEAD[52][7])) != action_key(dict(LEAD[53][7]))
    assert action_key({"type": "take"}) == action_key(TAKE)
