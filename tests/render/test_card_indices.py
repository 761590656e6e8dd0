"""The words printed on the card faces follow the reader's language (see ``bot.render.cards``):
V D R A on a French-deck card in French, Sp Sv K A in Czech, J Q K A in English; the Spanish
deck keeps its numbers; the sprite cache keeps each language's faces apart."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from bot.i18n import translator
from bot.render import cards
from bot.render.canvas import Canvas
from tests.render.golden import REGEN, check_golden

WIDTH = 120


def png(sprite: Image.Image) -> bytes:
    out = Image.new("RGB", sprite.size, (255, 255, 255))
    out.paste(sprite, (0, 0), sprite)
    buf = io.BytesIO()
    out.save(buf, "PNG")
    return buf.getvalue()


def differs(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int]) -> int:
    """Pixels of ``box`` whose colour differs clearly between ``a`` and ``b``."""
    diff = ImageChops.difference(a.crop(box).convert("L"), b.crop(box).convert("L"))
    return sum(diff.point(lambda v: 255 if v > 60 else 0).histogram()[255:])


def test_the_queen_shows_d_in_french_and_q_in_english() -> None:
    fr = cards.face("QH", False, WIDTH, tr=translator("fr"))
    en = cards.face("QH", False, WIDTH, tr=translator("en"))
    check_golden("card_QH_fr", png(fr))  # looked at: "D" in the corners and the centre
    check_golden("card_QH_en", png(en))  # "Q", exactly the sprite drawn before the catalogue
    if not REGEN:  # the goldens tell the letters apart: the English queen is no French one
        with pytest.raises(AssertionError, match="differ"):
            check_golden("card_QH_fr", png(en))
    corner = (0, 0, WIDTH // 3, WIDTH // 3)
    assert differs(fr, en, corner) > 40  # the index itself differs, not only the centre
    assert cards.marks("QH", False, translator("fr")) == "D"
    assert cards.marks("QH", False, translator("en")) == "Q"


def test_czech_and_spanish_faces() -> None:
    cs = translator("cs")
    assert [cards.marks(c, False, cs) for c in ("JS", "QS", "KS", "AS", "10S")] == ["Sp", "Sv", "K", "A", ""]
    assert [cards.marks(c, False, translator("fr")) for c in ("JS", "QS", "KS", "AS")] == ["V", "D", "R", "A"]
    check_golden("card_QH_cs", png(cards.face("QH", False, WIDTH, tr=cs)))
    # the Spanish deck prints its numbers in every language; only the figures' captions change
    assert cards.marks("7O", True, cs) == ""
    figures = ("10O", "11O", "12O")
    assert [cards.marks(c, True, translator("fr")) for c in figures] == ["VALET", "CAVALIER", "ROI"]
    assert [cards.marks(c, True, translator("es")) for c in figures] == ["SOTA", "CABALLO", "REY"]
    assert cards.marks("X1", False, translator("es")) == "COMODÍN"


def test_the_sprite_cache_keeps_languages_apart() -> None:
    cards._cache.clear()
    fr = cards.face("KD", False, 90, tr=translator("fr"))
    en = cards.face("KD", False, 90, tr=translator("en"))
    es = cards.face("KD", False, 90, tr=translator("es"))
    assert fr is not en and differs(fr, en, (0, 0, 90, 126)) > 0
    assert es is en  # the same words, the same sprite: one drawing shared by both languages
    nine = cards.face("9D", False, 90, tr=translator("fr"))
    assert nine is cards.face("9D", False, 90, tr=translator("cs"))  # digits: one sprite for all
    # a table or hand canvas draws its faces in its own language
    canvas = Canvas(200, 200, tr=translator("fr"))
    canvas.card("KD", 0, 0, 90)
    assert canvas.img.crop((0, 0, 90, 126)).tobytes() == _flat(fr, canvas.img.getpixel((150, 150)))


def _flat(sprite: Image.Image, background: tuple[int, ...]) -> bytes:
    out = Image.new("RGB", sprite.size, background[:3])
    out.paste(sprite, (0, 0), sprite)
    return out.tobytes()


def test_a_replays_hands_band_prints_the_faces_in_its_language(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.render.replay import hands_band
    from bot.rules.base import PLAIN

    printed: list[str] = []
    face = cards.face

    def record(code: str, spanish: bool, width: int, highlight: bool = False, tr=PLAIN, look=None):  # type: ignore[no-untyped-def]
        printed.append(cards.marks(code, spanish, tr))
        return face(code, spanish, width, highlight, tr, look)

    monkeypatch.setattr(cards, "face", record)
    hands_band("motz", ["Ann", "Bob"], [["QH", "9S"], ["KD"]], translator("fr"))
    assert sorted(printed) == ["", "D", "R"]
