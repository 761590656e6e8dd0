"""Issue 32, item 5: the AI levels' ratings as yardsticks: reference lines on the rating board (text
and image) and the /stats sentence, in every language."""

from __future__ import annotations

import io
from types import SimpleNamespace

import pytest
from PIL import Image

from bot.i18n import translator
from bot.render.leaderboard import REFERENCE, ROW_H, leaderboard_image
from bot.store.boards import LevelRating
from bot.views.yardsticks import level_word, merged, reference_line, reference_row, standing
from tests.i18n.test_images import _drawn

EN, FR, ES, CS = (translator(lang) for lang in ("en", "fr", "es", "cs"))
EASY = LevelRating("easy", 8.25, 20.0, 3.9, 300)
STRONG = LevelRating("strong", 17.5, 24.0, 2.2, 120)


def test_references_stand_between_players_by_score() -> None:
    players = [SimpleNamespace(score=s) for s in (20.0, 17.5, 9.0, 1.0)]
    out = merged(players, [EASY, STRONG], lambda p: p.score)
    # a player level with a reference does not rate above it: the reference comes first
    assert [getattr(x, "level", x.score) for x in out] == [20.0, "strong", 17.5, 9.0, "easy", 1.0]
    # references below every player come last, above every player first
    one = merged(players[:1], [EASY], lambda p: p.score)
    assert [getattr(x, "level", None) for x in one] == [None, "easy"]
    assert merged([], [STRONG], lambda p: 0.0) == [STRONG]


def test_the_stats_sentence_in_every_language() -> None:
    refs = [STRONG, EASY]
    assert standing(18.0, refs, EN) == "You rate above the strong AI (17.5), the best AI rated here."
    assert standing(10.0, refs, EN) == "You rate above the easy AI (8.2), below the strong AI (17.5)."
    assert standing(8.25, refs, EN) == "You rate below the easy AI (8.2)."  # equal is not above
    assert standing(10.0, [], EN) is None
    assert standing(10.0, refs, FR) == ("Votre cote dépasse celle de l’IA facile (8,2), "
                                        "sous celle de l’IA forte (17,5).")
    assert standing(18.0, refs, ES) == ("Tu puntuación supera a la IA fuerte (17,5), "
                                        "la mejor IA puntuada aquí.")
    assert standing(1.0, refs, CS) == "Vaše hodnocení je nižší než u AI „snadná“ (8,2)."


def test_level_words_and_reference_lines() -> None:
    assert [level_word(x, FR) for x in ("easy", "strong", "expert")] == ["facile", "forte", "experte"]
    assert level_word("oracle", FR) == "oracle"  # not a level: shown as stored
    assert reference_line(STRONG, EN) == "`  ·` ┄ *strong AI* — *17.5* ┄"
    assert reference_line(STRONG, CS) == "`  ·` ┄ *silná AI* — *17,5* ┄"
    assert reference_row(EASY, ES) == {"reference": True, "name": "IA fácil", "value": 8.25, "shown": "8,2"}


def test_the_board_image_draws_the_reference_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _drawn(monkeypatch)
    rows = [{"rank": 1, "name": "Ana", "value": 20.0, "shown": "20,0", "games": 3},
            reference_row(STRONG, ES),
            {"rank": 2, "name": "Bea", "value": 9.0, "shown": "9,0", "games": 4},
            reference_row(EASY, ES)]
    png = leaderboard_image(rows, "Marias", "puntuación · partidas", tr=ES)
    assert {"IA fuerte", "17,5", "IA fácil", "8,2", "Ana", "Bea"} <= set(drawn)
    assert "3" not in drawn[drawn.index("IA fuerte"):drawn.index("Bea")]  # no rank on a reference
    img = Image.open(io.BytesIO(png)).convert("RGB")
    plain = leaderboard_image([rows[0], rows[2]], "Marias", "puntuación · partidas", tr=ES)
    assert img.size[1] == Image.open(io.BytesIO(plain)).size[1] + 2 * ROW_H
    # the dashes cross the row of the strong AI's reference (the second row; the PNG's palette
    # is quantised, so the colour is matched roughly), and not a player's row
    mid = 64 + ROW_H + ROW_H // 2
    assert sum(abs(a - b) for a, b in zip(img.getpixel((548, mid)), REFERENCE, strict=True)) < 60
    assert sum(abs(a - b) for a, b in zip(img.getpixel((548, mid - ROW_H)), REFERENCE, strict=True)) > 200


def test_twenty_ranked_rows_and_the_references_among_them() -> None:
    rows = [{"rank": i + 1, "name": f"P{i}", "value": 40 - i, "games": 1} for i in range(25)]
    rows.insert(3, reference_row(STRONG, EN))
    full = Image.open(io.BytesIO(leaderboard_image(rows))).size[1]
    assert full == 64 + 21 * ROW_H + 16


def test_the_stats_sentence_of_another_player_names_them() -> None:
    """``/stats user:`` reads another player's card: the sentence is about them, not "You"."""
    refs = [STRONG, EASY]
    assert standing(18.0, refs, EN, "Ann") == "Ann rates above the strong AI (17.5), the best AI rated here."
    assert standing(10.0, refs, EN, "Ann") == "Ann rates above the easy AI (8.2), below the strong AI (17.5)."
    assert standing(1.0, refs, EN, "Ann") == "Ann rates below the easy AI (8.2)."
    assert standing(10.0, refs, FR, "Ann") == ("La cote de Ann dépasse celle de l’IA facile (8,2), "
                                               "sous celle de l’IA forte (17,5).")
    assert standing(1.0, refs, CS, "Ann") == "Ann má hodnocení nižší než AI „snadná“ (8,2)."
    assert standing(18.0, refs, translator("eu"), "Ann").startswith("Balorazioan, Ann AA ")
    assert standing(10.0, refs, ES, "Ann").startswith("La puntuación de Ann supera a la IA fácil (8,2)")
