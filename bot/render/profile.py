"""A player's profile card (``/stats``): one block per game played.

Each block: the game, sessions, win rate, net jetons; the current season's rating
(``mu - 3 sigma``) with its trend and a sparkline of the recent sessions; the best session;
the favourite contract or bid. Pure: takes plain dicts, returns PNG bytes.
"""

from __future__ import annotations

from typing import Any

from bot.render.canvas import GOLD, MUTED, PANEL, RED, WHITE, Canvas
from bot.render.fonts import readable, text_width
from bot.render.words import decimal, percent, signed_decimal
from bot.rules.base import PLAIN, Text, signed

WIDTH = 720
TOP = 70
BLOCK_H = 112
MAX_GAMES = 5
UP = (90, 200, 120)


def profile_image(name: str, season: int, games: list[dict[str, Any]], tr: Text = PLAIN) -> bytes:
    """PNG of a profile: ``games`` are dicts with ``title sessions wins net score trend scores best
    best_table favourite`` (rating fields None when unrated), at most five shown; words and numbers
    in ``tr``'s language (``title`` and ``favourite`` come already translated)."""
    games = list(games)[:MAX_GAMES]
    height = TOP + max(1, len(games)) * BLOCK_H + 12
    c = Canvas(WIDTH, height, PANEL)
    c.text((20, 16), readable(name), 30, GOLD, bold=True, max_width=WIDTH - 200)
    c.text((WIDTH - 20, 28), tr._("season {season}", season=tr.number(season)), 17, MUTED, anchor="ra")
    if not games:
        c.text((WIDTH / 2, TOP + 40), tr._("No finished session yet."), 20, MUTED, anchor="mm")
        return c.png()
    for i, g in enumerate(games):
        y = TOP + i * BLOCK_H
        c.panel((10, y, WIDTH - 10, y + BLOCK_H - 8), fill=(22, 64, 42), radius=10)
        c.text((24, y + 10), str(g["title"]), 22, WHITE, bold=True, max_width=300)
        sessions = int(g["sessions"])
        rate = int(g["wins"]) / sessions if sessions else 0.0
        net = int(g["net"])
        line = " · ".join((tr.n_("{n} session", "{n} sessions", sessions),
                           tr._("{rate} won", rate=percent(rate, tr)),
                           tr.n_("{signed} jeton", "{signed} jetons", abs(net), signed=signed(net, tr))))
        c.text((24, y + 42), line, 18, MUTED, max_width=400)
        if g.get("best") is not None:
            best = int(g["best"])
            c.text((24, y + 70), tr._("Best session {best} (table #{table})", best=signed(best, tr),
                                      table=g["best_table"]), 17, WHITE, max_width=330)
        if g.get("favourite"):
            c.text((360, y + 70), tr._("Favourite: {favourite}", favourite=g["favourite"]), 17, WHITE,
                   max_width=340)
        if g.get("score") is None:
            c.text((WIDTH - 24, y + 14), tr._("Not rated this season"), 18, MUTED, anchor="ra")
            continue
        trend = g.get("trend")
        right = WIDTH - 24  # the rating ends where the trend begins (its word is longer in Czech)
        if trend is not None:
            arrow = "▲" if trend > 0.05 else "▼" if trend < -0.05 else "="
            colour = UP if trend > 0.05 else RED if trend < -0.05 else MUTED
            shown = f"{arrow} {signed_decimal(trend, tr)}"
            c.text((right, y + 14), shown, 18, colour, bold=True, anchor="ra")
            right -= text_width(shown, 18, True) + 12
        c.text((right, y + 10), tr._("Rating {score}", score=decimal(float(g["score"]), tr)), 22, GOLD,
               bold=True, anchor="ra", max_width=right - 340)
        sparkline(c, list(g.get("scores") or []), 440, y + 40, WIDTH - 34 - 440, 24)
    return c.png()


def sparkline(c: Canvas, values: list[float], x: float, y: float, w: float, h: float) -> None:
    """The rating after each recent session as a small line (nothing for fewer than two)."""
    if len(values) < 2:
        return
    lo, hi = min(values), max(values)
    span = hi - lo or 1.0
    step = w / (len(values) - 1)
    points = [(x + i * step, y + h - (v - lo) / span * h) for i, v in enumerate(values)]
    c.draw.line(points, fill=GOLD, width=2)
    end = points[-1]
    c.draw.ellipse((end[0] - 3, end[1] - 3, end[0] + 3, end[1] + 3), fill=WHITE)
