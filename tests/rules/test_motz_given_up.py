"""Motz: the hand a muet taker gives up is known to the taker only (rules section 7).

A hand-checked deal (4 seats, dealer 3, turn-up 7♠): S0 holds A♥ K♦ 8♣ and the muet is
9♥ Q♥ J♥. S0 speaks first and takes the muet: it now holds the three hearts, and A♥ K♦ 8♣
lie face down, dead. S0 saw them, so its own redeal never deals them to anyone; the other
seats never saw them, so theirs may.
"""

from __future__ import annotations

import pickle
import random

from tests.rules.test_motz import MUET, STAND, deck_for, declare, new, plays

GIVEN = {"AH", "KD", "8C"}
HANDS = {0: ["AH", "KD", "8C"], 1: ["9C", "QD", "10S"], 2: ["7H", "8D", "KC"], 3: ["AD", "9D", "7D"]}
MUET_CARDS = ["9H", "QH", "JH"]


def after_the_muet():
    st = new(4, dealer=3, decks=[deck_for(4, 3, HANDS, muet=MUET_CARDS)])
    declare(st, MUET)
    return st


def test_only_the_taker_sees_the_hand_it_gave_up():
    st = after_the_muet()
    assert set(st.view(0)["hand"]) == set(MUET_CARDS)
    assert set(st.view(0)["given_up"]) == GIVEN
    for s in [1, 2, 3, None]:
        assert st.view(s)["given_up"] == []
    assert not GIVEN & set(st.unseen_cards(0))
    assert GIVEN <= set(st.unseen_cards(1))


def test_the_takers_redeal_never_deals_the_cards_it_gave_up():
    st = after_the_muet()
    rng = random.Random(4)
    for _ in range(300):
        r = st.redeal(0, rng)
        assert not GIVEN & {c for h in r.hands for c in h}
        assert set(r.hands[0]) == set(MUET_CARDS) and r.view(0) == st.view(0)


def test_another_seats_redeal_may_deal_them():
    st = after_the_muet()
    rng = random.Random(4)
    seen: set[str] = set()
    for _ in range(300):
        r = st.redeal(1, rng)
        seen.update(c for s in (0, 2, 3) for c in r.hands[s])
        assert r.view(1) == st.view(1)
    assert GIVEN <= seen


def test_the_given_up_hand_survives_replay_pickle_and_clone_and_a_new_deal_clears_it():
    st = after_the_muet()
    replayed = new(4, dealer=3, decks=[deck_for(4, 3, HANDS, muet=MUET_CARDS)])
    replayed.apply(0, MUET)
    assert replayed.view(0) == st.view(0)
    assert pickle.loads(pickle.dumps(st)).view(0) == st.view(0)
    c = st.clone()
    declare(c, STAND, STAND, STAND)
    assert set(st.view(0)["given_up"]) == GIVEN
    plays(c, (0, "9H"), (1, "10S"), (2, "7H"), (3, "7D"))
    plays(c, *[(s, c.hands[s][0]) for s in (1, 2, 3, 0)])
    last = c.to_act()[0]
    order = [(last + j) % 4 for j in range(4)]
    plays(c, *[(s, c.hands[s][0]) for s in order])
    assert c.deals_played == 1 and c.view(0)["given_up"] == [] and c.given_up == ()
