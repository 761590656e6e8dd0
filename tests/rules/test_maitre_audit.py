"""Audit of the Jeu du Maître engine against docs/rules/maitre.md and its seed.

Every number here is computed by hand from the spec (and the seed's own examples), not read
back from the engine. Stacked decks fix every deal; the scripts play whole manches.
"""

from __future__ import annotations

import json
import random

import pytest

from bot.rules import GAMES, IllegalMove
from bot.rules.maitre.scoring import ranking, rh, score_manche, split_pot
from tests.rules import harness
from tests.rules.test_maitre import discard, events_of, play, plays_of, stacked, start, table, timeout_step

GAME = GAMES["maitre"]
TAKE = {"type": "take"}

LAST_MANCHE_KEYS = {
    "maitre", "contract", "coffre", "majeure", "mineure", "trick_points", "chute_points", "chute_to",
    "counted", "valued", "contract_ok", "bonus", "malus", "coffre_points", "defausse",
    "defausse_points", "manche_points", "ecart", "ecart_ok", "validated",
}


def P(card: str, **extra) -> dict:
    return {"type": "play", "card": card, **extra}


def D(card: str) -> dict:
    return {"type": "discard", "card": card}


def run(state, script: list[tuple[int, dict]]) -> list[dict]:
    """Apply (seat, action) pairs, checking each seat is the one to act."""
    evs: list[dict] = []
    for seat, action in script:
        assert state.to_act() == (seat,), (seat, action, state.to_act())
        evs += state.apply(seat, action)
    return evs


def single(leader: int, card: str, followers: list[tuple[int, str]], take: bool = True):
    """leader leads ``card``, every follower discards, leader takes on the return."""
    out = [(leader, P(card))] + [(s, D(c)) for s, c in followers]
    if take:
        out.append((leader, TAKE))
    return out


def strip_as(obj):
    """A JSON-like copy without joker identities ("as"), which may name any card."""
    if isinstance(obj, dict):
        return {k: strip_as(v) for k, v in obj.items() if k != "as"}
    if isinstance(obj, list):
        return [strip_as(v) for v in obj]
    return obj


# --------------------------------------------------------------------------- seed: Example B end to end


B_HANDS = {
    0: ["7D", "8H", "AS", "3C", "3S", "2D", "JS", "AH", "X1",
        "KH", "QH", "JH", "10H", "9H", "4H", "5D", "4D", "6C"],
    1: ["7H", "6H", "3D", "10S", "10C", "8D",
        "2H", "5H", "AD", "6D", "9D", "10D", "JD", "QD", "KD", "2S", "4S", "5S"],
    2: ["8S", "3H", "9S",
        "6S", "7S", "QS", "KS", "AC", "2C", "4C", "5C", "7C", "8C", "9C", "JC", "QC", "KC", "X2"],
}


def test_seed_contract_75_example_end_to_end():
    """Seed: contract 75, 10 counted cards with 8 valued (80%), 50 points → 75; défausse −3;
    écart against players at 10 and −5. Played through the engine with a stacked deck."""
    state = table(hands=B_HANDS)
    evs = start(state, "7D", "8H", 75)
    assert evs[-1]["leader"] == 1
    script = []
    script += single(1, "7H", [(2, "6S"), (0, "AS")])
    script += single(1, "6H", [(2, "7S"), (0, "3C")])
    script += single(1, "3D", [(2, "QS"), (0, "3S")])
    script += single(1, "10S", [(2, "KS"), (0, "2D")])
    script += single(1, "10C", [(2, "AC"), (0, "JS")])
    script += [(1, P("8D")), (2, P("8S"))]                          # pair on the second card
    script += single(2, "3H", [(0, "AH"), (1, "2H")])
    script += [(2, P("9S")), (0, P("X1", **{"as": "9D"}))]           # joker pair
    s1 = ["5H", "AD", "6D", "9D", "10D", "JD", "QD", "KD", "2S"]
    s2 = ["2C", "4C", "5C", "7C", "8C", "9C", "JC", "QC", "X2"]
    leads = ["KH", "QH", "JH", "10H", "9H", "4H", "5D", "4D", "6C"]
    for i, card in enumerate(leads):
        script += single(0, card, [(1, s1[i]), (2, s2[i])], take=i < len(leads) - 1)
    evs = run(state, script)
    assert {"type": "take", "seat": 0, "auto": True} in evs         # S0 led his last card
    wins = events_of(evs, "trick_won")
    assert [w["seat"] for w in wins] == [1] * 5 + [2, 2, 0] + [0] * 9
    assert wins[5]["cards"] == ["8D", "8S"] and wins[7]["cards"] == ["9S", "X1"]
    assert wins[7]["as"] == ["9S", "9D"]
    chute = events_of(evs, "chute")[0]
    assert chute["seat"] == 0 and sorted(chute["cards"]) == ["4S", "5S", "KC"]
    end = events_of(evs, "manche_end")[0]
    expected = {
        "maitre": 0, "contract": 75, "coffre": {"mineure": "7D", "majeure": "8H"},
        "majeure": "H", "mineure": "D",
        "trick_points": [50, 10, -5], "chute_points": [0, 0, 0], "chute_to": 0,
        "counted": 10, "valued": 8, "contract_ok": True, "bonus": 25, "malus": 0,
        "coffre_points": 1, "defausse": ["AS", "3C", "3S", "2D", "JS", "AH"], "defausse_points": -3,
        "manche_points": [73, 10, -5], "ecart": 68, "ecart_ok": True, "validated": True,
    }
    v = state.view(None)
    assert v["last_manche"] == expected                              # keys exactly
    assert {k: end[k] for k in LAST_MANCHE_KEYS} == expected
    assert end["deltas"] == [0, 0, 0] and end["strikes"] == [0, 0, 0]
    assert v["points"] == [73, 10, -5] and v["strikes"] == [0, 0, 0]
    assert v["manche"] == 1 and v["maitre"] == 1 and v["phase"] == "coffre"
    assert v["stacks"] == [90, 90, 90] and v["pot"] == 30
    # players' discards never leak (joker identities aside)
    players_discarded = set(s1) | set(s2) | {"6S", "7S", "QS", "KS", "AC", "2H"}
    for e in evs:
        text = json.dumps(strip_as(e))
        assert not any(f'"{c}"' in text for c in players_discarded), e


def test_seed_malus_example_end_to_end():
    """Seed: contract 50 failed at 40%, 20 points: he loses 4 (keeps 16), each player +4."""
    hands = {
        0: ["AD", "AH", "KH", "7H", "3H", "3D", "2S", "5S", "8C", "9C", "QS",
            "AS", "3S", "4S", "6S", "7S", "8S", "9S"],
        1: ["10S", "JS", "KS", "AC", "2C", "3C", "4C", "KC",
            "4H", "5H", "6H", "8H", "9H", "10H", "JH", "QH", "5C", "6C"],
        2: ["2H", "2D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD",
            "7C", "10C", "JC", "QC", "X1", "X2"],
    }
    state = table(hands=hands)
    start(state, "AD", "AH", 50)
    script = []
    s2 = ["2H", "2D", "4D", "5D", "6D", "7D", "8D"]
    s0 = ["AS", "3S", "4S", "6S", "7S", "8S", "9S"]
    for i, card in enumerate(["10S", "JS", "KS", "AC", "2C", "3C", "4C"]):
        script += single(1, card, [(2, s2[i]), (0, s0[i])])
    # K♣ then K♥: other suit, both heads, equal ranks → tête only, and a pair → take/leave
    script += [(1, P("KC")), (2, D("9D")), (0, P("KH", mode="tete", take=True))]
    s1 = ["4H", "5H", "6H", "8H", "9H", "10H", "JH", "QH"]
    s2 = ["10D", "JD", "QD", "KD", "JC", "QC", "X1", "X2"]
    leads = ["7H", "3H", "3D", "2S", "5S", "8C", "9C", "QS"]
    for i, card in enumerate(leads):
        script += single(0, card, [(1, s1[i]), (2, s2[i])], take=i < len(leads) - 1)
    evs = run(state, script)
    lm = state.view(None)["last_manche"]
    assert set(lm) == LAST_MANCHE_KEYS
    assert (lm["counted"], lm["valued"], lm["contract_ok"]) == (10, 4, False)
    assert lm["trick_points"] == [20, 0, 0] and lm["chute_points"] == [0, 0, 0] and lm["chute_to"] == 0
    assert lm["malus"] == 4 and lm["bonus"] == 0 and lm["coffre_points"] == 0 and lm["defausse_points"] == 0
    assert lm["manche_points"] == [16, 4, 4]                         # the seed's 16 and +4 each
    assert lm["ecart"] == 8 and not lm["ecart_ok"] and not lm["validated"]
    assert state.view(None)["strikes"] == [1, 0, 0] and state.view(None)["eliminated"] == [False] * 3
    assert not events_of(evs, "eliminated")


# --------------------------------------------------------------------------- seed: the Chute examples


def _chute_prelude():
    """3 seats, Maître S0 (the seed's J3), S1 = J1 leads, S2 = J2. Plays down to hands 0:3, 1:3, 2:1."""
    hands = {
        1: ["9S", "7H", "5C", "KH", "QD"],
        2: ["9H", "8S", "X2"],
        0: ["AD", "3H", "8H", "7S", "7C", "JH", "2C"],
    }
    reserved = {c for h in hands.values() for c in h}
    state = table(hands=hands)
    start(state, "AD", "3H")

    def filler(seat):
        return next(c for c in state.view(seat)["hand"] if c not in reserved)

    def lead_round(leader, order, last):
        state.apply(leader, P(filler(leader)))
        for s in order:
            state.apply(s, D(filler(s)))
        state.apply(leader, TAKE if last == "take" else D(filler(leader)))

    for _ in range(2):                                   # S1 leads, wins by discarding on the return
        lead_round(1, (2, 0), "discard")
    run(state, [(1, P("9S")), (2, P("9H"))])             # S2 pairs and leads
    for _ in range(4):
        lead_round(2, (0, 1), "discard")
    run(state, [(2, P("8S")), (0, P("8H"))])             # S0 pairs and leads
    run(state, [(0, P("7S")), (1, P("7H"))])             # S1 pairs and leads
    for _ in range(5):
        lead_round(1, (2, 0), "take")
    v = state.view(None)
    assert v["hand_counts"] == [3, 3, 1] and v["leader"] == 1 and v["to_act"] == [1]
    assert state.view(2)["hand"] == ["X2"]
    return state


def test_seed_chute_last_card_mid_trick():
    """Seed: J1 plays (2 left), J2 plays his LAST card, J3 wins the trick (2 left): J1's cards
    and J3's own go to J3."""
    state = _chute_prelude()
    evs = run(state, [(1, P("5C"))])
    assert state.view(None)["hand_counts"] == [3, 2, 1]
    evs = run(state, [(2, P("X2", **{"as": "6C", "mode": "couleur"}))])
    assert not events_of(evs, "chute") and state.view(None)["hand_counts"] == [3, 2, 0]
    assert state.to_act() == (0,)                        # the trick is finished first
    evs = run(state, [(0, P("7C"))])                     # run 5-6-7 on identities
    won = events_of(evs, "trick_won")[0]
    assert won["seat"] == 0 and won["cards"] == ["5C", "X2", "7C"] and won["as"] == ["5C", "6C", "7C"]
    chute = events_of(evs, "chute")[0]
    assert chute["seat"] == 0 and sorted(chute["cards"]) == sorted(["JH", "2C", "KH", "QD"])
    lm = state.view(None)["last_manche"]
    # ♥ Majeure (3H), ♦ Mineure (AD): JH + KH − QD = 11 + 13 − 12
    assert lm["chute_to"] == 0 and lm["chute_points"] == [12, 0, 0]
    assert lm["coffre_points"] == 2


def test_seed_chute_last_card_wins():
    """Seed: J1 plays (2 left), J2 plays his last card and wins: J1 and J3 chute to J2."""
    state = _chute_prelude()
    run(state, [(1, P("5C"))])
    evs = run(state, [(2, P("X2", **{"as": "5H"}))])     # a pair on the second card, no mode
    assert events_of(evs, "trick_won")[0]["seat"] == 2
    chute = events_of(evs, "chute")[0]
    assert chute["seat"] == 2 and sorted(chute["cards"]) == sorted(["7C", "JH", "2C", "KH", "QD"])
    lm = state.view(None)["last_manche"]
    assert lm["chute_to"] == 2 and lm["chute_points"] == [0, 0, 12]


# --------------------------------------------------------------------------- seed: card values


def test_seed_card_value_table():
    hearts = [r + "H" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    diamonds = [c[:-1] + "D" for c in hearts]
    for i, (h, d) in enumerate(zip(hearts, diamonds, strict=True)):
        res = score_manche(3, 0, 50, "AD" if d != "AD" else "2D", "AH" if h != "AH" else "2H",
                           [[h], [d], ["KS", "QC", "X1", "X2"]], None, [], [])
        assert res["trick_points"] == [i + 1, -(i + 1), 0], (h, d)


# --------------------------------------------------------------------------- second-card table


def _lead_then(lead: str, hand2: list[str]):
    state = table(hands={1: [lead, "2S"], 2: hand2, 0: ["AH", "2D"]})
    start(state, "2D", "AH")
    play(state, 1, lead)
    return state


def test_same_suit_heads_equal_rank_by_joker():
    """Same suit, both heads, r2 = r1 (a joker as Q♣ on Q♣): couleur and tête, no valeur.
    In couleur the pair ends the trick (no take field); in tête it offers take/leave."""
    state = _lead_then("QC", ["X1", "3S"])
    jok = [a for a in plays_of(state, 2, "X1") if a["as"] == "QC"]
    assert jok == [P("X1", **{"as": "QC", "mode": "couleur"}),
                   P("X1", **{"as": "QC", "mode": "tete", "take": True}),
                   P("X1", **{"as": "QC", "mode": "tete", "take": False})]
    other = [a for a in plays_of(state, 2, "X1") if a["as"] == "QS"]   # other suit, equal heads
    assert other == [P("X1", **{"as": "QS", "mode": "tete", "take": True}),
                     P("X1", **{"as": "QS", "mode": "tete", "take": False})]
    harness.assert_refused(state, 3, 2, P("X1", **{"as": "QC", "mode": "valeur"}))
    harness.assert_refused(state, 3, 2, P("X1", **{"as": "QC", "mode": "couleur", "take": True}))
    evs = play(state.clone(), 2, "X1", **{"as": "QC", "mode": "couleur"})
    assert events_of(evs, "trick_won")[0]["seat"] == 2


def test_same_suit_heads_valeur_only_if_higher():
    state = _lead_then("JD", ["QD", "3S"])
    assert [a["mode"] for a in plays_of(state, 2, "QD")] == ["couleur", "valeur", "tete"]
    state = _lead_then("QD", ["JD", "3S"])
    assert [a["mode"] for a in plays_of(state, 2, "JD")] == ["couleur", "tete"]
    harness.assert_refused(state, 3, 2, P("JD", mode="valeur"))
    state = _lead_then("10D", ["JD", "3S"])                  # not both heads: couleur only
    assert [a["mode"] for a in plays_of(state, 2, "JD")] == ["couleur"]
    state = _lead_then("KD", ["JS", "3S"])                   # other suit lower heads: tête only
    assert [a["mode"] for a in plays_of(state, 2, "JS")] == ["tete"]
    state = _lead_then("9D", ["8S", "3S"])                   # other suit lower numbers: unplayable
    assert plays_of(state, 2, "8S") == []
    harness.assert_refused(state, 3, 2, P("8S"))
    harness.assert_refused(state, 3, 2, P("8S", mode="valeur"))


# --------------------------------------------------------------------------- valeur


def test_valeur_muet_and_strictly_higher_than_latest():
    state = table(hands={1: ["3C", "JD", "10D", "JC", "AS"], 2: ["9H", "2S"],
                         0: ["9D", "10C", "10S", "X1", "AH", "2D"]})
    start(state, "2D", "AH")
    play(state, 1, "3C")
    play(state, 2, "9H", mode="valeur")
    v = state.view(1)
    assert v["mode"] == "valeur" and v["muet"] == "C" and v["last_player"] == 2
    legal = [a for a in state.legal_actions(0) if a["type"] == "play"]
    # 9♦ equal (refused), 10♣ muet, 10♠ legal; joker: 10..K of ♠♥♦ only, none forms a combination
    assert state.view(0)["hand"][:13] == ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS",
                                          "2H", "3H"]                 # the rest: 9D 10C X1
    assert [a["card"] for a in legal if a["card"] != "X1"] == ["10S", "JS", "QS", "KS"]
    assert [a["as"] for a in legal if a["card"] == "X1"] == [
        r + s for s in "SHD" for r in ("10", "J", "Q", "K")]
    assert all("mode" not in a and "take" not in a for a in legal)
    harness.assert_refused(state, 3, 0, P("9D"))
    harness.assert_refused(state, 3, 0, P("10C"))
    harness.assert_refused(state, 3, 0, P("X1", **{"as": "10C"}))
    play(state, 0, "10S")
    # S1: must beat 10 (the latest card), not clubs: J♥ Q♥ K♥ J♦; 10♦ 10♥ equal, J♣ muet
    assert "10D" in state.view(1)["hand"] and "10H" in state.view(1)["hand"]
    plays = [a for a in state.legal_actions(1) if a["type"] == "play"]
    assert plays == [P(c) for c in ("JH", "QH", "KH", "JD")]
    evs = play(state, 1, "JD")                              # 9-10-J: a run of the last three
    won = events_of(evs, "trick_won")[0]
    assert won["seat"] == 1 and won["cards"] == ["3C", "9H", "10S", "JD"] and won["mode"] == "valeur"
    v = state.view(None)
    assert v["mode"] is None and v["muet"] is None and v["trick"] == [] and v["last_player"] is None


def test_return_in_valeur_needs_run_obeying_mode():
    state = table(hands={1: ["3C", "8S"], 2: ["4H", "5C", "5S", "2D", "X1"], 0: ["AH", "AD", "9S"]})
    start(state, "AD", "AH")
    play(state, 1, "3C")
    play(state, 2, "4H", mode="valeur")
    discard(state, 0, "9S")
    discard(state, 1, "8S")
    assert state.to_act() == (2,)                           # return to L
    legal = state.legal_actions(2)
    plays = [a for a in legal if a["type"] == "play"]
    # 5♣ muet; 5♠ run 3-4-5; joker as 5♠/5♥/5♦ (not 5♣, not 2: not higher than 4)
    jokers = [P(x, **{"as": g}) for x in ("X1", "X2") for g in ("5S", "5H", "5D")]
    assert "5C" in state.view(2)["hand"] and "X2" in state.view(2)["hand"]
    assert plays == [P("5S")] + jokers
    assert legal[0] == TAKE and legal[1 + len(plays):] == [D(c) for c in state.view(2)["hand"]]
    evs = play(state, 2, "5S")
    assert events_of(evs, "trick_won")[0]["cards"] == ["3C", "4H", "5S"]


# --------------------------------------------------------------------------- combinations


def test_pair_only_with_previous_card_run_only_last_three():
    state = table(hands={1: ["3C", "9C", "AS"], 2: ["5C", "4C", "2S"], 0: ["AH", "2D", "X1", "3S"]})
    start(state, "2D", "AH")
    play(state, 1, "3C")
    play(state, 2, "5C", mode="couleur")
    # joker as 3♣ (3 5 3): no pair with the card before, not a run → no take, trick goes on
    evs = play(state, 0, "X1", **{"as": "3C"})
    assert "combination" not in evs[0] and not events_of(evs, "trick_won")
    play(state, 1, "9C")
    evs = play(state, 2, "4C")                              # 3 5 3 9 4: the last three are 3 9 4
    assert "combination" not in evs[0] and not events_of(evs, "trick_won")
    assert [t["as"] for t in state.view(None)["trick"]] == ["3C", "5C", "3C", "9C", "4C"]


def test_run_no_wrap_in_couleur():
    state = table(hands={1: ["QC", "2S"], 2: ["KC", "3S"], 0: ["AC", "AH", "2D", "4S"]})
    start(state, "2D", "AH")
    play(state, 1, "QC")
    play(state, 2, "KC", mode="couleur")
    evs = play(state, 0, "AC")                              # Q K A: no wrap
    assert "combination" not in evs[0] and not events_of(evs, "trick_won")
    assert state.to_act() == (1,)


def test_tete_left_combination_then_return_plays_have_no_take():
    state = table(hands={1: ["JC", "QH", "2S"], 2: ["QS", "3S", "4S"], 0: ["AH", "2D", "KD", "5S"]})
    start(state, "2D", "AH")
    play(state, 1, "JC")
    play(state, 2, "QS", mode="tete")
    assert plays_of(state, 0, "KD") == [P("KD", take=True), P("KD", take=False)]   # run J Q K
    assert plays_of(state, 0, "5S") == []                                          # not a head
    evs = play(state, 0, "KD", take=False)
    assert evs[0]["combination"] == "run" and evs[0]["take"] is False and not events_of(evs, "trick_won")
    discard(state, 1, "2S")
    discard(state, 2, "3S")
    assert state.to_act() == (0,) and state.view(None)["last_player"] == 0   # return to L = S0
    hand = state.view(0)["hand"]
    assert "JS" in hand and "KS" in hand and "QS" not in hand and not any(c[0] == "X" for c in hand)
    # top K, then Q: a K pairs, a J makes Q-K-J; obeys tête; no take/mode field on a return
    assert [a for a in state.legal_actions(0) if a["type"] == "play"] == [P("JS"), P("KS")]
    harness.assert_refused(state, 3, 0, P("KS", take=True))
    harness.assert_refused(state, 3, 0, P("5S"))
    evs = play(state, 0, "JS")
    won = events_of(evs, "trick_won")[0]
    assert won["seat"] == 0 and won["how"] == "combination" and won["cards"] == ["JC", "QS", "KD", "JS"]
    assert state.to_act() == (0,) and state.view(None)["leader"] == 0


def test_tete_return_offers_every_combining_identity():
    state = table(hands={1: ["JC", "QH", "2S"], 2: ["QS", "3S", "4S"], 0: ["AH", "2D", "5S"]})
    start(state, "2D", "AH")
    play(state, 1, "JC")
    play(state, 2, "QS", mode="tete")
    discard(state, 0, "5S")
    discard(state, 1, "2S")
    assert state.to_act() == (2,)
    hand = state.view(2)["hand"]
    assert hand == ["3S", "4S", "KD", "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C",
                    "QC", "KC", "X1", "X2"]
    # top Q, then J: a Q pairs, a K makes J-Q-K (a J is not distinct from the J below)
    idents = [r + s for s in "SHDC" for r in ("Q", "K")]
    expect = [TAKE, P("KD"), P("QC"), P("KC")]
    expect += [P("X1", **{"as": g}) for g in idents] + [P("X2", **{"as": g}) for g in idents]
    expect += [D(c) for c in hand]
    assert state.legal_actions(2) == expect
    evs = play(state, 2, "X2", **{"as": "KH"})
    assert events_of(evs, "trick_won")[0]["cards"] == ["JC", "QS", "X2"]


def test_joker_combination_couleur_ends_trick_no_take():
    state = table(hands={1: ["3C", "2S"], 2: ["2C", "3S"], 0: ["X2", "AH", "2D"]})
    start(state, "2D", "AH")
    play(state, 1, "3C")
    play(state, 2, "2C", mode="couleur")
    jok = plays_of(state, 0, "X2")
    assert [a["as"] for a in jok] == [r + "C" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                                                          "J", "Q", "K")]
    assert all(set(a) == {"type", "card", "as"} for a in jok)
    evs = play(state, 0, "X2", **{"as": "AC"})              # 3 2 A: a run
    won = events_of(evs, "trick_won")[0]
    assert won["seat"] == 0 and won["cards"] == ["3C", "2C", "X2"] and won["as"] == ["3C", "2C", "AC"]


# --------------------------------------------------------------------------- scoring formulas


def test_rounding_half_up_bonus_and_malus():
    # bonus: C=55, T=5 → 2·5·5/100 = 0.5 → 1
    res = score_manche(3, 0, 55, "AD", "2H", [["5H", "4S"], [], []], None, [], [])
    assert (res["counted"], res["valued"], res["contract_ok"], res["bonus"]) == (2, 1, False, 0)
    res = score_manche(3, 0, 55, "AD", "2H", [["5H"], [], []], None, [], [])
    assert res["contract_ok"] and res["bonus"] == 1 and res["manche_points"][0] == 5 + 1 + 1
    # malus: C=50, c=4, v=1, T=1 → 2·1·(200−100)/400 = 0.5 → 1; T=3 → 1.5 → 2
    res = score_manche(3, 0, 50, "2D", "2H", [["AH", "2S", "3S", "4S"], [], []], None, [], [])
    assert res["malus"] == 1 and res["manche_points"] == [1 + 0 - 1, 1, 1]
    res = score_manche(3, 0, 50, "2D", "2H", [["3H", "2S", "3S", "4S"], [], []], None, [], [])
    assert res["malus"] == 2 and res["manche_points"] == [3 - 2, 2, 2]
    assert rh(1, 2) == 1 and rh(3, 2) == 2 and rh(149, 100) == 1 and rh(150, 100) == 2


def test_bonus_and_malus_on_absolute_trick_points():
    # contract 100 met with only Mineure cards: T = −3, B = rh(2·50·3, 100) = 3 → P = 0 + K
    res = score_manche(3, 0, 100, "AD", "3H", [["AD", "2D"], [], []], None, [], [])
    assert res["contract_ok"] and res["trick_points"][0] == -3 and res["bonus"] == 3
    assert res["manche_points"][0] == -3 + 3 + 2
    # failed with negative T: |T| = 1 → x = 1; the Maître loses it, players gain it
    res = score_manche(3, 0, 50, "AD", "3H", [["AD", "2S", "3S", "4S"], [], []], None, [], [])
    assert res["malus"] == 1 and res["manche_points"] == [-1 + 2 - 1, 1, 1]


def test_contract_count_excludes_chute_coffre_defausse_jokers():
    res = score_manche(3, 1, 60, "AD", "3H", [[], ["5H", "2S", "X1", "X2"], []], 1,
                       ["KH", "QH", "JH", "10H"], ["9H", "8H", "X1"])
    # counted 2 (jokers out), valued 1: 50% < 60 even though the chute and défausse are ♥
    assert (res["counted"], res["valued"], res["contract_ok"]) == (2, 1, False)
    assert res["chute_points"] == [0, 46, 0] and res["defausse_points"] == -17
    # x = rh(2·5·(120 − 100), 200) = 1
    assert res["malus"] == 1 and res["coffre_points"] == 2
    assert res["manche_points"] == [1, 5 + 46 + 2 - 17 - 1, 1]
    empty = score_manche(3, 1, 50, "AD", "3H", [[], ["X1"], []], 1, ["KH"], [])
    assert empty["counted"] == 0 and not empty["contract_ok"] and empty["malus"] == 0


def test_coffre_points_can_be_negative_and_ecart_strict():
    res = score_manche(3, 0, 50, "9D", "2H", [["10H", "8H", "7S", "6S"], [], []], None, [], [])
    assert res["coffre_points"] == -7 and res["manche_points"][0] == 18 - 7
    # écart exactly 15 fails, 16 passes
    res = score_manche(3, 0, 50, "AD", "AH", [["10H", "5H"], [], []], None, [], [])
    assert res["ecart"] == 15 and not res["ecart_ok"] and not res["validated"] and res["contract_ok"]
    res = score_manche(3, 0, 50, "AD", "2H", [["10H", "5H"], [], []], None, [], [])
    assert res["ecart"] == 16 and res["ecart_ok"] and res["validated"]
    # écart subtracts the players' sum (negative players help the Maître)
    res = score_manche(4, 2, 50, "AD", "AH", [["3D"], ["5H"], ["6H", "2S"], ["KD"]], None, [], [])
    assert res["manche_points"] == [-3, 5, 6, -13] and res["ecart"] == 6 - (-3 + 5 - 13) == 17


# --------------------------------------------------------------------------- session structure


@pytest.mark.parametrize("n,tours,first", [(3, 2, 1), (4, 2, 2), (5, 1, 4), (6, 1, 0)])
def test_manche_count_and_maitre_rotation(n, tours, first):
    state = GAME.new_table(n, GAME.validate_options({"dealer": first, "tours": tours}), seed=21)
    evs: list = []
    while not state.is_over():
        evs += timeout_step(state)
    ends = events_of(evs, "manche_end")
    assert len(ends) == tours * n
    assert [e["maitre"] for e in ends] == [(first + i) % n for i in range(tours * n)]
    assert [e["manche"] for e in ends] == list(range(tours * n))
    deals = events_of(evs, "deal")
    assert [d["maitre"] for d in deals] == [(first + 1 + i) % n for i in range(tours * n - 1)]
    assert all(e["deltas"] == [0] * n for e in ends)


def test_strikes_accumulate_and_eliminate_once():
    state = GAME.new_table(3, GAME.validate_options({"dealer": 0, "tours": 3}), seed=4)
    evs: list = []
    while not state.is_over():
        evs += timeout_step(state)
    v = state.view(None)
    assert v["strikes"] == [3, 3, 3] and v["eliminated"] == [True, True, True]
    assert [e["seat"] for e in events_of(evs, "eliminated")] == [0, 1, 2]   # at the second strike only
    elim_at = [i for i, e in enumerate(evs) if e["type"] == "eliminated"]
    manche_of = [max(e2["manche"] for e2 in evs[:i] if e2["type"] == "manche_end") for i in elim_at]
    assert manche_of == [3, 4, 5]
    assert v["stacks"] == [100, 100, 100] and v["pot"] == 0


def test_pot_split_and_ranking_orders():
    pay, winners = split_pot([7, 7, 1, 7], [False, False, False, False], 50, 10, 3)
    assert winners == [3, 0, 1] and pay == [17, 16, 0, 17]
    pay, winners = split_pot([7, 9, 9, 2], [False, True, False, False], 40, 10, 2)
    assert winners == [2] and pay == [0, 0, 40, 0]
    # eliminated last whatever their points, among them by points; ties from the first Maître
    assert ranking([10, 99, 10, 50, 80], [False, True, False, True, False], 2) == [4, 2, 0, 1, 3]
    assert ranking([5, 5, 5], [True, True, True], 1) == [1, 2, 0]


def test_redeal_uses_next_deck_keeps_maitre_and_manche():
    # 4 seats, Maître S1 (12 cards): only ♣ numbers + heads + jokers → redeal; then a good deal
    bad = stacked(4, 1, {1: ["AC", "2C", "3C", "4C", "5C", "6C", "JS", "QS", "KS", "JH", "X1", "X2"]})
    good = stacked(4, 1, {1: ["AC", "2H", "3C", "4C", "5C", "6C", "JS", "QS", "KS", "JH", "X1", "X2"]})
    state = GAME.new_table(4, GAME.validate_options({"dealer": 1, "decks": [bad, bad, good]}), seed=3)
    v = state.view(1)
    assert v["deal"] == 2 and v["manche"] == 0 and v["maitre"] == 1 and "2H" in v["hand"]
    legal = state.legal_actions(1)
    assert legal[0] == {"type": "coffre", "mineure": "2H", "majeure": "AC"}
    assert all({a["mineure"][-1], a["majeure"][-1]} == {"H", "C"} for a in legal)


# --------------------------------------------------------------------------- hidden information


def _session_leak_check(n: int, seed: int):
    game = GAME
    state = game.new_table(n, game.validate_options({"tours": 1}), seed=seed)
    rng = random.Random(seed)
    secret_players: set[str] = set()       # discards of players: never shown
    secret_maitre: set[str] = set()        # défausse magistrale + Coffre: only at scoring
    while not state.is_over():
        seat = state.to_act()[0]
        m = state.maitre
        action = rng.choice(state.legal_actions(seat))
        evs = state.apply(seat, action)
        if action["type"] == "discard":
            (secret_maitre if seat == m else secret_players).add(action["card"])
        elif action["type"] == "coffre":
            secret_maitre |= {action["mineure"], action["majeure"]}
        for e in evs:
            if e["type"] == "manche_end":
                assert set(e["defausse"]) <= secret_maitre and not set(e["defausse"]) & secret_players
                secret_maitre = set()
                secret_players = set()
                continue
            found = harness.cards_in(strip_as(e))
            assert not found & secret_players, (e, found & secret_players)
            assert not found & secret_maitre, (e, found & secret_maitre)
        for s in [*range(n), None]:
            view = strip_as(state.view(s))
            view.pop("last_manche")
            found = harness.cards_in(view)
            assert not found & secret_players, (s, found & secret_players)
            leak = found & secret_maitre
            if s == state.maitre and state.view(s)["coffre"]:
                leak -= set(state.view(s)["coffre"].values())
            assert not leak, (s, leak)


@pytest.mark.parametrize("n", [3, 4, 6])
def test_discards_and_coffre_never_leak(n):
    for seed in range(3):
        _session_leak_check(n, seed)


def test_views_at_session_end_and_coffre_visibility():
    state = table(hands=B_HANDS)
    assert all(state.view(s)["coffre"] is None for s in (0, 1, 2, None))
    state.apply(0, {"type": "coffre", "mineure": "7D", "majeure": "8H"})
    assert state.view(0)["coffre"] == {"mineure": "7D", "majeure": "8H"}
    assert state.view(1)["coffre"] is None and state.view(None)["coffre"] is None
    assert "7D" not in json.dumps(state.view(1)) and "8H" not in json.dumps(state.view(None))
    assert state.view(None)["last_manche"] is None and state.view(None)["leader"] is None
    state.request_close()
    while not state.is_over():
        timeout_step(state)
    for s in (0, 1, 2, None):
        v = state.view(s)
        assert v["hand"] == [] and v["coffre"] is None and v["trick"] == [] and v["leader"] is None
        assert v["phase"] == "session_end" and v["to_act"] == [] and v["ranking"] is not None
        assert set(v["last_manche"]) == LAST_MANCHE_KEYS
    harness.assert_no_leaks(state, 3)


# --------------------------------------------------------------------------- close, clone, refusals


def test_request_close_in_contract_and_play_phases():
    state = table(hands=B_HANDS)
    state.apply(0, {"type": "coffre", "mineure": "7D", "majeure": "8H"})
    assert state.request_close() == [{"type": "close", "now": False}]
    assert state.request_close() == []                       # once
    assert not state.is_over() and state.view(None)["phase"] == "contract"
    twin = state.clone()
    evs = twin.request_close(now=True)
    assert [e["type"] for e in evs] == ["close", "manche_void", "session_end"]
    assert twin.stacks == [100, 100, 100] and twin.pot == 0 and twin.view(None)["points"] == [0, 0, 0]
    state.apply(0, {"type": "contract", "value": 50})
    state.apply(1, P("7H"))
    evs = state.request_close(now=True)
    assert evs[-1]["reason"] == "closed" and evs[-1]["results"] == [0, 0, 0]
    assert state.view(None)["trick"] == [] and state.view(None)["hand_counts"] == [0, 0, 0]
    assert state.request_close() == [] and state.request_close(now=True) == []
    with pytest.raises(IllegalMove):
        state.apply(1, TAKE)
    assert state.legal_actions(1) == [] and state.to_act() == ()


def test_clone_shares_no_mutable_structure():
    state = table(hands=B_HANDS)
    start(state, "7D", "8H", 75)
    run(state, [(1, P("7H")), (2, D("6S"))])
    c = state.clone()
    for name in ("stacks", "points", "strikes", "eliminated", "hands", "trick", "discards", "won",
                 "tricks_won"):
        assert getattr(c, name) is not getattr(state, name), name
    for name in ("hands", "discards", "won"):
        for a, b in zip(getattr(c, name), getattr(state, name), strict=True):
            assert a is not b
    before = harness.snapshot(state, 3)
    run(c, [(0, D("AS")), (1, TAKE)])
    c.points[0] = 99
    assert harness.snapshot(state, 3) == before


def test_hostile_actions_refused_without_change():
    state = table(hands=B_HANDS)
    for bad in ({"type": "coffre", "mineure": "7D"}, {"type": "coffre", "mineure": "7D", "majeure": "7D"},
                {"type": "coffre", "mineure": "KH", "majeure": "7D"}, {"type": "contract", "value": 50},
                {"type": "coffre", "mineure": ["7D"], "majeure": "8H"}, {"type": "coffre", "majeure": "8H",
                                                                           "mineure": "7D", "x": 1}):
        harness.assert_refused(state, 3, 0, bad)
    start(state, "7D", "8H", 75)
    for bad in (P("7H", mode="couleur"), P("7H", take=True), P("7H", **{"as": "7H"}), TAKE, D("7H"),
                P("X1"), P("8D", mode=None), {"type": "contract", "value": 75},
                {"type": "play", "card": "7h"}, {"type": "play", "card": "7H", "seat": 1}):
        harness.assert_refused(state, 3, 1, bad)
    play(state, 1, "8D")
    for bad in (P("8S", mode="couleur"), P("8S", mode="valeur"), P("8S", take=True), P("3H"),
                P("X2", **{"as": "9H"}), P("X2", **{"as": "XX", "mode": "valeur"}), TAKE):
        harness.assert_refused(state, 3, 2, bad)
    discard(state, 2, "6S")
    discard(state, 0, "AS")
    for bad in (P("10C"), P("7D"), {"type": "take", "card": "10C"}, {"type": "take", "x": None}):
        harness.assert_refused(state, 3, 1, bad)
    with pytest.raises(IllegalMove):
        state.timeout_action(0)


def test_legal_list_is_the_callers_own():
    """Mutating a returned legal list (or a clone's) changes neither state's legal actions."""
    state = table(hands=B_HANDS)
    start(state, "7D", "8H", 75)
    before = [dict(a) for a in state.legal_actions(1)]
    twin = state.clone()
    twin.legal_actions(1).clear()
    mine = state.legal_actions(1)
    mine.append({"type": "take"})
    mine.reverse()
    assert state.legal_actions(1) == before and twin.legal_actions(1) == before
    harness.assert_refused(state, 3, 1, {"type": "take"})


def _to_last_manche(n: int, opts: dict, seed: int):
    state = GAME.new_table(n, GAME.validate_options(opts), seed=seed)
    last = opts.get("tours", 2) * n - 1
    while state.view(None)["manche"] < last:
        timeout_step(state)
    trial = state.clone()
    while not trial.is_over():
        timeout_step(trial)
    return state, trial.view(None)["last_manche"]["manche_points"]


def test_pot_leftover_from_first_maitre_end_to_end():
    """4 seats, first Maître S1, pot 40 shared by S0, S2, S3 tied: 13 each, the leftover jeton
    to the first winner clockwise from S1, i.e. S2."""
    state, p_last = _to_last_manche(4, {"dealer": 1, "tours": 1}, seed=13)
    target = [50, 20, 50, 50]
    state.points = [target[i] - p_last[i] for i in range(4)]
    evs: list = []
    while not state.is_over():
        evs += timeout_step(state)
    v = state.view(None)
    assert v["points"] == target and v["eliminated"] == [False] * 4
    end = events_of(evs, "session_end")[0]
    assert end["reason"] == "complete" and end["winners"] == [2, 3, 0]
    assert end["payouts"] == [13, 0, 14, 13] and v["stacks"] == [103, 90, 104, 103] and v["pot"] == 0
    assert end["results"] == [3, -10, 4, 3]
    assert v["ranking"] == [2, 3, 0, 1]                     # ties by seat order from the first Maître


def test_close_requested_during_last_manche_keeps_the_natural_end():
    """Engine reading (docstring): a deferred close in the last manche does not refund the pot."""
    state, p_last = _to_last_manche(3, {"dealer": 0, "tours": 1}, seed=5)
    timeout_step(state)                                     # someone acted in the last manche
    assert state.request_close() == [{"type": "close", "now": False}]
    state.points = [40 - p_last[0], 10 - p_last[1], 0 - p_last[2]]
    evs: list = []
    while not state.is_over():
        evs += timeout_step(state)
    end = events_of(evs, "session_end")[0]
    assert end["reason"] == "complete" and end["winners"] == [0] and state.stacks == [120, 90, 90]


def test_joker_lead_identity_sets_first_suit_and_rank():
    state = table(hands={1: ["X1", "2S"], 2: ["5H", "3D", "4C", "2C"], 0: ["AH", "2D"]})
    start(state, "2D", "AH")
    play(state, 1, "X1", **{"as": "3C"})
    assert plays_of(state, 2, "5H") == [P("5H", mode="valeur")]     # other suit, higher
    assert plays_of(state, 2, "3D") == [P("3D")]                    # pair with the identity
    assert plays_of(state, 2, "2C") == [P("2C", mode="couleur")]    # same suit as the identity
    play(state, 2, "5H", mode="valeur")
    v = state.view(0)
    assert v["muet"] == "C" and v["trick"][0] == {"seat": 1, "card": "X1", "as": "3C"}
    assert v["won_cards"] == [[], [], []] and v["leader"] == 1 and v["last_player"] == 2
