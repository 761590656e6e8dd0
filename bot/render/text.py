"""Text as cached alpha masks: a label is rasterised once and pasted afterwards.

Tables repeat the same strings (names, labels, amounts) from one image to the next; pasting a
cached mask costs far less than FreeType rendering each time. The cache is bounded and shared
by all threads.

A text DejaVu Sans has every character of is drawn whole, in DejaVu; any other is drawn as the
runs of ``bot.render.fonts.runs``, one face each (the fallback chain: CJK, Hangul, emoji). The
Czech pack's suit signs have no glyph in any font: image text writes them as the private-use
characters of :data:`CZECH_SIGNS` (``czech_sign``), runs of their own, drawn here as the pips'
silhouettes.
"""

from __future__ import annotations

import threading

from PIL import Image, ImageDraw, ImageFont

from bot.render.fonts import SIGN, SIGNS, face, font, rtl, runs, runs_width, sign_width

#: Private-use characters standing for the Czech pack's suit signs in image text, by French code.
CZECH_SIGNS = dict(zip("HDSC", SIGNS, strict=True))
_SIGN_SUIT = {ch: suit for suit, ch in CZECH_SIGNS.items()}


def czech_sign(suit: str) -> str:
    """The character image text writes for the Czech pack's ``suit`` (drawn as its pip)."""
    return CZECH_SIGNS[suit]

MAX_ENTRIES = 4096

_cache: dict[tuple[str, int, bool, str], tuple[Image.Image, int, int]] = {}
_lock = threading.Lock()


def text_mask(text: str, size: int, bold: bool = False, anchor: str = "la") -> tuple[Image.Image, int, int]:
    """``(mask, dx, dy)``: the "L" mask of ``text``, its top-left relative to the anchor point."""
    key = (text, size, bold, anchor)
    hit = _cache.get(key)
    if hit is not None:
        return hit
    parts = runs(text, bold)
    if parts is None:  # DejaVu has every character: drawn whole
        f = font(size, bold)
        left, top, right, bottom = f.getbbox(text, anchor=anchor)
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
        entry = (mask, left, top)
    else:
        entry = _with_runs(parts, size, bold, anchor)
    with _lock:
        if len(_cache) >= MAX_ENTRIES:
            _cache.clear()
        _cache[key] = entry
    return entry


def _with_runs(parts: tuple[tuple[int, str], ...], size: int, bold: bool,
               anchor: str) -> tuple[Image.Image, int, int]:
    """The mask of ``parts`` (``bot.render.fonts.runs``): each run in its own face on DejaVu's
    baseline, one after the other (right to left when the text is, and the layout engine is
    Raqm: it shapes each run, and the runs are placed in the paragraph's direction), the Czech
    suit signs as pip silhouettes. The mask is DejaVu's line high, or more where a fallback
    face's glyphs reach past it."""
    from bot.render.suits import CZECH_PIPS

    f = font(size, bold)
    ascent, descent = f.getmetrics()
    w = max(1, runs_width(parts, size, bold) + 2)
    above = below = 0  # rows above DejaVu's ascent and below its descent that a fallback glyph needs
    for i, s in parts:
        if i > 0:
            _, top, _, bottom = face(i, size, bold).getbbox(s, anchor="ls")
            above, below = max(above, int(-top) - ascent), max(below, int(bottom) - descent)
    line = ascent + descent
    h = line + above + below
    baseline = ascent + above
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    ordered = reversed(parts) if f.layout_engine == ImageFont.Layout.RAQM and rtl(parts) else parts
    x = 0.0
    for i, s in ordered:
        if i == SIGN:
            sw = sign_width(size)
            CZECH_PIPS[_SIGN_SUIT[s]](d, x + sw / 2, baseline - size * 0.36, size * 0.95)
            x += sw
        else:
            run_face = face(i, size, bold)
            d.text((x, baseline), s, font=run_face, fill=(255, 255, 255, 255), anchor="ls")
            x += run_face.getlength(s)
    mask = layer.getchannel("A")
    horizontal, vertical = (anchor + "la")[0], (anchor + "la")[1]
    dx = {"l": 0, "m": -w // 2, "r": -w}.get(horizontal, 0)
    dy = {"a": 0, "t": 0, "m": -line // 2, "s": -ascent, "d": -line}.get(vertical, 0)
    return mask, dx, dy - above
