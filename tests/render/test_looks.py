"""The pictures as a player sees them: everything on the canvas, text contrast measured on the
colours the PNG really holds (after the shared palette), and colours that survive the palette."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.render.canvas import Canvas
from bot.render.layout import HEIGHT, WIDTH
from bot.render.table import table_image
from tests.render.samples import NAMES, SAMPLES, VARIANTS

Box = tuple[float, float, float, float]


def _views() -> list[tuple[str, dict[str, Any], list[str], int]]:
    """Every sample table with each seat in turn acting and dealing (its ring and pills drawn)."""
    out = []
    for game in sorted(SAMPLES):
        for view, names in ((SAMPLES[game], NAMES[game]), VARIANTS[game]):
            for seat in range(len(view["stacks"])):
                out.append((game, {**copy.deepcopy(view), "to_act": [seat], "dealer": seat}, names, seat))
    return out


@pytest.mark.parametrize(("game", "view", "names", "seat"), _views(),
                         ids=[f"{g}-{len(v['stacks'])}-{s}" for g, v, _, s in _views()])
def test_plates_rings_and_pills_stay_on_the_canvas(game: str, view: dict[str, Any], names: list[str],
                                                   seat: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The top seat's pills (dealer, 'lead', a Mus team letter) began 2 px above the image and the
    bottom seat's gold turn ring ended 1 px below it: every panel is drawn inside the canvas."""
    boxes: list[Box] = []
    original = Canvas.panel

    def record(self: Canvas, box: Box, *args: Any, **kwargs: Any) -> None:
        boxes.append(box)
        original(self, box, *args, **kwargs)

    monkeypatch.setattr(Canvas, "panel", record)
    table_image(game, view, names)
    for box in boxes:
        assert box[0] >= 0 and box[1] >= 0, f"{box} starts off the canvas"
        assert box[2] <= WIDTH - 1 and box[3] <= HEIGHT - 1, f"{box} ends off the canvas"


def encoded(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """``colour`` as the PNG holds it: mapped to the shared palette, as ``encode_png`` maps it."""
    from PIL import Image

    from bot.render.palette import palette_image

    pal = palette_image()
    assert pal is not None
    one = Image.new("RGB", (1, 1), colour).quantize(palette=pal, dither=Image.Dither.NONE)
    return one.convert("RGB").getpixel((0, 0))  # type: ignore[return-value]


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """The WCAG 2 contrast ratio of two sRGB colours."""

    def luminance(c: tuple[int, int, int]) -> float:
        lin = [v / 3294.6 if v <= 10 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_named_colours_survive_the_palette() -> None:
    """The fixed palette was fitted by pixel count, so thin text and small marks lost their colour:
    the /review skill blue came out grey-blue (moved by 59), the profile's rising-trend green as the
    leaderboard bar's dull green (57), the text red by 16. Every named colour is now kept."""
    from bot.render.named import named_colours

    named = named_colours()
    assert len(named) > 30
    for colour in named:
        got = encoded(colour)
        assert max(abs(a - b) for a, b in zip(colour, got, strict=True)) <= 3, f"{colour} encoded as {got}"


def _pairs() -> list[tuple[str, tuple[int, int, int], tuple[int, int, int], bool]]:
    """(where, ink, ground, large text) for the texts of every image."""
    from bot.render import canvas as cv
    from bot.render import cards, leaderboard, profile, review, sprite
    from bot.render.games import marias, mus

    dim, row = (44, 54, 50), (22, 64, 42)  # an eliminated seat's plate; a board's striped row
    small = [("MUTED", cv.MUTED, g) for g in (cv.FELT_INNER, cv.FELT, cv.PANEL, cv.PLATE, dim, row)]
    small += [("RED", cv.RED, g) for g in (cv.PLATE, dim, cv.PANEL, row)]
    small += [("GOLD", cv.GOLD, g) for g in (cv.FELT_INNER, cv.PANEL, cv.PLATE, row)]
    small += [("WHITE", cv.WHITE, g) for g in (cv.FELT_INNER, cv.PANEL, cv.PLATE, row)]
    small += [("Mus team", c, cv.PANEL) for c in mus.TEAM_COLOURS]
    small += [("profile rising trend", profile.UP, row), ("review Better", review.SKILL, cv.PANEL),
              ("leaderboard reference", leaderboard.REFERENCE, cv.PANEL),
              ("card red", cards.RED, sprite.PAPER), ("card black", cards.BLACK, sprite.PAPER)]
    large = [("Mus score", c, cv.FELT_INNER) for c in mus.TEAM_COLOURS]
    large += [("Marias red contract", marias.TITLE_RED, cv.FELT_INNER)]
    return [(w, a, b, False) for w, a, b in small] + [(w, a, b, True) for w, a, b in large]


@pytest.mark.parametrize(("where", "ink", "ground", "large"), _pairs())
def test_text_contrast_meets_wcag_aa(where: str, ink: tuple[int, int, int], ground: tuple[int, int, int],
                                     large: bool) -> None:
    """Measured on the encoded colours: 4.5:1 for text, 3:1 for large text (bold 19 px and up).
    The centre labels ('la bête', 'last: Marcel') were 4.2:1, red text on a profile block 3.0:1, a
    Mus team's score on the felt 2.6:1, a red Marias contract 2.5:1, the rising trend 3.2:1."""
    ratio = contrast(encoded(ink), encoded(ground))
    assert ratio >= (3.0 if large else 4.5), f"{where} {ink} on {ground}: {ratio:.2f}:1"


def test_review_chart_draws_in_the_default_words() -> None:
    """``split_image``'s default ``tr`` (PLAIN) has no ``decimal``: the chart raised AttributeError
    instead of drawing its scale."""
    from bot.render.review import split_image
    from tests.render.test_api import size_of

    assert size_of(split_image([(1, 2.5, 1.0, 1.5), (2, -1.0, -2.0, 1.0)], "jetons"))[0] == 720


PHONE_W = 360  # how wide a phone shows an attached image
PHONE_MIN_PX = 8  # the smallest text a phone reader can make out without tapping
TextBox = tuple[str, int, tuple[int, int, int, int]]


@pytest.fixture
def texts(monkeypatch: pytest.MonkeyPatch) -> list[TextBox]:
    """Every text drawn on a ``Canvas`` while the test runs: as shown, its size and its box."""
    from bot.render.fonts import fit
    from bot.render.text import text_mask

    out: list[TextBox] = []
    original = Canvas.text

    def record(self: Canvas, xy: tuple[float, float], s: str, size: int, *args: Any, **kwargs: Any) -> None:
        bold = kwargs.get("bold", args[1] if len(args) > 1 else False)
        anchor = kwargs.get("anchor", args[2] if len(args) > 2 else "la")
        width = kwargs.get("max_width", args[3] if len(args) > 3 else None)
        shown = fit(s, size, width, bold) if width is not None else s
        if shown:
            mask, dx, dy = text_mask(shown, size, bold, anchor)
            x, y = round(xy[0]) + dx, round(xy[1]) + dy
            out.append((shown, size, (x, y, x + mask.width, y + mask.height)))
        original(self, xy, s, size, *args, **kwargs)

    monkeypatch.setattr(Canvas, "text", record)
    return out


def assert_legible(texts: list[TextBox], png: bytes) -> None:
    """Every text at least ``PHONE_MIN_PX`` tall on a phone, on the canvas, meeting no other."""
    from tests.render.test_api import size_of

    w, h = size_of(png)
    assert texts
    for text, size, box in texts:
        phone = size * PHONE_W / w
        assert phone >= PHONE_MIN_PX, f"{text!r} at {size} px is {phone:.1f} px on a phone"
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= w and box[3] <= h, f"{text!r} off the canvas"
    for i, (a, _, p) in enumerate(texts):
        for b, _, q in texts[i + 1:]:
            assert not (p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]), f"{a!r} meets {b!r}"


@pytest.mark.parametrize("lang", ["en", "cs", "eu"])
@pytest.mark.parametrize("count", [1, 12, 24, 30, 60])
def test_review_chart_is_legible_on_a_phone(lang: str, count: int, texts: list[TextBox]) -> None:
    """The skill-and-luck chart's scale, deal numbers, legend and axis word were 13-14 px on a 720 px
    image: 6.5 px on a phone. Every text is now 8 px there at least, on the canvas, and none meets
    another (deal numbers are thinned by their measured width, the legend spaced by its words)."""
    from bot.i18n import Translator
    from bot.render.review import split_image

    deals = [(100 + i, (i % 5) - 2.5, (i % 3) - 1.25, (i % 4) - 1.5) for i in range(count)]
    assert_legible(texts, split_image(deals, "jetons", Translator(lang)))


@pytest.mark.parametrize("lang", ["en", "cs", "eu"])
def test_boards_are_legible_on_a_phone(lang: str, texts: list[TextBox]) -> None:
    """The standings' column headings (15 px on 760: 7.1 px on a phone) and the medal ranks (14-15 px:
    6.6-7.5 px) were the boards' smallest texts; every text of the standings, the leaderboard and the
    profile card is now 8 px on a phone at least."""
    from bot.i18n import Translator
    from bot.render import leaderboard_image
    from bot.render.profile import profile_image
    from bot.render.standings import standings_image
    from bot.tournaments.standings import Standing

    tr = Translator(lang)
    rows = [Standing(entrant=i, name=f"Player {i}", points=30 - i, buchholz=40 - i, net=100 - 20 * i,
                     sessions=5, wins=2, rank=i + 1) for i in range(30)]
    assert_legible(texts, standings_image(rows, "Txapelketa", True, tr))
    texts.clear()
    board = [{"name": f"Player {i}", "jetons": 1500 - 200 * i, "games": 40 - i} for i in range(8)]
    assert_legible(texts, leaderboard_image(board, tr=tr))
    texts.clear()
    games = [{"title": "Motz", "sessions": 3, "wins": 1, "net": -5, "score": 23.4, "trend": -1.2,
              "scores": [20.0, 22.0, 23.4], "best": 12, "best_table": 17, "favourite": "muet"}]
    assert_legible(texts, profile_image("Řehoř", 2, games, tr))
