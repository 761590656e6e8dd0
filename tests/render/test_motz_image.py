"""The Motz table image as its players read it (a read-through's findings), drawn from real states:
the muet lies face down in the middle of the table while it may still be taken (the image showed no
muet at all, though "Take the muet" was a button), the antes in the bête are named per player (the image read
"Antes (k)"), and a finished session shows no fine at risk nor antes (it read "Fine at risk —",
"Antes (k) 0"); a fine in the last deal reads as one (the French "Séverine amende 20" was a verb,
"to amend", the Spanish "multa" one who fines)."""

from __future__ import annotations

from typing import Any

from bot.i18n.translator import Translator
from bot.render.table import table_canvas
from bot.rules import GAMES
from bot.rules.base import PlainText

MOTZ = GAMES["motz"]
NAMES = ["Ann", "Bob", "Cat", "Dan"]
MIDDLE = (250, 300, 450, 400)  # the felt under the bête, between the plates


class Words(PlainText):
    """English, noting every message the image asks for."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def _(self, msgid: str, /, **params: Any) -> str:
        self.asked.append(msgid)
        return super()._(msgid, **params)


def declared(first: str) -> Any:
    """A four-seat deal dealt by seat 3: seat 0 declares ``first``; seat 1 is to speak."""
    state = MOTZ.new_table(seats=4, options=MOTZ.validate_options({"dealer": 3}), seed=4)
    state.apply(0, {"type": first})
    return state


def drawn(view: dict[str, Any]) -> tuple[Any, list[str]]:
    words = Words()
    canvas = table_canvas("motz", view, NAMES, words)
    return canvas.img.crop(MIDDLE), words.asked


def test_the_muet_lies_face_down_until_it_is_taken() -> None:
    waiting, taken = declared("stand").view(None), declared("take_muet").view(None)
    assert waiting["muet_taken_by"] is None and taken["muet_taken_by"] == 0
    assert waiting["to_act"] == taken["to_act"] == [1] and waiting["pot"] == taken["pot"]
    shown, asked = drawn(waiting)
    gone, asked_after = drawn(taken)
    assert "Muet (face down)" in asked and "Muet (face down)" not in asked_after
    assert shown.tobytes() != gone.tobytes()  # the backs are drawn, not only named
    assert "Antes per player" in asked and "Antes (k)" not in asked


def test_a_finished_session_shows_no_fine_at_risk() -> None:
    state = MOTZ.new_table(seats=4, options=MOTZ.validate_options({"dealer": 3, "rotations": 1}), seed=4)
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, {"type": "pass"})
    _, asked = drawn(state.view(None))
    assert "Bête" in asked
    assert "Fine at risk" not in asked and "Antes per player" not in asked and "Antes (k)" not in asked


class Said(Translator):
    """A reader's words, noting every text the image writes."""

    def __init__(self, lang: str) -> None:
        super().__init__(lang)
        self.said: list[str] = []

    def _(self, msgid: str, /, **params: Any) -> str:
        text = super()._(msgid, **params)
        self.said.append(text)
        return text


def test_the_last_deal_names_a_fine_as_a_fine() -> None:
    state = MOTZ.new_table(seats=4, options=MOTZ.validate_options({"dealer": 3}), seed=4)
    while state.view(None)["last_result"] is None:  # all stand, each plays its first allowed card
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, next((a for a in legal if a["type"] == "stand"), legal[0]))
    fines = state.view(None)["last_result"]["fines"]
    fined = next(i for i, f in enumerate(fines) if f)
    for lang, text in (("fr", "{who} : amende de {n}"), ("es", "{who}: multa de {n}"),
                       ("en", "{who} fined {n}")):
        words = Said(lang)
        table_canvas("motz", state.view(None), NAMES, words)
        assert text.format(who=NAMES[fined], n=fines[fined]) in words.said, (lang, words.said)
