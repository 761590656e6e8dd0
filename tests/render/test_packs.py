"""The Czech pack for Marias and the card faces (issue 30, items 1 and 2).

Goldens: every card of the Czech pack once (a sheet, in Czech and in English: the indices
differ), the French deck in four colours and with large indices. Marias images use the Czech
pack by default; the French-suited faces stay available (the former images, pixel for pixel).
"""

from __future__ import annotations

import io

from PIL import Image

from bot.i18n import translator
from bot.render import cards, hand_image, table_image
from bot.render.czech import draw_czech
from bot.render.suits import BELL_GOLD, FOUR_COLOUR_INK, HEART_RED, LEAF_GREEN, NUT
from bot.rules.base import PLAIN, Text
from bot.rules.cards import DECK_32
from bot.rules.looks import CLASSIC, CZECH, FOUR_COLOUR, FRENCH, LARGE, Look
from tests.render.golden import check_golden
from tests.render.samples import HANDS, NAMES, SAMPLES

WIDTH = 110
ORDER = [r + s for s in "HDSC" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]


def sheet(look: Look, tr: Text = PLAIN, codes: list[str] = ORDER) -> bytes:
    """Every card of ``codes`` once, eight to a row, as PNG."""
    w, h = cards.size_for(WIDTH)
    rows = -(-len(codes) // 8)
    out = Image.new("RGB", (8 * (w + 6) + 6, rows * (h + 6) + 6), (24, 78, 50))
    for i, code in enumerate(codes):
        sprite = cards.face(code, False, WIDTH, tr=tr, look=look)
        out.paste(sprite, (6 + (i % 8) * (w + 6), 6 + (i // 8) * (h + 6)), sprite)
    buf = io.BytesIO()
    out.save(buf, "PNG")
    return buf.getvalue()


def test_the_czech_pack_every_card_once() -> None:
    assert sorted(ORDER) == sorted(DECK_32)
    check_golden("czech_pack_cs", sheet(Look(CZECH), translator("cs")))  # Sp Sv K A
    check_golden("czech_pack_en", sheet(Look(CZECH), translator("en")))  # U O K A


def test_the_four_colour_and_large_index_decks() -> None:
    check_golden("four_colour_deck", sheet(Look(FRENCH, FOUR_COLOUR)))
    check_golden("large_index_deck", sheet(Look(FRENCH, LARGE)))


def _ink_rows(sprite: Image.Image, ink: tuple[int, int, int], tolerance: int = 60) -> list[int]:
    """Rows of ``sprite``'s middle column band holding pixels close to ``ink``."""
    rgb = sprite.convert("RGB")
    w, h = rgb.size
    rows = []
    for y in range(h):
        for x in range(int(w * 0.36), int(w * 0.64)):
            r, g, b = rgb.getpixel((x, y))  # type: ignore[misc]
            if abs(r - ink[0]) + abs(g - ink[1]) + abs(b - ink[2]) < tolerance:
                rows.append(y)
                break
    return rows


def test_the_svrsek_holds_his_sign_high_and_the_spodek_low() -> None:
    """Inside the figure's panel (the middle columns, between the corner indices), the colour of
    the suit's sign sits in the upper part for the svršek and in the lower part for the spodek."""
    for suit, ink in zip("HDSC", (HEART_RED, BELL_GOLD, LEAF_GREEN, NUT), strict=True):
        h = cards.size_for(200)[1]
        top_band = (int(h * 0.15), int(h * 0.35))
        low_band = (int(h * 0.65), int(h * 0.85))
        ober = _ink_rows(draw_czech("Q" + suit, 200, False, "O"), ink, 30)
        unter = _ink_rows(draw_czech("J" + suit, 200, False, "U"), ink, 30)
        assert any(top_band[0] <= y <= top_band[1] for y in ober), suit
        assert not any(low_band[0] <= y <= low_band[1] for y in ober), suit
        assert any(low_band[0] <= y <= low_band[1] for y in unter), suit
        assert not any(top_band[0] <= y <= top_band[1] for y in unter), suit


def test_four_colour_diamonds_are_blue_and_clubs_green() -> None:
    def has(code: str, look: Look, ink: tuple[int, int, int]) -> bool:
        return bool(_ink_rows(cards.face(code, False, 120, look=look), ink))

    assert has("8D", Look(FRENCH, FOUR_COLOUR), FOUR_COLOUR_INK["D"])
    assert has("8C", Look(FRENCH, FOUR_COLOUR), FOUR_COLOUR_INK["C"])
    assert not has("8D", Look(FRENCH, CLASSIC), FOUR_COLOUR_INK["D"])
    assert not has("8C", Look(FRENCH, CLASSIC), FOUR_COLOUR_INK["C"])


def test_marias_is_drawn_with_the_czech_pack_unless_the_reader_prefers_french() -> None:
    hand, playable = HANDS["marias"]
    view = {**SAMPLES["marias"], "hand": hand}
    french = translator("en").dressed(Look(FRENCH))
    # the French preference gives back the images Marias had before the Czech pack, exactly
    check_golden("hand_marias_french", hand_image("marias", view, playable, french))
    check_golden("table_marias_french", table_image("marias", SAMPLES["marias"], NAMES["marias"], french))
    assert hand_image("marias", view, playable) != hand_image("marias", view, playable, french)
    assert hand_image("marias", view, playable) == hand_image(
        "marias", view, playable, translator("en").dressed(Look(CZECH)))
    # a game without the Czech pack ignores the wish: Motz stays French
    motz_hand, motz_playable = HANDS["motz"]
    motz = {**SAMPLES["motz"], "hand": motz_hand}
    assert hand_image("motz", motz, motz_playable) == hand_image(
        "motz", motz, motz_playable, translator("en").dressed(Look(CZECH)))
