"""The fixed 256-colour palette every image is encoded with.

Mapping to a fixed palette (no per-image colour search) then writing a palette PNG is about
three times faster than writing RGB (Pillow filters every RGB row) and the file is about 2.5×
smaller. The palette lives in ``palette_data.py``: every colour named in ``bot.render``
(``bot.render.named``) exactly, the rest fitted to the fixed sample views. After changing colours
or sprites, rebuild it with::

    .venv/bin/python tools/build_palette.py
"""

from __future__ import annotations

import io

from PIL import Image

_PALETTE: Image.Image | None = None


def _load() -> Image.Image | None:
    try:
        from bot.render.palette_data import PALETTE
    except ImportError:
        return None
    img = Image.new("P", (1, 1))
    img.putpalette(PALETTE)
    return img


def palette_image() -> Image.Image | None:
    """The shared palette as a 1×1 "P" image (None until ``palette_data.py`` exists)."""
    global _PALETTE
    if _PALETTE is None:
        _PALETTE = _load()
    return _PALETTE


def encode_png(img: Image.Image, level: int = 1) -> bytes:
    """PNG bytes of an RGB image, mapped to the shared palette when there is one."""
    pal = palette_image()
    out = img.quantize(palette=pal, dither=Image.Dither.NONE) if pal is not None else img
    buf = io.BytesIO()
    out.save(buf, format="PNG", compress_level=level)
    return buf.getvalue()
