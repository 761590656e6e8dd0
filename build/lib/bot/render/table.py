"""The channel's table image: felt, seats around it, the game's centre, a sidebar of figures.

Layout (960×540): the oval table fills the left 700 px, seats sit on an ellipse around it
(seat 0 at the bottom, then clockwise), the right 260 px are a sidebar (game, deal, phase, who
acts, pot, the game's own figures). Each game module in ``bot.render.games`` fills the centre,
the plates' extra lines and the sidebar. Only a spectator view is expected; the seat's own
``hand`` is never drawn here, whatever the view holds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from bot.render.canvas import FELT_INNER, FELT_RIM, GOLD, MUTED, PANEL, PLATE, WHITE, Canvas, Colour
from bot.render.fonts import font
from bot.render.words import phase_name
from bot.rules import GAMES
from bot.rules.base import PLAIN, Text

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

    def kv(self, label: str, value: str, fill: Colour = WHITE, size: int = 20) -> None:
        """``label`` in muted ink, ``value`` bold after it."""
        if not self.room(size):
            return
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

    def word(self, msgid: str, **params: Any) -> str:
        """A word of the image in the table's language (``word`` is an extraction keyword)."""
        return self.tr._(msgid, **params)

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "—"
        return self.names[seat] if 0 <= seat < len(self.names) else self.tr._("Seat {n}", n=seat + 1)

    def seat_xy(self, seat: int) -> tuple[float, float]:
        """Centre of a seat's plate: seat 0 at the bottom, then clockwise.

        Eight plates do not fit with one at the very bottom and top, so with eight seats the
        ring turns half a step (seat 0 bottom-left of centre).
        """
        a = math.pi / 2 + 2 * math.pi * (seat + (0.5 if self.n >= 8 else 0)) / self.n
        return CX + RX * math.cos(a), CY + RY * math.sin(a)

    def toward_centre(self, seat: int, f: float) -> tuple[float, float]:
        """The point a fraction ``f`` of the way from the centre to the seat."""
        x, y = self.seat_xy(seat)
        return CX + (x - CX) * f, CY + (y - CY) * f

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


def draw_felt(c: Canvas) -> None:
    c.draw.ellipse((14, 26, TABLE_W - 14, HEIGHT - 26), fill=FELT_RIM)
    c.draw.ellipse((30, 42, TABLE_W - 30, HEIGHT - 42), fill=FELT_INNER)
    c.panel((SIDEBAR_X, 6, WIDTH - 6, HEIGHT - 6), fill=PANEL, radius=12)


def draw_header(t: TableCtx, game: str) -> None:
    """Game title, deal number, phase and whose turn it is."""
    v, s = t.view, t.side
    deal = v.get("deal")
    title = t.tr._(GAMES[game].title) if game in GAMES else game.title()
    s.c.text((s.x, s.y), title, 26, GOLD, bold=True, max_width=s.width)
    s.y += 34
    phase = phase_name(str(v.get("phase", "")), t.tr)
    if isinstance(deal, int):
        phase += " · " + t.word("deal {n}", n=deal + 1)
    if v.get("closing"):
        phase += " · " + t.word("closing")
    s.line(phase, 19, WHITE, gap=4)
    acting = list(v.get("to_act") or [])
    if acting:
        s.line("▶ " + ", ".join(t.name(i) for i in acting), 20, GOLD, bold=True, gap=8)
    else:
        s.gap(6)


def draw_plate(t: TableCtx, seat: int, plate: Plate) -> None:
    """Name, stack, dealer mark, hidden-hand backs and the game's line for one seat."""
    c, v = t.c, t.view
    x, y = t.seat_xy(seat)
    x0, y0 = x - PLATE_W / 2, y - PLATE_H / 2
    acting = seat in (v.get("to_act") or [])
    if acting:
        c.panel((x0 - 5, y0 - 5, x0 + PLATE_W + 5, y0 + PLATE_H + 5), fill=GOLD, radius=14)
    c.panel((x0, y0, x0 + PLATE_W, y0 + PLATE_H), fill=(44, 54, 50) if plate.dim else PLATE,
            outline=WHITE if acting else (70, 110, 86), radius=10)
    # badges on the top edge: dealer first, then the game's marks
    bx = x0 + PLATE_W - 14
    pills: list[tuple[str, Colour]] = []
    if v.get("dealer") == seat:
        pills.append(("D", (235, 235, 235)))
    pills.extend(plate.marks)
    for label, colour in pills:
        w = max(24, c.draw.textlength(label, font=font(15, True)) + 12)
        c.panel((bx - w + 12, y0 - 10, bx + 12, y0 + 12), fill=colour, outline=PLATE, radius=10)
        c.text((bx - w / 2 + 12, y0 + 1), label, 15, (20, 20, 20), bold=True, anchor="mm")
        bx -= w + 4
    name_w = PLATE_W - 16
    c.text((x0 + 8, y0 + 9), t.name(seat), 22, MUTED if plate.dim else WHITE, bold=True,
           max_width=int(name_w))
    stacks = v.get("stacks") or []
    if seat < len(stacks):
        c.chip(x0 + 17, y0 + 46, 8)
        c.text((x0 + 30, y0 + 47), t.tr.number(stacks[seat]), 21, GOLD, bold=True, anchor="lm")
    if plate.hidden:
        end = c.backs(plate.hidden, x0 + PLATE_W - 86, y0 + 34, 16, 6, most=6)
        c.text((end + 3, y0 + 46), f"×{plate.hidden}", 16, WHITE, anchor="lm")
    if plate.line:
        c.text((x0 + 8, y0 + 61), plate.line, 17, plate.line_colour, max_width=PLATE_W - 14)


def table_image(game: str, view: dict[str, Any], names: list[str], tr: Text = PLAIN) -> bytes:
    """PNG of the table for a spectator ``view`` of ``game``; ``names`` by seat; words in ``tr``."""
    from bot.render.games import LAYOUTS

    layout = LAYOUTS.get(game)
    if layout is None:
        raise ValueError(f"no table layout for game {game!r}")
    n = len(view.get("stacks") or names)
    c = Canvas(WIDTH, HEIGHT)
    draw_felt(c)
    t = TableCtx(c=c, view=view, names=list(names), n=max(1, n), spanish=layout.SPANISH,
                 side=Sidebar(c, SIDEBAR_X + 12, WIDTH - SIDEBAR_X - 24), plates=[Plate() for _ in range(n)],
                 tr=tr)
    draw_header(t, game)
    layout.draw(t)
    for seat in range(n):
        draw_plate(t, seat, t.plates[seat])
    return c.png()
