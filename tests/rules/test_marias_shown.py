"""Marias: what the plays show about the hands (``bot.rules.marias.shown``), the played tricks in
the view, and the redeal that keeps them (``MariasState.redeal(shown=True)``).

The deal is spec example A (``tests/rules/test_marias.py``), trump ♣, hra by F (seat 0), with the
dealer d holding Q♣ 9♣: after four tricks (9♠ A♠ K♠ / 7♦ 8♦ A♦ / 10♦ 9♦ J♦ / K♦ 10♣ 9♣) M (seat 1)
has shown no diamond, d (seat 2) no diamond and no trump above the 10♣ (it had to overtrump with
the A♣ if it held it). The real hands then: F 8♠ Q♦ A♣ K♣ J♣ 8♣ (talon Q♠ J♠), M 7♠ K♥ J♥ 8♥ 7♥
7♣, d 10♠ A♥ Q♥ 10♥ 9♥ Q♣.
"""

from __future__ import annotations

import pickle
import random

from bot.rules.marias.shown import shown_ceilings
from bot.rules.marias.tables import STR_NAT, STR_SUIT
from tests.rules.test_marias import A_M, do, example_a_state, new, play_tricks, setup_suit


def after_four_tricks():
    st = example_a_state("QC 9C", "AC KC JC")
    do(st, 2, "play", card="9C")
    return st


def test_the_plays_of_example_a_show_two_voids_and_a_ceiling():
    st = after_four_tricks()
    # T3: M's 9♦ and d's J♦ under the 10♦ cap diamonds at the 10; T4 voids them (the min wins).
    # T1: d's K♠ under the A♠ says nothing (nothing is higher than an ace).
    assert st.shown_ceilings() == {1: {"D": -1}, 2: {"D": -1, "C": STR_SUIT["10C"]}}
    assert "AC" in st.hands[0] and "QD" in st.hands[0] and "QC" in st.hands[2]  # the real deal meets them


def test_the_rules_read_one_at_a_time():
    # Trump ♣. S1 neither follows ♦ nor trumps: no ♦, no ♣; S2 follows under the winning K♦: no A♦
    # nor 10♦ (suit order 7 8 9 J Q K 10 A: capped at the K).
    assert shown_ceilings([[(0, "KD"), (1, "8H"), (2, "9D")]], "C") == {1: {"D": -1, "C": -1},
                                                                        2: {"D": STR_SUIT["KD"]}}
    # S1 trumps, S2 cannot follow and trumps under S1's trump: no ♦, no trump above the J♣.
    assert shown_ceilings([[(0, "KD"), (1, "JC"), (2, "8C")]], "C") == {1: {"D": -1},
                                                                        2: {"D": -1, "C": STR_SUIT["JC"]}}
    # S2 follows a suit already trumped: no duty to beat, nothing shown about diamonds.
    assert shown_ceilings([[(0, "KD"), (1, "JC"), (2, "7D")]], "C") == {1: {"D": -1}}
    # Betl (no trump, natural order 7 8 9 10 J Q K A): under the J♦ with the 10♦ caps at the J;
    # a void says nothing of any trump.
    assert shown_ceilings([[(0, "JD"), (1, "10D"), (2, "8H")]], None) == {1: {"D": STR_NAT["JD"]},
                                                                          2: {"D": -1}}
    assert shown_ceilings([[(0, "AD")], []], "C") == {}  # a lead alone shows nothing


def test_played_tricks_are_public_kept_by_copies_and_cleared_by_a_new_deal():
    st = after_four_tricks()
    tricks = [[[0, "9S"], [1, "AS"], [2, "KS"]], [[1, "7D"], [2, "8D"], [0, "AD"]],
              [[0, "10D"], [1, "9D"], [2, "JD"]], [[0, "KD"], [1, "10C"], [2, "9C"]]]
    for seat in (0, 1, 2, None):
        assert st.view(seat)["played_tricks"] == tricks
    assert pickle.loads(pickle.dumps(st)).played == st.played
    c = st.clone()
    do(c, 1, "play", card=c.legal_actions(1)[0]["card"])
    assert len(st.played) == 4 and st.trick == []
    while c.deals_played == 0:
        seat = c.to_act()[0]
        c.apply(seat, c.legal_actions(seat)[0])
    assert c.played == [] and c.view(None)["played_tricks"] == []


def test_the_redeal_keeps_what_the_plays_showed():
    """M's redeals (seat 1; hidden: F's hand, d's hand, the talon): d never gets the Q♦ (no diamond)
    nor the A♣ (no trump above the 10♣), which the plain redeal gives it often; M's own hand is kept."""
    st = after_four_tricks()
    rng = random.Random(5)
    plain = [st.redeal(1, rng) for _ in range(300)]
    read = [st.redeal(1, rng, shown=True) for _ in range(300)]
    assert sum("QD" in c.hands[2] or "AC" in c.hands[2] for c in plain) > 50
    for c in read:
        assert "QD" not in c.hands[2] and "AC" not in c.hands[2]
        assert "AC" in c.hands[0]  # the A♣ cannot be in an hra talon either (no ace or ten)
        assert c.hands[1] == st.hands[1] and sorted(c.talon) != [] and len(c.hands[2]) == 6
        assert sorted(c.hands[0] + c.hands[2] + c.talon) == sorted(st.hands[0] + st.hands[2] + st.talon)
    assert len({tuple(c.hands[2]) for c in read}) > 20  # still a spread of deals, not one


def test_the_redeal_without_shown_is_the_plain_one():
    st = after_four_tricks()
    a, b = st.redeal(1, random.Random(9)), st.redeal(1, random.Random(9), shown=False)
    assert a.hands == b.hands and a.talon == b.talon
    before = new("9S KD 8C AD QS JS QD", "10D AC KC JC 8S", A_M, "KS 10S AH QH 10H 9H JD 8D QC 9C",
                 concede_plain=False)
    setup_suit(before, "8C", "hra", ("QS", "JS"))
    play_tricks(before, ["9S AS KS", "7D 8D AD"])  # every card followed and beat, or under an ace
    assert before.shown_ceilings() == {}
    assert before.redeal(2, random.Random(3)).hands == before.redeal(2, random.Random(3), shown=True).hands
