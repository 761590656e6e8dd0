"""A review's pictures (``/review``): the skill/luck split deal by deal, and a costly decision
drawn as the player saw it (their own view: the table and their hand), with the move played and
the better one. Pure: plain data in, PNG bytes out; words in ``tr``'s language."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import Any

from PIL import Image

from bot.render.canvas import GOLD, MUTED, PANEL, RED, WHITE, Canvas
from bot.render.fonts import text_width
from bot.render.hand import hand_image
from bot.render.table import table_canvas
from bot.render.words import decimal
from bot.rules.base import PLAIN, Text

SKILL = (96, 165, 250)  # blue: what the decisions gained or lost
LUCK = (250, 204, 21)  # gold: what the cards and the others gave
WIDTH = 720
CHART_H = 300
SMALL = 16  # the chart's smallest words and figures: 8 px where a phone shows it 360 px wide
DECISION_W = 720


def split_image(deals: Sequence[tuple[int, float, float, float]], unit: str, tr: Text = PLAIN) -> bytes:
    """PNG of ``deals`` as ``(deal, result, skill, luck)``: per deal a bar for skill and one for
    luck from the zero line, and the result as a white mark (``unit`` already in words)."""
    top, bottom, left, right = 64, 60, 64, 20
    height = top + CHART_H + bottom
    c = Canvas(WIDTH, height, PANEL, tr)
    c.text((20, 14), tr._("Skill and luck, deal by deal"), 22, GOLD, bold=True, max_width=WIDTH - 260)
    c.text((WIDTH - 20, 20), unit, 16, MUTED, anchor="ra", max_width=240)
    legend_y = 47
    x = left
    for colour, word in ((SKILL, tr._("skill")), (LUCK, tr._("luck")), (WHITE, tr._("result"))):
        c.draw.rectangle((x, legend_y, x + 12, legend_y + 12), fill=colour)
        c.text((x + 18, legend_y - 3), word, SMALL, WHITE)
        x += max(130, 18 + text_width(word, SMALL) + 30)
    values = [v for _, r, s, lk in deals for v in (r, s, lk)] or [0.0]
    hi, lo = max(0.0, *values), min(0.0, *values)
    span = (hi - lo) or 1.0
    plot_top = top + 16
    plot_h = CHART_H - 16

    def y_of(v: float) -> float:
        return plot_top + (hi - v) / span * plot_h

    zero = y_of(0.0)
    c.draw.line((left, zero, WIDTH - right, zero), fill=MUTED, width=1)
    c.text((left - 8, y_of(hi)), decimal(hi, tr), SMALL, MUTED, anchor="rm")
    c.text((left - 8, y_of(lo)), decimal(lo, tr), SMALL, MUTED, anchor="rm")
    n = max(1, len(deals))
    slot = (WIDTH - left - right) / n
    bar = max(2.0, min(28.0, slot / 3))
    labels = [str(tr.number(deal)) for deal, *_ in deals]
    every = math.ceil((max((text_width(w, SMALL) for w in labels), default=0) + 8) / slot)  # never meet
    for i, (_, result, skill, luck) in enumerate(deals):
        cx = left + slot * (i + 0.5)
        for dx, v, colour in ((-bar, skill, SKILL), (0.0, luck, LUCK)):
            y0, y1 = sorted((zero, y_of(v)))
            c.draw.rectangle((cx + dx, y0, cx + dx + bar - 1, max(y1, y0 + 1)), fill=colour)
        ry = y_of(result)
        c.draw.line((cx - bar - 3, ry, cx + bar + 3, ry), fill=WHITE, width=3)
        if i % every == 0:
            c.text((cx, top + CHART_H + 10), labels[i], SMALL, MUTED, anchor="ma")
    c.text((WIDTH / 2, height - 16), tr._("deal"), SMALL, MUTED, anchor="mm")
    return c.png()


def decision_image(game: str, view: dict[str, Any], names: list[str], played: str, better: str,
                   grade: str, cards: tuple[str | None, str | None], tr: Text = PLAIN) -> bytes:
    """PNG of one decision: the table and the hand from the player's ``view`` at that moment, the
    played and the better card lit in the hand (``cards``: their codes, None for a move that is not
    a card), and a caption with the two moves (``played``, ``better``: already in words) and the
    ``grade`` word."""
    table = table_canvas(game, view, names, tr).img
    scale = DECISION_W / table.width
    table = table.resize((DECISION_W, round(table.height * scale)), Image.Resampling.LANCZOS)
    lit = {code for code in cards if code}
    hand = Image.open(io.BytesIO(hand_image(game, view, lit, tr))).convert("RGB")
    if hand.width > DECISION_W:
        size = (DECISION_W, round(hand.height * DECISION_W / hand.width))
        hand = hand.resize(size, Image.Resampling.LANCZOS)
    caption_h = 78
    c = Canvas(DECISION_W, table.height + hand.height + caption_h, PANEL, tr)
    c.img.paste(table, (0, 0))
    c.img.paste(hand, ((DECISION_W - hand.width) // 2, table.height))
    y = table.height + hand.height + 8
    c.text((16, y), tr._("Played: {move}", move=played), 19, RED, bold=True, max_width=DECISION_W - 180)
    c.text((DECISION_W - 16, y + 2), grade, 18, GOLD, bold=True, anchor="ra", max_width=160)
    c.text((16, y + 34), tr._("Better: {move}", move=better), 19, SKILL, bold=True, max_width=DECISION_W - 32)
    return c.png()
