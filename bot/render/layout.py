"""Layout primitives of the table image, shared by ``table.py`` and every ``games/*`` module.

Geometry (960×540: the oval table on the left 700 px, a sidebar on the right), a seat's
``Plate``, the ``Sidebar`` writer and ``TableCtx``, everything a game module needs to draw its
part. Nothing here imports ``table`` or ``games``, so the three import one way:
``table`` → ``games`` → ``layout``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.render.canvas import MUTED, WHITE, Canvas, Colour
from bot.render.fonts import fit, font, readable, text_width
from bot.render.text import czech_sign
from bot.rules.base import PLAIN, Text
from bot.rules.cards import SUIT_SYMBOLS
from bot.rules.looks import CZECH, DEFAULT, Look

WIDTH, HEIGHT = 960, 540
TABLE_W = 700
CX, CY = 350, 272
RX, RY = 252, 222
PLATE_W, PLATE_H = 180, 84
TRICK_W = 64  # width of a card on the table
SIDEBAR_X = TABLE_W + 6


@dataclass
class Plate:
    """What a seat's plate shows besides name, stack and dealer mark (filled by the game)."""

    hidden: int = 0  # cards in the seat's hidden hand (drawn as backs)
    line: str = ""  # third line: the game's short status ("stands · 1 trick")
    line_colour: Colour = MUTED
    marks: list[tuple[str, Colour]] = field(default_factory=list)  # small pills ("M", "S")
    dim: bool = False  # out of the deal / eliminated


class Sidebar:
    """Top-to-bottom text and card rows in the right-hand column."""

    def __init__(self, canvas: Canvas, x: int, width: int, top: int = 10, bottom: int = HEIGHT - 10):
        self.c, self.x, self.width, self.y, self.bottom = canvas, x, width, top, bottom

    def room(self, h: int) -> bool:
        return self.y + h <= self.bottom

    def line(self, text: str, size: int = 18, fill: Colour = WHITE, bold: bool = False, gap: int = 4) -> None:
        if not self.room(size):
            return
        self.c.text((self.x, self.y), text, size, fill, bold, max_width=self.width)
        self.y += size + gap

    def wrapped(self, parts: list[str], size: int = 16, fill: Colour = WHITE, gap: int = 4,
                most: int = 8) -> None:
        """``parts`` written one after another, separated by commas, over as many lines as they need
        (at most ``most``; the last one cut with "…"): a part is never split between two lines."""
        lines: list[str] = []
        for i, part in enumerate(parts):
            piece = part + ("," if i < len(parts) - 1 else "")
            joined = f"{lines[-1]} {piece}" if lines else piece
            if lines and text_width(joined, size) <= self.width:
                lines[-1] = joined
            else:
                lines.append(piece)
        if len(lines) > most:
            lines[most - 1:] = [" ".join(lines[most - 1:])]
        for line in lines:
            self.line(line, size, fill, gap=gap)

    def kv(self, label: str, value: str, fill: Colour = WHITE, size: int = 20) -> None:
        """``label`` in muted ink, ``value`` bold after it; when both do not fit on one line (a long
        name after a long label: "Spare hand bid" and a player), the label, then the value on a line
        of its own, so neither is cut while the column has room for two lines."""
        if not self.room(size):
            return
        both = text_width(label + " ", size - 2) + text_width(value, size, True)
        if both > self.width and self.room(2 * size + 5):
            self.c.text((self.x, self.y), label, size - 2, MUTED, max_width=self.width)
            self.y += size
            self.c.text((self.x, self.y), value, size, fill, bold=True, max_width=self.width)
            self.y += size + 5
            return
        # a long label ("Soberako eskuaren eskaintza") is shortened so that its value stays in view
        room = max(self.width // 2, self.width - text_width(value, size, True) - 6)
        label = fit(label, size - 2, room)
        lw = self.c.draw.textlength(label + " ", font=font(size - 2))
        self.c.text((self.x, self.y + 2), label, size - 2, MUTED)
        self.c.text((self.x + lw, self.y), value, size, fill, bold=True, max_width=int(self.width - lw))
        self.y += size + 5

    def cards(self, codes: list[str], width: int, spanish: bool = False, caption: str = "") -> None:
        h = round(width * 1.4)
        if not self.room(h):
            return
        end = self.c.card_row(codes, self.x, self.y, width, self.width - (90 if caption else 0), spanish)
        if caption:
            self.c.text((end + 10, self.y + h / 2), caption, 18, WHITE, bold=True, anchor="lm",
                        max_width=int(self.x + self.width - end - 10))
        self.y += h + 6

    def gap(self, h: int = 6) -> None:
        self.y += h


@dataclass
class TableCtx:
    """Everything a game module needs to draw its part of the table."""

    c: Canvas
    view: dict[str, Any]
    names: list[str]
    n: int
    spanish: bool
    side: Sidebar
    plates: list[Plate]
    tr: Text = PLAIN  # the table's language
    look: Look = DEFAULT  # the pack and faces of the table's cards

    def suit_sym(self, suit: str | None) -> str:
        """A suit's sign in the image's text: ♥ in the French pack, the Czech pack's drawn sign."""
        if suit in SUIT_SYMBOLS and self.look.pack == CZECH:
            return czech_sign(suit)
        return SUIT_SYMBOLS.get(suit or "", "—")

    def word(self, msgid: str, **params: Any) -> str:
        """A word of the image in the table's language (``word`` is an extraction keyword)."""
        return self.tr._(msgid, **params)

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "—"
        missing = self.tr._("Seat {n}", n=seat + 1)  # also for a name with nothing drawable
        return readable(self.names[seat], missing) if 0 <= seat < len(self.names) else missing

    def named(self, seat: int | None, text: Callable[[str], str], size: int, width: int,
              bold: bool = False) -> str:
        """``text(name)`` with the seat's name shortened (an ellipsis) so that the whole fits in
        ``width`` pixels at ``size``: the figure after a 32-letter name stays in view."""
        rest = text_width(text(""), size, bold)
        room = max(width // 6, width - rest)
        line = text(fit(self.name(seat), size, room, bold))
        while text_width(line, size, bold) > width and room > width // 6:  # the join's kerning ("…:")
            room -= 2
            line = text(fit(self.name(seat), size, room, bold))
        return line

    def seat_xy(self, seat: int) -> tuple[float, float]:
        """Centre of a seat's plate: seat 0 at the bottom, then clockwise.

        Eight plates do not fit with one at the very bottom and top, so with eight seats the
        ring turns half a step (seat 0 bottom-left of centre).
        """
        a = math.pi / 2 + 2 * math.pi * (seat + (0.5 if self.n >= 8 else 0)) / self.n
        return CX + RX * math.cos(a), CY + RY * math.sin(a)

    def beside(self, seat: int, w: float, h: float, gap: float = 10, nudge: float = 0) -> tuple[float, float]:
        """Top-left of a ``w``×``h`` box just off the seat's plate, on the side of the centre.

        Seats at the sides get the box beside the plate (level with it), seats at the top and
        bottom get it above or below, so boxes never reach into the middle of the table.
        ``nudge`` slides the box along the plate's edge towards the centre line.
        """
        x, y = self.seat_xy(seat)
        if abs(x - CX) > 120:
            y += math.copysign(min(nudge, abs(CY - y)), CY - y)
            if x < CX:
                return x + PLATE_W / 2 + gap, y - h / 2
            return x - PLATE_W / 2 - gap - w, y - h / 2
        x += math.copysign(min(nudge, abs(CX - x)), CX - x)
        if y < CY:
            return x - w / 2, y + PLATE_H / 2 + gap
        return x - w / 2, y - PLATE_H / 2 - gap - h

    def trick_card(self, seat: int, code: str, width: int = TRICK_W, gap: float = 12) -> None:
        """A card played by ``seat``, just off its plate towards the centre."""
        x, y = self.beside(seat, width, round(width * 1.4), gap)
        self.c.card(code, x, y, width, self.spanish)

    def centre_amount(self, label: str, amount: int | str, y: float = CY) -> None:
        """A chip, an amount and its label in the middle of the table."""
        w = self.c.draw.textlength(str(amount), font=font(28, True))
        x = CX - (w + 34) / 2
        self.c.chip(x + 13, y, 13)
        self.c.text((x + 34, y), str(amount), 28, WHITE, bold=True, anchor="lm")
        self.c.text((CX, y + 20), label, 16, MUTED, anchor="mt")
