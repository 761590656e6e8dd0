"""Michigan determinization reads the leads: a seat that led a card holds no lower card of its
suit (a lead plays the leader's lowest card, spec 2.4 A.3)."""

from __future__ import annotations

import random

from bot.ai.michigan.determinize import determinize, lead_facts
from bot.rules.michigan import INDEX
from tests.rules.test_michigan import DEAD, lead, new, stack_deck


def led_five_of_spades():
    """Four seats, dealer 3: seat 0 holds 5♠ as its lowest spade, 2♠ 6♠ lie in the dead hand, 4♠
    with seat 1 and 3♠ with seat 2. Seat 0 leads spades: 5♠, a stop (6♠ is dead)."""
    deck = stack_deck(4, 3, {0: "5S", 1: "4S", 2: "3S", DEAD: "2S 6S"}, fill=True)
    st = new(4, dealer=3, decks=[deck])
    lead(st, 0, "S")
    return st


def test_the_lead_facts_of_a_hand_checked_lead() -> None:
    st = led_five_of_spades()
    assert st.played == [(0, INDEX["5S"])]
    assert sorted(lead_facts(st)) == [(0, INDEX["2S"]), (0, INDEX["3S"]), (0, INDEX["4S"])]


def test_no_determinization_gives_the_leader_a_lower_card() -> None:
    """Seat 1 sees 4♠ in its own hand; 2♠ and 3♠ are hidden from it. The engine's plain redeal
    sometimes hands them to seat 0; the AI's determinization never does."""
    st = led_five_of_spades()
    low = {INDEX["2S"], INDEX["3S"]}

    def leader_gets_a_low_card(c) -> bool:
        return any(c.owner[y] == 0 for y in low)

    plain = sum(leader_gets_a_low_card(st.redeal(1, random.Random(k))) for k in range(40))
    assert plain > 0  # so the check below could fail
    for k in range(40):
        c = determinize(st, 1, random.Random(k))
        assert not leader_gets_a_low_card(c)
        assert c.view(1) == st.view(1)
