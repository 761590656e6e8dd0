"""Czech Marias narration names a contract as a name (after a colon), never as an object the sentence
would decline: "hlásí Hra" and "místo Betl" are wrong Czech (hlásí hru, místo betlu)."""

from __future__ import annotations

import pytest

from bot.i18n import translator
from bot.rules import GAMES

NAMES = ["Jan", "Petr", "Eva"]
CONTRACTS = ["hra", "sedma", "kilo", "kilo_sedma", "betl", "durch"]


@pytest.mark.parametrize("game", CONTRACTS)
def test_a_declared_contract_reads_as_czech(game: str) -> None:
    tr = translator("cs")
    narrate = GAMES["marias"].narrate
    title = {"hra": "Hra", "sedma": "Sedma", "kilo": "Kilo", "kilo_sedma": "Kilo + sedma",
             "betl": "Betl", "durch": "Durch"}[game]
    lines = [narrate({"type": "declare", "seat": 0, "game": game}, NAMES.__getitem__, tr),
             narrate({"type": "declare", "seat": 1, "game": "durch", "over": game}, NAMES.__getitem__, tr),
             narrate({"type": "bad", "seat": 2, "over": game}, NAMES.__getitem__, tr)]
    for line in lines:
        assert line is not None
        assert f"hlásí {title}" not in line and f"místo {title}" not in line, line
    assert lines[0] == f"Jan hlásí: {title}."


def test_a_deal_result_does_not_put_every_contract_in_the_neuter() -> None:
    """"betl prohráno", "hra vyhráno", "sedma prohráno" are wrong Czech (betl is masculine, hra and
    sedma feminine), and so is "-2 jednotek" (2 jednotky): the result names each part's outcome with a
    noun that needs no agreement, and the units after a colon."""
    tr = translator("cs")
    event = {"type": "deal_end", "contract": "sedma", "soloist": 0, "trump": "H", "conceded": False,
             "flek": 0, "components": [["hra", True, 1], ["sedma", False, 2]], "points": [70, 50],
             "units": -2, "payments": [[0, 1, 4], [0, 2, 4]]}
    line = GAMES["marias"].narrate(event, NAMES.__getitem__, tr)
    assert line is not None
    assert "vyhráno" not in line and "prohráno" not in line, line
    assert "hra – výhra (1), sedma – prohra (2)" in line, line
    assert "jednotky: −2" in line and "2 jednotek" not in line, line  # not "−2 jednotek" (jednotky)
    betl = dict(event, contract="betl", trump=None, components=[["betl", False, 5]], points=[0, 0])
    line = GAMES["marias"].narrate(betl, NAMES.__getitem__, tr)
    assert line is not None and "betl – prohra (5)" in line, line
