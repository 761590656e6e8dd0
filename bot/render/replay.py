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
import struct
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from PIL import GifImagePlugin, Image, ImageChops

from bot.render.canvas import GOLD, PANEL, WHITE, Canvas
from bot.render.fonts import readable
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
    c = Canvas(WIDTH, 34 + rows * BAND_ROW, PANEL, tr, game=game)  # card faces in the same language and look
    c.text((16, 8), tr._("Every hand of this deal"), 20, GOLD, bold=True)
    half = WIDTH // 2
    for seat, hand in enumerate(hands):
        x = 16 + (seat % 2) * half
        y = 34 + (seat // 2) * BAND_ROW
        missing = tr._("seat {n}", n=seat)
        name = readable(str(names[seat]), missing) if seat < len(names) else missing
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


class TooLarge(ValueError):
    """The animation passed its byte limit while being encoded (encoding stopped there)."""


def encode(images: Iterable[Image.Image], fmt: str = "webp", limit: int | None = None) -> bytes:
    """An animation looping forever: ``FRAME_MS`` per frame, the last one held ``LAST_MS``.

    ``images`` may be a generator: each frame is encoded as soon as it is drawn and only the
    previous one is kept (the next is encoded as the rectangle that changed), so memory does not
    grow with the number of frames. Consecutive identical frames become one longer frame. With
    ``limit``, ``TooLarge`` is raised as soon as the file would pass ``limit`` bytes.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown replay format {fmt!r}")
    writer: _Writer = _GifWriter(limit) if fmt == "gif" else _WebpWriter(limit)
    previous: Image.Image | None = None
    pending: Any = None  # the last frame encoded, written once its duration is known
    duration = 0
    for img in images:
        if previous is not None and img.size != previous.size:
            raise ValueError("every frame of a replay has the same size")
        box = (0, 0, *img.size) if previous is None else _changed(previous, img)
        if box is None:  # the same picture: the frame before lasts longer
            duration += FRAME_MS
            continue
        if previous is not None:
            writer.write(pending, duration)
        else:
            writer.start(img)
        pending, duration = writer.encode(img, box), FRAME_MS
        previous = img
    if previous is None:
        raise ValueError("a replay needs at least one frame")
    writer.write(pending, duration - FRAME_MS + LAST_MS)
    return writer.close()


def _changed(before: Image.Image, after: Image.Image) -> tuple[int, int, int, int] | None:
    """The rectangle where ``after`` differs from ``before`` (None if nowhere)."""
    if before.mode == "P" and after.mode == "P":  # one shared palette: compare the indices
        return ImageChops.subtract_modulo(after, before).getbbox()
    return ImageChops.difference(after.convert("RGB"), before.convert("RGB")).getbbox()


class _Writer:
    """One animation being written: each frame encoded alone, appended once its duration is known."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.out = io.BytesIO()

    def put(self, *chunks: bytes) -> None:
        size = sum(len(c) for c in chunks)
        if self.limit is not None and self.out.tell() + size > self.limit:
            raise TooLarge(f"the replay passes {self.limit} bytes")
        for chunk in chunks:
            self.out.write(chunk)

    def start(self, img: Image.Image) -> None:
        """The file's header, from the first frame."""

    def encode(self, img: Image.Image, box: tuple[int, int, int, int]) -> Any:
        raise NotImplementedError

    def write(self, frame: Any, duration: int) -> None:
        raise NotImplementedError

    def close(self) -> bytes:
        raise NotImplementedError


class _GifWriter(_Writer):
    """GIF89a on the shared palette (one global colour table); each later frame is the rectangle
    that changed, drawn over the previous picture (disposal 1)."""

    @staticmethod
    def _paletted(img: Image.Image) -> Image.Image:
        return img if img.mode == "P" else img.convert("RGB").convert("P", palette=Image.Palette.WEB)

    def start(self, img: Image.Image) -> None:
        header, _ = GifImagePlugin.getheader(self._paletted(img).copy(), None, {"loop": 0, "optimize": False})
        self.put(*header)

    def encode(self, img: Image.Image, box: tuple[int, int, int, int]) -> Any:
        return self._paletted(img).crop(box), box[:2]

    def write(self, frame: Any, duration: int) -> None:
        region, offset = frame
        self.put(*GifImagePlugin.getdata(region, offset, duration=duration, disposal=1))

    def close(self) -> bytes:
        self.put(b";")
        return self.out.getvalue()


class _WebpWriter(_Writer):
    """Animated WebP (RIFF: VP8X, ANIM, one ANMF per frame), every frame lossless (VP8L). A later
    frame is the rectangle that changed (its corner on even pixels, as the format requires), its
    unchanged pixels transparent and alpha-blended over the previous picture, so the decoded
    frame is exactly the drawn one while the unchanged pixels cost next to nothing."""

    def __init__(self, limit: int | None) -> None:
        super().__init__(limit)
        self.previous: Image.Image | None = None

    def start(self, img: Image.Image) -> None:
        w, h = img.size
        vp8x = bytes([0x12, 0, 0, 0]) + _u24(w - 1) + _u24(h - 1)  # flags: alpha, animation
        anim = struct.pack("<IH", 0xFFFFFFFF, 0)  # background white, loop forever
        self.put(b"RIFF", b"\0\0\0\0", b"WEBP", _chunk(b"VP8X", vp8x), _chunk(b"ANIM", anim))

    def encode(self, img: Image.Image, box: tuple[int, int, int, int]) -> Any:
        box = (box[0] & ~1, box[1] & ~1, box[2], box[3])
        region = img.crop(box).convert("RGB")
        before, self.previous = self.previous, img
        blend = before is not None
        if before is not None:
            old = before.crop(box)
            if old.mode == "P" and img.mode == "P":
                diff = ImageChops.subtract_modulo(img.crop(box), old)
                changed = Image.frombytes("L", diff.size, diff.tobytes())
            else:
                changed = ImageChops.difference(region, old.convert("RGB")).convert("L")
            region.putalpha(changed.point([0] + [255] * 255))
        buf = io.BytesIO()
        region.save(buf, format="WEBP", lossless=True, method=1, quality=0)
        chunks = [c for c in _chunks(buf.getvalue()) if c[:4] in (b"ALPH", b"VP8 ", b"VP8L")]
        return box[:2], region.size, blend, b"".join(chunks)

    def write(self, frame: Any, duration: int) -> None:
        (x, y), (w, h), blend, data = frame
        head = _u24(x // 2) + _u24(y // 2) + _u24(w - 1) + _u24(h - 1) + _u24(min(duration, 0xFFFFFF))
        self.put(_chunk(b"ANMF", head + bytes([0 if blend else 0x02]) + data))  # never disposed

    def close(self) -> bytes:
        data = bytearray(self.out.getvalue())
        data[4:8] = struct.pack("<I", len(data) - 8)
        return bytes(data)


def _u24(n: int) -> bytes:
    return n.to_bytes(3, "little")


def _chunk(tag: bytes, payload: bytes) -> bytes:
    """A RIFF chunk: tag, little-endian size, payload, padded to an even length."""
    return tag + struct.pack("<I", len(payload)) + payload + (b"\0" if len(payload) % 2 else b"")


def _chunks(riff: bytes) -> Iterator[bytes]:
    """The chunks (with their headers and padding) inside a ``RIFF…WEBP`` file."""
    at = 12
    while at + 8 <= len(riff):
        size = struct.unpack("<I", riff[at + 4:at + 8])[0]
        end = at + 8 + size + (size & 1)
        yield riff[at:end]
        at = end


def replay_image(game: str, views: Sequence[dict[str, Any]], names: Sequence[str],
                 hands: Sequence[Sequence[str]] | None = None, fmt: str = "webp", tr: Text = PLAIN,
                 limit: int | None = None) -> bytes:
    """The animated replay of a deal's views (see the module docstring), drawn in ``tr``'s language,
    each frame encoded as soon as it is drawn (``encode``)."""
    return encode(frames(game, views, names, hands, tr), fmt, limit)


def decode_frames(data: bytes) -> list[Image.Image]:
    """Every frame of an animation, as RGB (tests, and checking a replay by eye)."""
    img = Image.open(io.BytesIO(data))
    out = []
    for i in range(getattr(img, "n_frames", 1)):
        img.seek(i)
        out.append(img.convert("RGB"))
    return out
