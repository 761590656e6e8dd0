"""Mus (8 kings): the spec's examples, hand-checked stacked deals, options, close, timeouts, contract."""

from __future__ import annotations

import json
import random

import pytest

from bot.rules import GAMES, IllegalMove
from bot.rules.cards import DECK_ES_40
from bot.rules.mus.tables import lance_winner, read_hand
from tests.rules import harness

GAME = GAMES["mus"]


def A(kind: str, **kw) -> dict:
    return {"type": kind, **kw}


PASO, QUIERO, NOQ, ORDAGO = A("paso"), A("quiero"), A("no_quiero"), A("ordago")
MUS, NOMUS = A("mus"), A("no_mus")


def env(n: int) -> dict:
    return A("envido", amount=n)


def stacked(dealer: int, hands: dict[int, str], stock: str = "") -> list[str]:
    """A deck giving each seat its 4 cards (one at a time from the mano) and ``stock`` on top."""
    deck: list[str | None] = [None] * 40
    for seat, cards in hands.items():
        j = (seat - dealer - 1) % 4
        for r, c in enumerate(cards.split()):
            deck[4 * r + j] = c
    used = {c for c in deck if c}
    top = stock.split()
    rest = top + [c for c in DECK_ES_40 if c not in used and c not in top]
    out = [c if c else rest.pop(0) for c in deck[:16]] + rest
    assert sorted(out) == sorted(DECK_ES_40)
    return out


def new(decks=None, dealer=0, seed=1, **opts):
    o = GAME.validate_options({"dealer": dealer, "decks": decks, **opts})
    return GAME.new_table(seats=4, options=o, seed=seed)


def act(state, *moves) -> list[dict]:
    """Apply actions, each by the seat to act (checked when a (seat, action) pair is given)."""
    events: list[dict] = []
    for m in moves:
        if isinstance(m, tuple):
            seat, action = m
            assert state.to_act() == (seat,), (state.to_act(), seat, action)
        else:
            seat, action = state.to_act()[0], m
        events += state.apply(seat, action)
    return events


def pass_lance(state) -> list[dict]:
    """Everyone passes until the phase changes."""
    phase = state.view(None)["phase"]
    events: list[dict] = []
    while state.view(None)["phase"] == phase:
        events += act(state, PASO)
    return events


def of(events, kind):
    return [e for e in events if e["type"] == kind]


# ---------------------------------------------------------------- example A and hand reading

EX_A = {1: "3O 12C 2E 1B", 2: "11O 11C 10E 7B", 3: "3B 12E 12B 5C", 0: "4O 5E 6C 7O"}


def test_example_a_hand_reading():
    s = new([stacked(0, EX_A)], dealer=0)
    v = s.view(1)
    assert v["mano"] == 1 and v["dealer"] == 0 and v["hand"] == ["3O", "12C", "2E", "1B"]
    ev = act(s, (1, NOMUS))
    ev += pass_lance(s) + pass_lance(s)  # grande, chica
    assert s.view(None)["declared"]["pares"] == [False, True, True, True]
    assert s.view(None)["phase"] == "pares" and s.to_act() == (1,)
    ev += pass_lance(s)  # pares: S1, S2, S3 speak
    assert s.view(None)["declared"]["juego"] == [False, False, True, True]
    assert s.to_act() == (2,)  # juego: S2 then S3
    ev += pass_lance(s)
    end = of(ev, "deal_end")[0]
    assert end["lance_winners"] == {"grande": 3, "chica": 1, "pares": 1, "juego": 2, "punto": None}
    # Grande K K A A vs K K K 5 → S3; chica S1; pares S1 (bonus team 1 = 3 + 2); juego S2 37 (bonus 2).
    assert end["counted"] == [["grande", 1, 1, 0], ["chica", 1, 1, 0], ["pares", 1, 0, 5], ["juego", 0, 0, 2]]
    assert end["points_after"] == [2, 7]
    combos = end["combos"]
    assert [c["pares"] for c in combos] == [None, "duples K-A", "par C", "medias K"]
    assert [c["total"] for c in combos] == [22, 22, 37, 35]
    last = s.view(3)["last_hand"]
    assert last["hands"][1] == ["3O", "12C", "2E", "1B"] and last["game_winner"] is None


def test_rank_orders_of_section_2():
    def rd(*codes):
        return read_hand(list(map(DECK_ES_40.index, codes)))

    order = [0, 1]
    # Grande: K A A A beats C C C C.
    assert lance_winner("grande", [rd("11O", "11C", "11E", "11B"), rd("3O", "1C", "2E", "1B")], order) == 1
    # Chica: A A 4 5 beats A A 4 6.
    assert lance_winner("chica", [rd("1O", "2C", "4E", "6B"), rd("1E", "1B", "4C", "5O")], order) == 1
    # Pares: C C 6 6 beats S S S S; K K 7 7 beats K K 4 4; duples > medias > par.
    assert lance_winner("pares", [rd("10O", "10C", "10E", "10B"), rd("11O", "11C", "6E", "6B")], order) == 1
    assert lance_winner("pares", [rd("3O", "12C", "4E", "4B"), rd("3C", "12O", "7E", "7B")], order) == 1
    assert lance_winner("pares", [rd("3O", "3C", "3E", "4B"), rd("1C", "2O", "7E", "7B")], order) == 1
    assert lance_winner("pares", [rd("4O", "4C", "5E", "6B"), rd("3C", "3O", "3E", "7B")], order) == 1
    # Juego order 31 > 32 > 40 > 37 > 36 > 35 > 34 > 33.
    totals = {31: "11O 10O 12O 1O", 32: "11C 10C 5O 7O", 40: "3O 3C 3E 3B", 37: "12C 12E 12B 7C",
              36: "10E 11E 12E 6C", 35: "10B 11B 3B 5C", 34: "11O 10O 7E 7B", 33: "11O 10O 7E 6E"}
    seq = [31, 32, 40, 37, 36, 35, 34, 33]
    for i in range(len(seq) - 1):
        better, worse = rd(*totals[seq[i]].split()), rd(*totals[seq[i + 1]].split())
        assert better.total == seq[i] and worse.total == seq[i + 1]
        assert lance_winner("juego", [worse, better], order) == 1
    # Punto: the higher total wins; 30 best.
    assert lance_winner("punto", [rd("11O", "10O", "7E", "1B"), rd("11C", "10C", "5O", "4O")], order) == 1


# ---------------------------------------------------------------- 8 kings, 8 aces, ties, juego alone

EIGHT = {1: "3O 12C 2E 1B", 2: "3C 3E 12O 2O", 3: "2C 1O 1C 4O", 0: "11O 11C 10O 7O"}


def test_eight_kings_eight_aces_every_lance_and_juego_held_by_one_team():
    s = new([stacked(0, EIGHT)], dealer=0)
    ev = act(s, NOMUS) + pass_lance(s) + pass_lance(s)
    assert s.view(None)["declared"]["pares"] == [True, True, True, True]
    ev += pass_lance(s)
    # Juego: S2 (3 3 12 2 = 31: a 3 counts 10, a 2 counts 1) and S0 (37), both team 0: no betting.
    end = of(ev, "deal_end")[0]
    assert of(ev, "lance_end")[-1] == {"type": "lance_end", "lance": "juego", "result": "no_bet", "total": 0,
                                       "held": 0, "team": None, "holder_team": 0}
    assert end["lance_winners"] == {"grande": 2, "chica": 3, "pares": 1, "juego": 2, "punto": None}
    assert [c["pares"] for c in end["combos"]] == ["par C", "duples K-A", "medias K", "medias A"]
    assert end["counted"] == [["grande", 0, 1, 0], ["chica", 1, 1, 0], ["pares", 1, 0, 5], ["juego", 0, 0, 5]]
    assert end["points_after"] == [6, 6] and s.view(None)["points"] == [6, 6]
    text = GAME.narrate(end, lambda i: f"seat {i}")
    assert "duples K-A" in text and "Grande: en paso, best cards: seat 2 (K K K A)" in text


def test_ties_go_to_the_seat_nearest_the_mano():
    # Dealer 2, mano S3: position order S3, S0, S1, S2. S0 and S2 hold the same cards for every lance;
    # S1 and S3 hold the same too (2 = 1 = ace, 3 = 12 = king).
    hands = {0: "3O 11O 2O 4O", 2: "12C 11C 1C 4C", 1: "5E 6E 7E 10E", 3: "5B 6B 7B 10B"}
    s = new([stacked(2, hands)], dealer=2)
    ev = act(s, (3, NOMUS)) + pass_lance(s) + pass_lance(s)
    assert s.view(None)["phase"] == "punto"  # nobody has pares or juego
    ev += pass_lance(s)
    end = of(ev, "deal_end")[0]
    assert end["lance_winners"] == {"grande": 0, "chica": 0, "pares": None, "juego": None, "punto": 3}
    assert end["counted"] == [["grande", 0, 1, 0], ["chica", 0, 1, 0], ["punto", 1, 0, 1]]


def test_juego_31_beats_32_beats_40_in_a_deal():
    hands = {1: "3O 12O 11O 10O", 2: "10C 11C 5O 7O", 3: "12C 3C 10E 7C", 0: "11E 12E 3E 1O"}
    s = new([stacked(0, hands)], dealer=0)
    act(s, NOMUS, ORDAGO, NOQ, NOQ)  # grande: refused órdago, team 1 holds 1
    pass_lance(s)  # chica
    assert s.view(None)["declared"]["pares"] == [True, True, False, True]
    pass_lance(s)
    assert s.view(None)["declared"]["juego"] == [True, True, True, True] and s.to_act() == (1,)
    ev = act(s, env(2), (2, QUIERO))
    end = of(ev, "deal_end")[0]
    assert end["lance_winners"]["juego"] == 0  # S0's 31, though last in position order
    assert end["counted"][-1] == ["juego", 0, 2, 3 + 2]  # bet 2 + S0's 31 (3) + S2's 32 (2)
    assert end["counted"][0] == ["grande", 1, 1, 0]


def test_punto_when_nobody_has_juego_accepted_bet_plus_one():
    hands = {1: "1C 4O 5C 6O", 2: "12O 11O 4C 2O", 3: "12C 10C 7O 1O", 0: "4E 5E 6C 7C"}
    s = new([stacked(0, hands)], dealer=0)
    ev = act(s, NOMUS) + pass_lance(s) + pass_lance(s)
    assert of(ev, "lance_end")[-1]["result"] == "no_bet"  # pares: nobody
    assert s.view(None)["declared"] == {"pares": [False] * 4, "juego": [False] * 4}
    assert s.view(None)["phase"] == "punto" and s.to_act() == (1,)
    ev = act(s, PASO, (2, env(3)), (3, QUIERO))
    end = of(ev, "deal_end")[0]
    assert end["lance_winners"]["punto"] == 3 and end["lance_winners"]["juego"] is None
    assert end["counted"] == [["grande", 0, 1, 0], ["chica", 1, 1, 0], ["punto", 1, 3, 1]]


# ---------------------------------------------------------------- who may bet in pares

def test_only_seats_holding_pares_bet_and_a_refused_bet_gives_held_plus_own_bonus():
    # S2 (team 0) par 5, S3 (team 1) duples; S1, S0 no pares.
    hands = {1: "1C 4O 6O 7E", 2: "5O 5C 11O 1O", 3: "12C 3C 10E 10C", 0: "4E 5E 6C 7C"}
    s = new([stacked(0, hands)], dealer=0)
    act(s, NOMUS)
    pass_lance(s)
    pass_lance(s)
    assert s.view(None)["declared"]["pares"] == [False, False, True, True]
    assert s.to_act() == (2,) and all(s.legal_actions(x) == [] for x in (0, 1, 3))
    ev = act(s, env(2))
    assert s.to_act() == (3,)  # the only eligible opponent: S1 has no pares
    ev += act(s, NOQ)  # refused at once; juego: S3 alone (40) → no betting → the count
    assert of(ev, "lance_end")[0]["result"] == "refused"
    end = of(ev, "deal_end")[0]
    # held 1 + team 0's own bonus (S2's par), though S3's duples are better; then S3's juego bonus.
    assert end["counted"][2:] == [["pares", 0, 1, 1], ["juego", 1, 0, 2]]


def test_no_betting_when_one_team_alone_holds_pares():
    hands = {1: "1C 1O 6O 7E", 2: "4O 5C 11O 2B", 3: "12C 3C 10E 10C", 0: "4E 5E 6C 7C"}
    s = new([stacked(0, hands)], dealer=0)
    ev = act(s, NOMUS) + pass_lance(s) + pass_lance(s)  # pares and juego (S3 alone) need no betting
    assert of(ev, "declare")[0] == {"type": "declare", "lance": "pares", "has": [False, True, False, True]}
    le = of(ev, "lance_end")[2]
    assert le["lance"] == "pares" and le["result"] == "no_bet" and le["holder_team"] == 1
    end = of(ev, "deal_end")[0]
    assert ["pares", 1, 0, 1 + 3] in end["counted"]  # S1 par A, S3 duples K-S


# ---------------------------------------------------------------- bets, raises, refusals

def test_refused_opening_bet_scores_one_after_both_opponents_refuse():
    s = new([stacked(0, EX_A)], dealer=0)
    ev = act(s, NOMUS, (1, env(2)), (2, NOQ))
    assert s.to_act() == (0,)  # the partner of the first refuser may still answer
    assert s.view(None)["bet"] == {"total": 2, "held": 1, "team": 1}
    ev += act(s, (0, NOQ))
    assert s.view(None)["lances"][0] == {"lance": "grande", "result": "refused", "total": 2, "held": 1,
                                         "team": 1}
    assert s.view(None)["phase"] == "chica" and s.view(None)["bet"] is None
    assert GAME.narrate(of(ev, "envido")[0], lambda i: f"seat {i}") == "grande: envido 2 by seat 1"
    assert GAME.narrate(of(ev, "no_quiero")[0], lambda i: f"seat {i}") == "grande: no quiero by seat 2"


def test_example_b_refused_raise_and_legal_raise_ranges():
    s = new([stacked(0, EX_A)], dealer=0)
    act(s, NOMUS, (1, env(2)))
    expect_at_2 = [QUIERO, NOQ] + [env(n) for n in range(2, 39)] + [ORDAGO]
    assert s.legal_actions(2) == expect_at_2
    act(s, (2, NOQ))
    assert s.legal_actions(0) == expect_at_2
    act(s, (0, env(5)))
    assert s.view(None)["bet"] == {"total": 7, "held": 2, "team": 0}
    assert s.legal_actions(1) == [QUIERO, NOQ] + [env(n) for n in range(2, 34)] + [ORDAGO]
    act(s, (1, env(10)))
    assert s.view(None)["bet"] == {"total": 17, "held": 7, "team": 1}
    ev = act(s, (2, NOQ), (0, NOQ))
    assert of(ev, "lance_end")[0] == {"type": "lance_end", "lance": "grande", "result": "refused",
                                      "total": 17, "held": 7, "team": 1}
    ev = pass_lance(s) + pass_lance(s) + pass_lance(s)
    assert of(ev, "deal_end")[0]["counted"][0] == ["grande", 1, 7, 0]


def test_seed_example_1_refused_raise_gives_the_opening_bet():
    s = new([stacked(0, EX_A)], dealer=0)
    act(s, NOMUS, (1, env(2)), (2, env(5)), (3, NOQ), (1, NOQ))
    assert s.view(None)["lances"][0] == {"lance": "grande", "result": "refused", "total": 7, "held": 2,
                                         "team": 0}


def test_raise_cap_leaves_only_ordago():
    s = new([stacked(0, EX_A)], dealer=0)
    act(s, NOMUS, (1, env(39)))
    assert s.legal_actions(2) == [QUIERO, NOQ, ORDAGO]
    act(s, (2, ORDAGO))
    assert s.legal_actions(3) == [QUIERO, NOQ]
    assert s.view(None)["bet"] == {"total": "ordago", "held": 39, "team": 0}
    act(s, (3, NOQ), (1, NOQ))
    assert s.view(None)["lances"][0] == {"lance": "grande", "result": "refused", "total": "ordago",
                                         "held": 39, "team": 0}


def test_refused_ordago_scores_one():
    s = new([stacked(0, EX_A)], dealer=0)
    act(s, NOMUS, (1, ORDAGO), (2, NOQ), (0, NOQ))
    assert s.view(None)["lances"][0]["held"] == 1
    ev = pass_lance(s) + pass_lance(s) + pass_lance(s)
    assert of(ev, "deal_end")[0]["counted"][0] == ["grande", 1, 1, 0]


def test_accepted_ordago_settles_the_game_at_once_with_nothing_counted():
    s = new([stacked(0, EX_A)], dealer=0, stake=10)
    act(s, NOMUS, (1, env(2)), (2, NOQ), (0, NOQ))  # grande refused: would give team 1 a point
    ev = act(s, (1, ORDAGO), (2, QUIERO))  # chica órdago, won by S1 (A A K K)
    end = of(ev, "deal_end")[0]
    assert end["ordago"] == "chica" and end["counted"] == [] and end["points_after"] == [0, 0]
    assert end["game_winner"] == 1
    assert end["lance_winners"] == {"grande": 3, "chica": 1, "pares": 1, "juego": 2, "punto": None}
    assert of(ev, "game_end")[0]["ordago"] == "chica"
    assert of(ev, "match_end")[0]["results"] == [-10, 10, -10, 10]
    assert s.is_over() and s.stacks == [90, 110, 90, 110] and s.pot == 0
    assert of(ev, "session_end")[0]["results"] == [-10, 10, -10, 10]
    assert s.view(0)["last_hand"]["hands"][2] == ["11O", "11C", "10E", "7B"]


def test_accepted_bet_scores_total_plus_bonus_for_the_winner():
    s = new([stacked(0, EX_A)], dealer=0)
    act(s, NOMUS)
    pass_lance(s)
    pass_lance(s)
    ev = act(s, (1, env(4)), (2, QUIERO)) + pass_lance(s)
    end = of(ev, "deal_end")[0]
    assert ["pares", 1, 4, 5] in end["counted"]


# ---------------------------------------------------------------- example C: order of the count

def test_example_c_count_stops_when_a_team_reaches_target():
    deal0 = stacked(0, {1: "1C 4O 5C 6O", 2: "12O 11O 4C 2O", 3: "12C 10C 7O 1O", 0: "4E 5E 6C 7C"})
    deal1 = stacked(1, {2: "3O 12O 6O 1O", 3: "3C 11O 10O 2O", 0: "7O 7C 7E 4O", 1: "10C 10E 7B 5O"})
    s = new([deal0, deal1], dealer=0)
    # Deal 0 brings the score to [37, 38]: grande 37 accepted (team 0), chica 37 accepted (team 1),
    # no pares, no juego, punto en paso (team 1).
    ev = act(s, NOMUS, (1, env(37)), (2, QUIERO), (1, env(37)), (2, QUIERO)) + pass_lance(s)
    assert of(ev, "deal_end")[0]["counted"] == [["grande", 0, 37, 0], ["chica", 1, 37, 0], ["punto", 1, 0, 1]]
    v = s.view(None)
    assert v["points"] == [37, 38] and v["dealer"] == 1 and v["mano"] == 2 and v["deal"] == 1
    # Deal 1 = example C.
    act(s, (2, NOMUS))
    pass_lance(s)  # grande en paso, won by S2
    ev = act(s, (2, PASO), (3, env(2)), (0, NOQ), (2, NOQ))  # chica refused, held 1 for team 1
    assert s.view(None)["declared"]["pares"] == [True, True, True, False]
    ev += pass_lance(s)  # pares en paso; juego: team 1 alone → no betting → scoring
    end = of(ev, "deal_end")[0]
    assert end["counted"] == [["grande", 0, 1, 0], ["chica", 1, 1, 0], ["pares", 0, 0, 3]]
    assert end["points_before"] == [37, 38] and end["points_after"] == [41, 39] and end["game_winner"] == 0
    juego = [e for e in end["summary"] if e["lance"] == "juego"][0]
    assert juego["counted"] is False and juego["winner"] == 3
    assert s.is_over() and s.view(None)["points"] == [0, 0] and s.view(None)["games"] == [1, 0]


# ---------------------------------------------------------------- mus, discards, reshuffle, corrido

def test_discard_actions_are_the_15_subsets_in_spec_order():
    s = new([stacked(0, EX_A)], dealer=0)
    act(s, MUS, MUS, MUS, MUS)
    assert s.view(None)["phase"] == "discard" and s.to_act() == (1,)
    legal = s.legal_actions(1)
    hand = ["3O", "12C", "2E", "1B"]
    assert len(legal) == 15 and legal[0] == A("discard", cards=["3O"])
    assert legal[4] == A("discard", cards=hand[:2])
    assert legal[-1] == A("discard", cards=hand)
    assert [len(a["cards"]) for a in legal] == [1] * 4 + [2] * 6 + [3] * 4 + [4]
    # cards are a set: order free; duplicates, foreign cards, empty or long lists are refused.
    for bad in (A("discard", cards=["3O", "3O"]), A("discard", cards=["4O"]), A("discard", cards=[]),
                A("discard", cards=hand + ["3O"]), A("discard", cards="3O"), A("discard", cards=[3]),
                A("discard", card=["3O"]), A("discard", cards=["3O"], x=1), A("discard")):
        harness.assert_refused(s, 4, 1, bad)
    ev = act(s, (1, A("discard", cards=["1B", "3O"])))
    assert ev == [{"type": "discard", "seat": 1, "count": 2}]
    assert s.view(1)["hand"] == ["12C", "2E"]


def test_reshuffle_of_earlier_discards_when_the_stock_runs_out():
    s = new([stacked(0, EX_A)], dealer=0, seed=7)
    everything = set(DECK_ES_40)
    seen_rounds = []
    for rnd in range(4):
        act(s, MUS, MUS, MUS, MUS)
        before = {x: s.view(x)["hand"] for x in range(4)}
        ev = []
        for _ in range(4):
            seat = s.to_act()[0]
            ev += act(s, A("discard", cards=s.view(seat)["hand"]))
        draw = of(ev, "draw")[0]
        v = s.view(None)
        after = {x: s.view(x)["hand"] for x in range(4)}
        # Nobody draws back a card thrown this round; all 40 cards remain distinct.
        thrown = set().union(*before.values())
        held = [c for h in after.values() for c in h]
        assert not thrown & set(held) and len(set(held)) == 16 and set(held) <= everything
        seen_rounds.append((draw["reshuffled"], v["stock_count"]))
        assert v["mus_round"] == rnd + 1 and v["discard_counts"] == [[4, 4, 4, 4]] * (rnd + 1)
    # Round 1 takes 16 of the 24-card stock; round 2 empties it after 8 cards and reshuffles round 1's
    # 16 discards (8 left); rounds 3 and 4 likewise.
    assert seen_rounds == [(0, 8), (1, 8), (1, 8), (1, 8)]
    # Deterministic: the same seed gives the same hands after the reshuffles.
    t = new([stacked(0, EX_A)], dealer=0, seed=7)
    for _ in range(4):
        act(t, MUS, MUS, MUS, MUS)
        for _ in range(4):
            seat = t.to_act()[0]
            act(t, A("discard", cards=t.view(seat)["hand"]))
    assert [t.view(x)["hand"] for x in range(4)] == [s.view(x)["hand"] for x in range(4)]
    act(s, NOMUS)
    assert s.view(None)["phase"] == "grande"


def test_draw_takes_stock_from_the_front_mano_first():
    top = "4E 5B 6E 7C 1E"
    s = new([stacked(0, EX_A, stock=top)], dealer=0)
    act(s, MUS, MUS, MUS, MUS)
    act(s, (1, A("discard", cards=["3O", "12C"])), (2, A("discard", cards=["7B"])))
    act(s, (3, A("discard", cards=["5C"])), (0, A("discard", cards=["4O"])))
    assert set(s.view(1)["hand"]) == {"4E", "5B", "2E", "1B"}
    assert "6E" in s.view(2)["hand"] and "7C" in s.view(3)["hand"] and "1E" in s.view(0)["hand"]
    assert s.view(None)["stock_count"] == 24 - 5


def test_mus_corrido_makes_the_cutter_mano():
    s = new([stacked(0, EX_A)], dealer=0)
    ev = act(s, (1, MUS), (2, MUS), (3, NOMUS))
    assert of(ev, "no_mus")[0]["mano"] == 3
    v = s.view(None)
    assert v["dealer"] == 2 and v["mano"] == 3 and v["phase"] == "grande" and s.to_act() == (3,)
    assert set(s.view(3)["hand"]) == set(EX_A[3].split())
    ev = act(s, ORDAGO, NOQ, NOQ) + pass_lance(s) + pass_lance(s) + pass_lance(s)
    # Next deal: the mano (S3) deals, S0 is mano; no mus corrido any more.
    v = s.view(None)
    assert v["dealer"] == 3 and v["mano"] == 0 and v["deal"] == 1
    assert of(ev, "deal")[0]["corrido"] is False
    act(s, (0, MUS), (1, NOMUS))
    assert s.view(None)["mano"] == 0


def test_mus_corrido_after_an_exchange_and_option_off():
    s = new([stacked(0, EX_A)], dealer=0)
    act(s, MUS, MUS, MUS, MUS)
    for seat in (1, 2, 3, 0):  # provisional order from S1
        act(s, (seat, A("discard", cards=[s.view(seat)["hand"][0]])))
    act(s, (1, MUS), (2, NOMUS))
    assert s.view(None)["mano"] == 2 and s.view(None)["dealer"] == 1
    off = new([stacked(0, EX_A)], dealer=0, mus_corrido=False)
    act(off, (1, MUS), (2, MUS), (3, NOMUS))
    assert off.view(None)["mano"] == 1 and off.to_act() == (1,)


# ---------------------------------------------------------------- matches and jetons

def _ordago_deal(s) -> list[dict]:
    """Cut the mus, órdago at grande, accepted: ends the game."""
    return act(s, NOMUS, ORDAGO, QUIERO)


def test_match_best_of_3_and_two_matches_jetons():
    s = new(None, dealer=0, seed=3, best_of=3, matches=2, stake=25, buy_in=100)
    assert s.pot == 100 and s.stacks == [75] * 4
    wins = []
    ev: list[dict] = []
    while not s.is_over():
        e = _ordago_deal(s)
        ev += e
        wins += [g["team"] for g in of(e, "game_end")]
    ends = of(ev, "match_end")
    assert len(ends) == 2 and of(ev, "match_start")[0]["match"] == 2
    net = [0, 0, 0, 0]
    for m in ends:
        assert sorted(m["results"]) == [-25, -25, 25, 25]
        assert m["games"][m["team"]] == 2
        net = [a + b for a, b in zip(net, m["results"], strict=True)]
    assert s.stacks == [100 + x for x in net] and s.pot == 0
    assert of(ev, "session_end")[0]["results"] == net
    assert sum(s.view(None)["matches_won"]) == 2
    deal_ends = of(ev, "deal_end")
    assert all(sum(d["deltas"]) + d["pot_change"] == 0 for d in deal_ends)
    assert sum(1 for d in deal_ends if d["pot_change"] == -100) == 2


def test_new_match_restarts_with_mus_corrido():
    s = new(None, dealer=0, seed=5, matches=2)
    ev = _ordago_deal(s)
    assert of(ev, "match_start")[0]["match"] == 2 and of(ev, "deal")[0]["corrido"] is True
    assert s.pot == 40 and s.view(None)["games"] == [0, 0]


# ---------------------------------------------------------------- host close

def test_request_close_now_voids_the_deal_and_refunds_stakes():
    s = new([stacked(0, EX_A)], dealer=0)
    act(s, NOMUS, env(2))
    ev = s.request_close(now=True)
    assert [e["type"] for e in ev] == ["close_requested", "deal_voided", "match_abandoned", "session_end"]
    assert s.is_over() and s.stacks == [100] * 4 and s.pot == 0 and s.to_act() == ()
    assert ev[-1]["results"] == [0, 0, 0, 0]
    v = s.view(1)
    assert v["closing"] is True and v["phase"] == "session_end" and v["hand"] == []
    assert s.request_close() == [] and all(s.legal_actions(x) == [] for x in range(4))


def test_request_close_after_the_deal_and_before_anyone_acts():
    s = new([stacked(0, EX_A)], dealer=0)
    act(s, NOMUS)
    assert [e["type"] for e in s.request_close()] == ["close_requested"]
    assert s.view(0)["closing"] is True and not s.is_over() and s.request_close() == []
    ev = pass_lance(s) + pass_lance(s) + pass_lance(s) + pass_lance(s)
    assert [e["type"] for e in ev[-3:]] == ["deal_end", "match_abandoned", "session_end"]
    assert of(ev, "deal_end")[0]["deltas"] == [10, 10, 10, 10]
    assert s.is_over() and s.stacks == [100] * 4 and s.pot == 0
    fresh = new(None, dealer=0)
    ev = fresh.request_close()
    assert fresh.is_over() and "deal_voided" in [e["type"] for e in ev] and fresh.stacks == [100] * 4


def test_request_close_in_a_second_match_keeps_the_first_result():
    s = new(None, dealer=0, seed=11, matches=2, stake=10)
    first = of(_ordago_deal(s), "match_end")[0]["results"]
    ev = s.request_close(now=True)
    assert s.stacks == [100 + r for r in first] and s.pot == 0 and ev[-1]["results"] == first


# ---------------------------------------------------------------- timeouts, malformed, options

def test_timeouts_follow_the_spec():
    s = new([stacked(0, {1: "12O 2C 1E 7O", 2: "11O 11C 10E 7B", 3: "3B 12E 12B 5C", 0: "4O 5E 6C 7C"})],
            dealer=0)
    assert s.timeout_action(1) == NOMUS
    act(s, MUS, MUS, MUS, MUS)
    # S1 holds 1E (index 20) and 2C (index 11), both aces: the lower canonical index goes.
    assert s.timeout_action(1) == A("discard", cards=["2C"])
    assert s.timeout_action(1) in s.legal_actions(1)
    for _ in range(4):
        act(s, s.timeout_action(s.to_act()[0]))
    act(s, NOMUS)
    assert s.timeout_action(s.to_act()[0]) == PASO
    act(s, env(2))
    assert s.timeout_action(s.to_act()[0]) == NOQ
    with pytest.raises(IllegalMove):
        s.timeout_action((s.to_act()[0] + 1) % 4)


def test_malformed_actions_are_refused_with_the_state_unchanged():
    s = new([stacked(0, EX_A)], dealer=0)
    for bad in (None, {}, "mus", 3, [], {"type": 5}, {"type": "mus", "x": 1}, {"type": "paso"},
                {"type": "envido", "amount": 2}):
        harness.assert_refused(s, 4, 1, bad)
    harness.assert_refused(s, 4, 2, MUS)  # wrong seat
    harness.assert_refused(s, 4, None, MUS)
    harness.assert_refused(s, 4, True, MUS)
    act(s, NOMUS)
    for bad in ({"type": "envido", "amount": 1}, {"type": "envido", "amount": 41}, {"type": "envido"},
                {"type": "envido", "amount": 2.0}, {"type": "envido", "amount": True},
                {"type": "envido", "amount": "2"},
                {"type": "quiero"}, {"type": "no_quiero"}, {"type": "paso", "amount": 2}, {"type": "mus"}):
        harness.assert_refused(s, 4, 1, bad)
    act(s, env(38))
    for bad in ({"type": "paso"}, {"type": "envido", "amount": 3}, {"type": "ordago", "x": 0}):
        harness.assert_refused(s, 4, 2, bad)
    act(s, ORDAGO)
    assert s.to_act() == (3,)
    harness.assert_refused(s, 4, 3, env(2))
    harness.assert_refused(s, 4, 3, ORDAGO)
    harness.assert_refused(s, 4, 1, QUIERO)


@pytest.mark.parametrize(
    "raw, words",
    [({"best_of": 2}, "one of"), ({"target": 35}, "one of"), ({"matches": 0}, "at least 1"),
     ({"matches": 6}, "at most 5"), ({"stake": 0}, "at least 1"), ({"stake": 1001}, "at most 1000"),
     ({"matches": 3, "stake": 50, "buy_in": 149}, "at least 150"), ({"mus_corrido": "maybe"}, "on or off"),
     ({"decks": [["1O"]]}, "permutation"), ({"players": 4}, "Unknown option")],
)
def test_bad_options(raw, words):
    with pytest.raises(ValueError, match=words):
        GAME.validate_options(raw)


def test_options_defaults_and_seats():
    o = GAME.validate_options({})
    assert o == {"best_of": 1, "target": 40, "matches": 1, "stake": 10, "buy_in": 100, "mus_corrido": True,
                 "senas": False, "dealer": None, "decks": None, "hints": False, "faces": "classic",
                 "pace": "normal", "rated": True}
    assert GAME.validate_options({"matches": 5, "stake": 30})["buy_in"] == 150
    assert [x.name for x in GAME.options if x.hidden] == ["dealer", "decks", "rated"]
    for seats in (3, 5):
        with pytest.raises(ValueError):
            GAME.new_table(seats=seats, options=o, seed=1)
    with pytest.raises(ValueError):
        GAME.new_table(seats=4, options={**o, "dealer": 4}, seed=1)


def test_target_30():
    s = new([stacked(0, EX_A)], dealer=0, target=30)
    act(s, NOMUS)
    assert s.legal_actions(1)[-2] == env(30)


# ---------------------------------------------------------------- hidden information, text

def test_hidden_information_and_public_events():
    s = new([stacked(0, EX_A)], dealer=0)
    v = s.view(None)
    assert v["hand"] == [] and harness.cards_in(v) == set()
    assert set(s.view(2)["hand"]) == set(EX_A[2].split())
    assert not set(s.view(2)["hand"]) & harness.cards_in(s.view(1))
    ev = act(s, MUS, MUS, MUS, MUS)
    for seat in (1, 2, 3, 0):
        ev += act(s, (seat, A("discard", cards=s.view(seat)["hand"][:2])))
    assert harness.cards_in(ev) == set() and harness.cards_in(s.view(None)) == set()
    assert s.view(None)["discard_counts"] == [[2, 2, 2, 2]] and s.view(None)["stock_count"] == 16
    keys = {"phase", "to_act", "stacks", "pot", "dealer", "deal", "closing", "hand", "mano", "points",
            "games", "matches_won", "mus_round", "discard_counts", "stock_count", "declared", "lances", "bet",
            "last_hand"}
    assert set(s.view(0)) == keys
    json.dumps(s.view(0))


def test_narration_and_labels():
    name = lambda i: f"seat {i}"  # noqa: E731
    s = new([stacked(0, EX_A)], dealer=0)
    ev = act(s, NOMUS, (1, env(2)), (2, QUIERO)) + pass_lance(s) + pass_lance(s) + pass_lance(s)
    lines = [GAME.narrate(e, name) for e in ev]
    assert "grande: quiero by seat 2 (2)" in lines
    assert all(isinstance(x, str) and x for x in lines)
    assert any("Pares: who has pares?" in x for x in lines)
    assert [GAME.label(a) for a in (MUS, NOMUS, PASO, env(5), ORDAGO, QUIERO, NOQ)] == [
        "Mus", "No mus", "Paso", "Envido 5", "Órdago", "Quiero", "No quiero"]
    assert GAME.label(A("discard", cards=["3O", "1B"])) == "Discard 3O 1B"
    assert GAME.summary.count(".") >= 3 and GAME.title == "Mus" and GAME.deck == DECK_ES_40


# ---------------------------------------------------------------- contract: random sessions and clone

@pytest.mark.parametrize("seed", range(24))
def test_random_sessions(seed):
    opts = [{}, {"best_of": 3}, {"matches": 2, "stake": 5, "target": 30}, {"mus_corrido": False}][seed % 4]
    harness.random_session("mus", 4, seed, opts, probe_every=3, leak_every=2)


def test_random_sessions_with_request_close():
    for seed in range(6):
        s = GAME.new_table(seats=4, options=GAME.validate_options({"best_of": 3}), seed=seed)
        rng = random.Random(seed)
        for _ in range(10 + seed * 7):
            if s.is_over():
                break
            x = s.to_act()[0]
            s.apply(x, rng.choice(s.legal_actions(x)))
        s.request_close(now=bool(seed % 2))
        while not s.is_over():
            x = s.to_act()[0]
            s.apply(x, rng.choice(s.legal_actions(x)))
        assert s.pot == 0 and sum(s.stacks) == 400
        assert s.stacks[0] == s.stacks[2] and s.stacks[1] == s.stacks[3]


@pytest.mark.parametrize("seed", range(4))
def test_clone_independent(seed):
    harness.check_clone_independent("mus", 4, seed, steps=60)


def test_clone_copies_the_reshuffle_rng():
    s = new([stacked(0, EX_A)], dealer=0, seed=9)
    for _ in range(2):
        act(s, MUS, MUS, MUS, MUS)
        for _ in range(4):
            act(s, A("discard", cards=s.view(s.to_act()[0])["hand"]))
    twin = s.clone()
    for st in (s, twin):
        for _ in range(2):
            act(st, MUS, MUS, MUS, MUS)
            for _ in range(4):
                act(st, A("discard", cards=st.view(st.to_act()[0])["hand"]))
    assert harness.snapshot(s, 4) == harness.snapshot(twin, 4)


def _patient_choice(rng: random.Random, legal: list[dict]) -> dict:
    """A policy that plays long sessions: mostly mus, paso and small bets, rarely órdago."""
    kinds = {a["type"] for a in legal}
    if "mus" in kinds:
        return legal[0] if rng.random() < 0.85 else legal[1]
    if "discard" in kinds:
        return rng.choice(legal)
    r = rng.random()
    if r < 0.01 and ORDAGO in legal:
        return ORDAGO
    small = [a for a in legal if a["type"] == "envido" and a["amount"] <= 5]
    if r < 0.3 and small:
        return rng.choice(small)
    if "paso" in kinds:
        return PASO
    return QUIERO if r < 0.6 else NOQ


def _long_session(seed: int) -> tuple[int, int, int]:
    """Play one long session checking the contract; return (deals, reshuffles, count stops)."""
    opts = [{"best_of": 3}, {"best_of": 5, "matches": 2}, {"target": 30, "matches": 3}][seed % 3]
    opts = GAME.validate_options(opts)
    s = GAME.new_table(seats=4, options=opts, seed=seed)
    rng = random.Random(seed)
    log: list[tuple[int, dict]] = []
    deals = reshuffles = stops = 0
    while not s.is_over():
        seat = s.to_act()[0]
        legal = s.legal_actions(seat)
        action = _patient_choice(rng, legal)
        assert action in legal
        if len(log) % 97 == 0:
            twin = s.clone()
            assert harness.snapshot(twin, 4) == harness.snapshot(s, 4)
        ev = s.apply(seat, action)
        log.append((seat, action))
        assert sum(s.stacks) + s.pot == 400
        if len(log) % 5 == 0:
            harness.assert_no_leaks(s, 4)
        for e in ev:
            line = GAME.narrate(e, lambda i: f"seat {i}")
            assert isinstance(line, str) and line, e
            if e["type"] == "deal_end":
                deals += 1
                assert sum(e["deltas"]) + e["pot_change"] == 0
                n_lances = len(e["summary"])
                stops += e["game_winner"] is not None and not e["ordago"] and len(e["counted"]) < n_lances
            reshuffles += e["type"] == "draw" and e["reshuffled"] > 0
        assert len(log) < 20_000
    assert s.pot == 0 and s.stacks[0] == s.stacks[2] and s.stacks[1] == s.stacks[3]
    replay = GAME.new_table(seats=4, options=opts, seed=seed)
    for seat, action in log:
        replay.apply(seat, action)
    assert harness.snapshot(replay, 4) == harness.snapshot(s, 4)
    return deals, reshuffles, stops


def test_long_random_sessions():
    """Many deals per session: exchanges with reshuffles, counts stopped midway, several matches."""
    totals = [0, 0, 0]
    for seed in range(12):
        totals = [a + b for a, b in zip(totals, _long_session(seed), strict=True)]
    deals, reshuffles, stops = totals
    assert deals > 100 and reshuffles > 0 and stops > 0


def test_card_tables_eight_kings_eight_aces():
    from bot.rules.mus import tables as hands

    by_rank: dict[str, set[tuple[int, int]]] = {}
    for i, code in enumerate(DECK_ES_40):
        by_rank.setdefault(code[:-1], set()).add((hands.STRENGTH[i], hands.VALUE[i]))
        assert hands.VALUE[i] == hands._STRENGTH_VALUE[hands.STRENGTH[i]]
    assert by_rank["3"] == by_rank["12"] == {(8, 10)} and by_rank["2"] == by_rank["1"] == {(1, 1)}
    assert by_rank["11"] == {(7, 10)} and by_rank["10"] == {(6, 10)} and by_rank["7"] == {(5, 7)}
    assert by_rank["4"] == {(2, 4)}
