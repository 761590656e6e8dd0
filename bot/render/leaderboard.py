"""The leaderboard as a PNG: rank, name, jetons, games played and a bar per row."""

from __future__ import annotations

from typing import Any

from bot.render.canvas import GOLD, MUTED, PANEL, WHITE, Canvas
from bot.render.fonts import fit, readable, text_width
from bot.rules.base import PLAIN, Text

WIDTH = 720
ROW_H = 44
TOP = 64
MAX_ROWS = 20
MEDALS = {1: (255, 204, 40), 2: (200, 210, 220), 3: (214, 140, 80)}
BAR = (70, 150, 100)
BAR_NEG = (190, 80, 70)
REFERENCE = (150, 190, 230)  # an AI level's reference line


def leaderboard_image(rows: list[dict[str, Any]], title: str | None = None, columns: str | None = None,
                      tr: Text = PLAIN) -> bytes:
    """PNG of ``rows`` (``name``, ``jetons``, ``games``, optional ``rank``), at most 20 shown.

    A row may instead carry ``value`` (the bar's number) and ``shown`` (its text), e.g. a rating.
    A row with ``reference`` set is a reference line (an AI level's rating, issue 32): a dashed
    line at its place with its ``name`` and ``shown``, no rank and no bar; at most 20 ranked rows
    are shown, and the references among them.
    ``title`` and ``columns`` default to "Leaderboard" and "jetons · games" in ``tr``'s language.
    """
    rows = _first_ranked(rows, MAX_ROWS)
    height = TOP + max(1, len(rows)) * ROW_H + 16
    c = Canvas(WIDTH, height, PANEL)
    c.text((20, 16), title if title is not None else tr._("Leaderboard"), 28, GOLD, bold=True,
           max_width=WIDTH - 240)
    c.text((WIDTH - 20, 28), columns if columns is not None else tr._("jetons · games"), 16, MUTED,
           anchor="ra")
    if not rows:
        c.text((WIDTH / 2, TOP + ROW_H / 2), tr._("Nobody has played yet"), 20, MUTED, anchor="mm")
        return c.png()
    top = max(1, max(abs(_value(r)) for r in rows))
    bar_x = 330
    widest = max((text_width(_shown(r, tr), 21, True) for r in rows if not r.get("reference")), default=0)
    bar_w = max(60, min(200, WIDTH - 110 - widest - 12 - bar_x))  # bars end before the figures
    for i, row in enumerate(rows):
        y = TOP + i * ROW_H
        if row.get("reference"):
            _reference(c, y, row)
            continue
        rank = int(row.get("rank", i + 1))
        if i % 2 == 0:
            c.draw.rectangle((8, y, WIDTH - 8, y + ROW_H - 2), fill=(22, 64, 42))
        medal = MEDALS.get(rank)
        if medal:
            c.chip(34, y + ROW_H / 2, 14, fill=medal, label=str(rank), size=16, ink=(30, 30, 30))
        else:
            c.text((34, y + ROW_H / 2), str(rank), 19, MUTED, bold=True, anchor="mm")
        c.text((62, y + ROW_H / 2), readable(str(row.get("name", "?"))), 21, WHITE, bold=True, anchor="lm",
               max_width=bar_x - 72)
        jetons = _value(row)
        length = round(bar_w * abs(jetons) / top)
        if length:
            c.draw.rounded_rectangle((bar_x, y + 13, bar_x + length, y + ROW_H - 15), radius=6,
                                     fill=BAR if jetons >= 0 else BAR_NEG)
        c.text((WIDTH - 110, y + ROW_H / 2), _shown(row, tr), 21, GOLD, bold=True, anchor="rm")
        c.text((WIDTH - 20, y + ROW_H / 2), _grouped(int(row.get("games", 0)), tr), 19, WHITE, anchor="rm")
    return c.png()


def _first_ranked(rows: list[dict[str, Any]], limit: int) -> list[dict[str, Any]]:
    """``rows`` up to the ``limit``-th ranked one (references before it kept); none if none is ranked."""
    out, ranked = [], 0
    for row in rows:
        if ranked == limit:
            break
        out.append(row)
        ranked += not row.get("reference")
    return out if ranked else []


def _reference(c: Canvas, y: int, row: dict[str, Any]) -> None:
    """A reference line across the row: dashes, the level's name on the left, its score on the right."""
    mid = y + ROW_H // 2
    for x in range(16, WIDTH - 16, 14):
        c.draw.line((x, mid, min(x + 8, WIDTH - 16), mid), fill=REFERENCE, width=2)
    name = fit(str(row.get("name", "?")), 18, 300)
    c.draw.rectangle((52, mid - 13, 72 + text_width(name, 18), mid + 13), fill=PANEL)
    c.text((62, mid), name, 18, REFERENCE, anchor="lm")
    shown = str(row.get("shown", ""))
    c.draw.rectangle((WIDTH - 120 - text_width(shown, 19), mid - 13, WIDTH - 100, mid + 13), fill=PANEL)
    c.text((WIDTH - 110, mid), shown, 19, REFERENCE, anchor="rm")


def _shown(row: dict[str, Any], tr: Text) -> str:
    """A row's figure as written: its ``shown`` text, else its jetons grouped in ``tr``'s way."""
    return str(row["shown"]) if "shown" in row else _grouped(int(_value(row)), tr)


def _value(row: dict[str, Any]) -> float:
    return float(row["value"]) if "value" in row else int(row.get("jetons", 0))


def _grouped(value: int, tr: Text) -> str:
    """Jetons with the language's grouping; the English image keeps its thin-space grouping."""
    if tr is PLAIN:
        return f"{value:,}".replace(",", " ")
    return ("-" if value < 0 else "") + tr.number(abs(value))
