"""Animated replay of one deal: one frame per move, animated WebP (lossless) or GIF.

Each frame is the channel's table image of a spectator view (``table_canvas``, mapped to the
shared 256-colour palette exactly as ``table_image`` encodes it), so the last frame is pixel for
pixel the table image the channel showed after the deal's last move (when drawn in the table's
language: ``/replay`` answers only its asker, so its words are in the asker's language). A revealed
replay (a finished session, asked by one of its players) adds a band under the table with every
seat's hand as dealt.

Pure functions of their arguments, safe in a worker thread (``asyncio.to_thread``).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from PIL import Image

from bot.render.canvas import GOLD, PANEL, WHITE, Canvas
from bot.render.palette import palette_image
from bot.render.table import HEIGHT, WIDTH, table_canvas
from bot.rules import is_spanish
from bot.rules.base import PLAIN, Text

FRAME_MS = 700
LAST_MS = 3000
BAND_ROW = 74
CARD_W = 40
FORMATS = ("webp", "gif")


def spectator_frame(game: str, view: dict[str, Any], names: Sequence[str], tr: Text = PLAIN) -> Image.Image:
    """The table image of ``view`` as ``table_image`` encodes it ("P" on the shared palette), unencoded."""
    return _on_palette(table_canvas(game, view, list(names), tr).img)


def _on_palette(img: Image.Image) -> Image.Image:
    pal = palette_image()  # the same mapping as bot.render.palette.encode_png
    return img.quantize(palette=pal, dither=Image.Dither.NONE) if pal is not None else img


def hands_band(game: str, names: Sequence[str], hands: Sequence[Sequence[str]],
               tr: Text = PLAIN) -> Image.Image:
    """The band under a revealed replay: every seat's cards of the deal, two seats per row."""
    rows = -(-len(hands) // 2)
    c = Canvas(WIDTH, 34 + rows * BAND_ROW, PANEL, tr)  # card faces in the same language
    c.text((16, 8), tr._("Every hand of this deal"), 20, GOLD, bold=True)
    half = WIDTH // 2
    for seat, hand in enumerate(hands):
        x = 16 + (seat % 2) * half
        y = 34 + (seat // 2) * BAND_ROW
        name = str(names[seat]) if seat < len(names) else tr._("seat {n}", n=seat)
        c.text((x, y + 4), name, 17, WHITE, bold=True, max_width=110)
        c.card_row(list(hand), x + 118, y, CARD_W, half - 150, is_spanish(game))
    return _on_palette(c.img)


def revealed_frame(game: str, view: dict[str, Any], names: Sequence[str], band: Image.Image,
                   tr: Text = PLAIN) -> Image.Image:
    """The table image of ``view`` with ``band`` (``hands_band``) pasted below it."""
    top = spectator_frame(game, view, names, tr)
    if top.mode != band.mode:
        top, band = top.convert("RGB"), band.convert("RGB")
    out = Image.new(top.mode, (WIDTH, HEIGHT + band.height))
    if top.mode == "P":
        out.putpalette(top.getpalette())
    out.paste(top, (0, 0))
    out.paste(band, (0, HEIGHT))
    return out


def frames(game: str, views: Iterable[dict[str, Any]], names: Sequence[str],
           hands: Sequence[Sequence[str]] | None = None, tr: Text = PLAIN) -> Iterator[Image.Image]:
    """One image per view, spectator only unless ``hands`` is given; words in ``tr``'s language."""
    band = None if hands is None else hands_band(game, names, hands, tr)
    for view in views:
        yield (spectator_frame(game, view, names, tr) if band is None
               else revealed_frame(game, view, names, band, tr))


def encode(images: Sequence[Image.Image], fmt: str = "webp") -> bytes:
    """An animation looping forever: ``FRAME_MS`` per frame, the last one held ``LAST_MS``."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown replay format {fmt!r}")
    if not images:
        raise ValueError("a replay needs at least one frame")
    durations = [FRAME_MS] * (len(images) - 1) + [LAST_MS]
    buf = io.BytesIO()
    if fmt == "gif":
        first, rest = images[0], list(images[1:])
        first.save(buf, format="GIF", save_all=True, append_images=rest, duration=durations, loop=0,
                   optimize=False, disposal=1)
    else:
        rgb = [im.convert("RGB") for im in images]
        # Lossless (the last frame must equal the table image), fast effort, and no key frame after
        # the first: the frames differ by a few cards, so deltas are small and quick to encode.
        kmax = len(rgb) + 1
        rgb[0].save(buf, format="WEBP", save_all=True, append_images=rgb[1:], duration=durations, loop=0,
                    lossless=True, method=1, quality=0, kmin=kmax - 1, kmax=kmax)
    return buf.getvalue()


def replay_image(game: str, views: Sequence[dict[str, Any]], names: Sequence[str],
                 hands: Sequence[Sequence[str]] | None = None, fmt: str = "webp", tr: Text = PLAIN) -> bytes:
    """The animated replay of a deal's views (see the module docstring), drawn in ``tr``'s language."""
    return encode(list(frames(game, views, names, hands, tr)), fmt)


def decode_frames(data: bytes) -> list[Image.Image]:
    """Every frame of an animation, as RGB (tests, and checking a replay by eye)."""
    img = Image.open(io.BytesIO(data))
    out = []
    for i in range(getattr(img, "n_frames", 1)):
        img.seek(i)
        out.append(img.convert("RGB"))
    return out
