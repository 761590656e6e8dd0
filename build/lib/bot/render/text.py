"""Text as cached alpha masks: a label is rasterised once and pasted afterwards.

Tables repeat the same strings (names, labels, amounts) from one image to the next; pasting a
cached mask costs far less than FreeType rendering each time. The cache is bounded and shared
by all threads.
"""

from __future__ import annotations

import threading

from PIL import Image, ImageDraw

from bot.render.fonts import font

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
    left, top, right, bottom = f.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    entry = (mask, left, top)
    with _lock:
        if len(_cache) >= MAX_ENTRIES:
            _cache.clear()
        _cache[key] = entry
    return entry
