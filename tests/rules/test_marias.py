"""Marias: spec examples A-C, hand-checked stacked deals for every subtle rule, contract checks.

Every stacked deal is dealt with ``dealer=2``, so forehand F = seat 0, middlehand M = seat 1 and
the dealer d = seat 2 (spec 1.5). ``deck_of`` places F's first seven at deck[0..6] and its
blind five at deck[17..21]. Tricks are written in play order; every card total in a comment was
counted by hand from those tricks (A and 10 score 10, the last trick 10).
"""

from __future__ import annotations

import json

import pytest

from bot.rules import GAMES, IllegalMove
from bot.rules.cards import DECK_32
from tests.rules import harness

G = GAMES["marias"]
CANON = {c: i for i, c in enumerate(DECK_32)}
RESULT_KEYS = {"contract", "soloist", "trump", "flek", "conceded", "components", "units", "deltas",
               "points", "card_points", "marriages", "trick_winners"}


def canon(text: str) -> list[str]:
    return sorted(text.split(), key=CANON.__getitem__)


def deck_of(first7: str, blind5: str, m10: str, d10: str) -> list[str]:
    """The 32-card order dealing F = first7 + blind5, M = m10, d = d10 (spec 1.5)."""
    f, b, m, d = first7.split(), blind5.split(), m10.split(), d10.split()
    assert (len(f), len(b), len(m), len(d)) == (7, 5, 10, 10)
    deck = f + m[:5] + d[:5] + b + m[5:] + d[5:]
    assert sorted(deck) == sorted(DECK_32), "not a permutation of the 32 cards"
    return deck


def new(first7: str, blind5: str, m10: str, d10: str, seed: int = 1, **opts):
    opts = {"dealer": 2, "decks": [deck_of(first7, blind5, m10, d10)], **opts}
    return G.new_table(seats=3, options=G.validate_options(opts), seed=seed)


def do(st, seat: int, kind: str, **kw) -> list[dict]:
    return st.apply(seat, {"type": kind, **kw})


def legal_cards(st) -> list[str]:
    return [a["card"] for a in st.legal_actions(st.to_act()[0])]


def kinds(st, seat: int) -> list[str]:
    return [a["type"] for a in st.legal_actions(seat)]


def play_tricks(st, tricks: list[str]) -> list[dict]:
    """Play each trick (cards in play order, space separated) by whoever is to act."""
    events: list[dict] = []
    for trick in tricks:
        for card in trick.split():
            events += do(st, st.to_act()[0], "play", card=card)
    return events


def setup_suit(st, tc: str, game: str, discards: tuple[str, str], fleks=("pass", "pass")) -> list[dict]:
    """F names trumps with ``tc``, declares ``game``, discards; M and d say good; then ``fleks``."""
    ev = do(st, 0, "trump", card=tc) + do(st, 0, "declare", game=game)
    for c in discards:
        ev += do(st, 0, "discard", card=c)
    ev += do(st, 1, "good") + do(st, 2, "good")
    for f in fleks:
        ev += do(st, st.to_act()[0], f)
    return ev


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def deal_end(events: list[dict]) -> dict:
    (end,) = of_type(events, "deal_end")
    return end


# --------------------------------------------------------------------------- options


def test_options_defaults_and_errors():
    o = G.validate_options({})
    assert (o["stake"], o["buy_in"], o["rounds"], o["max_flek"], o["concede_plain"]) == (1, 200, 3, 3, True)
    assert o["dealer"] is None and o["decks"] is None
    assert G.validate_options({"stake": 5})["buy_in"] == 1000
    assert [s.name for s in G.options if s.hidden] == ["dealer", "decks", "rated"]
    for bad in ({"stake": 0}, {"stake": 101}, {"stake": 2, "buy_in": 39}, {"rounds": 0}, {"rounds": 11},
                {"max_flek": 0}, {"max_flek": 5}, {"concede_plain": "maybe"}, {"decks": [["AS"]]},
                {"decks": "AS"}, {"nope": 1}, {"stake": 1.5}):
        with pytest.raises(ValueError):
            G.validate_options(bad)
    G.validate_options({"stake": 2, "buy_in": 40})
    with pytest.raises(ValueError):
        G.new_table(seats=3, options={"dealer": 3}, seed=1)
    for seats in (2, 4):
        with pytest.raises(ValueError):
            G.new_table(seats=seats, options={}, seed=1)
    st = G.new_table(seats=3, options={}, seed=1)
    assert st.stacks == [200, 200, 200] and st.pot == 0


# --------------------------------------------------------------------------- example A

# Trump C, hra by F. Trick 1: S leads 9S; trick 2: M leads 7D, S wins with AD; trick 3: S's 10D
# wins; trick 4: S leads KD and both defenders are void in diamonds.
A_M = "AS 7S KH JH 8H 7H 9D 7D 10C 7C"


def example_a_state(d_clubs: str, s_clubs: str):
    st = new("9S KD 8C AD QS JS QD", "10D " + s_clubs + " 8S",
             A_M, "KS 10S AH QH 10H 9H JD 8D " + d_clubs, concede_plain=False)
    setup_suit(st, "8C", "hra", ("QS", "JS"))
    assert st.view(None)["phase"] == "play" and st.to_act() == (0,)
    do(st, 0, "play", card="9S")
    assert legal_cards(st) == ["AS"]  # must beat the 9S
    do(st, 1, "play", card="AS")
    assert legal_cards(st) == ["KS", "10S"]  # nothing beats the AS: either spade
    do(st, 2, "play", card="KS")
    assert st.view(None)["trick_winners"] == [1]
    play_tricks(st, ["7D 8D AD", "10D 9D JD"])
    assert st.view(None)["trick_winners"] == [1, 0, 0]
    do(st, 0, "play", card="KD")
    assert legal_cards(st) == ["10C", "7C"]  # no diamond: must trump (never 8H)
    do(st, 1, "play", card="10C")
    return st


def test_example_a_must_beat_and_overtrump():
    st = example_a_state("AC 9C", "KC QC JC")
    assert st.view(2)["hand"] == canon("10S AH QH 10H 9H AC 9C")
    assert legal_cards(st) == ["AC"]  # overtrump the 10C


def test_example_a_must_trump_without_overtrumping():
    st = example_a_state("QC 9C", "AC KC JC")
    assert st.view(2)["hand"] == canon("10S AH QH 10H 9H QC 9C")
    assert legal_cards(st) == ["QC", "9C"]  # cannot beat the 10C, still must trump; never AH
    do(st, 2, "play", card="9C")
    assert st.view(None)["trick_winners"] == [1, 0, 0, 1]


# --------------------------------------------------------------------------- deal, TRUMP


def test_deal_layout_and_forehand_sees_only_first_seven():
    st = new("9S KD 8C AD QS JS QD", "10D KC QC JC 8S", A_M, "KS 10S AH QH 10H 9H JD 8D AC 9C")
    v0 = st.view(0)
    assert v0["phase"] == "trump" and v0["to_act"] == [0] and v0["dealer"] == 2
    assert v0["hand"] == canon("9S KD 8C AD QS JS QD")
    assert v0["hand_sizes"] == [12, 10, 10]
    assert st.view(1)["hand"] == canon(A_M)
    assert st.view(2)["hand"] == canon("KS 10S AH QH 10H 9H JD 8D AC 9C")
    spec = st.view(None)
    assert spec["hand"] == [] and harness.cards_in(spec) == set()
    assert not harness.cards_in(st.view(1)) & set("10D KC QC JC 8S".split())
    want = [{"type": "trump", "card": c} for c in canon("9S KD 8C AD QS JS QD")]
    assert st.legal_actions(0) == [*want, {"type": "trump_blind"}]
    assert st.legal_actions(1) == [] and st.legal_actions(2) == []
    ev = do(st, 0, "trump", card="KD")
    assert ev == [{"type": "trump", "seat": 0, "card": "KD", "suit": "D", "blind": False}]
    v0 = st.view(0)
    assert v0["phase"] == "declare" and v0["hand"] == canon("9S KD 8C AD QS JS QD 10D KC QC JC 8S")
    for seat in (None, 1, 2):
        v = st.view(seat)
        assert v["trump"] == "D" and v["trump_card"] == "KD"
    assert harness.cards_in(st.view(None)) == {"KD"}


def test_trump_blind_turns_the_first_blind_card():
    st = new("9S KD 8C AD QS JS QD", "10D KC QC JC 8S", A_M, "KS 10S AH QH 10H 9H JD 8D AC 9C")
    ev = do(st, 0, "trump_blind")
    assert ev == [{"type": "trump", "seat": 0, "card": "10D", "suit": "D", "blind": True}]
    v = st.view(1)
    assert v["trump"] == "D" and v["trump_card"] == "10D"
    assert "10D" in st.view(0)["hand"] and len(st.view(0)["hand"]) == 12
    # the trump card can never go to the talon
    do(st, 0, "declare", game="hra")
    assert "10D" not in legal_cards(st)


# --------------------------------------------------------------------------- DECLARE


PRE_M = "KS QS JS 9S KH QH JH 9H KD QD"
PRE_D = "8S 7S 8H 7H JD 9D 8D 7D JC 9C"


def declarable(st) -> list[str]:
    return [a["game"] for a in st.legal_actions(0)]


def test_declaration_preconditions():
    # all sharp cards + KC QC 7C + 8C: kilo_sedma would leave only 8C discardable (tc = KC)
    st = new("AS 10S AH 10H KC AD 10D", "AC 10C QC 7C 8C", PRE_M, PRE_D)
    do(st, 0, "trump", card="KC")
    assert declarable(st) == ["hra", "sedma", "kilo", "betl", "durch"]
    do(st, 0, "declare", game="kilo")
    assert legal_cards(st) == ["8C", "7C"]  # not A, 10, the tc KC, nor the needed QC
    # no 7 of trumps: no sedma
    st = new("AS 10S AH 10H KC AD 10D", "AC 10C QC 8C JC", PRE_M, PRE_D.replace("JC", "7C"))
    do(st, 0, "trump", card="KC")
    assert declarable(st) == ["hra", "kilo", "betl", "durch"]
    # king without queen: no kilo
    st = new("AS 10S AH 10H KC AD 10D", "AC 10C JC 7C 8C", PRE_M, PRE_D.replace("JC", "QC"))
    do(st, 0, "trump", card="KC")
    assert declarable(st) == ["hra", "sedma", "betl", "durch"]
    # all three, three discardable cards: every contract
    st = new("AS 10S AH 10H KC AD 10D", "AC QC 7C 8C 9C", PRE_M, PRE_D.replace("9C", "10C"))
    do(st, 0, "trump", card="KC")
    assert declarable(st) == ["hra", "sedma", "kilo", "kilo_sedma", "betl", "durch"]


# --------------------------------------------------------------------------- DISCARD


H8 = ("AH 10H KH QH JH 9H 8H", "7H AS AD 7S 7D",
      "KS JS 9S KD JD 9D AC 10C QC 8C", "QS 10S 8S QD 10D 8D KC JC 9C 7C")


def test_talon_restrictions_and_talon_trumps():
    st = new(*H8)
    do(st, 0, "trump", card="8H")
    assert declarable(st) == ["hra", "sedma", "kilo", "kilo_sedma", "betl", "durch"]
    do(st, 0, "declare", game="hra")
    # no A, no 10, not the trump card 8H; trumps are allowed
    assert legal_cards(st) == canon("KH QH JH 9H 7H 7S 7D")
    ev = do(st, 0, "discard", card="9H")
    assert ev == [{"type": "discard", "seat": 0, "count": 1}]  # the card is never public
    assert st.view(0)["talon"] == ["9H"] and st.view(1)["talon"] == [] and st.view(None)["talon"] == []
    assert st.view(None)["talon_trumps"] is None
    assert legal_cards(st) == canon("KH QH JH 7H 7S 7D")
    ev = do(st, 0, "discard", card="7H")
    assert ev[0]["talon_trumps"] == 2
    v = st.view(None)
    assert v["talon_trumps"] == 2 and v["phase"] == "answer" and v["to_act"] == [1]
    for seat in (1, 2, None):
        assert not harness.cards_in(st.view(seat)) & {"9H", "7H"}
    assert st.view(0)["talon"] == ["9H", "7H"] and st.view(0)["hand_sizes"] == [10, 10, 10]


def test_talon_needed_cards_for_sedma_and_kilo():
    for game, banned in (("sedma", {"7H"}), ("kilo", {"KH", "QH"}), ("kilo_sedma", {"7H", "KH", "QH"})):
        st = new(*H8)
        do(st, 0, "trump", card="8H")
        do(st, 0, "declare", game=game)
        assert legal_cards(st) == [c for c in canon("KH QH JH 9H 7H 7S 7D") if c not in banned], game


def test_talon_any_card_in_betl_and_durch():
    for game in ("betl", "durch"):
        st = new(*H8)
        do(st, 0, "trump", card="8H")
        do(st, 0, "declare", game=game)
        v = st.view(1)
        assert v["trump"] is None and v["trump_card"] is None and v["contract"] == game
        assert legal_cards(st) == canon(" ".join(H8[:2]))
        do(st, 0, "discard", card="AH")
        do(st, 0, "discard", card="8H")  # even the former trump card
        v = st.view(None)
        assert v["talon_trumps"] is None
        assert v["phase"] == ("answer" if game == "betl" else "flek")
        assert v["to_act"] == [1]


# --------------------------------------------------------------------------- marriages, kilo


# Trump D, kilo by F (K Q of diamonds), talon KH JH.
KILOL = ("10S AH KH QH 10D 7D 10C", "JS JH AD KD QD",
         "AS 8S 7S 10H 9H 8H 7H JD 8D KC", "KS QS 9S 9D AC QC JC 9C 8C 7C")
KILOL_TRICKS = [
    "10D 8D 9D",  # S wins: 10
    "AD JD QC",  # S: 20
    "10S AS 9S",  # M must beat with AS: M 20
    "8H 9C QH",  # M leads, S wins
    "JS 8S KS",  # d follows KS holding QS: marriage 20; d wins
    "QS QD 7S",  # S trumps with QD holding KD: marriage 40; S wins
    "KD 7H 7C",  # S (the partner is gone: nothing)
    "10C KC AC",  # d must beat with AC: d 20
    "8C 7D 10H",  # S trumps: 30
    "AH 9H JC",  # S: 40 + last 10 = 50
]


def test_marriages_declared_with_first_card_led_or_followed():
    st = new(*KILOL)
    setup_suit(st, "7D", "kilo", ("KH", "JH"))
    ev = play_tricks(st, KILOL_TRICKS[:6])
    assert of_type(ev, "marriage") == [
        {"type": "marriage", "seat": 2, "suit": "S", "value": 20, "card": "KS"},
        {"type": "marriage", "seat": 0, "suit": "D", "value": 40, "card": "QD"},
    ]
    v = st.view(1)
    assert v["marriages"] == [[2, "S", 20], [0, "D", 40]]
    assert v["card_points"] == [20, 20, 0] and v["points"] == [60, 40]
    ev = play_tricks(st, KILOL_TRICKS[6:])
    assert not of_type(ev, "marriage")  # KD after QD: the pair is gone


def test_kilo_lost_without_100_even_with_more_points():
    st = new(*KILOL)
    setup_suit(st, "7D", "kilo", ("KH", "JH"))
    ev = play_tricks(st, KILOL_TRICKS)
    r = st.view(None)["last_result"]
    assert r["trick_winners"] == [0, 0, 1, 0, 2, 0, 0, 2, 0, 0]
    assert r["card_points"] == [50, 20, 20]
    assert r["points"] == [90, 60]  # P_S > P_D, but H100 = 50 + 40 = 90
    assert r["components"] == [["kilo", False, 4]]
    assert r["units"] == -4 and r["deltas"] == [-8, 4, 4]
    assert deal_end(ev)["payments"] == [[0, 1, 4], [0, 2, 4]]


def test_kilo_won_value():
    st = new("KH AD QD JD 7D AC 7C", "AS AH 8H KD KC",
             "QS 8S 7S QH 10H 7H 10D QC 10C 9C", "KS JS 10S 9S JH 9H 9D 8D JC 8C")
    setup_suit(st, "7D", "kilo", ("KC", "8H"))
    ev = play_tricks(st, [
        "AD 10D 8D",  # S 20
        "AH QH JH",  # S 30
        "QD QC 9D",  # QD led holding KD: trump marriage 40
        "AC 10C JC",  # S 50
        "JD 7S 10S",  # S 60
        "KD 7H KS",
        "AS 8S JS",  # S 70
        "7D QS 8C",
        "KH 10H 9H",  # M must beat with 10H: M 10
        "9C 9S 7C",  # M: last trick, 20
    ])
    marriage = {"type": "marriage", "seat": 0, "suit": "D", "value": 40, "card": "QD"}
    assert of_type(ev, "marriage") == [marriage]
    r = st.view(None)["last_result"]
    assert r["card_points"] == [70, 20, 0] and r["points"] == [110, 20]
    assert r["components"] == [["kilo", True, 6]]  # H100 = 110: 4 + 2 × 1
    assert r["units"] == 6 and r["deltas"] == [12, -6, -6]


# --------------------------------------------------------------------------- sedma, silent seven


H8_TRICKS = ["AH AC KC", "10H 10C JC", "KH QC 9C", "QH 8C 7C", "JH KD QD", "9H JD 10D", "8H 9D 8D",
             "AS KS QS", "AD JS 10S", "7H 9S 8S"]


def test_sedma_won_with_silent_hundred():
    st = new(*H8)
    setup_suit(st, "8H", "sedma", ("7S", "7D"))
    assert st.view(None)["phase"] == "play"  # an unflekked sedma is played, not conceded
    ev = play_tricks(st, H8_TRICKS)
    r = st.view(None)["last_result"]
    assert r["trick_winners"] == [0] * 10
    assert r["card_points"] == [90, 0, 0] and r["marriages"] == [[0, "H", 40]]
    assert r["points"] == [130, 0]
    # silent hundred: H100 = 130 → 2 + 3; announced seven 2; hearts ×2
    assert r["components"] == [["hra", True, 5], ["sedma", True, 2]]
    assert r["units"] == 14 and r["deltas"] == [28, -14, -14]
    assert of_type(ev, "trick")[-1]["card"] == "7H"


def test_sedma_lost_when_seven_played_earlier():
    st = new(*H8)
    setup_suit(st, "8H", "sedma", ("7S", "7D"))
    order = ["7H", "AH", "10H", "KH", "QH", "JH", "9H", "AS", "AD", "8H"]
    tricks = [" ".join([order[i], *H8_TRICKS[i].split()[1:]]) for i in range(10)]
    play_tricks(st, tricks)
    r = st.view(None)["last_result"]
    assert r["trick_winners"] == [0] * 10  # S wins trick 10, but with the 8H
    assert r["components"] == [["hra", True, 5], ["sedma", False, 2]]
    assert r["units"] == 6 and r["deltas"] == [12, -6, -6]


def test_silent_seven_for_the_soloist():
    st = new(*H8, concede_plain=False)
    setup_suit(st, "8H", "hra", ("7S", "7D"))
    play_tricks(st, H8_TRICKS)
    r = st.view(None)["last_result"]
    assert r["components"] == [["hra", True, 5], ["silent_seven", True, 1]]
    assert r["units"] == 12 and r["deltas"] == [24, -12, -12]


def test_silent_seven_against_the_soloist():
    st = new("KS JS AH 9D 7D JC 8C", "7H JD AC KC 7C",
             "AS 10S 8S 7S KH 10H 8H QD 8D 9C", "QS 9S QH JH 9H AD KD 10D QC 10C")
    setup_suit(st, "KS", "hra", ("KC", "9D"), fleks=("flek", "pass"))
    ev = play_tricks(st, [
        "7D 8D KD",  # d
        "9H AH 8H",  # S must beat with AH: S 10
        "JD QD 10D",  # d: 10
        "JH 7H KH",  # M
        "9C QC AC",  # S must beat with AC: 20
        "KS AS QS",  # M: 10
        "10H QH JS",  # S trumps: 30
        "JC 10S 10C",  # M trumps with 10S: 30
        "8S 9S 7C",  # d
        "AD 8C 7S",  # M trumps with the 7 of trumps: 50
    ])
    r = st.view(None)["last_result"]
    assert r["trick_winners"] == [2, 0, 2, 1, 0, 1, 0, 1, 2, 1]
    assert r["card_points"] == [30, 50, 10] and r["marriages"] == [] and r["points"] == [30, 60]
    assert r["components"] == [["hra", False, 1], ["silent_seven", False, 1]]
    assert r["flek"] == 1 and r["units"] == -4 and r["deltas"] == [-8, 4, 4]
    assert of_type(ev, "trick")[-1]["card"] == "7S"


def test_silent_hundred_value_in_hra():
    st = new("AS QS 10H 7H AD JC 9C", "9D AC KC QC 10C",
             "10S 9S 7S QH JH 9H QD 10D 8D 7D", "KS JS 8S AH KH 8H KD JD 8C 7C")
    setup_suit(st, "JC", "hra", ("9D", "9C"), fleks=("flek", "pass"))
    play_tricks(st, [
        "10C JH 7C",  # S 10
        "KC QH 8C",  # KC led holding QC: trump marriage 40
        "10H 9H AH",  # d must beat with AH: 20
        "KH 7H 9S",  # d
        "KD AD 10D",  # S 30
        "AS 10S KS",  # S 50
        "QS 7S JS",
        "QC 8D 8S",
        "JC 7D JD",
        "AC QD 8H",  # S 60 + last 10
    ])
    r = st.view(None)["last_result"]
    assert r["card_points"] == [70, 0, 20] and r["points"] == [110, 20]
    assert r["components"] == [["hra", True, 3]]  # H100 = 110 → 2 + 1
    assert r["units"] == 6 and r["deltas"] == [12, -6, -6]


# --------------------------------------------------------------------------- example B


def test_example_b_flekked_seven_in_hearts():
    st = new("AS KS QH JH 8H AD KD", "QS 7H 7D 10C 8C",
             "9S 7S KH 10H JD 10D 8D KC JC 9C", "JS 10S 8S AH 9H QD 9D AC QC 7C")
    ev = setup_suit(st, "JH", "sedma", ("QH", "8H"), fleks=("flek", "re", "pass", "pass"))
    assert [(e["type"], e["seat"]) for e in ev if e["type"] in ("flek", "re", "pass")] == [
        ("flek", 1), ("re", 0), ("pass", 1), ("pass", 2)]
    assert st.view(None)["flek"] == 2
    ev = play_tricks(st, [
        "AS 9S 10S",  # S 20
        "AD 10D 9D",  # S 40
        "7D JD QD",  # d
        "AC 8C 9C",  # d 10
        "QC 10C KC",  # S must beat with 10C: 50
        "KS 7S JS",  # KS led holding QS: marriage 20
        "QS 10H 8S",  # M trumps: 10
        "8D 9H KD",  # d trumps
        "7C JH JC",  # S trumps
        "7H KH AH",  # d's AH over S's 7H: 10 + last 10 → d 30
    ])
    r = st.view(None)["last_result"]
    assert r["trick_winners"] == [0, 0, 2, 2, 0, 0, 1, 2, 0, 2]
    assert r["card_points"] == [50, 10, 30] and r["marriages"] == [[0, "S", 20]]
    assert r["points"] == [70, 40]
    assert r["components"] == [["hra", True, 1], ["sedma", False, 2]]
    assert r["units"] == -8 and r["deltas"] == [-16, 8, 8]
    end = deal_end(ev)
    assert end["payments"] == [[0, 1, 8], [0, 2, 8]] and end["deltas"] == [-16, 8, 8]
    assert st.stacks == [184, 208, 208]


# --------------------------------------------------------------------------- betl, durch


BETL = ("JS 9S 8S AD AH KH QH", "JH AC KC QC JC",
        "QS 10S 10D JD 10H 9H 10C 9C 8C 7C", "AS KS 7S 7D 8D 9D QD KD 8H 7H")


def test_betl_natural_order_and_early_stop():
    st = new(*BETL)
    do(st, 0, "trump", card="AD")
    do(st, 0, "declare", game="betl")
    do(st, 0, "discard", card="AH")  # any card, aces included
    do(st, 0, "discard", card="KH")
    assert st.view(None)["phase"] == "answer" and st.to_act() == (1,)  # left(S) then left(left(S))
    do(st, 1, "good")
    do(st, 2, "good")
    assert st.view(None)["phase"] == "flek" and st.to_act() == (1,)
    do(st, 1, "pass")
    do(st, 2, "pass")
    assert st.view(None)["phase"] == "play" and st.to_act() == (0,)
    do(st, 0, "play", card="JS")
    assert legal_cards(st) == ["QS"]  # natural order: 10S does not beat the JS
    do(st, 1, "play", card="QS")
    assert legal_cards(st) == ["AS", "KS"]
    do(st, 2, "play", card="KS")
    do(st, 2, "play", card="7D")
    assert legal_cards(st) == ["AD"]
    do(st, 0, "play", card="AD")
    assert legal_cards(st) == ["JD", "10D"]
    assert st.timeout_action(1) == {"type": "play", "card": "10D"}  # lowest in natural order
    ev = do(st, 1, "play", card="JD")
    assert of_type(ev, "play_stopped") == [{"type": "play_stopped", "contract": "betl", "trick": 2,
                                            "winner": 0}]
    r = st.view(None)["last_result"]
    assert r["contract"] == "betl" and r["trump"] is None and r["trick_winners"] == [2, 0]
    assert r["points"] == [0, 0] and r["card_points"] == [0, 0, 0] and r["marriages"] == []
    assert r["components"] == [["betl", False, 5]]
    assert r["units"] == -5 and r["deltas"] == [-10, 5, 5]
    end = deal_end(ev)
    assert harness.cards_in(end) == set()  # unplayed cards are not shown
    assert st.view(None)["phase"] == "trump" and st.view(None)["deals_played"] == 1


DURCH = ("AS KS QS JS 10S 9S 8S", "7S AH KH AD 7C",
         "10H 9H KD QD JD 10D AC KC QC JC", "QH JH 8H 7H 9D 8D 7D 10C 9C 8C")


def test_durch_won_natural_order():
    st = new(*DURCH)
    do(st, 0, "trump", card="AS")
    do(st, 0, "declare", game="durch")
    do(st, 0, "discard", card="AH")
    do(st, 0, "discard", card="7C")
    assert st.view(None)["phase"] == "flek" and st.to_act() == (1,)  # a durch is never answered
    do(st, 1, "pass")
    do(st, 2, "pass")
    do(st, 0, "play", card="KH")
    assert legal_cards(st) == ["10H", "9H"]  # natural order: the 10H cannot beat the KH
    ev = play_tricks(st, ["10H QH", "AS 9H JH", "KS AC 8H", "QS KC 7H", "JS QC 10C", "10S JC 9C",
                          "9S KD 8C", "8S QD 9D", "7S JD 8D", "AD 10D 7D"])
    assert not of_type(ev, "marriage")  # no trumps, no marriages
    r = st.view(None)["last_result"]
    assert r["trick_winners"] == [0] * 10
    assert r["components"] == [["durch", True, 10]]
    assert r["units"] == 10 and r["deltas"] == [20, -10, -10]


# --------------------------------------------------------------------------- example C

C_DEAL = ("AS 9S AD KD AH 7C 8C", "KS QS 7H 8H 9H",
          "JS 10S KH QH QD JD 10D AC KC QC", "8S 7S JH 10H 9D 8D 7D JC 10C 9C")


def example_c(st) -> list[dict]:
    ev = do(st, 0, "trump", card="9S") + do(st, 0, "declare", game="hra")
    ev += do(st, 0, "discard", card="7H") + do(st, 0, "discard", card="8H")
    assert st.view(0)["talon"] == ["7H", "8H"] and st.view(None)["talon_trumps"] == 0
    assert st.to_act() == (1,)
    ev += do(st, 1, "bad")
    v = st.view(None)
    assert v["phase"] == "declare" and v["contract"] is None and v["trump"] is None
    assert v["trump_card"] is None and v["talon_trumps"] is None and v["hand_sizes"] == [10, 12, 10]
    assert st.view(1)["hand"] == canon("JS 10S KH QH 8H 7H QD JD 10D AC KC QC")
    assert st.view(0)["talon"] == []
    assert [a["game"] for a in st.legal_actions(1)] == ["betl", "durch"]
    ev += do(st, 1, "declare", game="betl")
    ev += do(st, 1, "discard", card="AC") + do(st, 1, "discard", card="KC")
    assert st.view(1)["talon"] == ["AC", "KC"] and st.view(0)["talon"] == []
    assert not harness.cards_in(st.view(0)) & {"AC", "KC"}
    assert st.to_act() == (2,)
    ev += do(st, 2, "good")
    assert st.to_act() == (0,)
    ev += do(st, 0, "bad")
    assert st.view(0)["hand"] == canon("AS KS QS 9S AH 9H AD KD AC KC 8C 7C")
    assert [a["game"] for a in st.legal_actions(0)] == ["durch"]
    ev += do(st, 0, "declare", game="durch")
    ev += do(st, 0, "discard", card="KD") + do(st, 0, "discard", card="9H")
    assert st.view(None)["phase"] == "flek" and st.to_act() == (1,)
    ev += do(st, 1, "pass")
    assert kinds(st, 2) == ["flek", "pass"]
    ev += do(st, 2, "flek")
    assert kinds(st, 0) == ["re", "pass"]
    ev += do(st, 0, "pass")
    assert st.view(None)["flek"] == 1 and st.to_act() == (0,)
    assert [(e["type"], e.get("game")) for e in ev if e["type"] in ("declare", "bad", "good")] == [
        ("declare", "hra"), ("bad", None), ("declare", "betl"), ("good", None), ("bad", None),
        ("declare", "durch")]
    assert [e["over"] for e in of_type(ev, "declare")] == [None, "hra", "betl"]
    ev = play_tricks(st, ["AS JS 8S", "AD 10D 7D", "7C"])
    assert legal_cards(st) == ["QC"]  # M must beat the 7C
    ev += do(st, 1, "play", card="QC")
    assert legal_cards(st) == ["JC", "10C", "9C"]
    ev += do(st, 2, "play", card="9C")
    return ev


def test_example_c_betl_over_hra_then_durch():
    st = new(*C_DEAL)
    ev = example_c(st)
    assert of_type(ev, "play_stopped")[0]["trick"] == 3
    r = st.view(2)["last_result"]
    assert r["contract"] == "durch" and r["soloist"] == 0 and r["flek"] == 1 and r["trump"] is None
    assert r["trick_winners"] == [0, 0, 1]
    assert r["components"] == [["durch", False, 10]]
    assert r["units"] == -20 and r["deltas"] == [-40, 20, 20]
    assert deal_end(ev)["payments"] == [[0, 1, 20], [0, 2, 20]]
    assert st.stacks == [160, 220, 220]


def test_payments_capped_by_a_short_stack_then_broke_end():
    st = new(*C_DEAL, buy_in=30)
    ev = example_c(st)
    end = deal_end(ev)
    assert end["units"] == -20
    assert end["payments"] == [[0, 1, 20], [0, 2, 10]]  # seat 0 had only 10 left for seat 2
    assert end["deltas"] == [-30, 20, 10]
    assert st.stacks == [0, 50, 40] and st.is_over() and st.to_act() == ()
    (se,) = of_type(ev, "session_end")
    assert se["reason"] == "broke" and se["results"] == [-30, 20, 10] and se["ranks"] == [3, 1, 2]


# --------------------------------------------------------------------------- flek, concession


def test_flek_ladder_up_to_max_flek():
    st = new(*H8, concede_plain=False)
    setup_suit(st, "8H", "hra", ("7S", "7D"), fleks=())
    assert st.to_act() == (1,) and kinds(st, 1) == ["flek", "pass"]
    do(st, 1, "flek")
    assert st.to_act() == (0,) and kinds(st, 0) == ["re", "pass"]
    do(st, 0, "re")
    assert st.to_act() == (1,) and st.view(None)["flek"] == 2
    do(st, 1, "pass")
    assert st.to_act() == (2,) and kinds(st, 2) == ["flek", "pass"]
    ev = do(st, 2, "flek")  # tutti reaches max_flek = 3: the phase ends at once
    assert ev[0] == {"type": "flek", "seat": 2, "level": 3, "name": "tutti"}
    assert st.view(None)["phase"] == "play" and st.view(None)["flek"] == 3 and st.to_act() == (0,)
    play_tricks(st, H8_TRICKS)
    r = st.view(None)["last_result"]
    assert r["components"] == [["hra", True, 5], ["silent_seven", True, 1]]
    assert r["units"] == 6 * 2 * 8 and r["deltas"] == [192, -96, -96]

    st = new(*H8, max_flek=1)
    setup_suit(st, "8H", "hra", ("7S", "7D"), fleks=("pass", "flek"))
    assert st.view(None)["phase"] == "play" and st.view(None)["flek"] == 1

    st = new(*H8, max_flek=4)
    setup_suit(st, "8H", "hra", ("7S", "7D"), fleks=("flek", "re", "flek"))
    assert st.to_act() == (0,) and kinds(st, 0) == ["re", "pass"]
    do(st, 0, "re")
    assert st.view(None)["phase"] == "play" and st.view(None)["flek"] == 4

    st = new(*H8)
    setup_suit(st, "8H", "sedma", ("7S", "7D"), fleks=("flek", "pass"))
    assert st.view(None)["phase"] == "play" and st.view(None)["flek"] == 1


def test_conceded_plain_hra_hearts_doubled():
    st = new(*H8)
    ev = setup_suit(st, "8H", "hra", ("7S", "7D"))
    assert of_type(ev, "conceded") == [{"type": "conceded", "seat": 0, "contract": "hra", "trump": "H"}]
    r = st.view(None)["last_result"]
    assert r["conceded"] is True and r["contract"] == "hra" and r["trump"] == "H" and r["flek"] == 0
    assert r["components"] == [["hra", True, 1]]  # no silent hundred in a concession
    assert r["units"] == 2 and r["deltas"] == [4, -2, -2]
    assert r["trick_winners"] == [] and r["points"] == [0, 0]
    assert not of_type(ev, "play")
    assert st.view(None)["phase"] == "trump" and st.view(None)["dealer"] == 0  # next deal: dealer left


def test_flekked_hra_is_played_not_conceded():
    st = new(*H8)
    setup_suit(st, "8H", "hra", ("7S", "7D"), fleks=("pass", "flek", "pass"))
    assert st.view(None)["phase"] == "play" and st.view(None)["flek"] == 1


# --------------------------------------------------------------------------- session, results


def run_timeouts(st, limit: int = 5000) -> list[dict]:
    events: list[dict] = []
    for _ in range(limit):
        if st.is_over():
            return events
        seat = st.to_act()[0]
        events += st.apply(seat, st.timeout_action(seat))
    raise AssertionError("no end")


@pytest.mark.parametrize("concede", [True, False])
def test_session_lasts_three_times_rounds_deals(concede):
    st = G.new_table(seats=3, options=G.validate_options({"rounds": 1, "dealer": 1,
                                                          "concede_plain": concede}), seed=7)
    ev = run_timeouts(st)
    assert [e["dealer"] for e in of_type(ev, "deal_start")] == [2, 0]  # deal 0 (dealer 1) began earlier
    ends = of_type(ev, "deal_end")
    assert len(ends) == 3 and [e["deal"] for e in ends] == [0, 1, 2]
    (se,) = of_type(ev, "session_end")
    assert se["reason"] == "rounds" and se["deals_played"] == 3
    assert se["results"] == [s - 200 for s in st.stacks] and sum(st.stacks) == 600
    assert [sum(e["deltas"][i] for e in ends) for i in range(3)] == se["results"]
    v = st.view(None)
    assert v["phase"] == "session_end" and v["to_act"] == [] and v["deals_played"] == 3
    assert v["last_result"] == {k: v for k, v in ends[-1].items() if k in RESULT_KEYS}
    assert st.request_close() == [] and st.request_close(now=True) == []
    if concede:
        assert all(e["conceded"] for e in ends)  # timeouts declare hra and nobody fleks


def test_last_result_keys_and_view_fields():
    st = new(*H8)
    assert st.view(None)["last_result"] is None
    setup_suit(st, "8H", "hra", ("7S", "7D"))
    for seat in (0, 1, 2, None):
        v = st.view(seat)
        assert set(v["last_result"]) == RESULT_KEYS
        json.dumps(v)
        for key in ("phase", "to_act", "stacks", "pot", "dealer", "deal", "deals_played", "closing",
                    "soloist", "contract", "trump", "trump_card", "flek", "talon_trumps", "hand",
                    "hand_sizes", "trick", "trick_winners", "card_points", "marriages", "points"):
            assert key in v, key
    r = st.view(1)["last_result"]
    assert r == {"contract": "hra", "soloist": 0, "trump": "H", "flek": 0, "conceded": True,
                 "components": [["hra", True, 1]], "units": 2, "deltas": [4, -2, -2], "points": [0, 0],
                 "card_points": [0, 0, 0], "marriages": [], "trick_winners": []}
    r["deltas"][0] = 99  # views are copies
    assert st.view(1)["last_result"]["deltas"] == [4, -2, -2]


def test_trick_view_during_play():
    st = new(*H8, concede_plain=False)
    setup_suit(st, "8H", "hra", ("7S", "7D"), fleks=("flek", "pass"))
    v = st.view(None)
    assert v["soloist"] == 0 and v["contract"] == "hra" and v["points"] == [0, 0]
    do(st, 0, "play", card="AH")
    do(st, 1, "play", card="AC")
    assert st.view(2)["trick"] == [[0, "AH"], [1, "AC"]]
    ev = do(st, 2, "play", card="KC")
    assert of_type(ev, "trick") == [{"type": "trick", "trick": 1, "winner": 0, "card": "AH",
                                     "cards": [[0, "AH"], [1, "AC"], [2, "KC"]], "card_points": [20, 0, 0]}]
    v = st.view(None)
    assert v["trick"] == [] and v["trick_winners"] == [0] and v["card_points"] == [20, 0, 0]
    assert v["points"] == [20, 0]


# --------------------------------------------------------------------------- timeouts


def test_timeouts_for_each_phase():
    st = new("9S KD 8C AD QS JS QD", "10D KC QC JC 8S", A_M,
             "KS 10S AH QH 10H 9H JD 8D AC 9C", concede_plain=False)
    with pytest.raises(IllegalMove):
        st.timeout_action(1)
    assert st.timeout_action(0) == {"type": "trump", "card": "QS"}  # first listed: canonical first seven
    do(st, 0, "trump", card="8C")
    assert st.timeout_action(0) == {"type": "declare", "game": "hra"}
    do(st, 0, "declare", game="hra")
    assert st.timeout_action(0) == {"type": "discard", "card": legal_cards(st)[-1]}
    assert st.timeout_action(0) == {"type": "discard", "card": "JC"}
    do(st, 0, "discard", card="QS")
    do(st, 0, "discard", card="JS")
    assert st.timeout_action(1) == {"type": "good"}
    do(st, 1, "good")
    assert st.timeout_action(2) == {"type": "good"}
    do(st, 2, "good")
    assert st.timeout_action(1) == {"type": "pass"}
    do(st, 1, "flek")
    assert st.timeout_action(0) == {"type": "pass"}
    do(st, 0, "pass")
    # S holds 9S 8S AD KD QD 10D KC QC JC 8C: lowest rank 8, spades first
    assert st.timeout_action(0) == {"type": "play", "card": "8S"}
    do(st, 0, "play", card="9S")
    assert st.timeout_action(1) == {"type": "play", "card": "AS"}
    do(st, 1, "play", card="AS")
    assert st.timeout_action(2) == {"type": "play", "card": "KS"}  # K ranks below 10 in suit contracts
    with pytest.raises(IllegalMove):
        st.timeout_action(0)


# --------------------------------------------------------------------------- request_close


def test_request_close_before_anyone_acts_voids_at_once():
    st = new(*H8)
    ev = st.request_close()
    assert [e["type"] for e in ev] == ["deal_void", "session_end"]
    assert st.is_over() and st.stacks == [200, 200, 200] and ev[-1]["results"] == [0, 0, 0]
    assert ev[-1]["reason"] == "closed"
    assert st.request_close() == []


def test_request_close_at_end_of_deal():
    st = G.new_table(seats=3, options=G.validate_options({"dealer": 2, "decks": [deck_of(*H8)] * 2}),
                     seed=3)
    setup_suit(st, "8H", "hra", ("7S", "7D"))  # deal 0 conceded: +4 −2 −2
    assert st.stacks == [204, 198, 198]
    do(st, 1, "trump", card=st.legal_actions(1)[0]["card"])  # deal 1: dealer 0, forehand 1
    ev = st.request_close()
    assert ev == [{"type": "closing", "deal": 1}]
    assert all(st.view(s)["closing"] for s in (0, 1, 2, None)) and not st.is_over()
    ev = run_timeouts(st)
    end = deal_end(ev)
    (se,) = of_type(ev, "session_end")
    assert se["reason"] == "closed" and se["deals_played"] == 2
    assert not of_type(ev, "deal_start")
    assert st.stacks == [204 + end["deltas"][0], 198 + end["deltas"][1], 198 + end["deltas"][2]]
    assert sum(st.stacks) == 600 and se["results"] == [s - 200 for s in st.stacks]


def test_request_close_now_abandons_the_deal():
    st = G.new_table(seats=3, options=G.validate_options({"dealer": 2, "decks": [deck_of(*H8)] * 2,
                                                         "concede_plain": False}), seed=3)
    setup_suit(st, "8H", "hra", ("7S", "7D"), fleks=("flek", "pass"))
    play_tricks(st, H8_TRICKS)
    assert st.stacks == [248, 176, 176]  # (5 + 1) × hearts 2 × flek 2 = 24 from each defender
    harness.play(st, [(1, {"type": "trump", "card": st.legal_actions(1)[0]["card"]})])
    ev = st.request_close(now=True)
    assert [e["type"] for e in ev] == ["deal_void", "session_end"]
    assert st.stacks == [248, 176, 176] and ev[-1]["results"] == [48, -24, -24]
    assert ev[-1]["ranks"] == [1, 2, 2]
    assert st.is_over() and st.view(0)["closing"] is True and st.legal_actions(1) == []


# --------------------------------------------------------------------------- malformed actions


def test_malformed_actions_refused_with_state_unchanged():
    st = new(*H8)
    bad_trump = [None, {}, [], "trump", {"type": "trump"}, {"type": "trump", "card": 5},
                 {"type": "trump", "card": "7H"},  # a blind card
                 {"type": "trump", "card": "AH", "extra": 1}, {"type": "trump_blind", "card": "7H"},
                 {"type": "play", "card": "AH"}, {"type": 3}, {"type": "declare", "game": "hra"}]
    for action in bad_trump:
        harness.assert_refused(st, 3, 0, action)
    for seat in (1, 2, 3, -1, None, True, "0"):
        harness.assert_refused(st, 3, seat, {"type": "trump", "card": "AH"})
    do(st, 0, "trump", card="8H")
    for action in ({"type": "declare", "game": "kilo_sedma "}, {"type": "declare"},
                   {"type": "declare", "game": None}, {"type": "declare", "game": "grand"}):
        harness.assert_refused(st, 3, 0, action)
    do(st, 0, "declare", game="hra")
    for card in ("AH", "10H", "8H", "AS", "KS", "ZZ"):  # sharp, trump card, not in hand, bogus
        harness.assert_refused(st, 3, 0, {"type": "discard", "card": card})
    do(st, 0, "discard", card="7S")
    do(st, 0, "discard", card="7D")
    harness.assert_refused(st, 3, 2, {"type": "good"})  # M speaks first
    harness.assert_refused(st, 3, 1, {"type": "flek"})
    do(st, 1, "good")
    do(st, 2, "good")
    harness.assert_refused(st, 3, 1, {"type": "re"})
    harness.assert_refused(st, 3, 0, {"type": "pass"})
    do(st, 1, "flek")
    harness.assert_refused(st, 3, 0, {"type": "flek"})
    do(st, 0, "pass")
    do(st, 0, "play", card="AH")
    harness.assert_refused(st, 3, 1, {"type": "play", "card": "QS"})  # not in M's hand
    harness.assert_refused(st, 3, 1, {"type": "play", "card": "7H"})
    harness.assert_refused(st, 3, 1, {"type": "play", "card": "AC", "seat": 1})
    harness.assert_refused(st, 3, 0, {"type": "play", "card": "10H"})
    harness.assert_refused(st, 3, 1, {"card": "AC"})


def test_must_follow_refused_in_play():
    st = new(*KILOL)
    setup_suit(st, "7D", "kilo", ("KH", "JH"))
    play_tricks(st, ["10D"])
    exc = harness.assert_refused(st, 3, 1, {"type": "play", "card": "AS"})  # must follow diamonds
    assert "not allowed" in exc.reason
    assert legal_cards(st) == ["JD", "8D"]


# --------------------------------------------------------------------------- label, narrate


def test_label_and_narrate_cover_a_session():
    st, log = harness.random_session("marias", 3, 5, {"rounds": 1, "concede_plain": False},
                                     probe_every=0, leak_every=0, check_replay=False)
    replay = G.new_table(seats=3, options=G.validate_options({"rounds": 1, "concede_plain": False}), seed=5)
    lines = []
    for seat, action in log:
        assert isinstance(G.label(action), str) and G.label(action)
        for e in replay.apply(seat, action):
            line = G.narrate(e, lambda s: f"P{s}")
            assert isinstance(line, str) and line
            lines.append(line)
    assert any("Session over" in x for x in lines)
    assert G.label({"type": "trump", "card": "10H"}) == "Trump ♥ (10♥)"
    assert G.label({"type": "declare", "game": "kilo_sedma"}) == "Kilo + sedma"
    assert len(G.summary.split(". ")) >= 3


# --------------------------------------------------------------------------- random sessions


@pytest.mark.parametrize("opts", [
    {},
    {"concede_plain": False, "rounds": 2},
    {"max_flek": 4, "concede_plain": False, "stake": 3, "buy_in": 60},
    {"max_flek": 1, "rounds": 1},
])
def test_random_sessions(opts):
    for seed in range(8):
        harness.random_session("marias", 3, seed, opts, probe_every=7, leak_every=3)


def test_clone_independent():
    for seed in range(4):
        harness.check_clone_independent("marias", 3, seed, steps=60)
    st = new(*H8, concede_plain=False)
    setup_suit(st, "8H", "hra", ("7S", "7D"), fleks=("flek", "pass"))
    twin = st.clone()
    play_tricks(twin, H8_TRICKS[:3])
    assert st.view(0)["hand"] == canon("AH 10H KH QH JH 9H 8H 7H AS AD")
    assert st.view(None)["marriages"] == [] and twin.view(None)["marriages"] == [[0, "H", 40]]
    play_tricks(st, H8_TRICKS)
    play_tricks(twin, H8_TRICKS[3:])
    assert st.view(None) == twin.view(None)
