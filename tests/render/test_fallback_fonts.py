"""Names DejaVu Sans has no glyphs for (emoji, CJK, Hangul, ZWJ sequences, flags, skin tones,
unassigned characters): drawn by the fallback faces, never as the .notdef box ("tofu"), measured
as drawn, cut to fit (bot/render/fonts.py)."""

from __future__ import annotations

import copy
import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont, features

from bot.render import table_image
from bot.render.canvas import Canvas
from bot.render.fonts import FALLBACKS, face, fit, font, readable, runs, text_width
from bot.render.text import text_mask
from tests.render.samples import NAMES, SAMPLES

UNASSIGNED = "\u0378"  # no face has it: DejaVu, and every fallback, draw their .notdef for it

#: Names and, for each, the characters DejaVu lacks that must be drawn (not left out).
CASES = {
    "emoji": ("🎲 Marie", "🎲"),
    "cjk": ("雪 Yuki", "雪"),
    "kana": ("さくら", "さくら"),
    "hangul": ("김민수", "김민수"),
    "zwj": ("👨\u200d👩\u200d👧 Family", "👨"),
    "flag": ("🇫🇷 Jean", ""),
    "skin_tone": ("👍🏽 Ok", "👍"),
    "uncovered": (f"{UNASSIGNED}\U0010fffd Zed", ""),
    "styled": ("𝓜𝓪𝓻𝓲𝓮", "𝓜𝓪𝓻𝓲𝓮"),
}


def _rows(mask: Image.Image) -> list[bytes]:
    data = mask.tobytes()
    return [data[y * mask.width:(y + 1) * mask.width] for y in range(mask.height)]


def _tofu_templates(size: int, bold: bool) -> list[Image.Image]:
    """The .notdef glyph of every face of the chain at ``size``, as drawn (cropped to its ink)."""
    out = []
    for i in range(len(FALLBACKS) + 1):
        f = face(i, size, bold)
        left, top, right, bottom = f.getbbox(UNASSIGNED)
        glyph = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(glyph).text((-left, -top), UNASSIGNED, font=f, fill=255)
        box = glyph.getbbox()
        if box:
            out.append(glyph.crop(box))
    return out


def tofu(mask: Image.Image, size: int, bold: bool = False) -> int:
    """How many .notdef boxes (of any face of the chain) ``mask`` holds, by exact template match."""
    rows = _rows(mask)
    found = 0
    for template in _tofu_templates(size, bold):
        t_rows = _rows(template)
        tw, th = template.size
        for y in range(mask.height - th + 1):
            for x in range(mask.width - tw + 1):
                if all(rows[y + j][x:x + tw] == t_rows[j] for j in range(th)):
                    found += 1
    return found


def dejavu_alone(text: str, size: int, bold: bool = False) -> Image.Image:
    """``text`` drawn by DejaVu alone, as image text was before the fallback chain."""
    f = font(size, bold)
    left, top, right, bottom = f.getbbox(text)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255)
    return mask


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("size", [17, 21])
@pytest.mark.parametrize("case", sorted(CASES))
def test_names_are_drawn_without_tofu(case: str, size: int, bold: bool) -> None:
    name, drawn = CASES[case]
    if case != "skin_tone":  # the check sees the boxes DejaVu alone draws (it has 👍, not 🏽)
        assert tofu(dejavu_alone(name, size, bold), size, bold) >= 1
    mask, _, _ = text_mask(name, size, bold)
    assert mask.getbbox(), "nothing drawn"
    assert tofu(mask, size, bold) == 0, f"{name!r} drawn with a .notdef box"
    for ch in drawn:  # each character DejaVu lacks is drawn by a face that has it, as its glyph
        alone, _, _ = text_mask(ch, size, bold)
        assert alone.getbbox() and tofu(alone, size, bold) == 0, ch


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_run_is_drawn_by_a_face_that_has_it(case: str) -> None:
    from bot.render.fonts import SIGN, coverage, face_for

    parts = runs(CASES[case][0]) or ()
    assert parts
    for index, s in parts:
        assert index != SIGN
        for ch in s:
            assert ord(ch) in coverage(Path(face(index, 12).path)), (ch, index)
            assert face_for(ch) is not None


@pytest.mark.parametrize("case", sorted(CASES))
def test_width_is_what_is_drawn(case: str) -> None:
    """text_width is the drawn text's advance: its ink ends within a few pixels of it."""
    name = CASES[case][0]
    for size, bold in ((18, False), (21, True)):
        mask, _, _ = text_mask(name, size, bold)
        width = text_width(name, size, bold)
        box = mask.getbbox()
        assert box is not None
        assert width - 3 <= box[2] <= width + 2, (name, box, width)
        assert tofu(mask, size, bold) == 0, "measured as drawn, but drawn as boxes"


@pytest.mark.parametrize("size", [14, 18, 30])
def test_ideographs_and_syllables_are_an_em_wide(size: int) -> None:
    """Measured in the face that draws them (DejaVu's box is narrower than an ideograph)."""
    assert text_width("雪", size) == size
    assert text_width("雪国", size, True) == 2 * size
    assert 0.85 * size <= text_width("김", size) <= size  # NanumSquare's syllables: 0.9 em


def test_left_out_characters_take_no_room() -> None:
    """An unassigned character, a variation selector, a skin tone, a joined emoji take no width."""
    assert text_width(UNASSIGNED * 5, 18) == 0
    assert text_width("👍🏽", 18) == text_width("👍", 18) > 0
    assert text_width("❤\ufe0f", 18) == text_width("❤", 18)
    assert text_width("👨\u200d👩\u200d👧\u200d👦", 18) == text_width("👨", 18)
    assert text_width("e\u0301", 18) == text_width("é", 18)  # a mark stays with its base


@pytest.mark.parametrize("text", ["🎲" * 30, "雪" * 30 + "abc", "김민수 " * 10, "👨\u200d👩\u200d👧" * 20,
                                  "𝓜𝓪𝓻𝓲𝓮 " * 8, "🇫🇷" * 20])
@pytest.mark.parametrize("room", [40, 100, 200])
def test_fit_cuts_to_the_width(text: str, room: int) -> None:
    shown = fit(text, 18, room)
    assert shown.endswith("…") and text_width(shown, 18) <= room
    mask, _, _ = text_mask(shown, 18)
    box = mask.getbbox()
    assert box is not None and box[2] <= room + 2
    assert tofu(mask, 18) == 0


def test_a_name_with_nothing_to_draw_falls_back() -> None:
    assert readable(UNASSIGNED * 3) == "?"
    assert readable("\ufe0f\u200d", "Seat 2") == "Seat 2"
    assert readable("🎲") == "🎲" and readable("Ana") == "Ana"


def test_dejavu_text_is_drawn_whole_as_before() -> None:
    """Text DejaVu has every character of, right to left or with combining marks, takes the one
    path it always took: one Pillow call, the same mask (a guard: it passes before the chain too)."""
    for text in ("Chloé", "Iñaki", "שלום", "محمد", "e\u0301\u0308", "Zoë ❤\ufe0f"):
        assert runs(text) is None
        assert text_mask(text, 18)[0].tobytes() == dejavu_alone(text, 18).tobytes()


@pytest.mark.skipif(not features.check("raqm"), reason="needs Raqm (bidirectional layout)")
def test_right_to_left_name_keeps_its_emoji_at_its_end() -> None:
    """'محمد 🎲' reads right to left: the emoji, last, is drawn at the left."""
    assert font(18).layout_engine == ImageFont.Layout.RAQM
    mask, _, _ = text_mask("محمد 🎲", 18)
    emoji, _, _ = text_mask("🎲", 18)
    assert tofu(mask, 18) == 0
    die = emoji.getbbox()
    assert die is not None
    left = mask.crop((0, 0, die[2] + 1, mask.height))
    assert left.tobytes() == emoji.crop((0, 0, die[2] + 1, emoji.height)).tobytes()


EMOJI_NAMES = ["🎲 Marie", "雪", "김민수", "👨\u200d👩\u200d👧 Dad", "🇪🇸 Iñaki", "👍🏽 Ane"]


@pytest.mark.parametrize("game", sorted(SAMPLES))
def test_table_image_draws_the_names(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole table with such names: every name's text is drawn without a box, and the image is
    the one the same names drawn through the chain give (not DejaVu's boxes)."""
    drawn: list[tuple[str, Image.Image, int, bool]] = []
    original = Canvas.text

    def record(self: Canvas, xy: tuple[float, float], s: str, size: int, *args: Any, **kwargs: Any) -> None:
        shown = fit(s, size, kwargs["max_width"], kwargs.get("bold", False)) \
            if kwargs.get("max_width") is not None else s
        bold = kwargs.get("bold", args[1] if len(args) > 1 else False)
        if shown:
            drawn.append((shown, text_mask(shown, size, bold, kwargs.get("anchor", "la"))[0], size, bold))
        original(self, xy, s, size, *args, **kwargs)

    monkeypatch.setattr(Canvas, "text", record)
    seats = len(SAMPLES[game]["stacks"])
    names = (EMOJI_NAMES * 2)[:seats]
    png = table_image(game, copy.deepcopy(SAMPLES[game]), names)
    assert Image.open(io.BytesIO(png)).size
    assert png != table_image(game, copy.deepcopy(SAMPLES[game]), NAMES[game])
    with_names = [d for d in drawn if any(ch in d[0] for ch in "🎲雪김👨🇪👍")]
    assert {n[0] for n in names} <= {ch for d in with_names for ch in d[0]}, [d[0] for d in drawn]
    for shown, mask, size, bold in with_names:
        assert tofu(mask, size, bold) == 0, shown


def test_an_undrawable_name_shows_the_seat() -> None:
    """A name of nothing any face has is shown as the seat, like a missing name."""
    game = "motz"
    names = [UNASSIGNED * 4, *NAMES[game][1:]]
    seat = ["Seat 1", *NAMES[game][1:]]
    assert table_image(game, SAMPLES[game], names) == table_image(game, SAMPLES[game], seat)


def test_character_maps_read_as_fonttools_reads_them() -> None:
    """bot.render.fonts reads each shipped font's cmap itself (formats 4 and 12): the characters it
    finds are exactly fontTools' best cmap, less what maps to .notdef."""
    ttlib = pytest.importorskip("fontTools.ttLib")
    from bot.render.fonts import FONT_DIR, coverage

    for path in sorted(FONT_DIR.glob("*.ttf")):
        with ttlib.TTFont(str(path), lazy=True) as f:
            expected = {cp for cp, glyph in f.getBestCmap().items() if glyph != ".notdef"}
        found = coverage(path)
        assert len(found) == len(expected) and all(cp in found for cp in expected), path.name


def test_basic_layout_draws_the_chain_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Raqm (Pillow's basic layout) the runs are drawn the same way, left to right: no box,
    widths as drawn, fit to width."""
    import threading

    from bot.render import fonts, text

    truetype = ImageFont.truetype

    def basic(path: str, size: int) -> ImageFont.FreeTypeFont:
        return truetype(path, size, layout_engine=ImageFont.Layout.BASIC)

    def run() -> None:  # a fresh thread: its own faces, all opened with the basic layout
        for name, _ in CASES.values():
            mask, _, _ = text_mask(name, 18)
            assert tofu(mask, 18) == 0, name
            box = mask.getbbox()
            assert box is not None and text_width(name, 18) - 3 <= box[2] <= text_width(name, 18) + 2
            shown = fit(name * 4, 18, 90)
            assert text_width(shown, 18) <= 90
        assert fonts.face(1, 18).layout_engine == ImageFont.Layout.BASIC

    monkeypatch.setattr(fonts.ImageFont, "truetype", basic)
    monkeypatch.setattr(text, "_cache", {})
    fit.cache_clear()
    errors: list[BaseException] = []
    worker = threading.Thread(target=lambda: _catch(run, errors))
    worker.start()
    worker.join()
    fit.cache_clear()
    assert not errors, errors


def _catch(job: Any, errors: list[BaseException]) -> None:
    try:
        job()
    except BaseException as exc:  # handed to the test's thread
        errors.append(exc)
