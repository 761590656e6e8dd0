"""Motz: the deal's played tricks are part of the state (issue 17, third pass).

A hand-checked deal (4 seats, dealer 3, trump ♠ from the turn-up 7♠, everybody stands):
S0 A♥ K♦ 8♣, S1 9♣ Q♦ 10♠, S2 7♥ 8♦ K♣, S3 A♦ 9♦ 7♦.
Trick 1: S0 leads A♥; S1 has no heart and must trump (10♠); S2 follows 7♥; S3 has neither heart
nor trump and discards 7♦. So S1 shows no heart, S3 no heart and no trump (J♣ included, the
second jack). Trick 2: S1 leads Q♦, S2 8♦, S3 A♦, S0 K♦: A♦ wins, S3 leads trick 3.
"""

from __future__ import annotations

import pickle
import random

from bot.rules.motz.state import deal_hidden
from bot.rules.motz.tables import EFF, shown_voids
from tests.rules.test_motz import STAND, card, deck_for, declare, new, plays

HANDS = {0: ["AH", "KD", "8C"], 1: ["9C", "QD", "10S"], 2: ["7H", "8D", "KC"], 3: ["AD", "9D", "7D"]}
TRICK1 = [(0, "AH"), (1, "10S"), (2, "7H"), (3, "7D")]
TRICK2 = [(1, "QD"), (2, "8D"), (3, "AD"), (0, "KD")]
HEARTS = {"KH", "QH", "JH", "10H", "9H", "8H"}  # the hearts nobody has seen (A♥ and 7♥ were played)
TRUMPS = {"JS", "JC", "AS", "KS", "QS", "9S", "8S"}  # the unseen trumps (10♠ played, 7♠ turned up)


def at_trick(n: int):
    """The hand-checked deal after ``n`` completed tricks (0, 1 or 2), and the actions applied."""
    st = new(4, dealer=3, decks=[deck_for(4, 3, HANDS)])
    moves = [(s, STAND) for s in range(4)] + [(s, card(c)) for s, c in [*TRICK1, *TRICK2][: 4 * n]]
    declare(st, *[m for _, m in moves[:4]])
    plays(st, *[(s, a["card"]) for s, a in moves[4:]])
    return st, moves


def test_the_view_shows_the_played_tricks_to_everyone_and_a_new_deal_clears_them():
    st, _ = at_trick(2)
    shown = [[list(p) for p in TRICK1], [list(p) for p in TRICK2]]
    for s in [0, 1, 2, 3, None]:
        assert st.view(s)["played_tricks"] == shown
    assert st.view(None)["trick_winners"] == [1, 3]
    plays(st, (3, "9D"), (0, "8C"), (1, "9C"), (2, "KC"))
    assert st.view(None)["deals_played"] == 1 and st.view(None)["played_tricks"] == []


def test_a_played_card_is_never_dealt_again():
    st, _ = at_trick(2)
    played = {c for _, c in TRICK1 + TRICK2}
    assert not played & set(st.unseen_cards(0))
    rng = random.Random(5)
    for _ in range(300):
        r = st.redeal(0, rng)
        dealt = {c for h in r.hands for c in h} | set(r.muet or ())
        assert not played & dealt
        assert r.hands[0] == ["8C"] and all(len(h) == 1 for h in r.hands)


def test_voids_shown_in_trick_one_hold_in_trick_three():
    st, _ = at_trick(2)
    assert shown_voids(st.played, "S") == {1: {"H"}, 3: {"H", "S"}}
    rng = random.Random(7)
    s1, s3 = set(), set()
    for _ in range(400):
        r = st.redeal(0, rng)
        s1.update(r.hands[1])
        s3.update(r.hands[3])
    assert not s1 & HEARTS and s1 & TRUMPS, "S1 showed no heart (it may hold trumps)"
    assert not s3 & (HEARTS | TRUMPS), "S3 showed neither heart nor trump (J♣ is a trump)"
    assert s3 & {"QS", "JD"} == {"JD"}, "the J♦ is an ordinary diamond: S3 may hold it"
    r = st.redeal(0, random.Random(1))
    assert r.view(0) == st.view(0) and r.view(None) == st.view(None)


def test_a_void_in_the_trick_on_the_table_counts_too():
    st, _ = at_trick(0)
    plays(st, (0, "AH"), (1, "10S"))
    assert st.shown_voids() == {1: {"H"}}
    rng = random.Random(3)
    assert all(not set(st.redeal(2, rng).hands[1]) & HEARTS for _ in range(200))


def test_the_played_tricks_survive_replay_pickle_and_clone():
    st, moves = at_trick(2)
    replayed = new(4, dealer=3, decks=[deck_for(4, 3, HANDS)])
    for s, a in moves:
        replayed.apply(s, a)
    for s in [0, 3, None]:
        assert replayed.view(s) == st.view(s)
    back = pickle.loads(pickle.dumps(st))
    assert back.played == st.played and back.view(None) == st.view(None)
    assert back.redeal(0, random.Random(9)).hands == st.redeal(0, random.Random(9)).hands
    c = st.clone()
    plays(c, (3, "9D"), (0, "8C"), (1, "9C"), (2, "KC"))
    assert len(st.played) == 2 and st.view(None)["played_tricks"][1][0] == [1, "QD"]


def test_the_matching_deals_when_the_greedy_order_would_fail():
    """S0 (no heart, no diamond) is dealt first and would take the 7♠ S1 needs (S1 has no club)."""
    eff = EFF["H"]
    pool = ["7S", "7C", "KH"]
    dealt = deal_hidden(pool, [(0, 1), (1, 1)], {0: {"H", "D"}, 1: {"C", "H"}}, eff, random.Random(0))
    assert dealt == {0: ["7C"], 1: ["7S"]} and pool == ["KH"]



def test_the_constrained_deal_is_fair():
    """At trick 3 (seat 0's redeal) S3, with no heart and no trump, is dealt one of the 9 unseen
    clubs and diamonds; S1 (no heart) then one of the 15 non-hearts left, 7 of them trumps: a
    trump 7/15 of the time (taking the shuffle's first allowed card gave ~71%)."""
    st, _ = at_trick(2)
    rng = random.Random(12)
    draws = 3000
    trumps = sum(st.redeal(0, rng).hands[1][0] in TRUMPS for _ in range(draws))
    assert abs(trumps / draws - 7 / 15) < 0.04


def test_played_by_lists_each_seats_cards_in_play_order_with_the_trick_on_the_table():
    st, _ = at_trick(2)
    assert st.played_by() == {0: ["AH", "KD"], 1: ["10S", "QD"], 2: ["7H", "8D"], 3: ["7D", "AD"]}
    plays(st, (3, "9D"))
    assert st.played_by()[3] == ["7D", "AD", "9D"]
