"""Fixed, hand-built views per game (spec section 7 fields), for golden images and leak tests.

Each sample is a spectator view; ``HANDS`` holds a seat's own hand for the hand-image goldens.
They do not depend on the engines, so the goldens stay stable while the engines change.
"""

from __future__ import annotations

from typing import Any

NAMES = {
    "motz": ["Alice", "Bruno", "Chloé", "Dmitri"],
    "michigan": ["Ana", "Ben", "Cleo", "Dev", "Eve", "Finn"],
    "mus": ["Iñaki", "Maite", "Xabier", "Ane"],
    "marias": ["Jan", "Petra", "Karel"],
    "maitre": ["Louise", "Marcel", "Odette", "Paul"],
}

SAMPLES: dict[str, dict[str, Any]] = {
    "motz": {
        "phase": "play", "to_act": [3], "stacks": [180, 200, 165, 215], "pot": 40, "dealer": 0, "deal": 2,
        "closing": False, "hand": [], "deals_played": 2, "k": 2, "fine": 40, "turn_up": "9H", "trump": "H",
        "declarations": ["stand", "pass", "take_muet", "stand"], "muet_taken_by": 2, "active": [0, 2, 3],
        "hand_sizes": [2, 0, 2, 3], "trick": [[0, "AS"], [2, "JD"]], "trick_winners": [2],
        "tricks": [0, 0, 1, 0],
        "last_result": {"cancelled": False, "trick_winners": [0, 0, 3], "payouts": [20, 0, 0, 10],
                        "fines": [0, 0, 20, 0]},
    },
    "michigan": {
        "phase": "play", "to_act": [4], "stacks": [92, 105, 88, 110, 97, 100], "pot": [6, 12, 0, 3],
        "dealer": 1, "deal": 4, "closing": False, "hand": [], "deals_played": 4,
        "hand_sizes": [5, 7, 6, 8, 3, 6], "played": [["2S", "3S", "4S"], [], ["7H", "8H"], ["9C"],
                                                      ["5D", "6D", "7D", "8D", "9D", "10D", "JD"], []],
        "lead_right": 4, "blocked": "D", "bid": None,
        "last_result": {"winner": 3, "cards_left": [2, 0, 4, 0, 1, 3], "payments": [-2, -0, -4, 10, -1, -3],
                        "boodle_hits": [["KC", 1, 8], ["AH", 3, 0]], "dead_hand": None},
    },
    "mus": {
        "phase": "pares", "to_act": [1], "stacks": [190, 210, 190, 210], "pot": 40, "dealer": 3, "deal": 5,
        "closing": False, "hand": [], "mano": 0, "points": [23, 31], "games": [1, 0], "matches_won": [0, 0],
        "mus_round": 1, "discard_counts": [[2, 1, 3, 0]], "stock_count": 16,
        "declared": {"pares": [True, True, False, False], "juego": None},
        "lances": [{"result": "accepted", "total": 4, "held": 2, "team": 1},
                   {"result": "paso", "total": 0, "held": 0, "team": None}],
        "bet": {"total": 2, "held": 1, "team": 0}, "last_hand": None,
    },
    "marias": {
        "phase": "play", "to_act": [2], "stacks": [310, 280, 310], "pot": 0, "dealer": 2, "deal": 7,
        "closing": False, "hand": [], "deals_played": 7, "soloist": 0, "contract": "sedma", "trump": "H",
        "trump_card": "KH", "flek": 1, "talon_trumps": 1, "hand_sizes": [7, 7, 8],
        "trick": [[0, "10S"], [1, "AS"]], "trick_winners": [0, 1], "card_points": [30, 10, 0],
        "marriages": [[0, "H", 40]], "points": [70, 10],
        "last_result": {"contract": "hra", "soloist": 1, "trump": "C", "flek": 0, "conceded": False,
                        "components": [["hra", True, 1]], "units": 1, "deltas": [-10, 20, -10],
                        "points": [60, 30], "card_points": [20, 60, 10], "marriages": [],
                        "trick_winners": [1] * 10},
    },
    "maitre": {
        "phase": "play", "to_act": [3], "stacks": [120, 95, 100, 85], "pot": 20, "dealer": 1, "deal": 5,
        "closing": False, "hand": [], "maitre": 1, "manche": 5, "contract": 60, "mode": "valeur",
        "muet": "C",
        "trick": [{"seat": 2, "card": "7S", "as": "7S"}, {"seat": 0, "card": "7H", "as": "7H"},
                  {"seat": 1, "card": "X1", "as": "7D"}],
        "leader": 2, "last_player": 1, "hand_counts": [9, 8, 10, 11], "discard_counts": [1, 0, 0, 0],
        "tricks_won": [1, 2, 0, 0], "won_cards": [["4S", "5S", "6S"], ["2H", "3H", "AD", "2D"], [], []],
        "coffre": None, "points": [34, 12, -8, 20], "strikes": [0, 1, 0, 0],
        "eliminated": [False, False, False, False], "last_manche": None, "ranking": None,
    },
}

HANDS: dict[str, tuple[list[str], set[str] | None]] = {
    "motz": (["7C", "JH", "AD", "JD", "QH"], {"JH", "JD", "QH"}),
    "michigan": (["KD", "2S", "10H", "3C", "AH", "4S", "9S", "QC"], {"2S", "3C"}),
    "mus": (["12O", "1B", "7C", "11E"], None),
    "marias": (["7S", "KH", "AS", "10S", "QH", "9D", "AC", "JC", "8H", "10C"], {"7S", "AS", "10S"}),
    "maitre": (["X2", "KS", "3H", "AS", "10D", "JC", "X1", "2D"], set()),
}


def _variant(game: str, **changes: Any) -> dict[str, Any]:
    return {**SAMPLES[game], **changes}


#: A second fixed view per game: another phase, another seat count, end-of-deal figures.
VARIANTS: dict[str, tuple[dict[str, Any], list[str]]] = {
    "motz": (_variant("motz", phase="declare", to_act=[1], stacks=[150, 160, 170, 180, 190, 200],
                      dealer=5, declarations=[None, None, None, None, None, "pass"], muet_taken_by=None,
                      hand_sizes=[3, 3, 3, 3, 3, 0], trick=[], trick_winners=[], tricks=[0] * 6,
                      last_result={"cancelled": True, "trick_winners": [], "payouts": [0] * 6,
                                   "fines": [0] * 6}),
             ["Alice", "Bruno", "Chloé", "Dmitri", "Élodie", "Fatou"]),
    "michigan": (_variant("michigan", stacks=[100] * 8, hand_sizes=[6, 6, 5, 6, 6, 6, 5, 5],
                          played=[["AS"], ["2H", "3H"], [], ["4C", "5C", "6C"], [], ["KD"], [],
                                  ["10S", "JS"]],
                          to_act=[6], lead_right=6, blocked=None, bid=[2, 7], last_result=None),
                 ["Ana", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana"]),
    "mus": (_variant("mus", phase="mus", to_act=[0], declared={"pares": None, "juego": None}, lances=[],
                     bet=None, mus_round=0, discard_counts=[],
                     last_hand={"hands": [["1O", "12C", "12E", "7B"], ["3O", "4C", "5E", "6B"],
                                          ["11O", "11C", "2E", "1B"], ["10O", "10C", "10E", "12B"]],
                                "lance_winners": {"grande": 0, "chica": 1, "pares": 3, "juego": None,
                                                  "punto": 0},
                                "counted": [["grande", 0, 1, 0], ["pares", 1, 0, 3]],
                                "points_after": [23, 31], "game_winner": None, "ordago": None}),
            ["Iñaki", "Maite", "Xabier", "Ane"]),
    "marias": (_variant("marias", phase="flek", to_act=[1], contract="betl", trump=None, trump_card=None,
                        flek=2, talon_trumps=None, hand_sizes=[10, 10, 10], trick=[], trick_winners=[],
                        card_points=[0, 0, 0], marriages=[], points=[0, 0]),
               ["Jan", "Petra", "Karel"]),
    "maitre": (_variant("maitre", phase="session_end", to_act=[], stacks=[140, 80, 100, 90, 70, 120],
                        maitre=5, dealer=5, mode=None, muet=None, trick=[], leader=None, last_player=None,
                        hand_counts=[0] * 6, discard_counts=[0] * 6, tricks_won=[0] * 6, won_cards=[[]] * 6,
                        points=[80, -20, 12, 5, -40, 33], strikes=[0, 2, 1, 0, 2, 0],
                        eliminated=[False, True, False, False, True, False],
                        last_manche={"maitre": 5, "contract": 55, "majeure": "H", "mineure": "S",
                                     "validated": True, "manche_points": [3, -2, 0, 1, 4, 30]},
                        ranking=[0, 5, 2, 3, 1, 4]),
               ["Louise", "Marcel", "Odette", "Paul", "Quentin", "Rose"]),
}
