"""Text as cached alpha masks: a label is rasterised once and pasted afterwards.

Tables repeat the same strings (names, labels, amounts) from one image to the next; pasting a
cached mask costs far less than FreeType rendering each time. The cache is bounded and shared
by all threads.

The Czech pack's suit signs have no glyph in any font: image text writes them as the private-use
characters of :data:`CZECH_SIGNS` (``czech_sign``), drawn here as the pips' silhouettes.
"""

from __future__ import annotations

import threading

from PIL import Image, ImageDraw

from bot.render.fonts import SIGNS, font, sign_width, text_width

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
    f = font(size, bold)
    if any(ch in _SIGN_SUIT for ch in text):
        entry = _with_signs(text, size, bold, anchor)
    else:
        left, top, right, bottom = f.getbbox(text, anchor=anchor)
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
        entry = (mask, left, top)
    with _lock:
        if len(_cache) >= MAX_ENTRIES:
            _cache.clear()
        _cache[key] = entry
    return entry


def _with_signs(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """The mask of ``text`` with its Czech suit signs drawn as pip silhouettes."""
    from bot.render.suits import CZECH_PIPS

    f = font(size, bold)
    ascent, descent = f.getmetrics()
    w = max(1, text_width(text, size, bold) + 2)
    h = ascent + descent
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    x = 0.0
    run = ""
    for ch in text + "\0":
        if ch in _SIGN_SUIT or ch == "\0":
            if run:
                d.text((x, ascent), run, font=f, fill=(255, 255, 255, 255), anchor="ls")
                x += f.getlength(run)
                run = ""
            if ch in _SIGN_SUIT:
                sw = sign_width(size)
                CZECH_PIPS[_SIGN_SUIT[ch]](d, x + sw / 2, ascent - size * 0.36, size * 0.95)
                x += sw
        else:
            run += ch
    mask = layer.getchannel("A")
    horizontal, vertical = (anchor + "la")[0], (anchor + "la")[1]
    dx = {"l": 0, "m": -w // 2, "r": -w}.get(horizontal, 0)
    dy = {"a": 0, "t": 0, "m": -h // 2, "s": -ascent, "d": -h}.get(vertical, 0)
    return mask, dx, dy
