"""The fonts shipped with the package (DejaVu Sans, see ``fonts/LICENSE-DejaVu.txt``).

DejaVu has the ♠ ♥ ♦ ♣ glyphs that Pillow's default font lacks. A FreeType face must not be
used by two threads at once, so each thread gets its own font objects (rendering runs in
``asyncio.to_thread``).
"""

from __future__ import annotations

import functools
import threading
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

_local = threading.local()


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (or Sans Bold) at ``size`` pixels, cached per thread."""
    cache: dict[tuple[int, bool], ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    key = (size, bold)
    f = cache.get(key)
    if f is None:
        f = cache[key] = ImageFont.truetype(str(BOLD if bold else REGULAR), size)
    return f


def text_width(text: str, size: int, bold: bool = False) -> int:
    """Width in pixels of ``text`` drawn in :func:`font` ``(size, bold)`` (Czech suit signs included)."""
    f = font(size, bold)
    if any(ch in SIGNS for ch in text):
        return int(sum(sign_width(size) if ch in SIGNS else f.getlength(ch) for ch in text))
    return int(f.getlength(text))


#: Private-use characters that image text writes for the Czech pack's suit signs (H D S C), drawn
#: as pips by ``bot.render.text`` (no font has them).
SIGNS = "\ue000\ue001\ue002\ue003"


def sign_width(size: int) -> int:
    """Width of a Czech suit sign in text of ``size`` pixels."""
    return round(size * 0.8)


@functools.lru_cache(maxsize=4096)
def fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text`` shortened with an ellipsis so that it fits in ``width`` pixels (cached)."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"
