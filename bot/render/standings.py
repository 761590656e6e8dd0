"""A tournament's standings as a PNG: rank, name, points, tie-break, sessions, net (``Canvas``)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.render.canvas import GOLD, MUTED, PANEL, WHITE, Canvas
from bot.render.leaderboard import MEDALS, _grouped
from bot.rules.base import PLAIN, Text
from bot.tournaments.standings import Standing

WIDTH = 760
ROW_H = 40
TOP = 92
MAX_ROWS = 24
COLUMNS = (470, 560, 640, 740)  # right edges: points, tie-break, sessions, net


def standings_image(rows: Sequence[Standing], title: str, swiss: bool, tr: Text = PLAIN) -> bytes:
    """PNG of the standings (at most ``MAX_ROWS`` lines); the second column is Buchholz in a Swiss,
    tables won in a club night."""
    rows = list(rows)[:MAX_ROWS]
    c = Canvas(WIDTH, TOP + max(1, len(rows)) * ROW_H + 16, PANEL)
    c.text((20, 14), title, 26, GOLD, bold=True, max_width=WIDTH - 40)
    heads = (tr._("points"), tr._("Buchholz") if swiss else tr._("wins"), tr._("sessions"), tr._("net"))
    for x, head in zip(COLUMNS, heads, strict=True):
        c.text((x, 66), head, 15, MUTED, anchor="rm")
    for i, s in enumerate(rows):
        y = TOP + i * ROW_H
        mid = y + ROW_H / 2
        if i % 2 == 0:
            c.draw.rectangle((8, y, WIDTH - 8, y + ROW_H - 2), fill=(22, 64, 42))
        medal = MEDALS.get(s.rank)
        if medal:
            c.chip(32, mid, 13, fill=medal, label=str(s.rank), size=14, ink=(30, 30, 30))
        else:
            c.text((32, mid), str(s.rank), 18, MUTED, bold=True, anchor="mm")
        c.text((58, mid), s.name, 19, MUTED if s.withdrawn else WHITE, bold=True, anchor="lm", max_width=340)
        second = s.buchholz if swiss else s.wins
        for x, value in zip(COLUMNS[:3], (s.points, second, s.sessions), strict=True):
            c.text((x, mid), str(value), 19, WHITE, anchor="rm")
        c.text((COLUMNS[3], mid), _grouped(s.net, tr), 19, GOLD, bold=True, anchor="rm")
    return c.png()
