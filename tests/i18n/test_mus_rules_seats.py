"""/rules game:mus names the pairs by the seat numbers the lobby shows (1 to 4: "`1.`", "Seat 1"), not
by 0-based indices ("seats 0 & 2 against 1 & 3" read as seat 2 partnering a seat 0 nobody sees)."""

from __future__ import annotations

import pytest

from bot.i18n import translator
from bot.rules import GAMES


@pytest.mark.parametrize(("lang", "pairs"), [
    ("en", "seats 1 & 3 against 2 & 4"), ("fr", "places 1 et 3 contre 2 et 4"),
    ("es", "asientos 1 y 3 contra 2 y 4"),
    ("eu", "1 eta 3 eserlekuak, 2 eta 4 eserlekuen aurka"), ("cs", "místa 1 a 3 proti 2 a 4"),
])
def test_the_mus_summary_numbers_seats_as_the_lobby_does(lang: str, pairs: str) -> None:
    text = translator(lang)._(GAMES["mus"].summary)
    assert pairs in text and " 0 " not in text, text
