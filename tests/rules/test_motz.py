"""Motz (docs/rules/motz.md): spec examples, hand-checked stacked deals, contract checks."""

from __future__ import annotations

import json

import pytest

from bot.rules import GAMES, IllegalMove
from bot.rules.cards import DECK_32
from bot.rules.motz import GAME, LOW_KEY, trick_winner
from tests.rules import harness

PASS, STAND, MUET = {"type": "pass"}, {"type": "stand"}, {"type": "take_muet"}
SWEEP = ["JS", "JC", "AS"]  # with trump ♠ (turn-up 7♠): wins every trick whoever leads
TWO = ["JS", "JC", "7H"]  # with trump ♠, against ONE: takes exactly 2 tricks whoever leads
ONE = ["AH", "KH", "QH"]


def card(c: str) -> dict:
    return {"type": "play", "card": c}


def deck_for(n: int, dealer: int, hands: dict | None = None, muet: list | None = None,
             turn_up: str = "7S") -> list[str]:
    """A 32-card deck dealing ``hands`` (seat -> 3 cards) and ``muet`` as section 1.5 says."""
    hands = dict(hands or {})
    fixed = [c for h in hands.values() for c in h] + list(muet or []) + [turn_up]
    assert len(fixed) == len(set(fixed)), "a card is used twice"
    pool = [c for c in DECK_32 if c not in fixed]
    positions = [(dealer + 1 + j) % n for j in range(n)] + ["M"]
    held = {q: list(hands.get(q, muet if q == "M" and muet else [])) for q in positions}
    for q in positions:
        while len(held[q]) < 3:
            held[q].append(pool.pop(0))
    deck: list[str] = [""] * 32
    for r in range(3):
        for j, q in enumerate(positions):
            deck[r * (n + 1) + j] = held[q][r]
    deck[3 * (n + 1)] = turn_up
    for i in range(3 * (n + 1) + 1, 32):
        deck[i] = pool.pop(0)
    assert sorted(deck) == sorted(DECK_32)
    return deck


def new(n: int = 4, dealer: int = 0, decks: list | None = None, seed: int = 1, **opts):
    options = GAME.validate_options({"dealer": dealer, "decks": decks, **opts})
    return GAME.new_table(seats=n, options=options, seed=seed)


def seat(state) -> int:
    return state.to_act()[0]


def declare(state, *moves: dict) -> list[dict]:
    """Declarations in speaking order (the seat is whoever is to act)."""
    events: list[dict] = []
    for m in moves:
        events += state.apply(seat(state), m)
    return events


def plays(state, *cards: tuple[int, str]) -> list[dict]:
    events: list[dict] = []
    for s, c in cards:
        assert seat(state) == s, f"expected seat {s} to play, not {seat(state)}"
        events += state.apply(s, card(c))
    return events


def play_out(state) -> list[dict]:
    """Play the current deal to its end with each seat's first legal card."""
    events: list[dict] = []
    deal = state.view(None)["deal"]
    while state.view(None)["phase"] == "play" and state.view(None)["deal"] == deal:
        s = seat(state)
        events += state.apply(s, state.legal_actions(s)[0])
    return events


def cancel(state, n: int) -> list[dict]:
    """Everybody who is asked passes: n - 1 passes close the declaration early."""
    return declare(state, *[PASS] * (n - 1))


def legal_cards(state, s: int) -> list[str]:
    return sorted(a["card"] for a in state.legal_actions(s))


def deal_end(events: list[dict]) -> dict:
    return next(e for e in events if e["type"] == "deal_end")


def total(state) -> int:
    return sum(state.stacks) + state.pot


# ---------------------------------------------------------------------- spec examples


def test_example_a_second_jack_and_duty_to_trump():
    deck = deck_for(4, 3, {0: ["AD", "KS", "7C"], 1: ["JD", "QS", "8C"], 2: ["9D", "JH", "7S"]},
                    turn_up="10H")
    st = new(4, dealer=3, decks=[deck])
    v = st.view(None)
    assert (v["trump"], v["turn_up"], v["pot"], v["k"], v["fine"]) == ("H", "10H", 4, 1, 4)
    declare(st, STAND, STAND, STAND, PASS)
    assert st.view(None)["active"] == [0, 1, 2] and st.view(None)["phase"] == "play"
    assert seat(st) == 0
    st.apply(0, card("AD"))
    assert legal_cards(st, 1) == ["JD"]  # no diamond: J♦ is a trump, and trumping is a duty
    st.apply(1, card("JD"))
    assert legal_cards(st, 2) == ["9D"]
    ev = st.apply(2, card("9D"))
    assert ev[-1] == {"type": "trick", "number": 1, "winner": 1, "card": "JD",
                      "cards": [[0, "AD"], [1, "JD"], [2, "9D"]]}
    st.apply(1, card("QS"))
    assert legal_cards(st, 2) == ["7S"]
    st.apply(2, card("7S"))
    assert legal_cards(st, 0) == ["KS"]
    ev = st.apply(0, card("KS"))
    assert ev[-1]["winner"] == 0
    st.apply(0, card("7C"))
    assert legal_cards(st, 1) == ["8C"]
    st.apply(1, card("8C"))
    assert legal_cards(st, 2) == ["JH"]
    ev = st.apply(2, card("JH"))
    end = deal_end(ev)
    assert end["trick_winners"] == [1, 0, 2] and end["bete"] == 4 and end["s"] == 1
    assert end["payouts"] == [1, 2, 1, 0] and end["fines"] == [0, 0, 0, 0] and end["pot"] == 0
    assert end["deltas"] == [0, 1, 0, -1] and sum(end["deltas"]) + end["pot_change"] == 0
    v = st.view(0)
    assert v["last_result"] == {"cancelled": False, "trick_winners": [1, 0, 2],
                                "payouts": [1, 2, 1, 0], "fines": [0, 0, 0, 0]}
    # the next deal is already dealt: dealer S0, its antes taken from an empty pot
    assert (v["phase"], v["dealer"], v["deals_played"], v["pot"], v["k"]) == ("declare", 0, 1, 4, 1)
    assert v["stacks"] == [99, 100, 99, 98]


def test_example_b_cancelled_deal_then_two_one_split_with_carried_pot():
    deal2 = deck_for(4, 1, {2: ["AH", "7D", "7C"], 0: ["QH", "8D", "9C"]}, muet=["KH", "JS", "QS"])
    st = new(4, dealer=0, decks=[list(DECK_32), deal2], ante=2)
    v = st.view(None)
    assert (v["pot"], v["k"], v["stacks"], v["to_act"]) == (8, 1, [198] * 4, [1])
    ev = declare(st, PASS, STAND, PASS, PASS)  # S1, S2, S3, S0 (dealer)
    assert deal_end(ev)["cancelled"] is True
    v = st.view(None)
    assert v["last_result"] == {"cancelled": True, "trick_winners": [], "payouts": [0] * 4, "fines": [0] * 4}
    assert (v["dealer"], v["pot"], v["k"], v["fine"], v["deals_played"]) == (1, 16, 2, 16, 1)
    assert v["stacks"] == [196] * 4 and v["to_act"] == [2]
    declare(st, STAND, MUET, STAND, PASS)  # S2, S3, S0, S1
    assert st.view(3)["hand"] == ["QS", "JS", "KH"]
    assert st.view(None)["muet_taken_by"] == 3 and st.view(None)["active"] == [0, 2, 3]
    plays(st, (2, "AH"), (3, "KH"), (0, "QH"))
    assert seat(st) == 2
    st.apply(2, card("7D"))
    assert legal_cards(st, 3) == ["JS", "QS"]
    ev = plays(st, (3, "JS"), (0, "8D"), (3, "QS"), (0, "9C"), (2, "7C"))
    assert ev[-1]["type"] == "deal_start"  # the deal settled and the next one started inside apply
    end = deal_end(ev)
    assert end["tricks"] == [0, 0, 1, 2] and end["s"] == 4
    assert end["payouts"] == [0, 0, 4, 12] and end["fines"] == [16, 0, 0, 0] and end["pot"] == 16
    v = st.view(None)
    assert (v["pot"], v["k"], v["dealer"]) == (24, 1, 2)  # deal 3: 16 + 8 antes
    assert v["stacks"] == [178, 194, 198, 206]
    assert total(st) == 800


def _example_c_path(cap: int | None):
    """Three seats, ante 1, S1 to speak first at a deal with pot 30, S1 24, S2 75."""
    if cap is None:
        # deal 0: all stand, S0 sweeps; 1 cancelled; 2: all stand, S2 sweeps; 3: S0 and S2, S2 sweeps
        decks = [deck_for(3, 2, {0: SWEEP}), list(DECK_32), deck_for(3, 1, {2: SWEEP}),
                 deck_for(3, 2, {2: SWEEP})]
        st = new(3, dealer=2, decks=decks, buy_in=44)
        declare(st, STAND, STAND, STAND)
        play_out(st)
        cancel(st, 3)
        declare(st, STAND, STAND, STAND)
        play_out(st)
        declare(st, STAND, PASS, STAND)
        play_out(st)
    else:
        # 9 cancelled; deal 9: S2 sweeps S1 (fine 10); deal 10: S2 two tricks, S1 one; 9 cancelled
        decks = [list(DECK_32)] * 9 + [deck_for(3, 1, {2: SWEEP}), deck_for(3, 2, {1: ONE, 2: TWO})]
        st = new(3, dealer=1, decks=decks, buy_in=54, fine_cap=cap, rotations=7)
        for _ in range(9):
            cancel(st, 3)
        assert st.view(None)["pot"] == 30 and st.view(None)["fine"] == 10
        declare(st, STAND, PASS, STAND)
        play_out(st)
        declare(st, PASS, STAND, STAND)
        end = deal_end(play_out(st))
        assert end["payouts"] == [0, 1, 12] and end["pot"] == 0
        for _ in range(9):
            cancel(st, 3)
    return st


@pytest.mark.parametrize("cap", [None, 10])
def test_example_c_cover_rule(cap):
    st = _example_c_path(cap)
    v = st.view(None)
    assert (v["pot"], v["stacks"][1], v["stacks"][2], v["to_act"]) == (30, 24, 75, [1])
    if cap is None:
        assert v["fine"] == 30
        assert st.legal_actions(1) == [PASS]
        harness.assert_refused(st, 3, 1, STAND)
        harness.assert_refused(st, 3, 1, MUET)
    else:
        assert v["fine"] == 10
        assert st.legal_actions(1) == [PASS, STAND, MUET]
    st.apply(1, PASS)
    assert st.legal_actions(2) == [PASS, STAND, MUET]


# ---------------------------------------------------------------------- card ranking and play duties


def _three_stand(hands: dict, turn_up: str = "10H"):
    """Three seats, dealer S2: S0, S1, S2 stand and S0 leads."""
    st = new(3, dealer=2, decks=[deck_for(3, 2, hands, turn_up=turn_up)])
    declare(st, STAND, STAND, STAND)
    assert seat(st) == 0
    return st


def test_same_colour_suit_has_no_jack():
    st = _three_stand({0: ["7D", "8S", "9S"], 1: ["JD", "8D", "9C"], 2: ["KS", "QS", "7C"]})
    st.apply(0, card("7D"))
    assert legal_cards(st, 1) == ["8D"]  # J♦ is not a diamond when hearts are trump
    st.apply(1, card("8D"))
    assert legal_cards(st, 2) == ["7C", "KS", "QS"]  # no diamond, no trump: anything
    ev = st.apply(2, card("KS"))
    assert ev[-1]["winner"] == 1


def test_led_second_jack_makes_the_led_suit_trump():
    st = _three_stand({0: ["JD", "8S", "9S"], 1: ["7H", "AD", "KD"], 2: ["AH", "7C", "8C"]})
    st.apply(0, card("JD"))
    assert legal_cards(st, 1) == ["7H"]  # must follow trump, diamonds do not follow
    st.apply(1, card("7H"))
    assert legal_cards(st, 2) == ["AH"]
    ev = st.apply(2, card("AH"))
    assert ev[-1]["winner"] == 0 and ev[-1]["card"] == "JD"  # second jack beats the trump ace


def test_led_second_jack_without_trump_in_hand_frees_the_seat():
    st = _three_stand({0: ["JD", "8S", "9S"], 1: ["AD", "KD", "7C"], 2: ["AH", "8C", "9C"]})
    st.apply(0, card("JD"))
    assert legal_cards(st, 1) == ["7C", "AD", "KD"]


def test_black_trump_second_jack_is_the_jack_of_clubs():
    st = _three_stand({0: ["9C", "8H", "9H"], 1: ["JC", "AC", "7D"], 2: ["JS", "7C", "8D"]}, turn_up="7S")
    st.apply(0, card("9C"))
    assert legal_cards(st, 1) == ["AC"]
    st.apply(1, card("AC"))
    assert legal_cards(st, 2) == ["7C"]
    assert trick_winner([(0, "AC"), (1, "JC"), (2, "JS")], "S") == (2, "JS")
    assert trick_winner([(0, "AS"), (1, "JC")], "S") == (1, "JC")
    assert trick_winner([(0, "10C"), (1, "AD"), (2, "7C")], "S") == (0, "10C")


def test_no_duty_to_overtrump_but_a_duty_to_trump():
    st = _three_stand({0: ["AS", "8D", "9D"], 1: ["JH", "KC", "QC"], 2: ["7H", "AC", "10D"]})
    st.apply(0, card("AS"))
    assert legal_cards(st, 1) == ["JH"]
    st.apply(1, card("JH"))
    assert legal_cards(st, 2) == ["7H"]  # cannot beat J♥ but must still trump
    ev = st.apply(2, card("7H"))
    assert ev[-1]["winner"] == 1


def test_following_comes_before_trumping_and_no_duty_to_head():
    st = _three_stand({0: ["10S", "8D", "9D"], 1: ["AS", "7S", "9H"], 2: ["8S", "AH", "KC"]})
    st.apply(0, card("10S"))
    assert legal_cards(st, 1) == ["7S", "AS"]  # either spade; trumping is not allowed
    st.apply(1, card("7S"))
    assert legal_cards(st, 2) == ["8S"]
    ev = st.apply(2, card("8S"))
    assert ev[-1]["winner"] == 0 and ev[-1]["card"] == "10S"


def test_trick_winner_rules():
    assert trick_winner([(0, "AD"), (1, "7H"), (2, "KD")], "H") == (1, "7H")
    assert trick_winner([(0, "7D"), (1, "AS"), (2, "8D")], "H") == (2, "8D")  # off-suit never wins
    assert trick_winner([(0, "AH"), (1, "JD"), (2, "JH")], "H") == (2, "JH")
    assert trick_winner([(0, "10D"), (1, "QD")], "H") == (1, "QD")


# ---------------------------------------------------------------------- declaration, muet, cancel


def test_muet_is_taken_blind_once_and_the_own_hand_goes_dead():
    own = ["AH", "KH", "QH"]
    muet = ["7C", "8C", "9C"]
    st = new(4, dealer=3, decks=[deck_for(4, 3, {1: own}, muet=muet)])
    events = declare(st, PASS)
    assert st.legal_actions(1) == [PASS, STAND, MUET]
    events += st.apply(1, MUET)
    assert st.view(1)["hand"] == ["9C", "8C", "7C"]
    assert st.view(None)["muet_taken_by"] == 1 and st.view(None)["declarations"] == ["pass", "take_muet",
                                                                                     None, None]
    assert st.legal_actions(2) == [PASS, STAND]  # the muet is gone
    events += declare(st, STAND, PASS)
    while st.view(None)["deals_played"] == 0:
        for s in [0, 2, 3, None]:
            assert not set(own) & harness.cards_in(st.view(s))
        taker = st.view(1)  # the taker saw its own hand before giving it up: only it is told again
        assert taker.pop("given_up") == own and not set(own) & harness.cards_in(taker)
        s = seat(st)
        events += st.apply(s, st.legal_actions(s)[0])
    first = events[: events.index(deal_end(events)) + 1]
    assert not set(own) & harness.cards_in(first), "the hand given up for the muet was shown"


def test_untaken_muet_and_passed_hands_are_never_revealed():
    muet = ["7C", "8C", "9C"]
    passed = ["AH", "KH", "QH"]
    st = new(4, dealer=3, decks=[deck_for(4, 3, {0: passed}, muet=muet)])
    events = declare(st, PASS, STAND, STAND, STAND)
    assert st.view(0)["hand"] == [] and st.view(None)["hand_sizes"] == [0, 3, 3, 3]
    hidden = set(muet) | set(passed)
    while st.view(None)["deals_played"] == 0:
        for s in [*range(4), None]:
            assert not hidden & harness.cards_in(st.view(s))
        s = seat(st)
        events += st.apply(s, st.legal_actions(s)[0])
    first = events[: events.index(deal_end(events)) + 1]
    assert not hidden & harness.cards_in(first)


def test_early_close_dealer_not_asked():
    st = new(4, dealer=3)
    ev = declare(st, PASS, PASS, PASS)
    end = deal_end(ev)
    assert end["cancelled"] and end["payouts"] == [0] * 4
    assert [e["seat"] for e in ev if e["type"] == "declare"] == [0, 1, 2]
    v = st.view(None)
    assert (v["dealer"], v["to_act"], v["pot"], v["k"], v["deals_played"]) == (0, [1], 8, 2, 1)
    assert v["declarations"] == [None] * 4


def test_lone_muet_taker_cancels_the_deal_and_nothing_moves():
    st = new(4, dealer=0)
    declare(st, MUET, PASS, PASS)  # S1 muet, S2, S3 pass: 1 active + 1 to speak, S0 is asked
    assert seat(st) == 0
    assert st.legal_actions(0) == [PASS, STAND]
    ev = st.apply(0, PASS)
    end = deal_end(ev)
    assert end["cancelled"] and end["active"] == [1] and end["muet_taken_by"] == 1
    assert end["deltas"] == [-1] * 4 and end["pot"] == 4
    v = st.view(None)
    assert (v["pot"], v["k"], v["stacks"], v["dealer"]) == (8, 2, [98] * 4, 1)
    ev = cancel(st, 4)
    assert st.view(None)["k"] == 3 and st.view(None)["pot"] == 12 and st.view(None)["dealer"] == 2


def test_early_close_after_a_stand_with_five_seats():
    st = new(5, dealer=4)
    declare(st, STAND, PASS, PASS, PASS)  # 1 active + 1 to speak: the dealer is asked
    assert seat(st) == 4 and st.view(None)["phase"] == "declare"
    ev = st.apply(4, PASS)
    assert deal_end(ev)["cancelled"] and deal_end(ev)["active"] == [0]
    st = new(5, dealer=4)
    ev = declare(st, PASS, PASS, PASS, PASS)
    assert deal_end(ev)["cancelled"] and len([e for e in ev if e["type"] == "declare"]) == 4


def test_three_seats_two_stands_then_dealer_still_speaks():
    st = new(3, dealer=2)
    declare(st, STAND, STAND)
    assert seat(st) == 2 and st.view(None)["phase"] == "declare"
    st.apply(2, PASS)
    v = st.view(None)
    assert v["phase"] == "play" and v["active"] == [0, 1] and v["to_act"] == [0]


def test_first_leader_is_first_active_seat_from_dealers_left():
    st = new(4, dealer=1)
    declare(st, PASS, STAND, STAND, PASS)  # S2 pass, S3, S0 stand, S1 pass
    assert st.view(None)["to_act"] == [3]


# ---------------------------------------------------------------------- settlement


def test_several_fined_seats_each_pay_the_full_pot():
    st = new(4, dealer=3, decks=[deck_for(4, 3, {0: SWEEP})])
    declare(st, STAND, STAND, STAND, STAND)
    end = deal_end(play_out(st))
    assert end["payouts"] == [4, 0, 0, 0] and end["fines"] == [0, 4, 4, 4] and end["pot"] == 12
    v = st.view(None)
    assert v["pot"] == 16 and v["k"] == 1 and v["fine"] == 16
    assert v["stacks"] == [102, 94, 94, 94] and total(st) == 400


def test_two_one_split_returns_ante_times_k():
    decks = [list(DECK_32), list(DECK_32), deck_for(4, 2, {3: ONE, 0: TWO})]
    st = new(4, dealer=0, decks=decks, ante=2)
    cancel(st, 4)
    cancel(st, 4)
    assert st.view(None)["k"] == 3 and st.view(None)["pot"] == 24
    declare(st, STAND, STAND, PASS, PASS)  # S3, S0 stand
    end = deal_end(play_out(st))
    assert end["s"] == 6 and end["payouts"] == [18, 0, 0, 6] and end["pot"] == 0
    assert st.view(None)["k"] == 1


def test_one_one_one_split_odd_jeton_to_first_trick_with_k_three():
    # k = 3, P = 12, s = 3, R = 9: w1 gets 5, w2 gets 4, w3 gets 3
    hands = {0: ["AH", "7D", "7C"], 1: ["KH", "AD", "8C"], 2: ["QH", "8D", "AC"]}
    decks = [list(DECK_32), list(DECK_32), deck_for(4, 2, hands, turn_up="7S")]
    st = new(4, dealer=0, decks=decks)
    cancel(st, 4)
    cancel(st, 4)
    declare(st, PASS, STAND, STAND, STAND)  # S3 passes; S0, S1, S2 stand; S0 leads
    ev = plays(st, (0, "AH"), (1, "KH"), (2, "QH"), (0, "7D"), (1, "AD"), (2, "8D"),
               (1, "8C"), (2, "AC"), (0, "7C"))
    end = deal_end(ev)
    assert end["trick_winners"] == [0, 1, 2] and end["s"] == 3 and end["bete"] == 12
    assert end["payouts"] == [5, 4, 3, 0] and end["pot"] == 0


def test_carried_fines_are_part_of_the_bete_and_s_restarts():
    # example B continued: deal 3 (pot 24, k = 1): S3 two tricks, S0 one trick, both stood
    deal2 = deck_for(4, 1, {2: ["AH", "7D", "7C"], 0: ["QH", "8D", "9C"]}, muet=["KH", "JS", "QS"])
    deal3 = deck_for(4, 2, {3: TWO, 0: ONE})
    st = new(4, dealer=0, decks=[list(DECK_32), deal2, deal3], ante=2)
    declare(st, PASS, STAND, PASS, PASS)
    declare(st, STAND, MUET, STAND, PASS)
    play_out(st)
    assert st.view(None)["pot"] == 24
    declare(st, STAND, STAND, PASS, PASS)  # S3, S0 stand, S1, S2 pass
    end = deal_end(play_out(st))
    assert end["bete"] == 24 and end["s"] == 2 and end["payouts"] == [2, 0, 0, 22] and end["pot"] == 0


# ---------------------------------------------------------------------- session end


def test_nominal_length_ends_when_pot_is_empty_and_dealer_rotates():
    decks = [deck_for(3, d, {(d + 1) % 3: ONE, (d + 2) % 3: TWO}) for d in (0, 1, 2)]
    st = new(3, dealer=0, decks=decks, rotations=1)
    dealers = []
    for _ in range(3):
        dealers.append(st.view(None)["dealer"])
        declare(st, STAND, STAND, PASS)
        ev = play_out(st)
    assert dealers == [0, 1, 2]
    end = ev[-1]
    assert end["type"] == "session_end" and end["reason"] == "complete" and end["split"] == [0, 0, 0]
    assert st.is_over() and st.to_act() == () and st.view(None)["phase"] == "session_end"
    assert st.view(None)["deals_played"] == 3 and st.view(None)["dealer"] == 0
    assert end["results"] == [s - 100 for s in st.stacks] == [s - 100 for s in end["stacks"]] == [0, 0, 0]
    assert sum(st.stacks) == 300 and st.pot == 0 and end["ranks"] == [1, 1, 1]


def test_clearing_deal_wins_the_bete_then_session_ends():
    decks = [deck_for(3, 0, {1: SWEEP}), list(DECK_32), list(DECK_32), deck_for(3, 0, {1: TWO, 2: ONE})]
    st = new(3, dealer=0, decks=decks, rotations=1, max_extra_deals=3)
    declare(st, STAND, STAND, PASS)  # S1 sweeps, S2 fined 3
    play_out(st)
    cancel(st, 3)
    cancel(st, 3)
    v = st.view(None)
    assert (v["phase"], v["deals_played"], v["pot"]) == ("declare", 3, 12)  # nominal reached, pot 9 + antes
    declare(st, STAND, STAND, PASS)
    ev = play_out(st)
    assert ev[-1]["type"] == "session_end" and ev[-1]["reason"] == "complete"
    assert st.view(None)["deals_played"] == 4 and sum(st.stacks) == 300


def test_clearing_deals_limit_then_split_with_leftover_from_left_of_last_dealer():
    decks = [deck_for(4, 1, {2: SWEEP})]
    st = new(4, dealer=1, decks=decks, rotations=1, max_extra_deals=0, fine_cap=3)
    declare(st, STAND, STAND, PASS, PASS)  # S2 sweeps 4, S3 fined 3
    play_out(st)
    assert st.view(None)["stacks"] == [98, 98, 102, 95]
    for _ in range(3):
        ev = cancel(st, 4)
    end = ev[-1]
    assert end["type"] == "session_end" and end["reason"] == "extra_limit"
    assert st.view(None)["dealer"] == 1  # last deal dealt by S0: leftovers start at S1
    assert end["split"] == [3, 4, 4, 4]
    assert st.stacks == [99, 100, 104, 97] and end["results"] == [-1, 0, 4, -3]
    assert end["ranks"] == [3, 2, 1, 4]


def test_broke_seat_ends_the_session_before_the_ante():
    decks = [deck_for(3, 0, {0: SWEEP}), deck_for(3, 1, {0: SWEEP})]
    st = new(3, dealer=0, decks=decks, buy_in=20, rotations=3)
    declare(st, STAND, STAND, STAND)
    play_out(st)
    declare(st, STAND, STAND, STAND)
    play_out(st)
    assert st.view(None)["stacks"] == [29, 5, 5] and st.view(None)["pot"] == 21
    for _ in range(5):
        cancel(st, 3)
    v = st.view(None)
    assert v["stacks"] == [24, 0, 0] and v["pot"] == 36 and v["deals_played"] == 7
    assert seat(st) == 2 and st.legal_actions(2) == [PASS]  # stack 0 < F
    ev = cancel(st, 3)
    end = ev[-1]
    assert end["type"] == "session_end" and end["reason"] == "broke" and end["deals_played"] == 8
    assert not [e for e in ev if e["type"] == "deal_start"]
    assert end["split"] == [12, 12, 12] and st.stacks == [36, 12, 12] and end["results"] == [16, -8, -8]
    assert end["ranks"] == [1, 2, 2]


# ---------------------------------------------------------------------- request_close


def test_close_before_anyone_acts_voids_the_deal():
    st = new(4, dealer=0)
    cancel(st, 4)
    assert st.view(None)["pot"] == 8 and st.view(None)["k"] == 2
    ev = st.request_close()
    assert ev[0]["type"] == "deal_voided" and ev[-1]["type"] == "session_end"
    assert st.k == 1  # the voided deal's ante count is reversed
    assert ev[-1]["split"] == [1, 1, 1, 1] and st.stacks == [100] * 4 and st.pot == 0
    assert st.is_over() and st.request_close() == [] and st.request_close(now=True) == []


def test_close_at_end_of_deal():
    st = new(4, dealer=3, decks=[deck_for(4, 3, {0: SWEEP})])
    declare(st, STAND, STAND)
    ev = st.request_close()
    assert ev == [{"type": "close_requested", "deal": 0}]
    assert st.request_close() == []
    assert st.view(2)["closing"] is True and st.view(None)["phase"] == "declare"
    declare(st, PASS, PASS)
    ev = play_out(st)
    assert ev[-1]["type"] == "session_end" and ev[-1]["reason"] == "closed"
    assert not [e for e in ev if e["type"] == "deal_start"]
    # S0 swept 4 and S1 was fined 4: the pot of 4 is split 1 each
    assert ev[-1]["split"] == [1, 1, 1, 1] and st.stacks == [104, 96, 100, 100]
    assert st.view(None)["deals_played"] == 1 and st.is_over()


def test_close_now_mid_play_reverses_antes():
    st = new(4, dealer=3, decks=[deck_for(4, 3, {0: SWEEP})])
    declare(st, STAND, STAND, STAND, STAND)
    play_out(st)  # deal 0: pot 12 of fines, stacks 103 95 95 95
    declare(st, STAND, STAND, PASS)
    st.apply(seat(st), st.legal_actions(seat(st))[0])
    assert st.pot == 16
    ev = st.request_close(now=True)
    assert ev[0] == {"type": "deal_voided", "deal": 1, "refunds": [1] * 4, "pot": 12}
    assert ev[-1]["split"] == [3, 3, 3, 3] and st.stacks == [106, 98, 98, 98]
    assert st.view(None)["deals_played"] == 1 and st.view(None)["phase"] == "session_end"
    assert st.view(0)["hand"] == [] and st.to_act() == ()


# ---------------------------------------------------------------------- timeouts


def test_timeout_in_declare_is_pass():
    st = new(4)
    s = seat(st)
    assert st.timeout_action(s) == PASS
    with pytest.raises(IllegalMove):
        st.timeout_action((s + 1) % 4)


@pytest.mark.parametrize("hand, expected", [
    (["7H", "8S", "AC"], "8S"),  # non-trump before trump, then lower rank
    (["7S", "7C", "9D"], "7S"),  # same rank: suit order
    (["JD", "AH", "7H"], "7H"),  # only trumps: trump order
    (["JH", "JD", "9H"], "9H"),
    (["10S", "JC", "QD"], "10S"),  # 10 below J
    (["JS", "10C", "KD"], "10C"),
])
def test_timeout_in_play_is_lowest_legal_card(hand, expected):
    st = _three_stand({0: hand})
    assert st.timeout_action(0) == card(expected)


def test_timeout_second_jack_is_below_trump_jack():
    st = _three_stand({0: ["7H", "8C", "9C"], 1: ["JH", "JD", "8S"]})
    st.apply(0, card("7H"))
    assert legal_cards(st, 1) == ["JD", "JH"]
    assert st.timeout_action(1) == card("JD")
    assert LOW_KEY["H"]["JD"] < LOW_KEY["H"]["JH"] and LOW_KEY["H"]["AH"] < LOW_KEY["H"]["JD"]


# ---------------------------------------------------------------------- malformed actions and options


def test_malformed_actions_are_refused_without_change():
    st = new(4, dealer=3, decks=[deck_for(4, 3, {0: ["AS", "8D", "9D"], 1: ["KS", "7H", "QC"]},
                                          turn_up="10H")])
    bad = [None, {}, "pass", 3, [], {"type": None}, {"type": "pass", "x": 1}, {"type": "stand", "card": "7S"},
           {"type": "play", "card": "AS"}, {"type": "Pass"}, {"type": "take_muet", "seat": 0}]
    for a in bad:
        harness.assert_refused(st, 4, 0, a)
    for wrong in (1, 3, 4, -1, None, True, "0", 0.0):
        harness.assert_refused(st, 4, wrong, PASS)
    declare(st, STAND, STAND, PASS, PASS)
    assert seat(st) == 0
    for a in [None, {}, PASS, {"type": "play"}, {"type": "play", "card": 7}, {"type": "play", "card": "ZZ"},
              {"type": "play", "card": "AS", "x": 1}, {"type": "play", "card": "KS"}, {"card": "AS"}]:
        harness.assert_refused(st, 4, 0, a)
    harness.assert_refused(st, 4, 1, card("KS"))
    st.apply(0, card("AS"))
    harness.assert_refused(st, 4, 1, card("7H"))  # must follow spades
    assert st.apply(1, json.loads(json.dumps(card("KS"))))[-1]["type"] == "trick"


@pytest.mark.parametrize("raw, words", [
    ({"ante": 0}, "at least 1"), ({"ante": 101}, "at most 100"), ({"ante": "x"}, "whole number"),
    ({"ante": 2, "buy_in": 39}, "at least 40"), ({"rotations": 0}, "at least 1"),
    ({"rotations": 11}, "at most 10"), ({"max_extra_deals": -1}, "at least 0"),
    ({"max_extra_deals": 13}, "at most 12"), ({"max_extra_deals": 2.5}, "whole number"),
    ({"ante": 5, "fine_cap": 4}, "at least 5"), ({"fine_cap": True}, "whole number"),
    ({"players": 2}, "at least 3"), ({"players": 7}, "at most 6"), ({"colour": 1}, "Unknown option"),
    ({"decks": [["AS"]]}, "permutation"), ({"decks": "x"}, "list of decks"),
])
def test_bad_options(raw, words):
    with pytest.raises(ValueError, match=words):
        GAME.validate_options(raw)


def test_option_defaults_and_seat_dependent_checks():
    opts = GAME.validate_options({})
    assert opts == {"players": 4, "ante": 1, "buy_in": 100, "rotations": 2, "max_extra_deals": None,
                    "fine_cap": None, "dealer": None, "decks": None, "hints": False, "faces": "classic",
                    "pace": "normal", "rated": True}
    assert GAME.validate_options({"ante": 3})["buy_in"] == 300
    assert GAME.validate_options({"fine_cap": None, "max_extra_deals": "2"})["max_extra_deals"] == 2
    st = GAME.new_table(seats=5, options=opts, seed=3)
    assert st.max_extra == 5 and st.nominal == 10
    with pytest.raises(ValueError, match="at most 6"):
        GAME.new_table(seats=3, options=GAME.validate_options({"max_extra_deals": 7}), seed=1)
    with pytest.raises(ValueError):
        GAME.new_table(seats=3, options=GAME.validate_options({"dealer": 3}), seed=1)
    with pytest.raises(ValueError):
        GAME.new_table(seats=7, options=opts, seed=1)
    visible = [o.name for o in GAME.options if not o.hidden]
    assert visible == ["players", "ante", "buy_in", "rotations", "max_extra_deals", "fine_cap", "hints",
                       "faces", "pace"]
    assert GAMES["motz"] is GAME and GAME.default_seats == 4 and GAME.deck == DECK_32


# ---------------------------------------------------------------------- views, text, random sessions


def test_view_fields():
    st = new(4, dealer=0)
    keys = {"phase", "to_act", "stacks", "pot", "dealer", "deal", "closing", "hand", "deals_played", "k",
            "fine", "turn_up", "trump", "declarations", "muet_taken_by", "active", "hand_sizes", "trick",
            "trick_winners", "played_tricks", "tricks", "last_result", "given_up"}
    for s in [0, 1, None]:
        assert set(st.view(s)) == keys
    assert st.view(None)["hand"] == [] and len(st.view(1)["hand"]) == 3
    assert st.view(None)["hand_sizes"] == [3, 3, 3, 3] and st.view(None)["last_result"] is None


def test_label_and_narrate_cover_every_event():
    assert GAME.label(PASS) == "Pass" and GAME.label(MUET) == "Take the muet"
    assert GAME.label(card("JD")) == "Play J♦"
    st = new(4, dealer=3, decks=[deck_for(4, 3, {0: SWEEP})])
    events = [{"type": "deal_start", "deal": 0, "dealer": 3, "ante": 1, "pot": 4, "k": 1, "fine": 4,
               "turn_up": "7S", "trump": "S"}]
    events += declare(st, STAND, STAND, PASS, PASS) + play_out(st)
    events += cancel(st, 4) + st.request_close()
    events += play_out(st) or []
    st2 = new(4)
    events += st2.request_close(now=True)
    st3 = new(4)
    declare(st3, PASS)
    events += st3.request_close()
    kinds = set()
    for e in events:
        line = GAME.narrate(e, lambda s: f"P{s}")
        assert isinstance(line, str) and line, e
        kinds.add(e["type"])
    assert kinds == {"deal_start", "declare", "play", "trick", "deal_end", "deal_voided", "session_end",
                     "close_requested"}
    assert 3 <= GAME.summary.count(". ") + 1 <= 6


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_random_sessions(seats):
    for seed in range(8):
        state, _ = harness.random_session("motz", seats, seed, probe_every=4, leak_every=3)
        assert state.view(None)["phase"] == "session_end"
    for seed in range(8, 12):
        harness.random_session("motz", seats, seed, {"ante": 3, "fine_cap": 5, "rotations": 3},
                               probe_every=5, leak_every=3)


def test_phases_rest_only_in_declare_play_session_end():
    import random
    for seats in (3, 6):
        st = new(seats, seed=5)
        rng = random.Random(5)
        while not st.is_over():
            assert st.view(None)["phase"] in ("declare", "play")
            s = seat(st)
            st.apply(s, rng.choice(st.legal_actions(s)))
            assert sum(st.stacks) + st.pot == seats * 100
        assert st.view(None)["phase"] == "session_end"


@pytest.mark.parametrize("seats", [3, 5])
def test_clone_independent(seats):
    for seed in range(3):
        harness.check_clone_independent("motz", seats, seed, steps=60)
