"""Tests of the Jeu du Maître engine against docs/rules/maitre.md (examples A–C, seed cases)."""

from __future__ import annotations

import json

import pytest

from bot.rules import GAMES, IllegalMove
from bot.rules.maitre.scoring import ranking, rh, score_manche, split_pot
from bot.rules.maitre.tables import CODES
from tests.rules import harness

GAME = GAMES["maitre"]


# --------------------------------------------------------------------------- helpers


def hand_sizes(n: int, m: int) -> list[int]:
    sizes = [0] * n
    for p in range(18):
        sizes[(m + 1 + p) % n] += 3
    return sizes


def stacked(n: int, m: int, hands: dict[int, list[str]]) -> list[str]:
    """A deck dealing ``hands`` (completed with the unused cards in canonical order)."""
    sizes = hand_sizes(n, m)
    used = [c for h in hands.values() for c in h]
    assert len(set(used)) == len(used), "a card is given twice"
    rest = [c for c in CODES if c not in used]
    full = {}
    for s in range(n):
        h = list(hands.get(s, []))
        assert len(h) <= sizes[s]
        while len(h) < sizes[s]:
            h.append(rest.pop(0))
        full[s] = h
    deck: list[str] = []
    pos = [0] * n
    for p in range(18):
        s = (m + 1 + p) % n
        deck += full[s][pos[s]:pos[s] + 3]
        pos[s] += 3
    return deck


def table(n: int = 3, m: int = 0, hands: dict | None = None, decks: list | None = None, **opts):
    if decks is None:
        decks = [stacked(n, m, hands or {})]
    options = GAME.validate_options({"dealer": m, "decks": decks, **opts})
    return GAME.new_table(seats=n, options=options, seed=7)


def start(state, mineure: str, majeure: str, contract: int = 50):
    m = state.to_act()[0]
    state.apply(m, {"type": "coffre", "mineure": mineure, "majeure": majeure})
    return state.apply(m, {"type": "contract", "value": contract})


def plays_of(state, seat: int, card: str) -> list[dict]:
    return [a for a in state.legal_actions(seat) if a["type"] == "play" and a["card"] == card]


def play(state, seat: int, card: str, **extra):
    return state.apply(seat, {"type": "play", "card": card, **extra})


def discard(state, seat: int, card: str):
    return state.apply(seat, {"type": "discard", "card": card})


def timeout_step(state):
    seat = state.to_act()[0]
    return state.apply(seat, state.timeout_action(seat))


def events_of(evs: list[dict], kind: str) -> list[dict]:
    return [e for e in evs if e["type"] == kind]


# Example A's table: S0 Maître; S1 leads; S2 imposes.
A_HANDS = {
    1: ["3C", "JC", "KD", "7D", "10C", "QC", "7S", "2H", "AS"],
    2: ["2C", "5H", "QS", "2S", "KC", "QD", "JH", "4H", "6S", "7H"],
    0: ["5C", "5S", "9D", "4D", "AH", "2D", "8H", "3D", "QH",
        "AC", "4C", "6C", "7C", "8C", "9C", "3S", "4S", "3H"],
}


def example_a():
    state = table(hands=A_HANDS)
    start(state, "2D", "8H")
    assert state.to_act() == (1,)
    return state


# --------------------------------------------------------------------------- deal


@pytest.mark.parametrize("n,sizes", [(3, [18, 18, 18]), (4, [15, 15, 12, 12]), (5, [12, 12, 12, 9, 9]),
                                     (6, [9] * 6)])
def test_deal_three_by_three_and_hand_sizes(n, sizes):
    m = 1
    deck = list(CODES)
    state = table(n=n, m=m, decks=[deck])
    v = state.view(None)
    from_left = [v["hand_counts"][(m + 1 + i) % n] for i in range(n)]
    assert from_left == sizes
    # packet p = deck[3p:3p+3] goes to seat (m + 1 + p) mod n
    first = state.view((m + 1) % n)["hand"]
    assert deck[0:3] == first[:3]
    assert state.view((m + 18) % n)["hand"][-3:] == deck[51:54]
    assert v["phase"] == "coffre" and v["to_act"] == [m] and v["maitre"] == m == v["dealer"]


def test_redeal_when_maitre_has_numbers_of_one_suit():
    bad = stacked(6, 0, {0: ["AS", "2S", "3S", "JH", "QH", "KH", "X1", "X2", "KS"]})
    good = stacked(6, 0, {0: ["AS", "2H", "3S", "JH", "QH", "KH", "X1", "X2", "KS"]})
    state = GAME.new_table(6, GAME.validate_options({"dealer": 0, "decks": [bad, good]}), seed=3)
    v = state.view(0)
    assert v["deal"] == 1 and v["manche"] == 0 and v["maitre"] == 0
    assert v["hand"] == ["AS", "3S", "KS", "2H", "JH", "QH", "KH", "X1", "X2"]
    # the redeal event is emitted by the deal that follows a manche too: check it directly
    evs: list = []
    twin = state.clone()
    twin.decks = (bad, good)
    twin.k = 0
    twin._start_manche(evs)
    assert [e["type"] for e in evs] == ["redeal", "deal"]
    assert evs[0] == {"type": "redeal", "maitre": 0, "manche": 0, "deal": 0}


def test_coffre_legal_pairs_and_refusals():
    state = table(hands={0: ["AS", "KS", "2H", "QH", "X1", "3D"]})
    legal = state.legal_actions(0)
    nums = [c for c in state.view(0)["hand"] if c[:-1] not in ("J", "Q", "K") and c[0] != "X"]
    expect = [(a, b) for a in nums for b in nums if a[-1] != b[-1]]
    assert [(a["mineure"], a["majeure"]) for a in legal] == expect
    for bad in ({"type": "coffre", "mineure": "AS", "majeure": "KS"},
                {"type": "coffre", "mineure": "AS", "majeure": "QH"},
                {"type": "coffre", "mineure": "X1", "majeure": "2H"},
                {"type": "coffre", "mineure": "AS", "majeure": "AS"}):
        harness.assert_refused(state, 3, 0, bad)
    state.apply(0, {"type": "coffre", "mineure": "3D", "majeure": "2H"})
    assert "3D" not in state.view(0)["hand"] and "2H" not in state.view(0)["hand"]
    assert state.view(0)["coffre"] == {"mineure": "3D", "majeure": "2H"}
    assert state.view(1)["coffre"] is None and state.view(None)["coffre"] is None
    assert [a["value"] for a in state.legal_actions(0)] == list(range(50, 101, 5))
    evs = state.apply(0, {"type": "contract", "value": 65})
    assert evs == [{"type": "contract", "seat": 0, "value": 65, "leader": 1}]
    assert state.view(None)["contract"] == 65 and state.to_act() == (1,)


# --------------------------------------------------------------------------- Example A: modes


def test_example_a_seed_modes():
    state = example_a()
    s = state.clone()
    play(s, 1, "3C")
    assert plays_of(s, 2, "2C") == [{"type": "play", "card": "2C", "mode": "couleur"}]
    assert plays_of(s, 2, "5H") == [{"type": "play", "card": "5H", "mode": "valeur"}]
    s = state.clone()
    play(s, 1, "JC")
    assert plays_of(s, 2, "QS") == [{"type": "play", "card": "QS", "mode": "valeur"},
                                    {"type": "play", "card": "QS", "mode": "tete"}]
    # the seed's K♦ then J♣: tête only
    state2 = table(hands={1: ["KD", "3S", "4S"], 2: ["JC", "5S", "6S"], 0: ["AH", "2D"]})
    start(state2, "2D", "AH")
    play(state2, 1, "KD")
    assert plays_of(state2, 2, "JC") == [{"type": "play", "card": "JC", "mode": "tete"}]


def test_second_card_mode_table_all_rows():
    state = example_a()
    cases = [
        ("3C", "2C", ["couleur"]),                     # same suit, not both heads
        ("JC", "KC", ["couleur", "valeur", "tete"]),   # same suit, heads, r2 > r1
        ("KD", "QD", ["couleur", "tete"]),             # same suit, heads, r2 < r1
        ("3C", "5H", ["valeur"]),                      # other suit, higher, not both heads
        ("10C", "JH", ["valeur"]),                     # a head on a number: not both heads
        ("JC", "QS", ["valeur", "tete"]),              # other suit, heads, higher
        ("KD", "QS", ["tete"]),                        # other suit, heads, lower
        ("7D", "7S", [None]),                          # other suit, equal: pair, no mode
        ("3C", "2H", []),                              # other suit, lower: not playable
        ("QC", "JH", ["tete"]),
    ]
    a = dict(A_HANDS)
    a[1] = ["3C", "JC", "KD", "7D", "10C", "QC"]
    a[2] = ["2C", "KC", "QD", "5H", "JH", "QS", "7S", "2H"]
    state = table(hands=a)
    start(state, "2D", "8H")
    for lead, second, modes in cases:
        s = state.clone()
        play(s, 1, lead)
        got = [p.get("mode") for p in plays_of(s, 2, second)]
        assert got == modes, (lead, second, got)
        assert {"type": "discard", "card": second} in s.legal_actions(2)


def test_pair_on_second_card_ends_trick():
    state = table(hands={1: ["7D", "3S"], 2: ["7S", "4S"], 0: ["AH", "2D"]})
    start(state, "2D", "AH")
    play(state, 1, "7D")
    evs = play(state, 2, "7S")
    assert evs[0]["combination"] == "pair" and "mode" not in evs[0]
    won = events_of(evs, "trick_won")[0]
    assert won["seat"] == 2 and won["cards"] == ["7D", "7S"] and won["how"] == "combination"
    v = state.view(None)
    assert v["trick"] == [] and v["to_act"] == [2] and v["leader"] == 2 and v["tricks_won"] == [0, 0, 1]


def test_example_a_valeur_muet_strictly_higher_and_run():
    state = example_a()
    play(state, 1, "3C")
    play(state, 2, "4H", mode="valeur")
    v = state.view(None)
    assert v["mode"] == "valeur" and v["muet"] == "C"
    plays = [a for a in state.legal_actions(0) if a["type"] == "play"]
    # clubs muet, 4♦ 4♠ not higher than 4, lower cards refused; 5♠ (run 3-4-5), Q♥, 9♦ legal
    assert plays == [{"type": "play", "card": c} for c in ["5S", "QH", "9D"]]
    evs = play(state, 0, "5S")
    assert evs[0]["combination"] == "run"
    won = events_of(evs, "trick_won")[0]
    assert won["seat"] == 0 and won["cards"] == ["3C", "4H", "5S"]
    assert state.view(None)["won_cards"][0] == ["3C", "4H", "5S"]


def test_valeur_muet_also_when_imposeur_card_is_first_suit():
    state = table(hands={1: ["JC", "3S"], 2: ["KC", "4S"], 0: ["AH", "2D", "QC", "KH", "KS"]})
    start(state, "2D", "AH")
    play(state, 1, "JC")
    play(state, 2, "KC", mode="valeur")
    assert state.view(None)["muet"] == "C"
    # QC muet (and lower), KH/KS not strictly higher than K
    assert [a for a in state.legal_actions(0) if a["type"] == "play"] == []


def test_run_in_any_order_couleur():
    state = table(hands={1: ["3C", "9S"], 2: ["2C", "9H"], 0: ["AH", "2D", "4C", "5C"]})
    start(state, "2D", "AH")
    play(state, 1, "3C")
    play(state, 2, "2C", mode="couleur")
    assert plays_of(state, 0, "4C") == [{"type": "play", "card": "4C"}]
    evs = play(state, 0, "4C")
    assert evs[0]["combination"] == "run"
    assert events_of(evs, "trick_won")[0]["cards"] == ["3C", "2C", "4C"]


def test_no_wrap_and_run_needs_distinct_ranks():
    from bot.rules.maitre.tables import combination
    assert combination(1, 13, 12) is None        # Q K A: no wrap
    assert combination(12, 13, 11) == "run"      # J K Q
    assert combination(3, 2, 4) == "run"
    assert combination(4, 3, 3) is None           # 3 3 4: not distinct
    assert combination(5, 5, 0) == "pair"


def test_tete_take_true_and_false():
    state = table(hands={1: ["JC", "KS", "3S"], 2: ["QS", "4S", "5S"], 0: ["AH", "2D", "QH", "6C"]})
    start(state, "2D", "AH")
    play(state, 1, "JC")
    play(state, 2, "QS", mode="tete")
    assert state.view(None)["mode"] == "tete"
    assert plays_of(state, 0, "QH") == [{"type": "play", "card": "QH", "take": True},
                                        {"type": "play", "card": "QH", "take": False}]
    assert plays_of(state, 0, "6C") == []  # numbers are refused in tête mode
    took = state.clone()
    evs = play(took, 0, "QH", take=True)
    assert events_of(evs, "trick_won")[0]["seat"] == 0
    evs = play(state, 0, "QH", take=False)
    assert not events_of(evs, "trick_won")
    v = state.view(None)
    assert [t["card"] for t in v["trick"]] == ["JC", "QS", "QH"] and v["to_act"] == [1]
    # the left pair has no effect: K♠ after Q Q forms nothing (ranks not distinct)
    assert plays_of(state, 1, "KS") == [{"type": "play", "card": "KS"}]


def test_tete_pair_on_second_card_offers_take():
    state = table(hands={1: ["QC", "3S"], 2: ["QS", "4S"], 0: ["AH", "2D"]})
    start(state, "2D", "AH")
    play(state, 1, "QC")
    assert plays_of(state, 2, "QS") == [{"type": "play", "card": "QS", "mode": "tete", "take": True},
                                        {"type": "play", "card": "QS", "mode": "tete", "take": False}]


# --------------------------------------------------------------------------- Example A: return


def test_example_a_return_three_options():
    state = example_a()
    play(state, 1, "7D")
    discard(state, 2, "6S")
    discard(state, 0, "3D")
    assert state.to_act() == (1,)
    hand = state.view(1)["hand"]
    legal = state.legal_actions(1)
    assert legal == ([{"type": "take"}, {"type": "play", "card": "7S"}]
                     + [{"type": "discard", "card": c} for c in hand])
    assert {"type": "discard", "card": "2H"} in legal and {"type": "discard", "card": "7S"} in legal

    took = state.clone()
    evs = took.apply(1, {"type": "take"})
    assert events_of(evs, "trick_won")[0]["cards"] == ["7D"] and took.to_act() == (1,)

    dis = state.clone()
    evs = discard(dis, 1, "2H")
    won = events_of(evs, "trick_won")[0]
    assert won["seat"] == 1 and won["how"] == "discard" and won["cards"] == ["7D"]
    assert dis.view(None)["discard_counts"] == [1, 1, 1] and dis.to_act() == (1,)

    evs = play(state, 1, "7S")
    won = events_of(evs, "trick_won")[0]
    assert won["seat"] == 1 and won["cards"] == ["7D", "7S"]
    assert state.view(None)["won_cards"][1] == ["7D", "7S"] and state.to_act() == (1,)


def test_return_in_mode_needs_obeying_combination():
    state = table(hands={1: ["3C", "4C", "AC", "5H", "X1", "X2"], 2: ["2C", "9S"], 0: ["AH", "2D", "8S"]})
    start(state, "2D", "AH")
    play(state, 1, "3C")
    play(state, 2, "2C", mode="couleur")
    discard(state, 0, "8S")
    discard(state, 1, "5H")
    assert state.to_act() == (2,)  # return to L = S2
    plays = [a for a in state.legal_actions(2) if a["type"] == "play"]
    assert plays == []  # 9S is not a club and forms nothing
    assert state.legal_actions(2)[0] == {"type": "take"}


# --------------------------------------------------------------------------- turn passing, chute


def _turn_deal():
    hands = {0: ["3C", "5C", "4D"], 1: ["2C", "9C"], 3: ["4C", "AH", "2D"]}
    state = table(n=4, m=3, hands=hands)
    start(state, "2D", "AH")
    reserved = {"3C", "5C", "4D", "2C", "9C", "4C"}
    for _ in range(9):  # lead, three discards, take: every seat loses one card
        lead = next(a for a in state.legal_actions(0) if a["card"] not in reserved)
        state.apply(0, lead)
        for s in (1, 2, 3):
            state.apply(s, next(a for a in state.legal_actions(s)
                                if a["type"] == "discard" and a["card"] not in reserved))
        state.apply(0, {"type": "take"})
    assert state.view(None)["hand_counts"] == [6, 6, 3, 1]
    return state


def test_turn_passing_skips_empty_hands_and_chute_to_last_winner():
    state = _turn_deal()
    play(state, 0, "3C")
    play(state, 1, "2C", mode="couleur")
    timeout_step(state)                     # S2 discards
    evs = timeout_step(state)               # S3 discards its last card, trick goes on
    assert not events_of(evs, "chute") and state.to_act() == (0,)
    play(state, 0, "5C")
    play(state, 1, "9C")
    timeout_step(state)                     # S2 discards
    assert state.view(None)["hand_counts"][3] == 0
    assert state.to_act() == (0,)           # S3 (empty) skipped
    timeout_step(state)                     # S0 discards: back to L = S1, a return
    assert state.to_act() == (1,) and state.view(None)["last_player"] == 1
    remaining = [state.view(s)["hand"] for s in range(4)]
    evs = state.apply(1, {"type": "take"})
    chute = events_of(evs, "chute")[0]
    assert chute["seat"] == 1 and sorted(chute["cards"]) == sorted(c for h in remaining for c in h)
    lm = state.view(None)["last_manche"]
    assert lm["chute_to"] == 1
    assert state.view(None)["manche"] == 1


def test_auto_take_when_last_player_has_no_card():
    state = _turn_deal()
    play(state, 0, "3C")
    timeout_step(state)
    timeout_step(state)
    play(state, 3, "4C", mode="couleur")    # S3's last card
    timeout_step(state)                     # S0
    timeout_step(state)                     # S1
    evs = timeout_step(state)               # S2 discards: back to S3, empty
    assert {"type": "take", "seat": 3, "auto": True} in evs
    assert events_of(evs, "trick_won")[0]["seat"] == 3
    assert events_of(evs, "chute")[0]["seat"] == 3
    end = events_of(evs, "manche_end")[0]
    assert end["chute_to"] == 3 and end["deltas"] == [0, 0, 0, 0]


def test_seed_chute_last_card_wins_the_trick():
    """Seed: a player plays his last card and wins the trick; the others chute to him."""
    state = _turn_deal()
    play(state, 0, "4D")
    timeout_step(state)
    timeout_step(state)
    remaining = [c for s in range(3) for c in state.view(s)["hand"]]
    evs = play(state, 3, "4C")              # pair with 4♦, S3's last card
    assert events_of(evs, "trick_won")[0]["seat"] == 3
    chute = events_of(evs, "chute")[0]
    assert chute["seat"] == 3 and sorted(chute["cards"]) == sorted(remaining)
    assert events_of(evs, "manche_end")[0]["chute_to"] == 3


def test_seed_chute_discard_last_card_on_return():
    """Seed: the last player discards his last card on the return and still wins the trick."""
    state = table()
    start(state, "AS", "2H")
    for _ in range(8):                      # S1 leads, S2 and S0 discard, S1 discards on the return
        for _ in range(3):
            timeout_step(state)
        s1 = state.view(1)["hand"][0]
        discard(state, 1, s1)
    assert state.view(None)["hand_counts"] == [8, 2, 10]
    for _ in range(3):
        timeout_step(state)
    last = state.view(1)["hand"]
    assert len(last) == 1 and state.to_act() == (1,)
    evs = discard(state, 1, last[0])
    won = events_of(evs, "trick_won")[0]
    assert won["seat"] == 1 and won["how"] == "discard"
    assert events_of(evs, "chute")[0]["seat"] == 1 and len(events_of(evs, "chute")[0]["cards"]) == 16


# --------------------------------------------------------------------------- jokers


def test_joker_lead_identities_and_view():
    state = table(hands={1: ["X1", "3S"], 2: ["7S", "4S"], 0: ["AH", "2D"]})
    start(state, "2D", "AH")
    jok = plays_of(state, 1, "X1")
    assert len(jok) == 52 and [a["as"] for a in jok] == list(CODES[:52])
    assert state.timeout_action(1) == {"type": "play", "card": "3S"}
    play(state, 1, "X1", **{"as": "7H"})
    assert state.view(0)["trick"] == [{"seat": 1, "card": "X1", "as": "7H"}]
    evs = play(state, 2, "7S")  # pair with the joker's identity
    won = events_of(evs, "trick_won")[0]
    assert won["cards"] == ["X1", "7S"] and won["as"] == ["7H", "7S"] and won["seat"] == 2
    harness.assert_refused(state, 3, 2, {"type": "play", "card": "X2"})


def test_joker_second_card_identity_sets_mode():
    state = table(hands={1: ["3C", "3S"], 2: ["X2", "4S"], 0: ["AH", "2D"]})
    start(state, "2D", "AH")
    play(state, 1, "3C")
    jok = plays_of(state, 2, "X2")
    assert {"type": "play", "card": "X2", "as": "5H", "mode": "valeur"} in jok
    assert {"type": "play", "card": "X2", "as": "3D"} in jok           # pair, no mode
    assert {"type": "play", "card": "X2", "as": "3C", "mode": "couleur"} in jok
    assert not any(a["as"] == "2H" for a in jok)
    evs = play(state, 2, "X2", **{"as": "3C", "mode": "couleur"})  # a pair even in couleur
    assert events_of(evs, "trick_won")[0]["seat"] == 2


def test_joker_worth_nothing_and_outside_contract():
    res = score_manche(3, 0, 50, "2D", "3H", [["X1", "X2", "5H"], [], []], 0, [], [])
    assert res["counted"] == 1 and res["valued"] == 1 and res["trick_points"] == [5, 0, 0]
    res = score_manche(3, 0, 50, "2D", "3H", [["X1"], [], []], None, [], ["X2"])
    assert res["counted"] == 0 and not res["contract_ok"] and res["malus"] == 0
    assert res["defausse_points"] == 0


# --------------------------------------------------------------------------- scoring (B, C, seed)


def test_rh_rounds_half_up():
    assert rh(5, 2) == 3 and rh(4, 2) == 2 and rh(7, 4) == 2 and rh(5, 4) == 1 and rh(0, 7) == 0


def test_example_b_contract_75():
    # the Maître's pile of the example; players' piles worth 10 and −5 (the seed's écart case)
    won = [["KH", "QH", "JH", "10H", "9H", "4H", "5D", "4D", "9S", "6C", "X1"], ["7H", "3H"],
           ["AD", "4C", "4D"]]
    res = score_manche(3, 0, 75, "7D", "8H", won, None, [],
                       ["AS", "3C", "3S", "2D", "JS", "AH"])
    assert (res["counted"], res["valued"], res["contract_ok"]) == (10, 8, True)
    assert res["trick_points"] == [50, 10, -5]
    assert res["bonus"] == 25 and res["malus"] == 0
    assert res["coffre_points"] == 1 and res["defausse_points"] == -3
    assert res["manche_points"] == [73, 10, -5]
    assert res["ecart"] == 68 and res["ecart_ok"] and res["validated"]
    assert res["majeure"] == "H" and res["mineure"] == "D"
    assert res["coffre"] == {"mineure": "7D", "majeure": "8H"}


def test_seed_ecart_example():
    # the seed: Maître 40, players 10 and −5 → écart 35 > 15
    res = score_manche(3, 0, 50, "2D", "2H", [["10H", "9H", "8H", "7H", "6H"], ["5H", "4H", "AH"], ["5D"]],
                       None, [], [])
    assert res["manche_points"] == [40, 10, -5] and res["ecart"] == 35 and res["validated"]
    res = score_manche(3, 0, 50, "2D", "2H", [["10H", "6H"], ["5H", "4H", "AH"], ["5D"]], None, [], [])
    assert res["ecart"] == 11 and res["contract_ok"] and not res["ecart_ok"] and not res["validated"]


def test_example_c_malus():
    won = [["6H", "4H"], [], ["KH", "7H", "3H", "3D", "2S", "5S", "8C", "9C", "QS", "KC"]]
    res = score_manche(3, 2, 50, "AD", "2H", won, None, [], [])
    assert (res["counted"], res["valued"], res["contract_ok"]) == (10, 4, False)
    assert res["trick_points"][2] == 20 and res["malus"] == 4 and res["bonus"] == 0
    assert res["coffre_points"] == 1
    assert res["manche_points"] == [10 + 4, 0 + 4, 20 + 1 - 4]
    # the seed's figures: contract 50, 40% made, 20 points → loses 4, keeps 16, players +4
    assert rh(2 * 20 * (50 * 10 - 100 * 4), 100 * 10) == 4


def test_malus_uses_contract_not_50_and_chute_outside_contract():
    # contract 75 at 60%: x = rh(2·|T|·(750 − 600), 1000) with T = 20 → 6
    won = [["KH", "7H", "AD", "QH", "2D", "AH", "5S", "6S", "7S", "8S"], [], []]
    res = score_manche(3, 0, 75, "3D", "2H", won, 0, ["KD", "2C"], [])
    assert (res["counted"], res["valued"]) == (10, 6)
    assert res["trick_points"][0] == 13 + 7 - 1 + 12 - 2 + 1
    assert res["malus"] == rh(2 * 30 * 150, 1000) == 9
    assert res["chute_points"] == [-13, 0, 0]


def test_example_c_settlement_and_ranking():
    points, elim = [31, 40, 95], [False, False, True]
    assert ranking(points, elim, 0) == [1, 0, 2]
    pay, winners = split_pot(points, elim, 30, 10, 0)
    assert winners == [1] and pay == [0, 30, 0]
    assert [90 + p for p in pay] == [90, 120, 90]


def test_pot_split_among_tied_winners_leftover_from_first_maitre():
    pay, winners = split_pot([20, 20, 5, 20], [False, False, False, False], 40, 10, 1)
    assert winners == [1, 3, 0] and pay == [13, 14, 0, 13]
    pay, winners = split_pot([20, 30, 5], [True, True, True], 30, 10, 0)
    assert winners == [] and pay == [10, 10, 10]
    assert ranking([5, 9, 9, 50], [False, False, False, True], 2) == [2, 1, 0, 3]


def test_example_c_end_to_end():
    """Last manche, Maître S2 with one strike fails again: eliminated; S1 takes the pot."""
    state = GAME.new_table(3, GAME.validate_options({"dealer": 0}), seed=11)
    while state.view(None)["manche"] < 5:
        timeout_step(state)
    assert state.view(None)["maitre"] == 2
    trial = state.clone()
    while not trial.is_over():
        timeout_step(trial)
    p5 = trial.view(None)["last_manche"]["manche_points"]
    state.points = [31 - p5[0], 40 - p5[1], 95 - p5[2]]
    state.strikes = [0, 0, 1]
    state.eliminated = [False, False, False]
    evs = []
    while not state.is_over():
        evs += timeout_step(state)
    v = state.view(None)
    assert v["points"] == [31, 40, 95] and v["eliminated"] == [False, False, True]
    assert {"type": "eliminated", "seat": 2, "points": 95} in evs
    assert v["ranking"] == [1, 0, 2] and v["stacks"] == [90, 120, 90] and v["pot"] == 0
    end = events_of(evs, "session_end")[0]
    assert end["winners"] == [1] and end["results"] == [-10, 20, -10]


# --------------------------------------------------------------------------- strikes and session


SUCCESS_HANDS = {
    0: ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH",
        "AD", "AC", "2C", "X1", "X2"],
    1: ["AS"],
}


def test_validated_maitrise_then_eliminations_and_pot():
    """S0 validates manche 0; every other maîtrise fails: S1, S2 eliminated, S0 takes the pot."""
    deck = stacked(3, 0, SUCCESS_HANDS)
    state = GAME.new_table(3, GAME.validate_options({"dealer": 0, "decks": [deck]}), seed=5)
    start(state, "AD", "10H")
    play(state, 1, "AS")
    timeout_step(state)                     # S2 discards
    evs = play(state, 0, "AC")              # pair: S0 wins and leads
    assert events_of(evs, "trick_won")[0]["seat"] == 0
    while state.view(None)["manche"] == 0:
        evs = timeout_step(state)
    end = events_of(evs, "manche_end")[0]
    assert {"type": "take", "seat": 0, "auto": True} in evs
    assert end["counted"] == 15 and end["valued"] == 12 and end["contract_ok"]
    assert end["trick_points"] == [81, 0, 0] and end["coffre_points"] == 9
    assert end["chute_to"] == 0 and end["chute_points"] == [-11, 0, 0]  # S1 keeps 5♦ 6♦
    assert end["manche_points"] == [79, 0, 0] and end["ecart"] == 79 and end["validated"]
    assert state.view(None)["strikes"] == [0, 0, 0]
    evs = []
    while not state.is_over():
        evs += timeout_step(state)
    v = state.view(None)
    assert v["strikes"] == [1, 2, 2] and v["eliminated"] == [False, True, True]
    assert [e["seat"] for e in events_of(evs, "eliminated")] == [1, 2]
    assert v["stacks"] == [120, 90, 90] and v["pot"] == 0 and v["phase"] == "session_end"
    assert v["ranking"][0] == 0
    assert events_of(evs, "session_end")[0]["winners"] == [0]


def test_all_eliminated_refunds_stakes():
    state = GAME.new_table(3, GAME.validate_options({"dealer": 1, "stake": 20}), seed=2)
    evs = []
    while not state.is_over():
        evs += timeout_step(state)
    v = state.view(None)
    assert v["eliminated"] == [True, True, True] and v["strikes"] == [2, 2, 2]
    assert v["stacks"] == [100, 100, 100] and v["pot"] == 0
    end = events_of(evs, "session_end")[0]
    assert end["reason"] == "all_eliminated" and end["results"] == [0, 0, 0]
    assert len(events_of(evs, "manche_end")) == 6
    assert all(not e["contract_ok"] and e["counted"] == 0 for e in events_of(evs, "manche_end"))


def test_tours_one_never_eliminates():
    state = GAME.new_table(4, GAME.validate_options({"tours": 1, "dealer": 0}), seed=9)
    while not state.is_over():
        timeout_step(state)
    v = state.view(None)
    assert v["strikes"] == [1, 1, 1, 1] and v["eliminated"] == [False] * 4
    assert sum(v["stacks"]) == 400 and v["manche"] == 4


# --------------------------------------------------------------------------- close, timeouts


def test_request_close_before_any_action():
    state = GAME.new_table(3, GAME.validate_options({}), seed=1)
    evs = state.request_close()
    assert events_of(evs, "session_end")[0]["reason"] == "closed"
    assert state.is_over() and state.stacks == [100, 100, 100] and state.pot == 0
    assert state.view(0)["closing"] is True and state.view(0)["phase"] == "session_end"
    assert state.to_act() == () and state.request_close() == [] and state.request_close(now=True) == []


def test_request_close_after_manche():
    state = GAME.new_table(3, GAME.validate_options({"dealer": 0}), seed=1)
    timeout_step(state)
    assert state.request_close() == [{"type": "close", "now": False}]
    assert state.view(1)["closing"] is True and not state.is_over()
    evs = []
    while not state.is_over():
        evs += timeout_step(state)
    assert len(events_of(evs, "manche_end")) == 1
    assert events_of(evs, "session_end")[0]["reason"] == "closed"
    v = state.view(None)
    assert v["stacks"] == [100, 100, 100] and v["pot"] == 0
    assert v["points"] == events_of(evs, "manche_end")[0]["manche_points"]


def test_request_close_now_voids_the_manche():
    state = GAME.new_table(3, GAME.validate_options({"dealer": 0}), seed=1)
    while state.view(None)["manche"] == 0:
        timeout_step(state)
    points = state.view(None)["points"]
    for _ in range(6):
        timeout_step(state)
    evs = state.request_close(now=True)
    assert [e["type"] for e in evs] == ["close", "manche_void", "session_end"]
    v = state.view(None)
    assert v["points"] == points and v["stacks"] == [100, 100, 100] and v["hand_counts"] == [0, 0, 0]
    assert v["phase"] == "session_end" and v["ranking"] is not None


def test_timeouts_per_phase():
    state = example_a()
    assert state.timeout_action(1) == {"type": "play", "card": "AS"}
    s = table(hands=A_HANDS)
    assert s.timeout_action(0) == s.legal_actions(0)[0]
    s.apply(0, s.timeout_action(0))
    assert s.timeout_action(0) == {"type": "contract", "value": 50}
    play(state, 1, "7D")
    first2 = state.view(2)["hand"][0]
    assert state.timeout_action(2) == {"type": "discard", "card": first2}
    timeout_step(state)
    timeout_step(state)
    assert state.timeout_action(1) == {"type": "take"}
    with pytest.raises(IllegalMove):
        state.timeout_action(2)


def test_timeout_lead_of_a_joker_only_hand():
    state = table()
    start(state, *next((a["mineure"], a["majeure"]) for a in state.legal_actions(0)))
    state.hands[1] = [52, 53]  # white-box: leader holding only jokers
    state._legal = None
    assert state.timeout_action(1) == {"type": "play", "card": "X1", "as": "AS"}


# --------------------------------------------------------------------------- refusals, options


def test_malformed_actions_refused_state_unchanged():
    state = example_a()
    bad = [None, {}, "play", 3, [], {"type": 5}, {"type": "play"}, {"type": "play", "card": 3},
           {"type": "play", "card": "3C", "extra": 1}, {"type": "play", "card": "3C", "as": "3C"},
           {"type": "play", "card": "ZZ"}, {"type": "discard", "card": "3C"}, {"type": "take"},
           {"type": "play", "card": "X1", "as": "AS"}, {"type": "contract", "value": 50}]
    for action in bad:
        harness.assert_refused(state, 3, 1, action)
    harness.assert_refused(state, 3, 2, {"type": "play", "card": "2C"})   # wrong seat
    harness.assert_refused(state, 3, True, {"type": "play", "card": "3C"})
    harness.assert_refused(state, 3, "1", {"type": "play", "card": "3C"})
    harness.assert_refused(state, 3, 9, {"type": "play", "card": "3C"})
    play(state, 1, "JC")
    harness.assert_refused(state, 3, 2, {"type": "play", "card": "QS"})  # mode missing
    harness.assert_refused(state, 3, 2, {"type": "play", "card": "QS", "mode": "couleur"})
    play(state, 2, "QS", mode="tete")
    harness.assert_refused(state, 3, 0, {"type": "play", "card": "QH", "take": 1})
    harness.assert_refused(state, 3, 0, {"type": "play", "card": "QH"})
    wire = json.loads(json.dumps({"type": "play", "card": "QH", "take": False}))
    state.apply(0, wire)


@pytest.mark.parametrize("raw", [
    {"players": 2}, {"players": 7}, {"tours": 0}, {"tours": 5}, {"stake": 0}, {"stake": 1001},
    {"stake": 50, "buy_in": 40}, {"decks": [["AS"] * 54]}, {"decks": "x"}, {"bogus": 1},
    {"tours": "two"},
])
def test_option_validation_errors(raw):
    with pytest.raises(ValueError):
        GAME.validate_options(raw)


def test_option_defaults_and_dealer_range():
    opts = GAME.validate_options({})
    assert (opts["players"], opts["tours"], opts["stake"], opts["buy_in"]) == (3, 2, 10, 100)
    assert GAME.validate_options({"stake": 300})["buy_in"] == 300
    with pytest.raises(ValueError):
        GAME.new_table(3, GAME.validate_options({"dealer": 3}), seed=1)
    with pytest.raises(ValueError):
        GAME.new_table(7, opts, seed=1)
    hidden = {o.name for o in GAME.options if o.hidden}
    assert hidden == {"dealer", "decks", "rated"} and GAME.default_seats == 3


def test_hidden_information_in_views_and_events():
    state = example_a()
    evs = play(state, 1, "7D") + discard(state, 2, "6S")
    assert events_of(evs, "discard") == [{"type": "discard", "seat": 2}]
    assert state.view(None)["hand"] == [] and state.view(None)["discard_counts"] == [0, 0, 1]
    assert "6S" not in json.dumps(state.view(0)) and "6S" not in json.dumps(state.view(None))
    harness.assert_no_leaks(state, 3)


def test_label_and_narrate():
    assert GAME.label({"type": "play", "card": "X1", "as": "7S", "mode": "tete", "take": False}) == \
        "Play Joker as 7♠ — tête, leave"
    assert GAME.label({"type": "take"}) == "Take the trick"
    assert GAME.label({"type": "coffre", "mineure": "7D", "majeure": "8H"}) == \
        "Coffre: mineure 7♦, majeure 8♥"
    state = GAME.new_table(3, GAME.validate_options({"dealer": 0}), seed=4)
    evs = []
    while not state.is_over():
        evs += timeout_step(state)
    for e in evs:
        line = GAME.narrate(e, lambda s: f"P{s}")
        assert line is None or isinstance(line, str)
    assert GAME.narrate(evs[-1], lambda s: f"P{s}")


# --------------------------------------------------------------------------- random sessions


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_random_sessions(seats):
    for seed in range(12):  # with the session of 2 tours below: a few dozen manches per seat count
        harness.random_session("maitre", seats, seed, {"tours": 1}, probe_every=10 * seats + 7,
                               leak_every=5 * seats + 4, check_replay=seed % 3 == 0)
    harness.random_session("maitre", seats, 99, {}, probe_every=40, leak_every=29)


@pytest.mark.parametrize("seats", [3, 6])
def test_clone_independent(seats):
    for seed in range(3):
        harness.check_clone_independent("maitre", seats, seed, steps=60)
