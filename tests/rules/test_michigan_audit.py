"""Michigan: independent audit of the engine against ``docs/rules/michigan.md``.

Every expected figure below was worked out by hand from the spec (deal positions, runs,
pools, payments, contributions), never read back from the engine.
"""

from __future__ import annotations

import json
import random

import pytest

from bot.rules import GAMES, IllegalMove, cards
from bot.rules import michigan as mich
from tests.rules import harness

G = GAMES["michigan"]
DEAD = "dead"
# canonical card order (suits S H D C, ranks 2..A), written out
CANON = [r + s for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]


def table(n: int, seed: int = 1, **opts):
    return G.new_table(seats=n, options=G.validate_options(opts), seed=seed)


def build(n: int, dealer: int, hands: dict) -> list[str]:
    """Deck for fully given hands: positions [DEAD, left(d), …, d], one card each in turn."""
    order = [DEAD] + [(dealer + j) % n for j in range(1, n + 1)]
    given = {k: v.split() for k, v in hands.items()}
    assert sorted(c for v in given.values() for c in v) == sorted(CANON)
    deck = [given[order[i % (n + 1)]].pop(0) for i in range(52)]
    assert not any(given.values()), "hand sizes do not match the deal"
    return deck


def lead(st, seat, suit):
    return st.apply(seat, {"type": "lead", "suit": suit})


def plays(ev):
    return [(e["seat"], e["card"]) for e in ev if e["type"] in ("lead", "play")]


def kinds(ev):
    return [e["type"] for e in ev]


def of(ev, kind):
    return [e for e in ev if e["type"] == kind]


def drive(st, limit=200_000):
    ev = []
    for _ in range(limit):
        if st.is_over():
            return ev
        s = st.to_act()[0]
        ev += st.apply(s, st.timeout_action(s))
    raise AssertionError("no end")


# --------------------------------------------------------------------------- 2.2 the deal

# n = 4, dealer S1, deck in canonical order: positions [DEAD, S2, S3, S0, S1].
# Card i goes to position i mod 5 (worked out by hand from the canonical order).
DEAL4 = {
    DEAD: "2S 7S QS 4H 9H AH 6D JD 3C 8C KC",
    2: "3S 8S KS 5H 10H 2D 7D QD 4C 9C AC",
    3: "4S 9S AS 6H JH 3D 8D KD 5C 10C",
    0: "5S 10S 2H 7H QH 4D 9D AD 6C JC",
    1: "6S JS 3H 8H KH 5D 10D 2C 7C QC",
}


def test_deal_positions_dead_hand_first_four_seats():
    st = table(4, dealer=1, decks=[CANON])
    for seat in range(4):
        assert st.view(seat)["hand"] == DEAL4[seat].split()
    assert st.dead_hand() == DEAL4[DEAD].split()
    assert st.view(None)["hand_sizes"] == [10, 10, 11, 10]
    assert st.to_act() == (2,) and st.view(None)["lead_right"] == 2


# hand sizes per seat 0..n-1 with dealer S0 (table of 2.2 read from left(d)=S1 round to S0)
SIZES_D0 = {
    3: (13, [13, 13, 13]),
    4: (11, [10, 11, 10, 10]),
    5: (9, [8, 9, 9, 9, 8]),
    6: (8, [7, 8, 8, 7, 7, 7]),
    7: (7, [6, 7, 7, 7, 6, 6, 6]),
    8: (6, [5, 6, 6, 6, 6, 6, 6, 5]),
}


@pytest.mark.parametrize("n", range(3, 9))
def test_hand_size_table_and_rotation(n):
    dead, sizes = SIZES_D0[n]
    st = table(n, dealer=0, seed=n)
    assert st.view(None)["hand_sizes"] == sizes
    assert len(st.dead_hand()) == dead
    assert sorted(st.dead_hand() + [c for s in range(n) for c in st.view(s)["hand"]]) == sorted(CANON)
    # the next hand is dealt by S1: every size moves one seat to the left
    while st.deals_played == 0:
        s = st.to_act()[0]
        st.apply(s, st.timeout_action(s))
    if not st.is_over():
        assert st.dealer == 1
        assert st.view(None)["hand_sizes"] == [sizes[-1]] + sizes[:-1]


def test_inlined_shuffle_is_exactly_deck_for_deal():
    for seed in [0, 1, 2, 7, 12345, -3, 2**70 + 11, 4409]:
        for k in [0, 1, 5, 29]:
            want = cards.deck_for_deal(cards.DECK_52, None, seed, k)
            ref = list(cards.DECK_52)
            cards.deal_rng(seed, k).shuffle(ref)
            assert want == ref
            assert [mich.CODES[x] for x in mich._deck_ints(None, seed, k)] == want
    # with stacked decks: decks[k] for k < len(decks), the shuffle of hand k after that
    decks = (tuple(CANON),)
    assert [mich.CODES[x] for x in mich._deck_ints(decks, 9, 0)] == CANON
    want = cards.deck_for_deal(cards.DECK_52, decks, 9, 1)
    assert [mich.CODES[x] for x in mich._deck_ints(decks, 9, 1)] == want


def test_shuffled_hand_of_a_table_is_deck_for_deal():
    st = table(5, seed=77, dealer=3)
    deck = cards.deck_for_deal(cards.DECK_52, None, 77, 0)
    order = [DEAD, 4, 0, 1, 2, 3]
    for pos, who in enumerate(order):
        got = st.dead_hand() if who == DEAD else st.view(who)["hand"]
        assert got == sorted(deck[pos::6], key=CANON.index)


# --------------------------------------------------------------------------- 2.1 antes


def test_antes_with_ante_unit_two():
    st = table(3, dealer=2, ante_unit=2)  # buy_in defaults to 200
    assert st.stacks == [192, 192, 184]
    assert st.pot == [8, 8, 8, 8]
    assert st.contributions() == [[2, 2, 4]] * 4


# --------------------------------------------------------------------------- 2.4 after-card order

# Three seats, dealer S2: positions [DEAD, S0, S1, S2], 13 cards each.
ACE_PAY = {
    0: "2S 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
    1: "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS AH",
    2: "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
    DEAD: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
}


def test_ace_that_is_a_pay_card_hits_then_stops_and_out_on_an_ace():
    st = table(3, dealer=2, decks=[build(3, 2, ACE_PAY)])
    assert st.stacks == [96, 96, 92] and st.pot == [4, 4, 4, 4]
    assert st.legal_actions(0) == [{"type": "lead", "suit": "S"}, {"type": "lead", "suit": "H"}]
    ev = lead(st, 0, "H")
    assert plays(ev) == [(0, r + "H") for r in "2 3 4 5 6 7 8 9 10 J Q K".split()] + [(1, "AH")]
    # step 1 (hit) then step 3 (ace stops): S1 takes B[A♥] and leads next, hearts blocked
    assert ev[-2:] == [{"type": "boodle", "seat": 1, "card": "AH", "amount": 4},
                       {"type": "stop", "seat": 1, "card": "AH"}]
    assert st.stacks == [96, 100, 92] and st.pot == [0, 4, 4, 4]
    assert st.contributions()[0] == [0, 0, 0]
    v = st.view(None)
    assert v["lead_right"] == 1 and v["blocked"] == "H" and v["to_act"] == [1]
    assert st.legal_actions(1) == [{"type": "lead", "suit": "S"}]
    # S1's lowest spade is 3♠ (2♠ is S0's); the run goes out on A♠: out before the ace rule
    ev = lead(st, 1, "S")
    assert plays(ev) == [(1, r + "S") for r in "3 4 5 6 7 8 9 10 J Q K A".split()]
    assert of(ev, "boodle") == [{"type": "boodle", "seat": 1, "card": "JS", "amount": 4}]
    assert of(ev, "out") == [{"type": "out", "seat": 1, "card": "AS"}]
    assert "stop" not in kinds(ev)
    r = st.view(2)["last_result"]
    assert r == {
        "winner": 1,
        "cards_left": [1, 0, 13],
        "payments": [-1, 14, -13],
        "boodle_hits": [["AH", 1, 4], ["JS", 1, 4]],
        "dead_hand": ACE_PAY[DEAD].split(),
    }
    end = of(ev, "hand_end")[0]
    assert end["deltas"] == [95 - 100, 118 - 100, 79 - 100] and end["pot_change"] == 8 - 0
    # next hand: dealer S0 antes 8, the others 4; pools K♣ and Q♦ carry over
    assert st.dealer == 0 and st.deals_played == 1
    assert st.stacks == [87, 114, 75] and st.pot == [4, 8, 8, 4]
    assert st.contributions() == [[2, 1, 1], [3, 2, 3], [3, 2, 3], [2, 1, 1]]
    assert st.to_act() == (1,)


def test_going_out_on_the_ace_of_hearts_takes_the_pool_first():
    hands = {
        0: "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
        1: "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
        2: "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
        DEAD: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    }
    st = table(3, dealer=2, decks=[build(3, 2, hands)], rotations=0)
    assert st.legal_actions(0) == [{"type": "lead", "suit": "H"}]
    ev = lead(st, 0, "H")
    i = kinds(ev).index("boodle")
    assert ev[i:i + 2] == [{"type": "boodle", "seat": 0, "card": "AH", "amount": 4},
                           {"type": "out", "seat": 0, "card": "AH"}]
    assert "stop" not in kinds(ev)
    r = st.view(0)["last_result"]
    assert r["winner"] == 0 and r["cards_left"] == [0, 13, 13] and r["payments"] == [26, -13, -13]
    assert r["boodle_hits"] == [["AH", 0, 4]]
    # 96 + 4 + 26 = 126, then S0 deals hand 1 (8); S1 83 - 4; S2 79 - 4
    assert st.stacks == [118, 79, 75] and st.pot == [4, 8, 8, 8]


def test_going_out_on_a_pay_card_in_the_middle_of_a_run():
    hands = {
        0: "2H 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
        1: "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AC",
        2: "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
        DEAD: "AS 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    }
    st = table(3, dealer=2, decks=[build(3, 2, hands)], card_price=3)
    ev = lead(st, 0, "H")
    assert plays(ev) == [(0, "2H")] and ev[-1] == {"type": "stop", "seat": 0, "card": "2H"}  # 3♥ dead
    assert st.legal_actions(0) == [{"type": "lead", "suit": "C"}]
    ev = lead(st, 0, "C")
    assert plays(ev)[-1] == (0, "KC") and len(plays(ev)) == 12  # A♣ (S1) is never played
    assert kinds(ev)[kinds(ev).index("boodle"):][:3] == ["boodle", "out", "hand_end"]
    r = st.view(1)["last_result"]
    assert r["winner"] == 0 and r["cards_left"] == [0, 13, 13]
    assert r["payments"] == [78, -39, -39] and r["boodle_hits"] == [["KC", 0, 4]]
    assert r["dead_hand"] == "AS 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH".split()


# Own-hand continuations, stops by the dead hand and by an already played card.
RUNS = {
    0: "2D 3D 5D 2H 5H 2S 3S 4S 5S 6S 7S 8S 9S",
    1: "4D 10H 2C 3C 3H 4H 6H 7H 8H JS QS KS AS",
    2: "6D 8D 9D 10D JD QD KD AD 9H 5C 6C 7C 8C",
    DEAD: "7D JH QH KH AH 4C 9C 10C JC QC KC AC 10S",
}


def runs_state(**opts):
    st = table(3, dealer=2, decks=[build(3, 2, RUNS)], **opts)
    ev = lead(st, 0, "D")
    # the leader's own 3♦, back to the leader for 5♦; 7♦ is dead
    assert plays(ev) == [(0, "2D"), (0, "3D"), (1, "4D"), (0, "5D"), (2, "6D")]
    assert ev[-1] == {"type": "stop", "seat": 2, "card": "6D"}
    assert st.legal_actions(2) == [{"type": "lead", "suit": "H"}, {"type": "lead", "suit": "C"}]
    ev = lead(st, 2, "H")
    assert plays(ev) == [(2, "9H"), (1, "10H")] and ev[-1] == {"type": "stop", "seat": 1, "card": "10H"}
    assert st.legal_actions(1) == [{"type": "lead", "suit": "S"}, {"type": "lead", "suit": "C"}]
    ev = lead(st, 1, "C")
    assert plays(ev) == [(1, "2C"), (1, "3C")] and ev[-1] == {"type": "stop", "seat": 1, "card": "3C"}
    assert st.legal_actions(1) == [{"type": "lead", "suit": "S"}, {"type": "lead", "suit": "H"}]
    ev = lead(st, 1, "H")
    # lowest heart of S1 is 3♥ (2♥ is S0's); 9♥ was already played: 8♥ is a stop
    assert plays(ev) == [(1, "3H"), (1, "4H"), (0, "5H"), (1, "6H"), (1, "7H"), (1, "8H")]
    assert ev[-1] == {"type": "stop", "seat": 1, "card": "8H"}
    v = st.view(None)
    assert v["played"] == [["2D", "3D", "5D", "5H"], ["4D", "10H", "2C", "3C", "3H", "4H", "6H", "7H", "8H"],
                           ["6D", "9H"]]
    assert v["hand_sizes"] == [9, 4, 11] and v["blocked"] == "H" and v["lead_right"] == 1
    assert st.legal_actions(1) == [{"type": "lead", "suit": "S"}]
    return st


def test_runs_own_hand_continuations_and_stops():
    st = runs_state(card_price=2)
    ev = lead(st, 1, "S")
    assert plays(ev) == [(1, "JS"), (1, "QS"), (1, "KS"), (1, "AS")]
    r = st.view(0)["last_result"]
    assert r == {"winner": 1, "cards_left": [9, 0, 11], "payments": [-18, 40, -22],
                 "boodle_hits": [["JS", 1, 4]],
                 "dead_hand": "10S JH QH KH AH 7D 4C 9C 10C JC QC KC AC".split()}
    # 96-18 = 78, 96+4+40 = 140, 92-22 = 70; then hand 1 antes (dealer S0)
    assert st.stacks == [70, 136, 66] and st.pot == [8, 8, 8, 4]


def test_settlement_capped_by_stack_then_broke():
    st = runs_state(card_price=100, buy_in=40, rotations=0)
    assert st.stacks == [36, 36, 32]  # J♠ is still in S1's hand
    ev = lead(st, 1, "S")
    # owed 900 and 1100: S0 pays its 36, S2 its 32; S1 had 36 + 4 (J♠ pool)
    assert of(ev, "hand_end")[0]["payments"] == [-36, 68, -32]
    # S0 must deal next with 0 < 8: no ante at all, the pools go back to their feeders
    assert of(ev, "cannot_ante") == [{"type": "cannot_ante", "seats": [0, 2], "dealer": 0}]
    end = ev[-1]
    assert end["type"] == "session_end" and end["reason"] == "broke"
    assert end["returned"] == [[1, 1, 2], [1, 1, 2], [1, 1, 2], [0, 0, 0]]
    assert st.stacks == [3, 111, 6] and st.pot == [0, 0, 0, 0]
    assert end["results"] == [-37, 71, -34] and end["winners"] == [1]


# --------------------------------------------------------------------------- 5 session end


def test_session_end_returns_exact_contributions_after_close():
    hand1 = {  # dealer S0: positions [DEAD, S1, S2, S0]
        1: "2H 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
        2: "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
        0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
        DEAD: "AS 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    }
    st = table(3, dealer=2, decks=[build(3, 2, ACE_PAY), build(3, 0, hand1)])
    lead(st, 0, "H")
    lead(st, 1, "S")
    assert st.stacks == [87, 114, 75] and st.pot == [4, 8, 8, 4]
    ev = lead(st, 1, "H")
    assert plays(ev) == [(1, "2H")] and ev[-1]["type"] == "stop"
    assert st.request_close() == [{"type": "close_requested", "deal": 1}]
    ev = lead(st, 1, "S")
    assert of(ev, "boodle") == [{"type": "boodle", "seat": 1, "card": "JS", "amount": 4}]
    assert of(ev, "hand_end")[0]["payments"] == [-13, 26, -13]
    assert "ante" not in kinds(ev)
    end = ev[-1]
    assert end["type"] == "session_end" and end["reason"] == "closed"
    # before the return: stacks [74, 144, 62], pools [4, 8, 8, 0]
    assert end["returned"] == [[2, 1, 1], [3, 2, 3], [3, 2, 3], [0, 0, 0]]
    assert st.stacks == [82, 149, 69] and st.pot == [0, 0, 0, 0]
    assert end["results"] == [-18, 49, -31] and end["winners"] == [1]
    for seat in [0, 1, 2, None]:
        v = st.view(seat)
        assert v["phase"] == "session_end" and v["hand"] == [] and v["to_act"] == []
        assert v["last_result"]["winner"] == 1
    assert st.request_close(now=True) == []


def test_fixed_length_two_rotations():
    st = table(3, seed=4)
    ev = drive(st)
    assert len(of(ev, "hand_end")) == 6 and st.deals_played == 6
    assert ev[-1]["reason"] == "rotations" and "cannot_ante" not in kinds(ev)


def test_rotations_zero_runs_until_an_ante_fails():
    for seed in range(3):
        st = table(3, seed=seed, rotations=0, buy_in=40, card_price=2)
        ev = drive(st)
        end = ev[-1]
        assert end["reason"] == "broke" and ev[-2]["type"] == "cannot_ante"
        d = ev[-2]["dealer"]
        before = [st.stacks[s] - sum(end["returned"][p][s] for p in range(4)) for s in range(3)]
        need = [8 if s == d else 4 for s in range(3)]
        assert ev[-2]["seats"] == [s for s in range(3) if before[s] < need[s]]
    # a session that outlasts the default 2 rotations
    st = table(3, seed=1, rotations=0, buy_in=400)
    ev = drive(st)
    assert st.deals_played > 6 and ev[-1]["reason"] == "broke"


# --------------------------------------------------------------------------- 2.6 variant


def test_variant_auction_order_listing_payment_and_secrecy():
    st = table(4, dealer=1, decks=[CANON], spare_hand="dealer_option")
    spare = DEAL4[DEAD].split()
    assert st.stacks == [96, 92, 96, 96]
    v = st.view(1)
    assert v["phase"] == "dealer_choice" and v["to_act"] == [1] and v["bid"] is None
    assert v["hand"] == DEAL4[1].split()
    for seat in [0, 1, 2, 3, None]:
        assert not set(spare) & harness.cards_in(st.view(seat))
    assert st.legal_actions(1) == [{"type": "swap_spare"}, {"type": "keep"}]
    ev = st.apply(1, {"type": "keep"})
    assert ev == [{"type": "keep", "seat": 1}]
    # clockwise from left(d) = S2: S2, S3, S0
    assert st.to_act() == (2,) and st.view(None)["phase"] == "spare_auction"
    assert st.legal_actions(2) == [{"type": "bid", "amount": x} for x in range(1, 97)] + [{"type": "pass"}]
    st.apply(2, {"type": "bid", "amount": 3})
    assert st.view(None)["bid"] == [2, 3]
    assert st.to_act() == (3,)
    assert st.legal_actions(3) == [{"type": "bid", "amount": x} for x in range(4, 97)] + [{"type": "pass"}]
    st.apply(3, {"type": "pass"})
    assert st.to_act() == (0,)
    assert st.legal_actions(0)[0] == {"type": "bid", "amount": 4}
    ev = st.apply(0, {"type": "bid", "amount": 10})
    assert [e for e in ev if e["type"] == "spare_taken"] == [{"type": "spare_taken", "seat": 0, "amount": 10,
                                                              "dealer": 1}]
    assert harness.cards_in(ev) == set()
    assert st.stacks == [86, 102, 96, 96] and st.pot == [5, 5, 5, 5]
    own0 = DEAL4[0].split()
    assert st.view(0)["hand"] == spare and st.dead_hand() == own0
    for seat in [0, 1, 2, 3, None]:
        seen = harness.cards_in(st.view(seat))
        assert not set(own0) & seen  # the hand given up is hidden, even from its old owner
        if seat != 0:
            assert not set(spare) & seen
    v = st.view(None)
    assert v["phase"] == "play" and v["bid"] == [0, 10] and v["to_act"] == [2]
    assert v["hand_sizes"] == [11, 10, 11, 10]
    ev = drive_hand(st)
    assert st.view(None)["last_result"]["dead_hand"] == own0  # canonical order
    assert st.view(None)["bid"] is None and st.view(None)["phase"] == "dealer_choice"


def drive_hand(st):
    ev = []
    played = st.deals_played
    while st.deals_played == played:
        s = st.to_act()[0]
        ev += st.apply(s, st.timeout_action(s))
    return ev


def test_variant_swap_spare_hides_the_old_hand():
    st = table(4, dealer=1, decks=[CANON], spare_hand="dealer_option")
    ev = st.apply(1, {"type": "swap_spare"})
    assert harness.cards_in(ev) == set()
    own1, spare = DEAL4[1].split(), DEAL4[DEAD].split()
    assert st.view(1)["hand"] == spare and st.dead_hand() == own1
    assert st.view(None)["hand_sizes"] == [10, 11, 11, 10] and st.view(None)["bid"] is None
    for seat in [0, 1, 2, 3, None]:
        assert not set(own1) & harness.cards_in(st.view(seat))
    assert st.stacks == [96, 92, 96, 96]  # no jeton moves for a swap
    assert st.to_act() == (2,)


# --------------------------------------------------------------------------- close in every phase


def test_request_close_in_every_phase():
    # dealer_choice, nobody acted: the hand is voided at once
    st = table(4, dealer=1, spare_hand="dealer_option")
    ev = st.request_close()
    assert kinds(ev) == ["void", "session_end"] and ev[0]["deltas"] == [4, 8, 4, 4]
    assert st.stacks == [100] * 4 and st.pot == [0] * 4 and st.is_over()
    # spare_auction: the dealer acted, the close waits for the end of the hand
    st = table(4, dealer=1, spare_hand="dealer_option")
    st.apply(1, {"type": "keep"})
    assert st.request_close() == [{"type": "close_requested", "deal": 0}]
    assert st.view(None)["closing"] is True and st.to_act() == (2,)
    ev = drive(st)
    assert "ante" not in kinds(ev) and ev[-1]["reason"] == "closed" and st.deals_played == 1
    assert sum(st.stacks) == 400 and st.pot == [0] * 4
    # play, nobody acted in this hand: voided; now=True in play after an action: voided too
    st = table(3, dealer=2)
    assert kinds(st.request_close()) == ["void", "session_end"] and st.stacks == [100] * 3
    st = runs_state()
    ev = st.request_close(now=True)
    assert kinds(ev) == ["void", "session_end"] and st.stacks == [100] * 3
    assert all(st.view(s)["hand"] == [] for s in range(3)) and st.view(None)["played"] == [[], [], []]
    # session over: no-op
    assert st.request_close() == [] and st.request_close(now=True) == []


# --------------------------------------------------------------------------- views, refusals, clone


def test_view_fields_and_last_result_keys_exactly():
    st = runs_state()
    v = st.view(0)
    assert {"phase", "to_act", "stacks", "pot", "dealer", "deals_played", "hand", "hand_sizes", "played",
            "lead_right", "blocked", "bid", "last_result", "deal", "closing"} <= set(v)
    assert v["last_result"] is None and v["bid"] is None and v["phase"] == "play"
    lead(st, 1, "S")
    r = st.view(None)["last_result"]
    assert list(r) == ["winner", "cards_left", "payments", "boodle_hits", "dead_hand"]
    # last_result survives into the next hand; a copy, not the state's own lists
    r["payments"][0] = 999
    r["dead_hand"].clear()
    assert st.view(None)["last_result"]["payments"][0] == -9
    assert len(st.view(None)["last_result"]["dead_hand"]) == 13
    json.dumps(st.view(None))


def test_hostile_actions_in_every_phase():
    weird = [None, 0, "lead", [], (), {}, {"type": None}, {"type": ["lead"]},
             {"type": "lead", "suit": ["S"]}, {"type": "lead", "suit": {"x": 1}},
             {"type": "lead", "suit": "s"}, {"type": "lead", "suit": "SS"},
             {"type": "bid", "amount": float("nan")}, {"type": "bid", "amount": 10**30},
             {"type": "bid", "amount": [1]}, {"type": "keep", "seat": 1}, {"type": "swap_spare", "x": None},
             {"type": "pass", "amount": None}, {1: 2}, {("type",): "lead"}, {"type": "lead", "suit": "C"}]
    states = [runs_state()]
    st = table(4, dealer=1, decks=[CANON], spare_hand="dealer_option")
    states.append(st)
    st = st.clone()
    st.apply(1, {"type": "keep"})
    states.append(st)
    st = table(3)
    st.request_close()
    states.append(st)
    for st in states:
        n = st.cfg.n
        actor = st.to_act()[0] if st.to_act() else 0
        for a in weird:
            if a in st.legal_actions(actor):
                continue
            harness.assert_refused(st, n, actor, a)
        for seat in [None, -1, n, True, 1.0, "1", [0]]:
            harness.assert_refused(st, n, seat, {"type": "pass"})
            assert st.legal_actions(seat) == []
            v = st.view(seat)
            assert v["hand"] == []
        for seat in range(n):
            if seat not in st.to_act():
                with pytest.raises(IllegalMove):
                    st.timeout_action(seat)


def test_clone_across_the_end_of_a_hand_is_independent():
    st = runs_state()
    before = harness.snapshot(st, 3)
    acc = (st.stacks[:], st.pot[:], st.contributions(), st.owner[:], st.sizes[:], st.suitcnt[:])
    twin = st.clone()
    lead(twin, 1, "S")  # settles, deals and antes the next hand on the twin
    drive_hand(twin)
    assert harness.snapshot(st, 3) == before
    assert (st.stacks, st.pot, st.contributions(), st.owner, st.sizes, st.suitcnt) == acc
    assert st.last_result is None and st.to_act() == (1,)
    lead(st, 1, "S")
    assert st.view(None)["last_result"]["winner"] == 1


def test_legal_actions_list_is_a_copy():
    st = runs_state()
    got = st.legal_actions(1)
    got.append({"type": "lead", "suit": "H"})
    assert st.legal_actions(1) == [{"type": "lead", "suit": "S"}]
    harness.assert_refused(st, 3, 1, {"type": "lead", "suit": "H"})


@pytest.mark.parametrize("n", [3, 6])
def test_random_variant_sessions_no_leaks(n):
    rng = random.Random(n)
    for seed in range(2):
        harness.random_session("michigan", n, 500 + seed,
                               {"spare_hand": "dealer_option", "rotations": 1, "ante_unit": rng.randint(1, 3),
                                "buy_in": 120, "card_price": 2}, probe_every=5, leak_every=1)


def test_antes_scale_with_u_and_others_need_only_4u():
    st = runs_state(ante_unit=2, buy_in=80, card_price=5)
    assert st.stacks == [72, 72, 64]  # J♠ still in S1's hand
    ev = lead(st, 1, "S")
    assert of(ev, "boodle") == [{"type": "boodle", "seat": 1, "card": "JS", "amount": 8}]
    assert of(ev, "hand_end")[0]["payments"] == [-45, 100, -55]
    # after the hand [27, 180, 9]: S0 (dealer) has 27 >= 16, S2 has 9 >= 8 = 4u: antes taken
    assert "cannot_ante" not in kinds(ev)
    assert st.stacks == [11, 172, 1] and st.pot == [16, 16, 16, 8]
    assert of(ev, "ante")[0]["antes"] == [16, 8, 8]


@pytest.mark.parametrize("n,opts", [(3, {}), (5, {"spare_hand": "dealer_option"}),
                                    (8, {"reveal_dead_hand": False, "rotations": 1})])
def test_events_carry_only_cards_just_played_or_revealed(n, opts):
    st = table(n, seed=40 + n, **opts)
    rng = random.Random(n)
    this_hand: set[str] = set()
    while not st.is_over():
        seat = st.to_act()[0]
        before = st.owner[:]
        ev = st.apply(seat, rng.choice(st.legal_actions(seat)))
        played = set()
        for e in ev:
            if e["type"] in ("lead", "play"):
                assert before[mich.INDEX[e["card"]]] == e["seat"], "a card played from another hand"
                played.add(e["card"])
            elif e["type"] in ("boodle", "out", "stop"):
                assert e["card"] in played
        this_hand |= played
        revealed = set()
        for e in of(ev, "hand_end"):
            assert {h[0] for h in e["boodle_hits"]} <= this_hand
            revealed |= set(e["dead_hand"] or []) | {h[0] for h in e["boodle_hits"]}
            this_hand = set()
            assert (e["dead_hand"] is None) == (opts.get("reveal_dead_hand") is False)
        assert harness.cards_in(ev) <= played | revealed


# S0 keeps 12 cards, S1 1: only the next dealer (S0) can fall short.
DEALER_SHORT = {
    0: "2H 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
    1: "3H 5H 7H 9H JH KH 2D 4D 6D 8D 10D QD AD",
    2: "4H 6H 8H 10H QH AH 3D 5D 7D 9D JD KD AS",
    DEAD: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
}


def dealer_short_hand(buy_in):
    st = table(3, dealer=2, decks=[build(3, 2, DEALER_SHORT)], buy_in=buy_in, card_price=3, rotations=0)
    ev = lead(st, 0, "H")
    assert len(plays(ev)) == 13 and ev[-1] == {"type": "stop", "seat": 2, "card": "AH"}
    assert st.legal_actions(2) == [{"type": "lead", "suit": "S"}, {"type": "lead", "suit": "D"}]
    ev = lead(st, 2, "D")
    assert plays(ev)[0] == (2, "3D") and plays(ev)[-1] == (1, "AD")
    assert ev[-2:] == [{"type": "stop", "seat": 1, "card": "AD"},
                       {"type": "lead_passes", "from": 1, "to": 2, "blocked": "D"}]
    ev = lead(st, 2, "S")
    assert plays(ev) == [(2, "AS")] and of(ev, "out")
    assert of(ev, "hand_end")[0]["payments"] == [-36, -3, 39]
    return st, ev


def test_next_dealer_needs_8u():
    # buy-in 47: after the hand S0 has 43 - 36 = 7 < 8 (S1 has 47 - 4 + 4 - 3 = 44)
    st, ev = dealer_short_hand(47)
    assert of(ev, "cannot_ante") == [{"type": "cannot_ante", "seats": [0], "dealer": 0}]
    end = ev[-1]
    assert end["returned"] == [[0, 0, 0], [1, 1, 2], [0, 0, 0], [1, 1, 2]]
    assert st.stacks == [9, 46, 86] and end["results"] == [-38, -1, 39]
    # buy-in 48: S0 has exactly 8 and antes it all
    st, ev = dealer_short_hand(48)
    assert "cannot_ante" not in kinds(ev) and not st.is_over()
    assert st.stacks == [0, 41, 79] and st.pot == [4, 8, 4, 8]


LIFT = {
    0: "2S 3S 5S 2H 3H 4H 5H 6H 7H 8H 9H 2D 3D",
    1: "6S 8S 10H JH QH KH AH 2C 3C 4C 5C 6C 7C",
    2: "7S 9S JS QS KS AS 8C 9C 10C JC QC KC AC",
    DEAD: "4S 10S 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
}


def test_block_lifted_leader_is_lead_right():
    st = table(3, dealer=2, decks=[build(3, 2, LIFT)])
    lead(st, 0, "H")   # 2♥-9♥ S0, 10♥-A♥ S1: ace stop at S1
    lead(st, 1, "C")   # 2♣-7♣ S1, 8♣-A♣ S2: ace stop at S2
    ev = lead(st, 2, "S")
    assert plays(ev) == [(2, "7S"), (1, "8S"), (2, "9S")]
    assert ev[-2:] == [{"type": "stop", "seat": 2, "card": "9S"},
                       {"type": "lead_passes", "from": 2, "to": 0, "blocked": "S"}]
    assert st.legal_actions(0) == [{"type": "lead", "suit": "D"}]
    ev = lead(st, 0, "D")
    assert plays(ev) == [(0, "2D"), (0, "3D")] and ev[-1]["type"] == "stop"
    ev = lead(st, 0, "S")
    assert plays(ev) == [(0, "2S"), (0, "3S")]
    # S0 5♠, S1 6♠, S2 J♠ Q♠ K♠ A♠: only spades anywhere; the stopper S0 leads them again
    assert ev[-2:] == [{"type": "stop", "seat": 0, "card": "3S"},
                       {"type": "block_lifted", "seat": 0, "suit": "S"}]
    v = st.view(None)
    assert v["to_act"] == [0] and v["lead_right"] == 0 and v["blocked"] == "S"
    assert st.legal_actions(0) == [{"type": "lead", "suit": "S"}]
    assert st.timeout_action(0) == {"type": "lead", "suit": "S"}
    ev = lead(st, 0, "S")
    assert plays(ev) == [(0, "5S")] and of(ev, "out")  # 6♠ (S1) is never reached
    r = st.view(1)["last_result"]
    assert r["winner"] == 0 and r["cards_left"] == [0, 1, 4] and r["payments"] == [5, -1, -4]
    assert r["boodle_hits"] == [["AH", 1, 4], ["KC", 2, 4]]
