"""The public functions: sizes, limits, edge cases, threads, shipped fonts."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image

from bot.render import cards, hand_image, leaderboard_image, table_image, text
from bot.render.fonts import BOLD, FONT_DIR, REGULAR
from bot.render.hand import playable_cards, sort_hand
from tests.render.samples import HANDS, NAMES, SAMPLES, VARIANTS

LIMIT_BYTES = 100_000


def size_of(png: bytes) -> tuple[int, int]:
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    return img.size


@pytest.mark.parametrize("game", sorted(SAMPLES))
def test_table_and_hand_within_limits(game: str) -> None:
    for view, names in ((SAMPLES[game], NAMES[game]), VARIANTS[game]):
        png = table_image(game, view, names)
        w, h = size_of(png)
        assert w <= 1280 and h <= 720
        assert len(png) <= LIMIT_BYTES
    hand, playable = HANDS[game]
    png = hand_image(game, {**SAMPLES[game], "hand": hand}, playable)
    assert len(png) <= LIMIT_BYTES and size_of(png)[0] <= 1280


def test_hand_orders() -> None:
    assert sort_hand("michigan", {}, ["AS", "2S", "10H", "3C", "KD"]) == ["2S", "AS", "10H", "KD", "3C"]
    assert sort_hand("mus", {}, ["12O", "1B", "7C", "11E", "1O"]) == ["1O", "12O", "7C", "11E", "1B"]
    assert sort_hand("marias", {"contract": "hra"}, ["KS", "10S", "AS", "7H"]) == ["AS", "10S", "KS", "7H"]
    assert sort_hand("marias", {"contract": "betl"}, ["KS", "10S", "AS"]) == ["AS", "KS", "10S"]
    assert sort_hand("maitre", {}, ["X1", "KS", "AS", "2S", "10H"]) == ["AS", "2S", "KS", "10H", "X1"]
    # Motz, trump hearts: both red jacks first, then the rest of the trumps, then S D C
    assert sort_hand("motz", {"trump": "H"}, ["AS", "7H", "JD", "AH", "JH", "KD"]) == \
        ["JH", "JD", "AH", "7H", "AS", "KD"]


def test_playable_cards() -> None:
    actions = [{"type": "play", "card": "QH"}, {"type": "lead", "suit": "S"}, {"type": "pass"}]
    assert playable_cards(actions) == {"QH"}


def test_empty_hand_and_leaderboard() -> None:
    assert size_of(hand_image("motz", {"hand": []}))
    assert size_of(leaderboard_image([]))
    rows = [{"name": f"P{i}", "jetons": 100 * i, "games": i} for i in range(40)]
    w, h = size_of(leaderboard_image(rows))
    assert w <= 1280 and h <= 1280


def test_unknown_game() -> None:
    with pytest.raises(ValueError):
        table_image("poker", {}, [])
    with pytest.raises(ValueError):
        hand_image("poker", {"hand": []})


def test_threads_give_the_same_images() -> None:
    jobs = [(g, SAMPLES[g], NAMES[g]) for g in sorted(SAMPLES)] * 3
    sequential = [table_image(*job) for job in jobs]
    cards._cache.clear()  # start cold: threads race to draw the same sprites and text masks
    text._cache.clear()
    with ThreadPoolExecutor(4) as pool:
        threaded = list(pool.map(lambda job: table_image(*job), jobs))
    assert threaded == sequential


def test_fonts_shipped_with_licence() -> None:
    """Every shipped font (DejaVu and the fallback faces) has its licence beside it, and both are
    package data (pyproject's patterns for every package)."""
    import fnmatch
    import tomllib
    from pathlib import Path

    from bot.render.fonts import FALLBACKS

    assert REGULAR.is_file() and BOLD.is_file()
    assert all(path.is_file() and path.parent == FONT_DIR for path in FALLBACKS)
    licences = [p.name.removeprefix("LICENSE-").removesuffix(".txt") for p in FONT_DIR.glob("LICENSE-*.txt")]
    fonts = sorted(FONT_DIR.glob("*.ttf"))
    assert {REGULAR, BOLD, *FALLBACKS} == set(fonts)
    for path in fonts:
        assert any(path.name.startswith(stem) for stem in licences), f"{path.name} has no licence"
    patterns = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())[
        "tool"]["setuptools"]["package-data"]["*"]
    for path in [*fonts, *FONT_DIR.glob("LICENSE-*")]:
        assert any(fnmatch.fnmatch(path.name, p) for p in patterns), f"{path.name} is not package data"
