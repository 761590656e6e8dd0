"""The expert's Motz reading (``determinize_reading``): passers, the muet taker, revokes.

Hand-checked positions on stacked decks (four seats, dealer 3, so seats 0, 1, 2, 3 then the
muet are dealt in that order; trump ♥ from the 10♥ turned up). A determinization must never
give a seat a hand its declarations or its plays rule out, where the plain redeal does.
"""

from __future__ import annotations

import random

from bot.ai.easy.motz import effective_suit
from bot.ai.strong.determinize.motz import (
    determinize,
    determinize_reading,
    easy_stands,
    reading_layout,
)
from bot.rules import GAMES
from bot.rules.cards import DECK_32
from bot.rules.motz import MotzState


def stacked(hands: list[list[str]], muet: list[str]) -> MotzState:
    """Deal 0 with the given hands of seats 0–3, the muet, 10♥ turned up, the rest below."""
    deck: list[str] = []
    for r in range(3):
        deck += [h[r] for h in hands] + [muet[r]]
    deck.append("10H")
    deck += [c for c in DECK_32 if c not in deck]
    assert len(deck) == len(set(deck)) == 32, deck
    g = GAMES["motz"]
    state = g.new_table(seats=4, options=g.validate_options({"dealer": 3, "decks": [deck]}), seed=5)
    assert state.trump == "H" and state.to_act() == (0,)
    return state


def two_jacks_after_a_pass() -> MotzState:
    """Seat 0 passes with 7♣ 8♣ 9♠; seat 1 to speak, holding both red jacks."""
    state = stacked([["7C", "8C", "9S"], ["JH", "JD", "AS"], ["QH", "KS", "7D"], ["AH", "KH", "QC"]],
                    ["9H", "8H", "7H"])
    state.apply(0, {"type": "pass"})
    return state


def test_easy_stands_is_easys_rule() -> None:
    assert easy_stands(["7H", "8H", "AS"], "H", fine=4, stack=99)  # two trumps
    assert not easy_stands(["7H", "8H", "AS"], "H", fine=40, stack=99)  # two low trumps, big fine
    assert easy_stands(["JD", "7S", "8S"], "H", fine=40, stack=99)  # the second jack
    assert not easy_stands(["AH", "KS", "QS"], "H", fine=4, stack=99)  # one trump


def test_a_passer_never_held_a_standing_hand() -> None:
    """Seat 1 holds both jacks: the six other trumps (A K Q 9 8 7♥) are unseen. The passer's dead
    three cards never hold two of them under the reading; the plain draw gives it two ~1 time in 9."""
    state = two_jacks_after_a_pass()
    seat = 1
    unseen = set(state.unseen_cards(seat))
    standing = 0
    for i in range(300):
        layout = reading_layout(state, seat, random.Random(i))
        assert layout is not None
        hands, muet, dead = layout
        assert set(dead) == {0}
        assert not easy_stands(dead[0], "H", state.F or 0, state.stacks[0])
        drawn = [c for h in hands.values() for c in h] + muet + dead[0]
        assert len(drawn) == len(set(drawn)) and set(drawn) <= unseen
        assert sorted(hands) == [2, 3] and all(len(h) == 3 for h in hands.values()) and len(muet) == 3
        rest = unseen - {c for h in hands.values() for c in h} - set(muet)
        plain = random.Random(i).sample(sorted(rest), 3)
        standing += easy_stands(plain, "H", state.F or 0, state.stacks[0])
    assert standing >= 10  # the reading is not idle: a uniform dead hand often stands


def revoke_on_the_table() -> MotzState:
    """Seats 0, 1, 2 stand, 3 passes; seat 0 leads 9♠, seat 1 (no spade, no trump) discards 7♣;
    seat 2 to play with A♠ K♣ Q♣."""
    state = stacked([["9S", "8S", "7D"], ["7C", "8C", "KD"], ["AS", "KC", "QC"], ["AH", "KH", "QH"]],
                    ["9H", "8H", "7H"])
    for seat, what in ((0, "stand"), (1, "stand"), (2, "stand"), (3, "pass")):
        state.apply(seat, {"type": what})
    state.apply(0, {"type": "play", "card": "9S"})
    state.apply(1, {"type": "play", "card": "7C"})
    assert state.to_act() == (2,)
    return state


def test_a_revoke_voids_the_led_suit_and_trumps() -> None:
    """Seat 1 discarded a club on a spade lead: its two cards are neither spades nor trumps (♥ or
    the J♦) in every determinization of the reading; the plain redeal breaks this often."""
    state = revoke_on_the_table()
    broken = 0
    for i in range(300):
        c = determinize_reading(state, 2, random.Random(i))
        assert c.view(2) == state.view(2)
        assert len(c.hands[1]) == 2
        assert all(effective_suit(x, "H") not in ("S", "H") for x in c.hands[1]), c.hands[1]
        plain = determinize(state, 2, random.Random(i))
        broken += any(effective_suit(x, "H") in ("S", "H") for x in plain.hands[1])
    assert broken > 100


def test_standers_keep_their_reading() -> None:
    """Seat 0 stood (three cards, nothing played): the reading deals it a standing hand, too."""
    state = stacked([["AH", "KH", "QC"], ["7C", "8C", "9S"], ["JH", "JD", "AS"], ["QH", "KS", "7D"]],
                    ["9H", "8H", "7H"])
    state.apply(0, {"type": "stand"})
    for i in range(200):
        c = determinize_reading(state, 1, random.Random(i))
        assert easy_stands(c.hands[0], "H", 0, 99)


def test_nothing_to_read_is_the_plain_redeal() -> None:
    """The first speaker reads nothing: the reading's determinization is the engine's redeal."""
    state = two_jacks_after_a_pass()
    fresh = stacked([["7C", "8C", "9S"], ["JH", "JD", "AS"], ["QH", "KS", "7D"], ["AH", "KH", "QC"]],
                    ["9H", "8H", "7H"])
    assert reading_layout(fresh, 0, random.Random(1)) is None
    a = determinize_reading(fresh, 0, random.Random(1))
    b = fresh.redeal(0, random.Random(1))
    assert a.hands == b.hands and a.muet == b.muet
    assert reading_layout(state, 1, random.Random(1)) is not None


def test_the_reading_does_not_peek() -> None:
    """A redeal of the real state for the seat (same view, other hidden cards) gets exactly the
    same determinizations from the reading, with the same rng seed."""
    for state, seat in ((two_jacks_after_a_pass(), 1), (revoke_on_the_table(), 2)):
        twin = state.redeal(seat, random.Random(99))
        assert twin.view(seat) == state.view(seat)
        others = [s for s in range(4) if s != seat]
        assert [twin.hands[s] for s in others] != [state.hands[s] for s in others]
        for i in range(50):
            a = determinize_reading(state, seat, random.Random(i))
            b = determinize_reading(twin, seat, random.Random(i))
            assert a.hands == b.hands and a.muet == b.muet
