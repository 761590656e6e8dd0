"""The channel's table image: felt, seats around it, the game's centre, a sidebar of figures.

Layout (960×540): the oval table fills the left 700 px, seats sit on an ellipse around it
(seat 0 at the bottom, then clockwise), the right 260 px are a sidebar (game, deal, phase, who
acts, pot, the game's own figures). Each game module in ``bot.render.games`` fills the centre,
the plates' extra lines and the sidebar. Only a spectator view is expected; the seat's own
``hand`` is never drawn here, whatever the view holds.
"""

from __future__ import annotations

from typing import Any

from bot.render.canvas import FELT_INNER, FELT_RIM, GOLD, MUTED, PANEL, PLATE, WHITE, Canvas, Colour
from bot.render.cards import undressed
from bot.render.fonts import font, text_width
from bot.render.games import LAYOUTS
from bot.render.layout import (
    HEIGHT,
    PLATE_H,
    PLATE_W,
    SIDEBAR_X,
    TABLE_W,
    WIDTH,
    Plate,
    Sidebar,
    TableCtx,
)
from bot.render.words import phase_name
from bot.rules import GAMES, is_spanish
from bot.rules.base import PLAIN, Text


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
    phase = phase_name(str(v.get("phase", "")), game, t.tr)
    if isinstance(deal, int):
        phase += " · " + t.word("deal {n}", n=deal + 1)
    if v.get("closing"):
        phase += " · " + t.word("closing")
    # the last deal of a long session ("Konec sezení · rozdání 200") shrinks rather than lose its number
    size = next((z for z in (19, 18, 17, 16) if text_width(phase, z) <= s.width), 15)
    s.line(phase, size, WHITE, gap=4 + 19 - size)
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
    if acting:  # the turn's gold ring, kept on the canvas at the bottom seat
        c.panel((x0 - 5, y0 - 5, x0 + PLATE_W + 5, min(HEIGHT - 1, y0 + PLATE_H + 5)), fill=GOLD, radius=14)
    c.panel((x0, y0, x0 + PLATE_W, y0 + PLATE_H), fill=(44, 54, 50) if plate.dim else PLATE,
            outline=WHITE if acting else (70, 110, 86), radius=10)
    # badges on the top edge: dealer first, then the game's marks (the top seat's stay on the canvas)
    bx = x0 + PLATE_W - 14
    by = max(1.0, y0 - 10)
    pills: list[tuple[str, Colour]] = []
    if v.get("dealer") == seat:
        pills.append(("D", (235, 235, 235)))
    pills.extend(plate.marks)
    for label, colour in pills:
        w = max(24, c.draw.textlength(label, font=font(15, True)) + 12)
        c.panel((bx - w + 12, by, bx + 12, y0 + 12), fill=colour, outline=PLATE, radius=10)
        c.text((bx - w / 2 + 12, (by + y0 + 12) / 2), label, 15, (20, 20, 20), bold=True, anchor="mm")
        bx -= w + 4
    name_w = PLATE_W - 16
    c.text((x0 + 8, y0 + 9), t.name(seat), 22, MUTED if plate.dim else WHITE, bold=True,
           max_width=int(name_w))
    stacks = v.get("stacks") or []
    stack = t.tr.number(stacks[seat]) if seat < len(stacks) else ""
    count = f"×{plate.hidden}" if plate.hidden else ""
    size, backs_x, most = stack_row(x0, stack, count)
    if stack:
        c.chip(x0 + 17, y0 + 46, 8)
        c.text((x0 + 30, y0 + 47), stack, size, GOLD, bold=True, anchor="lm",
               max_width=int(backs_x - x0 - 36))
    if plate.hidden:
        end = c.backs(plate.hidden, backs_x, y0 + 34, 16, 6, most=most)
        c.text((end + 3, y0 + 46), count, 16, WHITE, anchor="lm")
    if plate.line:
        c.text((x0 + 8, y0 + 61), plate.line, 17, plate.line_colour, max_width=PLATE_W - 14)


def stack_row(x0: float, stack: str, count: str) -> tuple[int, float, int]:
    """``(size, backs_x, most)`` for a plate's second line: the stack's font size, where the
    hidden hand's backs start and how many are drawn, so that a wide stack (1,000,000 jetons)
    never runs under the backs and the ``×n`` count stays on the plate."""
    backs_x = x0 + PLATE_W - 86
    if not count:
        return 21, x0 + PLATE_W - 8 + 6, 6
    right = x0 + PLATE_W - 6 - text_width(count, 16) - 3  # where the last back must end
    for size in (21, 19, 17, 15):
        start = max(backs_x, x0 + 30 + text_width(stack, size, True) + 6)
        if start + 16 <= right:
            return size, start, min(6, 1 + int(right - start - 16) // 6)
    return 15, right - 16, 1


def table_image(game: str, view: dict[str, Any], names: list[str], tr: Text = PLAIN) -> bytes:
    """PNG of the table for a spectator ``view`` of ``game``; ``names`` by seat; words in ``tr``."""
    return table_canvas(game, view, names, tr).png()


def table_canvas(game: str, view: dict[str, Any], names: list[str], tr: Text = PLAIN) -> Canvas:
    """The drawn table (``table_image`` encodes it; a replay takes its frames from here)."""
    layout = LAYOUTS.get(game)
    if layout is None:
        raise ValueError(f"no table layout for game {game!r}")
    n = len(view.get("stacks") or names)
    c = Canvas(WIDTH, HEIGHT, tr=tr, game=game)
    draw_felt(c)
    t = TableCtx(c=c, view=view, names=list(names), n=max(1, n), spanish=is_spanish(game),
                 side=Sidebar(c, SIDEBAR_X + 12, WIDTH - SIDEBAR_X - 24), plates=[Plate() for _ in range(n)],
                 tr=undressed(tr), look=c.look)
    draw_header(t, game)
    layout.draw(t)
    for seat in range(n):
        draw_plate(t, seat, t.plates[seat])
    return c
