"""Michigan: spec examples, hand-checked stacked deals for every subtle rule, contract checks."""

from __future__ import annotations

import json

import pytest

from bot.rules import GAMES, IllegalMove, cards
from bot.rules import michigan as mich
from tests.rules import harness

G = GAMES["michigan"]
DEAD = "dead"


def _codes(text: str) -> list[str]:
    return text.split()


def canon(codes: list[str]) -> list[str]:
    """Canonical order: suits S H D C, ranks 2 up to A."""
    return sorted(codes, key=lambda c: mich.INDEX[c])


def stack_deck(n: int, dealer: int, hands: dict, fill: bool = False) -> list[str]:
    """A 52-card deck dealing ``hands`` ({seat: "codes", DEAD: "codes"}) with ``dealer`` dealing.

    Dealing positions are [DEAD, left(d), …, d] (spec 2.2). With ``fill``, cards not named go,
    in canonical order, to the positions that still lack cards (dead hand first, then seats 0…).
    """
    order = [DEAD] + [(dealer + j) % n for j in range(1, n + 1)]
    want = {who: 0 for who in order}
    for i in range(52):
        want[order[i % (n + 1)]] += 1
    given = {who: _codes(hands.get(who, "")) for who in order}
    named = [c for cs in given.values() for c in cs]
    assert len(named) == len(set(named)), "a card is named twice"
    rest = [c for c in mich.CODES if c not in named]
    if fill:
        for who in [DEAD, *range(n)]:
            while len(given[who]) < want[who]:
                given[who].append(rest.pop(0))
    assert not rest, f"cards not placed: {rest}"
    for who in order:
        assert len(given[who]) == want[who], f"{who} needs {want[who]} cards, got {len(given[who])}"
    deck = [given[order[i % (n + 1)]].pop(0) for i in range(52)]
    assert sorted(deck) == sorted(cards.DECK_52)
    return deck


def new(n: int = 4, seed: int = 1, **opts):
    return G.new_table(seats=n, options=G.validate_options(opts), seed=seed)


def lead(state, seat: int, suit: str) -> list[dict]:
    return state.apply(seat, {"type": "lead", "suit": suit})


def plays(events: list[dict]) -> list[tuple[int, str]]:
    """(seat, card) of every card played, leads and forced continuations."""
    return [(e["seat"], e["card"]) for e in events if e["type"] in ("lead", "play")]


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def total(state) -> int:
    return sum(state.stacks) + sum(state.pot)


# --------------------------------------------------------------------------- example A


def test_example_a_antes_five_players():
    st = new(5, dealer=2)
    assert st.pot == [6, 6, 6, 6]
    assert sum(st.pot) == 24
    assert [100 - s for s in st.stacks] == [4, 4, 8, 4, 4]
    assert st.contributions() == [[1, 1, 2, 1, 1]] * 4
    v = st.view(None)
    assert v["pot"] == [6, 6, 6, 6] and v["dealer"] == 2 and v["to_act"] == [3]


# --------------------------------------------------------------------------- example B

# Four seats, dealer S3, S0 leads first. Four full runs bring the hand to example B.
B_HANDS = {
    0: "3S 4S 9S 9H 3D 4D 5D 6D AD 4C 9C",
    1: "5S 7S 10S QS 7H 10H 7D 8D 8C 10C",
    2: "6S JS 2H JH AH 2D 9D 10D JC QC",
    3: "8H QH KH JD QD KD 5C 6C KC AC",
    DEAD: "2S 8S KS AS 3H 4H 5H 6H 2C 3C 7C",
}


def example_b_state(**opts):
    deck = stack_deck(4, 3, B_HANDS)
    st = new(4, dealer=3, decks=[deck], **opts)
    ev = lead(st, 0, "S")
    assert plays(ev) == [(0, "3S"), (0, "4S"), (1, "5S"), (2, "6S"), (1, "7S")]
    assert ev[-1] == {"type": "stop", "seat": 1, "card": "7S"}  # 8S is dead
    assert st.to_act() == (1,) and st.view(1)["blocked"] == "S"
    ev = lead(st, 1, "C")
    assert plays(ev) == [(1, "8C"), (0, "9C"), (1, "10C"), (2, "JC"), (2, "QC"), (3, "KC"), (3, "AC")]
    assert of_type(ev, "boodle") == [{"type": "boodle", "seat": 3, "card": "KC", "amount": 5}]
    assert ev[-1]["type"] == "stop" and ev[-1]["card"] == "AC"  # the ace stops
    ev = lead(st, 3, "H")
    assert [c for _, c in plays(ev)] == ["8H", "9H", "10H", "JH", "QH", "KH", "AH"]
    ev = lead(st, 2, "D")
    assert plays(ev)[0] == (2, "2D") and plays(ev)[-1] == (0, "AD")
    assert len(plays(ev)) == 13
    return st


def finish_example_b(st) -> list[dict]:
    return lead(st, 0, "S") + lead(st, 1, "H")


def test_example_b_run_boodle_stop_out():
    st = example_b_state()
    # the situation of example B
    assert st.view(0)["hand"] == ["9S", "4C"]
    assert st.view(1)["hand"] == ["10S", "QS", "7H"]
    assert st.view(2)["hand"] == ["JS", "2H"]
    assert st.view(3)["hand"] == ["5C", "6C"]
    assert "KS" in st.dead_hand()
    assert "8H" in st.view(None)["played"][3]
    v = st.view(None)
    assert v["lead_right"] == 0 and v["blocked"] == "D" and v["to_act"] == [0]
    assert st.pot == [0, 0, 0, 5]  # A♥ K♣ Q♦ taken during the prelude, B[J♠] = 5
    assert st.legal_actions(0) == [{"type": "lead", "suit": "S"}, {"type": "lead", "suit": "C"}]
    stacks = st.stacks[:]
    ev = lead(st, 0, "S")
    assert plays(ev) == [(0, "9S"), (1, "10S"), (2, "JS"), (1, "QS")]
    assert of_type(ev, "boodle") == [{"type": "boodle", "seat": 2, "card": "JS", "amount": 5}]
    assert st.pot[3] == 0 and st.contributions()[3] == [0, 0, 0, 0]
    assert ev[-1] == {"type": "stop", "seat": 1, "card": "QS"}  # K♠ is dead
    v = st.view(None)
    assert v["lead_right"] == 1 and v["blocked"] == "S"
    assert st.legal_actions(1) == [{"type": "lead", "suit": "H"}]
    ev = lead(st, 1, "H")
    assert of_type(ev, "lead") == [{"type": "lead", "seat": 1, "suit": "H", "card": "7H"}]
    assert of_type(ev, "out") == [{"type": "out", "seat": 1, "card": "7H"}]
    r = st.view(None)["last_result"]
    assert r["winner"] == 1
    assert r["cards_left"] == [1, 0, 1, 2]
    assert r["payments"] == [-1, 4, -1, -2]
    assert r["boodle_hits"] == [["KC", 3, 5], ["AH", 2, 5], ["QD", 3, 5], ["JS", 2, 5]]
    assert r["dead_hand"] == canon(_codes(B_HANDS[DEAD]))
    end = of_type(ev, "hand_end")[0]
    assert end["deltas"] == [-5, 0, 5, 0]  # whole hand: antes, hits, payments
    assert sum(end["deltas"]) + end["pot_change"] == 0
    # the next hand is already under way, its antes taken (dealer S0)
    assert st.view(None)["deal"] == 1 and st.dealer == 0 and st.deals_played == 1
    after_hand = [stacks[0] - 1, stacks[1] + 4, stacks[2] + 5 - 1, stacks[3] - 2]
    assert after_hand == [95, 100, 105, 100]
    assert st.stacks == [95 - 8, 100 - 4, 105 - 4, 100 - 4]
    assert st.pot == [5, 5, 5, 5]
    assert st.to_act() == (1,)


# --------------------------------------------------------------------------- example C

C_HANDS = {
    0: "2S 3S 4S 5S JS 5H 10H 4D 5D 9D JD 3C 4C",
    1: "6S 7S 8S 6H 7H JH 3D 6D QD AD 2C 5C 6C",
    2: "9S 10S 9H QH KH AH 7D 10D KD 7C 8C JC KC",
    DEAD: "QS KS AS 2H 3H 4H 8H 2D 8D 9C 10C QC AC",
}


def test_example_c_block_passes_the_lead():
    st = new(3, dealer=2, decks=[stack_deck(3, 2, C_HANDS)])
    ev = lead(st, 0, "S")
    assert [c for _, c in plays(ev)] == ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS"]
    assert ev[-1] == {"type": "stop", "seat": 0, "card": "JS"}
    ev = lead(st, 0, "D")
    assert plays(ev) == [(0, "4D"), (0, "5D"), (1, "6D"), (2, "7D")]
    ev = lead(st, 2, "H")
    assert plays(ev) == [(2, "9H"), (0, "10H"), (1, "JH"), (2, "QH"), (2, "KH"), (2, "AH")]
    ev = lead(st, 2, "D")
    assert plays(ev) == [(2, "10D"), (0, "JD"), (1, "QD"), (2, "KD"), (1, "AD")]
    ev = lead(st, 1, "C")
    assert plays(ev) == [(1, "2C"), (0, "3C"), (0, "4C"), (1, "5C"), (1, "6C"), (2, "7C"), (2, "8C")]
    assert ev[-2] == {"type": "stop", "seat": 2, "card": "8C"}  # 9♣ is dead
    # the situation of example C
    assert st.view(2)["hand"] == ["JC", "KC"]
    assert st.view(0)["hand"] == ["5H", "9D"]
    assert st.view(1)["hand"] == ["6H", "7H", "3D"]
    v = st.view(None)
    assert v["lead_right"] == 2 and v["blocked"] == "C"
    assert ev[-1] == {"type": "lead_passes", "from": 2, "to": 0, "blocked": "C"}
    assert st.to_act() == (0,)
    assert st.legal_actions(2) == []
    assert st.legal_actions(0) == [{"type": "lead", "suit": "H"}, {"type": "lead", "suit": "D"}]
    ev = lead(st, 0, "H")
    assert plays(ev) == [(0, "5H"), (1, "6H"), (1, "7H")]  # same holder twice
    assert ev[-1] == {"type": "stop", "seat": 1, "card": "7H"}  # 8♥ is dead
    v = st.view(None)
    assert v["lead_right"] == 1 and v["blocked"] == "H"
    assert st.legal_actions(1) == [{"type": "lead", "suit": "D"}]
    ev = lead(st, 1, "D")
    assert plays(ev) == [(1, "3D")]
    assert of_type(ev, "out") == [{"type": "out", "seat": 1, "card": "3D"}]
    r = st.view(None)["last_result"]
    assert r["winner"] == 1 and r["cards_left"] == [1, 0, 2]
    assert r["payments"] == [-1, 3, -2]


# --------------------------------------------------------------------------- the deal


SIZES = {3: (13, [13, 13, 13]), 4: (11, [11, 10, 10, 10]), 5: (9, [9, 9, 9, 8, 8]),
         6: (8, [8, 8, 7, 7, 7, 7]), 7: (7, [7, 7, 7, 6, 6, 6, 6]), 8: (6, [6, 6, 6, 6, 6, 6, 5, 5])}


@pytest.mark.parametrize("n", range(3, 9))
def test_deal_order_and_hand_sizes(n):
    dealer = n - 2
    deck = list(reversed(cards.DECK_52))
    st = new(n, dealer=dealer, decks=[deck])
    dead_size, sizes = SIZES[n]
    assert st.dead_hand() == canon(deck[0::n + 1])  # the dead hand gets the first card
    assert len(st.dead_hand()) == dead_size
    for j in range(1, n + 1):
        seat = (dealer + j) % n
        assert st.view(seat)["hand"] == canon(deck[j::n + 1])
        assert st.view(None)["hand_sizes"][seat] == sizes[j - 1]
    assert st.to_act() == ((dealer + 1) % n,)


def test_shuffle_matches_cards_deck_for_deal():
    for seed in range(40):
        for k in range(3):
            got = [mich.CODES[x] for x in mich._deck_ints(None, seed, k)]
            assert got == cards.deck_for_deal(cards.DECK_52, None, seed, k)


def test_stacked_deck_used_then_shuffled():
    deck = list(cards.DECK_52)
    st = new(3, dealer=0, decks=[deck], seed=7)
    assert st.view(1)["hand"] == canon(deck[1::4])
    shuffled = cards.deck_for_deal(cards.DECK_52, None, 7, 1)
    # drive hand 0 to its end with the timeout policy, then compare hand 1 with the shuffle
    while st.deals_played == 0:
        seat = st.to_act()[0]
        st.apply(seat, st.timeout_action(seat))
    assert st.view(None)["deal"] == 1
    assert st.view(2)["hand"] == canon(shuffled[1::4])  # dealer 1 now: seat 2 is first


# --------------------------------------------------------------------------- ante check

# Three seats, dealer S2: S0 leads 2♥; the hearts run ends at S1 (6♥ dead); S1 then runs
# 2♠…K♠ and goes out. ``s0_hearts`` hearts are played by S0, the rest of 2♥-4♥ by S2.


def ante_check_state(buy_in: int, s0_hearts: int, ace_of_spades_to: object = DEAD, **opts):
    low = ["2H", "3H", "4H"]
    hands = {
        0: " ".join(low[:s0_hearts]),
        2: " ".join(low[s0_hearts:]),
        1: "5H 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
        DEAD: "6H",
    }
    hands[ace_of_spades_to] = (hands[ace_of_spades_to] + " AS").strip()
    st = new(3, dealer=2, decks=[stack_deck(3, 2, hands, fill=True)], buy_in=buy_in, **opts)
    assert st.stacks == [buy_in - 4, buy_in - 4, buy_in - 8]
    return st


def play_ante_hand(st) -> list[dict]:
    ev = lead(st, 0, "H")
    ev += lead(st, 1, "S")
    assert of_type(ev, "out")[0]["seat"] == 1
    assert of_type(ev, "boodle") == [{"type": "boodle", "seat": 1, "card": "JS", "amount": 4}]
    return ev


def test_dealer_needs_8u_session_ends_before_ante():
    st = ante_check_state(47, 1, card_price=3)
    ev = play_ante_hand(st)
    assert st.view(None)["last_result"]["payments"] == [-36, 69, -33]
    # S0 deals next with 7 < 8: no ante, the session ends; pools go back to contributors
    assert of_type(ev, "cannot_ante") == [{"type": "cannot_ante", "seats": [0], "dealer": 0}]
    end = of_type(ev, "session_end")[0]
    assert end["reason"] == "broke"
    assert end["returned"] == [[1, 1, 2], [1, 1, 2], [1, 1, 2], [0, 0, 0]]
    assert st.stacks == [7 + 3, 116 + 3, 6 + 6] and st.pot == [0, 0, 0, 0]
    assert end["results"] == [10 - 47, 119 - 47, 12 - 47]
    assert end["winners"] == [1]
    assert st.is_over() and st.to_act() == () and st.view(None)["deal"] == 0


def test_dealer_with_8u_antes_and_pools_carry_over():
    st = ante_check_state(48, 1, card_price=3)
    ev = play_ante_hand(st)
    assert not st.is_over()
    before = [8, 117, 7]  # after hand 0's payments
    assert of_type(ev, "hand_end")[0]["deltas"] == [8 - 48, 117 - 48, 7 - 48]
    assert st.stacks == [before[0] - 8, before[1] - 4, before[2] - 4]
    # A♥ K♣ Q♦ were not played: their pools carry over and receive the new antes
    assert st.pot == [4 + 4, 4 + 4, 4 + 4, 0 + 4]
    assert st.contributions() == [[3, 2, 3]] * 3 + [[2, 1, 1]]
    assert total(st) == 3 * 48


def test_other_seat_needs_4u():
    st = ante_check_state(47, 2, card_price=3)
    ev = play_ante_hand(st)
    assert st.view(None)["last_result"]["payments"] == [-33, 69, -36]
    assert of_type(ev, "cannot_ante")[0]["seats"] == [2]  # S2 holds 3 < 4
    assert st.is_over()
    st = ante_check_state(48, 2, card_price=3)
    play_ante_hand(st)
    assert not st.is_over() and st.stacks[2] == 0  # exactly 4: antes taken


def test_going_out_payments_capped_by_stacks():
    st = ante_check_state(40, 1, card_price=100, rotations=0)
    ev = play_ante_hand(st)
    r = of_type(ev, "hand_end")[0]
    assert r["cards_left"] == [12, 0, 11]
    assert r["payments"] == [-36, 68, -32]  # owed 1200 and 1100, paid their whole stacks
    end = of_type(ev, "session_end")[0]
    assert end["reason"] == "broke"
    assert st.stacks == [0 + 3, 108 + 3, 0 + 6] and sum(st.stacks) == 120


def test_going_out_in_the_middle_of_a_run():
    st = ante_check_state(100, 1, ace_of_spades_to=2)
    ev = play_ante_hand(st)
    assert plays(ev)[-1] == (1, "KS")
    assert not any(e["type"] == "stop" and e["card"] == "KS" for e in ev)  # A♠ is held by S2
    r = of_type(ev, "hand_end")[0]
    assert r["winner"] == 1 and r["cards_left"] == [12, 0, 11]
    assert "AS" not in r["dead_hand"]


# --------------------------------------------------------------------------- runs and stops


def test_lead_plays_lowest_card_of_the_suit():
    hands = {0: "KH 5H QH 9D", 1: "6H", DEAD: "2H 3H 4H 7H"}
    st = new(3, dealer=2, decks=[stack_deck(3, 2, hands, fill=True)])
    ev = lead(st, 0, "H")
    assert plays(ev) == [(0, "5H"), (1, "6H")]
    assert ev[-1] == {"type": "stop", "seat": 1, "card": "6H"}


def test_stops_by_dead_hand_and_by_played_card():
    hands = {0: "5H 2S", 1: "3H 3S", 2: "4H", DEAD: "2H 6H 4S"}
    st = new(3, dealer=2, decks=[stack_deck(3, 2, hands, fill=True)])
    ev = lead(st, 0, "H")
    assert plays(ev) == [(0, "5H")] and ev[-1] == {"type": "stop", "seat": 0, "card": "5H"}  # 6♥ dead
    ev = lead(st, 0, "S")
    assert plays(ev) == [(0, "2S"), (1, "3S")] and ev[-1]["card"] == "3S"  # 4♠ dead
    assert st.to_act() == (1,)
    ev = lead(st, 1, "H")
    assert plays(ev) == [(1, "3H"), (2, "4H")]
    assert ev[-1] == {"type": "stop", "seat": 2, "card": "4H"}  # 5♥ already played
    v = st.view(None)
    assert v["lead_right"] == 2 and v["blocked"] == "H"
    assert v["played"][0] == ["5H", "2S"] and v["played"][1] == ["3S", "3H"]


def test_a_led_ace_stops_at_once():
    dead = "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD 2C"
    st = new(3, dealer=2, decks=[stack_deck(3, 2, {0: "AD", DEAD: dead}, fill=True)])
    ev = lead(st, 0, "D")
    assert plays(ev) == [(0, "AD")]
    assert ev[-1] == {"type": "stop", "seat": 0, "card": "AD"}
    assert st.view(None)["blocked"] == "D" and st.to_act() == (0,)
    assert {"type": "lead", "suit": "D"} not in st.legal_actions(0)


def test_lead_passes_over_two_seats_holding_only_the_blocked_suit():
    hands = {
        0: "2D 2H 3H 4H 5H 6H 2C 3C 4C 5C 6C",
        1: "3S 6S 8S 10S 3D 5D 7D 9D JD KD",
        2: "2S 5S 7S 9S 4D 6D 8D 10D QD AD",
        3: "7H 8H 9H 10H JH 7C 8C 9C 10C JC",
        DEAD: "4S JS QS KS AS QH KH AH QC KC AC",
    }
    st = new(4, dealer=3, decks=[stack_deck(4, 3, hands)])
    ev = lead(st, 0, "D")
    assert len(plays(ev)) == 13 and ev[-1] == {"type": "stop", "seat": 2, "card": "AD"}
    assert st.legal_actions(2) == [{"type": "lead", "suit": "S"}]
    ev = lead(st, 2, "S")
    assert plays(ev) == [(2, "2S"), (1, "3S")]
    assert ev[-2] == {"type": "stop", "seat": 1, "card": "3S"}
    assert ev[-1] == {"type": "lead_passes", "from": 1, "to": 3, "blocked": "S"}
    v = st.view(None)
    assert v["lead_right"] == 1 and v["blocked"] == "S" and v["to_act"] == [3]
    assert st.legal_actions(3) == [{"type": "lead", "suit": "H"}, {"type": "lead", "suit": "C"}]


def test_block_lifted_for_the_blocked_suit_itself():
    hands = {
        0: "2S 9S 10S 3H 5H 7H 9H JH KH 5D 7D 9D JD",
        1: "5S 6S 4H 6H 8H 10H QH AH 4D 6D 8D 10D QD",
        2: "8S QS KD AD 5C 6C 7C 8C 9C 10C JC QC KC",
        DEAD: "3S 4S 7S JS KS AS 2H 2D 3D 2C 3C 4C AC",
    }
    st = new(3, dealer=2, decks=[stack_deck(3, 2, hands)])
    lead(st, 0, "H")
    lead(st, 1, "D")
    ev = lead(st, 2, "C")
    assert ev[-1] == {"type": "stop", "seat": 2, "card": "KC"}  # A♣ is dead
    ev = lead(st, 2, "S")
    assert plays(ev) == [(2, "8S"), (0, "9S"), (0, "10S")]
    assert ev[-2] == {"type": "stop", "seat": 0, "card": "10S"}  # J♠ is dead
    assert [st.view(s)["hand"] for s in range(3)] == [["2S"], ["5S", "6S"], ["QS"]]
    # only spades are left anywhere: the block on spades is lifted for S0
    assert ev[-1] == {"type": "block_lifted", "seat": 0, "suit": "S"}
    assert st.view(None)["blocked"] == "S" and st.to_act() == (0,)
    assert st.legal_actions(0) == [{"type": "lead", "suit": "S"}]
    ev = lead(st, 0, "S")
    assert plays(ev) == [(0, "2S")] and of_type(ev, "out")[0]["seat"] == 0


def test_empty_pool_pays_zero_and_is_listed():
    # Unreachable in play (every hand antes on every pool): empty B[J♠] by hand, conserving jetons.
    st = ante_check_state(100, 1)
    st.stacks[0] += st.pot[3]
    st.pot[3] = 0
    n = 3
    st.contrib[3 * n:4 * n] = [0] * n
    ev = lead(st, 0, "H") + lead(st, 1, "S")
    assert of_type(ev, "boodle") == [{"type": "boodle", "seat": 1, "card": "JS", "amount": 0}]
    assert of_type(ev, "hand_end")[0]["boodle_hits"] == [["JS", 1, 0]]


# --------------------------------------------------------------------------- variant 2.6


def variant_state(**opts):
    deck = list(cards.DECK_52)
    st = new(3, dealer=2, decks=[deck], spare_hand="dealer_option", **opts)
    return st, deck


def test_dealer_option_swap_spare():
    st, deck = variant_state()
    v = st.view(2)
    assert v["phase"] == "dealer_choice" and v["to_act"] == [2]
    assert st.legal_actions(2) == [{"type": "swap_spare"}, {"type": "keep"}]
    spare, own = canon(deck[0::4]), canon(deck[3::4])
    assert v["hand"] == own and st.dead_hand() == spare
    ev = st.apply(2, {"type": "swap_spare"})
    assert ev[0] == {"type": "swap_spare", "seat": 2}
    assert st.view(2)["hand"] == spare and st.dead_hand() == own
    assert st.view(None)["phase"] == "play" and st.to_act() == (0,)
    assert st.view(None)["bid"] is None
    assert not set(own) & harness.cards_in(st.view(None))


def test_dealer_option_keep_and_auction():
    st, deck = variant_state()
    st.apply(2, {"type": "keep"})
    assert st.view(None)["phase"] == "spare_auction" and st.to_act() == (0,)
    legal = st.legal_actions(0)
    assert legal == [{"type": "bid", "amount": x} for x in range(1, 97)] + [{"type": "pass"}]
    st.apply(0, {"type": "bid", "amount": 5})
    assert st.view(None)["bid"] == [0, 5]
    assert st.legal_actions(1)[0] == {"type": "bid", "amount": 6}
    assert st.legal_actions(1)[-2:] == [{"type": "bid", "amount": 96}, {"type": "pass"}]
    ev = st.apply(1, {"type": "bid", "amount": 7})
    assert ev[-1] == {"type": "spare_taken", "seat": 1, "amount": 7, "dealer": 2}
    assert st.stacks == [96, 96 - 7, 92 + 7]
    assert st.view(1)["hand"] == canon(deck[0::4]) and st.dead_hand() == canon(deck[2::4])
    v = st.view(None)
    assert v["phase"] == "play" and v["bid"] == [1, 7] and st.to_act() == (0,)
    assert v["hand_sizes"] == [13, 13, 13]


def test_dealer_option_first_bidder_wins_and_pays_the_dealer():
    st, deck = variant_state()
    st.apply(2, {"type": "keep"})
    st.apply(0, {"type": "bid", "amount": 3})
    st.apply(1, {"type": "pass"})
    assert st.stacks == [93, 96, 95]
    assert st.view(0)["hand"] == canon(deck[0::4])


def test_dealer_option_no_bid_leaves_spare_dead():
    st, deck = variant_state()
    st.apply(2, {"type": "keep"})
    st.apply(0, {"type": "pass"})
    ev = st.apply(1, {"type": "pass"})
    assert ev[-1] == {"type": "spare_dead"}
    assert st.dead_hand() == canon(deck[0::4]) and st.view(None)["bid"] is None
    assert st.stacks == [96, 96, 92]


def test_auction_with_only_pass_possible():
    st, _ = variant_state()
    st.apply(2, {"type": "keep"})
    st.apply(0, {"type": "bid", "amount": 96})
    assert st.legal_actions(1) == [{"type": "pass"}]


# --------------------------------------------------------------------------- reveal, session end


def test_reveal_dead_hand_off():
    st = example_b_state(reveal_dead_hand=False)
    finish_example_b(st)
    assert st.view(None)["last_result"]["dead_hand"] is None
    keys = {"winner", "cards_left", "payments", "boodle_hits", "dead_hand"}
    assert set(st.view(None)["last_result"]) == keys


def test_dead_hand_hidden_during_the_hand():
    st = example_b_state()
    dead = set(_codes(B_HANDS[DEAD]))
    for seat in [*range(4), None]:
        assert not dead & harness.cards_in(st.view(seat))


def drive(st, limit: int = 100_000) -> list[dict]:
    events: list[dict] = []
    for _ in range(limit):
        if st.is_over():
            return events
        seat = st.to_act()[0]
        events += st.apply(seat, st.timeout_action(seat))
    raise AssertionError("no end")


@pytest.mark.parametrize("n", [3, 5])
def test_session_ends_after_rotations(n):
    st = new(n, rotations=1, seed=11)
    ev = drive(st)
    assert st.deals_played == n and len(of_type(ev, "hand_end")) == n
    end = ev[-1]
    assert end["type"] == "session_end" and end["reason"] == "rotations"
    assert sum(st.stacks) == 100 * n and st.pot == [0, 0, 0, 0]
    assert end["results"] == [s - 100 for s in st.stacks]
    v = st.view(0)
    assert v["phase"] == "session_end" and v["to_act"] == [] and v["hand"] == []


def test_rotations_zero_plays_until_a_seat_cannot_ante():
    st = new(4, rotations=0, buy_in=40, card_price=5, seed=3)
    ev = drive(st)
    assert ev[-1]["reason"] == "broke"
    short = of_type(ev, "cannot_ante")[0]
    assert short["seats"] and st.deals_played >= 1
    assert sum(st.stacks) == 160 and st.pot == [0, 0, 0, 0]


def test_session_end_returns_each_pool_to_its_contributors():
    st = new(4, rotations=1, seed=5)
    while True:
        seat = st.to_act()[0]
        ev = st.apply(seat, st.timeout_action(seat))
        if st.is_over():
            break
    end = ev[-1]
    hand_end = of_type(ev, "hand_end")[-1]
    assert sum(map(sum, end["returned"])) == sum(hand_end["pot"])
    for p in range(4):
        assert sum(end["returned"][p]) == hand_end["pot"][p]


# --------------------------------------------------------------------------- request_close


def test_close_before_any_action_voids_the_hand():
    st = new(4, dealer=0)
    ev = st.request_close()
    assert [e["type"] for e in ev] == ["void", "session_end"]
    assert st.stacks == [100] * 4 and st.pot == [0, 0, 0, 0]
    assert ev[-1]["results"] == [0, 0, 0, 0] and ev[-1]["reason"] == "closed"
    assert st.is_over() and st.view(None)["closing"] is True
    assert st.request_close() == [] and st.request_close(now=True) == []


def test_close_after_an_action_ends_after_the_hand():
    st = example_b_state()
    st2 = example_b_state()
    ev = st.request_close()
    assert ev == [{"type": "close_requested", "deal": 0}]
    assert st.view(0)["closing"] is True and not st.is_over()
    ev = finish_example_b(st)
    assert not of_type(ev, "ante") and ev[-1]["type"] == "session_end"
    assert ev[-1]["reason"] == "closed"
    assert st.stacks == [95, 100, 105, 100] and st.pot == [0, 0, 0, 0]
    finish_example_b(st2)
    assert st2.stacks == [87, 96, 101, 96]  # without the close, hand 1 antes were taken


def test_close_at_the_start_of_a_later_hand_reverses_its_antes():
    st = example_b_state()
    finish_example_b(st)
    assert st.stacks == [87, 96, 101, 96]
    ev = st.request_close()
    assert ev[0]["type"] == "void" and ev[0]["deltas"] == [8, 4, 4, 4]
    assert st.stacks == [95, 100, 105, 100] and st.pot == [0, 0, 0, 0]


def test_close_now_mid_hand_reverses_hits_and_antes():
    st = ante_check_state(48, 1, card_price=3)
    play_ante_hand(st)  # hand 1 under way; pools [8, 8, 8, 4]
    seat = st.to_act()[0]
    st.apply(seat, st.timeout_action(seat))
    ev = st.request_close(now=True)
    assert ev[0]["type"] == "void" and ev[-1]["type"] == "session_end"
    # accounts as after hand 0: [8, 117, 7], pools [4, 4, 4, 0] returned to contributors
    assert ev[-1]["returned"] == [[1, 1, 2], [1, 1, 2], [1, 1, 2], [0, 0, 0]]
    assert st.stacks == [8 + 3, 117 + 3, 7 + 6] and st.pot == [0, 0, 0, 0]


def test_close_during_auction_voids_the_auction_payment():
    st, _ = variant_state()
    st.apply(2, {"type": "keep"})
    st.apply(0, {"type": "bid", "amount": 9})
    st.apply(1, {"type": "pass"})
    assert st.stacks == [87, 96, 101]
    st.request_close(now=True)
    assert st.stacks == [100, 100, 100]


# --------------------------------------------------------------------------- timeouts


def test_timeout_play_leads_lowest_rank_with_suit_order_ties():
    hands = {0: "3H 3D 3C 9S", 1: "3S", DEAD: "2S 2H 2D 2C"}
    st = new(3, dealer=2, decks=[stack_deck(3, 2, hands, fill=True)])
    assert st.timeout_action(0) == {"type": "lead", "suit": "H"}
    st = example_b_state()
    assert st.timeout_action(0) == {"type": "lead", "suit": "C"}  # 4♣ below 9♠
    with pytest.raises(IllegalMove):
        st.timeout_action(1)


def test_timeout_dealer_choice_keep_and_auction_pass():
    st, _ = variant_state()
    assert st.timeout_action(2) == {"type": "keep"}
    st.apply(2, st.timeout_action(2))
    assert st.timeout_action(0) == {"type": "pass"}
    st.apply(0, st.timeout_action(0))
    assert st.timeout_action(1) == {"type": "pass"}


def test_timeout_in_example_c():
    st = new(3, dealer=2, decks=[stack_deck(3, 2, C_HANDS)])
    for seat, suit in [(0, "S"), (0, "D"), (2, "H"), (2, "D"), (1, "C")]:
        lead(st, seat, suit)
    assert st.timeout_action(0) == {"type": "lead", "suit": "H"}


# --------------------------------------------------------------------------- refusals


def test_malformed_actions_are_refused_without_change():
    st = example_b_state()
    bad = [None, {}, "lead", 3, [], {"type": "lead"}, {"type": "lead", "suit": "X"},
           {"type": "lead", "suit": 0}, {"type": "lead", "suit": "S", "extra": 1},
           {"type": "lead", "suit": "D"}, {"type": "lead", "suit": "H"}, {"type": "play", "card": "9S"},
           {"type": "keep"}, {"type": 5}, {"suit": "S"}]
    for action in bad:
        harness.assert_refused(st, 4, 0, action)
    for seat in [1, 2, 3, 4, -1, None, "0", True, 0.0]:
        harness.assert_refused(st, 4, seat, {"type": "lead", "suit": "S"})


def test_malformed_bids_are_refused():
    st, _ = variant_state()
    harness.assert_refused(st, 3, 0, {"type": "keep"})
    harness.assert_refused(st, 3, 2, {"type": "bid", "amount": 1})
    st.apply(2, {"type": "keep"})
    bad = [{"type": "bid", "amount": 0}, {"type": "bid", "amount": 97}, {"type": "bid", "amount": True},
           {"type": "bid", "amount": "5"}, {"type": "bid", "amount": 5.0}, {"type": "bid"},
           {"type": "bid", "amount": 5, "x": 1}, {"type": "pass", "amount": 1}, {"type": "swap_spare"}]
    for action in bad:
        harness.assert_refused(st, 3, 0, action)
    st.apply(0, {"type": "bid", "amount": 5})
    harness.assert_refused(st, 3, 1, {"type": "bid", "amount": 5})
    harness.assert_refused(st, 3, 0, {"type": "pass"})


def test_no_moves_after_the_session():
    st = new(3)
    st.request_close()
    harness.assert_refused(st, 3, 0, {"type": "lead", "suit": "S"})
    assert st.to_act() == () and all(st.legal_actions(s) == [] for s in range(3))


# --------------------------------------------------------------------------- options


def test_option_defaults():
    o = G.validate_options({})
    assert o == {"players": 4, "ante_unit": 1, "card_price": 1, "buy_in": 100, "rotations": 2,
                 "spare_hand": "dead", "reveal_dead_hand": True, "dealer": None, "decks": None,
                 "hints": False, "faces": "classic", "pace": "normal", "rated": True}
    assert G.validate_options({"ante_unit": 3})["buy_in"] == 300
    assert G.default_seats == 4 and (G.min_seats, G.max_seats) == (3, 8)
    assert [s.name for s in G.options if s.hidden] == ["dealer", "decks", "rated"]
    assert G.deck == cards.DECK_52


@pytest.mark.parametrize("raw", [
    {"players": 2}, {"players": 9}, {"ante_unit": 0}, {"ante_unit": 101}, {"card_price": 0},
    {"card_price": 101}, {"buy_in": 39}, {"ante_unit": 2, "buy_in": 79}, {"rotations": -1},
    {"rotations": 11}, {"spare_hand": "swap"}, {"reveal_dead_hand": "maybe"}, {"decks": [["AS"]]},
    {"decks": "AS"}, {"nope": 1}, {"buy_in": 1.5},
])
def test_option_errors(raw):
    with pytest.raises(ValueError):
        G.validate_options(raw)


def test_seat_and_dealer_errors():
    with pytest.raises(ValueError):
        G.new_table(seats=2, options={}, seed=1)
    with pytest.raises(ValueError):
        G.new_table(seats=9, options={}, seed=1)
    with pytest.raises(ValueError):
        G.new_table(seats=3, options={"dealer": 3}, seed=1)


# --------------------------------------------------------------------------- texts


def test_label_and_narrate():
    assert G.label({"type": "lead", "suit": "S"}) == "Lead ♠"
    assert G.label({"type": "bid", "amount": 4}) == "Bid 4"
    assert G.label({"type": "swap_spare"}) and G.label({"type": "keep"}) and G.label({"type": "pass"})
    assert G.summary
    seen = set()
    for opts in ({}, {"spare_hand": "dealer_option"}):
        st = new(3, seed=2, rotations=3, **opts)
        events = list(st.start_events)
        for step in range(60):
            seat = st.to_act()[0]
            legal = st.legal_actions(seat)
            events += st.apply(seat, legal[0] if legal[0]["type"] == "bid" else legal[-1])
            if step >= 20 and st.acted:
                break
        events += st.request_close()
        events += drive(st)
        for e in events:
            line = G.narrate(e, lambda s: f"P{s}")
            assert line is None or isinstance(line, str)
            seen.add(e["type"])
    assert {"ante", "lead", "stop", "keep", "bid", "spare_taken", "close_requested", "session_end"} <= seen


def test_view_fields():
    st = new(4)
    v = st.view(1)
    assert set(v) == {"phase", "to_act", "stacks", "pot", "dealer", "deal", "closing", "deals_played", "hand",
                      "hand_sizes", "played", "lead_right", "blocked", "bid", "last_result"}
    assert v["hand"] == canon(v["hand"]) and st.view(None)["hand"] == []
    json.dumps(v)


# --------------------------------------------------------------------------- contract


@pytest.mark.parametrize("n", range(3, 9))
def test_random_sessions(n):
    for seed in range(4):
        harness.random_session("michigan", n, seed, probe_every=7, leak_every=3)
    harness.random_session("michigan", n, 100 + n, {"spare_hand": "dealer_option", "buy_in": 40},
                           probe_every=11, leak_every=5)
    harness.random_session("michigan", n, 200 + n, {"rotations": 0, "buy_in": 40, "card_price": 3,
                                                    "reveal_dead_hand": False}, probe_every=13, leak_every=7)


@pytest.mark.parametrize("n", [3, 4, 8])
def test_clone_independent(n):
    harness.check_clone_independent("michigan", n, seed=n, steps=40)


def test_clone_in_the_auction_is_independent():
    st, _ = variant_state()
    st.apply(2, {"type": "keep"})
    twin = st.clone()
    before = harness.snapshot(st, 3)
    assert harness.snapshot(twin, 3) == before
    twin.apply(0, {"type": "bid", "amount": 4})
    twin.apply(1, {"type": "pass"})
    lead(twin, 0, twin.legal_actions(0)[0]["suit"])
    assert harness.snapshot(st, 3) == before
    assert st.legal_actions(0)[0] == {"type": "bid", "amount": 1}
