"""Issue 30 item 4: the Mus AI makes only truthful señas and reads its partner's (hand-built deals)."""

from __future__ import annotations

import random

from bot.ai.mus.determinize import determinize
from bot.ai.mus.senas import ai_sena, signed
from bot.rules.mus import senas
from bot.rules.mus.tables import INDEX, STRENGTH
from tests.rules.test_mus import new, stacked

# seat 0 (dealer 3: seat 0 is mano) holds two kings; its partner seat 2 nothing special
HANDS = {0: "12O 3C 5E 4B", 1: "1O 4C 7E 10B", 2: "4O 5C 6E 11B", 3: "7O 7C 1E 10C"}


def cards(text: str) -> list[int]:
    return sorted(INDEX[c] for c in text.split())


def test_truthful_senas_of_hand_built_hands() -> None:
    assert senas.held(cards("12O 3C 5E 4B")) == ["2k"]  # 3s are kings (8 kings)
    assert senas.held(cards("12O 3C 12E 6B")) == ["3k", "medias"]
    assert senas.held(cards("1O 2C 12E 12B")) == ["2k", "2a", "duples"]
    assert senas.held(cards("12O 11C 1E 10B")) == ["31"]
    assert senas.held(cards("4O 5C 6E 11B")) == ["ciego"]
    assert not senas.holds("3k", cards("12O 3C 5E 4B")) and not senas.holds("nonsense", cards("12O 3C 5E 4B"))
    assert not senas.holds("2k", cards("12O 3C 5E"))  # mid-discard: no 4-card hand to vouch for


def test_the_ai_never_signals_what_it_does_not_hold() -> None:
    rng = random.Random(5)
    deck = [INDEX[c] for c in (f"{r}{s}" for s in "OCEB" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12))]
    for _ in range(500):
        hand = rng.sample(deck, 4)
        sena = ai_sena(hand)
        assert sena is None or senas.holds(sena, hand)
        assert ai_sena(hand, done=["2k"]) is None  # one seña per hand


def test_a_partner_given_two_kings_redeals_them_in_every_determinization() -> None:
    state = new([stacked(3, HANDS)], dealer=3)
    assert state.to_act() == (0,) and state.phase == "mus"
    kings = [sum(1 for c in h if STRENGTH[c] == 8) for h in state.hands]
    assert kings[0] == 2
    rng = random.Random(11)
    blind = [determinize(state, 2, rng).hands[0] for _ in range(60)]
    assert any(not senas.holds("2k", h) for h in blind)  # without the seña: any hand at all
    read = signed({0: ["2k"]})
    for _ in range(60):
        clone = read(state, 2, rng)
        assert senas.holds("2k", clone.hands[0]), clone.hands[0]
        assert clone.hands[2] == state.hands[2]  # its own hand untouched
    assert state.hands[0] == cards(HANDS[0])  # the real state untouched


def test_catching_is_a_fixed_deterministic_chance() -> None:
    draws = [senas.caught(7, k, 0, 0, "2k", 1) for k in range(2000)]
    assert draws == [senas.caught(7, k, 0, 0, "2k", 1) for k in range(2000)]
    assert 0.2 < sum(draws) / len(draws) < 0.3
    assert senas.partner(1) == 3 and senas.opponents(0) == (1, 3)


def test_a_search_reading_senas_redeals_them_through_the_registry_determinizer() -> None:
    """The live search calls ``determinize(state, seat, rng)`` with no señas: ``reading`` (set by
    ``bot.tables.ai_pool.search_move`` from the table's book) makes it respect them."""
    from bot.ai.mus.senas import reading
    from bot.ai.registry import determinize as registry_determinize

    state = new([stacked(3, HANDS)], dealer=3)
    rng = random.Random(3)
    with reading({0: ["2k"]}):
        assert all(senas.holds("2k", registry_determinize("mus", state, 2, rng).hands[0]) for _ in range(40))
    assert any(not senas.holds("2k", registry_determinize("mus", state, 2, rng).hands[0]) for _ in range(40))
