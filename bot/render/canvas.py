"""A thin drawing surface shared by the renderers: text, panels, chips, cards, PNG output."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render import cards
from bot.render.fonts import fit
from bot.render.palette import encode_png
from bot.render.text import text_mask
from bot.rules.base import PLAIN, Text
from bot.rules.looks import Look

Colour = tuple[int, int, int]

FELT = (28, 92, 58)
FELT_RIM = (22, 74, 47)
FELT_INNER = (34, 106, 67)
WHITE = (245, 245, 240)
MUTED = (204, 224, 208)  # 4.7:1 on the felt's centre, 9.9:1 on a panel (WCAG AA)
GOLD = (255, 212, 80)  # figures in gold on the felt: 4.6:1
RED = (255, 120, 110)  # text: at least 4.5:1 on every dark ground it is drawn on
PANEL = (16, 52, 33)
PLATE = (14, 40, 26)
CHIP = (214, 60, 48)

PNG_LEVEL = 1  # zlib level: flat-colour art compresses well even at level 1, and it is fast


class Canvas:
    """An RGB image with the few drawing primitives the renderers need."""

    def __init__(self, width: int, height: int, background: Colour = FELT, tr: Text = PLAIN,
                 game: str | None = None, look: Look | None = None):
        self.img = Image.new("RGB", (width, height), background)
        self.draw = ImageDraw.Draw(self.img)
        self.width, self.height = width, height
        self.tr = tr  # the reader's language: the words printed on the card faces
        #: The pack and faces the cards are drawn with: ``look``, else the reader's (``tr.look``)
        #: at ``game``'s table (a game's own pack when the reader has no look: Czech for Marias).
        self.look = look if look is not None else cards.look_for(game, tr)

    # ------------------------------------------------------------------ text and shapes
    def text(self, xy: tuple[float, float], s: str, size: int, fill: Colour = WHITE, bold: bool = False,
             anchor: str = "la", max_width: int | None = None) -> None:
        """Draw ``s``; shortened with an ellipsis when wider than ``max_width``."""
        if max_width is not None:
            s = fit(s, size, max_width, bold)
        if not s:
            return
        mask, dx, dy = text_mask(s, size, bold, anchor)
        self.img.paste(fill, (round(xy[0]) + dx, round(xy[1]) + dy), mask)

    def panel(self, box: tuple[float, float, float, float], fill: Colour = PANEL,
              outline: Colour | None = None, width: int = 2, radius: int = 10) -> None:
        self.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)

    def chip(self, x: float, y: float, r: float, fill: Colour = CHIP, label: str = "",
             size: int = 14, ink: Colour = WHITE) -> None:
        """A round token centred on ``(x, y)`` with an optional centred label."""
        self.draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=WHITE, width=2)
        if label:
            self.text((x, y), label, size, fill=ink, bold=True, anchor="mm")

    # ------------------------------------------------------------------ cards
    def card(self, code: str, x: float, y: float, width: int, spanish: bool = False,
             highlight: bool = False) -> None:
        """Paste the face of ``code`` with its top-left corner at ``(x, y)``."""
        sprite = cards.face(code, spanish, width, highlight, self.tr, self.look)
        self.img.paste(sprite, (round(x), round(y)), sprite)

    def layout_card(self, code: str, x: float, y: float, width: int) -> None:
        """Paste a card of the table's layout (not from any hand), e.g. a Michigan pay card."""
        sprite = cards.layout_face(code, width, self.tr, self.look)
        self.img.paste(sprite, (round(x), round(y)), sprite)

    def back(self, x: float, y: float, width: int) -> None:
        sprite = cards.back(width)
        self.img.paste(sprite, (round(x), round(y)), sprite)

    def backs(self, count: int, x: float, y: float, width: int, step: int, most: int = 6) -> float:
        """A fan of ``min(count, most)`` backs from ``(x, y)``; returns the x after the fan."""
        shown = min(count, most)
        for i in range(shown):
            self.back(x + i * step, y, width)
        return x + (shown - 1) * step + width if shown else x

    def card_row(self, codes: list[str], x: float, y: float, width: int, max_width: float,
                 spanish: bool = False) -> float:
        """Overlapping cards left to right within ``max_width``; returns the x after the row."""
        if not codes:
            return x
        step = min(width + 4, (max_width - width) / max(1, len(codes) - 1)) if len(codes) > 1 else 0
        for i, code in enumerate(codes):
            self.card(code, x + i * step, y, width, spanish)
        return x + step * (len(codes) - 1) + width

    # ------------------------------------------------------------------ output
    def png(self) -> bytes:
        """The image as PNG bytes: shared palette, fast zlib level, no optimize pass."""
        return encode_png(self.img, PNG_LEVEL)
