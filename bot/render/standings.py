"""A tournament's standings as a PNG: rank, name, points, tie-break, sessions, net (``Canvas``)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.render.canvas import GOLD, MUTED, PANEL, WHITE, Canvas
from bot.render.fonts import readable, text_width
from bot.render.leaderboard import MEDALS, _grouped
from bot.rules.base import PLAIN, Text
from bot.tournaments.standings import Standing

WIDTH = 760
ROW_H = 40
TOP = 92
MAX_ROWS = 24
COLUMNS = (470, 560, 640, 740)  # right edges: points, tie-break, sessions, net
HEAD = 17  # the columns' headings: 8 px where a phone shows the image 360 px wide


def standings_image(rows: Sequence[Standing], title: str, swiss: bool, tr: Text = PLAIN) -> bytes:
    """PNG of the standings (at most ``MAX_ROWS`` lines, then how many more); the second column is
    Buchholz in a Swiss, tables won in a club night."""
    rows = list(rows)
    more = max(0, len(rows) - MAX_ROWS)  # entrants past the image's rows: said on a last line
    rows = rows[:MAX_ROWS]
    c = Canvas(WIDTH, TOP + (max(1, len(rows)) + (1 if more else 0)) * ROW_H + 16, PANEL)
    c.text((20, 14), title, 26, GOLD, bold=True, max_width=WIDTH - 40)
    heads = (tr._("points"), tr._("Buchholz") if swiss else tr._("wins"), tr._("sessions"), tr._("net"))
    cells = [(str(s.points), str(s.buchholz if swiss else s.wins), str(s.sessions), _grouped(s.net, tr))
             for s in rows]
    columns = _columns(heads, cells)
    for x, head in zip(columns, heads, strict=True):
        c.text((x, 66), head, HEAD, MUTED, anchor="rm")
    name_w = min(340, columns[0] - _width(heads[0], [row[0] for row in cells], False) - 70)
    for i, s in enumerate(rows):
        y = TOP + i * ROW_H
        mid = y + ROW_H / 2
        if i % 2 == 0:
            c.draw.rectangle((8, y, WIDTH - 8, y + ROW_H - 2), fill=(22, 64, 42))
        medal = MEDALS.get(s.rank)
        if medal:
            c.chip(32, mid, 13, fill=medal, label=str(s.rank), size=17, ink=(30, 30, 30))
        else:
            c.text((32, mid), str(s.rank), 18, MUTED, bold=True, anchor="mm")
        c.text((58, mid), readable(s.name), 19, MUTED if s.withdrawn else WHITE, bold=True, anchor="lm",
               max_width=name_w)
        for x, value in zip(columns[:3], cells[i][:3], strict=True):
            c.text((x, mid), value, 19, WHITE, anchor="rm")
        c.text((columns[3], mid), cells[i][3], 19, GOLD, bold=True, anchor="rm")
    if more:
        c.text((58, TOP + len(rows) * ROW_H + ROW_H / 2),
               tr.n_("… and {n} more entrant", "… and {n} more entrants", more),
               18, MUTED, anchor="lm", max_width=WIDTH - 80)
    return c.png()


def _width(head: str, values: Sequence[str], bold: bool) -> int:
    """The width a column needs: its heading's and its widest value's."""
    return max([text_width(head, HEAD)] + [text_width(v, 19, bold) for v in values])


def _columns(heads: Sequence[str], cells: Sequence[Sequence[str]]) -> list[int]:
    """The columns' right edges: :data:`COLUMNS`, each moved left as far as the column after it needs
    (a net of -1,000,000 would otherwise run into the sessions)."""
    edges = list(COLUMNS)
    for k in range(len(edges) - 2, -1, -1):
        need = _width(heads[k + 1], [row[k + 1] for row in cells], k + 1 == 3)
        edges[k] = min(edges[k], edges[k + 1] - need - 16)
    return edges
