"""Golden images of fixed views: two tables and a hand per game, and the leaderboard."""

from __future__ import annotations

import pytest

from bot.render import hand_image, leaderboard_image, table_image
from tests.render.golden import check_golden
from tests.render.samples import HANDS, NAMES, SAMPLES, VARIANTS

GAMES = sorted(SAMPLES)


@pytest.mark.parametrize("game", GAMES)
def test_table_golden(game: str) -> None:
    check_golden(f"table_{game}", table_image(game, SAMPLES[game], NAMES[game]))


@pytest.mark.parametrize("game", GAMES)
def test_table_variant_golden(game: str) -> None:
    view, names = VARIANTS[game]
    check_golden(f"table_{game}_2", table_image(game, view, names))


@pytest.mark.parametrize("game", GAMES)
def test_hand_golden(game: str) -> None:
    hand, playable = HANDS[game]
    check_golden(f"hand_{game}", hand_image(game, {**SAMPLES[game], "hand": hand}, playable))


def test_leaderboard_golden() -> None:
    rows = [{"name": n, "jetons": j, "games": g} for n, j, g in
            [("Alice", 1520, 40), ("Bruno", 1210, 35), ("Chloé", 990, 12), ("Dmitri", 400, 9),
             ("a very long display name indeed", 120, 3), ("Fatou", -60, 1)]]
    check_golden("leaderboard", leaderboard_image(rows))
