"""Drawing a card sprite: the supersampled canvas, the blank card, the corner indices.

Shared by every pack's faces (``cards`` for the French and Spanish decks and the jokers,
``czech`` for the Czech pack); drawn at ``SS``× and downsampled by ``_finish``.
"""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

from bot.render.fonts import font

SS = 3  # supersampling factor
RATIO = 1.4  # height / width
PAPER = (252, 250, 244)
EDGE = (120, 120, 120)
HIGHLIGHT = (255, 200, 0)


def size_for(width: int) -> tuple[int, int]:
    """Pixel size of a card sprite ``width`` wide."""
    return width, round(width * RATIO)


def _canvas(width: int) -> tuple[Image.Image, ImageDraw.ImageDraw, int, int]:
    w, h = width * SS, round(width * RATIO) * SS
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    return img, ImageDraw.Draw(img), w, h


def _finish(img: Image.Image, width: int) -> Image.Image:
    return img.resize(size_for(width), Image.Resampling.LANCZOS)


def _blank(d: ImageDraw.ImageDraw, w: int, h: int, highlight: bool) -> None:
    radius = w * 0.09
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=PAPER, outline=EDGE, width=SS)
    if highlight:
        bw = max(SS * 2, round(w * 0.07))
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, outline=HIGHLIGHT, width=bw)


def _corner(img: Image.Image, w: int, h: int, draw_index) -> None:
    """Draw an index on its own layer; put it top-left and, rotated, bottom-right."""
    cw, ch = round(w * 0.5), round(h * 0.6)
    layer = Image.new("RGBA", (cw, ch), (0, 0, 0, 0))
    draw_index(ImageDraw.Draw(layer))
    img.alpha_composite(layer, (0, 0))
    img.alpha_composite(layer.rotate(180), (w - cw, h - ch))


def _fitted(text: str, size: int, room: float) -> tuple[ImageFont.FreeTypeFont, float]:
    """The bold font at ``size`` or smaller so that ``text`` is at most ``room`` wide; its width."""
    f = font(size, bold=True)
    tw = f.getlength(text)
    while tw > room and size > 8:
        size = max(8, int(size * room / tw))
        f = font(size, bold=True)
        tw = f.getlength(text)
    return f, tw
