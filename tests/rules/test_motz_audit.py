"""Independent audit of the Motz engine against docs/rules/motz.md.

Every deck here is written out card by card in dealing order (section 1.5), not built with the
engine's own dealing logic, and every expected number is computed by hand from the spec (the
arithmetic is in the comments).
"""

from __future__ import annotations

import json
import random

import pytest

from bot.rules import IllegalMove
from bot.rules.cards import DECK_32
from bot.rules.motz import GAME, trick_winner
from tests.rules import harness

PASS, STAND, MUET = {"type": "pass"}, {"type": "stand"}, {"type": "take_muet"}


def card(c: str) -> dict:
    return {"type": "play", "card": c}


def raw(*prefix: str) -> list[str]:
    """``prefix`` as deck[0..], the unused cards after it in DECK_32 order."""
    assert len(set(prefix)) == len(prefix)
    return list(prefix) + [c for c in DECK_32 if c not in prefix]


def new(n: int, dealer: int, decks=None, seed: int = 7, **opts):
    options = GAME.validate_options({"dealer": dealer, "decks": decks, **opts})
    return GAME.new_table(seats=n, options=options, seed=seed)


def to_act(st) -> int:
    return st.to_act()[0]


def speak(st, *moves) -> tuple[list[int], list[dict]]:
    seats, events = [], []
    for m in moves:
        s = to_act(st)
        seats.append(s)
        events += st.apply(s, m)
    return seats, events


def deal_end(events):
    return next(e for e in events if e["type"] == "deal_end")


# ------------------------------------------------------------------ 1.5 dealing positions


# DECK_32 order is AS KS QS JS 10S 9S 8S 7S | AH KH QH JH 10H 9H 8H 7H | AD .. 7D | AC .. 7C.
@pytest.mark.parametrize("n, dealer, hands, muet, turn_up", [
    # Q = [1, 2, 3, 0, M]; width 5; turn-up deck[15]
    (4, 0, {1: "AS 9S QH", 2: "KS 8S JH", 3: "QS 7S 10H", 0: "JS AH 9H"}, "10S KH 8H", "7H"),
    # Q = [0, 1, 2, M]; width 4; turn-up deck[12]
    (3, 2, {0: "AS 10S AH", 1: "KS 9S KH", 2: "QS 8S QH"}, "JS 7S JH", "10H"),
    # Q = [0, 1, 2, 3, 4, M]; width 6; turn-up deck[18]
    (5, 4, {0: "AS 8S 10H", 1: "KS 7S 9H", 2: "QS AH 8H", 3: "JS KH 7H", 4: "10S QH AD"}, "9S JH KD", "QD"),
    # Q = [4, 5, 0, 1, 2, 3, M]; width 7; turn-up deck[21]
    (6, 3, {4: "AS 7S 8H", 5: "KS AH 7H", 0: "QS KH AD", 1: "JS QH KD", 2: "10S JH QD", 3: "9S 10H JD"},
     "8S 9H 10D", "9D"),
])
def test_dealing_positions_muet_after_dealer_and_turn_up(n, dealer, hands, muet, turn_up):
    st = new(n, dealer, decks=[list(DECK_32)])
    v = st.view(None)
    assert v["turn_up"] == turn_up and v["trump"] == turn_up[-1]
    for s in range(n):
        assert sorted(st.view(s)["hand"]) == sorted(hands[s].split())
    # the first seat to speak takes the muet and sees exactly the muet cards
    first = (dealer + 1) % n
    assert st.to_act() == (first,)
    st.apply(first, MUET)
    assert sorted(st.view(first)["hand"]) == sorted(muet.split())


def test_deck_index_counts_cancelled_deals_and_dealer_moves():
    # deals 0 and 1 cancelled (dealers 0, 1); deal 2 uses decks[2] with dealer 2: Q = [0, 1, 2, M]
    deal2 = raw("7D", "8D", "9D", "10D", "7C", "8C", "9C", "10C", "7H", "8H", "9H", "10H", "QC")
    st = new(3, 0, decks=[list(DECK_32), list(DECK_32), deal2])
    speak(st, PASS, PASS)
    assert st.view(None)["dealer"] == 1 and st.to_act() == (2,)
    speak(st, PASS, PASS)
    v = st.view(None)
    assert v["dealer"] == 2 and v["deal"] == 2 and v["turn_up"] == "QC" and v["trump"] == "C"
    assert sorted(st.view(0)["hand"]) == ["7C", "7D", "7H"]
    assert sorted(st.view(1)["hand"]) == ["8C", "8D", "8H"]
    assert sorted(st.view(2)["hand"]) == ["9C", "9D", "9H"]


# ------------------------------------------------------------------ section 2 ranking


def _order(trump: str) -> dict[str, list[str]]:
    """Section 2's table, written out per effective suit, high to low."""
    second = {"S": "C", "C": "S", "H": "D", "D": "H"}[trump]
    out = {trump: ["J" + trump, "J" + second] + [r + trump for r in ("A", "K", "Q", "10", "9", "8", "7")],
           second: [r + second for r in ("A", "K", "Q", "10", "9", "8", "7")]}
    for s in "SHDC":
        if s not in out:
            out[s] = [r + s for r in ("A", "K", "Q", "J", "10", "9", "8", "7")]
    return out


@pytest.mark.parametrize("trump", list("SHDC"))
def test_ranking_table_and_effective_suits(trump):
    order = _order(trump)
    assert sorted(c for cs in order.values() for c in cs) == sorted(DECK_32)
    for cs in order.values():
        for i, hi in enumerate(cs):
            for lo in cs[i + 1:]:
                assert trick_winner([(0, lo), (1, hi)], trump) == (1, hi)
                assert trick_winner([(0, hi), (1, lo)], trump) == (0, hi)
    trumps = order[trump]
    for suit, cs in order.items():
        if suit == trump:
            continue
        for c in cs:
            # the lowest trump beats any card of another effective suit, led or not
            assert trick_winner([(0, c), (1, trumps[-1])], trump) == (1, trumps[-1])
            assert trick_winner([(0, trumps[-1]), (1, c)], trump) == (0, trumps[-1])
            # a card of another non-trump suit never wins, even a high one
            for other, ocs in order.items():
                if other not in (suit, trump):
                    assert trick_winner([(0, c), (1, ocs[0]), (2, ocs[1])], trump) == (0, c)


def _three(prefix_rounds: list[list[str]], turn_up: str):
    """Three seats, dealer 2: Q = [0, 1, 2, M]; all three stand; S0 leads."""
    deck = raw(*[c for rnd in prefix_rounds for c in rnd], turn_up)
    st = new(3, 2, decks=[deck])
    speak(st, STAND, STAND, STAND)
    assert st.to_act() == (0,) and st.view(None)["trump"] == turn_up[-1]
    return st


def legal(st, s):
    return sorted(a["card"] for a in st.legal_actions(s))


def test_black_second_jack_led_makes_trump_led():
    # trump ♠. S0 JC 7H 8H; S1 AC KC 7D (clubs but no trump); S2 7S 9C 8D
    st = _three([["JC", "AC", "7S", "QD"], ["7H", "KC", "9C", "QH"], ["8H", "7D", "8D", "KH"]], "8S")
    st.apply(0, card("JC"))
    assert legal(st, 1) == ["7D", "AC", "KC"]  # clubs do not follow a led J♣: free
    st.apply(1, card("AC"))
    assert legal(st, 2) == ["7S"]  # follows the led (trump) suit
    ev = st.apply(2, card("7S"))
    assert ev[-1]["winner"] == 0 and ev[-1]["card"] == "JC"


def test_second_jack_is_not_a_card_of_its_printed_suit_when_following():
    # trump ♣. S0 leads A♠; S1 holds J♠ (a trump) and 7H 8H: no spade, must trump with J♠
    st = _three([["AS", "JS", "KS", "QD"], ["7D", "7H", "QS", "QH"], ["8D", "8H", "9D", "KH"]], "7C")
    st.apply(0, card("AS"))
    assert legal(st, 1) == ["JS"]
    st.apply(1, card("JS"))
    assert legal(st, 2) == ["KS", "QS"]
    ev = st.apply(2, card("QS"))
    assert ev[-1]["winner"] == 1


# ------------------------------------------------------------------ 3.1 declaration


@pytest.mark.parametrize("n, dealer, moves, speakers, outcome", [
    # 0 active + seats left < 2 closes: six seats, the dealer (2) is never asked
    (6, 2, [PASS] * 5, [3, 4, 5, 0, 1], "cancelled"),
    # one stand: 1 + 1 = 2 keeps the round open until the dealer has spoken
    (6, 2, [STAND] + [PASS] * 5, [3, 4, 5, 0, 1, 2], "cancelled"),
    (3, 0, [PASS, PASS], [1, 2], "cancelled"),
    (3, 0, [STAND, PASS, PASS], [1, 2, 0], "cancelled"),
    (3, 0, [PASS, MUET, STAND], [1, 2, 0], "play"),
    (5, 0, [PASS, MUET, PASS, PASS, STAND], [1, 2, 3, 4, 0], "play"),
    (4, 1, [PASS, PASS, MUET, PASS], [2, 3, 0, 1], "cancelled"),
])
def test_declaration_order_and_early_close(n, dealer, moves, speakers, outcome):
    st = new(n, dealer)
    seats, events = speak(st, *moves)
    assert seats == speakers
    assert [e["seat"] for e in events if e["type"] == "declare"] == speakers
    if outcome == "cancelled":
        assert deal_end(events)["cancelled"] is True
        v = st.view(None)
        assert v["phase"] == "declare" and v["dealer"] == (dealer + 1) % n and v["deals_played"] == 1
        assert v["pot"] == 2 * n and v["k"] == 2 and v["stacks"] == [98] * n
    else:
        v = st.view(None)
        assert v["phase"] == "play" and not any(e["type"] == "deal_end" for e in events)


def test_first_leader_and_play_order_skip_passed_seats():
    # five seats, dealer 0: speakers 1 2 3 4 0; S1 passes, S2, S4, S0 stand, S3 passes
    st = new(5, 0)
    speak(st, PASS, STAND, PASS, STAND, STAND)
    v = st.view(None)
    assert v["active"] == [0, 2, 4] and v["to_act"] == [2] and v["hand_sizes"] == [3, 0, 3, 0, 3]
    order = []
    for _ in range(3):
        s = to_act(st)
        order.append(s)
        st.apply(s, st.legal_actions(s)[0])
    assert order == [2, 4, 0]


def test_cover_rule_boundary_and_fined_to_zero_then_broke():
    # three seats, ante 1, buy-in 20, first dealer 0. After m antes (m - 1 cancelled deals) the
    # pot is 3m and every stack 20 - m. m = 5: pot 15 = stack 15, so F = 15 and standing is legal.
    # Deal 4 (dealer 1): Q = [2, 0, 1, M]; trump ♠; S2 holds J♠ J♣ A♠ and sweeps.
    deal4 = raw("JS", "7H", "7D", "7C", "JC", "8H", "8D", "8C", "AS", "9H", "9D", "9C", "7S")
    st = new(3, 0, decks=[list(DECK_32)] * 4 + [deal4], buy_in=20, rotations=3)
    for _ in range(4):
        speak(st, PASS, PASS)
    v = st.view(None)
    assert (v["pot"], v["fine"], v["stacks"], v["k"], v["dealer"]) == (15, 15, [15, 15, 15], 5, 1)
    assert st.legal_actions(2) == [PASS, STAND, MUET]
    speak(st, STAND, STAND, PASS)  # S2, S0 stand, S1 passes
    events = []
    while st.view(None)["deals_played"] == 4:
        s = to_act(st)
        events += st.apply(s, st.legal_actions(s)[0])
    end = deal_end(events)
    # S2 takes P = 15; S0 is fined F = 15 (its whole stack); S1 neither receives nor pays
    assert end["trick_winners"] == [2, 2, 2] and end["payouts"] == [0, 0, 15] and end["fines"] == [15, 0, 0]
    # NEXT: deals_played 5 < N = 9, so a deal would start, but S0 (stack 0) cannot ante: the
    # session ends before that ante; the pot (15) is split 5 each, no leftover
    fin = events[-1]
    assert fin["type"] == "session_end" and fin["reason"] == "broke"
    assert fin["split"] == [5, 5, 5] and st.stacks == [5, 20, 35] and fin["results"] == [-15, 0, 15]
    assert st.pot == 0 and st.view(None)["phase"] == "session_end"


def test_cover_rule_one_short_and_fine_cap_equal_to_stack():
    # m = 6: pot 18, stacks 14: F = 18 > 14, only pass. With fine_cap 14, F = 14 = stack.
    for cap, expect in ((None, [PASS]), (14, [PASS, STAND, MUET])):
        st = new(3, 0, buy_in=20, rotations=3, fine_cap=cap)
        for _ in range(5):
            speak(st, PASS, PASS)
        v = st.view(None)
        assert (v["pot"], v["stacks"]) == (18, [14, 14, 14])
        assert v["fine"] == (18 if cap is None else 14)
        assert st.legal_actions(to_act(st)) == expect
        assert st.timeout_action(to_act(st)) == PASS


def test_stack_equal_to_ante_still_antes_then_broke_next_deal():
    # as above but fine_cap 14: deal 4 (pot 15, stacks 15, F = 14): S2 sweeps (+15 -> 30),
    # S0 fined 14 (-> 1), S1 passed (15); pot 14. Deal 5 (dealer 2): S0 has exactly the ante:
    # it antes to 0 (pot 17, stacks 0 14 29) and can only pass (F = 14). Deal 5 cancelled;
    # deal 6 cannot start (S0 at 0): the pot 17 is split 5 each, leftovers 2 to S0 and S1
    # (last dealer 2, left(2) = 0).
    deal4 = raw("JS", "7H", "7D", "7C", "JC", "8H", "8D", "8C", "AS", "9H", "9D", "9C", "7S")
    st = new(3, 0, decks=[list(DECK_32)] * 4 + [deal4], buy_in=20, rotations=3, fine_cap=14)
    for _ in range(4):
        speak(st, PASS, PASS)
    speak(st, STAND, STAND, PASS)
    while st.view(None)["deals_played"] == 4:
        s = to_act(st)
        st.apply(s, st.legal_actions(s)[0])
    v = st.view(None)
    assert v["last_result"]["payouts"] == [0, 0, 15] and v["last_result"]["fines"] == [14, 0, 0]
    assert (v["phase"], v["stacks"], v["pot"], v["k"], v["fine"], v["dealer"]) == (
        "declare", [0, 14, 29], 17, 1, 14, 2)
    assert st.to_act() == (0,) and st.legal_actions(0) == [PASS]
    _, events = speak(st, PASS, PASS)
    fin = events[-1]
    assert fin["type"] == "session_end" and fin["reason"] == "broke" and fin["deals_played"] == 6
    assert fin["split"] == [6, 6, 5] and st.stacks == [6, 20, 34] and fin["results"] == [-14, 0, 14]


# ------------------------------------------------------------------ section 4 settlement


def _two_seats_deal(n3_rounds, turn_up="7S", ante=3):
    """Three seats, ante 3, first dealer 1: deal 0 cancelled (pot 9), deal 1 (dealer 2, pot 18,
    k = 2, s = 6): S0 and S1 stand, S2 passes; Q = [0, 1, 2, M]."""
    deal1 = raw(*[c for rnd in n3_rounds for c in rnd], turn_up)
    st = new(3, 1, decks=[list(DECK_32), deal1], ante=ante)
    speak(st, PASS, PASS)
    v = st.view(None)
    assert (v["pot"], v["k"], v["dealer"], v["stacks"]) == (18, 2, 2, [294] * 3)
    speak(st, STAND, STAND, PASS)
    return st


@pytest.mark.parametrize("rounds, plays, winners, payouts", [
    # w = S0, S1, S1: trick 1 A♥ > 7♥; 7♣ led, S1 has no club (J♣ is trump) and trumps; S1 leads J♠
    ([["AH", "7H", "KD", "QD"], ["7C", "JS", "KC", "QC"], ["8C", "JC", "KH", "QH"]],
     [(0, "AH"), (1, "7H"), (0, "7C"), (1, "JC"), (1, "JS"), (0, "8C")], [0, 1, 1], [6, 12, 0]),
    # w = S0, S1, S0: 7♣ led, S1 trumps with J♣; S1 leads 8♦, S0 has no diamond and trumps with J♠
    ([["AH", "7H", "KD", "QD"], ["7C", "JC", "KC", "QC"], ["JS", "8D", "KH", "QH"]],
     [(0, "AH"), (1, "7H"), (0, "7C"), (1, "JC"), (1, "8D"), (0, "JS")], [0, 1, 0], [12, 6, 0]),
    # w = S0, S0, S1
    ([["AH", "7H", "KD", "QD"], ["KH", "8H", "KC", "QC"], ["7C", "JC", "10D", "QH"]],
     [(0, "AH"), (1, "7H"), (0, "KH"), (1, "8H"), (0, "7C"), (1, "JC")], [0, 0, 1], [12, 6, 0]),
])
def test_two_one_split_every_trick_pattern(rounds, plays, winners, payouts):
    st = _two_seats_deal(rounds)
    events = []
    for s, c in plays:
        assert to_act(st) == s
        events += st.apply(s, card(c))
    end = deal_end(events)
    # P = 18, s = 3 × 2 = 6: the one-trick seat gets 6, the two-trick seat 12; nobody fined
    assert end["trick_winners"] == winners and end["payouts"] == payouts and end["fines"] == [0, 0, 0]
    v = st.view(None)
    assert v["last_result"] == {"cancelled": False, "trick_winners": winners, "payouts": payouts,
                                "fines": [0, 0, 0]}
    # next deal already anted: pot 0 + 9, k reset then 1, dealer 0
    assert (v["pot"], v["k"], v["dealer"]) == (9, 1, 0)
    assert v["stacks"] == [294 + payouts[0] - 3, 294 + payouts[1] - 3, 291]


def test_one_one_one_by_trick_order_not_seat_order_with_a_fine():
    # four seats, dealer 3: Q = [0, 1, 2, 3, M]; trump ♠ (turn-up 7♠); everyone stands
    deck = raw("7H", "8H", "AH", "9H", "KH",
               "AD", "7D", "8D", "9D", "KD",
               "8C", "AC", "9C", "10C", "KC", "7S")
    st = new(4, 3, decks=[deck])
    speak(st, STAND, STAND, STAND, STAND)
    events = []
    for s, c in [(0, "7H"), (1, "8H"), (2, "AH"), (3, "9H"),   # S2 wins
                 (2, "8D"), (3, "9D"), (0, "AD"), (1, "7D"),   # S0 wins
                 (0, "8C"), (1, "AC"), (2, "9C"), (3, "10C")]:  # S1 wins
        assert to_act(st) == s
        events += st.apply(s, card(c))
    end = deal_end(events)
    # P = 4, s = 1 to w3 = S1; R = 3: w1 = S2 gets 2, w2 = S0 gets 1; S3 took nothing: fined 4
    assert end["trick_winners"] == [2, 0, 1]
    assert end["payouts"] == [1, 1, 2, 0] and end["fines"] == [0, 0, 0, 4]
    v = st.view(None)
    assert v["stacks"] == [99, 99, 100, 94] and (v["pot"], v["k"], v["fine"]) == (8, 1, 8)


def test_fine_cap_with_two_fined_seats_each_pay_the_capped_fine():
    # four seats, ante 1, cap 5, dealer 0. Deal 0 cancelled (pot 4). Deal 1 (dealer 1, pot 8,
    # k 2, F = min(8, 5) = 5): Q = [2, 3, 0, 1, M]; trump ♠; S2 holds J♠ J♣ A♠ and sweeps
    deal1 = raw("JS", "7H", "8H", "9H", "10H",
                "JC", "7D", "8D", "9D", "10D",
                "AS", "7C", "8C", "9C", "10C", "7S")
    st = new(4, 0, decks=[list(DECK_32), deal1], fine_cap=5)
    speak(st, PASS, PASS, PASS)
    assert (st.view(None)["pot"], st.view(None)["fine"]) == (8, 5)
    speak(st, STAND, STAND, STAND, PASS)  # S2, S3, S0 stand; S1 passes
    events = []
    while st.view(None)["deals_played"] == 1:
        s = to_act(st)
        events += st.apply(s, st.legal_actions(s)[0])
    end = deal_end(events)
    assert end["payouts"] == [0, 0, 8, 0] and end["fines"] == [5, 0, 0, 5]
    v = st.view(None)
    # stacks before: 98 each; after: S0 93, S1 98, S2 106, S3 93; pot 10, then antes: 14
    assert v["stacks"] == [92, 97, 105, 92] and (v["pot"], v["k"], v["fine"]) == (14, 1, 5)
    assert sum(v["stacks"]) + v["pot"] == 400


# ------------------------------------------------------------------ 5.2 end rules


def test_nominal_end_on_a_clean_deal_is_complete_even_with_no_extra_deals():
    # three seats, rotations 1 (N = 3), max_extra 0. Deals 0, 1 cancelled; deal 2 (dealer 2)
    # Q = [0, 1, 2, M]: S0 J♠ J♣ A♠ sweeps S1, fined 9 -> pot 9 after deal 2: extra_limit end,
    # pot 9 split 3 each
    deal2 = raw("JS", "7H", "7D", "7C", "JC", "8H", "8D", "8C", "AS", "9H", "9D", "9C", "7S")
    st = new(3, 0, decks=[list(DECK_32), list(DECK_32), deal2], rotations=1, max_extra_deals=0)
    speak(st, PASS, PASS)
    speak(st, PASS, PASS)
    speak(st, STAND, STAND, PASS)
    events = []
    while not st.is_over():
        s = to_act(st)
        events += st.apply(s, st.legal_actions(s)[0])
    # P = 9: S0 +9, S1 -9; stacks 97 + 9 = 106, 97 - 9 = 88, 97; pot 9 split 3 each
    fin = events[-1]
    assert fin["reason"] == "extra_limit" and fin["split"] == [3, 3, 3]
    assert st.stacks == [109, 91, 100] and fin["results"] == [9, -9, 0] and fin["ranks"] == [1, 3, 2]
    # a clean 2-1 deal at the nominal length instead: the pot is 0, the reason is "complete"
    # (rule 5.2.1 is checked before 5.2.2). Q = [0, 1, 2, M]: S0 J♠ J♣ 7♦, S2 K♦ 8♦ 9♦
    deal2b = raw("JS", "7H", "KD", "7C", "JC", "8H", "8D", "8C", "7D", "9H", "9D", "9C", "7S")
    st = new(3, 0, decks=[list(DECK_32), list(DECK_32), deal2b], rotations=1, max_extra_deals=0)
    speak(st, PASS, PASS)
    speak(st, PASS, PASS)
    speak(st, STAND, PASS, STAND)  # S0 and S2 stand; S0 leads
    # S0 leads J♠ (S2 has no trump: free); 7♦ led, S2 follows K♦; 9♦ led, S0 must trump J♣
    events = []
    for s, c in [(0, "JS"), (2, "8D"), (0, "7D"), (2, "KD"), (2, "9D"), (0, "JC")]:
        assert to_act(st) == s
        events += st.apply(s, card(c))
    end = deal_end(events)
    # P = 9, k = 3, s = 3: w = S0, S2, S0 -> S2 gets 3, S0 gets 6
    assert end["trick_winners"] == [0, 2, 0] and end["payouts"] == [6, 0, 3] and end["pot"] == 0
    assert events[-1]["reason"] == "complete" and events[-1]["split"] == [0, 0, 0]
    assert st.stacks == [103, 97, 100]


def test_end_split_leftover_starts_left_of_last_dealer():
    # five seats, dealer 3, rotations 1 (N = 5), max_extra 0, fine_cap 3. Deal 0 (dealer 3):
    # Q = [4, 0, 1, 2, 3, M]: S4 J♠ J♣ A♠ sweeps S0; then four cancelled deals (dealers 4 0 1 2).
    deal0 = raw("JS", "7H", "8H", "9H", "10H", "QH",
                "JC", "7D", "8D", "9D", "10D", "QD",
                "AS", "7C", "8C", "9C", "10C", "QC", "7S")
    st = new(5, 3, decks=[deal0], rotations=1, max_extra_deals=0, fine_cap=3)
    speak(st, STAND, STAND, PASS, PASS, PASS)  # S4, S0 stand
    while st.view(None)["deals_played"] == 0:
        s = to_act(st)
        st.apply(s, st.legal_actions(s)[0])
    # P = 5 to S4; S0 fined min(5, 3) = 3; pot 3, then 4 cancelled deals: 3 + 4 × 5 = 23
    events = []
    for _ in range(4):
        events += speak(st, *[PASS] * 4)[1]
    fin = events[-1]
    # last deal dealt by seat 2 (dealers 3 4 0 1 2): leftovers 23 mod 5 = 3 go to S3, S4, S0
    assert st.view(None)["dealer"] == 3 and fin["reason"] == "extra_limit"
    assert fin["split"] == [5, 4, 4, 5, 5]
    # stacks before split: S0 99 - 3 - 4 = 92, S1..S3 99 - 4 = 95, S4 99 + 5 - 4 = 100
    assert st.stacks == [97, 99, 99, 100, 105] and sum(st.stacks) == 500


# ------------------------------------------------------------------ section 7 views and leaks


def test_view_last_result_keys_and_session_end_view():
    st = new(3, 0, rotations=1, max_extra_deals=0)
    assert st.view(0)["last_result"] is None
    speak(st, PASS, PASS)
    lr = st.view(2)["last_result"]
    assert lr == {"cancelled": True, "trick_winners": [], "payouts": [0, 0, 0], "fines": [0, 0, 0]}
    assert list(lr) == ["cancelled", "trick_winners", "payouts", "fines"]
    speak(st, PASS, PASS)
    speak(st, PASS, PASS)
    assert st.is_over()
    for s in (0, 1, 2, None):
        v = st.view(s)
        json.dumps(v)
        assert v["phase"] == "session_end" and v["to_act"] == [] and v["hand"] == []
        assert harness.cards_in(v) == set()
        assert v["declarations"] == [None] * 3 and v["hand_sizes"] == [0, 0, 0]
        assert v["last_result"]["cancelled"] is True
    assert all(st.legal_actions(s) == [] for s in range(3))
    with pytest.raises(IllegalMove):
        st.timeout_action(0)
    harness.assert_refused(st, 3, 0, PASS)


def test_hidden_cards_never_in_any_view_or_event_through_session_end():
    # four seats, dealer 3: Q = [0, 1, 2, 3, M]. S0 passes (A♥ K♥ Q♥ dead), S1 takes the muet
    # (its J♥ 10♥ 9♥ dead), S2 and S3 stand; then the host closes: the deal ends the session.
    muet = ["7C", "8C", "9C"]
    deck = raw("AH", "JH", "AS", "AD", "7C",
               "KH", "10H", "KS", "KD", "8C",
               "QH", "9H", "QS", "QD", "9C", "7S")
    st = new(4, 3, decks=[deck])
    events = []
    seats, ev = speak(st, PASS, MUET)
    events += ev
    assert sorted(st.view(1)["hand"]) == sorted(muet)
    events += st.request_close()
    events += speak(st, STAND, STAND)[1]
    views_seen = []
    taker_told = []

    def look() -> None:
        views = [st.view(s) for s in (0, 1, 2, 3, None)]
        taker_told.append(views[1].pop("given_up"))  # the taker's own old hand, told to it alone
        views_seen.extend(views)

    while not st.is_over():
        look()
        s = to_act(st)
        events += st.apply(s, st.legal_actions(s)[0])
    look()
    assert taker_told[0] == ["JH", "10H", "9H"] and taker_told[-1] == []
    hidden = {"AH", "KH", "QH", "JH", "10H", "9H"} | set(deck[16:])  # two dead hands, the stock
    for v in views_seen:
        assert not hidden & harness.cards_in(v)
    assert not hidden & harness.cards_in(events)
    assert events[-1]["type"] == "session_end" and events[-1]["reason"] == "closed"


def test_untaken_muet_and_stock_never_shown_even_after_session_end():
    deck = raw("AS", "KS", "QS", "JS", "AH",   # Q = [0, 1, 2, 3, M], dealer 3
               "10S", "9S", "8S", "7S", "KH",
               "AD", "KD", "QD", "JD", "QH", "7C")
    st = new(4, 3, decks=[deck], rotations=1, max_extra_deals=0)
    muet = {"AH", "KH", "QH"}
    stock = set(deck[16:])
    events = speak(st, STAND, STAND, PASS, PASS)[1]
    s = to_act(st)
    events += st.apply(s, st.legal_actions(s)[0])
    for s in (0, 1, 2, 3, None):
        assert not (muet | stock) & harness.cards_in(st.view(s))
    events += st.request_close(now=True)
    assert st.is_over()
    for s in (0, 1, 2, 3, None):
        seen = harness.cards_in(st.view(s))
        assert not (muet | stock) & seen
    assert not (muet | stock) & harness.cards_in(events)


# ------------------------------------------------------------------ timeouts


@pytest.mark.parametrize("hand, expected", [
    (["7C", "7D", "AH"], "7D"),   # trump ♥: ♦ before ♣ at equal rank
    (["8H", "8S", "9D"], "8S"),   # 8♥ is a trump; of 8♠ and 9♦ the lower rank
    (["JD", "QC", "KS"], "QC"),   # J♦ is a trump (trump ♥): the non-trumps go first
    (["AD", "KD", "AC"], "KD"),
])
def test_timeout_lowest_legal_card_more_cases(hand, expected):
    # trump ♥ (turn-up 10♥); S0 leads with ``hand``
    others = [c for c in DECK_32 if c not in hand and c != "10H"]
    deck = raw(hand[0], others[0], others[1], others[2],
               hand[1], others[3], others[4], others[5],
               hand[2], others[6], others[7], others[8], "10H")
    st = new(3, 2, decks=[deck])
    speak(st, STAND, STAND, STAND)
    assert st.timeout_action(0) == card(expected)


# ------------------------------------------------------------------ contract: hostile input, clone, close


def test_hostile_input_only_raises_illegal_move_and_changes_nothing():
    st = new(4, 0)
    hostile_actions = [{"type": {}}, {"type": []}, {"type": "play", "card": ["AS"]},
                       {"type": "play", "card": {}}, {"type": "pass", 1: 2}, {"type": "stand", "type2": "x"},
                       {"TYPE": "pass"}, {"type": "pass "}, {"type": b"pass"}, ("type", "pass"),
                       {"type": "take_muet", "x": None}]
    for a in hostile_actions:
        harness.assert_refused(st, 4, 1, a)
    for seat in (float("nan"), "1", [1], {}, None, True, 1.0, 10**20, -3):
        harness.assert_refused(st, 4, seat, PASS)
        assert st.legal_actions(seat) == []
        with pytest.raises(IllegalMove):
            st.timeout_action(seat)
        assert st.view(seat)["hand"] == []


def test_clone_is_independent_both_ways_mid_play():
    rng = random.Random(3)
    st = new(5, 0, seed=11)
    speak(st, MUET, STAND, STAND, PASS, PASS)
    st.apply(to_act(st), st.legal_actions(to_act(st))[0])
    twin = st.clone()
    snap = harness.snapshot(twin, 5)
    for _ in range(30):
        if st.is_over():
            break
        s = to_act(st)
        st.apply(s, rng.choice(st.legal_actions(s)))
    st.request_close(now=True)
    assert harness.snapshot(twin, 5) == snap
    while not twin.is_over():
        s = to_act(twin)
        twin.apply(s, twin.legal_actions(s)[0])
    assert sum(twin.stacks) == 500


def test_request_close_now_mid_declaration_after_a_muet_take():
    st = new(4, 0)
    speak(st, PASS, PASS, PASS)
    speak(st, STAND, MUET)  # deal 1 (dealer 1): S2 stands, S3 takes the muet
    assert st.view(None)["pot"] == 8 and st.stacks == [98] * 4
    ev = st.request_close(now=True)
    # deal 1's antes come back; the pot of deal 0 (4) is split 1 each
    assert ev[0]["type"] == "deal_voided" and ev[-1]["split"] == [1, 1, 1, 1]
    assert st.stacks == [100] * 4 and st.pot == 0 and st.is_over()
    assert st.view(3)["hand"] == [] and st.view(None)["muet_taken_by"] is None
    assert st.request_close() == [] and st.request_close(now=True) == []


def test_request_close_in_play_lets_the_deal_finish():
    st = new(3, 0)
    speak(st, STAND, STAND, PASS)
    s = to_act(st)
    st.apply(s, st.legal_actions(s)[0])
    assert st.request_close() == [{"type": "close_requested", "deal": 0}]
    assert st.view(None)["closing"] is True and st.view(None)["phase"] == "play"
    assert st.legal_actions(to_act(st))
    events = []
    while not st.is_over():
        s = to_act(st)
        events += st.apply(s, st.legal_actions(s)[0])
    assert events[-1]["reason"] == "closed"
    assert not any(e["type"] == "deal_start" for e in events)
    assert sum(st.stacks) == 300 and st.pot == 0
