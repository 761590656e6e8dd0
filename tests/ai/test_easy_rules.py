"""Hand-made views: the easy policies make the decisions their docstrings promise."""

from __future__ import annotations

import random

from bot.ai.maitre import easy as maitre
from bot.ai.marias import easy as marias
from bot.ai.michigan import easy as michigan
from bot.ai.motz import easy as motz
from bot.ai.mus import easy as mus

RNG = random.Random(0)


def motz_view(hand: list[str], **kw: object) -> dict:
    view = {"phase": "declare", "to_act": [1], "stacks": [100, 100, 100, 100], "pot": 4, "fine": 4,
            "dealer": 0, "trump": "H", "turn_up": "10H", "declarations": [None, None, None, None],
            "active": [], "hand": hand, "trick": []}
    view.update(kw)
    return view


DECLARE = [{"type": "pass"}, {"type": "stand"}, {"type": "take_muet"}]


def test_motz_stands_with_two_trumps_or_a_jack_only() -> None:
    p = motz.EasyPolicy()
    assert p.choose(motz_view(["7H", "8H", "AS"]), DECLARE, RNG)["type"] == "stand"
    assert p.choose(motz_view(["JD", "7S", "8C"]), DECLARE, RNG)["type"] == "stand"  # second jack
    assert p.choose(motz_view(["7S", "8C", "9D"], pot=4), DECLARE, RNG)["type"] == "pass"  # pot not worth it
    # two low trumps but the fine is most of the stack: pass
    risky = motz_view(["7H", "8H", "9S"], pot=60, fine=60, stacks=[100, 100, 100, 100])
    assert p.choose(risky, DECLARE, RNG)["type"] == "pass"
    # cannot cover the fine: only pass is legal, and it is played
    assert p.choose(motz_view(["JH", "AH", "KH"]), [{"type": "pass"}], RNG) == {"type": "pass"}


def test_motz_wins_cheaply_when_last_and_ducks_when_beaten() -> None:
    p = motz.EasyPolicy()
    view = motz_view(["AH", "7H"], phase="play", active=[0, 1], trick=[[0, "KH"]])
    legal = [{"type": "play", "card": "AH"}, {"type": "play", "card": "7H"}]
    assert p.choose(view, legal, RNG)["card"] == "AH"
    view["trick"] = [[0, "JH"]]
    assert p.choose(view, legal, RNG)["card"] == "7H"


def mus_view(hand: list[str], **kw: object) -> dict:
    view = {"phase": "mus", "to_act": [0], "hand": hand, "mano": 0, "points": [0, 0], "bet": None,
            "declared": {"pares": None, "juego": None}}
    view.update(kw)
    return view


def test_mus_cuts_with_a_good_hand_and_keeps_kings() -> None:
    p = mus.EasyPolicy()
    legal = [{"type": "mus"}, {"type": "no_mus"}]
    assert p.choose(mus_view(["3O", "12C", "11E", "1B"]), legal, RNG)["type"] == "no_mus"  # 31
    assert p.choose(mus_view(["4O", "5C", "6E", "7B"]), legal, RNG)["type"] == "mus"
    hand = ["3O", "12C", "5E", "6B"]
    discards = [{"type": "discard", "cards": c} for c in (["5E"], ["6B"], ["5E", "6B"], ["3O", "5E"])]
    assert p.choose(mus_view(hand, phase="discard"), discards, RNG)["cards"] == ["5E", "6B"]


def test_mus_answers_by_strength() -> None:
    p = mus.EasyPolicy()
    legal = [{"type": "quiero"}, {"type": "no_quiero"}, {"type": "ordago"}]
    bet = {"total": 20, "held": 1, "team": 1}
    strong = mus_view(["3O", "12C", "3E", "12B"], phase="grande", bet=bet)
    weak = mus_view(["4O", "5C", "1E", "2B"], phase="grande", bet=bet)
    assert p.choose(strong, legal, RNG)["type"] == "quiero"
    assert p.choose(weak, legal, RNG)["type"] == "no_quiero"
    ordago = {"total": "ordago", "held": 1, "team": 1}
    assert p.choose(mus_view(["4O", "5C", "1E", "2B"], phase="grande", bet=ordago), legal[:2], RNG)["type"] \
        == "no_quiero"


def test_marias_trump_and_contract() -> None:
    p = marias.EasyPolicy()
    first7 = ["AS", "10S", "KS", "9S", "7H", "8D", "9C"]
    legal = [{"type": "trump", "card": c} for c in first7] + [{"type": "trump_blind"}]
    assert p.choose({"hand": first7, "to_act": [0]}, legal, RNG) == {"type": "trump", "card": "9S"}
    hand = ["AS", "10S", "KS", "9S", "8S", "7S", "AH", "7D", "8D", "9C", "KC", "QD"]
    legal = [{"type": "declare", "game": g} for g in ("hra", "sedma", "betl", "durch")]
    view = {"hand": hand, "to_act": [0], "trump": "S", "phase": "declare"}
    assert p.choose(view, legal, RNG)["game"] in ("hra", "sedma")
    low = ["7S", "8S", "9S", "7H", "8H", "7D", "8D", "9D", "7C", "8C", "KC", "AC"]
    assert p.choose({**view, "hand": low}, legal, RNG)["game"] == "betl"


def test_michigan_leads_toward_its_pay_card_and_stop() -> None:
    p = michigan.EasyPolicy()
    view = {"phase": "play", "to_act": [0], "hand": ["9S", "10S", "JS", "QS", "KS", "AS", "2H", "7D"],
            "hand_sizes": [8, 10, 10, 10], "played": [[], [], [], []], "pot": [4, 4, 4, 10]}
    legal = [{"type": "lead", "suit": s} for s in "SHD"]
    assert p.choose(view, legal, RNG) == {"type": "lead", "suit": "S"}


def test_maitre_coffre_majeure_strongest_mineure_weakest() -> None:
    p = maitre.EasyPolicy()
    hand = ["KH", "QH", "JH", "10H", "9H", "3H", "2S", "5S", "AD", "4C", "7C", "8C"]
    numbers = [c for c in hand if c[:-1] not in ("J", "Q", "K")]
    legal = [{"type": "coffre", "mineure": a, "majeure": b}
             for a in numbers for b in numbers if a[-1] != b[-1]]
    choice = p.choose({"hand": hand, "to_act": [0], "phase": "coffre"}, legal, RNG)
    assert choice["majeure"][-1] == "H" and choice["mineure"] == "AD"
    assert choice["majeure"] == "10H"  # the highest number card of the Majeure goes on top


def test_maitre_coffre_tie_goes_to_the_first_legal_pair() -> None:
    # Spades and hearts both 5 + 12 = 17, diamonds 6: (3D, 9S) and (3D, 9H) both score
    # 3·(17 − 6) + 9 − 3 = 39; the legal order (Mineure card, then Majeure card) puts 9S first.
    hand = ["2S", "9S", "2H", "9H", "3D"]
    assert maitre.likely_coffre(hand) == ("3D", "9S")
    assert maitre.likely_coffre(["4H", "7H", "KS", "X1"]) is None
