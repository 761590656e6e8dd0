"""Words drawn into the images: every one through the catalogue, and golden tables in fr / es / cs."""

from __future__ import annotations

import re

import pytest

from bot.i18n import translator
from bot.render import hand_image, leaderboard_image, table_image
from bot.render.canvas import Canvas
from tests.render.golden import check_golden, reduce
from tests.render.samples import NAMES, SAMPLES, VARIANTS

#: What may be drawn outside the pseudo-locale's markers: player names, numbers, card and suit
#: symbols, signs, and the one-letter marks (dealer "D", Mus teams "A" / "B").
NEUTRAL = re.compile(r"^[\d\s.,:;+\-−–—×%/=()▶✓✗·♠♥♦♣?→\ue000-\ue003]*$")  # + the Czech suit signs


def _drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    original = Canvas.text

    def text(self: Canvas, xy, s, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(s)
        return original(self, xy, s, *args, **kwargs)

    monkeypatch.setattr(Canvas, "text", text)
    return seen


def _unmarked(texts: list[str], names: list[str]) -> list[str]:
    out = []
    for s in texts:
        rest = re.sub(r"⟦[^⟦⟧]*⟧", "", s)
        while "⟦" in rest:  # nested markers
            rest = re.sub(r"⟦[^⟦⟧]*⟧", "", rest)
        for name in sorted(names, key=len, reverse=True):
            rest = rest.replace(name, "")
        rest = re.sub(r"\b(?:10|[2-9JQKA])[♠♥♦♣]", "", rest)
        rest = re.sub(r"\b[ABD]\b", "", rest)  # dealer mark, Mus teams
        if not NEUTRAL.match(rest):
            out.append(s)
    return out


@pytest.mark.parametrize("game", sorted(SAMPLES))
def test_every_word_of_the_table_and_hand_images_goes_through_the_catalogue(
        game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _drawn(monkeypatch)
    pseudo = translator("pseudo")
    view, names = VARIANTS[game]
    table_image(game, SAMPLES[game], NAMES[game], pseudo)
    table_image(game, view, names, pseudo)
    hand_image(game, {**SAMPLES[game], "hand": []}, None, pseudo)
    assert drawn and _unmarked(drawn, NAMES[game] + names) == []


def test_leaderboard_words_go_through_the_catalogue(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _drawn(monkeypatch)
    leaderboard_image([{"name": "Řehoř", "jetons": 1520, "games": 4}], tr=translator("pseudo"))
    leaderboard_image([], tr=translator("pseudo"))
    assert _unmarked(drawn, ["Řehoř"]) == []


LANG_TABLES = [
    ("motz", "fr", ["Hélène", "Benoît", "Séverine", "Théo"]),
    ("mus", "es", ["Iñaki", "Begoña", "Nerea", "Peña"]),
    ("marias", "cs", ["Řehoř", "Jiří", "Věra"]),
    ("maitre", "fr", ["Léonie", "Gaëtan", "Aimée", "Noël"]),
]


@pytest.mark.parametrize(("game", "lang", "names"), LANG_TABLES)
def test_table_golden_in_the_tables_language(game: str, lang: str, names: list[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Diacritics render (ř, ě, ñ, é); the words are the language's, not the English ones."""
    drawn = _drawn(monkeypatch)
    png = table_image(game, SAMPLES[game], names, translator(lang))
    check_golden(f"table_{game}_{lang}", png)
    english = table_image(game, SAMPLES[game], names)
    assert reduce(png).tobytes() != reduce(english).tobytes()
    expected = {"fr": {"motz": "Dernière donne", "maitre": "dernier : Gaëtan"}, "es": {"mus": "juegos 1"},
                "cs": {"marias": "Poslední rozdání"}}[lang][game]
    assert expected in drawn


def test_table_golden_in_czech_michigan_and_spanish_leaderboard() -> None:
    check_golden("table_michigan_cs", table_image("michigan", SAMPLES["michigan"],
                                                  ["Přemysl", "Dvořák", "Šárka", "Ěva", "Čeněk", "Žofie"],
                                                  translator("cs")))
    rows = [{"name": "Begoña", "jetons": 12500, "games": 40}, {"name": "Iñaki", "jetons": -60, "games": 3}]
    check_golden("leaderboard_es", leaderboard_image(rows, tr=translator("es")))
    check_golden("hand_mus_es", hand_image("mus", {**SAMPLES["mus"], "hand": []}, None, translator("es")))


@pytest.mark.parametrize("game", sorted(SAMPLES))
def test_the_words_on_the_card_faces_go_through_the_catalogue(game: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Rank indices, Spanish figures' and jokers' captions printed on the sprites (issue 14)."""
    from bot.render import cards

    printed: list[str] = []
    marks = cards.marks

    def record(code: str, spanish: bool, tr=None, look=None):  # type: ignore[no-untyped-def]
        word = marks(code, spanish, tr, look) if tr is not None else marks(code, spanish)
        printed.append(word)
        return word

    monkeypatch.setattr(cards, "marks", record)
    pseudo = translator("pseudo")
    view, names = VARIANTS[game]
    table_image(game, SAMPLES[game], NAMES[game], pseudo)
    table_image(game, view, names, pseudo)
    figures = ["10O", "11C", "12E", "1B"] if game == "mus" else ["JH", "QS", "KD", "AC", "X1"]
    if game != "maitre":
        figures = figures[:4]
    hand_image(game, {**SAMPLES[game], "hand": figures}, None, pseudo)
    words = [w for w in printed if w]
    assert words and all(w.startswith("⟦") and w.endswith("⟧") for w in words), words
